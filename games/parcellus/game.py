"""Parcellus behind the game protocol (``games.base``): what a tournament asks, answered.

``Parcellus`` is the game (its presets, settings and rulesets); ``ParcellusRules`` is the game
under one ruleset: tables of three (PA1.1, PA7.1), a match to a target (PA5), the deal's spec with
its dealer and pass (PA2.3, PA2.4), the entry's fields, checks and score (PA4, PA6), the match
result (PA7.3, PA7.5), the standings (PA7.4), the director's parcel check (PA3.2) and example
entries played out by the rules (``play``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import (
    Column,
    DealEntry,
    DealScore,
    DealSpec,
    Evaluation,
    Field,
    Game,
    Placing,
    Problem,
    Rules,
    RulesError,
    Schedule,
    ScheduleKind,
    Setting,
    SideEntry,
    SideResult,
    StandingLine,
    TablePlan,
    TableShape,
    Tool,
    ToolAnswer,
    gettext_noop,
)

from . import checks, entries, scoring, standings
from . import ruleset as rulesets
from .deck import DECK_SIZE, HAND, JACK_OF_HEARTS, colour, read_parcel
from .play import LEFT, DealPlayed, dealer_step, pass_direction, play_deal
from .ruleset import PRESETS, SETTINGS, Ruleset, shown

_PARCEL_TOOL = Tool(
    "parcel",
    "Parcel",
    "Is this run of cards a parcel? Each card must be the next higher of the same colour, "
    "an ace followed by a nine (PA3.2).",
)


class ParcellusRules(Rules[Ruleset]):
    def describe(self) -> tuple[str, ...]:
        return rulesets.describe(self.ruleset)

    def shape(self) -> TableShape:
        return TableShape(sides=3, min_sides=3, max_sides=3)

    def bye_words(self) -> str:
        return rulesets.bye_words(self.ruleset)

    def table_plan(self, sides: int) -> TablePlan:
        """Tables of three, and a bye for each player left over (PA7.1)."""
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 3:
            text = gettext_noop(
                "{shown} players cannot make a table: Parcellus needs three", shown=shown(sides)
            )
            raise RulesError(Problem("PA7.1", text))
        tables, byes = divmod(sides, 3)
        return TablePlan((3,) * tables, byes)

    def schedule(self) -> Schedule:
        target = self.ruleset.target
        return Schedule(ScheduleKind.TARGET, target=target, words=f"a match to {target} points")

    def deal(self, number: int) -> DealSpec:
        """Deal ``number`` of a match: its dealer and the way the pass goes (PA2.3, PA2.4)."""
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            text = gettext_noop(
                "there is no deal {shown}: deals are numbered from 1", shown=shown(number)
            )
            raise RulesError(Problem("PA5.4", text))
        way = "left" if pass_direction(number) == LEFT else "right"
        step, target = dealer_step(number), self.ruleset.target
        return DealSpec(
            number,
            f"Deal {number}",
            f"dealer: {_dealer_words(step)}; pass three cards to the {way}",
            dealer_step=step,
            notes=(
                f"Each player passes three cards to the {way} (PA2.3).",
                f"The dealer is {_dealer_words(step)} (PA2.4).",
                f"The match goes on until someone has {target} points (PA5).",
            ),
            facts={"pass": way, "cards_each": HAND, "common_pile": HAND, "target": target},
        )

    def fields(self, number: int) -> tuple[Field, ...]:
        self.deal(number)
        return entries.fields(self.ruleset)

    def evaluate(self, entry: DealEntry, played: Sequence[DealScore] = ()) -> Evaluation:
        reading = entries.read(entry)
        labels = [side.label for side in reading.entry.sides]
        errors = [*reading.errors, *self._match_problems(entry.number, played, labels)]
        captures = reading.captures
        if captures is not None:
            errors += checks.errors(captures, labels)
        if captures is None or errors:
            return Evaluation(reading.entry, tuple(errors))
        score = scoring.score_deal(entry.number, captures, labels, self.ruleset)
        return Evaluation(reading.entry, (), tuple(checks.warnings(captures)), score)

    def _match_problems(
        self, number: Any, played: Sequence[DealScore], labels: Sequence[str]
    ) -> list[Problem]:
        """No deal after the match is over, and each deal in its turn (PA6.5, PA5.4)."""
        expected = self.next_deal(played)
        if expected is None:
            text = gettext_noop(
                "the match is over: {winners}; no deal is entered after it",
                winners=_won_words(played, labels),
            )
            return [Problem("PA6.5", text, field="number")]
        if type(number) is int and number >= 1 and number != expected:
            text = gettext_noop(
                "deal {expected} is the next deal of this match, not deal {shown}",
                expected=expected,
                shown=shown(number),
            )
            return [Problem("PA6.5", text, field="number")]
        return []

    def next_deal(self, played: Sequence[DealScore], *, time_called: bool = False) -> int | None:
        # A match to a target is not timed: a director who stops one names its winner (PA7.5).
        return scoring.next_deal(played, self.ruleset)

    def match_result(
        self,
        played: Sequence[DealScore],
        *,
        adjustments: Sequence[int] = (),
        decided_for: int | None = None,
        time_called: bool = False,
    ) -> tuple[SideResult, ...]:
        return scoring.result(
            played, self.ruleset, adjustments=adjustments, decided_for=decided_for
        )

    def columns(self) -> tuple[Column, ...]:
        return standings.columns(self.ruleset)

    def rank(self, lines: Sequence[StandingLine]) -> tuple[Placing, ...]:
        return standings.rank(lines, self.ruleset)

    def tools(self) -> tuple[Tool, ...]:
        return (_PARCEL_TOOL,)

    def check(self, tool: str, request: Mapping[str, Any]) -> ToolAnswer:
        if tool != _PARCEL_TOOL.name:
            return super().check(tool, request)
        text = request.get("cards") if isinstance(request, Mapping) else None
        if not isinstance(text, str):
            problem = Problem(
                "PA8.1", gettext_noop("write the parcel's cards, like 9H 10D JH"), field="cards"
            )
            return ToolAnswer(False, (problem,))
        cards, problems = read_parcel(text)
        if problems:
            return ToolAnswer(False, problems)
        return ToolAnswer(True, detail=self._parcel_detail(cards))

    def _parcel_detail(self, cards: Sequence[Any]) -> dict[str, Any]:
        points = len(cards) + (self.ruleset.jack_of_hearts - 1) * (JACK_OF_HEARTS in cards)
        return {
            "cards": " ".join(str(card) for card in cards),
            "colour": colour(cards[0]),
            "points": points,
        }

    def example_entry(self, number: int, sides: int, rng: random.Random) -> DealEntry:
        """A deal played out by the rules (``play``), re-dealt while it would need a
        confirmation (PA6.6, PA6.7), so that demos are not flagged for the director."""
        if sides != 3:
            raise RulesError(
                Problem(
                    "PA1.1",
                    gettext_noop("Parcellus is played three at a table, not {sides}", sides=sides),
                )
            )
        spec = self.deal(number)
        direction = pass_direction(number)
        for _ in range(50):
            played = play_deal(rng, dealer=spec.dealer_step or 0, direction=direction)
            if HAND < sum(played.cards(seat) for seat in range(3)) < DECK_SIZE:
                break
        return _entry(number, played)


def _entry(number: int, played: DealPlayed) -> DealEntry:
    return DealEntry(
        number,
        tuple(
            SideEntry(
                f"Player {seat + 1}",
                {
                    entries.CARDS: played.cards(seat),
                    entries.PARCELS_FIELD: played.parcel_count(seat),
                    entries.JACK: played.jack_of_hearts == seat,
                },
            )
            for seat in range(3)
        ),
    )


def _won_words(played: Sequence[DealScore], labels: Sequence[str]) -> str:
    totals = scoring.totals(played, len(played[-1].sides))
    side = totals.index(max(totals))
    if len(labels) == len(totals):
        name = labels[side]
    else:
        name = gettext_noop("player {number}", number=side + 1)
    return gettext_noop(
        "{player} won it with {points} points in deal {number}",
        player=name,
        points=totals[side],
        number=played[-1].number,
    )


def _dealer_words(step: int) -> str:
    """Who deals, from the first dealer: at a table of three, her left or right neighbour."""
    return (
        "the first dealer",
        "the first dealer's left neighbour",
        "the first dealer's right neighbour",
    )[step]


class Parcellus(Game[Ruleset]):
    key = "parcellus"
    name = "Parcellus"
    higher_wins = True
    default_preset = rulesets.DEFAULT_PRESET
    citations = {
        "order": "PA6.5",
        "ruling": "PA7.5",
        "table": "PA1.1",
        "first_dealer": "PA2.4",
        "round": "PA7.1",
        "ranking": "PA7.4",
    }

    def presets(self) -> Mapping[str, Ruleset]:
        return dict(PRESETS)

    def settings(self) -> tuple[Setting, ...]:
        return SETTINGS

    def ruleset(self, request: Mapping[str, Any] | None = None) -> Ruleset:
        return rulesets.from_request(request)

    def load(self, stored: Mapping[str, Any]) -> Ruleset:
        return rulesets.from_request(stored)

    def dump(self, rules: Ruleset) -> dict[str, Any]:
        return rulesets.dump(rules)

    def changes(self, rules: Ruleset) -> dict[str, Any]:
        return rulesets.changes(rules)

    def rules(self, rules: Ruleset) -> ParcellusRules:
        return ParcellusRules(self, rules)
