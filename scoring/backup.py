"""A tournament as one JSON document, and back: a backup a director can keep on a memory stick.

A **backup** is a document of one tournament, not a database dump. Its **sections** hold the
tournament's own rows (players, entries and a team's members, rounds, tables, seats, byes, the
rounds' seating records and the pinned seats, deals, deal results, result revisions, rulings, the
audit log), each row its fields by name and its **id**; a **reference** is the id of a row of
another section of the same file (`"player": 12`). **Staff** are named by username only: a
reference to a person (who entered a result, who decided a ruling) is mapped to the user of that
name here, if there is one, and left blank otherwise.

A player carries its club **member** by number and name only (`club_member`; never the contact).
Loaded into a club (`club`), each player is linked as adding players links them: the member
number names the member (a number not in the register makes a new member holding it), else the
same name, else a new member; a number another club holds, a name matching several members, or
two players naming one member refuse the file (a backup has no director to choose: the name is
given a member number, or the file is loaded without a club). A file written before the links
loads, its players matched by their own names.

What a backup leaves out: accounts and password hashes, API tokens, the tables' link tokens
(new links are issued on import: print the table cards again) and the tables' scorekeepers (a
grant of access: the director adds them again), the standings (recomputed from the results) and
the idempotency records of the table API.

Import treats the file as hostile: it reads at most `BACKUP_MAX_BYTES` (a setting) and at most
`ROW_LIMITS` rows a section (counted before anything else is looked at), refuses a key given
twice in one object and a number that is not finite, checks every section, row, field and
reference before it writes anything, and what pages rely on too (`scoring.backup_checks`: the
game's shape, the tables, sane values), refuses a reference to anything outside the file and an
id that this database already uses, never creates or changes a user or a token, and writes in
one transaction, in batches of `BATCH` rows, each statement given `STATEMENT_SECONDS` at most
(on PostgreSQL without JIT compilation, which took longer to compile a large statement than to
run it), each row once, its times as the file gives them. Staff roles are created only when the
operator asks (`grant_staff`), and only for users that exist here; the others are listed for the
director. Every fault is a `BackupRefused` naming the section, row and field. Ids are kept, so
the history stored inside results (which names entries by id) stays true; timestamps keep their
microseconds.
"""

import contextlib
import json
import math
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, BinaryIO

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import IntegrityError, OperationalError, connection, models, transaction
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext

import games
from clubs.models import Club, Member
from config.parsers import MAX_DEPTH, depth
from scoring.backup_checks import (
    GameShape,
    in_range,
    json_problem,
    member_link_problems,
    play_problems,
    shape_problems,
)
from scoring.models import (
    ClockEvent,
    Deal,
    DealResult,
    DirectorCall,
    ResultRevision,
    Ruling,
)
from scoring.planner import analyze
from scoring.store import store
from tables.models import Bye, PinnedSeat, Seat, SeatingRecord, Table
from tournament.csv_import import CsvPlayer, RowProblem, tidy
from tournament.members import members_link, members_match
from tournament.models import (
    AuditEvent,
    Entry,
    EntryMember,
    Player,
    Round,
    StaffRole,
    Tournament,
)
from tournament.stages import Stage, StageEntry

FORMAT = "kalooki-tournament-backup"  # the name of the format, whatever game it holds
# 3: games are deals and hand results deal results, each game's own data in JSON
VERSION = 3
MAX_ID = 2**63 - 1
MAX_PROBLEMS = 20  # listed in one refusal; a file with more is wrong throughout
# The most rows a section may hold: several times what a large event has (1,000 players over
# 12 rounds at tables of five: 2,400 tables, 12,000 seats, about 24,000 deals and 120,000
# results). A file over them is refused before its rows are read, however small its rows.
ROW_LIMITS = {
    "staff": 100,
    "players": 10_000,
    "entries": 10_000,
    "members": 20_000,
    "rounds": 100,
    "tables": 20_000,
    "seats": 100_000,
    "byes": 20_000,
    "deals": 200_000,
    "results": 250_000,
    "revisions": 250_000,
    "rulings": 20_000,
    "audit": 250_000,
    "clock_events": 50_000,
    "director_calls": 50_000,
}
BATCH = 1000  # rows a statement writes
STATEMENT_SECONDS = 60  # the longest any one statement of an import may run


class BackupRefused(Exception):
    """The file cannot be loaded here; the message says what is wrong and where."""


