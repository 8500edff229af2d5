"""Rulesets: every number and choice of Hand and Foot that a tournament may set, held as data.

A **ruleset** is a frozen ``Ruleset``; a **preset** is a named one (``club-sheet``, the club rule
sheet of RULES.md, is the default). A **setting** is one field of it, described for set-up pages
and tools by a ``Setting`` with a JSON Schema fragment of its allowed values (``SETTINGS``). A
**request** names a preset and only the settings that differ (``{"preset": "club-sheet",
"minutes": 120}``); ``build`` checks every setting of it, and of a stored ruleset (``load``), and
refuses with ``RulesetInvalid`` naming each bad one. A ruleset is stored whole (``dump``), so a
later change of a preset never rescores an old tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

from games.base import Problem, RulesetInvalid, Setting, gettext_noop

from .books import books_fit
from .deck import DEALT, TABLE_PLAYERS, Deck, Kind

CLUB_SHEET = "club-sheet"
FOUR_HANDS = "four-hands"
BYE_RULES = ("average", "win", "nothing")
TIE_BREAKS = ("total", "books", "went_out", "latest_round")
MOST_POINTS = 10_000  # no value, bonus or penalty of any Hand and Foot rule sheet comes near


@dataclass(frozen=True)
class Ruleset:
    preset: str = CLUB_SHEET
    meld_minimums: tuple[int, ...] = (90, 120, 150)  # HF2.1
    minutes: int = 90  # HF2.2
    warning_minutes: int = 15  # HF2.2
    decks: int = 4  # HF1.1
    jokers: int = 8  # HF1.1
    red_book_points: int = 500  # HF6.1
    black_book_points: int = 300  # HF6.1
    joker_points: int = 50  # HF7
    ace_points: int = 20
    king_to_ten_points: int = 10
    nine_to_four_points: int = 5
    two_points: int = 20
    black_three_points: int = 0
    red_three_points: int = 0  # HF7 Interpretation: laid aside
    red_three_penalty: int = 500  # HF6.4: left in hand
    going_out_bonus: int = 100  # HF6.5
    dealt_26_bonus: int = 100  # HF6.6
    failed_meld_penalty: int = 100  # HF6.7
    red_books_to_go_out: int = 2  # HF5.1
    black_books_to_go_out: int = 2  # HF5.1
    bye_rule: str = "average"  # HF11.1 Interpretation
    bye_points: int = 0  # HF11.1, for the "win" rule
    tie_breaks: tuple[str, ...] = ("total",)  # HF11.2

    @property
    def hands(self) -> int:
        return len(self.meld_minimums)

    def meld(self, number: int) -> int:
        """The opening meld minimum of hand ``number`` (from 1)."""
        return self.meld_minimums[number - 1]

    @cached_property
    def deck(self) -> Deck:
        return Deck.of(self.decks, self.jokers, self.card_values)

    @property
    def card_values(self) -> dict[Kind, int]:
        """HF7: each kind's value, laid down or left in hand (a red three's in hand is HF6.4's)."""
        tens = (Kind.KING, Kind.QUEEN, Kind.JACK, Kind.TEN)
        fives = (Kind.NINE, Kind.EIGHT, Kind.SEVEN, Kind.SIX, Kind.FIVE, Kind.FOUR)
        return {
            Kind.JOKER: self.joker_points,
            Kind.TWO: self.two_points,
            Kind.ACE: self.ace_points,
            **{kind: self.king_to_ten_points for kind in tens},
            **{kind: self.nine_to_four_points for kind in fives},
            Kind.BLACK_THREE: self.black_three_points,
            Kind.RED_THREE: self.red_three_points,
        }


SETTING_NAMES = tuple(f.name for f in fields(Ruleset) if f.name != "preset")
PRESETS: dict[str, Ruleset] = {
    CLUB_SHEET: Ruleset(),
    FOUR_HANDS: Ruleset(preset=FOUR_HANDS, meld_minimums=(50, 90, 120, 150), minutes=120),
}


def _points(label: str, rule: str, help: str) -> Setting:
    schema = {"type": "integer", "minimum": 0, "maximum": MOST_POINTS}
    return Setting(label.lower().replace(" ", "_"), label, schema, help, rule)


