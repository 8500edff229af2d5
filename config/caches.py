"""Every cache between a stored standings snapshot and the screen, named in one place.

A number on a page is stale only while one of these keeps an old value. From the database up
(S: shared, in Django's cache; P: each process's memory):

| name                | key                           | lifetime  | invalidated by                 |
|---------------------|-------------------------------|-----------|--------------------------------|
| standings (S)       | `standings:{tournament}`      | 24 h      | a newer snapshot (newest wins) |
| standings.head (S)  | `standings:{tournament}:head` | 24 h      | written with `standings`       |
| standings.kept (P)  | tournament id                 | a version | a new head                     |
| public.facts (S)    | `public:tournament:{slug}`    | 10 s      | time                           |
| public.recent (P)   | (what, slug or id)            | 0.2 s     | time                           |
| public.drawn (P)    | (what, tournament id)         | a stamp   | a new snapshot, or new facts   |
| public.rows (P)     | tournament id                 | the facts | new facts; a changed row again |
| public.parts (P)    | (page, tournament id, …)      | 1 s       | a new version, the next second |
| public.shortcut (P) | (path, urlconf, API)          | process   | nothing: URLs are fixed        |
| rules (P)           | (game, ruleset text)          | process   | nothing: text is the value     |
| breakdowns (P)      | its JSON text                 | process   | nothing: text is the value     |
| matches.over (P)    | table id                      | its deals | a new deal at the table        |
| club.version (S)    | `club-pages:{slug}`           | 24 h      | a write a club's pages show    |
| club.held (P)       | (path, language)              | a version | a new version; 60 s; a seat    |
| club.shortcut (P)   | (path, urlconf)               | process   | nothing: URLs are fixed        |

What each keeps:
- standings: the newest snapshot;
- standings.head: its version and computed_at;
- standings.kept: the standings last read;
- public.facts: a tournament's name, dates, published, rules;
- public.recent: facts and standings heads read;
- public.drawn: a page, rows, ETag or pulses drawn;
- public.rows: each leaderboard row's HTML;
- public.parts: live parts, plain and gzipped;
- public.shortcut: the view a leaderboard path resolves to;
- rules: a stored ruleset's `Rules`;
- breakdowns: a result breakdown's decoded JSON;
- matches.over: whether a table's match is over.
- club.version: a random token, new with every write a club's season, rating and member pages
  show (``clubs.pages``);
- club.held: those pages as drawn for visitors without a session, plain and gzipped
  (``hall.club_cache``);
- club.shortcut: the club page's view a path resolves to.

Shared caches live in Django's cache (Redis, else in-process or files); a miss reads the
database. Process caches are each web process's memory, bounded, and `forget_process_caches`
empties them all (tests). Caches of pure functions of the code's own constants (the games'
deck arithmetic, seating designs, model metadata, shipped static files) are not listed:
nothing a tournament does can make them stale (`tests/test_caches.py` names them).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

MISSING: Any = object()  # what a lookup answers when the cache has nothing usable


@dataclass
class Shared:
    """A key of Django's cache: its pattern (`key.format(**parts)`) and lifetime."""

    name: str
    key: str
    seconds: int
    invalidated_by: str

    def key_of(self, **parts: Any) -> str:
        return self.key.format(**parts)


@dataclass
class Stamped:
    """Process memory whose entries are good while their stamp is the one asked with: a value
    drawn from one version of the standings is good until the version changes."""

    name: str
    key: str
    invalidated_by: str
    limit: int = 1000  # a process serves a few tournaments: a scan of made-up keys is forgotten
    seconds: float = 0  # for the caches whose stamp counts time too (`public.parts`)
    entries: dict[Hashable, tuple[Hashable, Any]] = field(default_factory=dict, repr=False)

    def get(self, key: Hashable, stamp: Hashable) -> Any:
        found = self.entries.get(key)
        return found[1] if found is not None and found[0] == stamp else MISSING

    def put(self, key: Hashable, stamp: Hashable, value: Any) -> Any:
        if len(self.entries) >= self.limit and key not in self.entries:
            self.entries.clear()
        self.entries[key] = (stamp, value)
        return value

    def clear(self) -> None:
        self.entries.clear()


