"""The public pages of a published tournament, for players' phones and the hall's projector.

No sign-in: anyone may read a published tournament's home, live leaderboard, tables and players.
An unpublished tournament is a 404 for everyone but its directors' preview (`?preview=1`). Reads
are `hall.selectors`; conditional requests, bodies drawn once per version and kept live parts
are `hall.responses`; every cache they use is named in `config.caches`.

Terms
- rows: the leaderboard's table body. The page's script fetches it every `REFRESH_SECONDS` and
  swaps it in when the version changed.
- pulse: a few bytes whose ETag changes with what a page shows of the standings (the version for
  the home page and the seating board; a table's row and its players' places and totals; a
  player's row), answered without a query. An open page asks it every `PULSE_SECONDS` and
  fetches its live part only when it changed.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_safe

from config.caches import MISSING, PUBLIC_ROWS, forget_process_caches
from hall.responses import (
    Drawn,
    Validators,
    drawn_once,
    keep_part,
    kept_part,
    private_if_preview,
    tournament_for_public,
)
from hall.selectors import (
    LIVE_SECONDS,
    LeaderRow,
    PublicTournament,
    byes_public_get,
    clock_figures,
    digest,
    hall_clock_get,
    hall_round_get,
    is_live_request,
    leader_rows,
    partner_lines_get,
    player_public_get,
    rounds_public,
    seat_now_get,
    seat_standings,
    stage_lines,
    standings_public,
    standings_version,
    table_public_get,
    version_stamp,
)
from tournament.selectors import tournament_list_public
from tournament.templatetags.deal_words import counted_sentence

REFRESH_SECONDS = 1  # how often an open leaderboard asks for new rows (a 304 from the cache)
PULSE_SECONDS = 1  # how often a page's live part asks its pulse whether it changed
NOSCRIPT_REFRESH_SECONDS = 30  # the whole page, when the browser runs no JavaScript
PROJECTOR_ROWS = 12  # rows on one projector page
# Rows on one page of the leaderboard: what a watching phone fetches after a change (a few KB
# gzipped, whatever the tournament's size).
LEADERBOARD_PAGE_ROWS = 100
PROJECTOR_SECONDS = 10  # how long the projector shows a page
HOME_LEADERS = 10  # leaders shown on the tournament's home page

forget_recent = forget_process_caches  # the name tests/test_query_counts.py and bench/ import


def _rows_html(
    tournament: PublicTournament, standings: dict[str, Any], page: int | None = None
) -> str:
    """The rows' HTML: every row, or those of leaderboard page `page` (from 1)."""

    def draw() -> list[str]:
        return _rows_drawn(tournament, leader_rows(standings["players"], tournament.lead))

    stamp = version_stamp(tournament, standings)
    if page is None:
        return drawn_once("rows", tournament, stamp, lambda: "".join(draw()))
    parts = drawn_once("row-parts", tournament, stamp, draw)
    start = (page - 1) * LEADERBOARD_PAGE_ROWS
    paged = lambda: "".join(parts[start : start + LEADERBOARD_PAGE_ROWS])  # noqa: E731
    return drawn_once(f"rows:{page}", tournament, stamp, paged)


