"""Every page and endpoint runs the same number of queries for 10 players as for 2,000 (issue 18).

Each address is read once at both sizes, the standings cached as a refresh leaves them, by the
caller who reads it (the public, the table's link, the tournament's director); the counts must
be equal. The result write is counted in tests/scorekeeper/test_write_cost.py.
"""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from hall.views import forget_recent
from scoring.standings import standings_refresh
from tables.models import Table
from tables.services import pin_seat
from tests.scale import tournament_at_scale
from tests.scoring.playing import director_of
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

PUBLIC = [
    "/p/{slug}/",
    "/p/{slug}/leaderboard",
    "/p/{slug}/leaderboard/rows",
    "/p/{slug}/projector",
    "/api/tournaments/{slug}/standings",
    "/p/{slug}/tables/1/2",
    "/p/{slug}/players/{entry}",
]
LINK = ["/t/{token}/", "/api/tables/{table}"]
DIRECTOR = [
    "/director/{slug}/",
    "/director/{slug}/rounds/1/",
    "/director/{slug}/rounds/1/dashboard",
    "/director/{slug}/rounds/1/dashboard?partial=1",
    "/director/{slug}/rounds/1/tables/2/",
    "/api/tournaments/{slug}/rounds/1/clock",
    "/api/tournaments/{slug}/rounds/1/calls",
    "/api/tournaments/{slug}/pins",
]


def counted(players: int) -> dict[str, int]:
    """The queries of each address for a tournament of `players`, 3 deals at every table."""
    tournament = tournament_at_scale(players, deals=3, slug=f"scale-{players}")
    standings_refresh(tournament_id=tournament.pk)
    table = Table.objects.get(round__tournament=tournament, number=2)
    for seat in table.seats.order_by("position")[:2]:  # pinned seats list on the round page
        pin_seat(tournament=tournament, entry=seat.entry, table=2, by=None)
    places = {
        "slug": tournament.slug,
        "entry": table.seats.order_by("position")[0].entry_id,
        "token": table.access_token,
        "table": table.pk,
    }
    counts = {}
    for kind, addresses in (("public", PUBLIC), ("link", LINK), ("director", DIRECTOR)):
        client = caller(kind, tournament, table)
        for address in addresses:
            counts[address] = count(client, address.format(**places))
    return counts


def caller(kind: str, tournament: Tournament, table: Table) -> Client:
    client = Client()
    if kind == "link":
        client.defaults["HTTP_AUTHORIZATION"] = f"Table {table.access_token}"
    if kind == "director":
        client.force_login(director_of(tournament, f"director-{tournament.slug}"))
    return client


def count(client: Client, address: str) -> int:
    forget_recent()  # each read as a fresh web process would
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address)
    assert response.status_code == 200, (address, response.status_code)
    return len(queries.captured_queries)


def test_every_page_and_endpoint_runs_the_same_queries_at_10_and_2000_players() -> None:
    cache.clear()
    small = counted(10)
    cache.clear()
    big = counted(2000)
    assert big == small


CLUB_PAGES = [
    "/c/{club}/seasons/season",
    "/c/{club}/seasons/season?projector=1",
    "/c/{club}/seasons/season.csv",
    "/api/clubs/{club}/seasons/season/table",
    "/c/{club}/ratings/kalooki",
    "/api/clubs/{club}/ratings/kalooki",
    "/c/{club}/members/{member}",
    "/api/clubs/{club}/members/{member}/history",
]


def club_counted(members: int, events: int) -> dict[str, int]:
    from tests.seasons.scale import club_at_scale

    club, _season, member = club_at_scale(members, events, slug=f"club-{members}")
    counts = {}
    for address in CLUB_PAGES:
        path = address.format(club=club.slug, member=member.pk)
        with CaptureQueriesContext(connection) as queries:
            response = Client().get(path)
        assert response.status_code == 200, path
        counts[address] = len(queries)
    return counts


def test_the_season_ratings_and_member_pages_run_the_same_queries_at_any_size() -> None:
    """10 members and 2 nights, or 2,000 members and 20 nights: the same queries."""
    small, large = club_counted(10, 2), club_counted(2000, 20)
    assert small == large
    assert max(small.values()) <= 6
