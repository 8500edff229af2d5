"""Celery tasks: thin and idempotent, they recompute from the stored facts and never increment.

`refresh_standings` stores a new standings snapshot when a tournament's results or rulings
changed; `reconcile_standings` (Celery beat, every 30 s) repairs any refresh that was lost,
because a lost task (a worker killed, Redis away) must never leave the hall's leaderboard stale.
"""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from scoring.models import Deal, Ruling
from scoring.standings import standings_refresh
from scoring.standings_queue import clear_pending, open_window
from tournament.models import AuditEvent, Entry, Tournament

RECENT = timedelta(hours=12)


@shared_task(ignore_result=True, time_limit=120, soft_time_limit=100)
def refresh_standings(tournament_id: int) -> None:
    clear_pending(tournament_id)  # changes from now on queue a new refresh
    open_window(tournament_id)  # ... at the end of this one's window
    if Tournament.objects.filter(pk=tournament_id).exists():
        standings_refresh(tournament_id=tournament_id)


@shared_task(ignore_result=True, time_limit=300, soft_time_limit=280)
def reconcile_standings() -> None:
    """Refresh every tournament with a result, a ruling, an entry or a round changed in the last
    hours (a new entry counts: its status is dated from its registration); unchanged ones store
    nothing, so this is cheap when nothing was lost."""
    since = timezone.now() - RECENT
    active = set(
        Deal.objects.filter(updated_at__gte=since).values_list(
            "table__round__tournament", flat=True
        )
    ) | set(Ruling.objects.filter(decided_at__gte=since).values_list("tournament", flat=True))
    changed = Entry.objects.filter(status_changed_at__gte=since)
    active |= set(changed.values_list("tournament", flat=True))
    # A round put in play or completed re-ranks the fair mid-round standings (scoring.standings).
    steps = AuditEvent.objects.filter(at__gte=since, action__startswith="round.")
    active |= set(steps.values_list("tournament", flat=True))
    for tournament_id in sorted(active):
        standings_refresh(tournament_id=tournament_id)
