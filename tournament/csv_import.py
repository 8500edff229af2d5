"""Reading a list of players from a CSV file, before anything is saved.

A **players file** is text: a **header** row naming its columns (``name`` required; ``club``,
``email``, ``team`` and the club's member ``number`` optional; any order, any case), then one
**row** per player. In a game of partners (Hand and Foot, HF1.2) the ``team`` column is
required: the two rows with the same team name are that team's partners, the first row partner 1
(``teams_of``). Values are separated by commas or semicolons (a spreadsheet set to a European
locale saves semicolons), or tabs; the header decides which. Blank lines are skipped. **Line
numbers** are the file's own, counting the header as line 1 and counting blank lines, so that a
director can find a row in their editor.

A file that is not UTF-8 is read as Windows-1252 (Excel's plain "CSV") only when it looks like
it: a file in another encoding (Shift-JIS, Cyrillic Windows-1251) is refused with what to do,
never imported as garbled names. A value longer than the csv module reads, or a double quote
that is never closed (which would swallow the rest of the file into one name), is a problem on
the line where it starts.

Reading never stops at the first bad row: it returns every row it could read and every problem
it found, so the director fixes the whole file in one go. Whether a player is already entered in
the tournament is the service's question, since it needs the database.
"""

import csv
import io
import unicodedata
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

COLUMNS = ("name", "club", "email", "team", "number")
TEAM_SIZE = 2  # partners in a team (HF1.2)
ALIASES = {"e-mail": "email", "member number": "number"}
DELIMITERS = ",;\t"
MAX_NAME = 120  # Player.name and Player.club
MAX_EMAIL = 254
MAX_ROWS = 2000  # more players than any Kalooki hall seats; a bigger file is a wrong file
MAX_BYTES = 1_000_000
# An .xlsx or .ods file is a zip archive; a director who uploads one needs to know what to do.
ZIP_MAGIC = "PK\x03\x04"
SAVE_AS_CSV = gettext_lazy(
    "save it as CSV (in Excel: File › Save As › CSV UTF-8) and import that file"
)
# A Latin name has at most a letter or two outside ASCII in a row (Zoë, Nuñez); a run of more,
# read as Windows-1252, is another alphabet in another encoding.
MAX_ACCENTED_RUN = 2


