"""Reading a list of players from a CSV file, before anything is saved.

A **players file** is text: a **header** row naming its columns (``name`` required; ``club``,
``email``, ``team`` and the club's member ``number`` optional; any order, any case), then one
**row** per player. In a game of partners (Hand and Foot, HF1.2) the ``team`` column is
required: the two rows with the same team name are that team's partners, the first row partner 1
(``teams_of``). Blank lines are skipped. The file itself (its encoding, that it is text, the
delimiter, line numbers, unreadable lines) is checked as every uploaded CSV file is
(``clubs.csv_files``).

Reading never stops at the first bad row: it returns every row it could read and every problem
it found, so the director fixes the whole file in one go. Whether a player is already entered in
the tournament is the service's question, since it needs the database.
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from clubs.csv_files import RowProblem, file_records, tidy

COLUMNS = ("name", "club", "email", "team", "number")
TEAM_SIZE = 2  # partners in a team (HF1.2)
ALIASES = {"e-mail": "email", "member number": "number"}
MAX_NAME = 120  # Player.name and Player.club
MAX_EMAIL = 254
MAX_ROWS = 2000  # more players than any Kalooki hall seats; a bigger file is a wrong file


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


def read_players(text: str) -> tuple[list[CsvPlayer], list[RowProblem]]:
    """Every player row of the file and every problem with it (none found: an empty list)."""
    records, problems = file_records(text)
    if problems:
        return [], problems
    header_line, header = records[0]
    columns, problems = _columns(header_line, header)
    if problems:
        return [], problems
    players, problems = _rows(records[1:], columns)
    if not players and not problems:
        problems = [RowProblem(None, _("The file has a header but no players under it."))]
    return players, problems


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