@dataclass(frozen=True)
class Section:
    """One kind of row: its model, and where each of its foreign keys points."""

    name: str
    model: type[models.Model]
    references: dict[str, str]  # field -> the section it points into
    users: tuple[str, ...] = ()  # fields naming a user, by username
    left_out: tuple[str, ...] = ()  # fields a backup never carries
    path: str = ""  # from a row to its tournament, when it has no tournament field
    # Fields a file of this version may lack (written before they existed), with the value
    # they then held: a team's name and a refusal's note (HF1.2), a time call (HF2.2), a
    # check-in by the player's phone.
    added: dict[str, Any] = field(default_factory=dict)
    member_link: bool = False  # each row carries `club_member`: its member's number and name


SECTIONS = (
    # The member itself is the club's, not the file's: a player carries its number and name.
    Section(
        "players", Player, {}, left_out=("member",), added={"club_member": None}, member_link=True
    ),
    Section(
        "entries",
        Entry,
        {"player": "players"},
        added={"team_name": "", "status_note": "", "checked_in_by_phone": False},
    ),
    Section(
        "members", EntryMember, {"entry": "entries", "player": "players"}, path="entry__tournament"
    ),
    Section("rounds", Round, {}),
    Section(
        "tables",
        Table,
        {"round": "rounds"},
        left_out=("access_token", "token_issued_at"),
        path="round__tournament",
        added={"time_called_at": None, "time_called_by": ""},
    ),
    Section(
        "seats",
        Seat,
        {"table": "tables", "round": "rounds", "entry": "entries"},
        path="round__tournament",
    ),
    Section("byes", Bye, {"round": "rounds", "entry": "entries"}, path="round__tournament"),
    Section("seating_records", SeatingRecord, {"round": "rounds"}, path="round__tournament"),
    Section("pins", PinnedSeat, {"entry": "entries"}),
    Section("stages", Stage, {}),
    Section(
        "stage_entrants",
        StageEntry,
        {"stage": "stages", "entry": "entries"},
        path="stage__tournament",
    ),
    Section("deals", Deal, {"table": "tables"}, path="table__round__tournament"),
    Section(
        "results",
        DealResult,
        {"deal": "deals", "entry": "entries"},
        path="deal__table__round__tournament",
    ),
    Section(
        "revisions",
        ResultRevision,
        {"deal": "deals"},
        users=("entered_by", "confirmed_by", "reviewed_by"),
        path="deal__table__round__tournament",
    ),
    Section(
        "rulings",
        Ruling,
        {"round": "rounds", "table": "tables", "deal": "deals", "entry": "entries"}
        | {"reverses": "rulings"},
        users=("decided_by",),
    ),
    Section("audit", AuditEvent, {}, users=("actor",)),
    Section(
        "clock_events",
        ClockEvent,
        {"round": "rounds", "table": "tables"},
        users=("by",),
        path="round__tournament",
    ),
    Section(
        "director_calls",
        DirectorCall,
        {"table": "tables"},
        users=("answered_by",),
        path="table__round__tournament",
    ),
)
BY_NAME = {section.name: section for section in SECTIONS}
HEADER = ("format", "version", "exported_at", "tournament", "staff")
# Sections a file of this version may lack: written before they existed, they held no rows.
OPTIONAL = frozenset({"byes", "members", "seating_records", "pins", "stages", "stage_entrants"})
STAFF_FIELDS = ("username", "role", "granted_at")


def fields_of(model: type[models.Model], left_out: tuple[str, ...] = ()) -> list[models.Field]:
    """The fields a row carries (its id apart); a row's tournament is the file's own."""
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and f.name != "tournament" and f.name not in left_out
    ]


# --- export --------------------------------------------------------------------------------------


def tournament_export(*, tournament: Tournament) -> str:
    """The tournament as one JSON document (the module's docstring says what it holds)."""
    tournament = Tournament.objects.get(pk=tournament.pk)  # as stored, not as the caller holds it
    users = dict(get_user_model().objects.values_list("pk", "username"))
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now().astimezone().isoformat(),
        "tournament": {
            f.name: _plain(getattr(tournament, f.name)) for f in fields_of(Tournament, ("club",))
        },
        "staff": [_staff(role) for role in tournament.staff.select_related("user")],
    }
    for section in SECTIONS:
        rows = section.model.objects.filter(**{section.path or "tournament": tournament})
        if section.member_link:
            rows = rows.select_related("member")
        document[section.name] = [_row(row, section, users) for row in rows.order_by("pk")]
    return json.dumps(document, indent=1, ensure_ascii=False)


