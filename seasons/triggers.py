"""What recomputes seasons and ratings: an event's results settled (a snapshot, a round locked)
or an event finished. A recompute is asked for after the change commits and never makes the
change fail or wait: Redis away, it is dropped, and the reconcile (``reconcile_seasons``)
catches up."""

import logging

from django.db import transaction

from config.breaker import redis_breaker
from scoring.signals import results_settled
from tournament.signals import tournament_finished

log = logging.getLogger(__name__)


def club_changed(sender: object, *, tournament_id: int, **kwargs: object) -> None:
    transaction.on_commit(lambda: _queue(tournament_id), robust=True)


def _queue(tournament_id: int) -> None:
    from seasons.tasks import refresh_event  # tasks import the services, which import this room

    if redis_breaker.call(lambda: refresh_event.delay(tournament_id), None) is None:
        log.warning("seasons: refresh after tournament %s not queued", tournament_id)


results_settled.connect(club_changed, weak=False, dispatch_uid="seasons.results")
tournament_finished.connect(club_changed, weak=False, dispatch_uid="seasons.finished")
