"""The hall's seating board (`/p/<slug>/seating`) and its projector mode: find your seat.

Reads come from `hall.selectors`; who may see them, and the live part kept for a second, from
`hall.responses`.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from hall.responses import keep_part, kept_part, private_if_preview, tournament_for_public
from hall.selectors import (
    LIVE_SECONDS,
    PublicTournament,
    hall_clock_get,
    hall_round_get,
    is_live_request,
    seating_board_get,
    updated_now,
)
from hall.views import PULSE_SECONDS

BOARD_ROWS = 15  # rows on one page of the projector mode, without a script
BOARD_SECONDS = 10  # how long the projector shows a page


def _board_context(request: HttpRequest, tournament: PublicTournament) -> dict[str, Any]:
    round = hall_round_get(tournament_id=tournament.id)
    seats = seating_board_get(round_id=round.id) if round else []
    return {"tournament": tournament, "round": round, "seats": seats, "updated": updated_now()}


@require_safe
def seating_board(request: HttpRequest, slug: str) -> HttpResponse:
    """Find your seat: the published round's players A to Z, with table and seat."""
    tournament = tournament_for_public(request, slug)
    key, live = ("seating", tournament.id), is_live_request(request)
    if live and (kept := kept_part(request, tournament, key)) is not None:
        return kept
    context = _board_context(request, tournament)
    if live:
        figures = (tournament, context["round"], context["seats"])
        return keep_part(request, tournament, key, "hall/_seating_live.html", context, *figures)
    context["live_seconds"] = LIVE_SECONDS
    context["pulse_seconds"] = PULSE_SECONDS
    return private_if_preview(tournament, render(request, "hall/seating.html", context))


@require_safe
def seating_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The seating board in large type, a page at a time: the script fits as many rows as the
    screen shows and moves on every `BOARD_SECONDS`; without it, `?page=N` and a refresh."""
    tournament = tournament_for_public(request, slug)
    context = _board_context(request, tournament)
    seats = context["seats"]
    pages = max(1, -(-len(seats) // BOARD_ROWS))
    page = min(max(_int(request.GET.get("page"), 1), 1), pages)
    context |= {
        "page": page,
        "pages": pages,
        "next_page": page % pages + 1,
        "first_row": (page - 1) * BOARD_ROWS,
        "rows_per_page": BOARD_ROWS,
        "seconds": BOARD_SECONDS,
        "clock": hall_clock_get(round=context["round"]),
    }
    return private_if_preview(tournament, render(request, "hall/seating_projector.html", context))


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or default)
    except ValueError:
        return default
