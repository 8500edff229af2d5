"""Asking for a standings refresh after a change, without ever failing or slowing the change.

A change after a quiet spell refreshes at once: the first change of a burst sets a **window**
mark for a second and queues the task with no delay, so a single saved result reaches the
leaderboard as soon as the recompute is done (issue 18). The changes that follow within the
window gather into one **trailing** refresh: the first of them sets a short-lived **pending**
mark and queues the task after a **gather** delay; the others see the mark and queue nothing,
since the task reads the stored facts when it runs. The delay is as long as the tournament's
last recompute took (at least a quarter of a second, at most a second), so a worker never
spends more than about half its time recomputing one tournament however fast results come,
and a small tournament's leaderboard follows within a fraction of a second. The task clears the
pending mark when it starts, so a change made while it computes queues the next one.

The request is sent only after the change is committed, and any failure to reach Redis or the
broker is logged and dropped: the entry is already saved, and the reconcile
(`reconcile_standings`, periodic and on each worker connection) catches the standings up when
Redis is back. The mark and the publish go through the Redis circuit breaker
(config/breaker.py): once Redis has failed, they are skipped for a while at no cost, so an
entry never waits on a frozen Redis more than once.
"""

import logging

from django.core.cache import cache
from django.db import transaction

from config.breaker import redis_breaker

log = logging.getLogger(__name__)

BURST_SECONDS = 1  # the window after a change within which the next changes are gathered
GATHER_SECONDS = (0.25, 1.0)  # a trailing refresh's delay: the last recompute's time, within


def _took_key(tournament_id: int) -> str:
    return f"standings:took:{tournament_id}"


def remember_took(tournament_id: int, seconds: float) -> None:
    """How long the tournament's last recompute took: the next trailing refresh waits as long."""
    try:
        cache.set(_took_key(tournament_id), round(seconds, 3), timeout=3600)
    except Exception:
        log.warning("standings: could not keep the recompute time of tournament %s", tournament_id)


def gather_seconds(tournament_id: int) -> float:
    least, most = GATHER_SECONDS
    took = cache.get(_took_key(tournament_id))
    return most if took is None else min(max(float(took), least), most)


def _window_key(tournament_id: int) -> str:
    return f"standings:window:{tournament_id}"


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

    if cache.add(_window_key(tournament_id), 1, timeout=BURST_SECONDS):
        countdown = 0  # the first change after a quiet spell: at once
    elif cache.add(_pending_key(tournament_id), 1, timeout=BURST_SECONDS * 5):
        countdown = gather_seconds(tournament_id)  # within a burst: one refresh for the rest
    else:
        return  # a refresh is already queued for this burst (or Redis is away: the breaker)
    publish = lambda: refresh_standings.apply_async(  # noqa: E731
        args=[tournament_id], countdown=countdown
    )
    if redis_breaker.call(publish, None) is None:
        log.warning("standings: refresh of tournament %s not queued", tournament_id)


def _reconcile_when_redis_returns() -> None:
    """Refreshes skipped while Redis was away are redone at once (not at beat's next tick)."""
    from scoring.tasks import reconcile_standings

    reconcile_standings.apply_async()


redis_breaker.on_recover.append(_reconcile_when_redis_returns)
