"""A club's public pages held by each web process for visitors without a session: the season's
table, the rating list and a member's page (``hall.club_views``).

Such a page is the same for every visitor without a session until the club's data changes, so
each web process draws it once and answers it again from memory, plain and gzipped:
- held under: the address, the language the visitor reads (as LocaleMiddleware picks it) and
  the club's pages' version (``clubs.pages``: it moves on with every write those pages show;
  each process reuses the version it read for ``public.recent``'s fraction of a second);
  a member's page also with the seat it shows, compared with the seat the member has now (one
  query; a round being seated or finished moves no club version) at most every
  `SEAT_SECONDS`, so that under a crowd a process asks the database once a second;
- kept: `HELD_SECONDS` at the most, a bound on staleness should a version change be lost (the
  shared cache away at that moment, a change made in the admin); named ``club.held`` in
  config/caches.py, with ``club.shortcut``, the club page a path resolves to.

`ClubPagesShortcut`, a middleware right after the leaderboard's, answers a held page without the
rest of the stack (sessions, CSRF, sign-in, messages), which such a visitor's read never needs;
a first request, a visitor with a session cookie, a query string (the projector) or a page that
is not a 200 go the whole way, and the 200s of the first kind are held.
"""

from __future__ import annotations

import gzip
import re
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, ResolverMatch, get_urlconf, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers

from clubs.pages import club_pages_version
from config.caches import CLUB_HELD, CLUB_SHORTCUT, MISSING, PUBLIC_RECENT
from hall import club_views
from seasons.selectors import member_seat_get

HELD_SECONDS = 60
SEAT_SECONDS = 1  # how long a member's page may show a seat they have just left or taken
PREFIX = "/c/"  # the club pages' addresses (hall/urls.py)
ACCEPTS_GZIP = re.compile(r"\bgzip\b")
LEFT_OUT = {"content-length", "set-cookie"}


@dataclass
class Held:
    body: bytes
    zipped: bytes
    headers: tuple[tuple[str, str], ...]  # as the whole stack answered, less the length
    until: float
    seat: dict[str, Any] | None  # the seat a member's page shows
    seat_until: float  # when to compare it with the member's seat now

    def fresh(self, found: ResolverMatch) -> bool:
        now = time.monotonic()
        if self.until <= now:
            return False
        if found.func is not club_views.member_page or now < self.seat_until:
            return True
        if member_seat_get(member=found.kwargs["member_id"]) != self.seat:
            return False
        self.seat_until = now + SEAT_SECONDS
        return True

    def response(self, request: HttpRequest) -> HttpResponse:
        zipped = bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
        response = HttpResponse(self.zipped if zipped else self.body)
        for name, value in self.headers:
            response.headers[name] = value
        if zipped:
            response.headers["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ["Accept-Encoding"])
        response.headers["Content-Length"] = str(len(response.content))
        return response


def forget_held() -> None:
    """Every page this process holds dropped (tests: each starts afresh)."""
    CLUB_HELD.clear()


def _hold(key: Hashable, version: str, response: HttpResponse) -> None:
    headers = tuple((k, v) for k, v in response.items() if k.lower() not in LEFT_OUT)
    body, now = response.content, time.monotonic()
    seat = getattr(response, "seat", None)  # club_views.member_page's
    zipped = gzip.compress(body, mtime=0)
    held = Held(body, zipped, headers, now + HELD_SECONDS, seat, now + SEAT_SECONDS)
    CLUB_HELD.put(key, version, held)


def _holdable(response: HttpResponse) -> bool:
    return response.status_code == 200 and not response.streaming and not response.cookies


def club_page(request: HttpRequest) -> ResolverMatch | None:
    """The club page a visitor without a session asks for; None: not one to hold."""
    if (
        request.method != "GET"
        or not request.path_info.startswith(PREFIX)
        or request.META.get("QUERY_STRING")
        or settings.SESSION_COOKIE_NAME in request.COOKIES
    ):
        return None
    return _club_view(request.path_info, get_urlconf())


def page_key(request: HttpRequest) -> Hashable:
    """What a held page is found by, with the club's version as its stamp (see the module)."""
    return (request.path_info, translation.get_language_from_request(request))


@CLUB_SHORTCUT
def _club_view(path: str, urlconf: str | None) -> ResolverMatch | None:
    """The club page's view for `path`, else None: resolved once per path. Bounded, so that
    made-up paths cannot grow it."""
    try:
        found = resolve(path, urlconf)
    except Resolver404:
        return None
    pages = (club_views.season_page, club_views.ratings_page, club_views.member_page)
    return found if found.func in pages else None


def _version(club: str) -> str | None:
    """The club's version, as this process read it from the shared cache within the last
    ``public.recent`` seconds (under a crowd, a few reads a second rather than one a request)."""
    return PUBLIC_RECENT.get_or_read(("club-version", club), lambda: club_pages_version(club))


class ClubPagesShortcut:
    """Middleware: a held club page for a visitor without a session (see the module). Put it
    right after WhiteNoise and the leaderboard's: `"hall.club_cache.ClubPagesShortcut"`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = club_page(request)
        version = _version(found.kwargs["club"]) if found is not None else None
        if version is None:  # not a club page, or the club has no version now
            return self.get_response(request)
        key = page_key(request)
        held = CLUB_HELD.get(key, version)
        if held is not MISSING and held.fresh(found):
            return held.response(request)
        response = self.get_response(request)
        if _holdable(response):
            _hold(key, version, response)
        return response