def _staff(role: StaffRole) -> dict[str, Any]:
    return {
        "username": role.user.username,
        "role": role.role,
        "granted_at": _plain(role.granted_at),
    }


def _row(row: models.Model, section: Section, users: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row.pk}
    for f in fields_of(section.model, section.left_out):
        value = getattr(row, f.attname)
        out[f.name] = users.get(value) if f.name in section.users else _plain(value)
    if section.member_link:
        out["club_member"] = _member_link(row.member)  # type: ignore[attr-defined]
    return out


def _member_link(member: Member | None) -> dict[str, str] | None:
    """The member a player is, by number and name only (the contact stays in the register);
    none for an erased member (the name would say nothing, the number is gone)."""
    if member is None or member.erased_at is not None:
        return None
    return {"number": member.number, "name": member.name}


def _plain(value: Any) -> Any:
    """A field's value as JSON holds it; times in ISO 8601 with their microseconds."""
    return value.isoformat() if isinstance(value, (date, datetime)) else value


# --- reading a file ------------------------------------------------------------------------------


def backup_read(stream: BinaryIO, *, size: int | None = None) -> dict[str, Any]:
    """The document in `stream`: refused before reading when its known `size` is over the
    limit, and never reading more than the limit and one byte."""
    limit = settings.BACKUP_MAX_BYTES
    if size is not None and size > limit:
        raise BackupRefused(_too_big(f"is {size:,} bytes", limit))
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise BackupRefused(_too_big("is larger than that", limit))
    return backup_parse(data)


def _too_big(what: str, limit: int) -> str:
    return (
        f"The file {what}: a backup may be at most {limit:,} bytes (the BACKUP_MAX_BYTES "
        "setting). A tournament's backup is a few megabytes: is this the right file?"
    )


def backup_parse(data: bytes | str) -> dict[str, Any]:
    """The document in `data`, its header, sections and their sizes checked (not yet its
    rows)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        document = json.loads(
            text,
            object_pairs_hook=_no_key_twice,
            parse_constant=_not_a_number,
            parse_float=_finite,
        )
    except UnicodeDecodeError:
        raise BackupRefused(
            gettext("The file is not UTF-8 text: a backup is a JSON file.")
        ) from None
    except json.JSONDecodeError as error:
        raise BackupRefused(gettext("The file is not JSON: {error}.").format(error=error)) from None
    except RecursionError:
        raise BackupRefused(
            gettext("The file nests deeper than {max_depth} levels.").format(max_depth=MAX_DEPTH)
        ) from None
    except ValueError as error:  # a number of more digits than Python converts
        raise BackupRefused(
            gettext("The file holds a number that cannot be read: {error}.").format(error=error)
        ) from None
    _check_header(document)
    _check_sizes(document)
    return document


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the file, refused if it names a key twice: JSON readers keep the last, so
    a second key could hide what the first one says (a second `staff`)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        raise BackupRefused(
            gettext(
                "The file gives the key {twice} twice in one object: a backup never does, and "
                "a reader would keep only one of the two."
            ).format(twice=repr(twice[:40]))
        )
    return found


def _not_a_number(word: str) -> float:
    raise BackupRefused(
        gettext("The file holds {word}, which is not a number a backup holds.").format(word=word)
    )


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BackupRefused(
            gettext("The file holds the number {text}, too large to be read.").format(
                text=text[:30]
            )
        )
    return number


def _check_sizes(document: dict[str, Any]) -> None:
    """Refuse, before looking at a row, a section of more rows than any tournament has."""
    for name, limit in ROW_LIMITS.items():
        rows = document.get(name)
        if isinstance(rows, list) and len(rows) > limit:
            raise BackupRefused(
                gettext(
                    "The file's {name} section holds {count:,} rows; a backup holds at most "
                    "{limit:,} (several times what a large event has): it was not written by "
                    "tournament_export, or not for one tournament."
                ).format(name=name, count=len(rows), limit=limit)
            )


def _check_header(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupRefused(
            gettext("The file is not a Kalooki tournament backup (no format header).")
        )
    if document.get("version") != VERSION:
        raise BackupRefused(
            gettext(
                "This is a backup of format version {str}; this software reads version "
                "{version} only (version 3 stores deals and each game's own data; versions 1 "
                "and 2 stored Kalooki's columns). Load it into the release that wrote it, "
                "upgrade that database (its migrations move every result), then export the "
                "tournament again."
            ).format(str=str(document.get("version"))[:20], version=VERSION)
        )
    expected = {*HEADER, *BY_NAME}
    unknown = sorted(str(key)[:40] for key in set(document) - expected)
    if unknown:
        raise BackupRefused(
            gettext("The file has sections a backup never holds: {join}.").format(
                join=", ".join(unknown)
            )
        )
    missing = sorted(expected - set(document) - OPTIONAL)
    if missing:
        raise BackupRefused(
            gettext("The file lacks the sections {join}.").format(join=", ".join(missing))
        )


# --- checking every row before anything is written -----------------------------------------------


@dataclass
class Checked:
    """The file's rows as unsaved model objects, and what the checks found wrong."""

    tournament: Tournament | None = None
    game: GameShape | None = None  # the tournament's game under its ruleset, once it is read
    staff: list[tuple[str, str, datetime]] = field(default_factory=list)
    rows: dict[str, list[models.Model]] = field(default_factory=dict)
    links: dict[int, dict[str, str] | None] = field(default_factory=dict)  # player id -> member
    problems: list[str] = field(default_factory=list)

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")


