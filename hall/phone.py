"""The players' own phones: the self check-in list and each player's "my page".

Terms
- check-in list: the tournament's players A to Z by the name they look for (a team's partners
  each by their own name, HF1.2), with whether each is checked in. Names and clubs only, as the
  seating board shows them: never an email, nothing of another tournament.
- my page: one player's page on their phone, opened by its token (`tournament.check_in`):
  where they sit in each round being played (table, seat and who else is at the table), the
  next round's seat as soon as it is published, the round clock, their place and scores. Its
  live part asks again every `MY_PAGE_SECONDS` with its ETag (a digest of the figures).
- seat key: what tells one seating from the next on the phone ("2:4:3": round 2, table 4, seat
  3): the page's script buzzes when it changes to a new one, if the player allows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F

from hall.selectors import (
    LeaderRow,
    PublicTournament,
    hall_clock_get,
    hall_round_get,
    leader_rows,
    standings_public,
    tournament_public_get,
)
from scoring.clock import Clock
from tables.models import Bye, Seat
from tournament.models import Entry, EntryMember, Round, entry_name

MY_PAGE_SECONDS = 1.5  # how often a my page asks for its live part: a new seat shows within it
LIVE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


@dataclass(frozen=True)
class NameToFind:
    """One name on the check-in list; a team's partner names their team too."""

    entry: int
    name: str
    club: str
    team: str
    status: str

    @property
    def letter(self) -> str:
        first = self.name[:1].upper()
        return first if first.isalpha() else "#"

    @property
    def checked_in(self) -> bool:
        return self.status == Entry.Status.CHECKED_IN


def check_in_list_get(*, tournament_id: int) -> list[NameToFind]:
    """Every entry's players A to Z by name (2 queries: players, team partners)."""
    entries = Entry.objects.filter(tournament_id=tournament_id).order_by()
    alone = entries.filter(team_name="").values_list("pk", "player__name", "player__club", "status")
    names = [NameToFind(pk, name, club, "", status) for pk, name, club, status in alone]
    partners = EntryMember.objects.filter(entry__tournament_id=tournament_id).values_list(
        "entry_id", "player__name", "player__club", "entry__team_name", "entry__status"
    )
    names += [NameToFind(*partner) for partner in partners]
    return sorted(names, key=lambda found: (found.name.casefold(), found.club.casefold()))


@dataclass(frozen=True)
class Mate:
    position: int
    name: str
    first_dealer: bool
    is_me: bool


@dataclass(frozen=True)
class MySeat:
    """Where the player sits in one round (or their bye), with who else is at the table."""

    round: int
    round_status: str
    round_label: str
    table: int | None  # None: a bye
    position: int | None
    first_dealer: bool = False
    mates: tuple[Mate, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.round}:{self.table or 0}:{self.position or 0}"

    @property
    def is_live(self) -> bool:
        return self.round_status in LIVE_ROUNDS


@dataclass(frozen=True)
class MyPage:
    tournament: PublicTournament
    entry: int
    name: str
    club: str
    status: str
    status_label: str
    seats: tuple[MySeat, ...]  # the rounds being played, oldest first; else the latest
    standing: LeaderRow | None
    clock: Clock | None
    standings_version: int | None = None
    computed_at: str | None = None
    teams: tuple[str, ...] = field(default=())  # a team's partners (HF1.2)

    @property
    def seat_key(self) -> str:
        """The newest seat's key: the one the player goes to next."""
        return self.seats[-1].key if self.seats else ""

    def figures(self) -> tuple[object, ...]:
        """What the live part shows, for its ETag (the clock's state, not its seconds)."""
        clock = (self.clock.state, self.clock.allowed_seconds) if self.clock else None
        return (self.entry, self.status, self.seats, self.standing, clock, self.standings_version)


def my_page_get(*, entry_id: int) -> MyPage | None:
    """The player's own page (6 queries and the standings from the cache); None when the
    entry does not exist (a deleted tournament's token)."""
    found = (
        Entry.objects.filter(pk=entry_id)
        .select_related("player")
        .annotate(slug=F("tournament__slug"))
        .first()
    )
    if found is None:
        return None
    tournament = tournament_public_get(slug=found.slug)
    if tournament is None:
        return None
    standings = standings_public(tournament)
    rows = [row for row in standings.get("players", []) if row["entry"] == entry_id]
    return MyPage(
        tournament=tournament,
        entry=entry_id,
        name=found.name,
        club=found.player.club,
        status=found.status,
        status_label=found.get_status_display(),
        seats=tuple(_seats_to_show(entry_id)),
        standing=leader_rows(rows, tournament.lead)[0] if rows else None,
        clock=hall_clock_get(round=hall_round_get(tournament_id=tournament.id)),
        standings_version=standings.get("version"),
        computed_at=standings.get("computed_at"),
        teams=tuple(found.members.values_list("player__name", flat=True))
        if found.team_name
        else (),
    )


def _seats_to_show(entry_id: int) -> list[MySeat]:
    """The seats (and byes) of the rounds being played, else of the latest published round."""
    seats = _seats_of(entry_id) + _byes_of(entry_id)
    seats.sort(key=lambda seat: seat.round)
    live = [seat for seat in seats if seat.is_live]
    return live or seats[-1:]


def _seats_of(entry_id: int) -> list[MySeat]:
    mine = list(
        Seat.objects.filter(entry_id=entry_id)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("table_id", "round__number", "round__status", "table__number", "position")
    )
    mates: dict[int, list[Mate]] = {}
    at_tables = (
        Seat.objects.filter(table_id__in=[row[0] for row in mine])
        .annotate(who=entry_name("entry__"))
        .order_by("position")
        .values_list("table_id", "position", "who", "is_first_dealer", "entry_id")
    )
    for table, position, who, first, entry in at_tables:
        mates.setdefault(table, []).append(Mate(position, who, first, entry == entry_id))
    return [
        MySeat(
            number, status, Round.Status(status).label, table_number, position,
            any(mate.first_dealer for mate in mates.get(table, ()) if mate.is_me),
            tuple(mates.get(table, ())),
        )
        for table, number, status, table_number, position in mine
    ]  # fmt: skip


def _byes_of(entry_id: int) -> list[MySeat]:
    byes = (
        Bye.objects.filter(entry_id=entry_id)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("round__number", "round__status")
    )
    return [
        MySeat(number, status, Round.Status(status).label, None, None) for number, status in byes
    ]
