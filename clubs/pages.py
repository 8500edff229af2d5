"""The version of a club's public pages: its seasons' tables, its rating lists, its members' pages.

What those pages show changes only when a club's derived data or register does: a season's table
stored anew, ratings written, or a director's action on the register (added, imported, merged,
erased members; a season created, changed, given or losing an event: each kept by
``clubs.services.club_audit``). Each of those writes calls `club_pages_changed`, which gives the
club a new version. A web process holds each page it drew under the
version it drew it at (``hall.club_cache``) and draws it again when the version moves on.

Cached as ``club.version`` (config/caches.py): a random token a club; a miss (evicted, expired,
Redis away) makes a new token, so pages are drawn again, never served stale. When the cache
cannot be reached at all there is no version, and the pages are drawn at every request.
"""

import contextlib
import secrets

from django.core.cache import cache
from django.db import transaction

from config.caches import CLUB_VERSION

VERSION_SECONDS = CLUB_VERSION.seconds


def _key(slug: str) -> str:
    return CLUB_VERSION.key_of(slug=slug)


def club_pages_version(slug: str) -> str | None:
    """The club's pages' version now; None when the shared cache cannot say."""
    try:
        found = cache.get(_key(slug))
        if found is None:
            cache.add(_key(slug), secrets.token_hex(8), VERSION_SECONDS)
            found = cache.get(_key(slug))
    except Exception:
        return None
    return found


def club_pages_changed(slug: str) -> None:
    """A new version now, and again once the current transaction commits: a page drawn in
    between, from what was there before the commit, is not kept past it."""

    def bump() -> None:
        with contextlib.suppress(Exception):
            cache.set(_key(slug), secrets.token_hex(8), VERSION_SECONDS)

    bump()
    transaction.on_commit(bump)