class UnknownEncoding(ValueError):
    """The upload is not UTF-8 and its encoding cannot be told for sure."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "This file is not UTF-8 and its encoding cannot be told for sure (it may be "
                "Shift-JIS, Cyrillic Windows-1251 or another): names would come out garbled. In "
                "Excel: File › Save As › CSV UTF-8; in LibreOffice: Save As, Text CSV, character "
                "set Unicode (UTF-8). Then import that file."
            )
        )


@dataclass(frozen=True, slots=True)
class RowProblem:
    """What is wrong with one line of the file (``line`` is None for the file as a whole)."""

    line: int | None
    message: str

    def __str__(self) -> str:
        if not self.line:
            return self.message
        return _("Line {line}: {problem}").format(line=self.line, problem=self.message)


@dataclass(frozen=True, slots=True)
class CsvPlayer:
    line: int
    name: str
    club: str
    email: str
    team: str = ""
    number: str = ""  # the club's member number, when the file or the director gives one
    member: int | None = None  # the member the director chose, when a name matched several

    def key(self) -> tuple[str, str]:
        return player_key(self.name, self.club)

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


def tidy(text: str) -> str:
    """Whitespace as a person means it: trimmed, and runs of spaces made one."""
    return " ".join(text.split())


def player_key(name: str, club: str) -> tuple[str, str]:
    """Two rows or records are the same person when name and club match, ignoring case."""
    return tidy(name).casefold(), tidy(club).casefold()


def player_problems(*, name: str, club: str, email: str) -> list[tuple[str, str]]:
    """(field, message) for each value a player record cannot hold; the same checks serve one
    player added on a page and every row of a file."""
    problems = []
    if not name:
        problems.append(("name", _("the name is missing")))
    elif len(name) > MAX_NAME:
        problems.append(
            ("name", _("the name is longer than {most} characters").format(most=MAX_NAME))
        )
    if len(club) > MAX_NAME:
        problems.append(
            ("club", _("the club is longer than {most} characters").format(most=MAX_NAME))
        )
    if email and not _is_email(email):
        problems.append(("email", _("“{email}” is not an email address").format(email=email[:80])))
    return problems


def _is_email(email: str) -> bool:
    try:
        validate_email(email)
    except ValidationError:
        return False
    return len(email) <= MAX_EMAIL


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (with or without Excel's BOM), UTF-16 when it says
    so, else Windows-1252 (how Excel on Windows saves a plain "CSV") when it reads as Latin
    names; otherwise `UnknownEncoding`. A file that is not text comes back as something
    `read_players` recognises and refuses."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if _is_binary_data(data):
        return data.decode("cp1252", errors="replace")  # refused by read_players as not text
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        raise UnknownEncoding() from None
    if not _reads_as_latin(text):
        raise UnknownEncoding()
    return text


def _is_binary_data(data: bytes) -> bool:
    return data.startswith(ZIP_MAGIC.encode()) or b"\x00" in data[:4096]


def _reads_as_latin(text: str) -> bool:
    run = 0
    for char in text:
        run = run + 1 if ord(char) > 127 and char.isalpha() else 0
        if run > MAX_ACCENTED_RUN:
            return False
    return True


def read_players(text: str) -> tuple[list[CsvPlayer], list[RowProblem]]:
    """Every player row of the file and every problem with it (none found: an empty list)."""
    text = text.removeprefix("\ufeff")
    refusal = _not_a_players_file(text)
    if refusal:
        return [], [refusal]
    try:
        records = _records(text)
    except Unreadable as unreadable:
        return [], [unreadable.problem]
    if not records:
        return [], [RowProblem(None, _("The file is empty: start it with the header row."))]
    header_line, header = records[0]
    columns, problems = _columns(header_line, header)
    if problems:
        return [], problems
    players, problems = _rows(records[1:], columns)
    if not players and not problems:
        problems = [RowProblem(None, _("The file has a header but no players under it."))]
    return players, problems


def _not_a_players_file(text: str) -> RowProblem | None:
    if text.startswith(ZIP_MAGIC):
        return RowProblem(
            None,
            _("This is a spreadsheet workbook, not a CSV file: {advice}.").format(
                advice=SAVE_AS_CSV
            ),
        )
    if "\x00" in text or sum(map(_is_binary, text[:4096])) > 8:
        return RowProblem(None, _("This file is not text: {advice}.").format(advice=SAVE_AS_CSV))
    if len(text) > MAX_BYTES:
        return RowProblem(
            None, _("The file is larger than {size} kB: split it.").format(size=MAX_BYTES // 1000)
        )
    return None


def _is_binary(char: str) -> bool:
    """A control character or an undecodable byte: one is a typo, many mean a binary file."""
    return char == "\ufffd" or (unicodedata.category(char) == "Cc" and char not in "\r\n\t")


class Unreadable(Exception):
    """The file cannot be read past `line`; the message says why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.problem = RowProblem(line, message)


def _records(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, values) of every non-blank record, in the header's delimiter."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(DELIMITERS, key=header.count) if any(d in header for d in DELIMITERS) else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    records, line = [], 1
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return records
        except csv.Error as error:
            raise _unreadable(line, text, error) from None
        _check_unclosed_quote(line, reader.line_num, values, delimiter)
        if any(value.strip() for value in values):
            records.append((line, values))
        line = reader.line_num + 1


def _unreadable(line: int, text: str, error: csv.Error) -> Unreadable:
    if "field larger than field limit" in str(error):
        limit = csv.field_size_limit()
        return Unreadable(
            line,
            _("a value on this line is longer than {limit} characters").format(limit=f"{limit:,}"),
        )
    if "unexpected end of data" in str(error):
        return _unclosed(line)
    return Unreadable(line, _("this line cannot be read as CSV ({error})").format(error=error))


def _check_unclosed_quote(line: int, last_line: int, values: list[str], delimiter: str) -> None:
    """A quoted name may hold a line break, but not whole rows: a value that spans lines with
    a delimiter in it, or spans three lines or more, began with a quote closed too late."""
    if last_line > line and any(_swallowed_rows(value, delimiter) for value in values):
        raise _unclosed(line)


def _swallowed_rows(value: str, delimiter: str) -> bool:
    breaks = value.count("\n") or value.count("\r")
    return breaks > 1 or (breaks == 1 and delimiter in value)


def _unclosed(line: int) -> Unreadable:
    return Unreadable(
        line,
        _(
            "a double quote opened on this line is never closed, so the lines after it would be "
            "read as one name; close the quote or remove it"
        ),
    )


