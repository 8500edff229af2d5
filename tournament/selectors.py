"""Reads of tournaments for pages and the API; each runs a fixed number of queries."""

from django.db.models import Count, Q, QuerySet

from tournament.models import Entry, Tournament


def tournament_list_public() -> QuerySet[Tournament]:
    """Published tournaments, newest first, with their count of playing entries."""
    playing = Q(entries__status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN])
    return Tournament.objects.filter(is_published=True).annotate(
        player_count=Count("entries", filter=playing)
    )