def backup_check(document: dict[str, Any]) -> Checked:
    """Every field and reference of the document checked, nothing written; the problems are
    in `problems` (the first `MAX_PROBLEMS` of them)."""
    checked = Checked()
    ids = {name: _ids(document.get(name, []), name, checked) for name in BY_NAME}
    users = dict(get_user_model().objects.values_list("username", "pk"))
    checked.tournament = _tournament(document["tournament"], checked)
    checked.staff = _staff_rows(document["staff"], checked)
    for section in SECTIONS:
        checked.rows[section.name] = []
        for index, row in enumerate(document.get(section.name, [])):
            where = f"{section.name}[{index}]"
            _section_row(row, section, where, ids, users, checked)
            if len(checked.problems) >= MAX_PROBLEMS:
                return checked
    if not checked.problems and checked.game is not None:  # each row sound: now together
        for where, message in play_problems(checked.rows, checked.game.rules):
            checked.problem(where, message)
            if len(checked.problems) >= MAX_PROBLEMS:
                return checked
    _ids_free(ids, checked)
    return checked


def _ids(rows: Any, name: str, checked: Checked) -> set[int]:
    if not isinstance(rows, list):
        checked.problem(name, "must be a list of rows")
        return set()
    ids: set[int] = set()
    for index, row in enumerate(rows):
        value = row.get("id") if isinstance(row, dict) else None
        if not _is_id(value):
            checked.problem(f"{name}[{index}].id", f"must be a whole number from 1 to {MAX_ID}")
        elif value in ids:
            checked.problem(f"{name}[{index}].id", f"{value} is used by another row")
        else:
            ids.add(value)
    return ids


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


# The tournament's fields a file of this version may lack, with the value they then held.
TOURNAMENT_ADDED: dict[str, Any] = {"check_in_until": None}  # the self check-in window


def _tournament(data: Any, checked: Checked) -> Tournament | None:
    if isinstance(data, dict):
        data = TOURNAMENT_ADDED | data
    values = _values(data, Tournament, fields_of(Tournament, ("club",)), "tournament", checked)
    if values is None:
        return None
    try:
        game = games.get(values["game"])
        checked.game = GameShape(game.rules(game.load(values["ruleset"])))
    except Exception as error:  # the game's own checks: any fault is the file's
        checked.problem("tournament.ruleset", f"is not a ruleset this software plays: {error}")
    if Tournament.objects.filter(slug=values["slug"]).exists():
        checked.problem(
            "tournament.slug",
            f"a tournament with the address {values['slug']!r} is already here: import it under "
            "another (--slug)",
        )
    tournament = Tournament(**values)
    return tournament


def _staff_rows(rows: Any, checked: Checked) -> list[tuple[str, str, datetime]]:
    if not isinstance(rows, list):
        checked.problem("staff", "must be a list")
        return []
    role = StaffRole._meta.get_field("role")
    granted = StaffRole._meta.get_field("granted_at")
    found = []
    for index, row in enumerate(rows):
        where = f"staff[{index}]"
        if not _keys(row, set(STAFF_FIELDS), where, checked):
            continue
        username = _username(row["username"], f"{where}.username", checked)
        values = [_value(role, row["role"], f"{where}.role", checked)]
        values.append(_value(granted, row["granted_at"], f"{where}.granted_at", checked))
        if username and None not in values:
            found.append((username, values[0], values[1]))
    return found


