"""Reading a hand's entry (HF8.1, HF8.2): the scorekeeper's JSON values into a ``Hand``.

A **part** is what a player is left holding: the **hand**, or a **foot** not played. It is
entered as cards (the software counts them) or as points; its ``points`` leave red threes aside
(they cost HF6.4's penalty instead). A ``Hand`` is one entry read: its number and two ``Team``s,
each with two ``Player``s in seat order. Reading never raises, whatever the values: every value
of the wrong kind, out of range or unreadable is an error naming its field, team and player, and
the entry is not read any further when its shape (two teams of two) is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.base import DealEntry, Field, Problem, SideEntry, gettext_noop
from games.cards import Card, format_cards, parse_cards

from .deck import Deck, Kind, kind_of
from .fields import MEMBER_FIELDS, SIDE_FIELDS, hand_fields
from .ruleset import Ruleset

TEAMS = 2  # HF1.2
PARTNERS = 2
MOST_TEXT = 1_000  # characters of card text: a whole deck written out is well under this


@dataclass(frozen=True, slots=True)
class Part:
    kinds: tuple[Kind, ...] | None  # None when entered as points
    points: int
    red_threes: int = 0  # among the cards

    @property
    def is_cards(self) -> bool:
        return self.kinds is not None


@dataclass(frozen=True, slots=True)
class Player:
    label: str
    went_out: bool = False
    hand: Part | None = None  # None: nothing entered
    foot_played: bool = False
    foot: Part | None = None  # None: nothing entered (as for a played foot)
    red_threes_entered: int = 0
    dealt_26: bool = False
    failed_melds: int = 0

    @property
    def parts(self) -> tuple[Part, ...]:
        return tuple(part for part in (self.hand, self.foot) if part is not None)

    @property
    def red_threes(self) -> int:
        """Red threes left in hand or foot, counted from cards and entered (HF6.4)."""
        return self.red_threes_entered + sum(part.red_threes for part in self.parts)

    @property
    def left(self) -> int:
        """What the cards left in hand and foot count, red threes aside (HF6.3)."""
        return sum(part.points for part in self.parts)


@dataclass(frozen=True, slots=True)
class Team:
    label: str
    red_books: int
    black_books: int
    laid_down: int
    players: tuple[Player, ...]

    @property
    def books(self) -> int:
        return self.red_books + self.black_books

    @property
    def went_out(self) -> bool:
        return any(player.went_out for player in self.players)


@dataclass(frozen=True, slots=True)
class Hand:
    number: int
    teams: tuple[Team, ...]

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(player for team in self.teams for player in team.players)


@dataclass(frozen=True, slots=True)
class Where:
    """Where a value sits in the entry, for the problems about it."""

    player: str
    side: int
    member: int | None = None

    def problem(self, rule: str, message: str, name: str | None = None) -> Problem:
        return Problem(rule, message, self.player, name, self.side, self.member)


@dataclass
class Reading:
    """One entry being read: the problems found and the card text in canonical spelling."""

    ruleset: Ruleset
    fields: Mapping[str, Field]
    problems: list[Problem]

    @property
    def deck(self) -> Deck:
        return self.ruleset.deck


def read_entry(
    entry: DealEntry, ruleset: Ruleset, played: int
) -> tuple[Hand | None, DealEntry, list[Problem]]:
    """The hand an entry describes (None when it cannot be read), the entry in canonical form and
    the errors of reading it. ``played`` is how many hands of the game came before."""
    problems = _number_problems(entry.number, ruleset, played)
    if problems:
        return None, entry, problems
    reading = Reading(ruleset, {f.name: f for f in hand_fields(ruleset, entry.number)}, [])
    reading.problems += _values_problems(entry.values) or _shape_problems(entry.sides)
    if reading.problems:
        return None, entry, reading.problems
    read = [_read_team(reading, side, index) for index, side in enumerate(entry.sides)]
    canonical = replace(entry, sides=tuple(side for _, side in read))
    if reading.problems:
        return None, canonical, reading.problems
    return Hand(entry.number, tuple(team for team, _ in read)), canonical, []


def _number_problems(number: Any, ruleset: Ruleset, played: int) -> list[Problem]:
    hands = ruleset.hands
    if type(number) is not int or not 1 <= number <= hands:
        return [
            Problem(
                "HF2.1",
                gettext_noop(
                    "there is no hand {number}: a game has hands 1 to {hands}",
                    number=repr(number),
                    hands=hands,
                ),
            )
        ]
    if number > played + 1:
        return [
            Problem(
                "HF2.1",
                gettext_noop(
                    "hand {next} comes before hand {number}", next=played + 1, number=number
                ),
            )
        ]
    return []


def _values_problems(values: Any) -> list[Problem]:
    """The hand's own values: Hand and Foot has none (who went out is a player's, HF5.2)."""
    if not isinstance(values, Mapping):
        return [Problem("HF8.1", gettext_noop("a hand's own values are an object of fields"))]
    return [
        Problem(
            "HF8.1", gettext_noop("the hand has no field {name}", name=repr(name)), field=str(name)
        )
        for name in values
    ]


def _shape_problems(sides: Any) -> list[Problem]:
    if not isinstance(sides, Sequence) or len(sides) != TEAMS:
        count = len(sides) if isinstance(sides, Sequence) else sides
        return [
            Problem(
                "HF1.2", gettext_noop("a table holds two teams, not {count}", count=repr(count))
            )
        ]
    problems = []
    for index, side in enumerate(sides):
        where = Where(_team_label(side, index), index)
        if not isinstance(side, SideEntry) or not isinstance(side.values, Mapping):
            problems.append(
                where.problem("HF1.2", gettext_noop("team {number} has no entry", number=index + 1))
            )
        elif not _is_pair(side.members):
            problems.append(
                where.problem(
                    "HF1.2", gettext_noop("{player} must be two players", player=where.player)
                )
            )
    return problems


def _is_pair(members: Any) -> bool:
    if not isinstance(members, Sequence) or isinstance(members, str):
        return False
    return len(members) == PARTNERS and all(isinstance(m, Mapping) for m in members)


def _team_label(side: Any, index: int) -> str:
    label = getattr(side, "label", None)
    return label if isinstance(label, str) and label else f"team {index + 1}"


def _member_label(side: SideEntry, team: str, member: int) -> str:
    labels = side.member_labels if isinstance(side.member_labels, Sequence) else ()
    label = labels[member] if member < len(labels) else None
    return label if isinstance(label, str) and label else f"{team}, player {member + 1}"


def _unknown(
    values: Mapping[str, Any], known: Sequence[str], where: Where, what: str
) -> list[Problem]:
    return [
        where.problem(
            "HF8.1",
            gettext_noop("{what} has no field {name}", what=what, name=repr(name)),
            str(name),
        )
        for name in values
        if name not in known
    ]


# --- one team -----------------------------------------------------------------------------------


def _read_team(reading: Reading, side: SideEntry, index: int) -> tuple[Team, SideEntry]:
    where = Where(_team_label(side, index), index)
    reading.problems += _unknown(side.values, SIDE_FIELDS, where, where.player)
    books = [_number(reading, side.values, name, where) for name in SIDE_FIELDS]
    read = [_read_player(reading, side, index, member) for member in range(PARTNERS)]
    team = Team(where.player, *books, players=tuple(player for player, _ in read))
    return team, replace(side, members=tuple(values for _, values in read))


def _read_player(
    reading: Reading, side: SideEntry, index: int, member: int
) -> tuple[Player, Mapping[str, Any]]:
    values = side.members[member]
    where = Where(_member_label(side, _team_label(side, index), member), index, member)
    reading.problems += _unknown(values, MEMBER_FIELDS, where, where.player)
    canonical = dict(values)
    hand = _part(reading, values, "hand", where, canonical)
    foot = _part(reading, values, "foot", where, canonical)
    player = Player(
        where.player,
        went_out=_flag(reading, values, "went_out", where),
        hand=hand,
        foot_played=_flag(reading, values, "foot_played", where),
        foot=foot,
        red_threes_entered=_number(reading, values, "red_threes", where),
        dealt_26=_flag(reading, values, "dealt_26", where),
        failed_melds=_number(reading, values, "failed_melds", where),
    )
    return player, canonical


# --- one value ----------------------------------------------------------------------------------


def _flag(reading: Reading, values: Mapping[str, Any], name: str, where: Where) -> bool:
    field = reading.fields[name]
    value = values.get(name)
    if value is None:
        return bool(field.default)
    if isinstance(value, bool):
        return value
    message = gettext_noop(
        "{player}: {field} is yes or no, not {value}",
        player=where.player,
        field=field.label.lower(),
        value=repr(value),
    )
    reading.problems.append(where.problem("HF8.1", message, name))
    return bool(field.default)


def _number(reading: Reading, values: Mapping[str, Any], name: str, where: Where) -> int:
    value = _whole(reading, values, name, where)
    return reading.fields[name].default if value is None else value


def _whole(reading: Reading, values: Mapping[str, Any], name: str, where: Where) -> int | None:
    """A count or points value; None when not given or not allowed (with an error)."""
    field = reading.fields[name]
    value = values.get(name)
    if value is None:
        return None
    assert field.minimum is not None and field.maximum is not None
    if type(value) is int and field.minimum <= value <= field.maximum:
        return value
    message = gettext_noop(
        "{player}: {field} is a whole number from {minimum} to {maximum}, not {value}",
        player=where.player,
        field=field.label.lower(),
        minimum=field.minimum,
        maximum=field.maximum,
        value=repr(value),
    )
    reading.problems.append(where.problem("HF8.1", message, name))
    return None


def _part(
    reading: Reading,
    values: Mapping[str, Any],
    name: str,
    where: Where,
    canonical: dict[str, Any],
) -> Part | None:
    """A hand or foot, from its cards or its points (``<name>_points``), if either is given."""
    points = _whole(reading, values, f"{name}_points", where)
    cards = _cards(reading, values, name, where)
    if cards is None:
        return None if points is None else Part(None, points)
    canonical[name] = format_cards(cards)
    kinds = tuple(kind for kind in map(kind_of, cards) if kind is not None)
    part = Part(kinds, reading.deck.hand_value(kinds), kinds.count(Kind.RED_THREE))
    if points is not None and points != part.points:
        message = gettext_noop(
            "{player}: the cards in {part} count {points}, but {entered} points are "
            "entered; enter one or make them agree",
            player=where.player,
            part=_part_word(name),
            points=part.points,
            entered=points,
        )
        reading.problems.append(where.problem("HF8.2", message, f"{name}_points"))
    return part


def _cards(
    reading: Reading, values: Mapping[str, Any], name: str, where: Where
) -> list[Card] | None:
    text = values.get(name)
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > MOST_TEXT:
        shown = f"{len(text)} characters" if isinstance(text, str) else repr(text)
        message = gettext_noop(
            "{player}: {part} is card text, not {shown}",
            player=where.player,
            part=_part_word(name),
            shown=shown,
        )
        reading.problems.append(where.problem("HF9", message, name))
        return None
    return _parse(reading, text, name, where)


def _parse(reading: Reading, text: str, name: str, where: Where) -> list[Card] | None:
    try:
        cards = parse_cards(text, rule="HF9")
    except ValueError as error:  # CardParseError, or any refusal of the shared notation
        problem = getattr(error, "problem", None)
        message = problem.message if isinstance(problem, Problem) else str(error)
        reading.problems.append(
            where.problem(
                "HF9",
                gettext_noop(
                    "{player}'s {part}: {message}",
                    player=where.player,
                    part=_part_word(name),
                    message=message,
                ),
                name,
            )
        )
        return None
    for position, card in enumerate(cards, start=1):
        if kind_of(card) is None:
            message = gettext_noop(
                "{player}'s {part}: card {position} is a three without its colour; write 3H or "
                "3D for a red three, 3S or 3C for a black one",
                player=where.player,
                part=_part_word(name),
                position=position,
            )
            reading.problems.append(where.problem("HF9", message, name))
            return None
    return cards


def _part_word(name: str) -> str:
    """The part's name ("hand" or "foot", as its fields are called) as a word to translate."""
    return {"hand": gettext_noop("hand"), "foot": gettext_noop("foot")}.get(name, name)
