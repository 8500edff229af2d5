"""Rulesets: every number and choice of a Parcellus tournament, held as data (PA4, PA5, PA7).

A **ruleset** holds the match's **target** (PA5.1), the parcels **bonus** (PA4.2), the value of
the **jack of hearts** (PA4.1), the **match points** of first, second and third place (PA7.3), the
**bye rule** and the **bye points** (PA7.2), and the **tie-break chain** of the standings (PA7.4).
A **preset** is a named ruleset; a **request** names a preset and only the settings that differ
(``{"preset": "shields-2008", "target": 50}``). Every setting is read by its own **reader**, which
gives the value in its one stored form (a list becomes a tuple) or says why it cannot be played;
a ruleset refuses to exist with a bad setting, so every ruleset in hand can be played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from games.base import Problem, RulesetInvalid, Setting, and_list, gettext_noop

BYE_RULES = ("average", "win", "nothing")
TIE_BREAKS = ("total", "wins", "parcels", "jacks_of_hearts")
PLACES = 3  # one place for each player of a table (PA1.1)
DEFAULT_PRESET = "shields-2008"


class _Bad(ValueError):
    """A setting's value that cannot be played; the message says why."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    preset: str = DEFAULT_PRESET
    target: int = 30  # PA5.1
    bonus: int = 6  # PA4.2
    jack_of_hearts: int = 3  # PA4.1
    match_points: tuple[int, ...] = (3, 1, 0)  # PA7.3: first, second, third
    bye_rule: str = "average"  # PA7.2
    bye_points: int = 30  # PA7.2, for the "win" rule
    tie_breaks: tuple[str, ...] = ("total", "wins", "parcels")  # PA7.4

    def __post_init__(self) -> None:
        # Read every setting again, so that a ruleset built in code is checked like a request
        # and holds each value in its stored form (a tuple, never a list).
        problems: list[Problem] = []
        values = _read({name: getattr(self, name) for name in _SPECS}, problems)
        if not isinstance(self.preset, str) or self.preset not in PRESET_NAMES:
            problems.insert(0, _unknown_preset(self.preset))
        if problems:
            raise RulesetInvalid(problems)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def place_points(self, place: int) -> int:
        """The match points of ``place`` (from 1), PA7.3."""
        return self.match_points[place - 1]


# --- reading one setting -----------------------------------------------------------------------


def _whole(low: int, high: int, multiple: int = 1) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"must be a whole number, not {shown(value)}")
        if not low <= value <= high:
            raise _Bad(f"must be from {low} to {high}, not {shown(value)}")
        if value % multiple:
            raise _Bad(f"must be a multiple of {multiple}, not {value}")
        return value

    return read


