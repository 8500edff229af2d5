"""The hall: the seating board, where each player sits now, and the pages' live parts.

Terms
- hall round: the round the hall plays or has just played: the newest round that is not a draft
  (a draft's seating may still change, so it is never shown).
- seating board: the hall round's players by name, A to Z, each with their table and seat, so
  that a player finds their seat at a glance; its projector mode pages through it by itself.
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

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control

from scoring.clock import Clock, round_clocks
from tables.models import Seat
from tournament.models import Round

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
    table: int
    seat: int
    first_dealer: bool


def seating_board_get(*, round_id: int) -> list[SeatOnBoard]:
    """The round's players A to Z with their table and seat (1 query, however many)."""
    rows = Seat.objects.filter(round_id=round_id).values_list(
        "entry_id",
        "entry__player__name",
        "entry__player__club",
        "table__number",
        "position",
        "is_first_dealer",
    )
    seats = [SeatOnBoard(*row) for row in rows]
    return sorted(seats, key=lambda seat: (seat.name.casefold(), seat.club.casefold(), seat.entry))


def seat_now_get(*, tournament_id: int, entry_id: int) -> tuple[HallRound, SeatOnBoard] | None:
    """Where the player sits in the hall round, if they are seated there (2 queries)."""
    round = hall_round_get(tournament_id=tournament_id)
    if round is None:
        return None
    seat = (
        Seat.objects.filter(round_id=round.id, entry_id=entry_id)
        .values_list(
            "entry_id",
            "entry__player__name",
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
