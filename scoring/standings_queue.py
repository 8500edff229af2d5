"""Asking for a standings refresh after a change, without ever failing or slowing the change.

A queued refresh holds a short-lived **pending** mark until it starts. A change that finds the
mark queues nothing: the refresh it waits for reads the stored facts when it starts, this change
included. So a stream of results costs one Redis call each.
A change that sets the mark queues the refresh, at once after a quiet spell, so that a single
saved result reaches the leaderboard as soon as the recompute is done, or else at the end of
the **window** of half a second that the last refresh opened: the changes inside a window
gather into one **trailing** refresh at its end. So a stream of results costs at most two
refreshes a second per tournament (a fixed one-second delay cost one, and made every result
wait that second), and a lone result waits for nothing. The task clears the pending mark and
opens its own window when it starts, so a change made while it computes queues the next one.

The request is sent only after the change is committed, and a failure to reach Redis or the
broker never fails nor slows the change: the entry is already saved. The mark and the publish go
through the Redis circuit breaker (config/breaker.py): once Redis has failed, they are skipped
for a while at no cost, so an entry never waits on a frozen Redis more than once. Meanwhile the
web process refreshes the standings **here**, in a thread of its own after the answer has gone
(`RefreshHere`: one refresh at a time, the changes of a window gathered as the worker gathers
them), since no worker can hear of them: the hall keeps moving while Redis is down, read from
the database. When Redis is back, the breaker's recovery asks for a reconcile, which puts the
newest standings in the cache again (a frozen Redis kept the older ones).
"""

import logging
import threading
import time

from django.core.cache import cache
from django.db import connections, transaction

from config.breaker import redis_breaker

log = logging.getLogger(__name__)

WINDOW_SECONDS = 0.5  # a refresh's window: the changes within it gather into one at its end
MARK_SECONDS = 1  # how long the cache keeps a window's mark (whole seconds: Redis's expiry)


def _window_key(tournament_id: int) -> str:
    return f"standings:window:{tournament_id}"


def open_window(tournament_id: int) -> None:
    """A refresh starts: the changes of its window gather into one refresh at the window's end."""
    try:
        cache.set(_window_key(tournament_id), time.time(), timeout=MARK_SECONDS)
    except Exception:
        log.warning("standings: could not open the window of tournament %s", tournament_id)


def _rest_of_window(tournament_id: int) -> float:
    opened = cache.get(_window_key(tournament_id))
    if opened is None:
        return 0.0  # it closed meanwhile
    rest = float(opened) + WINDOW_SECONDS - time.time()
    return round(min(max(rest, 0.0), WINDOW_SECONDS), 3)


def _pending_key(tournament_id: int) -> str:
    return f"standings:pending:{tournament_id}"


def clear_pending(tournament_id: int) -> None:
    try:
        cache.delete(_pending_key(tournament_id))
    except Exception:
        log.warning("standings: could not clear the pending mark of tournament %s", tournament_id)


def standings_changed(tournament_id: int) -> None:
    """Queue a refresh of this tournament's standings once the current transaction commits."""
    transaction.on_commit(lambda: _queue(tournament_id), robust=True)


def _queue(tournament_id: int) -> None:
    from scoring.tasks import refresh_standings  # tasks import this module

    if redis_breaker.is_open():
        return refresh_here.ask(tournament_id)  # no worker would hear of it
    if not cache.add(_pending_key(tournament_id), 1, timeout=MARK_SECONDS * 5):
        if redis_breaker.is_open():  # the mark found Redis away
            refresh_here.ask(tournament_id)
        return  # else a refresh is queued and has not started
    if cache.add(_window_key(tournament_id), time.time(), timeout=MARK_SECONDS):
        countdown = 0.0  # no refresh lately: at once
    else:
        countdown = _rest_of_window(tournament_id)  # one refresh at the window's end (or now)
    publish = lambda: refresh_standings.apply_async(  # noqa: E731
        args=[tournament_id], countdown=countdown
    )
    if redis_breaker.call(publish, None) is None:
        log.warning("standings: refresh of tournament %s not queued: refreshed here", tournament_id)
        refresh_here.ask(tournament_id)


class RefreshHere:
    """Standings refreshed in this process while the broker is away, off the request path.

    One thread, started on first need: it takes the tournaments asked for, refreshes each
    (`standings_refresh`, safe beside any other process's), and waits out the rest of a window
    before refreshing a tournament again, so a burst of saves costs one refresh a window in each
    web process. It closes its database connections after each refresh: a web process may
    serve for days before it is needed again."""

    def __init__(self) -> None:
        self._asked: set[int] = set()
        self._last: dict[int, float] = {}  # time.monotonic() of each tournament's last refresh
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def ask(self, tournament_id: int) -> None:
        with self._wake:
            self._asked.add(tournament_id)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="refresh-here", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            tournament_id = self._next()
            try:
                from scoring.standings import standings_refresh  # it imports the models

                standings_refresh(tournament_id=tournament_id)
            except Exception:
                log.exception("standings: refresh of tournament %s here failed", tournament_id)
            finally:
                self._last[tournament_id] = time.monotonic()
                connections.close_all()

    def _next(self) -> int:
        """The next tournament whose window is over, waiting for one as long as it takes."""
        with self._wake:
            while True:
                now = time.monotonic()
                due = {t: self._last.get(t, 0.0) + WINDOW_SECONDS - now for t in self._asked}
                ready = [t for t, rest in due.items() if rest <= 0]
                if ready:
                    self._asked.discard(ready[0])
                    return ready[0]
                self._wake.wait(min(due.values(), default=None))


refresh_here = RefreshHere()


def _reconcile_when_redis_returns() -> None:
    """Refreshes skipped while Redis was away are redone at once (not at beat's next tick)."""
    from scoring.tasks import reconcile_standings

    reconcile_standings.apply_async()


redis_breaker.on_recover.append(_reconcile_when_redis_returns)