def _columns(line: int, header: list[str]) -> tuple[dict[str, int], list[RowProblem]]:
    names = [ALIASES.get(tidy(cell).casefold(), tidy(cell).casefold()) for cell in header]
    unknown = [name for name in names if name not in COLUMNS]
    repeated = sorted({name for name in names if names.count(name) > 1})
    expected = _("name (required), club, email and team (optional), and number (a member number)")
    if "name" not in names or unknown:
        found = ", ".join(f"“{cell.strip()}”" for cell in header)
        message = _(
            "the first row must be a header naming the columns {expected}; it reads {found}"
        ).format(expected=expected, found=found)
        return {}, [RowProblem(line, message)]
    if repeated:
        twice = _("the header names {columns} more than once").format(columns=", ".join(repeated))
        return {}, [RowProblem(line, twice)]
    return {name: index for index, name in enumerate(names)}, []


def _rows(
    records: list[tuple[int, list[str]]], columns: dict[str, int]
) -> tuple[list[CsvPlayer], list[RowProblem]]:
    if len(records) > MAX_ROWS:
        too_many = _("The file has more than {most} players: split it.").format(most=MAX_ROWS)
        return [], [RowProblem(None, too_many)]
    players, problems, first_seen = [], [], {}
    for line, values in records:
        player = _player(line, values, columns)
        row_problems = _row_problems(line, values, columns)
        if player.name and len(values) <= len(columns):
            # Keyed even when the row has other faults: both rows will need fixing.
            first = first_seen.setdefault(player.key(), line)
            if first != line:
                already = _("{player} is already on line {first}").format(
                    player=player, first=first
                )
                row_problems.append(RowProblem(line, already))
        if row_problems:
            problems += row_problems
        else:
            players.append(player)
    return players, problems


def _row_problems(line: int, values: list[str], columns: dict[str, int]) -> list[RowProblem]:
    if len(values) > len(columns):
        message = _(
            "this row has {values} values but the header names {columns} columns; "
            "a name or club with a comma or semicolon in it must be in double quotes"
        ).format(values=len(values), columns=len(columns))
        return [RowProblem(line, message)]
    player = _player(line, values, columns)
    found = player_problems(name=player.name, club=player.club, email=player.email)
    return [RowProblem(line, message) for _field, message in found]


def _player(line: int, values: list[str], columns: dict[str, int]) -> CsvPlayer:
    def value(column: str) -> str:
        index = columns.get(column)
        return tidy(values[index]) if index is not None and index < len(values) else ""

    return CsvPlayer(
        line=line,
        name=value("name"),
        club=value("club"),
        email=value("email"),
        team=value("team"),
        number=value("number").upper(),
    )


@dataclass(frozen=True, slots=True)
class CsvTeam:
    """A team read from a players file: its name and its partners in file order (HF1.2)."""

    name: str
    partners: tuple[CsvPlayer, ...]

    @property
    def line(self) -> int:
        return self.partners[0].line


def teams_of(players: list[CsvPlayer]) -> tuple[list[CsvTeam], list[RowProblem]]:
    """The teams the rows make, by their ``team`` value (the same name in any case), and a
    problem for each row without a team and each team without exactly two partners (HF1.2)."""
    problems = [
        RowProblem(
            player.line,
            _("{player} has no team: every partner names their team (HF1.2)").format(player=player),
        )
        for player in players
        if not player.team
    ]
    grouped: dict[str, list[CsvPlayer]] = {}
    for player in players:
        if player.team:
            grouped.setdefault(player.team.casefold(), []).append(player)
    teams = []
    for rows in grouped.values():
        problems += _team_problems(rows)
        teams.append(CsvTeam(rows[0].team, tuple(rows)))
    return teams, problems


def _team_problems(rows: list[CsvPlayer]) -> list[RowProblem]:
    name, lines = rows[0].team, ", ".join(str(row.line) for row in rows)
    if len(rows) == TEAM_SIZE and len(name) <= MAX_NAME:
        return []
    if len(name) > MAX_NAME:
        too_long = _("the team name is longer than {most} characters").format(most=MAX_NAME)
        return [RowProblem(rows[0].line, too_long)]
    if len(rows) < TEAM_SIZE:
        one = _("team “{team}” has one partner: a team is two (HF1.2)").format(team=name)
        return [RowProblem(rows[0].line, one)]
    message = _("team “{team}” has {count} partners (lines {lines}): a team is two (HF1.2)").format(
        team=name, count=len(rows), lines=lines
    )
    return [RowProblem(row.line, message) for row in rows[TEAM_SIZE:]]
