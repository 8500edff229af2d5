"""Scoring (R8, R9): what each player scores for a game, and for a set of nine games.

A player's **card points** are the R2 values of the cards left in their hand (or the total entered
for them); the player who went out has none (R8.1, R8.2). In a **down-and-out** game every other
player's card points are **doubled** (R8.3). **Penalties** are 50 points per failed come-down
(R5.4) and 50 for an overcall (R6.3); they are added after doubling and not doubled (R8.4, a
ruleset setting). A **director adjustment** (R12.4) is added as entered. A player's **game score**
is the sum (R8.5); a **void** game scores nothing for anyone (R9.2). The **set score** is the sum
of the game scores of the nine games; lower is better (R8.6, R4.1).

Under house rules (R13) down and out may double nothing (R13.8), and a player who lost an
**18-card challenge** scores the cards they held when they left plus the challenge penalty, never
doubled (R13.9).

Every number comes with its **reasons**: short lines that say where it came from, for the score
sheet and for a player who asks "why 184?".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from games.base import gettext_noop

from .cards import Card, format_cards
from .checks import EntryCheck, Hands, read_entry
from .entries import CHALLENGED, GameEntry, HandEntry
from .problems import Problem, RulesError
from .ruleset import Ruleset

__all__ = [
    "EntryRefused",
    "GameEntry",
    "GameScore",
    "HandEntry",
    "PlayerScore",
    "PlayerSetScore",
    "SetScore",
    "evaluate",
    "score_game",
    "score_set",
]

VOID_REASON = "void game: no score for anyone (R9.2)"


class EntryRefused(RulesError):
    """An entry with R10 errors cannot be scored; ``check`` holds every error and warning."""

    def __init__(self, check: EntryCheck) -> None:
        super().__init__(check.errors[0])
        self.check = check

    def __str__(self) -> str:
        return "; ".join(problem.message for problem in self.check.errors)


@dataclass(frozen=True, slots=True)
class PlayerScore:
    player: str
    went_out: bool
    card_points: int
    doubled: bool
    doubled_points: int  # card points after R8.3 doubling (the same when not doubled)
    penalties: int
    adjustment: int
    total: int
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "went_out": self.went_out,
            "card_points": self.card_points,
            "doubled": self.doubled,
            "doubled_points": self.doubled_points,
            "penalties": self.penalties,
            "adjustment": self.adjustment,
            "total": self.total,
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True, slots=True)
class GameScore:
    game: int
    void: bool
    down_and_out: bool
    scores: tuple[PlayerScore, ...]  # in the order of the entry's hands

    def total_for(self, player: str) -> int:
        return next(score.total for score in self.scores if score.player == player)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "void": self.void,
            "down_and_out": self.down_and_out,
            "scores": [score.to_dict() for score in self.scores],
        }


def evaluate(entry: GameEntry, ruleset: Ruleset) -> tuple[EntryCheck, GameScore | None]:
    """Check an entry (R10) and, when it has no errors, score it; the cards are read once."""
    check, hands = read_entry(entry, ruleset)
    if check.errors:
        return check, None
    return check, score_read(entry, hands, ruleset)


def score_game(entry: GameEntry, ruleset: Ruleset) -> GameScore:
    """Score an entry; raise ``EntryRefused`` if it has R10 errors. Warnings do not stop it."""
    check, score = evaluate(entry, ruleset)
    if score is None:
        raise EntryRefused(check)
    return score


def score_read(entry: GameEntry, hands: Hands, ruleset: Ruleset) -> GameScore:
    """Score an entry whose cards ``read_entry`` has read and found without errors."""
    scores = tuple(
        _score_hand(hand, cards, entry, ruleset)
        for hand, cards in zip(entry.hands, hands, strict=True)
    )
    return GameScore(entry.game, entry.void, entry.down_and_out, scores)


def _score_hand(
    hand: HandEntry, cards: tuple[Card, ...] | None, entry: GameEntry, ruleset: Ruleset
) -> PlayerScore:
    if entry.void:
        return PlayerScore(hand.player, hand.went_out, 0, False, 0, 0, 0, 0, (VOID_REASON,))
    card_points, card_reason = _card_points(hand, cards, ruleset)
    doubled = _doubled(hand, entry, ruleset)
    doubled_points = 2 * card_points if doubled else card_points
    penalties, penalty_reasons = _penalties(hand, ruleset, doubled)
    total = doubled_points + penalties + hand.adjustment
    reasons = [card_reason]
    if doubled:
        reasons.append(f"doubled: down and out (R8.3): {card_points} × 2 = {doubled_points}")
    elif entry.down_and_out and not hand.went_out:
        reasons.append(_not_doubled_reason(hand))
    reasons += penalty_reasons
    if hand.adjustment:
        reasons.append(f"director adjustment {hand.adjustment:+d} (R12.4)")
    reasons.append(_total_reason(doubled_points, penalties, hand.adjustment, total))
    return PlayerScore(
        player=hand.player,
        went_out=hand.went_out,
        card_points=card_points,
        doubled=doubled,
        doubled_points=doubled_points,
        penalties=penalties,
        adjustment=hand.adjustment,
        total=total,
        reasons=tuple(reasons),
    )


def _doubled(hand: HandEntry, entry: GameEntry, ruleset: Ruleset) -> bool:
    return (
        entry.down_and_out
        and ruleset.double_on_down_and_out
        and not hand.went_out
        and hand.challenge is None
    )


def _not_doubled_reason(hand: HandEntry) -> str:
    if hand.challenge is not None:
        return "not doubled: counted when they left the game on losing the challenge (R13.9)"
    return "not doubled: this ruleset's down and out doubles nothing (R13.8)"


def _card_points(
    hand: HandEntry, cards: tuple[Card, ...] | None, ruleset: Ruleset
) -> tuple[int, str]:
    if hand.went_out:
        return 0, "went out: 0 (R8.1)"
    if cards is None:
        points = hand.points or 0
        return points, f"points entered = {points} (R8.2)"
    table = ruleset.card_values.table
    values = [table[card] for card in cards]
    total = sum(values)
    sum_text = f" = {' + '.join(map(str, values))}" if len(values) > 1 else ""
    return total, f"cards {format_cards(cards)}{sum_text} = {total} (R8.2)"


def _penalties(hand: HandEntry, ruleset: Ruleset, doubled: bool) -> tuple[int, tuple[str, ...]]:
    factor = 2 if doubled and ruleset.double_penalties_on_down_and_out else 1
    come_downs = hand.failed_come_downs * ruleset.failed_come_down_penalty * factor
    overcall = ruleset.overcall_penalty * factor if hand.overcall_penalty else 0
    challenge = ruleset.challenge_penalty if hand.challenge is not None else 0
    reasons = []
    if come_downs:
        reasons.append(f"failed come-down ×{hand.failed_come_downs} = {come_downs} (R5.4)")
    if overcall:
        reasons.append(f"overcall = {overcall} (R6.3)")
    if (come_downs or overcall) and doubled:
        doubling = "doubled too, by this ruleset" if factor == 2 else "not doubled"
        reasons.append(f"penalties {doubling} (R8.4)")
    if hand.challenge is not None:
        reasons.append(f"{_challenge_words(hand.challenge, ruleset)} = {challenge} (R13.9)")
    return come_downs + overcall + challenge, tuple(reasons)


def _challenge_words(outcome: str, ruleset: Ruleset) -> str:
    limit = ruleset.challenge_limit
    if outcome == CHALLENGED:
        return f"lost the {limit}-card challenge: challenged, held more than {limit} cards"
    return f"lost the {limit}-card challenge: challenged a player who held {limit} or fewer"


def _total_reason(card_points: int, penalties: int, adjustment: int, total: int) -> str:
    text = str(card_points) + (f" + {penalties}" if penalties else "")
    if adjustment:
        text += f" {'+' if adjustment > 0 else '-'} {abs(adjustment)}"
    sums = "" if text == str(total) else f"{text} = "
    return f"game score = {sums}{total} (R8.5)"


# A set of nine games (R4.1, R8.6).


@dataclass(frozen=True, slots=True)
class PlayerSetScore:
    player: str
    total: int
    games_won: int  # games this player went out in (R12.3)
    down_and_outs: int  # games this player went out in down and out (R12.3)

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "total": self.total,
            "games_won": self.games_won,
            "down_and_outs": self.down_and_outs,
        }


@dataclass(frozen=True, slots=True)
class SetScore:
    games: tuple[GameScore, ...]
    players: tuple[PlayerSetScore, ...]  # in order of first appearance
    complete: bool  # every game of the set has been scored (void attempts aside)

    @property
    def winners(self) -> tuple[str, ...]:
        """The players with the lowest set score (R4.1); several when they tie."""
        lowest = min((line.total for line in self.players), default=0)
        return tuple(line.player for line in self.players if line.total == lowest)

    def total_for(self, player: str) -> int:
        return next(line.total for line in self.players if line.player == player)


def score_set(entries: Iterable[GameEntry], ruleset: Ruleset) -> SetScore:
    """Score every game of a set and sum per player (R8.6); void attempts count for nothing."""
    games = tuple(score_game(entry, ruleset) for entry in entries)
    scored = Counter(game.game for game in games if not game.void)
    twice = sorted(number for number, times in scored.items() if times > 1)
    if twice:
        raise RulesError(
            Problem("R4.1", gettext_noop("game {twice} is scored twice in one set", twice=twice[0]))
        )
    complete = set(scored) == {spec.number for spec in ruleset.games}
    return SetScore(games, _set_lines(games), complete)


def _set_lines(games: tuple[GameScore, ...]) -> tuple[PlayerSetScore, ...]:
    totals: Counter[str] = Counter()
    won: Counter[str] = Counter()
    down_and_outs: Counter[str] = Counter()
    for game in games:
        for score in game.scores:
            totals[score.player] += score.total
            won[score.player] += score.went_out and not game.void
            down_and_outs[score.player] += score.went_out and game.down_and_out
    return tuple(
        PlayerSetScore(player, total, won[player], down_and_outs[player])
        for player, total in totals.items()
    )
