"""The public pages of a published tournament, for players' phones and the hall's projector.

No sign-in: anyone may read a published tournament's home, live leaderboard, tables and players.
An unpublished tournament is a 404 for everyone, except a director of it who asks for a
**preview** (`?preview=1`): the pages then say so and are never cached.

Terms
- public facts: what the pages need of the tournament itself (name, dates, venue, published),
  cached for `FACTS_SECONDS` so that a leaderboard request reads nothing but the cache; a change
  of them (publishing, unpublishing, a new name) shows within those seconds.
- standings: `scoring.standings.standings_current`, the newest snapshot (R12.3), from the cache.
- validators: the snapshot's version (the ETag) and its computation time (Last-Modified). A
  request that already holds the current version gets a 304 with no body, decided from the
  cache alone.
- reuse: each web process keeps the facts and standings it read for `REUSE_SECONDS`, so that
  under a crowd it asks the shared cache a few times a second rather than at every request.
- rows: the leaderboard's table body. It changes only with the snapshot, so each web process
  draws it (and the whole page seen without a sign-in, plain and gzipped) once per version
  (`_rendered`); the page's script fetches the rows every `REFRESH_SECONDS` and swaps them in
  when the version changed.
- pulse: a few bytes whose ETag changes with what a page shows of the standings (the version
  for the home page and the seating board; the table's row and its players' places and totals
  for a table page; the player's row for a player's page), answered from the standings this
  process holds, without a query. An open page asks it every `PULSE_SECONDS` and fetches its
  live part only when it changed, so that a saved result shows within about a second of the
  standings counting it, and the parts (which read the database) are drawn only on a change.
- shortcut: `LeaderboardShortcut`, a middleware that answers the leaderboard to visitors
  without a session right after WhiteNoise, without the rest of the middleware stack.
- running total: a player's total over their counted games up to and including one game (R8.6);
  rulings (R12.4) are added to the leaderboard's total, and listed on the player's page.
"""

from __future__ import annotations

import datetime
import gzip
import json
import re
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import Resolver404, ResolverMatch, get_urlconf, resolve
from django.utils import timezone
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date
from django.views.decorators.http import require_safe

from games.base import DealScore, SideScore
from hall.selectors import (
    LIVE_SECONDS,
    byes_public_get,
    clock_figures,
    digest,
    hall_clock_get,
    hall_round_get,
    is_live_request,
    partner_lines_get,
    seat_now_get,
)
from scoring.clock import Clock, round_clocks
from scoring.matches import deal_noun, deals_in_match, match_noun, sides_of
from scoring.models import Deal, DealResult, Ruling
from scoring.standings import standings_current, standings_head
from tables.models import Seat, Table
from tables.selectors import (
    DealLine,
    SeatLine,
    deal_lines,
    schedule_numbers,
    seat_lines,
    seats_prefetch,
)
from tournament.models import Entry, Round, Tournament
from tournament.permissions import directed_tournaments
from tournament.selectors import rules_in_words, tournament_list_public

FACTS_SECONDS = 10  # how long a change of a tournament's public facts may take to show
REUSE_SECONDS = 0.2  # how long a web process reuses the facts and standings it last read
REFRESH_SECONDS = 1  # how often an open leaderboard asks for new rows (a 304 from the cache)
PULSE_SECONDS = 1  # how often a page's live part asks its pulse whether it changed
NOSCRIPT_REFRESH_SECONDS = 30  # the whole page, when the browser runs no JavaScript
PROJECTOR_ROWS = 12  # rows on one projector page
# Rows on one page of the leaderboard: what a watching phone fetches after a change (a few KB
# gzipped, whatever the tournament's size).
LEADERBOARD_PAGE_ROWS = 100
PROJECTOR_SECONDS = 10  # how long the projector shows a page
HOME_LEADERS = 10  # leaders shown on the tournament's home page

# --- the tournament's public facts -----------------------------------------------------------


@dataclass(frozen=True)
class PublicTournament:
    id: int
    slug: str
    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    venue: str
    status: str
    is_published: bool
    games_in_set: int | None  # deals in a match (nine under ASAJ); None: to a target score
    game: str = "kalooki"
    game_name: str = ""  # the game and its ruleset in words (Rules.describe), for the home page
    rules_words: tuple[str, ...] = ()
    deals_noun: str = "games"  # "games", "hands", "deals"
    lead: tuple[str, str, str] | None = None  # (stat, label, help) of the column that decides
    # the place, when it is not the total (Parcellus: match points)
    ruleset: str = "{}"  # the tournament's stored ruleset, as JSON text (the facts are cached)
    preview: bool = False  # a director looking at the unpublished pages

    @property
    def status_label(self) -> str:
        return Tournament.Status(self.status).label

    @property
    def query(self) -> str:
        """What links between the pages carry: the preview stays a preview."""
        return "?preview=1" if self.preview else ""

    @property
    def teams(self) -> bool:
        """Whether the game is played by teams of partners (Hand and Foot, HF1.2)."""
        return self.rules().shape().members > 1

    def rules(self) -> Any:
        """The tournament's game under its ruleset, read from the cached facts (no query)."""
        return Tournament(game=self.game, ruleset=json.loads(self.ruleset)).rules()

    def as_model(self) -> Tournament:
        """An unsaved stand-in with the primary key, enough for `standings_current`."""
        return Tournament(pk=self.id, slug=self.slug, name=self.name)


FACTS = ("id", "slug", "name", "starts_on", "ends_on", "venue", "status", "is_published")


