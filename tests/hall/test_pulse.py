"""The hall within two seconds: every open page asks its pulse every second, a few
bytes and a 304 while nothing it shows changed, and fetches its live part only on a change.

The Open's ten players sit at two tables of five (tests/hall/conftest.py).
"""

import pytest
from django.test import Client

from hall.views import PULSE_SECONDS, REFRESH_SECONDS
from scoring.standings import standings_refresh
from tables.models import Table
from tests.scoring.playing import play, seated
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def asked(client: Client, path: str, etag: str = "") -> tuple[int, str]:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    response = client.get(path, **headers)
    return response.status_code, response.headers["ETag"]


def pulse_paths(table: Table) -> list[str]:
    entry = table.seats.order_by("position").first().entry_id
    return [
        "/p/open/pulse",
        f"/p/open/tables/1/{table.number}/pulse",
        f"/p/open/players/{entry}/pulse",
    ]


def test_every_page_asks_every_second() -> None:
    assert PULSE_SECONDS <= 1 and REFRESH_SECONDS <= 1


@pytest.mark.parametrize("which", [0, 1, 2])
def test_a_pulse_is_a_304_until_a_saved_result_changes_it(
    client: Client, tournament: Tournament, table_one: Table, table_two: Table, which: int
) -> None:
    play(table_two, 1)  # game 1 at every table: table 1's next game counts at once
    standings_refresh(tournament_id=tournament.pk)
    path = pulse_paths(table_one)[which]
    status, etag = asked(client, path)
    assert status == 200 and client.get(path).content == b"1\n"
    assert asked(client, path, etag) == (304, etag)
    play(table_one, 1)
    standings_refresh(tournament_id=tournament.pk)
    status, changed = asked(client, path, etag)
    assert status == 200 and changed != etag


def test_a_tables_pulse_stays_while_another_table_plays_what_does_not_count_yet(
    client: Client, tournament: Tournament, table_one: Table, table_two: Table
) -> None:
    """Table 2's players are not placed until every table has played game 1: a second game at
    table 1 changes nothing table 2's page shows."""
    play(table_one, 1)  # the round is in play from here
    standings_refresh(tournament_id=tournament.pk)
    table, player = pulse_paths(table_two)[1:]
    etags = [asked(client, path)[1] for path in (table, player)]
    played = asked(client, pulse_paths(table_one)[1])[1]
    play(table_one, 2)
    standings_refresh(tournament_id=tournament.pk)
    assert [asked(client, p, e)[0] for p, e in zip((table, player), etags, strict=True)] == [
        304,
        304,
    ]
    assert asked(client, pulse_paths(table_one)[1], played)[0] == 200


def test_a_pulse_reads_nothing_from_the_database_once_cached(
    client: Client, tournament: Tournament, table_one: Table, django_assert_num_queries
) -> None:
    play(table_one, 1)
    standings_refresh(tournament_id=tournament.pk)
    paths = pulse_paths(table_one)
    for path in paths:
        client.get(path)
    with django_assert_num_queries(0):
        for path in paths:
            assert client.get(path).status_code == 200


def test_the_pages_name_their_pulse(
    client: Client, tournament: Tournament, table_one: Table
) -> None:
    name = seated(table_one)[0]
    entry = tournament.entries.get(player__name=name).pk
    pages = {
        "/p/open/": "/p/open/pulse",
        "/p/open/seating": "/p/open/pulse",
        "/p/open/tables/1/1": "/p/open/tables/1/1/pulse",
        f"/p/open/players/{entry}": f"/p/open/players/{entry}/pulse",
    }
    for page, pulse in pages.items():
        html = client.get(page).text
        assert f'data-pulse-src="{pulse}"' in html and 'data-pulse-every="1"' in html


def test_an_unpublished_tournament_has_no_pulse(client: Client, draft: Tournament) -> None:
    assert client.get("/p/draft/pulse").status_code == 404


@pytest.mark.parametrize(
    "page", ["/p/open/?live=1", "/p/open/tables/1/1?live=1", "/p/open/seating?live=1"]
)
def test_a_live_part_is_drawn_once_for_a_crowd_and_again_for_new_standings(
    client: Client,
    tournament: Tournament,
    table_one: Table,
    page: str,
    monkeypatch: pytest.MonkeyPatch,
    django_assert_num_queries,
) -> None:
    """Every watching phone fetches the part at once after a change: one draw serves them."""
    monkeypatch.setattr("config.caches.PUBLIC_PARTS.seconds", 60)
    standings_refresh(tournament_id=tournament.pk)
    first = client.get(page)
    with django_assert_num_queries(0):
        again = client.get(page)
        unchanged = client.get(page, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert again.content == first.content and unchanged.status_code == 304
    play(table_one, 1)
    standings_refresh(tournament_id=tournament.pk)
    assert client.get(page).content != first.content
