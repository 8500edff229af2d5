"""The hall: find your seat, where each player sits now, pages that update by themselves with
cheap conditional requests, and `/` linking each published tournament."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.clock import clock_pause, clock_start
from tests.factories import EntryFactory
from tests.hall.conftest import refreshed
from tests.scoring.playing import play, published_round, seated_round, tournament_with
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hall.urls")]


def board(html: str) -> list[tuple[str, str, str]]:
    """(player, table, seat) of each row of the seating board."""
    rows = re.findall(
        r'<tr id="seat-\d+"><td class="player"><a[^>]*>([^<]+)</a>.*?'
        r'class="num table-no"><a[^>]*>(\d+)</a></td><td class="num seat-no">(\d+)</td>',
        html,
        re.S,
    )
    return [(name, table, seat) for name, table, seat in rows]


class TestFindYourSeat:
    def test_the_board_lists_every_player_a_to_z_with_table_and_seat(
        self, client: Client, tournament: Tournament
    ) -> None:
        rows = board(client.get("/p/open/seating").content.decode())
        assert len(rows) == 10
        assert [name for name, _, _ in rows] == sorted(name for name, _, _ in rows)
        round = tournament.rounds.get()
        for name, table, seat in rows:
            found = round.seats.get(entry__player__name=name)
            assert (found.table.number, found.position) == (int(table), int(seat))

    def test_a_draft_round_is_never_shown(self, client: Client) -> None:
        draft = tournament_with(5, slug="early", is_published=True)
        seated_round(draft)
        html = client.get("/p/early/seating").content.decode()
        assert board(html) == [] and "not published yet" in html

    def test_the_board_shows_the_newest_published_round(self, client, round_two) -> None:
        html = client.get("/p/league/seating").content.decode()
        assert "Round 2" in html and len(board(html)) == 5

    def test_the_projector_pages_through_it_without_a_script(self, client: Client) -> None:
        tournament_with(40, slug="big", is_published=True)
        published_round(Tournament.objects.get(slug="big"))
        first = client.get("/p/big/seating/projector").content.decode()
        assert "Page 1 of 3" in first and 'content="10;url=?page=2"' in first
        assert first.count("<tr hidden>") == 40 - 15
        last = client.get("/p/big/seating/projector?page=3").content.decode()
        assert "Page 3 of 3" in last and 'url=?page=1"' in last
        assert "<nav" not in last and "<form" not in last

    @pytest.mark.parametrize("players", [10, 60])
    def test_the_board_reads_the_same_queries_for_10_or_60_players(
        self, client: Client, players: int
    ) -> None:
        published_round(tournament_with(players, slug="field", is_published=True))
        for page in ("/p/field/seating", "/p/field/seating/projector", "/p/field/seating?live=1"):
            client.get(page)  # the tournament's facts are cached once
            with CaptureQueriesContext(connection) as queries:
                assert client.get(page).status_code == 200
            assert len(queries) <= 3, (page, [q["sql"] for q in queries])


class TestWhereAPlayerSitsNow:
    def test_the_player_page_says_table_and_seat(self, client, tournament, table_one) -> None:
        seat = table_one.seats.get(position=3)
        html = client.get(f"/p/open/players/{seat.entry_id}").content.decode()
        now = re.search(r'<p class="seat-now" id="seat-now">(.*?)</p>', html, re.S)
        assert now and "table" in now.group(1) and "seat 3" in now.group(1)
        assert 'href="/p/open/tables/1/1"' in now.group(1)

    def test_a_player_not_seated_now_is_told_so(self, client, tournament) -> None:
        entry = EntryFactory(tournament=tournament, player__name="Zed")  # a late entry
        html = client.get(f"/p/open/players/{entry.pk}").content.decode()
        assert "Not seated in the current round." in html


class TestLiveParts:
    @pytest.mark.parametrize(
        "page", ["/p/open/", "/p/open/players/{entry}", "/p/open/tables/1/1", "/p/open/seating"]
    )
    def test_a_live_part_is_a_304_until_its_figures_change(
        self, client: Client, tournament: Tournament, table_one, page: str
    ) -> None:
        page = page.format(entry=table_one.seats.get(position=2).entry_id) + "?live=1"
        refreshed(tournament)
        first = client.get(page)
        assert first.status_code == 200 and "<html" not in first.content.decode()
        etag = first["ETag"]
        assert client.get(page, headers={"If-None-Match": etag}).status_code == 304
        play(table_one, 1)
        refreshed(tournament)
        if "seating" not in page:
            again = client.get(page, headers={"If-None-Match": etag})
            assert again.status_code == 200 and again["ETag"] != etag

    def test_the_pages_carry_their_live_part_and_its_script(self, client, tournament) -> None:
        refreshed(tournament)
        for page in ("/p/open/", "/p/open/tables/1/1", "/p/open/seating"):
            html = client.get(page).content.decode()
            assert f'data-live-src="{page}?live=1"' in html, page
            assert '<script src="/static/js/live.js" defer></script>' in html

    def test_a_clock_paused_changes_the_table_part_a_running_one_does_not(
        self, client: Client, tournament: Tournament, table_one
    ) -> None:
        round = tournament.rounds.get()
        clock_start(round=round, minutes=90, by=None)
        first = client.get("/p/open/tables/1/1?live=1")
        assert 'data-state="running"' in first.content.decode()
        same = client.get("/p/open/tables/1/1?live=1", headers={"If-None-Match": first["ETag"]})
        assert same.status_code == 304  # the seconds run in the page, not on the server
        clock_pause(round=round, by=None)
        paused = client.get("/p/open/tables/1/1?live=1", headers={"If-None-Match": first["ETag"]})
        assert paused.status_code == 200 and 'data-state="paused"' in paused.content.decode()


class TestTheHallsFrontDoor:
    def test_home_links_each_published_tournament(self, client, tournament, draft) -> None:
        html = client.get("/").content.decode()
        assert '<a href="/p/open/">Kingston Open</a>' in html
        assert "/p/draft/" not in html

    def test_the_projector_shows_the_round_clock_and_the_status(
        self, client: Client, tournament: Tournament
    ) -> None:
        clock_start(round=tournament.rounds.get(), minutes=120, by=None)
        html = client.get("/p/open/projector").content.decode()
        assert 'data-clock data-state="running"' in html and "data-tournament-status" in html
        assert '<script src="/static/js/projector.js" defer></script>' in html

    def test_the_rows_say_when_they_were_updated_by_the_servers_clock(
        self, client, tournament
    ) -> None:
        refreshed(tournament)
        response = client.get("/p/open/leaderboard/rows")
        assert re.fullmatch(r"\d\d:\d\d:\d\d", response["X-Updated"])

    def test_every_public_page_reads_a_fixed_number_of_queries(
        self, client: Client, tournament: Tournament, table_one
    ) -> None:
        entry = table_one.seats.get(position=2).entry_id
        pages = ["/p/open/", f"/p/open/players/{entry}", "/p/open/tables/1/1"]
        counts: dict[str, set[int]] = {page: set() for page in pages}
        for games in (range(1, 2), range(2, 10)):  # one game, then all nine
            for number in games:
                play(table_one, number)
            refreshed(tournament)
            for page in pages:
                client.get(page)  # the tournament's facts are cached
                with CaptureQueriesContext(connection) as queries:
                    client.get(page + "?live=1")
                counts[page].add(len(queries))
        assert all(len(found) == 1 for found in counts.values()), counts