def tournament_public_get(*, slug: str) -> PublicTournament | None:
    """The tournament's public facts, from the cache (else 1 query); None if there is none."""
    return _recently(("tournament", slug), lambda: _cached_facts(slug))


def _cached_facts(slug: str) -> PublicTournament | None:
    key = f"public:tournament:{slug}"
    facts = _cache_get(key)
    if facts is None:
        facts = _facts(slug)
        _cache_set(key, facts, FACTS_SECONDS)  # unknown addresses too: a 404 costs no query
    return PublicTournament(**facts) if facts else None


def _facts(slug: str) -> dict[str, Any]:
    row = Tournament.objects.filter(slug=slug).values(*FACTS, "game", "ruleset").first()
    if row is None:
        return {}
    rules = Tournament(game=row["game"], ruleset=row["ruleset"]).rules()
    row["game_name"], row["rules_words"] = rules_in_words(game=row["game"], stored=row["ruleset"])
    row["ruleset"] = json.dumps(row["ruleset"], sort_keys=True)
    row["games_in_set"] = deals_in_match(rules)
    row["deals_noun"] = deal_noun(rules, 2)
    first = rules.columns()[0]
    if first.stat != "total":
        row["lead"] = (first.stat, first.label, first.help)
    return row


_recent: dict[Hashable, tuple[float, Any]] = {}
RECENT_LIMIT = 1000  # addresses remembered by one process; a scan of made-up ones is forgotten


def _recently(key: Hashable, read: Callable[[], Any]) -> Any:
    """What `read` returned in this process less than `REUSE_SECONDS` ago, else `read()`: under
    a crowd, each web process asks the shared cache a few times a second, not once a request."""
    now = time.monotonic()
    found = _recent.get(key)
    if found is not None and now - found[0] < REUSE_SECONDS:
        return found[1]
    value = read()
    if len(_recent) >= RECENT_LIMIT:
        _recent.clear()
    _recent[key] = (now, value)
    return value


def forget_recent() -> None:
    """Drop what this process remembers (tests that change the facts between two requests)."""
    _recent.clear()
    _memo.clear()
    _row_memo.clear()
    _parts.clear()


def _cache_get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # Redis away: the database answers instead
        return None


def _cache_set(key: str, value: Any, seconds: int) -> None:
    try:
        cache.set(key, value, seconds)
    except Exception:
        return


def tournament_for_public(request: HttpRequest, slug: str) -> PublicTournament:
    """The published tournament, or its preview for one of its directors; a 404 otherwise,
    signed in or not, so that the public never sees a tournament before the director does."""
    tournament = tournament_public_get(slug=slug)
    if tournament is not None and tournament.is_published:
        return tournament
    if tournament is not None and request.GET.get("preview") and _directs(request, tournament):
        return replace(tournament, preview=True)
    raise Http404("No published tournament has that address.")


def _directs(request: HttpRequest, tournament: PublicTournament) -> bool:
    return directed_tournaments(request.user).filter(pk=tournament.id).exists()


# --- conditional requests (ETag = the snapshot's version) --------------------------------------


@dataclass(frozen=True)
class Validators:
    """What a client may send back to learn that nothing changed: a 304 instead of the page."""

    etag: str
    last_modified: int | None
    cacheable: bool  # False for a preview: every look is fresh and nothing is stored

    @classmethod
    def of(cls, tournament: PublicTournament, standings: dict[str, Any]) -> Validators:
        computed_at = standings.get("computed_at")
        # Whole seconds, as HTTP dates are: If-Modified-Since compares with the header's value.
        at = int(datetime.datetime.fromisoformat(computed_at).timestamp()) if computed_at else None
        # Weak: the gzipped and the plain body of one version are the same standings.
        etag = f'W/"{tournament.id}.{standings.get("version", 0)}"'
        return cls(etag, at, not tournament.preview)

    def not_modified(self, request: HttpRequest) -> HttpResponse | None:
        """A 304 when the client holds this version already (If-None-Match, If-Modified-Since)."""
        if not self.cacheable:
            return None
        if get_conditional_response(request, self.etag, self.last_modified) is None:
            return None
        return self.stamp(HttpResponseNotModified())

    def stamp(self, response: HttpResponse) -> HttpResponse:
        if not self.cacheable:
            patch_cache_control(response, private=True, no_store=True)
            return response
        response.headers["ETag"] = self.etag
        if self.last_modified is not None:
            response.headers["Last-Modified"] = http_date(self.last_modified)
        patch_cache_control(response, no_cache=True)  # store it, but ask every time
        return response


# --- the leaderboard ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderRow:
    """One player's line on the leaderboard, ready to show."""

    entry: int
    player: str
    club: str
    status: str
    place: str  # "=3" when shared (R12.3), "—" when not placed
    games_played: int
    last_game: int | None
    total: int
    ruling_points: int
    movement: int | None  # places gained since the previous round
    ranked_total: int = 0  # what the place is decided by: the completed rounds' while one is live
    round_points: int = 0  # in the current round (the live one, else the latest)
    round_games: int = 0
    lead: int | None = None  # the stat that decides the place, when it is not the total
    round_bye: bool = False  # the player sits out the current round

    @property
    def status_label(self) -> str:
        """Shown only for a player no longer playing."""
        return Entry.Status(self.status).label if self.status in STOPPED else ""

    @property
    def movement_label(self) -> str:
        if not self.movement:
            return "–"
        return f"▲{self.movement}" if self.movement > 0 else f"▼{-self.movement}"

    @property
    def movement_class(self) -> str:
        if not self.movement:
            return "same"
        return "up" if self.movement > 0 else "down"

    @property
    def movement_words(self) -> str:
        if self.movement is None:
            return "no earlier round to compare"
        if not self.movement:
            return "same place as after the previous round"
        way = "up" if self.movement > 0 else "down"
        return f"{way} {abs(self.movement)} since the previous round"


