"""The standings API and the CSV exports: the same numbers as the leaderboard, open to anyone.

The Open is published; ten players sit at two tables in round 1 (tests/hall/conftest.py).
"""

import csv
import io

import pytest
from django.test import Client

from scoring.services import HandInput, result_record
from tables.models import Table
from tests.hall.conftest import refreshed
from tests.scoring.playing import entry, penalty_ruling, play, rounds_over, seated, tables_of
from tournament.models import Entry, Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hall.urls")]


def csv_of(client: Client, url: str) -> tuple[list[dict[str, str]], object]:
    response = client.get(url)
    assert response.status_code == 200 and response.streaming
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text))), response


class TestStandingsApi:
    def test_it_returns_the_snapshot_the_leaderboard_shows_with_its_version(
        self, client: Client, tournament: Tournament, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1)
        play(table_two, 1, winner=1)  # game 1 at every table: it counts
        snapshot = refreshed(tournament)
        response = client.get("/api/tournaments/open/standings")
        assert response.status_code == 200 and response["Content-Type"] == "application/json"
        body = response.json()
        assert body == snapshot
        assert body["version"] == snapshot["version"] and body["tournament"] == "open"
        leader = body["players"][0]
        assert (leader["place"], leader["total"]) == (1, 0)  # both went out: level, shared
        assert leader["player"] in (seated(table_one)[0], seated(table_two)[1])
        assert response["ETag"] == f'W/"{tournament.pk}.{snapshot["version"]}"'

    def test_it_needs_no_sign_in_and_no_csrf_token(self, tournament: Tournament) -> None:
        refreshed(tournament)
        client = Client(enforce_csrf_checks=True)
        assert client.get("/api/tournaments/open/standings").status_code == 200

    @pytest.mark.usefixtures("draft")
    def test_an_unpublished_tournament_is_a_404_in_the_apis_error_shape(
        self, client: Client
    ) -> None:
        response = client.get("/api/tournaments/draft/standings")
        assert response.status_code == 404
        assert set(response.json()["errors"][0]) == {"rule", "field", "message"}

    def test_it_is_in_the_openapi_schema_with_its_response(self, client: Client) -> None:
        schema = client.get("/api/schema/", headers={"Accept": "application/json"}).json()
        operation = schema["paths"]["/api/tournaments/{slug}/standings"]["get"]
        assert operation["operationId"] == "tournament_standings"
        assert {"200", "304", "404"} <= set(operation["responses"])
        output = schema["components"]["schemas"]["StandingsOutput"]
        assert {"version", "players", "tables", "computed_at"} <= set(output["properties"])
        player = schema["components"]["schemas"]["PlayerStandingOutput"]["properties"]
        assert {"place", "shared", "movement", "last_game", "ruling_points"} <= set(player)


