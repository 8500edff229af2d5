"""What the pages rely on in a backup's rows, checked before anything is written.

`scoring.backup` checks each field of a row against its column: its type, its range, its
references into the file. These checks are about what pages, the API and the standings then read
from the rows, so that no accepted file can make one of them fail:

- **the game's shape**: a deal's number within its game's schedule, its warnings as the game
  words them, a result's entered values as the game's fields for that deal, a version's entry
  and scores as the write path stores them;
- **the table**: a seat within the table's size and in its table's round, a result's player
  seated at its deal's table and its side one of that table's sides, no result in a void deal,
  no bye for a player seated in that round;
- **a player's club member**: only the member's number and name (never contact), each within
  the register's columns;
- **sane values**: times from 2000 to 2100, points within ±`MAX_POINTS` a deal, JSON numbers
  no larger than `MAX_NUMBER`, a JSON value no longer than `MAX_JSON_CHARS` written out.

Each check yields `(where, message)`: `where` names the section, the row and the field, as the
rest of the import's refusals do.
"""

import json
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime
from typing import Any

from django.db import models
from django.utils.translation import gettext

from games.base import FieldKind, Rules, RulesError, Scope
from scoring.matches import deals_in_match, side_count

EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)
MAX_POINTS = 100_000  # a deal's score, either way: far beyond any game's (Hand and Foot's ~10,000)
MAX_ATTEMPTS = 20  # void deals dealt again (Kalooki R9.2): a table never needs more
MAX_TARGET_DEALS = 500  # deals of a match to a target score (Parcellus: a few dozen)
MAX_WARNINGS = 50
MAX_JSON_CHARS = 100_000  # a version's entry is a few kilobytes; a seating's audit detail, tens
MAX_NUMBER = 10**12
MAX_TEXT = 1_000  # a value entered for a side: a hand of cards is a few dozen characters
MAX_MEMBER_NUMBER, MAX_MEMBER_NAME = 20, 120  # a club member's columns (clubs.models.Member)
WARNING_KEYS = {"rule": str, "message": str, "player": str, "field": str, "side": int}
WARNING_KEYS |= {"member": int}
Where = tuple[str, str]


def in_range(value: date | datetime) -> str | None:
    """Why a day or a time is out of the range a tournament's can be in, or None."""
    moment = value if isinstance(value, datetime) else datetime(*value.timetuple()[:3], tzinfo=UTC)
    if not EARLIEST <= moment < LATEST:
        return gettext("{isoformat} is not between the years 2000 and 2099").format(
            isoformat=value.isoformat()[:40]
        )
    return None


# --- a JSON value by itself ----------------------------------------------------------------------


def json_problem(value: Any) -> str | None:
    """Why a JSON value cannot be kept, whatever its field: too long, or a number too large."""
    text = json.dumps(value)
    if len(text) > MAX_JSON_CHARS:
        most = f"{MAX_JSON_CHARS:,}"
        return gettext(
            "is {count:,} characters of JSON; a backup's field holds at most {most}"
        ).format(count=len(text), most=most)
    for leaf in _leaves(value):
        if isinstance(leaf, (int, float)) and not isinstance(leaf, bool) and abs(leaf) > MAX_NUMBER:
            return gettext("holds the number {str}, larger than any a tournament keeps").format(
                str=str(leaf)[:30]
            )
    return None


