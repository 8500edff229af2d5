"""Scoring a deal (PA4) and a match to 30 (PA5, PA7.3, PA7.5).

A player's **card points** are one for each card she captured, the J♥ scoring the ruleset's value
instead of one (PA4.1). The **bonus** goes to the player with the most parcels, shared equally
among those level for the most (PA4.2). Her **deal score** is the two added (PA4.3).

A player's **total** is the sum of her deal scores (and of any ruling's points). The match has a
**winner** after a deal when a total has reached the **target** and one player alone has the
highest (PA5.2); until then the next deal is played (PA5.3). A match **result** places the players
by total, gives the winner first place, and scores **match points** by place once the match is
over (PA7.3); a ruling may name the winner instead (PA7.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import DealScore, Problem, RulesError, SideResult, SideScore, and_list, gettext_noop

from .entries import SIDES, Capture
from .ruleset import Ruleset

# --- a deal ------------------------------------------------------------------------------------


def score_deal(
    number: int, captures: Sequence[Capture], labels: Sequence[str], ruleset: Ruleset
) -> DealScore:
    """Each player's score for the deal, with the reasons behind it (PA4)."""
    most = max(capture.parcels for capture in captures)
    leaders = [side for side, capture in enumerate(captures) if capture.parcels == most]
    sides = tuple(
        _score_player(capture, _bonus(side, leaders, labels, ruleset), ruleset)
        for side, capture in enumerate(captures)
    )
    detail = {
        "cards_captured": sum(capture.cards for capture in captures),
        "most_parcels": most,
        "bonus_shared_by": len(leaders),
    }
    return DealScore(number, sides, detail=detail)


def card_points(capture: Capture, ruleset: Ruleset) -> int:
    """One point a card, the J♥ counting its own value instead of one (PA4.1)."""
    jack = ruleset.jack_of_hearts - 1 if capture.jack_of_hearts else 0
    return capture.cards + jack


def _bonus(
    side: int, leaders: Sequence[int], labels: Sequence[str], ruleset: Ruleset
) -> tuple[int, str]:
    """A player's share of the bonus (PA4.2) and the reason for it ("" when she has none)."""
    if side not in leaders or not ruleset.bonus:
        return 0, ""
    share = ruleset.bonus // len(leaders)
    others = [labels[other] for other in leaders if other != side]
    if not others:
        return share, f"most parcels: {share} bonus points (PA4.2)"
    tied = f"level with {and_list(others)}"
    return share, f"most parcels, {tied}: {ruleset.bonus} / {len(leaders)} = {share} (PA4.2)"


def _score_player(capture: Capture, bonus: tuple[int, str], ruleset: Ruleset) -> SideScore:
    cards = card_points(capture, ruleset)
    share, bonus_reason = bonus
    reasons = [f"{_count(capture.cards, 'card')} captured: {capture.cards} (PA4.1)"]
    if capture.jack_of_hearts:
        extra = ruleset.jack_of_hearts - 1
        reasons.append(f"the J♥ scores {ruleset.jack_of_hearts}: {extra:+d} (PA4.1)")
    reasons += [bonus_reason] if bonus_reason else []
    reasons.append(f"deal score = {cards + share} (PA4.3)")
    detail = {
        "cards": capture.cards,
        "parcels": capture.parcels,
        "jack_of_hearts": capture.jack_of_hearts,
        "card_points": cards,
        "bonus": share,
    }
    return SideScore(cards + share, reasons=tuple(reasons), detail=detail)


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


# --- a match -----------------------------------------------------------------------------------


def totals(played: Sequence[DealScore], sides: int = SIDES) -> tuple[int, ...]:
    """Each player's total over the deals played (PA5.1); a void deal scores nothing."""
    return tuple(sum(deal.sides[side].points for deal in played) for side in range(sides))


def winner(scores: Sequence[int], ruleset: Ruleset) -> int | None:
    """The side with the highest total, once a total has reached the target and nobody is level
    with it (PA5.2); None while the match goes on (PA5.3)."""
    best = max(scores)
    if best < ruleset.target or list(scores).count(best) > 1:
        return None
    return list(scores).index(best)


def next_deal(played: Sequence[DealScore], ruleset: Ruleset) -> int | None:
    """The number of the deal to play next, or None once the match is over (PA5.2 to PA5.4)."""
    if played and winner(totals(played, len(played[0].sides)), ruleset) is not None:
        return None
    return max((deal.number for deal in played), default=0) + 1


def result(
    played: Sequence[DealScore],
    ruleset: Ruleset,
    *,
    adjustments: Sequence[int] = (),
    decided_for: int | None = None,
) -> tuple[SideResult, ...]:
    """Each player's result of the match so far, in seat order (PA7.3, PA7.5)."""
    sides = len(played[0].sides) if played else SIDES
    scores = _adjusted(totals(played, sides), adjustments)
    over = decided_for is not None or next_deal(played, ruleset) is None
    first = _first(scores, over, decided_for)
    places = _places(scores, first)
    return tuple(
        _side_result(side, places, scores[side], first, over, played, ruleset)
        for side in range(sides)
    )


def _adjusted(scores: tuple[int, ...], adjustments: Sequence[int]) -> tuple[int, ...]:
    if not adjustments:
        return scores
    if len(adjustments) != len(scores) or not all(_whole(points) for points in adjustments):
        text = gettext_noop(
            "a ruling's points are one whole number per player, {count} in all", count=len(scores)
        )
        raise RulesError(Problem("PA7.5", text))
    return tuple(score + points for score, points in zip(scores, adjustments, strict=True))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _first(scores: Sequence[int], over: bool, decided_for: Any) -> int | None:
    """The winner: the player a ruling names (PA7.5); else, once the match is over, the one
    player with the highest total, rulings' points included; else nobody yet."""
    if decided_for is not None:
        if _whole(decided_for) and 0 <= decided_for < len(scores):
            return int(decided_for)
        text = gettext_noop(
            "a ruling names the winner as a player of the table, 0 to {last}",
            last=len(scores) - 1,
        )
        raise RulesError(Problem("PA7.5", text))
    best = max(scores)
    return list(scores).index(best) if over and list(scores).count(best) == 1 else None


def _places(scores: Sequence[int], first: int | None) -> list[int]:
    """Places from 1 by total, highest first, level players sharing (1, 2, 2); the winner, when
    there is one, first and alone."""
    if first is None:
        return [1 + sum(other > score for other in scores) for score in scores]
    rest = [score for side, score in enumerate(scores) if side != first]
    return [
        1 if side == first else 2 + sum(other > score for other in rest)
        for side, score in enumerate(scores)
    ]


def _side_result(
    side: int,
    places: Sequence[int],
    total: int,
    first: int | None,
    over: bool,
    played: Sequence[DealScore],
    ruleset: Ruleset,
) -> SideResult:
    place = places[side]
    won = over and side == first
    stats = {
        "total": total,
        "wins": int(won),
        "match_points": ruleset.place_points(place) if over else 0,
        "parcels": _sum_detail(played, side, "parcels"),
        "jacks_of_hearts": _sum_detail(played, side, "jack_of_hearts"),
    }
    return SideResult(place, won, stats, shared=places.count(place) > 1)


def _sum_detail(played: Sequence[DealScore], side: int, name: str) -> int:
    """A count over the deals from each stored score's detail (a missing one counts nothing)."""
    return sum(int(deal.sides[side].detail.get(name) or 0) for deal in played)
