"""Celery tasks: thin and idempotent; they recompute seasons and ratings from stored results.

`refresh_event` follows a change to one event (its results settled, or it finished): its club's
ratings in its game, and every season it is in. `reconcile_seasons` (Celery beat) repeats that
for every event changed lately, so a lost task is repaired.
"""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from scoring.models import StandingsSnapshot
from seasons.models import RatingState
from seasons.ratings import ratings_refresh
from seasons.services import season_refresh
from tournament.models import AuditEvent, Round, Tournament

RECENT = timedelta(hours=12)


@shared_task(ignore_result=True, time_limit=300, soft_time_limit=280)
def refresh_event(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.club_id is None:
        return
    if _rated_or_locked(tournament):  # else nothing of it is, or was, rated
        ratings_refresh(club_id=tournament.club_id, game=tournament.game)
    for season_id in tournament.seasons.values_list("pk", flat=True):
        season_refresh(season_id=season_id)


def _rated_or_locked(tournament: Tournament) -> bool:
    """Whether the tournament has a locked round, or had one rated (a round reopened since)."""
    if tournament.rounds.filter(status=Round.Status.LOCKED).exists():
        return True
    state = RatingState.objects.filter(club=tournament.club_id, game=tournament.game).first()
    rated = {round_id for round_id, _digest in state.rounds} if state else set()
    return tournament.rounds.filter(pk__in=rated).exists()


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
