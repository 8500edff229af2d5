"""The public table page (seats, game-by-game scores, the game being played) and the player page
(every game, the running total, rulings and a chart), each in a fixed number of queries.

The Open is published; ten players sit at two tables in round 1 (tests/hall/conftest.py).
"""

import re

import pytest
from django.test import Client

from hall.selectors import PlayedGame, cumulative_chart, player_public_get, table_public_get
from scoring.models import Deal
from scoring.rulings import ruling_reverse
from scoring.services import result_record
from tables.models import Table
from tests.hall.conftest import refreshed
from tests.scoring.playing import (
    disqualification_ruling,
    entry,
    penalty_ruling,
    play,
    play_set,
    seated,
    seated_round,
    tournament_with,
    warning_ruling,
)
from tournament.models import Round, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hall.urls")]


def chart_points(html: str) -> list[tuple[float, float]]:
    found = re.search(r'<polyline class="running" fill="none" points="([^"]*)"', html)
    assert found, "the page has no chart"
    return [tuple(map(float, pair.split(","))) for pair in found.group(1).split()]


class TestTablePage:
    def test_it_shows_the_seats_and_every_games_scores_with_running_totals(
        self, client: Client, table_one: Table
    ) -> None:
        play(table_one, 1, winner=0)
        play(table_one, 2, winner=1)
        html = client.get("/p/open/tables/1/1").text
        for name in seated(table_one):
            assert f">{name}</a>" in html
        assert "2 of 9 games scored" in html
        # Seat 2: 12 in game 1, out in game 2; seat 3: 13 then 13.
        assert '<td class="num">12 <span class="muted small running">(12)</span></td>' in html
        assert re.search(r'went-out"><span title="Went out">✓</span> 0 <span[^>]*>\(12\)', html)
        assert '<td class="num">13 <span class="muted small running">(26)</span></td>' in html
        totals = re.search(r"<tfoot>(.*?)</tfoot>", html, re.S).group(1)
        assert re.findall(r"<strong>(\d+)</strong>", totals) == ["11", "12", "26", "28", "30"]

    def test_it_says_which_game_is_being_played_and_who_deals_r4_3(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play_set(table_one, games=3)
        html = client.get("/p/open/tables/1/1").text
        assert "Now playing: <strong>game 4</strong> · 12 cards · three fours" in html
        found = table_public_get(tournament_id=tournament.pk, round_number=1, table_number=1)
        assert found.current.number == 4 and found.current.dealer is not None
        assert f"dealer {found.current.dealer.name}" in html

    def test_a_void_attempt_shows_and_the_same_game_is_played_again_r9_2(
        self, client: Client, table_one: Table
    ) -> None:
        result_record(table=table_one, number=1, void=True, via="test")
        html = client.get("/p/open/tables/1/1").text
        assert "Void (attempt 1)" in html
        assert "game 1</strong> (attempt 2, after a void game)" in html

    @pytest.mark.usefixtures("cup_table")
    def test_a_result_awaiting_confirmation_is_shown_without_its_scores(
        self, client: Client
    ) -> None:
        html = client.get("/p/cup/tables/1/1").text
        assert "Result awaiting confirmation" in html
        assert "Now playing: <strong>game 2</strong>" in html

    def test_a_finished_set_says_so(self, client: Client, table_one: Table) -> None:
        play_set(table_one)
        assert "All 9 games are scored." in client.get("/p/open/tables/1/1").text

    def test_a_draft_rounds_tables_and_unknown_tables_are_a_404(
        self, client: Client, tournament: Tournament
    ) -> None:
        seated_round(tournament, number=2, seed=2)
        assert client.get("/p/open/tables/2/1").status_code == 404
        assert client.get("/p/open/tables/1/9").status_code == 404

    @pytest.mark.parametrize("games", [1, 9])
    def test_it_reads_the_table_in_five_queries_however_many_games(
        self, tournament: Tournament, table_one: Table, games: int, django_assert_num_queries
    ) -> None:
        play_set(table_one, games=games)
        with django_assert_num_queries(5):  # table, seats, games, hands; the clock's events
            found = table_public_get(tournament_id=tournament.pk, round_number=1, table_number=1)
        assert len(found.games) == games


class TestPlayerPage:
    def test_it_lists_every_game_with_the_running_total(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play(table_one, 1, winner=0)
        play(table_one, 2, winner=1)
        play(table_one, 3, winner=0, down_and_out=True)
        refreshed(tournament)
        ben = entry(tournament, seated(table_one)[1])
        html = client.get(f"/p/open/players/{ben.pk}").text
        running = re.findall(r'<td class="num">(\d+)</td></tr>', html)
        assert running == ["12", "12", "36"]  # 12, out (0), then 12 doubled (R8.3)
        assert '<abbr title="three threes">333</abbr>' in html
        assert '<abbr title="two threes and one four">334</abbr>' in html
        assert "<dd>3 played</dd>" in html

    def test_its_chart_has_one_point_per_game(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play_set(table_one, games=7)
        refreshed(tournament)
        ben = entry(tournament, seated(table_one)[1])
        html = client.get(f"/p/open/players/{ben.pk}").text
        points = chart_points(html)
        assert len(points) == 7 and html.count("<circle ") == 7
        xs, ys = zip(*points, strict=True)
        assert list(xs) == sorted(xs) and list(ys) == sorted(ys, reverse=True)  # it only grows
        assert "<script" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]

    def test_the_chart_starts_at_the_axis_and_ends_at_the_top(self) -> None:
        games = [
            PlayedGame(1, 1, n, "333", "three threes", 10, False, False, running=10 * n)
            for n in range(1, 4)
        ]
        chart = cumulative_chart(games)
        assert chart.points[-1].y == chart.top and chart.points[0].x == chart.left
        assert chart.points[-1].x == chart.right and chart.top_total == 30
        assert chart.rounds == [(chart.left, "R1")]

    def test_it_shows_rulings_with_their_decisions_and_reversals_r12_4(
        self, client: Client, tournament: Tournament, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1)
        play(table_two, 1)  # game 1 at every table: it counts
        ben = entry(tournament, seated(table_one)[1])
        penalty = penalty_ruling(
            tournament=tournament,
            points=25,
            entry=ben,
            decision="25 points for a card shown",
            reason="Seen by two players",
        )
        ruling_reverse(ruling=penalty, by=None, reason="Video showed no card")
        warning_ruling(tournament=tournament, entry=ben, decision="Warned for slow play")
        refreshed(tournament)
        html = client.get(f"/p/open/players/{ben.pk}").text
        assert "Penalty points +25" in html and "25 points for a card shown" in html
        assert "Seen by two players" in html and "Video showed no card" in html
        assert f'Reversed by <a href="#ruling-{penalty.pk + 1}">' in html
        assert "Warned for slow play" in html
        assert re.search(r'<dt>Total</dt><dd><strong class="standing-total">12</strong>', html)

    def test_a_disqualified_player_is_marked_without_a_place(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play(table_one, 1)
        cheat = entry(tournament, seated(table_one)[2])
        disqualification_ruling(
            tournament=tournament, entry=cheat, decision="Disqualified for marking cards"
        )
        refreshed(tournament)
        html = client.get(f"/p/open/players/{cheat.pk}").text
        assert "mark-disqualified" in html and "<dt>Place</dt><dd>—" in html

    def test_a_player_of_another_tournament_is_a_404(
        self, client: Client, tournament: Tournament
    ) -> None:
        other = tournament_with(1, slug="cup", is_published=True)
        stranger = other.entries.get()
        assert client.get(f"/p/open/players/{stranger.pk}").status_code == 404

    def test_games_not_counted_yet_are_left_out(self, client: Client, cup_table: Table) -> None:
        Deal.objects.filter(table=cup_table).update(status=Deal.Status.PENDING)
        refreshed(cup_table.round.tournament)
        player = cup_table.seats.get(position=2).entry
        assert "No game counted yet." in client.get(f"/p/cup/players/{player.pk}").text

    @pytest.mark.parametrize("games", [1, 9])
    def test_it_reads_the_player_in_three_queries_however_many_games(
        self, tournament: Tournament, table_one: Table, games: int, django_assert_num_queries
    ) -> None:
        play_set(table_one, games=games)
        ben = entry(tournament, seated(table_one)[1])
        warning_ruling(
            tournament=tournament, entry=ben, table=table_one, decision="Warned for slow play"
        )
        standings = refreshed(tournament)
        with django_assert_num_queries(3):
            player = player_public_get(
                tournament_id=tournament.pk, entry_id=ben.pk, standings=standings
            )
        assert len(player.games) == games and player.rulings[0].round == 1


def test_round_two_games_follow_round_one_on_the_chart(client: Client, round_two: Round) -> None:
    [table] = round_two.tables.all()
    play_set(table, games=2)
    refreshed(round_two.tournament)
    player = table.seats.get(position=2).entry  # the five played all nine games of round 1 too
    html = client.get(f"/p/league/players/{player.pk}").text
    assert len(chart_points(html)) == 11 and ">R1</text>" in html and ">R2</text>" in html