STOPPED = (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED)


def leader_rows(
    players: Iterable[dict[str, Any]], lead: tuple[str, str, str] | None = None
) -> list[LeaderRow]:
    """The snapshot's players, in its order (placed by the game, then the unplaced)."""
    return [_leader_row(row, lead) for row in players]


def _leader_row(row: dict[str, Any], lead: tuple[str, str, str] | None = None) -> LeaderRow:
    place = row["place"]
    return LeaderRow(
        entry=row["entry"],
        player=row["player"],
        club=row["club"],
        status=row["status"],
        place="—" if place is None else f"={place}" if row["shared"] else str(place),
        games_played=row["games_played"],
        last_game=row["last_game"],
        total=row["total"],
        ruling_points=row["ruling_points"],
        movement=row["movement"],
        # .get: a snapshot of an older shape lacks them until its next refresh
        ranked_total=row["total"],
        round_points=row.get("round_points", 0),
        round_games=row.get("round_games", 0),
        # Like the total, the lead counts the completed rounds while one is live.
        lead=(row.get("ranked_stats") or row.get("stats", {})).get(lead[0], 0) if lead else None,
        round_bye=row.get("round_bye", False),
    )


_memo: dict[tuple[str, int], tuple[Hashable, Any]] = {}


def _rendered(kind: str, tournament: PublicTournament, stamp: Hashable, draw: Callable[[], Any]):
    """What `draw` renders for this tournament, drawn once per `stamp` in each process: the
    leaderboard's rows change only with a new snapshot, and 2,000 rows take a while to draw."""
    key = (kind, tournament.id)
    found = _memo.get(key)
    if found is not None and found[0] == stamp:
        return found[1]
    html = draw()
    _memo[key] = (stamp, html)
    return html


def _rows_html(
    tournament: PublicTournament, standings: dict[str, Any], page: int | None = None
) -> str:
    """The rows' HTML: every row, or those of leaderboard page `page` (from 1)."""

    def draw() -> list[str]:
        return _rows_drawn(tournament, leader_rows(standings["players"], tournament.lead))

    stamp = _stamp(tournament, standings)
    if page is None:
        return _rendered("rows", tournament, stamp, lambda: "".join(draw()))
    parts = _rendered("row-parts", tournament, stamp, draw)
    start = (page - 1) * LEADERBOARD_PAGE_ROWS
    paged = lambda: "".join(parts[start : start + LEADERBOARD_PAGE_ROWS])  # noqa: E731
    return _rendered(f"rows:{page}", tournament, stamp, paged)


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
_row_memo: dict[int, tuple[PublicTournament, dict[LeaderRow, str]]] = {}


def _rows_drawn(tournament: PublicTournament, rows: list[LeaderRow]) -> list[str]:
    """Each row's HTML, a row drawn again only when it changed since this process last drew the
    tournament: a result mid-round changes a few players' rows, and drawing 10,000 unchanged
    ones was most of the time from a saved result to the leaderboard (issue 18)."""
    if not rows:
        return [render_to_string(ROWS_TEMPLATE, {"tournament": tournament, "rows": []})]
    held = _row_memo.get(tournament.id)
    drawn = held[1] if held is not None and held[0] == tournament else {}
    missing = [row for row in rows if row not in drawn]
    if missing:
        html = render_to_string(ROWS_TEMPLATE, {"tournament": tournament, "rows": missing})
        parts = html.split(ROW_START)[1:]
        if len(parts) != len(missing):  # pragma: no cover - the template starts each row so
            raise ValueError(f"{ROWS_TEMPLATE} must start each row with {ROW_START!r}")
        pairs = zip(missing, parts, strict=True)
        drawn = drawn | {row: ROW_START + _one_row(part) for row, part in pairs}
    kept = {row: drawn[row] for row in rows}  # in the rows' order; the rows gone are dropped
    _row_memo[tournament.id] = (tournament, kept)
    return list(kept.values())


def _one_row(part: str) -> str:
    """A row as the template drew it, up to its line's end (the last one carries the file's)."""
    return part[: part.rindex("</tr>") + len("</tr>")] + "\n"


def _stamp(tournament: PublicTournament, standings: dict[str, Any]) -> Hashable:
    return (tournament, standings.get("version"), standings.get("computed_at"))


def standings_public(tournament: PublicTournament) -> dict[str, Any]:
    """The standings a public page shows. Each process asks the shared cache only for the
    newest version's head (a few bytes, `standings_head`) and reads the standings themselves
    once per version: a 304 never waits for 2,000 players' standings to be fetched and
    unpickled."""
    if tournament.preview:  # a director checking a change sees it at once
        return standings_current(tournament=tournament.as_model())
    head = standings_version(tournament)
    held = _memo.get(("standings", tournament.id))
    if held is not None and held[0] == (head["version"], head.get("computed_at")):
        return held[1]
    standings = standings_current(tournament=tournament.as_model())
    _keep(tournament, standings)
    return standings


