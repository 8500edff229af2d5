"""The director's API for rounds, seats, tables and rulings: the same services as the pages.

Alice directs the Open (ten checked-in players, two rounds planned); Bob directs the Cup; Sam
keeps score at the Open. Refusals come back as `{"errors": [{"rule", "field", "message"}]}`:
409 when the round's state is in the way, 400 when the input is.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Ruling
from tests.factories import EntryFactory, StaffRoleFactory
from tests.scoring.playing import director_of, play_set, tables_of, tournament_with
from tournament.models import Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db

API = "/api/tournaments/open"


@pytest.fixture
def open_() -> Tournament:
    return tournament_with(10, name="Open", slug="open", rounds_planned=2)


@pytest.fixture
def alice(open_) -> APIClient:
    client = APIClient()
    client.force_authenticate(director_of(open_))
    return client


@pytest.fixture
def seated(alice) -> dict:
    """Round 1 added and seated with seed 7."""
    assert alice.post(f"{API}/rounds").status_code == 201
    response = alice.post(f"{API}/rounds/1/seat", {"seed": 7}, format="json")
    assert response.status_code == 200
    return response.json()


def seat_entries(body: dict, table: int) -> list[int]:
    return [seat["entry"] for seat in body["tables"][table - 1]["seats"]]


def refusal(response, status: int) -> dict:
    assert response.status_code == status, response.content
    [error] = response.json()["errors"]
    return error


class TestRounds:
    def test_a_round_is_added_and_seated_with_its_seed(self, alice, seated) -> None:
        assert (seated["number"], seated["status"], seated["seating_seed"]) == (1, "draft", 7)
        assert [len(table["seats"]) for table in seated["tables"]] == [5, 5]
        for table in seated["tables"]:
            assert sum(seat["is_first_dealer"] for seat in table["seats"]) == 1
        again = alice.post(f"{API}/rounds/1/seat", {"seed": 7}, format="json").json()
        seats = [[table["seats"] for table in body["tables"]] for body in (seated, again)]
        assert seats[0] == seats[1]  # same seed, same tables

    def test_the_rounds_are_listed(self, alice, seated) -> None:
        body = alice.get(f"{API}/rounds").json()
        assert [(r["number"], r["status"]) for r in body] == [(1, "draft")]

    def test_the_whole_lifecycle(self, alice, seated, open_) -> None:
        for step, status in [("publish", "published"), ("start", "in_play")]:
            response = alice.post(f"{API}/rounds/1/{step}")
            assert (response.status_code, response.json()["status"]) == (200, status)
        for table in tables_of(open_.rounds.get()):
            play_set(table)
        assert alice.get(f"{API}/rounds/1").json()["tables"][0]["games_scored"] == 9
        assert alice.post(f"{API}/rounds/1/complete").json()["status"] == "complete"
        body = alice.post(f"{API}/rounds/1/lock").json()
        assert body["status"] == "locked" and body["locked_at"]

    def test_publishing_an_empty_round_is_a_409(self, alice) -> None:
        alice.post(f"{API}/rounds")
        error = refusal(alice.post(f"{API}/rounds/1/publish"), 409)
        assert error == {
            "rule": None,
            "field": None,
            "message": "Round 1 has no tables: seat it first.",
        }

    def test_locking_with_a_table_unfinished_is_a_409(self, alice, seated, open_) -> None:
        alice.post(f"{API}/rounds/1/publish")
        play_set(tables_of(open_.rounds.get())[0], games=6)
        error = refusal(alice.post(f"{API}/rounds/1/lock"), 409)
        assert "Table 1 has played 6 of 9 games" in error["message"]
        assert "Table 2 has played 0 of 9 games" in error["message"]
        assert error["rule"] == "R4.1" and "Complete round 1" in error["message"]

    def test_adding_beyond_the_plan_is_a_409(self, alice, seated) -> None:
        alice.post(f"{API}/rounds/1/publish")
        assert alice.post(f"{API}/rounds").status_code == 201
        alice.post(f"{API}/rounds/2/seat", {}, format="json")
        alice.post(f"{API}/rounds/2/publish")
        assert "plans 2 round(s)" in refusal(alice.post(f"{API}/rounds"), 409)["message"]

    def test_the_latest_draft_is_removed(self, alice, seated, open_) -> None:
        assert alice.delete(f"{API}/rounds/1").status_code == 204
        assert not open_.rounds.exists()

    def test_an_unknown_round_is_a_404(self, alice) -> None:
        assert refusal(alice.get(f"{API}/rounds/9"), 404)["message"]


class TestSeats:
    def test_two_players_swap_seats_in_a_draft(self, alice, seated) -> None:
        a, b = seat_entries(seated, 1)[0], seat_entries(seated, 2)[0]
        body = alice.post(f"{API}/rounds/1/swap", {"entries": [a, b]}, format="json").json()
        assert seat_entries(body, 1)[0] == b and seat_entries(body, 2)[0] == a

    def test_a_player_moves_to_a_chosen_seat(self, alice, seated) -> None:
        mover = seat_entries(seated, 1)[2]
        response = alice.post(
            f"{API}/rounds/1/move", {"entry": mover, "table": 2, "position": 1}, format="json"
        )
        assert seat_entries(response.json(), 2)[0] == mover
        assert len(seat_entries(response.json(), 1)) == 4

    def test_after_publishing_a_swap_is_a_409_that_points_to_a_ruling(self, alice, seated) -> None:
        alice.post(f"{API}/rounds/1/publish")
        a, b = seat_entries(seated, 1)[0], seat_entries(seated, 2)[0]
        error = refusal(alice.post(f"{API}/rounds/1/swap", {"entries": [a, b]}, format="json"), 409)
        assert error["message"].startswith("Round 1 is published: a change now is a ruling")
        assert error["rule"] == "R12.4"

    def test_a_seat_change_by_ruling_after_publishing(self, alice, seated) -> None:
        alice.post(f"{API}/rounds/1/publish")
        a, b = seat_entries(seated, 1)[0], seat_entries(seated, 2)[0]
        response = alice.post(
            f"{API}/rounds/1/seat-change",
            {"entry": a, "swap_with": b, "decision": "Swap for the light.", "reason": "Eyes."},
            format="json",
        )
        assert response.status_code == 201
        assert response.json()["kind"] == "seating_change"
        assert seat_entries(alice.get(f"{API}/rounds/1").json(), 2)[0] == a

    def test_a_table_that_does_not_exist_is_a_400_naming_the_field(self, alice, seated) -> None:
        mover = seat_entries(seated, 1)[0]
        response = alice.post(f"{API}/rounds/1/move", {"entry": mover, "table": 7}, format="json")
        assert refusal(response, 400)["field"] == "table"

    def test_another_tournaments_player_is_a_400(self, alice, seated) -> None:
        stranger = EntryFactory(tournament__slug="cup")
        response = alice.post(
            f"{API}/rounds/1/swap",
            {"entries": [seat_entries(seated, 1)[0], stranger.pk]},
            format="json",
        )
        assert refusal(response, 400)["field"] == "entries.1"

    def test_a_player_without_a_seat_is_a_400(self, alice, seated, open_) -> None:
        late = EntryFactory(tournament=open_, player__name="Late Larry")
        response = alice.post(
            f"{API}/rounds/1/swap",
            {"entries": [seat_entries(seated, 1)[0], late.pk]},
            format="json",
        )
        assert "Late Larry has no seat in round 1" in refusal(response, 400)["message"]


class TestTables:
    def test_each_table_comes_with_its_private_scorekeeper_link(
        self, alice, seated, open_, settings
    ) -> None:
        settings.SITE_URL, settings.SITE_URL_SET = "https://kalooki.example", True
        body = alice.get(f"{API}/rounds/1/tables").json()
        tokens = dict(open_.rounds.get().tables.values_list("number", "access_token"))
        assert [table["scorekeeper_link"] for table in body] == [
            f"https://kalooki.example/t/{tokens[1]}/",
            f"https://kalooki.example/t/{tokens[2]}/",
        ]

    def test_without_site_url_a_link_starts_as_the_printed_cards_do(
        self, alice, seated, open_, settings
    ) -> None:
        settings.ALLOWED_HOSTS = ["192.168.1.20"]
        body = alice.get(f"{API}/rounds/1/tables", HTTP_HOST="192.168.1.20:8300").json()
        token = open_.rounds.get().tables.get(number=1).access_token
        assert body[0]["scorekeeper_link"] == f"http://192.168.1.20:8300/t/{token}/"

    def test_a_reissued_link_replaces_the_old_one(self, alice, seated) -> None:
        old = alice.get(f"{API}/rounds/1/tables").json()[0]["scorekeeper_link"]
        new = alice.post(f"{API}/rounds/1/tables/1/reissue-link").json()["scorekeeper_link"]
        assert new != old
        assert alice.get(f"{API}/rounds/1/tables").json()[0]["scorekeeper_link"] == new

    def test_listing_tables_runs_the_same_queries_for_any_field(self) -> None:
        counts = []
        for players, slug in [(5, "small"), (25, "large")]:
            tournament = tournament_with(players, slug=slug)
            client = APIClient()
            client.force_authenticate(director_of(tournament, f"d-{slug}"))
            client.post(f"/api/tournaments/{slug}/rounds")
            client.post(f"/api/tournaments/{slug}/rounds/1/seat", {}, format="json")
            with CaptureQueriesContext(connection) as queries:
                assert client.get(f"/api/tournaments/{slug}/rounds/1/tables").status_code == 200
            counts.append(len(queries))
        assert counts[0] == counts[1], counts


class TestRulings:
    def test_a_penalty_is_recorded_and_listed(self, alice, seated, open_) -> None:
        alice.post(f"{API}/rounds/1/publish")
        table = open_.rounds.get().tables.get(number=1)
        entry = seat_entries(seated, 1)[0]
        response = alice.post(
            f"{API}/rulings",
            {
                "kind": "penalty_points",
                "entry": entry,
                "table": table.pk,
                "points": 25,
                "decision": "25 for showing cards.",
            },
            format="json",
        )
        assert response.status_code == 201
        body = response.json()
        assert (body["points"], body["entry"], body["round"], body["table"]) == (25, entry, 1, 1)
        assert body["decided_by"] == "alice"
        assert [r["id"] for r in alice.get(f"{API}/rulings").json()] == [body["id"]]

    def test_points_on_a_warning_are_a_400_on_the_points(self, alice) -> None:
        entry = Tournament.objects.get(slug="open").entries.first()
        response = alice.post(
            f"{API}/rulings",
            {"kind": "warning", "entry": entry.pk, "points": 5, "decision": "Shh."},
            format="json",
        )
        error = refusal(response, 400)
        assert error["field"] == "points" and error["rule"] == "R12.4"
        assert not Ruling.objects.exists()

    def test_a_seating_change_is_not_a_kind_the_rulings_endpoint_takes(self, alice) -> None:
        entry = Tournament.objects.get(slug="open").entries.first()
        response = alice.post(
            f"{API}/rulings",
            {"kind": "seating_change", "entry": entry.pk, "decision": "Moved."},
            format="json",
        )
        assert refusal(response, 400)["field"] == "kind"

    def test_a_reversal_is_a_new_ruling_linked_both_ways(self, alice, open_) -> None:
        entry = open_.entries.first()
        first = alice.post(
            f"{API}/rulings",
            {"kind": "penalty_points", "entry": entry.pk, "points": 10, "decision": "10."},
            format="json",
        ).json()
        response = alice.post(
            f"{API}/rulings/{first['id']}/reverse", {"reason": "Excused."}, format="json"
        )
        assert response.status_code == 201
        reversal = response.json()
        assert (reversal["points"], reversal["reverses"]) == (-10, first["id"])
        listed = alice.get(f"{API}/rulings").json()
        assert [(r["id"], r["reversed_by"]) for r in listed] == [
            (reversal["id"], None),
            (first["id"], reversal["id"]),
        ]
        again = alice.post(f"{API}/rulings/{first['id']}/reverse", {"reason": "?"}, format="json")
        assert "already reversed" in refusal(again, 409)["message"]  # the state is in the way

    def test_the_list_runs_three_queries_for_any_number_of_rulings(self, alice, open_) -> None:
        for entry in open_.entries.all():
            Ruling.objects.create(
                tournament=open_, entry=entry, kind=Ruling.Kind.WARNING, decision="!"
            )
        with CaptureQueriesContext(connection) as queries:
            assert len(alice.get(f"{API}/rulings").json()) == 10
        # is Alice a director; her tournament; the rulings with their players, tables, ...
        assert len(queries) == 3


# --- who may use the API ------------------------------------------------------------------------

ENDPOINTS = [
    ("get", "/rounds"),
    ("post", "/rounds"),
    ("get", "/rounds/1"),
    ("post", "/rounds/1/seat"),
    ("post", "/rounds/1/publish"),
    ("get", "/rounds/1/tables"),
    ("get", "/rulings"),
    ("post", "/rulings"),
]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_only_the_tournaments_director_may_use_it(open_, method, path) -> None:
    Round.objects.create(tournament=open_, number=1)
    client = APIClient()
    assert getattr(client, method)(API + path).status_code in (401, 403)  # anonymous
    sam = StaffRoleFactory(tournament=open_, role=StaffRole.Role.SCOREKEEPER).user
    client.force_authenticate(sam)
    assert getattr(client, method)(API + path).status_code == 403
    bob = StaffRoleFactory(tournament__name="Cup", user__username="bob").user
    client.force_authenticate(bob)
    assert getattr(client, method)(API + path).status_code == 404
    assert list(open_.rounds.values_list("number", "status")) == [(1, "draft")]


def test_a_directors_token_works_like_a_session(open_) -> None:
    token = Token.objects.create(user=director_of(open_))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.post(f"{API}/rounds").status_code == 201


def test_the_schema_lists_every_endpoint(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    paths = set(schema["paths"])
    base = "/api/tournaments/{slug}"
    expected = {f"{base}/rounds", f"{base}/rounds/{{number}}", f"{base}/rulings"}
    expected |= {
        f"{base}/rounds/{{number}}/{step}"
        for step in [
            "seat",
            "swap",
            "move",
            "seat-change",
            "publish",
            "unpublish",
            "start",
            "complete",
            "reopen",
            "lock",
            "tables",
        ]
    }
    expected |= {
        f"{base}/rulings/{{id}}/reverse",
        f"{base}/rounds/{{number}}/tables/{{table}}/reissue-link",
    }
    assert expected <= paths, expected - paths
