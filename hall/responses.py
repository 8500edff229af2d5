"""How the public pages answer: who may see a tournament, conditional requests, bodies drawn
once per version of the standings, and live parts kept for a second.

Terms
- validators: the snapshot's version (the ETag) and its computation time (Last-Modified). A
  request that already holds the current version gets a 304 with no body, decided from the
  cache alone.
- preview: a director looking at an unpublished tournament (`?preview=1`): the pages say so and
  are never stored by any cache.
- drawn once: a body the same for everyone until the next snapshot (no CSRF token, no name),
  drawn, encoded and gzipped once per version in each process (`config.caches`: `public.drawn`).
- kept part: a page's live part as this process last drew it, reused for a second at the same
  standings (`public.parts`): a change brings every watching phone at once.
"""

from __future__ import annotations

import datetime
import gzip
import re
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from config.caches import MISSING, PUBLIC_DRAWN, PUBLIC_PARTS
from hall.selectors import PublicTournament, digest, standings_version, tournament_public_get
from tournament.permissions import directed_tournaments


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
        etag = f'W/"{tournament.id}.{standings.get("version", 0)}{_language_tag()}"'
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


# --- drawn once per version ---------------------------------------------------------------------


def drawn_once(kind: str, tournament: PublicTournament, stamp: Hashable, draw: Callable[[], Any]):
    """What `draw` renders for this tournament, drawn once per `stamp` in each process
    (`public.drawn`): the leaderboard's rows change only with a new snapshot, and 2,000 rows
    take a while to draw."""
    key = (kind, tournament.id, get_language())
    found = PUBLIC_DRAWN.get(key, stamp)
    return found if found is not MISSING else PUBLIC_DRAWN.put(key, stamp, draw())


@dataclass(frozen=True)
class Drawn:
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
        return drawn_once(kind, self.tournament, self.stamp, draw)


ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _language_tag() -> str:
    """The language a body was drawn in, as part of its ETag: "" for the site's own language
    (its ETags as they always were), else ".es"; a phone that switches language draws anew."""
    language = get_language() or settings.LANGUAGE_CODE
    return "" if language == settings.LANGUAGE_CODE else f".{language}"


# --- live parts, kept -----------------------------------------------------------------------------


def _part_stamp(tournament: PublicTournament) -> Hashable:
    head = standings_version(tournament)
    seconds, now = PUBLIC_PARTS.seconds, time.monotonic()  # 0: never reused (tests' clocks)
    return (head.get("version"), head.get("computed_at"), now // seconds if seconds else now)


def kept_part(
    request: HttpRequest, tournament: PublicTournament, key: Hashable
) -> HttpResponse | None:
    """The live part `key` as this process drew it for the same standings within the last
    second (`public.parts`), else None. A change brings every watching phone at once (the
    pulse), and a part reads the database: drawn once, not once a phone. A clock in it is at
    most that old (its script counts on from there)."""
    key = (key, get_language())
    found = MISSING if tournament.preview else PUBLIC_PARTS.get(key, _part_stamp(tournament))
    return None if found is MISSING else _part_response(request, *found)


def keep_part(
    request: HttpRequest,
    tournament: PublicTournament,
    key: Hashable,
    template: str,
    context: dict[str, Any],
    *figures: Any,
) -> HttpResponse:
    """Draw the live part (the same for everyone: drawn without the request), keep it for
    `kept_part`, plain and gzipped, and answer it (a 304 while `figures` are the client's)."""
    body = render_to_string(template, context).encode()
    tag = _language_tag()
    etag, zipped = digest(*figures, *([tag] if tag else [])), gzip.compress(body, mtime=0)
    if not tournament.preview:
        PUBLIC_PARTS.put((key, get_language()), _part_stamp(tournament), (etag, body, zipped))
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


def private_if_preview(tournament: PublicTournament, response: HttpResponse) -> HttpResponse:
    if tournament.preview:
        patch_cache_control(response, private=True, no_store=True)
    return response