def _match_points(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != PLACES:
        raise _Bad(f"must list {PLACES} whole numbers, for first, second and third place")
    points = tuple(_whole(0, 100)(each) for each in value)
    if list(points) != sorted(points, reverse=True):
        raise _Bad(f"must not score a place more than a better one, not {list(points)}")
    return points


def _choice(allowed: tuple[str, ...]) -> Callable[[Any], str]:
    def read(value: Any) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise _Bad(f"must be {and_list(allowed, 'or')}, not {shown(value)}")
        return value

    return read


def _tie_breaks(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise _Bad(f"must be a list of tie-breaks from {and_list(TIE_BREAKS)}")
    chain = tuple(_choice(TIE_BREAKS)(each) for each in value)
    if len(set(chain)) != len(chain):
        raise _Bad("must not name a tie-break twice")
    return chain


def shown(value: Any) -> str:
    """A value as a message may quote it: short, and never a thousand-digit number."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**9:
        return "a number that large"
    if isinstance(value, str | int | float | bool) or value is None:
        text = repr(value)
        return text if len(text) <= 24 else text[:20] + "...'"
    return f"a {type(value).__name__}"


# --- the settings ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Spec:
    setting: Setting
    read: Callable[[Any], Any]


_SPECS: dict[str, _Spec] = {
    spec.setting.name: spec
    for spec in (
        _Spec(
            Setting(
                "target",
                "Match target",
                {"type": "integer", "minimum": 1, "maximum": 1000},
                "the total that ends a match: the highest score once someone has it wins",
                "PA5.1",
            ),
            _whole(1, 1000),
        ),
        _Spec(
            Setting(
                "bonus",
                "Most-parcels bonus",
                {"type": "integer", "minimum": 0, "maximum": 600, "multipleOf": 6},
                "points for the most parcels in a deal, shared equally when tied (a multiple of "
                "6, so that two or three share it in whole points; 0 for none)",
                "PA4.2",
            ),
            _whole(0, 600, 6),
        ),
        _Spec(
            Setting(
                "jack_of_hearts",
                "Jack of hearts",
                {"type": "integer", "minimum": 0, "maximum": 100},
                "the points of the J♥ captured (every other card scores 1)",
                "PA4.1",
            ),
            _whole(0, 100),
        ),
        _Spec(
            Setting(
                "match_points",
                "Match points",
                {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": 100},
                    "minItems": PLACES,
                    "maxItems": PLACES,
                },
                "the match points of first, second and third place; players level for a place "
                "each score that place's points",
                "PA7.3",
            ),
            _match_points,
        ),
        _Spec(
            Setting(
                "bye_rule",
                "Bye rule",
                {"type": "string", "enum": list(BYE_RULES)},
                "average: the player's average match; win: a match won with the bye points; "
                "nothing: no points",
                "PA7.2",
            ),
            _choice(BYE_RULES),
        ),
        _Spec(
            Setting(
                "bye_points",
                "Bye points",
                {"type": "integer", "minimum": 0, "maximum": 1000},
                "the total a bye counts under the win rule",
                "PA7.2",
            ),
            _whole(0, 1000),
        ),
        _Spec(
            Setting(
                "tie_breaks",
                "Tie-breaks",
                {
                    "type": "array",
                    "items": {"type": "string", "enum": list(TIE_BREAKS)},
                    "uniqueItems": True,
                    "maxItems": len(TIE_BREAKS),
                },
                "what separates players level on match points, in order: more total points, "
                "matches won, parcels captured, jacks of hearts captured",
                "PA7.4",
            ),
            _tie_breaks,
        ),
    )
}

SETTINGS: tuple[Setting, ...] = tuple(spec.setting for spec in _SPECS.values())


def _bad_setting(name: str, why: str) -> Problem:
    spec = _SPECS[name]
    return Problem(
        spec.setting.rule,
        gettext_noop("{setting} {why}", setting=spec.setting.label.lower(), why=why),
        field=name,
    )


def _unknown_preset(name: Any) -> Problem:
    known = and_list(PRESET_NAMES, "or")
    return Problem(
        "",
        gettext_noop("there is no preset {shown}: choose {known}", shown=shown(name), known=known),
        field="preset",
    )


# --- presets and requests ----------------------------------------------------------------------


def from_request(request: Mapping[str, Any] | None) -> Ruleset:
    """The ruleset a request asks for: its preset (the default when none is named) with the
    settings it changes; ``RulesetInvalid`` naming every bad setting and why."""
    if request is None:
        request = {}
    if not isinstance(request, Mapping):
        raise RulesetInvalid(
            [Problem("", gettext_noop("a ruleset request is an object of settings"))]
        )
    preset = request.get("preset", DEFAULT_PRESET)
    changes = {name: value for name, value in request.items() if name != "preset"}
    problems = [_unknown_setting(name) for name in changes if name not in _SPECS]
    values = _read(changes, problems)
    if not isinstance(preset, str) or preset not in PRESETS:
        problems.insert(0, _unknown_preset(preset))
    if problems:
        raise RulesetInvalid(problems)
    return replace(PRESETS[preset], **values)


def _read(changes: Mapping[str, Any], problems: list[Problem]) -> dict[str, Any]:
    values = {}
    for name, value in changes.items():
        if name not in _SPECS:
            continue
        try:
            values[name] = _SPECS[name].read(value)
        except _Bad as bad:
            problems.append(_bad_setting(name, str(bad)))
    return values


def _unknown_setting(name: Any) -> Problem:
    known = and_list(_SPECS)
    message = gettext_noop(
        "there is no setting {shown}: the settings are {known}", shown=shown(name), known=known
    )
    return Problem("", message, field=name if isinstance(name, str) else None)


# shields-2008: the published game, with the 3-1-0 match points; wins-only: a match won
# is all that scores, total points then separating the players.
PRESET_NAMES = (DEFAULT_PRESET, "wins-only")
PRESETS: dict[str, Ruleset] = {
    DEFAULT_PRESET: Ruleset(),
    "wins-only": Ruleset(preset="wins-only", match_points=(1, 0, 0)),
}


def dump(ruleset: Ruleset) -> dict[str, Any]:
    """The whole ruleset as JSON data (tuples as lists), its preset's name included."""
    data = {item.name: getattr(ruleset, item.name) for item in fields(ruleset)}
    return {
        name: list(value) if isinstance(value, tuple) else value for name, value in data.items()
    }


def changes(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset as a request: its preset and only the settings that differ from the preset."""
    base = dump(PRESETS[ruleset.preset])
    differ = {name: value for name, value in dump(ruleset).items() if value != base[name]}
    return {"preset": ruleset.preset} | differ


# --- in words ----------------------------------------------------------------------------------

_PLACE_WORDS = ("first", "second", "third")
_TIE_BREAK_WORDS = {
    "total": "more total points",
    "wins": "more matches won",
    "parcels": "more parcels captured",
    "jacks_of_hearts": "more jacks of hearts captured",
}


def describe(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset in words, one line per thing that matters to players."""
    return (
        "Three players a table; 24 cards, 9 to ace; six cards each and six to the common pile, "
        "three passed left, then right, deal after deal (PA1, PA2).",
        f"A match is played to {ruleset.target} points: once someone has {ruleset.target} or "
        "more, the highest total wins; a tie at the top plays another deal (PA5).",
        f"Each card captured scores 1, the J♥ {ruleset.jack_of_hearts} (PA4.1).",
        _bonus_words(ruleset.bonus),
        _match_points_words(ruleset.match_points),
        _standings_words(ruleset.tie_breaks),
        bye_words(ruleset),
    )


def _bonus_words(bonus: int) -> str:
    if not bonus:
        return "No bonus for the most parcels (PA4.2)."
    return (
        f"The most parcels in a deal scores {bonus} bonus points, shared equally when tied: "
        f"{bonus // 2} each for two, {bonus // 3} each for three (PA4.2)."
    )


def _match_points_words(points: tuple[int, ...]) -> str:
    places = zip(points, _PLACE_WORDS, strict=True)
    each = and_list(f"{score} for {place}" for score, place in places)
    return (
        f"Match points: {each}; players level for a place each score that place's points, "
        "once the match is over (PA7.3)."
    )


def _standings_words(chain: tuple[str, ...]) -> str:
    then = "".join(f", then {_TIE_BREAK_WORDS[name]}" for name in chain)
    return f"Standings: more match points{then}; players still level share a place (PA7.4)."


def bye_words(ruleset: Ruleset) -> str:
    """The bye rule in words (PA7.2)."""
    if ruleset.bye_rule == "win":
        return (
            f"A bye counts as a match won with {ruleset.bye_points} points and "
            f"{ruleset.match_points[0]} match points (PA7.2)."
        )
    if ruleset.bye_rule == "average":
        return (
            "A bye counts as the player's average match so far, rounded to whole numbers; "
            "nothing before her first match (PA7.2)."
        )
    return "A bye counts for nothing (PA7.2)."