def standings_version(tournament: PublicTournament) -> dict[str, Any]:
    """The newest standings' `version` and `computed_at` (what `Validators.of` reads), from
    this process's memory for `REUSE_SECONDS`, else the shared cache's head of the snapshot."""
    if tournament.preview:
        return standings_current(tournament=tournament.as_model())
    keep = lambda standings: _keep(tournament, standings)  # noqa: E731
    read = lambda: standings_head(tournament=tournament.as_model(), keep=keep)  # noqa: E731
    return _recently(("standings", tournament.id), read)


def _keep(tournament: PublicTournament, standings: dict[str, Any]) -> None:
    stamp = (standings.get("version", 0), standings.get("computed_at"))
    _memo[("standings", tournament.id)] = (stamp, standings)


_standings = standings_public


@require_safe
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The live leaderboard: a 304 from the cache alone when the client has this version."""
    tournament = tournament_for_public(request, slug)
    standings = _standings(tournament)
    page = leaderboard_page(request, standings)
    validators = Validators.of(tournament, standings)
    unchanged = validators.not_modified(request)
    if unchanged is not None:
        return unchanged
    if tournament.preview or _signed_in(request):  # the page's header names them
        board = _board(tournament, standings, page)
        response = render(request, "hall/leaderboard.html", board)
    else:
        stamp = (_stamp(tournament, standings), REFRESH_SECONDS, request.path)
        draw = lambda: _anonymous_page(request, tournament, standings, page)  # noqa: E731
        response = _Drawn(f"page:{page}", tournament, stamp, draw).response(request)
    patch_vary_headers(response, ["Cookie"])  # a sign-in changes the page's header
    return validators.stamp(response)


def _signed_in(request: HttpRequest) -> bool:
    """Only a visitor with a session cookie can be signed in: the crowd without one shares a
    page drawn once, without a session being looked at."""
    return settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated


def stage_lines(standings: dict[str, Any]) -> list[dict[str, Any]]:
    """Each stage cut so far, as the public pages show it above the standings: its name and
    rounds, its scoring and seats in words, and its players in its own order."""
    names = {row["entry"]: row["player"] for row in standings["players"]}
    return [
        {
            "name": stage["name"],
            "rounds": stage["rounds"],
            "words": f"{stage['scoring_words']} {stage['seats_words']}",
            "players": [names[entry] for entry in stage["order"] if entry in names],
        }
        for stage in standings.get("stages", ())
        if stage["number"] > 1 and stage["cut"]
    ]


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


@dataclass(frozen=True)
class _Drawn:
    """A body that is the same for everyone until the next snapshot: encoded, and gzipped for
    the browsers that accept it (a 2,000-row leaderboard shrinks about tenfold), once per
    `stamp` in each process. It holds no secret (no CSRF token), so compressing it is safe."""

    kind: str
    tournament: PublicTournament
    stamp: Hashable
    draw: Callable[[], str]

    def response(self, request: HttpRequest) -> HttpResponse:
        body = self._once(self.kind, lambda: self.draw().encode())
        if not ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(body)
        else:
            zipped = self._once(f"{self.kind}.gz", lambda: gzip.compress(body, mtime=0))
            response = HttpResponse(zipped, headers={"Content-Encoding": "gzip"})
        patch_vary_headers(response, ["Accept-Encoding"])
        return response

    def _once(self, kind: str, draw: Callable[[], bytes]) -> bytes:
        return _rendered(kind, self.tournament, self.stamp, draw)


ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _rows_validators(
    tournament: PublicTournament, standings: dict[str, Any], page: int | None
) -> Validators:
    """The version's validators; a page's ETag is its rows' digest instead, so that a phone
    watching page 3 gets a 304 while a change elsewhere leaves its rows as they were."""
    validators = Validators.of(tournament, standings)
    if page is None:
        return validators
    stamp = _stamp(tournament, standings)
    draw = lambda: digest(tournament.id, page, _rows_html(tournament, standings, page))  # noqa: E731
    etag = _rendered(f"rows-etag:{page}", tournament, stamp, draw)
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
    standings = _standings(tournament)
    page = leaderboard_page(request, standings) if "page" in request.GET else None
    validators = _rows_validators(tournament, standings, page)
    unchanged = validators.not_modified(request)
    if unchanged is not None:
        return unchanged
    stamp = _stamp(tournament, standings)
    draw = lambda: _rows_html(tournament, standings, page)  # noqa: E731
    rows = _Drawn(f"rows-body:{page}", tournament, stamp, draw)
    response = validators.stamp(rows.response(request))
    at = _computed_at(standings)
    if at is not None:  # the hall's one clock: the server's time, in the venue's time zone
        response.headers["X-Updated"] = f"{timezone.localtime(at):%H:%M:%S}"
    response.headers["X-Counted"] = standings.get("counted_words", "")  # plain ASCII words
    return response


@require_safe
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Large type, no controls: page `?page=N` of the leaderboard. The script pages through all
    rows every `PROJECTOR_SECONDS`; without it the page itself moves on to the next page."""
    tournament = tournament_for_public(request, slug)
    standings = _standings(tournament)
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
        "counted_words": standings.get("counted_words", ""),
        "stages": stage_lines(standings),
        "clock": hall_clock_get(round=hall_round_get(tournament_id=tournament.id)),
    }
    return private_if_preview(tournament, render(request, "hall/projector.html", context))


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or default)
    except ValueError:
        return default


# --- live parts, held ----------------------------------------------------------------------------

HOLD_SECONDS = 1  # how long a web process reuses a live part it drew, at the same standings
_parts: dict[Hashable, tuple[Hashable, str, bytes, bytes]] = {}  # key -> stamp, ETag, body, gzipped


