"""The hall: the seating board, where each player sits now, and the pages' live parts.

Terms
- hall round: the round the hall plays or has just played: the newest round that is not a draft
  (a draft's seating may still change, so it is never shown).
- seating board: the hall round's players by name, A to Z, each with their table and seat (or
  their bye, when the round leaves them without a table), so that a player finds their seat at
  a glance; its projector mode pages through it by itself.
- live part: the part of a public page that changes while the hall plays (the home's rounds and
  leaders, a player's games and seat, a table's scores, the board). The page's script asks for it
  again every few seconds (`?live=1`) with the ETag it holds: a 304 with no body while its
  figures are unchanged, the new part (no reload) once they changed. The ETag is a digest of the
  figures themselves, so it changes exactly when the part would.
- updated: the one clock of the hall's pages: the server's, in the venue's time zone (`TIME_ZONE`),
  never a browser's. Each page says when the figures it shows were computed.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from typing import Any

from django.db.models import BooleanField, IntegerField, Value
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control

from scoring.clock import Clock, round_clocks
from tables.models import Bye, Seat
from tournament.models import EntryMember, Round, entry_name

LIVE_SECONDS = 10  # how often a page's live part asks again


@dataclass(frozen=True)
class HallRound:
    id: int
    number: int
    status: str
    status_label: str


def hall_round_get(*, tournament_id: int) -> HallRound | None:
    """The newest round that is not a draft (1 query); None before the first is published."""
    round = (
        Round.objects.filter(tournament_id=tournament_id)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if round is None:
        return None
    return HallRound(round.pk, round.number, round.status, round.get_status_display())


@dataclass(frozen=True)
class SeatOnBoard:
    entry: int
    name: str
    club: str
    table: int | None  # None for a bye
    seat: int | None
    first_dealer: bool
    bye: bool = False


def seating_board_get(*, round_id: int) -> list[SeatOnBoard]:
    """The round's players A to Z with their table and seat, and those with a bye (1 query,
    however many)."""
    names = ("entry_id", "who", "entry__player__club")  # a team by its name (HF1.2)
    seats = (
        Seat.objects.filter(round_id=round_id)
        .order_by()
        .annotate(who=entry_name("entry__"))
        .values_list(*names, "table__number", "position", "is_first_dealer")
    )
    byes = (
        Bye.objects.filter(round_id=round_id)
        .order_by()
        .annotate(who=entry_name("entry__"))
        .annotate(no_table=Value(0, IntegerField()), no_seat=Value(0, IntegerField()))
        .annotate(deals=Value(False, BooleanField()))
        .values_list(*names, "no_table", "no_seat", "deals")
    )
    board = [
        SeatOnBoard(entry, name, club, table or None, seat or None, first, bye=not table)
        for entry, name, club, table, seat, first in seats.union(byes, all=True)
    ]
    return sorted(board, key=lambda seat: (seat.name.casefold(), seat.club.casefold(), seat.entry))


def byes_public_get(*, entry_id: int) -> list[int]:
    """The published rounds the player sits out (a bye), by number (1 query)."""
    byes = (
        Bye.objects.filter(entry_id=entry_id)
        .exclude(round__status=Round.Status.DRAFT)
        .order_by("round__number")
    )
    return list(byes.values_list("round__number", flat=True))


def seat_now_get(*, tournament_id: int, entry_id: int) -> tuple[HallRound, SeatOnBoard] | None:
    """Where the player sits in the hall round, if they are seated there (2 queries)."""
    round = hall_round_get(tournament_id=tournament_id)
    if round is None:
        return None
    seat = (
        Seat.objects.filter(round_id=round.id, entry_id=entry_id)
        .annotate(who=entry_name("entry__"))
        .values_list(
            "entry_id",
            "who",
            "entry__player__club",
            "table__number",
            "position",
            "is_first_dealer",
        )
        .first()
    )
    return (round, SeatOnBoard(*seat)) if seat else None


def clock_figures(clock: Clock | None) -> tuple[Any, ...] | None:
    """What of a clock changes its part: its state and time allowed, not the seconds that run
    (the page's script counts those down)."""
    return (clock.state, clock.allowed_seconds, clock.table_paused) if clock else None


def hall_clock_get(*, round: HallRound | None) -> Clock | None:
    """The hall round's clock, while it is being played (1 query)."""
    if round is None or round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        return None
    clock = round_clocks(round_id=round.id).round
    return clock if clock.is_started else None


# --- live parts --------------------------------------------------------------------------------


def digest(*figures: Any) -> str:
    """A weak ETag of the figures a part shows: it changes when any of them does."""
    return 'W/"' + hashlib.sha256(repr(figures).encode()).hexdigest()[:20] + '"'


def is_live_request(request: HttpRequest) -> bool:
    return request.GET.get("live") == "1"


def live_response(
    request: HttpRequest, template: str, context: dict[str, Any], *figures: Any
) -> HttpResponse:
    """The live part alone: a 304 while `figures` are unchanged for the client, else the part,
    never stored by a shared cache (a preview is the director's alone)."""
    etag = digest(*figures)
    if get_conditional_response(request, etag=etag) is not None:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(request, template, context)
    response.headers["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def updated_now() -> datetime.datetime:
    return timezone.localtime()


@dataclass(frozen=True)
class PartnerLine:
    """One partner of a team tournament, with the team's line of the standings (HF11.2)."""

    name: str
    club: str
    team: str
    entry: int
    place: int | None
    shared: bool
    lead: int  # the figure that decides the place before points (games won, HF11.2)
    total: int


def partner_lines_get(
    *, tournament_id: int, standings: dict[str, Any], lead: str | None = None
) -> list[PartnerLine]:
    """Every partner of the tournament's teams A to Z, each with the team's place and its
    `lead` figure and total from `standings` (1 query)."""
    rows = {row["entry"]: row for row in standings.get("players", [])}
    members = EntryMember.objects.filter(entry__tournament_id=tournament_id).values_list(
        "player__name", "player__club", "entry__team_name", "entry_id"
    )
    lines = []
    for name, club, team, entry in members:
        row = rows.get(entry, {})
        lines.append(
            PartnerLine(
                name, club, team, entry, row.get("place"), bool(row.get("shared")),
                row.get("stats", {}).get(lead or "", 0), row.get("total", 0),
            )
        )  # fmt: skip
    return sorted(lines, key=lambda line: (line.name.casefold(), line.team.casefold()))
