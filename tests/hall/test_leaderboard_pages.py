"""Fewer bytes to watching phones: a big leaderboard comes a page of rows at a time,
and a phone watching a page fetches that page's rows only when they changed (the page's ETag is
its rows' digest); the projector still takes every row.

The Open's ten players sit at two tables of five (tests/hall/conftest.py); here a page holds
four rows, so the leaderboard has three pages.
"""

import re

import pytest
from django.test import Client

from scoring.standings import standings_refresh
from tables.models import Table
from tests.scoring.playing import entry, play_set, seated, warning_ruling
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _four_rows_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hall.views.LEADERBOARD_PAGE_ROWS", 4)


@pytest.fixture
def played(tournament: Tournament, table_one: Table, table_two: Table) -> Tournament:
    play_set(table_one, games=2)
    play_set(table_two, games=2)
    standings_refresh(tournament_id=tournament.pk)
    return tournament


def row_ids(html: str) -> list[int]:
    return [int(found) for found in re.findall(r'<tr id="entry-(\d+)"', html)]


def test_the_leaderboard_shows_a_page_of_rows_and_links_the_others(
    client: Client, played: Tournament
) -> None:
    every = row_ids(client.get("/p/open/leaderboard/rows").text)
    assert len(every) == 10  # the projector's rows: all of them
    first = client.get("/p/open/leaderboard").text
    assert row_ids(first) == every[:4]
    assert "Rows 1 to 4 of 10" in first and 'href="?page=3"' in first
    assert 'data-rows-url="/p/open/leaderboard/rows?page=1"' in first
    last = client.get("/p/open/leaderboard?page=3").text
    assert row_ids(last) == every[8:] and "Rows 9 to 10 of 10" in last
    assert row_ids(client.get("/p/open/leaderboard/rows?page=2").text) == every[4:8]
    assert row_ids(client.get("/p/open/leaderboard?page=99").text) == every[8:]  # the last


def test_a_watched_page_is_a_304_while_its_rows_stay_as_they_were(
    client: Client, played: Tournament, table_one: Table
) -> None:
    etags = [client.get(f"/p/open/leaderboard/rows?page={n}").headers["ETag"] for n in (1, 2, 3)]
    assert len(set(etags)) == 3
    player = entry(played, seated(table_one)[2])
    warning_ruling(tournament=played, entry=player, decision="Slow play")  # a new version
    standings_refresh(tournament_id=played.pk)
    for number, etag in enumerate(etags, start=1):
        again = client.get(f"/p/open/leaderboard/rows?page={number}", HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304
    version = played.snapshots.order_by("-version").first().version
    whole = client.get("/p/open/leaderboard/rows").headers["ETag"]
    assert whole == f'W/"{played.pk}.{version}"'  # every row: the version, as before


def test_a_page_of_rows_is_served_gzipped_to_the_crowd_through_the_shortcut(
    client: Client, played: Tournament, django_assert_num_queries
) -> None:
    client.get("/p/open/leaderboard/rows?page=2")
    with django_assert_num_queries(0):
        response = client.get("/p/open/leaderboard/rows?page=2", HTTP_ACCEPT_ENCODING="gzip")
    assert response.headers["Content-Encoding"] == "gzip"
