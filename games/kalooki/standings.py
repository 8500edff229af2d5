"""Standings (R12.3): the order of players across a tournament, ties broken by the ruleset.

A **standing line** is one player's tournament so far: the **total** of their set scores, the
**games won** (games they went out in), their **down-and-outs**, and their score in the **latest
round**. Players are placed by total, lowest first; a tie is broken by the ruleset's **tie-breaks**
in order (ASAJ 2025: more games won, then more down-and-outs, then the lower latest-round score).
Players still level **share** a place, and the next place is skipped: 1, 2, 2, 4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class StandingLine:
    player: str
    total: int
    games_won: int = 0
    down_and_outs: int = 0
    latest_round_score: int = 0


@dataclass(frozen=True, slots=True)
class Placing:
    place: int
    line: StandingLine
    shared: bool  # another player has the same place


# Each tie-break as a sort key where lower comes first.
_TIE_BREAK_KEYS: dict[str, Callable[[StandingLine], int]] = {
    "games_won": lambda line: -line.games_won,
    "down_and_outs": lambda line: -line.down_and_outs,
    "latest_round_score": lambda line: line.latest_round_score,
}


def rank_standings(lines: Iterable[StandingLine], ruleset: Ruleset) -> tuple[Placing, ...]:
    """Place every player (R12.3); level players share a place and are listed by name."""
    return tuple(Placing(*placed) for placed in places(lines, ruleset))


def places(lines: Iterable[StandingLine], ruleset: Ruleset) -> list[tuple[int, StandingLine, bool]]:
    """`rank_standings` as (place, line, shared), best first: for a caller that makes placings
    of its own (the standings of a tournament: thousands of lines, three times a refresh)."""
    breaks = [_TIE_BREAK_KEYS[name] for name in ruleset.tie_breaks]

    def key(line: StandingLine) -> tuple[int, ...]:
        return (line.total, *[tie_break(line) for tie_break in breaks])

    keyed = sorted(((key(line), line) for line in lines), key=lambda kl: (kl[0], kl[1].player))
    level = Counter(k for k, _ in keyed)
    first: dict[tuple[int, ...], int] = {}
    for index, (k, _) in enumerate(keyed, start=1):
        first.setdefault(k, index)
    return [(first[k], line, level[k] > 1) for k, line in keyed]
