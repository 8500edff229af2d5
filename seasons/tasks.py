"""Celery tasks: thin and idempotent; they recompute seasons and ratings from stored results.

`refresh_event` follows a change to one event (its results settled, or it finished): its club's
ratings in its game, and every season it is in. `reconcile_seasons` (Celery beat) repeats that
for every event changed lately, so a lost task is repaired.
"""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from scoring.models import StandingsSnapshot
from seasons.ratings import ratings_refresh
from seasons.services import season_refresh
from tournament.models import AuditEvent, Tournament

RECENT = timedelta(hours=12)


@shared_task(ignore_result=True, time_limit=300, soft_time_limit=280)
def refresh_event(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.club_id is None:
        return
    ratings_refresh(club_id=tournament.club_id, game=tournament.game)
    for season_id in tournament.seasons.values_list("pk", flat=True):
        season_refresh(season_id=season_id)


@shared_task(ignore_result=True, time_limit=600, soft_time_limit=580)
def reconcile_seasons() -> None:
    since = timezone.now() - RECENT
    changed = set(
        StandingsSnapshot.objects.filter(computed_at__gte=since).values_list(
            "tournament", flat=True
        )
    )
    steps = AuditEvent.objects.filter(at__gte=since, action__in=["round.lock", "tournament.status"])
    changed |= set(steps.values_list("tournament", flat=True))
    for tournament_id in sorted(changed):
        refresh_event(tournament_id)
