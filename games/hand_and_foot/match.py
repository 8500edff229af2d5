"""A game of hands at one table (HF2, HF10): what comes next, and who won.

A **game** here is the protocol's match: the ruleset's hands in order (HF2.1), cut short when the
director calls time (HF2.2). Its **result** gives each team its total over the hands played, with
ruling **adjustments**, and the winner: the higher total, or in a tie the team a director's ruling
**decided for** after a play-off or a high-card draw (HF10.2). A tie without a ruling has no
winner yet: both teams share first place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.base import DealScore, Problem, RulesError, SideResult, gettext_noop

from .ruleset import Ruleset

TEAMS = 2


def hands_played(played: Sequence[DealScore]) -> int:
    return sum(1 for deal in played if not deal.void)


def next_hand(played: Sequence[DealScore], ruleset: Ruleset, *, time_called: bool) -> int | None:
    """The hand to enter next; None once every hand is played or time is called (HF2.2)."""
    done = hands_played(played)
    return None if time_called or done >= ruleset.hands else done + 1


def totals(played: Sequence[DealScore], adjustments: Sequence[int] = ()) -> tuple[int, ...]:
    """Each team's total over the hands played, with ruling points (HF6.8)."""
    _check_teams(played, adjustments)
    scored = [deal for deal in played if not deal.void]
    extra = tuple(adjustments) or (0,) * TEAMS
    return tuple(sum(deal.sides[side].points for deal in scored) + extra[side] for side in (0, 1))


def result(
    played: Sequence[DealScore],
    *,
    adjustments: Sequence[int] = (),
    decided_for: int | None = None,
) -> tuple[SideResult, ...]:
    points = totals(played, adjustments)
    if decided_for not in (None, 0, 1) or isinstance(decided_for, bool):
        raise RulesError(
            Problem(
                "HF10.2",
                gettext_noop(
                    "a ruling decides for team 0 or 1, not {decided_for}",
                    decided_for=repr(decided_for),
                ),
            )
        )
    winner = _winner(points, decided_for)
    return tuple(
        SideResult(
            place=1 if winner in (None, side) else 2,
            won=winner == side,
            stats=_stats(played, side, points[side], winner == side),
            shared=winner is None,
        )
        for side in (0, 1)
    )


def _winner(points: tuple[int, ...], decided_for: int | None) -> int | None:
    """HF10.1: the higher total; HF10.2: in a tie, the team a ruling decided for, if any."""
    if points[0] != points[1]:
        return 0 if points[0] > points[1] else 1
    return decided_for


def _stats(played: Sequence[DealScore], side: int, total: int, won: bool) -> dict[str, int]:
    scores = [deal.sides[side] for deal in played if not deal.void]
    red = sum(_count(score.detail, "red_books") for score in scores)
    black = sum(_count(score.detail, "black_books") for score in scores)
    return {
        "total": total,
        "wins": int(won),
        "games_won": int(won),
        "books": red + black,
        "red_books": red,
        "black_books": black,
        "went_out": sum(score.went_out for score in scores),
        "hands": len(scores),
    }


def _count(detail: object, name: str) -> int:
    value = detail.get(name, 0) if isinstance(detail, Mapping) else 0
    return value if type(value) is int else 0


def _check_teams(played: Sequence[DealScore], adjustments: Sequence[int]) -> None:
    if any(len(deal.sides) != TEAMS for deal in played):
        raise RulesError(
            Problem("HF1.2", gettext_noop("every hand of a game is scored for two teams"))
        )
    if len(adjustments) not in (0, TEAMS) or any(type(a) is not int for a in adjustments):
        raise RulesError(
            Problem("HF6.8", gettext_noop("ruling adjustments are whole points for each team"))
        )