def _section_row(
    row: Any,
    section: Section,
    where: str,
    ids: dict[str, set[int]],
    users: dict[str, int],
    checked: Checked,
) -> None:
    plain = [
        f
        for f in fields_of(section.model, section.left_out)
        if f.name not in section.references and f.name not in section.users
    ]
    wanted = {"id", *(f.name for f in fields_of(section.model, section.left_out))}
    if section.member_link:
        wanted.add("club_member")
    if isinstance(row, dict):
        row = section.added | row
    if not _keys(row, wanted, where, checked):
        return
    values = _values(
        {k: row[k] for k in row if k in {f.name for f in plain}},
        None,
        plain,
        where,
        checked,
        keys_checked=True,
    )
    if values is None:
        return
    if checked.game is not None:
        for name, message in shape_problems(section.name, values, checked.game):
            checked.problem(f"{where}.{name}", message)
    for name, target in section.references.items():
        values[f"{name}_id"] = _reference(
            section.model, name, row[name], ids[target], where, checked
        )
    for name in section.users:
        username = _username(row[name], f"{where}.{name}", checked, optional=True)
        values[f"{name}_id"] = users.get(username) if username else None
    if section.member_link:
        for name, message in member_link_problems(row["club_member"]):
            checked.problem(f"{where}.{name}", message)
        checked.links[row["id"]] = row["club_member"]
    checked.rows[section.name].append(section.model(id=row["id"], **values))


def _is_auto(f: models.Field) -> bool:
    return bool(getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))


def _keys(row: Any, wanted: set[str], where: str, checked: Checked) -> bool:
    if not isinstance(row, dict):
        checked.problem(where, "must be an object of fields")
        return False
    unknown = sorted(str(key)[:40] for key in set(row) - wanted)
    missing = sorted(wanted - set(row))
    if unknown:
        checked.problem(where, f"has fields a backup never holds: {', '.join(unknown)}")
    if missing:
        checked.problem(where, f"lacks the fields {', '.join(missing)}")
    return not unknown and not missing


def _values(
    data: Any,
    model: type[models.Model] | None,
    fields: list[models.Field],
    where: str,
    checked: Checked,
    *,
    keys_checked: bool = False,
) -> dict[str, Any] | None:
    if not keys_checked and not _keys(data, {f.name for f in fields}, where, checked):
        return None
    before = len(checked.problems)
    values = {f.name: _value(f, data[f.name], f"{where}.{f.name}", checked) for f in fields}
    return values if len(checked.problems) == before else None


def _value(f: models.Field, raw: Any, where: str, checked: Checked) -> Any:
    """`raw` as field `f` holds it, checked as strictly as the database would, and more."""
    try:
        value = _typed(f, raw)
        if value is not None or not f.null:
            value = f.clean(value, None)
    except (ValidationError, TypeError, ValueError) as error:
        checked.problem(where, _reason(error))
        return None
    return value


def _typed(f: models.Field, raw: Any) -> Any:
    """The JSON value, of the right JSON type for the field (no silent conversions)."""
    if raw is None:
        return None
    if isinstance(f, models.JSONField):
        _check_json(raw)
        return raw
    if isinstance(f, models.BooleanField):
        return _of(raw, bool, "true or false")
    if isinstance(f, models.IntegerField):
        if isinstance(raw, bool):
            raise TypeError(gettext("must be a whole number"))
        return _of(raw, int, "a whole number")
    text = _of(raw, str, "text")
    if "\x00" in text:
        raise ValueError(gettext("holds a NUL character"))
    if isinstance(f, models.DateTimeField):
        return _datetime(text)
    if isinstance(f, models.DateField):
        return _date(text)
    return text


def _of(raw: Any, kind: type, words: str) -> Any:
    if not isinstance(raw, kind):
        raise TypeError(
            gettext("must be {words}, not {kind}").format(words=words, kind=type(raw).__name__)
        )
    return raw


def _datetime(text: str) -> datetime:
    value = parse_datetime(text)
    if value is None or value.tzinfo is None:
        raise ValueError(
            gettext("{text} is not a date and time with its UTC offset").format(
                text=repr(text[:40])
            )
        )
    return _in_range(value)


