"""Hand and Foot behind the game protocol (``games.base``): ``HandAndFoot`` and its ``Rules``.

A **side** is a team of two partners sitting opposite (HF1.2); a **deal** is a hand; a **match**
is a game of the ruleset's hands, cut short when the director calls time (HF2). Everything here
hands the questions of the protocol to the modules that answer them: ``ruleset``, ``fields`` and
``entry`` (what is entered), ``checks`` and ``scoring`` (HF6, HF8), ``match`` (HF10),
``standings`` (HF11), ``tools`` (dispute checks) and ``examples``.
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
    SideResult,
    StandingLine,
    TablePlan,
    TableShape,
    Tool,
    ToolAnswer,
    and_list,
    gettext_noop,
)

from . import checks, examples, match, standings, tools
from . import ruleset as rulesets
from .entry import read_entry
from .fields import hand_fields
from .ruleset import CLUB_SHEET, PRESETS, Ruleset
from .scoring import score_hand

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TIE_BREAK_WORDS = {
    "total": "total points",
    "books": "books made",
    "went_out": "hands gone out",
    "latest_round": "points in the latest round",
}


class HandAndFootRules(Rules[Ruleset]):
    """Hand and Foot under one ruleset: every question one tournament asks of the game."""

    match_win_stats = ("games_won", "wins")  # the game is won when it is over (HF10.1)

    def describe(self) -> tuple[str, ...]:
        return describe(self.ruleset)

    def shape(self) -> TableShape:
        return TableShape(sides=2, min_sides=2, max_sides=2, members=2)  # HF1.2

    def bye_words(self) -> str:
        return _bye_words(self.ruleset)

    def table_plan(self, sides: int) -> TablePlan:
        """Teams two to a table; an odd number of teams leaves one with a bye (HF11.1)."""
        if type(sides) is not int or sides < 2:
            raise RulesError(
                Problem(
                    "HF1.2",
                    gettext_noop(
                        "a round needs at least two teams, not {sides}", sides=repr(sides)
                    ),
                )
            )
        return TablePlan(sizes=(2,) * (sides // 2), byes=sides % 2)

    def schedule(self) -> Schedule:
        words = f"a game of {_number(self.ruleset.hands)} hands, within {_duration(self.ruleset)}"
        return Schedule(
            ScheduleKind.TIMED,
            deals=self.ruleset.hands,
            minutes=self.ruleset.minutes,
            warning_minutes=self.ruleset.warning_minutes or None,
            words=words,
        )

    def deal(self, number: int) -> DealSpec:
        hands = self.ruleset.hands
        if type(number) is not int or not 1 <= number <= hands:
            raise RulesError(
                Problem(
                    "HF2.1",
                    gettext_noop(
                        "there is no hand {number}: hands 1 to {hands}",
                        number=repr(number),
                        hands=hands,
                    ),
                )
            )
        meld = self.ruleset.meld(number)
        notes = (
            f"Opening meld: at least {meld} points (HF3.1).",
            "The hand ends when a player goes out or the draw pile runs out (HF2.4).",
        )
        facts = {
            "meld": meld,
            "hands": hands,
            "minutes": self.ruleset.minutes,
            "warning_minutes": self.ruleset.warning_minutes,
        }
        return DealSpec(number, f"Hand {number}", f"meld {meld}", None, notes, facts)

    def fields(self, number: int) -> tuple[Field, ...]:
        self.deal(number)  # an unknown hand is a RulesError
        return hand_fields(self.ruleset, number)

    def evaluate(self, entry: DealEntry, played: Sequence[DealScore] = ()) -> Evaluation:
        hand, canonical, errors = read_entry(entry, self.ruleset, match.hands_played(played))
        if hand is None:
            return Evaluation(canonical, tuple(errors))
        errors = checks.errors(hand, self.ruleset)
        warnings = tuple(checks.warnings(hand))
        if errors:
            return Evaluation(canonical, tuple(errors), warnings)
        return Evaluation(canonical, (), warnings, score_hand(hand, self.ruleset))

    def next_deal(self, played: Sequence[DealScore], *, time_called: bool = False) -> int | None:
        return match.next_hand(played, self.ruleset, time_called=time_called)

    def match_result(
        self,
        played: Sequence[DealScore],
        *,
        adjustments: Sequence[int] = (),
        decided_for: int | None = None,
        time_called: bool = False,
    ) -> tuple[SideResult, ...]:
        """HF10: the totals of the hands played (all of them, or those before time was called)."""
        return match.result(played, adjustments=adjustments, decided_for=decided_for)

    def columns(self) -> tuple[Column, ...]:
        return standings.columns(self.ruleset)

    def rank(self, lines: Sequence[StandingLine]) -> tuple[Placing, ...]:
        return standings.rank(lines, self.ruleset)

    def tools(self) -> tuple[Tool, ...]:
        return tools.TOOLS

    def check(self, tool: str, request: Mapping[str, Any]) -> ToolAnswer:
        return tools.check(tool, request, self.ruleset)

    def example_entry(self, number: int, sides: int, rng: random.Random) -> DealEntry:
        self.deal(number)
        if sides != 2:
            raise RulesError(
                Problem(
                    "HF1.2", gettext_noop("a table holds two teams, not {sides}", sides=repr(sides))
                )
            )
        return examples.example_entry(self.ruleset, number, rng)


class HandAndFoot(Game[Ruleset]):
    key = "hand_and_foot"
    name = "Hand and Foot"
    higher_wins = True
    default_preset = CLUB_SHEET
    citations = {
        "order": "HF2.2",
        "table": "HF1.2",
        "ranking": "HF11.2",
        "went_out": "HF5.1",
        "warning": "HF2.2",
    }

    def presets(self) -> Mapping[str, Ruleset]:
        return dict(PRESETS)

    def settings(self) -> tuple[Setting, ...]:
        return rulesets.SETTINGS

    def ruleset(self, request: Mapping[str, Any] | None = None) -> Ruleset:
        return rulesets.build(request, PRESETS)

    def load(self, stored: Mapping[str, Any]) -> Ruleset:
        return rulesets.load(stored, PRESETS)

    def dump(self, ruleset: Ruleset) -> dict[str, Any]:
        return rulesets.dump(ruleset)

    def changes(self, ruleset: Ruleset) -> dict[str, Any]:
        return rulesets.changes(ruleset, PRESETS)

    def rules(self, ruleset: Ruleset) -> HandAndFootRules:
        return HandAndFootRules(self, ruleset)


# --- the ruleset in words -----------------------------------------------------------------------


def describe(rules: Ruleset) -> tuple[str, ...]:
    return (
        f"{_number(rules.decks, True)} decks with {_number(rules.jokers)} jokers "
        f"({rules.deck.size} cards); two teams of two, partners sitting opposite (HF1).",
        f"A game is {_number(rules.hands)} hands with opening meld minimums of "
        f"{and_list(map(str, rules.meld_minimums))}, time permitting within {_duration(rules)}"
        f"{_warning(rules)}; the director calls time (HF2).",
        f"A red book scores {rules.red_book_points} and a black book {rules.black_book_points}; "
        f"going out needs {_number(rules.red_books_to_go_out)} red and "
        f"{_number(rules.black_books_to_go_out)} black books and a discard (HF4, HF5).",
        f"Cards count joker {rules.joker_points}, ace {rules.ace_points}, king to ten "
        f"{rules.king_to_ten_points}, nine to four {rules.nine_to_four_points}, two "
        f"{rules.two_points}, black three {rules.black_three_points}, red three laid aside "
        f"{rules.red_three_points}: for the team when laid down, against it when left in hand "
        f"or in a foot not played (HF6, HF7).",
        f"A red three left in hand {-rules.red_three_penalty}; going out "
        f"+{rules.going_out_bonus}; picking up and dealing exactly 26 cards "
        f"+{rules.dealt_26_bonus}; a failed meld {-rules.failed_meld_penalty} (HF6).",
        "The higher total wins the game; a tie is settled at once by a short play-off or a "
        "high-card draw, as the director decides (HF10).",
        f"Standings: games won, then {_tie_breaks(rules)} (HF11.2).",
        _bye_words(rules),
    )


def _number(count: int, capital: bool = False) -> str:
    word = _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)
    return word.capitalize() if capital else word


def _duration(rules: Ruleset) -> str:
    hours, minutes = divmod(rules.minutes, 60)
    if not hours:
        return f"{minutes} minutes"
    return f"{hours} h {minutes:02d}" if minutes else f"{hours} h"


def _warning(rules: Ruleset) -> str:
    if not rules.warning_minutes:
        return ""
    return f" (the players are warned {rules.warning_minutes} minutes before time)"


def _tie_breaks(rules: Ruleset) -> str:
    if not rules.tie_breaks:
        return "nothing: teams level on games won share a place"
    return and_list(_TIE_BREAK_WORDS[name] for name in rules.tie_breaks)


def _bye_words(rules: Ruleset) -> str:
    if rules.bye_rule == "win":
        return f"A bye counts as a game won with {rules.bye_points} points (HF11.1)."
    if rules.bye_rule == "average":
        return "A bye counts as the team's average over the rounds it played (HF11.1)."
    return "A bye counts as nothing: no game won and no points (HF11.1)."
