"""Reading a list of players from a CSV file, before anything is saved.

A **players file** is text: a **header** row naming its columns (``name`` required; ``club`` and
``email`` optional; any order, any case), then one **row** per player. Values are separated by
commas or semicolons (a spreadsheet set to a European locale saves semicolons), or tabs; the
header decides which. Blank lines are skipped. **Line numbers** are the file's own, counting the
header as line 1 and counting blank lines, so that a director can find a row in their editor.

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

COLUMNS = ("name", "club", "email")
ALIASES = {"e-mail": "email"}
DELIMITERS = ",;\t"
MAX_NAME = 120  # Player.name and Player.club
MAX_EMAIL = 254
MAX_ROWS = 2000  # more players than any Kalooki hall seats; a bigger file is a wrong file
MAX_BYTES = 1_000_000
# An .xlsx or .ods file is a zip archive; a director who uploads one needs to know what to do.
ZIP_MAGIC = "PK\x03\x04"
SAVE_AS_CSV = "save it as CSV (in Excel: File › Save As › CSV UTF-8) and import that file"


@dataclass(frozen=True, slots=True)
class RowProblem:
    """What is wrong with one line of the file (``line`` is None for the file as a whole)."""

    line: int | None
    message: str

    def __str__(self) -> str:
        return f"Line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True, slots=True)
class CsvPlayer:
    line: int
    name: str
    club: str
    email: str

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
        problems.append(("name", "the name is missing"))
    elif len(name) > MAX_NAME:
        problems.append(("name", f"the name is longer than {MAX_NAME} characters"))
    if len(club) > MAX_NAME:
        problems.append(("club", f"the club is longer than {MAX_NAME} characters"))
    if email and not _is_email(email):
        problems.append(("email", f"“{email[:80]}” is not an email address"))
    return problems


def _is_email(email: str) -> bool:
    try:
        validate_email(email)
    except ValidationError:
        return False
    return len(email) <= MAX_EMAIL


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (with or without Excel's BOM), UTF-16 when it says
    so, else Windows-1252, which is how Excel on Windows saves a plain "CSV". A file that is
    not text comes back as something `read_players` recognises and refuses."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_players(text: str) -> tuple[list[CsvPlayer], list[RowProblem]]:
    """Every player row of the file and every problem with it (none found: an empty list)."""
    text = text.removeprefix("\ufeff")
    refusal = _not_a_players_file(text)
    if refusal:
        return [], [refusal]
    records = list(_records(text))
    if not records:
        return [], [RowProblem(None, "The file is empty: start it with the header row.")]
    header_line, header = records[0]
    columns, problems = _columns(header_line, header)
    if problems:
        return [], problems
    players, problems = _rows(records[1:], columns)
    if not players and not problems:
        problems = [RowProblem(None, "The file has a header but no players under it.")]
    return players, problems


def _not_a_players_file(text: str) -> RowProblem | None:
    if text.startswith(ZIP_MAGIC):
        return RowProblem(None, f"This is a spreadsheet workbook, not a CSV file: {SAVE_AS_CSV}.")
    if "\x00" in text or sum(map(_is_binary, text[:4096])) > 8:
        return RowProblem(None, f"This file is not text: {SAVE_AS_CSV}.")
    if len(text) > MAX_BYTES:
        return RowProblem(None, f"The file is larger than {MAX_BYTES // 1000} kB: split it.")
    return None


def _is_binary(char: str) -> bool:
    """A control character or an undecodable byte: one is a typo, many mean a binary file."""
    return char == "\ufffd" or (unicodedata.category(char) == "Cc" and char not in "\r\n\t")


def _records(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, values) of every non-blank record, in the header's delimiter."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(DELIMITERS, key=header.count) if any(d in header for d in DELIMITERS) else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    records, line = [], 1
    for values in reader:
        if any(value.strip() for value in values):
            records.append((line, values))
        line = reader.line_num + 1
    return records


def _columns(line: int, header: list[str]) -> tuple[dict[str, int], list[RowProblem]]:
    names = [ALIASES.get(tidy(cell).casefold(), tidy(cell).casefold()) for cell in header]
    unknown = [name for name in names if name not in COLUMNS]
    repeated = sorted({name for name in names if names.count(name) > 1})
    expected = "name (required), club and email (optional)"
    if "name" not in names or unknown:
        found = ", ".join(f"“{cell.strip()}”" for cell in header)
        message = f"the first row must be a header naming the columns {expected}; it reads {found}"
        return {}, [RowProblem(line, message)]
    if repeated:
        return {}, [RowProblem(line, f"the header names {', '.join(repeated)} more than once")]
    return {name: index for index, name in enumerate(names)}, []


def _rows(
    records: list[tuple[int, list[str]]], columns: dict[str, int]
) -> tuple[list[CsvPlayer], list[RowProblem]]:
    if len(records) > MAX_ROWS:
        return [], [RowProblem(None, f"The file has more than {MAX_ROWS} players: split it.")]
    players, problems, first_seen = [], [], {}
    for line, values in records:
        player = _player(line, values, columns)
        row_problems = _row_problems(line, values, columns)
        if player.name and len(values) <= len(columns):
            # Keyed even when the row has other faults: both rows will need fixing.
            first = first_seen.setdefault(player.key(), line)
            if first != line:
                row_problems.append(RowProblem(line, f"{player} is already on line {first}"))
        if row_problems:
            problems += row_problems
        else:
            players.append(player)
    return players, problems


def _row_problems(line: int, values: list[str], columns: dict[str, int]) -> list[RowProblem]:
    if len(values) > len(columns):
        message = (
            f"this row has {len(values)} values but the header names {len(columns)} columns; "
            "a name or club with a comma or semicolon in it must be in double quotes"
        )
        return [RowProblem(line, message)]
    player = _player(line, values, columns)
    found = player_problems(name=player.name, club=player.club, email=player.email)
    return [RowProblem(line, message) for _field, message in found]


def _player(line: int, values: list[str], columns: dict[str, int]) -> CsvPlayer:
    def value(column: str) -> str:
        index = columns.get(column)
        return tidy(values[index]) if index is not None and index < len(values) else ""

    return CsvPlayer(line=line, name=value("name"), club=value("club"), email=value("email"))