def leaderboard_pages(standings: dict[str, Any]) -> int:
    """How many pages of `LEADERBOARD_PAGE_ROWS` the leaderboard has (1 at least)."""
    return max(1, -(-len(standings["players"]) // LEADERBOARD_PAGE_ROWS))


def leaderboard_page(request: HttpRequest, standings: dict[str, Any]) -> int | None:
    """The page asked for (`?page=N`, within the pages there are); None when the leaderboard
    fits one page, or no page is asked for and `whole` rows are wanted (the projector's)."""
    pages = leaderboard_pages(standings)
    if pages == 1:
        return None
    return min(max(_int(request.GET.get("page"), 1), 1), pages)


ROWS_TEMPLATE = "hall/_leaderboard_rows.html"
ROW_START = '<tr id="entry-'  # how the template starts each row; escaped text never holds it


def _rows_drawn(tournament: PublicTournament, rows: list[LeaderRow]) -> list[str]:
    """Each row's HTML, a row drawn again only when it changed since this process last drew the
    tournament (`public.rows`): a result mid-round changes a few players' rows, and the rest
    are as they were."""
    if not rows:
        return [render_to_string(ROWS_TEMPLATE, {"tournament": tournament, "rows": []})]
    drawn = PUBLIC_ROWS.get(tournament.id, tournament)
    drawn = {} if drawn is MISSING else drawn
    missing = [row for row in rows if row not in drawn]
    if missing:
        html = render_to_string(ROWS_TEMPLATE, {"tournament": tournament, "rows": missing})
        parts = html.split(ROW_START)[1:]
        if len(parts) != len(missing):  # pragma: no cover - the template starts each row so
            raise ValueError(f"{ROWS_TEMPLATE} must start each row with {ROW_START!r}")
        pairs = zip(missing, parts, strict=True)
        drawn = drawn | {row: ROW_START + _one_row(part) for row, part in pairs}
    kept = {row: drawn[row] for row in rows}  # in the rows' order; the rows gone are dropped
    PUBLIC_ROWS.put(tournament.id, tournament, kept)
    return list(kept.values())


def _one_row(part: str) -> str:
    """A row as the template drew it, up to its line's end (the last one carries the file's)."""
    return part[: part.rindex("</tr>") + len("</tr>")] + "\n"


@require_safe
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The live leaderboard: a 304 from the cache alone when the client has this version."""
    tournament = tournament_for_public(request, slug)
    standings = standings_public(tournament)
    page = leaderboard_page(request, standings)
    validators = Validators.of(tournament, standings)
    unchanged = validators.not_modified(request)
    if unchanged is not None:
        return unchanged
    if tournament.preview or _signed_in(request):  # the page's header names them
        board = _board(tournament, standings, page)
        response = render(request, "hall/leaderboard.html", board)
    else:
        stamp = (version_stamp(tournament, standings), REFRESH_SECONDS, request.path)
        draw = lambda: _anonymous_page(request, tournament, standings, page)  # noqa: E731
        response = Drawn(f"page:{page}", tournament, stamp, draw).response(request)
    patch_vary_headers(response, ["Cookie"])  # a sign-in changes the page's header
    return validators.stamp(response)


def _signed_in(request: HttpRequest) -> bool:
    """Only a visitor with a session cookie can be signed in: the crowd without one shares a
    page drawn once, without a session being looked at."""
    return settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated


def _board(
    tournament: PublicTournament, standings: dict[str, Any], page: int | None = None
) -> dict[str, Any]:
    pages = leaderboard_pages(standings)
    start = ((page or 1) - 1) * LEADERBOARD_PAGE_ROWS
    return {
        "stages": stage_lines(standings),
        "tournament": tournament,
        "standings": standings,
        "page": page,
        "pages": range(1, pages + 1) if page else (),
        "first_row": start + 1,
        "last_row": min(start + LEADERBOARD_PAGE_ROWS, len(standings["players"])),
        "rows_html": _rows_html(tournament, standings, page),
        "etag": _rows_validators(tournament, standings, page).etag,
        "refresh_seconds": REFRESH_SECONDS,
        "noscript_seconds": NOSCRIPT_REFRESH_SECONDS,
        "computed_at": _computed_at(standings),
        "ranking": standings.get("ranking", ""),
    }


def _anonymous_page(
    request: HttpRequest,
    tournament: PublicTournament,
    standings: dict[str, Any],
    page: int | None = None,
) -> str:
    """The whole page as everyone without a sign-in sees it. Drawn without the request's
    context: a visitor's own messages must not be drawn into everyone's page."""
    board = _board(tournament, standings, page)
    context = {**board, "request": request, "user": AnonymousUser()}
    return render_to_string("hall/leaderboard.html", context)


def _rows_validators(
    tournament: PublicTournament, standings: dict[str, Any], page: int | None
) -> Validators:
    """The version's validators; a page's ETag is its rows' digest instead, so that a phone
    watching page 3 gets a 304 while a change elsewhere leaves its rows as they were."""
    validators = Validators.of(tournament, standings)
    if page is None:
        return validators
    stamp = version_stamp(tournament, standings)
    draw = lambda: digest(tournament.id, page, _rows_html(tournament, standings, page))  # noqa: E731
    etag = drawn_once(f"rows-etag:{page}", tournament, stamp, draw)
    return replace(validators, etag=etag, last_modified=None)


def _computed_at(standings: dict[str, Any]) -> datetime.datetime | None:
    at = standings.get("computed_at")
    return datetime.datetime.fromisoformat(at) if at else None


@require_safe
def leaderboard_rows(request: HttpRequest, slug: str) -> HttpResponse:
    """The leaderboard's table body alone, for the page's script (and the projector's): every
    row, or one page's (`?page=N`, with an ETag of that page's rows: a 304 while they are the
    same, whatever changed elsewhere)."""
    tournament = tournament_for_public(request, slug)
    standings = standings_public(tournament)
    page = leaderboard_page(request, standings) if "page" in request.GET else None
    validators = _rows_validators(tournament, standings, page)
    unchanged = validators.not_modified(request)
    if unchanged is not None:
        return unchanged
    stamp = version_stamp(tournament, standings)
    draw = lambda: _rows_html(tournament, standings, page)  # noqa: E731
    rows = Drawn(f"rows-body:{page}", tournament, stamp, draw)
    response = validators.stamp(rows.response(request))
    at = _computed_at(standings)
    if at is not None:  # the hall's one clock: the server's time, in the venue's time zone
        response.headers["X-Updated"] = f"{timezone.localtime(at):%H:%M:%S}"
    response.headers["X-Counted"] = quote(counted_sentence(standings))  # any language's letters
    return response


@require_safe
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Large type, no controls: page `?page=N` of the leaderboard. The script pages through all
    rows every `PROJECTOR_SECONDS`; without it the page itself moves on to the next page."""
    tournament = tournament_for_public(request, slug)
    standings = standings_public(tournament)
    rows = leader_rows(standings["players"], tournament.lead)
    pages = max(1, -(-len(rows) // PROJECTOR_ROWS))
    page = min(max(_int(request.GET.get("page"), 1), 1), pages)
    start = (page - 1) * PROJECTOR_ROWS
    context = {
        "tournament": tournament,
        "rows": rows[start : start + PROJECTOR_ROWS],
        "page": page,
        "pages": pages,
        "next_page": page % pages + 1,
        "rows_per_page": PROJECTOR_ROWS,
        "seconds": PROJECTOR_SECONDS,
        "refresh_seconds": REFRESH_SECONDS,
        "computed_at": _computed_at(standings),
        "latest_round": standings.get("latest_round"),
        "counted_words": counted_sentence(standings),
        "stages": stage_lines(standings),
        "clock": hall_clock_get(round=hall_round_get(tournament_id=tournament.id)),
    }
    return private_if_preview(tournament, render(request, "hall/projector.html", context))


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or default)
    except ValueError:
        return default


# --- pulses ------------------------------------------------------------------------------------


@require_safe
def pulse(
    request: HttpRequest,
    slug: str,
    round: int | None = None,
    table: int | None = None,
    entry_id: int | None = None,
) -> HttpResponse:
    """Whether what a page shows changed: a 304 while the client's ETag is the page's pulse,
    else a two-byte body with the new one. The tournament's pulse is the standings' version
    (from the cache's head); a table's or a player's is the digest of their part of the
    standings (`_pulses`), read from this process's memory."""
    tournament = tournament_for_public(request, slug)
    if round is None and entry_id is None:
        validators = Validators.of(tournament, standings_version(tournament))
        unchanged = validators.not_modified(request)
        return unchanged if unchanged is not None else validators.stamp(_pulse_body())
    key = f"table:{round}.{table}" if entry_id is None else f"player:{entry_id}"
    standings = standings_public(tournament)
    etag = _pulse(tournament, standings, key) or Validators.of(tournament, standings).etag
    if not tournament.preview and get_conditional_response(request, etag=etag) is not None:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = _pulse_body()
    response.headers["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return private_if_preview(tournament, response)


def _pulse_body() -> HttpResponse:
    return HttpResponse(b"1\n", content_type="text/plain")


def _pulse(tournament: PublicTournament, standings: dict[str, Any], key: str) -> str | None:
    """A table's or a player's pulse at this version (None for one the standings lack), each
    drawn once per version in a process, when first asked: a player's row of the standings; a
    table's row with its players' places and totals."""
    found = drawn_once(
        "pulses", tournament, version_stamp(tournament, standings), lambda: _Pulses(standings)
    )
    return found[key]


class _Pulses(dict[str, str | None]):
    """The pulses of one version of the standings, drawn as asked for (`_pulse`)."""

    def __init__(self, standings: dict[str, Any]) -> None:
        super().__init__()
        self.standings = standings
        self.rows = {f"player:{row['entry']}": row for row in standings["players"]}
        self.tables = {f"table:{t['round']}.{t['table']}": t for t in standings.get("tables", ())}

    def __missing__(self, key: str) -> str | None:
        if key in self.rows:
            self[key] = digest(self.rows[key])
        elif key in self.tables:
            found = self.tables[key]
            seats = [self.rows.get(f"player:{seat['entry']}", {}) for seat in found["seats"]]
            shown = [(row.get("place"), row.get("shared"), row.get("total")) for row in seats]
            self[key] = digest(found, shown, self.standings.get("counted_words"))
        else:
            return None
        return self[key]


@require_safe
def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for_public(request, slug)
    live = is_live_request(request)
    if live and (kept := kept_part(request, tournament, ("home", tournament.id))) is not None:
        return kept
    standings = standings_public(tournament)
    round = hall_round_get(tournament_id=tournament.id)
    context = {
        "tournament": tournament,
        "rounds": rounds_public(tournament_id=tournament.id),
        "leaders": leader_rows(standings["players"][:HOME_LEADERS], tournament.lead),
        "players": len(standings["players"]),
        "counted_words": counted_sentence(standings),
        "computed_at": _computed_at(standings),
        "hall_round": round,
        "clock": hall_clock_get(round=round),
        "live_seconds": LIVE_SECONDS,
        "pulse_seconds": PULSE_SECONDS,
    }
    if live:
        version = standings.get("version")
        figures = (tournament, version, context["rounds"], round, clock_figures(context["clock"]))
        key = ("home", tournament.id)
        return keep_part(request, tournament, key, "hall/_home_live.html", context, *figures)
    return private_if_preview(tournament, render(request, "hall/home.html", context))


@require_safe
def table_page(request: HttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    tournament = tournament_for_public(request, slug)
    key, live = ("table", tournament.id, round, table), is_live_request(request)
    if live and (kept := kept_part(request, tournament, key)) is not None:
        return kept
    found = table_public_get(tournament_id=tournament.id, round_number=round, table_number=table)
    if found is None:
        raise Http404(f"Round {round} has no table {table} to show yet.")
    standings = standings_public(tournament)
    context = {
        "tournament": tournament,
        "table": found,
        "standings": seat_standings(found.seats, standings, tournament.lead),
        "counted_words": counted_sentence(standings),
        "clock": found.clock,
        "updated": found.updated,
        "live_seconds": LIVE_SECONDS,
        "pulse_seconds": PULSE_SECONDS,
    }
    if live:
        version = standings.get("version")
        figures = (tournament, replace(found, clock=None), clock_figures(found.clock), version)
        return keep_part(request, tournament, key, "hall/_table_live.html", context, *figures)
    return private_if_preview(tournament, render(request, "hall/table.html", context))


@require_safe
def partner_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings' players tab of a team tournament (HF11.2): every partner A to Z with the
    team's place and figures, for a player who looks for their own name (2 queries)."""
    tournament = tournament_for_public(request, slug)
    if not tournament.teams:
        raise Http404("This tournament is played by single players: see the leaderboard.")
    standings = standings_public(tournament)
    context = {
        "tournament": tournament,
        "partners": partner_lines_get(
            tournament_id=tournament.id,
            standings=standings,
            lead=tournament.lead[0] if tournament.lead else None,
        ),
        "computed_at": _computed_at(standings),
        "ranking": standings.get("ranking", ""),
    }
    return render(request, "hall/partners.html", context)


@require_safe
def player_page(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = tournament_for_public(request, slug)
    key, live = ("player", tournament.id, entry_id), is_live_request(request)
    if live and (kept := kept_part(request, tournament, key)) is not None:
        return kept
    standings = standings_public(tournament)
    player = player_public_get(tournament_id=tournament.id, entry_id=entry_id, standings=standings)
    if player is None:
        raise Http404("This tournament has no such player.")
    context = {
        "tournament": tournament,
        "player": player,
        "computed_at": _computed_at(standings),
        "counted_words": counted_sentence(standings),
        "seat_now": seat_now_get(tournament_id=tournament.id, entry_id=entry_id),
        "live_seconds": LIVE_SECONDS,
        "pulse_seconds": PULSE_SECONDS,
        "byes": byes_public_get(entry_id=entry_id),
    }
    if context["byes"]:
        context["bye_words"] = tournament.rules().bye_words()
        hall_round = hall_round_get(tournament_id=tournament.id)
        if hall_round and not context["seat_now"] and hall_round.number in context["byes"]:
            context["bye_now"] = hall_round.number
    if live:
        figures = (
            tournament,
            standings.get("version"),
            player,
            context["seat_now"],
            context["byes"],
        )
        return keep_part(request, tournament, key, "hall/_player_live.html", context, *figures)
    return private_if_preview(tournament, render(request, "hall/player.html", context))


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """The site's front page: every published tournament, each linked to its public home."""
    return render(request, "hall/index.html", {"tournaments": tournament_list_public()})
