"""Asking for a standings refresh after a change, without ever failing or slowing the change.

A burst of changes (nine tables saving at once) queues one refresh per tournament: the first
change sets a short-lived **pending** mark in the cache and queues the task a second later; the
others see the mark and queue nothing, since the task reads the stored facts when it runs. The
task clears the mark when it starts, so a change made while it computes queues the next one.

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

BURST_SECONDS = 1  # how long a burst of changes is gathered before one recompute


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

    if not cache.add(_pending_key(tournament_id), 1, timeout=BURST_SECONDS * 5):
        return  # a refresh is already queued for this burst (or Redis is away: the breaker)
    publish = lambda: refresh_standings.apply_async(  # noqa: E731
        args=[tournament_id], countdown=BURST_SECONDS
    )
    if redis_breaker.call(publish, None) is None:
        log.warning("standings: refresh of tournament %s not queued", tournament_id)


def _reconcile_when_redis_returns() -> None:
    """Refreshes skipped while Redis was away are redone at once (not at beat's next tick)."""
    from scoring.tasks import reconcile_standings

    reconcile_standings.apply_async()


redis_breaker.on_recover.append(_reconcile_when_redis_returns)