def _date(text: str) -> date:
    value = parse_date(text)
    if value is None:
        raise ValueError(gettext("{text} is not a date (YYYY-MM-DD)").format(text=repr(text[:40])))
    return _in_range(value)


def _in_range(value: Any) -> Any:
    try:
        problem = in_range(value)
    except OverflowError:  # a time in year 1 or 9999 whose offset takes it past the calendar
        problem = f"{value.isoformat()[:40]} is not between the years 2000 and 2099"
    if problem:
        raise ValueError(problem)
    return value


def _check_json(value: Any) -> None:
    if depth(value) > MAX_DEPTH:
        raise ValueError(
            gettext("nests deeper than {max_depth} levels").format(max_depth=MAX_DEPTH)
        )
    if "\\u0000" in json.dumps(value):  # JSON writes a NUL character escaped
        raise ValueError(gettext("holds a NUL character"))
    problem = json_problem(value)
    if problem:
        raise ValueError(problem)


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)


def _reference(
    model: type[models.Model],
    name: str,
    raw: Any,
    ids: set[int],
    where: str,
    checked: Checked,
) -> int | None:
    if raw is None and model._meta.get_field(name).null:
        return None
    if not _is_id(raw) or raw not in ids:
        shown = json.dumps(raw)[:40]
        checked.problem(
            f"{where}.{name}", f"{shown} is not the id of a row of this file's own tournament"
        )
        return None
    return raw


def _username(raw: Any, where: str, checked: Checked, *, optional: bool = False) -> str | None:
    if raw is None and optional:
        return None
    if not isinstance(raw, str) or not 1 <= len(raw) <= 150 or "\x00" in raw:
        checked.problem(where, "must be a username (1 to 150 characters)")
        return None
    return raw


def _ids_free(ids: dict[str, set[int]], checked: Checked) -> None:
    for name, section_ids in ids.items():
        model = BY_NAME[name].model
        ordered = sorted(section_ids)
        taken = [
            pk
            for start in range(0, len(ordered), BATCH)
            for pk in model.objects.filter(pk__in=ordered[start : start + BATCH])
            .order_by("pk")
            .values_list("pk", flat=True)
        ]
        if taken:
            checked.problem(
                name,
                f"{len(taken)} of its ids are used by this database already (the first: "
                f"{taken[0]}); load a backup into a database that does not hold it",
            )


# --- writing, in one transaction -----------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    tournament: Tournament
    granted: list[str]  # "dana (director)": roles created for users of this database
    to_add: list[str]  # staff of the file the director must add (no such user, or not asked)


def tournament_import(
    *,
    document: dict[str, Any],
    slug: str | None = None,
    grant_staff: bool = False,
    club: Club | None = None,
) -> Imported:
    """Load a checked backup: everything or, with `BackupRefused` saying why, nothing. Into a
    `club`, each player is linked to a member of its register (``_members_linked``)."""
    _check_header(document)
    if slug is not None:
        document = {**document, "tournament": {**_as_dict(document["tournament"]), "slug": slug}}
    _check_sizes(document)
    try:
        with _statements_bounded():
            imported = _check_and_write(document, grant_staff=grant_staff, club=club)
    except OperationalError as error:
        if "timeout" not in str(error) and "interrupted" not in str(error):
            raise
        raise BackupRefused(
            gettext(
                "The file was not loaded, nothing was written: a statement ran longer than "
                "{statement_seconds} s, which no tournament's backup needs ({error})."
            ).format(statement_seconds=STATEMENT_SECONDS, error=error)
        ) from None
    analyze()  # the plans of its reads as if it had always been there (scoring.planner)
    return imported


def _check_and_write(document: dict[str, Any], *, grant_staff: bool, club: Club | None) -> Imported:
    checked = backup_check(document)
    if checked.problems:
        shown = "\n".join(f"- {problem}" for problem in checked.problems[:MAX_PROBLEMS])
        raise BackupRefused(
            gettext("The file was not loaded; nothing was written:\n{shown}").format(shown=shown)
        )
    try:
        with transaction.atomic():
            return _write(checked, grant_staff=grant_staff, club=club)
    except IntegrityError as error:
        raise BackupRefused(
            gettext("The file was not loaded; the database refused its rows: {error}").format(
                error=error
            )
        ) from None