@dataclass
class Timed:
    """Process memory whose entries are good for `seconds` (0: never reused)."""

    name: str
    key: str
    seconds: float
    invalidated_by: str = "time"
    limit: int = 1000
    entries: dict[Hashable, tuple[float, Any]] = field(default_factory=dict, repr=False)

    def get_or_read(self, key: Hashable, read: Callable[[], Any]) -> Any:
        """What `read` returned less than `seconds` ago, else `read()` now."""
        now = time.monotonic()
        found = self.entries.get(key)
        if found is not None and now - found[0] < self.seconds:
            return found[1]
        value = read()
        if len(self.entries) >= self.limit:
            self.entries.clear()
        self.entries[key] = (now, value)
        return value

    def clear(self) -> None:
        self.entries.clear()


@dataclass
class Memo:
    """A function's results by its arguments (`functools.lru_cache`): decorate the function
    with the memo (`@RULES`)."""

    name: str
    key: str
    invalidated_by: str
    maxsize: int
    functions: list[Any] = field(default_factory=list, repr=False)

    def __call__(self, function: Callable[..., Any]) -> Any:
        memoised = functools.lru_cache(maxsize=self.maxsize)(function)
        self.functions.append(memoised)
        return memoised

    def clear(self) -> None:
        for function in self.functions:
            function.cache_clear()


STANDINGS = Shared(
    "standings", "standings:{tournament}", 24 * 3600, "a newer snapshot (the newest version wins)"
)
STANDINGS_HEAD = Shared(
    "standings.head", "standings:{tournament}:head", 24 * 3600, "written with `standings`"
)
STANDINGS_KEPT = Stamped(
    "standings.kept", "tournament id", "a new head (version, computed_at)", limit=100
)
PUBLIC_FACTS = Shared("public.facts", "public:tournament:{slug}", 10, "time")
PUBLIC_RECENT = Timed("public.recent", "(what, slug or tournament id)", 0.2)
PUBLIC_DRAWN = Stamped(
    "public.drawn", "(what, tournament id)", "a new stamp: facts, version, computed_at"
)
PUBLIC_ROWS = Stamped(
    "public.rows", "tournament id", "the facts; a changed row is drawn again", limit=100
)
PUBLIC_PARTS = Stamped(
    "public.parts", "(page, tournament id, …)", "a new version, or the next second", 5000, 1
)
PUBLIC_SHORTCUT = Memo(
    "public.shortcut", "(path, urlconf, API view name)", "nothing: URLs are fixed", 1024
)
RULES = Memo("rules", "(game, ruleset JSON text)", "nothing: the text is the value", 256)
BREAKDOWNS = Memo("breakdowns", "breakdown JSON text", "nothing: the text is the value", 4096)
MATCHES_OVER = Stamped(
    "matches.over", "table id", "a new deal (deals_stored, last_entry_at)", limit=100_000
)

CLUB_VERSION = Shared(
    "club.version", "club-pages:{slug}", 24 * 3600,
    "a season's table stored anew, ratings written, a director's action on the register or a "
    "season",
)  # fmt: skip
CLUB_HELD = Stamped(
    "club.held", "(path, language)", "a new club version; 60 s; the member's seat", limit=128
)
CLUB_SHORTCUT = Memo("club.shortcut", "(path, urlconf)", "nothing: URLs are fixed", 1024)

Cache = Shared | Stamped | Timed | Memo
CACHES: dict[str, Cache] = {
    cache.name: cache
    for cache in (
        STANDINGS,
        STANDINGS_HEAD,
        STANDINGS_KEPT,
        PUBLIC_FACTS,
        PUBLIC_RECENT,
        PUBLIC_DRAWN,
        PUBLIC_ROWS,
        PUBLIC_PARTS,
        PUBLIC_SHORTCUT,
        RULES,
        BREAKDOWNS,
        MATCHES_OVER,
        CLUB_VERSION,
        CLUB_HELD,
        CLUB_SHORTCUT,
    )
}


def forget_process_caches() -> None:
    """Empty every cache of this process (tests that change facts between two requests)."""
    for cache in CACHES.values():
        if not isinstance(cache, Shared):
            cache.clear()