def _whole(name: str, label: str, low: int, high: int, rule: str, help: str) -> Setting:
    return Setting(name, label, {"type": "integer", "minimum": low, "maximum": high}, help, rule)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "meld_minimums",
        "Meld minimums",
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": MOST_POINTS},
            "minItems": 1,
            "maxItems": 9,
        },
        "The opening meld minimum of each hand, in order; a game has one hand per minimum.",
        "HF2.1",
    ),
    _whole("minutes", "Time limit (minutes)", 10, 600, "HF2.2", "The time allowed for a game."),
    _whole(
        "warning_minutes",
        "Warning (minutes before time)",
        0,
        599,
        "HF2.2",
        "How long before time is called the players are warned; 0 for no warning.",
    ),
    _whole("decks", "Decks", 2, 12, "HF1.1", "Standard 52-card decks shuffled together."),
    _whole("jokers", "Jokers", 0, 48, "HF1.1", "Jokers added to the decks."),
    _points("Red book points", "HF6.1", "What a red book (all natural cards) scores."),
    _points("Black book points", "HF6.1", "What a black book (with wild cards) scores."),
    _points("Joker points", "HF7", "A joker's value, laid down or left in hand."),
    _points("Ace points", "HF7", "An ace's value."),
    _points("King to ten points", "HF7", "The value of a king, queen, jack or ten."),
    _points("Nine to four points", "HF7", "The value of a card from nine down to four."),
    _points("Two points", "HF7", "A two's value (a wild card)."),
    _points("Black three points", "HF7", "A black three's value."),
    _points("Red three points", "HF7", "A red three's value when laid aside, not in hand."),
    _points("Red three penalty", "HF6.4", "What each red three left in hand costs its team."),
    _points("Going out bonus", "HF6.5", "What going out scores."),
    _whole(
        "dealt_26_bonus",
        "26-card deal bonus",
        0,
        MOST_POINTS,
        "HF6.6",
        "What a player scores for picking up and dealing exactly 26 cards.",
    ),
    _points(
        "Failed meld penalty", "HF6.7", "What exposing a hand to meld without the count costs."
    ),
    _whole(
        "red_books_to_go_out",
        "Red books to go out",
        0,
        20,
        "HF5.1",
        "Red books a team needs before one of its players may go out.",
    ),
    _whole(
        "black_books_to_go_out",
        "Black books to go out",
        0,
        20,
        "HF5.1",
        "Black books a team needs before one of its players may go out.",
    ),
    Setting(
        "bye_rule",
        "Bye rule",
        {"type": "string", "enum": list(BYE_RULES)},
        "What a team's bye counts: its average over the rounds it played, a game won with the "
        "bye points, or nothing.",
        "HF11.1",
    ),
    _whole(
        "bye_points",
        "Bye points",
        -MOST_POINTS,
        MOST_POINTS,
        "HF11.1",
        "The points of a bye counted as a game won (bye rule: win).",
    ),
    Setting(
        "tie_breaks",
        "Tie-breaks",
        {
            "type": "array",
            "items": {"type": "string", "enum": list(TIE_BREAKS)},
            "uniqueItems": True,
            "maxItems": len(TIE_BREAKS),
        },
        "After games won, in order: total points, books made, hands gone out, points in the "
        "latest round.",
        "HF11.2",
    ),
)
SETTING_BY_NAME = {setting.name: setting for setting in SETTINGS}


# --- requests, stored rulesets ------------------------------------------------------------------


def build(request: Mapping[str, Any] | None, presets: Mapping[str, Ruleset]) -> Ruleset:
    """The ruleset a request asks for: its preset with the settings it changes."""
    request = {} if request is None else request
    if not isinstance(request, Mapping):
        raise RulesetInvalid(
            [Problem("", gettext_noop("a ruleset request is an object of settings"))]
        )
    name = request.get("preset", CLUB_SHEET)
    if not isinstance(name, str) or name not in presets:
        known = ", ".join(presets)
        problem = Problem(
            "",
            gettext_noop(
                "there is no preset {name}; the presets are: {known}", name=repr(name), known=known
            ),
        )
        raise RulesetInvalid([replace(problem, field="preset")])
    return _apply(presets[name], {k: v for k, v in request.items() if k != "preset"})


def load(stored: Mapping[str, Any], presets: Mapping[str, Ruleset]) -> Ruleset:
    """A stored ruleset read back. It is stored whole; a setting it lacks (one added since it
    was stored) takes its preset's value, or the club sheet's for a preset since removed."""
    if not isinstance(stored, Mapping) or not isinstance(stored.get("preset"), str):
        problem = Problem(
            "", gettext_noop("a stored ruleset is an object with the name of its preset")
        )
        raise RulesetInvalid([replace(problem, field="preset")])
    base = presets.get(stored["preset"], Ruleset())
    base = replace(base, preset=stored["preset"])
    return _apply(base, {k: v for k, v in stored.items() if k != "preset"})


def dump(ruleset: Ruleset) -> dict[str, Any]:
    return {"preset": ruleset.preset} | {name: _json(ruleset, name) for name in SETTING_NAMES}


