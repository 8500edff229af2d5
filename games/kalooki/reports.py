"""Entries: what a scorekeeper enters for one game at one table (R8 to R11).

A **hand report** is one player's result in one game: whether they **went out** (R8.1); either the
**cards** left in their hand as R11 text (``""`` is an empty hand) or, when the cards were not
written down, their **points**, the R2 total of those cards before any down-and-out doubling (the
engine doubles, R8.3); how many **calls** they received (R6; None when not entered); how many
**failed come-downs** they had (R5.4); whether they were found to have **overcalled** (R6.3); and
any director **adjustment** in points for this game (R12.4; negative takes points off); and,
under the house rule of the **18-card challenge** (R13.9), whether they lost one and left the game:
as the ``challenged`` player who held more than the limit, or as the ``challenger`` who was wrong.

A **game report** is the game's number in the set (R4), one hand report per player at the table in
seat order, whether the game ended **down and out** (R8.3), and whether it was **void** (R9.2: the
stock ran out twice, nobody scores, the same game is dealt again).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

CHALLENGED = "challenged"  # challenged, and held more cards than the limit (R13.9)
CHALLENGER = "challenger"  # challenged another player who held no more than the limit (R13.9)
CHALLENGE_OUTCOMES = (CHALLENGED, CHALLENGER)


@dataclass(frozen=True, slots=True)
class HandReport:
    player: str
    went_out: bool = False
    cards: str | None = None
    points: int | None = None
    calls: int | None = None
    failed_come_downs: int = 0
    overcall_penalty: bool = False
    adjustment: int = 0
    challenge: str | None = None  # lost an 18-card challenge as CHALLENGED or CHALLENGER (R13.9)


@dataclass(frozen=True, slots=True)
class GameReport:
    game: int
    hands: tuple[HandReport, ...]
    down_and_out: bool = False
    void: bool = False

    def __post_init__(self) -> None:
        # Callers often build the hands as a list; a tuple keeps the entry hashable and fixed.
        if not isinstance(self.hands, tuple):
            object.__setattr__(self, "hands", tuple(self.hands))

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(hand.player for hand in self.hands)

    def with_hands(self, hands: Iterable[HandReport]) -> GameReport:
        return GameReport(self.game, tuple(hands), self.down_and_out, self.void)