def _part_stamp(tournament: PublicTournament) -> Hashable:
    head = standings_version(tournament)
    now = time.monotonic()  # HOLD_SECONDS = 0: never reused (tests that change a clock)
    return (
        head.get("version"),
        head.get("computed_at"),
        now // HOLD_SECONDS if HOLD_SECONDS else now,
    )


def held_part(
    request: HttpRequest, tournament: PublicTournament, key: Hashable
) -> HttpResponse | None:
    """The live part `key` as this process drew it for the same standings within the last
    `HOLD_SECONDS`, else None. A change brings every watching phone at once (the pulse), and a
    part reads the database (the home page's, 40 ms at 2,000 players): drawn once, not once a
    phone. A clock in it is at most that old (its script counts on from there)."""
    found = None if tournament.preview else _parts.get(key)
    if found is None or found[0] != _part_stamp(tournament):
        return None
    return _part_response(request, *found[1:])


def hold_part(
    request: HttpRequest,
    tournament: PublicTournament,
    key: Hashable,
    template: str,
    context: dict[str, Any],
    *figures: Any,
) -> HttpResponse:
    """Draw the live part (the same for everyone: drawn without the request), keep it for
    `held_part`, plain and gzipped, and answer it (a 304 while `figures` are the client's)."""
    body = render_to_string(template, context).encode()
    etag, zipped = digest(*figures), gzip.compress(body, mtime=0)
    if not tournament.preview:
        if len(_parts) >= 5000:  # a process serves a few tournaments: never unbounded
            _parts.clear()
        _parts[key] = (_part_stamp(tournament), etag, body, zipped)
    return private_if_preview(tournament, _part_response(request, etag, body, zipped))


