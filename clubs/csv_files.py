"""What every CSV file a director uploads (a club's members, a tournament's players) is checked
for before its rows mean anything: its encoding, that it is text and not too large, and its
records with the line each starts on.

A **problem** (`RowProblem`) is what is wrong with one line, or with the file as a whole. **Line
numbers** are the file's own, counting the header as line 1 and counting blank lines, so that a
director can find a row in their editor. Values are separated by commas or semicolons (a
spreadsheet set to a European locale saves semicolons), or tabs; the header decides which.

A file that is not UTF-8 is read as Windows-1252 (Excel's plain "CSV") only when it looks like
it: a file in another encoding (Shift-JIS, Cyrillic Windows-1251) is refused with what to do,
never imported as garbled names. A value longer than the csv module reads, or a double quote
that is never closed (which would swallow the rest of the file into one name), is a problem on
the line where it starts.
"""

import csv
import io
import unicodedata
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

DELIMITERS = ",;\t"
MAX_BYTES = 1_000_000
# An .xlsx or .ods file is a zip archive; a director who uploads one needs to know what to do.
ZIP_MAGIC = "PK\x03\x04"
SAVE_AS_CSV = gettext_lazy(
    "save it as CSV (in Excel: File › Save As › CSV UTF-8) and import that file"
)
# A Latin name has at most a letter or two outside ASCII in a row (Zoë, Nuñez); a run of more,
# read as Windows-1252, is another alphabet in another encoding.
MAX_ACCENTED_RUN = 2


@dataclass(frozen=True, slots=True)
class RowProblem:
    """What is wrong with one line of the file (``line`` is None for the file as a whole)."""

    line: int | None
    message: str

    def __str__(self) -> str:
        if not self.line:
            return self.message
        return _("Line {line}: {problem}").format(line=self.line, problem=self.message)


def tidy(text: str) -> str:
    """Whitespace as a person means it: trimmed, and runs of spaces made one."""
    return " ".join(text.split())


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


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (with or without Excel's BOM), UTF-16 when it says
    so, else Windows-1252 (how Excel on Windows saves a plain "CSV") when it reads as Latin
    names; otherwise `UnknownEncoding`. A file that is not text comes back as something
    `file_refusal` recognises and refuses."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if _is_binary_data(data):
        return data.decode("cp1252", errors="replace")  # refused by file_refusal as not text
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


def file_refusal(text: str) -> RowProblem | None:
    """Why the text (Excel's BOM taken off) is no CSV file to read at all, if it is not."""
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


def file_records(text: str) -> tuple[list[tuple[int, list[str]]], list[RowProblem]]:
    """The file's records (`read_records`), the header first; or why there are none."""
    text = text.removeprefix("\ufeff")
    refusal = file_refusal(text)
    if refusal:
        return [], [refusal]
    try:
        records = read_records(text)
    except Unreadable as unreadable:
        return [], [unreadable.problem]
    if not records:
        return [], [RowProblem(None, _("The file is empty: start it with the header row."))]
    return records, []


def read_records(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, values) of every non-blank record, in the header's delimiter;
    `Unreadable` when a line cannot be read."""
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
            raise _unreadable(line, error) from None
        _check_unclosed_quote(line, reader.line_num, values, delimiter)
        if any(value.strip() for value in values):
            records.append((line, values))
        line = reader.line_num + 1


def _unreadable(line: int, error: csv.Error) -> Unreadable:
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