class TestResultsCsv:
    def test_it_lists_every_player_in_leaderboard_order_with_round_totals(
        self, client: Client, tournament: Tournament, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1, winner=0)
        play(table_two, 1, winner=0, down_and_out=True)
        ben = entry(tournament, seated(table_one)[1])
        decision = "Late back from the break"
        penalty_ruling(tournament=tournament, points=25, entry=ben, decision=decision)
        rounds_over(tournament)
        snapshot = refreshed(tournament)
        rows, response = csv_of(client, "/p/open/results.csv")
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="open-results.csv"'
        assert list(rows[0]) == [
            "place",
            "shared",
            "player",
            "club",
            "status",
            "games",
            "games_won",
            "down_and_outs",
            "latest_round_score",
            "wins",
            "rulings",
            "total",
            "round_1",
        ]  # fmt: skip: the game's columns, the ranking's first (R12.3)
        assert [row["player"] for row in rows] == [p["player"] for p in snapshot["players"]]
        first = rows[0]  # out down and out at table 2: more down-and-outs ranks first (R12.3)
        went_out = seated(table_two)[0]
        assert (first["player"], first["place"], first["shared"]) == (went_out, "1", "no")
        assert (first["games_won"], first["down_and_outs"], first["total"]) == ("1", "1", "0")
        bens = next(row for row in rows if row["player"] == ben.player.name)
        assert (bens["rulings"], bens["total"], bens["round_1"]) == ("25", "37", "37")

    def test_withdrawn_and_unplaced_players_are_listed_too(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play(table_one, 1)
        quitter = entry(tournament, seated(table_one)[4])
        Entry.objects.filter(pk=quitter.pk).update(status=Entry.Status.WITHDRAWN)
        refreshed(tournament)
        rows, _ = csv_of(client, "/p/open/results.csv")
        assert len(rows) == 10
        assert next(r for r in rows if r["player"] == quitter.player.name)["status"] == "withdrawn"
        assert [row["place"] for row in rows[-5:]] == [""] * 5  # not played yet

    def test_a_name_is_never_read_as_a_spreadsheet_formula(
        self, client: Client, tournament: Tournament
    ) -> None:
        Player.objects.filter(entries__tournament=tournament, name="Ann").update(
            name="=HYPERLINK(1)"
        )
        refreshed(tournament)
        rows, _ = csv_of(client, "/p/open/results.csv")
        assert "'=HYPERLINK(1)" in [row["player"] for row in rows]


class TestGamesCsv:
    def test_it_has_a_line_per_hand_of_every_game_in_play_order(
        self, client: Client, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1, winner=0)
        play(table_one, 2, winner=1, down_and_out=True)
        play(table_two, 1, winner=2)
        rows, response = csv_of(client, "/p/open/games.csv")
        assert response["Content-Disposition"] == 'attachment; filename="open-games.csv"'
        assert list(rows[0]) == [
            "round",
            "table",
            "game",
            "attempt",
            "void",
            "down_and_out",
            "player",
            "club",
            "side",
            "went_out",
            "cards",
            "points",
            "calls",
            "failed_come_downs",
            "overcall_penalty",
            "card_points",
            "doubled",
            "doubled_points",
            "penalties",
            "total",
            "version",
            "status",
        ]  # fmt: skip: the game's fields and breakdown, as the game names them
        assert len(rows) == 15
        assert [(r["table"], r["game"]) for r in rows[::5]] == [("1", "1"), ("1", "2"), ("2", "1")]
        assert [row["player"] for row in rows[:5]] == seated(table_one)
        doubled = rows[7]  # game 2, third seat: 10 + 3 card points, doubled (R8.3)
        assert (doubled["down_and_out"], doubled["doubled"]) == ("yes", "yes")
        assert (doubled["card_points"], doubled["total"]) == ("13", "26")
        assert rows[6]["went_out"] == "yes" and rows[6]["total"] == "0"
        assert {row["status"] for row in rows} == {"confirmed"} and rows[0]["version"] == "1"

    def test_cards_calls_and_penalties_are_exported_as_entered(
        self, client: Client, table_one: Table
    ) -> None:
        ids = list(table_one.seats.order_by("position").values_list("entry_id", flat=True))
        hands = [
            HandInput(ids[0], went_out=True, cards="", calls=0),
            HandInput(ids[1], cards="JK AS 2C", calls=0),
            HandInput(ids[2], points=30, failed_come_downs=1),
            HandInput(ids[3], points=5),
            HandInput(ids[4], points=9),
        ]
        result_record(table=table_one, number=1, hands=hands, via="test", confirm_warnings=True)
        rows, _ = csv_of(client, "/p/open/games.csv")
        assert (rows[1]["cards"], rows[1]["card_points"], rows[1]["calls"]) == (
            "JK AS 2C", "67", "0",
        )  # fmt: skip
        assert (rows[2]["failed_come_downs"], rows[2]["penalties"]) == ("1", "50")
        assert (rows[2]["points"], rows[2]["card_points"]) == ("30", "30")  # entered as points
        assert rows[2]["total"] == "80" and rows[3]["calls"] == ""

    def test_a_void_attempt_is_one_line_without_a_player_r9_2(
        self, client: Client, table_one: Table
    ) -> None:
        result_record(table=table_one, number=1, void=True, via="test")
        play(table_one, 1)
        rows, _ = csv_of(client, "/p/open/games.csv")
        void = rows[0]
        assert (void["game"], void["attempt"], void["void"]) == ("1", "1", "yes")
        assert void["player"] == void["total"] == ""
        assert [row["attempt"] for row in rows[1:]] == ["2"] * 5

    @pytest.mark.usefixtures("cup_table")
    def test_a_result_awaiting_confirmation_says_so(self, client: Client) -> None:
        rows, _ = csv_of(client, "/p/cup/games.csv")
        assert {row["status"] for row in rows} == {"pending"}

    def test_it_streams_in_two_queries_however_many_games(
        self, client: Client, tournament: Tournament, django_assert_max_num_queries
    ) -> None:
        for table in tables_of(tournament.rounds.get()):
            for number in range(1, 4):
                play(table, number)
        client.get("/p/open/games.csv")  # the tournament's facts are cached now
        with django_assert_max_num_queries(2):
            rows, _ = csv_of(client, "/p/open/games.csv")
        assert len(rows) == 30