def _part_response(request: HttpRequest, etag: str, body: bytes, zipped: bytes) -> HttpResponse:
    """The part, gzipped for a browser that takes it (it holds no secret: no CSRF token)."""
    if get_conditional_response(request, etag=etag) is not None:
        response: HttpResponse = HttpResponseNotModified()
    elif ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(zipped, headers={"Content-Encoding": "gzip"})
    else:
        response = HttpResponse(body)
    response.headers["ETag"] = etag
    patch_vary_headers(response, ["Accept-Encoding"])
    patch_cache_control(response, no_cache=True)
    return response


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
    standings = _standings(tournament)
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
    found = _rendered(
        "pulses", tournament, _stamp(tournament, standings), lambda: _Pulses(standings)
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


# --- the tournament's home ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableLink:
    number: int
    games_played: int


@dataclass(frozen=True)
class RoundLine:
    number: int
    status: str
    status_label: str
    tables: tuple[TableLink, ...]

    @property
    def is_public(self) -> bool:
        """A draft round's seating may still change: its tables are not shown yet."""
        return self.status != Round.Status.DRAFT


def rounds_public(*, tournament_id: int) -> list[RoundLine]:
    """Every round with its tables and how many of each match's deals are scored (2 queries)."""
    tables: dict[int, list[TableLink]] = {}
    scored = Count("deals", filter=Q(deals__is_void=False))
    for round_id, number, games in (
        Table.objects.filter(round__tournament_id=tournament_id)
        .annotate(scored=scored)
        .order_by("number")
        .values_list("round_id", "number", "scored")
    ):
        tables.setdefault(round_id, []).append(TableLink(number, games))
    rounds = Round.objects.filter(tournament_id=tournament_id).order_by("number")
    return [
        RoundLine(r.number, r.status, r.get_status_display(), tuple(tables.get(r.pk, ())))
        for r in rounds
    ]


@require_safe
def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for_public(request, slug)
    live = is_live_request(request)
    if live and (held := held_part(request, tournament, ("home", tournament.id))) is not None:
        return held
    standings = _standings(tournament)
    round = hall_round_get(tournament_id=tournament.id)
    context = {
        "tournament": tournament,
        "rounds": rounds_public(tournament_id=tournament.id),
        "leaders": leader_rows(standings["players"][:HOME_LEADERS], tournament.lead),
        "players": len(standings["players"]),
        "counted_words": standings.get("counted_words", ""),
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
        return hold_part(request, tournament, key, "hall/_home_live.html", context, *figures)
    return private_if_preview(tournament, render(request, "hall/home.html", context))


def private_if_preview(tournament: PublicTournament, response: HttpResponse) -> HttpResponse:
    if tournament.preview:
        patch_cache_control(response, private=True, no_store=True)
    return response


# --- a table -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreCell:
    score: int
    running: int  # the seat's side's total after this deal
    went_out: bool


@dataclass(frozen=True)
class GameRow:
    """One deal at the table, or a void attempt at one (R9.2), a cell per seat in seat order."""

    line: DealLine
    attempt: int
    is_void: bool
    is_pending: bool  # awaiting a second person's confirmation: not counted yet
    down_and_out: bool  # Kalooki's R8.3
    cells: tuple[ScoreCell, ...]


@dataclass(frozen=True)
class PublicTable:
    round: int
    number: int
    seats: list[SeatLine]
    games: list[GameRow]
    totals: list[int]  # each seat's side's total so far, in seat order
    current: DealLine | None  # the deal being played now; None once the match is over
    current_attempt: int  # 2 after one void attempt (R9.2)
    games_scored: int
    games_in_set: int | None  # None for a match to a target score
    is_signed_off: bool
    clock: Clock | None = None  # the table's clock while its round is being played
    updated: datetime.datetime | None = None  # its last entry: the figures' time
    deal_noun: str = "game"
    match_noun: str = "set"
    higher_wins: bool = False
    order_rule: str = ""  # the rule that says who wins the match (Kalooki R4.1)


def table_public_get(
    *, tournament_id: int, round_number: int, table_number: int
) -> PublicTable | None:
    """One table of a published round: seats, every deal's scores, the deal being played and
    its clock (5 queries: table, seats, deals, results, clock events). None for a draft
    round's table."""
    table = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(seats_prefetch())
        .filter(round__tournament_id=tournament_id, round__number=round_number)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(number=table_number)
        .first()
    )
    if table is None:
        return None
    seats = seat_lines(table)
    rules = table.round.tournament.rules()
    deals = list(table.deals.order_by("number", "attempt"))
    rows = DealResult.objects.filter(deal__table=table).values_list(
        "deal_id", "side", "points", "went_out", "detail"
    )
    results = {(deal, side): (points, out, detail) for deal, side, points, out, detail in rows}
    played = _played(deals, results)
    scored = sum(1 for deal in deals if not deal.is_void)
    lines = deal_lines(seats, rules, schedule_numbers(rules, played=scored))
    game_rows, totals = _game_rows(rules, deals, lines, seats, results)
    current, attempt = _current_game(rules, deals, seats, played, table.time_called)
    return PublicTable(
        round=round_number,
        number=table.number,
        seats=seats,
        games=game_rows,
        totals=totals,
        current=current,
        current_attempt=attempt,
        games_scored=scored,
        games_in_set=deals_in_match(rules),
        is_signed_off=table.is_signed_off(),
        clock=_table_clock(table),
        updated=max((deal.updated_at for deal in deals), default=None),
        deal_noun=deal_noun(rules),
        match_noun=match_noun(rules),
        higher_wins=rules.higher_wins,
        order_rule=rules.cites("order"),
    )


def _played(deals: list[Deal], results: dict[tuple[int, int], tuple]) -> list[Any]:
    """The deals as the game scored them, from the rows read (``scoring.matches``)."""
    scores = []
    for deal in deals:
        if deal.is_void:
            scores.append(DealScore(deal.number, (), void=True, detail=deal.detail))
            continue
        sides = sorted((side, row) for (pk, side), row in results.items() if pk == deal.pk)
        scored = tuple(SideScore(p, out, (), detail) for _, (p, out, detail) in sides)
        scores.append(DealScore(deal.number, scored, detail=deal.detail))
    return scores


def _table_clock(table: Table) -> Clock | None:
    if table.round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        return None
    clock = round_clocks(round_id=table.round_id).of(table.pk)
    return clock if clock.is_started else None


def _game_rows(
    rules: Any,
    deals: list[Deal],
    lines: list[DealLine],
    seats: list[SeatLine],
    results: dict[tuple[int, int], tuple],
) -> tuple[list[GameRow], list[int]]:
    """Each deal with its scores and the running totals; only confirmed scores count."""
    by_number = {line.number: line for line in lines}
    side_of = {s.entry_id: i for i, side in enumerate(sides_of(rules, seats)) for s in side}
    totals = [0] * len(seats)
    rows = []
    for deal in deals:
        counted = not deal.is_void and deal.status == Deal.Status.CONFIRMED
        cells = []
        for index, seat in enumerate(seats):
            score, went_out, _ = results.get((deal.pk, side_of.get(seat.entry_id)), (0, False, {}))
            totals[index] += score if counted else 0
            cells.append(ScoreCell(score, totals[index], went_out))
        line = by_number.get(deal.number) or deal_lines(seats, rules, [deal.number])[0]
        rows.append(
            GameRow(
                line=line,
                attempt=deal.attempt,
                is_void=deal.is_void,
                is_pending=deal.status == Deal.Status.PENDING,
                down_and_out=deal.down_and_out,
                cells=tuple(cells) if counted else (),
            )
        )
    return rows, totals


def _current_game(
    rules: Any, deals: list[Deal], seats: list[SeatLine], played: list[Any], time_called: bool
) -> tuple[DealLine | None, int]:
    """The deal the game says comes next (none once time is called, HF2.2), and which attempt
    at it this is (R9.2)."""
    number = rules.next_deal(played, time_called=time_called)
    if number is None:
        return None, 0
    voids = sum(1 for deal in deals if deal.number == number and deal.is_void)
    return deal_lines(seats, rules, [number])[0], voids + 1


@require_safe
def table_page(request: HttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    tournament = tournament_for_public(request, slug)
    key, live = ("table", tournament.id, round, table), is_live_request(request)
    if live and (held := held_part(request, tournament, key)) is not None:
        return held
    found = table_public_get(tournament_id=tournament.id, round_number=round, table_number=table)
    if found is None:
        raise Http404(f"Round {round} has no table {table} to show yet.")
    standings = _standings(tournament)
    context = {
        "tournament": tournament,
        "table": found,
        "standings": seat_standings(found.seats, standings, tournament.lead),
        "counted_words": standings.get("counted_words", ""),
        "clock": found.clock,
        "updated": found.updated,
        "live_seconds": LIVE_SECONDS,
        "pulse_seconds": PULSE_SECONDS,
    }
    if live:
        version = standings.get("version")
        figures = (tournament, replace(found, clock=None), clock_figures(found.clock), version)
        return hold_part(request, tournament, key, "hall/_table_live.html", context, *figures)
    return private_if_preview(tournament, render(request, "hall/table.html", context))


def seat_standings(
    seats: list[SeatLine], standings: dict[str, Any], lead: tuple[str, str, str] | None
) -> list[LeaderRow | None]:
    """Each seat's line of the standings, in seat order: the place and total every public page
    shows for the player (None for one the standings do not list)."""
    wanted = {seat.entry_id for seat in seats}
    rows = {row["entry"]: row for row in standings["players"] if row["entry"] in wanted}
    return [_leader_row(rows[s.entry_id], lead) if s.entry_id in rows else None for s in seats]


# --- a player ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame:
    round: int
    table: int
    number: int
    contract: str  # Kalooki: "3334" (R4); the deal's title for other games
    contract_words: str  # Kalooki: "three threes and one four"; the deal's summary
    score: int
    went_out: bool
    down_and_out: bool
    running: int  # the player's total over their deals so far (R8.6)
    title: str = ""  # "Game 3", "Hand 2", "Deal 4"


@dataclass(frozen=True)
class PublicRuling:
    id: int
    kind: str
    points: int
    decision: str
    reason: str
    decided_at: datetime.datetime
    round: int | None
    table: int | None
    game: int | None
    reverses: int | None
    reversed_by: int | None


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    """The cumulative score game by game, as coordinates of an inline SVG (no script)."""

    width: int
    height: int
    left: int
    top: int
    bottom: int  # y of the axis
    right: int
    top_total: int
    points: list[ChartPoint]
    rounds: list[tuple[float, str]]  # x where each round starts, and its label
    bottom_total: int = 0  # the lowest running total shown: 0, or below it (Hand and Foot)

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x},{point.y}" for point in self.points)


@dataclass(frozen=True)
class PublicPlayer:
    entry: int
    name: str
    club: str
    status: str
    status_label: str
    games: list[PlayedGame]
    rulings: list[PublicRuling]
    standing: LeaderRow | None  # from the standings snapshot
    rounds: list[tuple[int, int]]  # (round, points with its rulings), from the snapshot
    chart: Chart

    @property
    def games_total(self) -> int:
        return self.games[-1].running if self.games else 0


def player_public_get(
    *, tournament_id: int, entry_id: int, standings: dict[str, Any]
) -> PublicPlayer | None:
    """One player's every counted game with the running total, and their rulings (R12.4), in
    3 queries however many deals (entry, results, rulings; and seats for a game of partners)."""
    entry = (
        Entry.objects.select_related("player", "tournament")
        .filter(pk=entry_id, tournament_id=tournament_id)
        .first()
    )
    if entry is None:
        return None
    games = _played_games(entry)
    row = next((row for row in standings["players"] if row["entry"] == entry.pk), None)
    return PublicPlayer(
        entry=entry.pk,
        name=entry.name,
        club=entry.player.club,
        status=entry.status,
        status_label=entry.get_status_display(),
        games=games,
        rulings=_rulings_of(entry),
        standing=_leader_row(row, entry_lead(entry)) if row else None,
        rounds=[(int(number), points) for number, points in row["rounds"].items()] if row else [],
        chart=cumulative_chart(games),
    )


def entry_lead(entry: Entry) -> tuple[str, str, str] | None:
    first = entry.tournament.rules().columns()[0]
    return None if first.stat == "total" else (first.stat, first.label, first.help)


def _played_games(entry: Entry) -> list[PlayedGame]:
    """Every counted deal the entry's side played, in order, with the running total."""
    rules = entry.tournament.rules()
    # A side of one player stores its results under its entry; a team's partners find theirs
    # through their seats (one query more, for games played in partnerships only).
    partners = rules.shape().members > 1
    mine = {"deal__table__seats__entry": entry} if partners else {"entry": entry}
    rows = (
        DealResult.objects.filter(**mine, deal__is_void=False, deal__status=Deal.Status.CONFIRMED)
        .order_by("deal__table__round__number", "deal__number", "side")
        .values_list(
            "deal__table_id",
            "deal__table__round__number",
            "deal__table__number",
            "deal__number",
            "side",
            "points",
            "went_out",
            "deal__detail",
        )
    )
    side = _sides_of(entry, rules) if rules.shape().members > 1 else None
    running, games = 0, []
    for table_id, round, table, number, at, points, went_out, detail in rows:
        if side is not None and side.get(table_id) != at:
            continue  # another side's result at the entry's table
        running += points
        line = _deal_line(rules, number)
        games.append(
            PlayedGame(
                round=round,
                table=table,
                number=number,
                contract=line.contract or line.title,
                contract_words=line.contract_words,
                score=points,
                went_out=went_out,
                down_and_out=bool(detail.get("down_and_out")),
                running=running,
                title=line.title,
            )
        )
    return games


def _deal_line(rules: Any, number: int) -> DealLine:
    return deal_lines([], rules, [number])[0]


def _sides_of(entry: Entry, rules: Any) -> dict[int, int]:
    """The side the entry sat in at each of its tables (1 query)."""
    seats = Seat.objects.filter(table__seats__entry=entry).order_by("table_id", "position")
    by_table: dict[int, list[int]] = {}
    for table_id, entry_id in seats.values_list("table_id", "entry_id"):
        by_table.setdefault(table_id, []).append(entry_id)
    found = {}
    for table_id, entries in by_table.items():
        for index, side in enumerate(sides_of(rules, entries)):
            if entry.pk in side:
                found[table_id] = index
    return found


def _rulings_of(entry: Entry) -> list[PublicRuling]:
    rulings = list(
        Ruling.objects.filter(tournament_id=entry.tournament_id, entry=entry)
        .select_related("round", "table__round", "deal")
        .order_by("decided_at", "id")
    )
    reversed_by = {ruling.reverses_id: ruling.pk for ruling in rulings if ruling.reverses_id}
    return [
        PublicRuling(
            id=ruling.pk,
            kind=ruling.get_kind_display(),
            points=ruling.points,
            decision=ruling.decision,
            reason=ruling.reason,
            decided_at=ruling.decided_at,
            round=_ruling_round(ruling),
            table=ruling.table.number if ruling.table else None,
            game=ruling.deal.number if ruling.deal else None,
            reverses=ruling.reverses_id,
            reversed_by=reversed_by.get(ruling.pk),
        )
        for ruling in rulings
    ]


def _ruling_round(ruling: Ruling) -> int | None:
    if ruling.round is not None:
        return ruling.round.number
    return ruling.table.round.number if ruling.table is not None else None


CHART_WIDTH, CHART_HEIGHT = 480, 200
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 10, 12, 26


def cumulative_chart(games: list[PlayedGame]) -> Chart:
    """One point per game: x the game's place in the player's tournament, y the running total
    (lower is better, R8.6, so a flat line is a good run)."""
    top_total = max((game.running for game in games), default=0) or 1
    bottom_total = min([0, *(game.running for game in games)])
    span = (top_total - bottom_total) or 1
    plot_width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    step = plot_width / max(len(games) - 1, 1)
    points, rounds = [], []
    for index, game in enumerate(games):
        x = round(CHART_LEFT + index * step, 1)
        y = round(CHART_TOP + plot_height * (1 - (game.running - bottom_total) / span), 1)
        title = (game.title or f"Game {game.number}").lower()
        label = f"Round {game.round}, {title}: {game.score} (total {game.running})"
        points.append(ChartPoint(x, y, label))
        if index == 0 or games[index - 1].round != game.round:
            rounds.append((x, f"R{game.round}"))
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        left=CHART_LEFT,
        top=CHART_TOP,
        bottom=CHART_HEIGHT - CHART_BOTTOM,
        right=CHART_WIDTH - CHART_RIGHT,
        top_total=top_total,
        points=points,
        rounds=rounds,
        bottom_total=bottom_total,
    )