def changes(ruleset: Ruleset, presets: Mapping[str, Ruleset]) -> dict[str, Any]:
    base = presets.get(ruleset.preset, Ruleset())
    differ = [name for name in SETTING_NAMES if getattr(ruleset, name) != getattr(base, name)]
    return {"preset": ruleset.preset} | {name: _json(ruleset, name) for name in differ}


def _json(ruleset: Ruleset, name: str) -> Any:
    value = getattr(ruleset, name)
    return list(value) if isinstance(value, tuple) else value


def _apply(base: Ruleset, settings: Mapping[str, Any]) -> Ruleset:
    problems = [problem for name, value in settings.items() for problem in _setting(name, value)]
    if problems:
        raise RulesetInvalid(problems)
    values = {name: tuple(v) if isinstance(v, list) else v for name, v in settings.items()}
    ruleset = replace(base, **values)
    problems = playable(ruleset)
    if problems:
        raise RulesetInvalid(problems)
    return ruleset


def _setting(name: str, value: Any) -> list[Problem]:
    setting = SETTING_BY_NAME.get(name) if isinstance(name, str) else None
    if setting is None:
        known = ", ".join(SETTING_NAMES)
        return [
            Problem(
                "",
                gettext_noop(
                    "{name} is not a setting of Hand and Foot: {known}",
                    name=repr(name),
                    known=known,
                ),
                field=name,
            )
        ]
    why = schema_problem(setting.schema, value)
    if why is None:
        return []
    return [
        Problem(
            setting.rule,
            gettext_noop("{setting}: {why}", setting=setting.label, why=why),
            field=name,
        )
    ]


def schema_problem(schema: Mapping[str, Any], value: Any) -> str | None:
    """Why ``value`` is not allowed by a settings' schema fragment, or None when it is."""
    kind = schema["type"]
    if kind == "integer":
        return _integer_problem(schema, value)
    if kind == "string":
        return None if value in schema["enum"] else f"{value!r} is not one of {schema['enum']}"
    return _array_problem(schema, value)


def _integer_problem(schema: Mapping[str, Any], value: Any) -> str | None:
    if type(value) is not int:
        return f"{value!r} is not a whole number"
    if not schema["minimum"] <= value <= schema["maximum"]:
        return f"{value} is not from {schema['minimum']} to {schema['maximum']}"
    return None


def _array_problem(schema: Mapping[str, Any], value: Any) -> str | None:
    if not isinstance(value, list | tuple):
        return f"{value!r} is not a list"
    if not schema.get("minItems", 0) <= len(value) <= schema["maxItems"]:
        return f"a list of {schema.get('minItems', 0)} to {schema['maxItems']} values is needed"
    if schema.get("uniqueItems") and len(set(map(repr, value))) < len(value):
        return "a value is listed twice"
    for item in value:
        why = schema_problem(schema["items"], item)
        if why is not None:
            return why
    return None


def playable(ruleset: Ruleset) -> list[Problem]:
    """Settings that are each allowed but together cannot be played."""
    problems = []
    if ruleset.warning_minutes >= ruleset.minutes:
        message = gettext_noop(
            "the warning ({warning_minutes} minutes) must come before time is up",
            warning_minutes=ruleset.warning_minutes,
        )
        problems.append(Problem("HF2.2", message, field="warning_minutes"))
    if ruleset.deck.size <= TABLE_PLAYERS * DEALT:
        message = gettext_noop(
            "{decks} decks and {jokers} jokers ({size} cards) leave no draw pile once the "
            "table's {dealt} cards are dealt",
            decks=ruleset.decks,
            jokers=ruleset.jokers,
            size=ruleset.deck.size,
            dealt=TABLE_PLAYERS * DEALT,
        )
        problems.append(Problem("HF2.3", message, field="decks"))
    elif not books_fit(
        ruleset.deck.counts, ruleset.red_books_to_go_out, ruleset.black_books_to_go_out
    ):
        message = gettext_noop(
            "{red_books_to_go_out} red and {black_books_to_go_out} black books to go out "
            "are more than {decks} decks and {jokers} jokers can make",
            red_books_to_go_out=ruleset.red_books_to_go_out,
            black_books_to_go_out=ruleset.black_books_to_go_out,
            decks=ruleset.decks,
            jokers=ruleset.jokers,
        )
        problems.append(Problem("HF4.3", message, field="red_books_to_go_out"))
    return problems + _meld_problems(ruleset)


def _meld_problems(ruleset: Ruleset) -> list[Problem]:
    worth = ruleset.deck.worth
    if all(minimum <= worth for minimum in ruleset.meld_minimums):
        return []
    message = gettext_noop(
        "a meld minimum is more than the whole deck is worth ({worth} points)", worth=worth
    )
    return [Problem("HF3.1", message, field="meld_minimums")]
