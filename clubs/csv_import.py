"""Reading a club's member list from a CSV file, before anything is saved.

A **members file** has a header row naming its columns (``name`` required; ``display_name``,
``number``, ``contact`` and ``public_name`` optional, any order, any case), then a row per member.
The file itself (its encoding, that it is text, the delimiter, line numbers, unreadable lines) is
checked as every uploaded CSV file is (``clubs.csv_files``). Reading never stops at the first
problem: every row and every problem come back together; what needs the database (numbers
already held by a member) is the service's question.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from clubs.csv_files import RowProblem, file_records, tidy
from clubs.models import Member

COLUMNS = ("name", "display_name", "number", "contact", "public_name")
ALIASES = {"display name": "display_name", "member number": "number", "public name": "public_name"}
MAX_NAME, MAX_NUMBER, MAX_CONTACT = 120, 20, 254
MAX_ROWS = 5000
CHOICES = {choice.value: choice.value for choice in Member.PublicName}


@dataclass(frozen=True, slots=True)
class CsvMember:
    line: int
    name: str
    display_name: str = ""
    number: str = ""
    contact: str = ""
    public_name: str = Member.PublicName.FULL


def member_problems(member: CsvMember) -> list[str]:
    """What a member record cannot hold; the same checks serve a form and a file's row."""
    problems = []
    if not member.name:
        problems.append(_("the name is missing"))
    if len(member.name) > MAX_NAME or len(member.display_name) > MAX_NAME:
        problems.append(_("a name is longer than {most} characters").format(most=MAX_NAME))
    if member.number and not (member.number.isalnum() and len(member.number) <= MAX_NUMBER):
        problems.append(
            _("the member number “{number}” is not letters and digits (at most {most})").format(
                number=member.number[:30], most=MAX_NUMBER
            )
        )
    if len(member.contact) > MAX_CONTACT:
        problems.append(_("the contact is longer than {most} characters").format(most=MAX_CONTACT))
    if member.public_name not in CHOICES:
        problems.append(
            _("the public name “{value}” is not one of {choices}").format(
                value=member.public_name[:20], choices=", ".join(CHOICES)
            )
        )
    return problems


def read_members(text: str) -> tuple[list[CsvMember], list[RowProblem]]:
    """Every member row of the file and every problem with it."""
    records, problems = file_records(text)
    if problems:
        return [], problems
    columns, problem = _columns(records[0])
    if problem:
        return [], [problem]
    return _rows(records[1:], columns)


def _columns(header: tuple[int, list[str]]) -> tuple[list[str], RowProblem | None]:
    line, values = header
    names = [ALIASES.get(tidy(v).casefold(), tidy(v).casefold()) for v in values]
    unknown = [name for name in names if name not in COLUMNS]
    if unknown or "name" not in names or len(set(names)) != len(names):
        wanted = ", ".join(COLUMNS)
        header = _("The header must name the columns once each, from {columns}.")
        return [], RowProblem(line, header.format(columns=wanted))
    return names, None


def _rows(
    records: list[tuple[int, list[str]]], columns: list[str]
) -> tuple[list[CsvMember], list[RowProblem]]:
    if len(records) > MAX_ROWS:
        too_many = _("The file has more than {most} members: split it.").format(most=MAX_ROWS)
        return [], [RowProblem(None, too_many)]
    if not records:
        return [], [RowProblem(None, _("The file has a header but no members under it."))]
    members, problems = [], []
    for line, values in records:
        if len(values) != len(columns):
            counts = _("{values} values for {columns} columns")
            problems.append(
                RowProblem(line, counts.format(values=len(values), columns=len(columns)))
            )
            continue
        row = {name: tidy(value) for name, value in zip(columns, values, strict=True)}
        row["public_name"] = row.get("public_name", "").casefold() or Member.PublicName.FULL
        row["number"] = row.get("number", "").upper()
        member = CsvMember(line=line, **row)
        problems += [RowProblem(line, message) for message in member_problems(member)]
        members.append(member)
    problems += _duplicates(members)
    return members, sorted(problems, key=lambda problem: problem.line or 0)


def _duplicates(members: list[CsvMember]) -> list[RowProblem]:
    """A number twice, or the same name and number twice, in one file."""
    problems, seen = [], {}
    for member in members:
        key = member.number or None
        if key and key in seen:
            problems.append(
                RowProblem(
                    member.line,
                    _("member number {number} is also on line {line}").format(
                        number=member.number, line=seen[key]
                    ),
                )
            )
        elif key:
            seen[key] = member.line
    names: dict[str, int] = {}
    for member in members:
        key = member.name.casefold()
        if not member.number and key in names:
            problems.append(
                RowProblem(
                    member.line,
                    _(
                        "{name} is also on line {line}: give each a member number "
                        "if they are two people"
                    ).format(name=member.name, line=names[key]),
                )
            )
        names.setdefault(key, member.line)
    return problems