@require_safe
def partner_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings' players tab of a team tournament (HF11.2): every partner A to Z with the
    team's place and figures, for a player who looks for their own name (2 queries)."""
    tournament = tournament_for_public(request, slug)
    if not tournament.teams:
        raise Http404("This tournament is played by single players: see the leaderboard.")
    standings = _standings(tournament)
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
    if live and (held := held_part(request, tournament, key)) is not None:
        return held
    standings = _standings(tournament)
    player = player_public_get(tournament_id=tournament.id, entry_id=entry_id, standings=standings)
    if player is None:
        raise Http404("This tournament has no such player.")
    context = {
        "tournament": tournament,
        "player": player,
        "computed_at": _computed_at(standings),
        "counted_words": standings.get("counted_words", ""),
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
        return hold_part(request, tournament, key, "hall/_player_live.html", context, *figures)
    return private_if_preview(tournament, render(request, "hall/player.html", context))


# --- the crowd's shortcut ----------------------------------------------------------------------


class LeaderboardShortcut:
    """Middleware: the live leaderboard for visitors without a session, answered straight after
    WhiteNoise, as WhiteNoise answers static files, by the same views, without the rest of the
    stack (sessions, CSRF, sign-in, messages, sign-in lockout), which such a visitor's read of
    a public page never needs. Anything else, a query string (a preview) or a cookie of a
    session included, goes through the whole stack. Put it right after WhiteNoise in
    MIDDLEWARE: `"hall.views.LeaderboardShortcut"`."""

    ENDINGS = ("/leaderboard", "/leaderboard/rows", "/standings", "/pulse")
    API = "public:api-standings"  # the standings API: the same crowd, polling (issue 18)

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = self._view(request)
        if view is None:
            return self.get_response(request)
        try:
            response = view.func(request, *view.args, **view.kwargs)
        except Http404:
            return self.get_response(request)  # the site's own 404 page
        if callable(getattr(response, "render", None)):  # the API's refusals (DRF's Response)
            response = response.render()
        response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
        if not response.streaming:
            response.headers["Content-Length"] = str(len(response.content))
        return response

    def _view(self, request: HttpRequest) -> ResolverMatch | None:
        if request.method not in ("GET", "HEAD") or not request.path_info.endswith(self.ENDINGS):
            return None
        query = request.META.get("QUERY_STRING")
        if (
            query and not PAGE_QUERY.fullmatch(query)
        ) or settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        return _shortcut_view(request.path_info, get_urlconf(), self.API)


PAGE_QUERY = re.compile(r"page=\d{1,6}")  # a page of the leaderboard: the crowd's too


@lru_cache(maxsize=1024)
def _shortcut_view(path: str, urlconf: str | None, api: str) -> ResolverMatch | None:
    """The leaderboard's or the standings API's view for `path`, else None: resolved once per
    path (the URLs never change while serving; the urlconf is part of the key, for tests that
    swap it). The crowd asks the same few paths again and again: about a third of a 304's CPU
    went on resolving. Bounded, so that made-up paths cannot grow it."""
    try:
        found = resolve(path, urlconf)
    except Resolver404:
        return None
    if found.func in (leaderboard, leaderboard_rows, pulse) or found.view_name == api:
        return found
    return None


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """The site's front page: every published tournament, each linked to its public home."""
    return render(request, "hall/index.html", {"tournaments": tournament_list_public()})