def _leaves(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            yield item


# --- a row's JSON fields, as the game shapes them ------------------------------------------------


class GameShape:
    """The tournament's game, and the fields a scorekeeper enters under it, by scope."""

    def __init__(self, rules: Rules[Any]) -> None:
        self.rules = rules
        self.fields: dict[Scope, dict[str, Any]] = {scope: {} for scope in Scope}
        for number in range(1, (deals_in_match(rules) or 1) + 1):
            for spec in rules.fields(number):
                self.fields[spec.scope][spec.name] = spec


def shape_problems(section: str, values: Mapping[str, Any], game: GameShape) -> Iterator[Where]:
    """The JSON fields of one row of `section` against what the pages read from them."""
    if section == "deals":
        yield from _warnings("warnings", values["warnings"])
        if not _plain_mapping(values["detail"]):
            yield (
                "detail",
                gettext("must be an object of the game's values (as the game reports a deal)"),
            )
    elif section == "results":
        yield from _entered(values["entered"], game)
        if not _plain_mapping(values["detail"]):
            yield (
                "detail",
                gettext("must be an object of the game's values (its breakdown of the points)"),
            )
    elif section == "revisions":
        yield from _warnings("warnings", values["warnings"])
        yield from _revision_entry(values["entry"])
        yield from _revision_scores(values["scores"])
    elif section == "audit" and not isinstance(values["detail"], dict):
        yield "detail", gettext("must be an object")


def _plain_mapping(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(key, str) for key in value)


def _warnings(name: str, warnings: Any) -> Iterator[Where]:
    if not isinstance(warnings, list) or len(warnings) > MAX_WARNINGS:
        yield (
            name,
            gettext("must be a list of at most {max_warnings} warnings").format(
                max_warnings=MAX_WARNINGS
            ),
        )
        return
    for index, warning in enumerate(warnings):
        if not _a_warning(warning):
            yield (
                f"{name}[{index}]",
                (
                    gettext(
                        "must be a warning as the game words it: its rule and message (text), and "
                        "optionally the player, field, side and member"
                    )
                ),
            )
            return


def _a_warning(warning: Any) -> bool:
    if not isinstance(warning, dict):
        return False
    if not {"rule", "message"} <= set(warning) <= set(WARNING_KEYS):
        return False
    return all(
        value is None or (isinstance(value, WARNING_KEYS[key]) and not isinstance(value, bool))
        for key, value in warning.items()
    ) and isinstance(warning["message"], str)


def _entered(entered: Any, game: GameShape) -> Iterator[Where]:
    """A side's entry: its SIDE values and its members' MEMBER values, each one of the game's
    fields (of any deal: the deals differ only in which fields they ask) of the field's kind."""
    if not isinstance(entered, dict) or set(entered) - {"values", "members"}:
        yield "entered", gettext("must be an object of the side's `values` and its `members`")
        return
    values, members = entered.get("values", {}), entered.get("members", [])
    yield from _values("entered.values", values, game.fields[Scope.SIDE])
    if not isinstance(members, list) or len(members) > max(game.rules.shape().members, 1):
        yield "entered.members", gettext("must be a list of the side's players, one object each")
        return
    for index, member in enumerate(members):
        yield from _values(f"entered.members[{index}]", member, game.fields[Scope.MEMBER])


def _values(where: str, values: Any, fields: Mapping[str, Any]) -> Iterator[Where]:
    if not isinstance(values, dict):
        yield where, gettext("must be an object of the game's fields")
        return
    for name, value in values.items():
        spec = fields.get(name)
        if spec is None:
            yield f"{where}.{name}", gettext("is not one of the game's fields")
        elif value is not None and not _of_kind(spec, value):
            yield (
                f"{where}.{name}",
                gettext("is not a value of the game's field {spec}").format(spec=repr(spec.label)),
            )


def _of_kind(spec: Any, value: Any) -> bool:
    if spec.kind == FieldKind.FLAG:
        return isinstance(value, bool)
    if spec.kind in (FieldKind.COUNT, FieldKind.POINTS):
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_POINTS
    if spec.kind == FieldKind.CHOICE:
        return value in {choice for choice, _ in spec.choices}
    return isinstance(value, str) and len(value) <= MAX_TEXT


def _revision_entry(entry: Any) -> Iterator[Where]:
    sides = entry.get("sides") if isinstance(entry, dict) else None
    ok = isinstance(sides, list) and isinstance(entry.get("values", {}), dict)
    ok = ok and all(
        isinstance(side, dict)
        and isinstance(side.get("label", ""), str)
        and isinstance(side.get("values", {}), dict)
        and isinstance(side.get("members", []), list)
        and all(isinstance(member, dict) for member in side.get("members", []))
        for side in sides
    )
    if not ok:
        yield (
            "entry",
            gettext("must be the deal's entry as the game returned it: its values and sides"),
        )


def _revision_scores(scores: Any) -> Iterator[Where]:
    sides = scores.get("sides") if isinstance(scores, dict) else None
    ok = isinstance(sides, list) and isinstance(scores.get("detail", {}), dict)
    ok = ok and all(
        isinstance(side, dict)
        and _whole(side.get("points", 0))
        and isinstance(side.get("reasons", []), list)
        and isinstance(side.get("detail", {}), dict)
        for side in sides
    )
    if not ok:
        yield "scores", gettext("must be each side's score as the game computed it")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_POINTS


# --- rows against each other ---------------------------------------------------------------------


def play_problems(rows: Mapping[str, list[models.Model]], rules: Rules[Any]) -> Iterator[Where]:
    """The rows of play against each other and the game: `(where, message)` for each fault."""
    tables = {table.pk: table for table in rows["tables"]}
    seated: dict[int, list[Any]] = {}
    for index, seat in enumerate(rows["seats"]):
        seated.setdefault(seat.table_id, []).append(seat)
        yield from _seat(index, seat, tables[seat.table_id], rules)
    in_round = {(seat.round_id, seat.entry_id) for seat in rows["seats"]}
    for index, bye in enumerate(rows["byes"]):
        if (bye.round_id, bye.entry_id) in in_round:
            yield (
                f"byes[{index}].entry",
                gettext("is seated at a table in that round: a bye is not"),
            )
    deals = {deal.pk: deal for deal in rows["deals"]}
    for index, deal in enumerate(rows["deals"]):
        yield from _deal(index, deal, rules)
    for index, result in enumerate(rows["results"]):
        deal = deals[result.deal_id]
        yield from _result(index, result, deal, seated.get(deal.table_id, []), rules)
    for index, revision in enumerate(rows["revisions"]):
        if revision.version > deals[revision.deal_id].version:
            where = f"revisions[{index}].version"
            yield (
                where,
                gettext("is past its deal's version: the deal's versions go up with each change"),
            )
    yield from _rulings(rows["rulings"], tables, deals)
    for index, event in enumerate(rows["clock_events"]):
        if event.table_id is not None and tables[event.table_id].round_id != event.round_id:
            yield (
                f"clock_events[{index}].table",
                gettext("is a table of another round than the clock's"),
            )


def _seat(index: int, seat: Any, table: Any, rules: Rules[Any]) -> Iterator[Where]:
    shape = rules.shape()
    most = shape.max_sides * max(shape.members, 1)
    if seat.position > most:
        yield (
            f"seats[{index}].position",
            (
                gettext(
                    "{position} is past the {most} seats a table of this game has ({value})"
                ).format(
                    position=seat.position, most=most, value=rules.cites("table") or "its rules"
                )
            ),
        )
    if seat.round_id != table.round_id:
        yield f"seats[{index}].round", gettext("is not its table's round")


def _deal(index: int, deal: Any, rules: Rules[Any]) -> Iterator[Where]:
    scheduled = deals_in_match(rules)
    last = scheduled if scheduled is not None else MAX_TARGET_DEALS
    if deal.number > last:
        yield (
            f"deals[{index}].number",
            (
                gettext("{number} is past the {last} deals of {value} ({value2})").format(
                    number=deal.number,
                    last=last,
                    value=rules.schedule().words or "a match",
                    value2=rules.cites("order") or "the game",
                )
            ),
        )
    else:
        try:
            rules.deal(deal.number)
        except RulesError as error:
            yield f"deals[{index}].number", str(error)
    if deal.attempt > MAX_ATTEMPTS:
        yield (
            f"deals[{index}].attempt",
            gettext("must be at most {max_attempts}").format(max_attempts=MAX_ATTEMPTS),
        )


def _result(
    index: int, result: Any, deal: Any, seats: list[Any], rules: Rules[Any]
) -> Iterator[Where]:
    where = f"results[{index}]"
    if deal.is_void:
        yield f"{where}.deal", gettext("is a void deal, which scores nothing and keeps no result")
    if result.entry_id not in {seat.entry_id for seat in seats}:
        yield f"{where}.entry", gettext("is not seated at the deal's table")
    sides = side_count(rules, len(seats))
    if result.side >= sides:
        yield (
            f"{where}.side",
            gettext("{side} is not one of the table's {sides} sides (from 0)").format(
                side=result.side, sides=sides
            ),
        )
    if abs(result.points) > MAX_POINTS:
        yield (
            f"{where}.points",
            gettext("must be within ±{max_points:,} for a deal").format(max_points=MAX_POINTS),
        )


def _rulings(rulings: list[Any], tables: dict, deals: dict) -> Iterator[Where]:
    for index, ruling in enumerate(rulings):
        table = tables.get(ruling.table_id)
        if table is not None and ruling.round_id is not None and table.round_id != ruling.round_id:
            yield (
                f"rulings[{index}].table",
                gettext("is a table of another round than the ruling's"),
            )
        deal = deals.get(ruling.deal_id)
        if deal is not None and ruling.table_id is not None and deal.table_id != ruling.table_id:
            yield f"rulings[{index}].deal", gettext("is a deal of another table than the ruling's")
        if abs(ruling.points) > MAX_POINTS:
            yield (
                f"rulings[{index}].points",
                gettext("must be within ±{max_points:,}").format(max_points=MAX_POINTS),
            )


def member_link_problems(link: Any) -> Iterator[Where]:
    """A player's `club_member` (the club member it was linked to, never their contact): null,
    or an object of the member's `number` (letters and digits, may be empty) and `name`."""
    if link is None:
        return
    if not _plain_mapping(link) or set(link) != {"number", "name"}:
        yield (
            "club_member",
            gettext("must be null or an object of the member's number and name only"),
        )
        return
    number, name = link["number"], link["name"]
    if (
        not isinstance(number, str)
        or len(number) > MAX_MEMBER_NUMBER
        or (number and not number.isalnum())
    ):
        yield (
            "club_member.number",
            (
                gettext(
                    "must be letters and digits, at most {max_member_number} (or empty)"
                ).format(max_member_number=MAX_MEMBER_NUMBER)
            ),
        )
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_MEMBER_NAME:
        yield (
            "club_member.name",
            gettext("must be a name of 1 to {max_member_name} characters").format(
                max_member_name=MAX_MEMBER_NAME
            ),
        )
