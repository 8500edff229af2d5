"""What a scorekeeper enters for a deal, and reading it from whatever a client sent (PA6.1).

A deal's **entry** holds, for each of the three players (a side of one), the **cards** she
captured (0 to 24), the **parcels** she captured (0 to 6) and whether she captured the **jack of
hearts**. A **capture** is one player's part read into numbers. Reading never raises: every value
that is missing, of the wrong type or out of range is an error problem naming its field and side,
so a hostile client gets a clear refusal, never a crash. The **canonical** entry is what is
stored: the three values of each side, the J♥ as a yes or no, nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import DealEntry, Field, FieldKind, Problem, Scope, SideEntry, gettext_noop

from .deck import DECK_SIZE, PARCELS
from .ruleset import Ruleset, shown

CARDS = "cards"
PARCELS_FIELD = "parcels"
JACK = "jack_of_hearts"
SIDES = 3  # PA1.1


@dataclass(frozen=True, slots=True)
class Capture:
    """One player's captures in a deal."""

    cards: int
    parcels: int
    jack_of_hearts: bool = False


def fields(ruleset: Ruleset) -> tuple[Field, ...]:
    """The three values a scorekeeper enters for each player (PA6.1)."""
    return (
        Field(
            CARDS,
            gettext_noop("Cards captured"),
            FieldKind.COUNT,
            Scope.SIDE,
            rule="PA4.1",
            help=gettext_noop("every card in the parcels she captured, the J♥ included"),
            required=True,
            minimum=0,
            maximum=DECK_SIZE,
            short=gettext_noop("Cards"),
        ),
        Field(
            PARCELS_FIELD,
            gettext_noop("Parcels captured"),
            FieldKind.COUNT,
            Scope.SIDE,
            rule="PA4.2",
            help=gettext_noop("six in all: one for each card of the common pile"),
            required=True,
            minimum=0,
            maximum=PARCELS,
            short=gettext_noop("Parcels"),
        ),
        Field(
            JACK,
            gettext_noop("Captured the J♥"),
            FieldKind.FLAG,
            Scope.SIDE,
            rule="PA4.1",
            help=gettext_noop(
                "the J♥ scores {jack_of_hearts}; nobody, if it stayed in a hand",
                jack_of_hearts=ruleset.jack_of_hearts,
            ),
            default=False,
            exclusive=True,
        ),
    )


_NAMES = (CARDS, PARCELS_FIELD, JACK)
_LABELS = {CARDS: "cards captured", PARCELS_FIELD: "parcels captured", JACK: "the J♥"}
_RANGES = {CARDS: (0, DECK_SIZE), PARCELS_FIELD: (0, PARCELS)}


@dataclass(frozen=True, slots=True)
class Reading:
    """An entry read: the captures (None when any value is unreadable), the canonical entry and
    the errors found reading it."""

    captures: tuple[Capture, ...] | None
    entry: DealEntry
    errors: tuple[Problem, ...]


def read(entry: DealEntry) -> Reading:
    """Read every value of ``entry``; each bad one is an error naming its field and side."""
    errors = _shape_problems(entry)
    sides = tuple(_read_side(side, index) for index, side in enumerate(entry.sides))
    errors += [problem for _, _, problems in sides for problem in problems]
    canonical = DealEntry(entry.number, tuple(side for _, side, _ in sides), {})
    captures = tuple(capture for capture, _, _ in sides if capture is not None)
    readable = not errors and len(captures) == len(sides)
    return Reading(captures if readable else None, canonical, tuple(errors))


def _shape_problems(entry: DealEntry) -> list[Problem]:
    problems = []
    number = entry.number
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        text = gettext_noop(
            "the deal number must be a whole number from 1, not {shown}", shown=shown(number)
        )
        problems.append(Problem("PA5.4", text, field="number"))
    if len(entry.sides) != SIDES:
        text = gettext_noop(
            "a Parcellus table has three players, not {count}", count=len(entry.sides)
        )
        problems.append(Problem("PA6.1", text))
    if not isinstance(entry.values, Mapping):
        text = gettext_noop(
            "Parcellus has no values for the deal: enter cards, parcels and the J♥ per player"
        )
        problems.append(Problem("PA6.1", text))
    return problems + _unknown_fields(entry.values, side=None, label=None)