def _statements_bounded() -> AbstractContextManager[None]:
    """The import's session: each statement stopped after `STATEMENT_SECONDS` (the store's
    `statements_bounded`)."""
    return store().statements_bounded(STATEMENT_SECONDS)


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _write(checked: Checked, *, grant_staff: bool, club: Club | None) -> Imported:
    tournament = checked.tournament
    assert tournament is not None  # checked
    with _as_written(Tournament):
        tournament.save()
    for section in SECTIONS:
        rows = checked.rows[section.name]
        for row in rows:
            if any(f.name == "tournament" for f in section.model._meta.concrete_fields):
                row.tournament = tournament
        with _as_written(section.model, section.left_out):
            section.model.objects.bulk_create(rows, batch_size=BATCH)
    _reset_sequences()
    if club is not None:
        _members_linked(tournament, club, checked)
    granted, to_add = _staff_roles(tournament, checked.staff, grant=grant_staff)
    return Imported(tournament, granted, to_add)


def _members_linked(tournament: Tournament, club: Club, checked: Checked) -> None:
    """Each player linked to a member of `club` as adding players links them: the member
    number names the member (a new one holds it), else the same name; a number another club
    holds, a name matching several members, or two players one member refuse the file (the
    backup has no one to choose, and a guess would put one person's results on another's)."""
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    tournament.club = club
    players: list[Player] = checked.rows["players"]  # type: ignore[assignment]
    wanted = [_as_added(index, player, checked.links.get(player.pk))
              for index, player in enumerate(players)]  # fmt: skip
    problems = [RowProblem(w.line, f"member number {w.number} belongs to another club")
                for w in wanted if w.number in _numbers_elsewhere(club, wanted)]  # fmt: skip
    members, matched = members_match(tournament=tournament, wanted=wanted)
    problems += matched
    if problems:
        shown = "\n".join(f"- players[{p.line - 1}].club_member: {p.message}"
                          for p in problems[:MAX_PROBLEMS])  # fmt: skip
        raise BackupRefused(
            gettext("The file was not loaded; nothing was written:\n{shown}").format(shown=shown)
        )
    members_link(tournament=tournament, players=players, members=members, wanted=wanted)


def _as_added(index: int, player: Player, link: dict[str, str] | None) -> CsvPlayer:
    """The player as adding it names it: its member's number and name, else its own name."""
    name = tidy(link["name"]) if link else player.name
    number = link["number"] if link else ""
    return CsvPlayer(index + 1, name, "", "", number=number)


def _numbers_elsewhere(club: Club, wanted: list[CsvPlayer]) -> set[str]:
    numbers = {w.number for w in wanted if w.number}
    held = Member.objects.filter(number__in=numbers).exclude(club=club)
    return set(held.values_list("number", flat=True))


@contextlib.contextmanager
def _as_written(model: type[models.Model], left_out: tuple[str, ...] = ()) -> Iterator[None]:
    """The file's own times written as they are: while its rows are inserted, the model's
    auto-dated fields (`auto_now`, `auto_now_add`) keep the value a row holds instead of
    taking the present. Setting them again afterwards cost a second write of every row, an
    `UPDATE ... CASE` that took most of an import's time. An import runs alone in its process
    (a management command), so nothing else saves a row of the model meanwhile. A field the
    file leaves out (a table link's time of issue) takes the present, as it always did."""
    fields = [f for f in fields_of(model, left_out) if _is_auto(f)]
    kept = [(f, f.auto_now, f.auto_now_add) for f in fields]
    for f in fields:
        f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, auto_now, auto_now_add in kept:
            f.auto_now, f.auto_now_add = auto_now, auto_now_add


def _reset_sequences() -> None:
    """Rows were written with their ids: the next id each table gives must come after them."""
    statements = connection.ops.sequence_reset_sql(no_style(), [s.model for s in SECTIONS])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def _staff_roles(
    tournament: Tournament, staff: list[tuple[str, str, datetime]], *, grant: bool
) -> tuple[list[str], list[str]]:
    users = get_user_model().objects.in_bulk([u for u, _, _ in staff], field_name="username")
    granted, to_add = [], []
    for username, role, at in staff:
        label = f"{username} ({role})"
        if grant and username in users:
            made = StaffRole.objects.create(tournament=tournament, user=users[username], role=role)
            StaffRole.objects.filter(pk=made.pk).update(granted_at=at)
            granted.append(label)
        else:
            to_add.append(label if username in users else f"{label}: no such user here")
    return granted, to_add