def _read_side(side: SideEntry, index: int) -> tuple[Capture | None, SideEntry, list[Problem]]:
    values = side.values if isinstance(side.values, Mapping) else {}
    problems = [] if values is side.values else [_not_values(side, index)]
    problems += _unknown_fields(values, side=index, label=side.label)
    problems += _member_values(side, index)
    counts = {name: _count(values.get(name), name, index, side.label) for name in _RANGES}
    jack = _flag(values.get(JACK), index, side.label)
    problems += [problem for _, problem in (*counts.values(), jack) if problem is not None]
    return _capture(counts, jack[0]), _canonical(side, values, counts, jack[0]), problems


def _capture(
    counts: Mapping[str, tuple[int | None, Problem | None]], jack: bool | None
) -> Capture | None:
    cards, parcels = counts[CARDS][0], counts[PARCELS_FIELD][0]
    if cards is None or parcels is None or jack is None:
        return None
    return Capture(cards, parcels, jack)


def _canonical(
    side: SideEntry,
    values: Mapping[str, Any],
    counts: Mapping[str, tuple[int | None, Problem | None]],
    jack: bool | None,
) -> SideEntry:
    """The side as stored: read values in their one form; a value that could not be read is kept
    as sent, so that the refusal can show it back."""
    read_values = {name: value for name, (value, _) in counts.items()} | {JACK: jack}
    canonical = {
        name: read_values[name] if read_values[name] is not None else values.get(name)
        for name in _NAMES
    }
    return SideEntry(side.label, canonical, (), side.member_labels)


def _count(value: Any, name: str, side: int, label: str) -> tuple[int | None, Problem | None]:
    low, high = _RANGES[name]
    if value is None:
        return None, _value_problem(f"enter the {_LABELS[name]} of {label}", name, side, label)
    if isinstance(value, bool) or not isinstance(value, int):
        text = f"the {_LABELS[name]} of {label} must be a whole number, not {shown(value)}"
        return None, _value_problem(text, name, side, label)
    if not low <= value <= high:
        text = f"the {_LABELS[name]} of {label} must be from {low} to {high}, not {shown(value)}"
        return None, _value_problem(text, name, side, label)
    return value, None


def _flag(value: Any, side: int, label: str) -> tuple[bool | None, Problem | None]:
    if value is None:
        return False, None
    if not isinstance(value, bool):
        text = f"whether {label} captured the J♥ is a yes or no, not {shown(value)}"
        return None, _value_problem(text, JACK, side, label)
    return value, None


def _value_problem(text: str, name: str, side: int, label: str) -> Problem:
    return Problem("PA6.1", text, player=label, field=name, side=side)


def _no_such_value(name: str, label: str | None) -> str:
    if label is None:
        return gettext_noop(
            "Parcellus has no value {name} for the deal: enter cards, parcels and the J♥", name=name
        )
    return gettext_noop(
        "Parcellus has no value {name} for {player}: enter cards, parcels and the J♥",
        name=name,
        player=label,
    )


def _unknown_fields(values: Any, *, side: int | None, label: str | None) -> list[Problem]:
    if not isinstance(values, Mapping):
        return []
    return [
        Problem(
            "PA6.1",
            _no_such_value(shown(name), label),
            player=label,
            field=name if isinstance(name, str) else None,
            side=side,
        )
        for name in values
        if side is None or name not in _NAMES
    ]


def _member_values(side: SideEntry, index: int) -> list[Problem]:
    """A side is one player, so what she captured is entered for the side, not per member."""
    if all(isinstance(member, Mapping) and not member for member in side.members):
        return []
    text = gettext_noop(
        "enter what {side} captured for the player, not per member", side=side.label
    )
    return [Problem("PA6.1", text, player=side.label, side=index, member=0)]


def _not_values(side: SideEntry, index: int) -> Problem:
    text = gettext_noop(
        "the values of {side} must be an object of cards, parcels and the J♥", side=side.label
    )
    return Problem("PA6.1", text, player=side.label, side=index)
