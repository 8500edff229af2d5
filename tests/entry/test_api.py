"""The table API: reading a table, entering and correcting results, confirming, signing off.

Table 1 of the Open seats Ann, Ben, Cy, Di and Ed (in seat order as the seeded draw puts them);
its scorekeepers' phones use the table's link (`Authorization: Table <token>`). Refusals come
back as `{"errors": [{"rule", "field", "message"}]}`; a conflict also carries the stored result.
"""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from entry.idempotency import MAX_KEY
from scoring.models import Deal, DealResult, IdempotencyRecord, ResultRevision
from scoring.store.prepared import spelled_out
from tables.models import Table
from tests.scoring.playing import (
    director_of,
    play,
    play_set,
    published_round,
    tables_of,
    tournament_with,
)
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_() -> Tournament:
    return tournament_with(10, name="Open", slug="open")


@pytest.fixture
def table(open_) -> Table:
    return tables_of(published_round(open_))[0]


@pytest.fixture
def phone(table) -> APIClient:
    """A phone at table 1, on the table's link."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    return client


def url(table: Table, game: int | None = None, action: str = "result") -> str:
    if game is None:
        return f"/api/tables/{table.pk}" + (f"/{action}" if action != "result" else "")
    return f"/api/tables/{table.pk}/games/{game}/{action}"


def hands(**by_seat: dict) -> list[dict]:
    """Seat 1 goes out; seats 2 to 5 score 12, 13, 14, 15 unless given."""
    default = {1: {"went_out": True, "cards": ""}} | {
        seat: {"points": 10 + seat} for seat in range(2, 6)
    }
    return [{"seat": seat} | (by_seat.get(f"s{seat}") or line) for seat, line in default.items()]


def put(phone: APIClient, table: Table, game: int = 1, **body) -> "object":
    body.setdefault("hands", hands())
    return phone.put(url(table, game), body, format="json")


def refusal(response, status: int) -> list[dict]:
    assert response.status_code == status, response.content
    return response.json()["errors"]


class TestReading:
    def test_a_new_table_shows_seats_game_1_and_nothing_scored(self, phone, table) -> None:
        body = phone.get(url(table)).json()
        seats = body["seats"]
        assert [seat["seat"] for seat in seats] == [1, 2, 3, 4, 5]
        assert sum(seat["is_first_dealer"] for seat in seats) == 1
        first = next(seat for seat in seats if seat["is_first_dealer"])
        current = body["current_game"]
        assert (current["number"], current["attempt"], current["dealt"]) == (1, 1, 9)
        assert current["contract_words"] == "three threes"
        assert current["dealer"]["seat"] == first["seat"]  # R4.3
        assert current["first_player"]["seat"] == first["seat"] % 5 + 1
        assert body["results"] == [] and body["signed_off"] is False
        assert [line["total"] for line in body["totals"]] == [0] * 5
        assert (body["games_scored"], body["games_in_set"]) == (0, 9)

    def test_results_so_far_with_versions_and_running_totals(self, phone, table) -> None:
        play(table, 1)
        play(table, 2, winner=1)
        body = phone.get(url(table)).json()
        assert [(g["number"], g["version"], g["status"]) for g in body["results"]] == [
            (1, 1, "confirmed"),
            (2, 1, "confirmed"),
        ]
        game_2 = body["results"][1]["scores"]
        assert [(s["seat"], s["total"], s["running"]) for s in game_2] == [
            (1, 11, 11),
            (2, 0, 12),
            (3, 13, 26),
            (4, 14, 28),
            (5, 15, 30),
        ]
        assert [line["total"] for line in body["totals"]] == [11, 12, 26, 28, 30]
        assert body["current_game"]["number"] == 3

    def test_the_dealer_passes_clockwise_one_seat_per_game_r4_3(self, phone, table) -> None:
        first = phone.get(url(table)).json()["current_game"]["dealer"]["seat"]
        play(table, 1)
        assert phone.get(url(table)).json()["current_game"]["dealer"]["seat"] == first % 5 + 1

    @pytest.mark.parametrize("games", [1, 9])
    def test_reading_a_table_takes_the_same_queries_for_1_or_9_games(
        self, phone, table, games, django_assert_num_queries
    ) -> None:
        play_set(table, games)
        with django_assert_num_queries(4):  # the link's table, its seats, games and hands
            response = phone.get(url(table))
        assert len(response.json()["results"]) == games

    def test_a_director_reads_with_a_fixed_number_of_queries(
        self, open_, table, django_assert_num_queries
    ) -> None:
        client = APIClient()
        client.force_authenticate(director_of(open_))
        play_set(table, 9)
        with django_assert_num_queries(5):  # the table, "directs it?", seats, games, hands
            assert client.get(url(table)).status_code == 200


class TestEntering:
    def test_a_new_result_is_201_with_the_stored_scores(self, phone, table) -> None:
        response = put(phone, table, entered_by="Marcia Campbell")
        assert response.status_code == 201, response.content
        body = response.json()
        assert (body["number"], body["version"], body["status"]) == (1, 1, "confirmed")
        assert [score["total"] for score in body["scores"]] == [0, 12, 13, 14, 15]
        revision = ResultRevision.objects.get()
        assert revision.entered_via == "table 1 link · Marcia Campbell"

    def test_a_phone_that_prefers_it_gets_a_minimal_answer_rfc_7240(self, phone, table) -> None:
        """The phone's page shows the scores itself: its answer only says what was stored.
        A retry gets the same; a refusal and a conflict stay whole."""
        minimal = {"HTTP_PREFER": "return=minimal", "HTTP_IDEMPOTENCY_KEY": "k-1"}
        body = {"entered_by": "Marcia Campbell", "hands": hands()}
        response = phone.put(url(table, 1), body, format="json", **minimal)
        assert response.status_code == 201, response.content
        assert response["Preference-Applied"] == "return=minimal"
        stored = {"number": 1, "title": "Game 1", "attempt": 1, "void": False}
        assert response.json() == stored | {"status": "confirmed", "version": 1, "flagged": False}
        retry = phone.put(url(table, 1), body, format="json", **minimal)
        assert (retry.status_code, retry.json()) == (201, response.json())
        assert DealResult.objects.filter(deal__number=1).count() == 5  # stored once
        again = phone.put(url(table, 1), body, format="json", HTTP_PREFER="return=minimal")
        assert "current" in again.json() and again.status_code == 409
        refused = put(phone, table, 2, hands=hands(s2={"points": 999}))
        assert refused.status_code == 400 and refused.json()["errors"]

    def test_players_may_be_named_by_entry_id_and_name(self, phone, table) -> None:
        seats = list(table.seats.select_related("entry__player").order_by("position"))
        lines = [
            {"entry": seat.entry_id, "player": seat.entry.player.name.upper(), "points": 20}
            for seat in seats[1:]
        ]
        lines.insert(0, {"entry": seats[0].entry_id, "went_out": True})
        assert put(phone, table, hands=lines).status_code == 201

    def test_cards_are_scored_by_the_rules_r8_2(self, phone, table) -> None:
        response = put(phone, table, hands=hands(s2={"cards": "JK AS 2C", "calls": 3}))
        assert response.status_code == 201, response.content
        seat_2 = response.json()["scores"][1]
        values, detail = seat_2["values"], seat_2["detail"]
        assert (detail["card_points"], values["cards"], values["calls"]) == (67, "JK AS 2C", 3)
        assert seat_2["points"] == seat_2["total"] == 67

    def test_down_and_out_doubles_r8_3(self, phone, table) -> None:
        response = put(phone, table, down_and_out=True)
        assert [s["total"] for s in response.json()["scores"]] == [0, 24, 26, 28, 30]

    def test_a_void_game_is_kept_and_played_again_by_the_same_dealer_r9_2(
        self, phone, table
    ) -> None:
        dealer = phone.get(url(table)).json()["current_game"]["dealer"]
        response = put(phone, table, void=True, hands=[])
        assert response.status_code == 201, response.content
        assert (response.json()["void"], response.json()["scores"]) == (True, [])
        current = phone.get(url(table)).json()["current_game"]
        assert (current["number"], current["attempt"], current["dealer"]) == (1, 2, dealer)
        assert put(phone, table).json()["attempt"] == 2

    def test_rule_errors_are_400_with_their_rules_and_nothing_is_saved(self, phone, table) -> None:
        errors = refusal(put(phone, table, hands=hands(s2={"went_out": True})), 400)
        assert "R10.1" in {error["rule"] for error in errors}
        assert not Deal.objects.exists()

    def test_games_go_in_order_r4_1(self, phone, table) -> None:
        [error] = refusal(put(phone, table, game=2), 400)
        assert error["rule"] == "R4.1" and "game 1 comes next" in error["message"]

    def test_a_warning_is_400_until_confirmed_then_flagged_r10_6(self, phone, table) -> None:
        odd = hands(s2={"cards": "2H 3H 4H", "calls": 0})  # 3 cards, no call: suspect
        response = put(phone, table, hands=odd)
        assert response.status_code == 400
        assert {w["rule"] for w in response.json()["warnings"]} == {"R10.6"}
        assert not Deal.objects.exists()
        response = put(phone, table, hands=odd, confirm_warnings=True)
        assert response.status_code == 201
        assert response.json()["flagged"] is True
        assert response.json()["warnings"][0]["rule"] == "R10.6"

    def test_a_second_new_result_for_the_same_game_is_a_409_with_the_stored_one(
        self, phone, table
    ) -> None:
        assert put(phone, table).status_code == 201
        response = put(phone, table, hands=hands(s2={"points": 40}))
        [error] = refusal(response, 409)
        assert "saved meanwhile" in error["message"]
        current = response.json()["current"]
        assert (current["version"], current["scores"][1]["total"]) == (1, 12)
        assert DealResult.objects.get(deal__number=1, entry=table.seats.get(position=2).entry)


class TestCorrecting:
    def test_a_correction_based_on_the_current_version_is_200_and_bumps_it(
        self, phone, table
    ) -> None:
        put(phone, table)
        response = put(phone, table, version=1, hands=hands(s2={"points": 40}), reason="Ben 40")
        assert response.status_code == 200, response.content
        body = response.json()
        assert (body["version"], body["scores"][1]["total"]) == (2, 40)
        revisions = ResultRevision.objects.order_by("version")
        assert [(r.version, r.status) for r in revisions] == [(1, "superseded"), (2, "confirmed")]
        assert revisions[1].reason == "Ben 40"

    def test_a_correction_based_on_an_old_version_is_a_409_with_the_stored_one(
        self, phone, table
    ) -> None:
        put(phone, table)
        put(phone, table, version=1, hands=hands(s2={"points": 40}))
        response = put(phone, table, version=1, hands=hands(s2={"points": 50}))
        [error] = refusal(response, 409)
        assert "you had version 1, it is now version 2" in error["message"]
        assert response.json()["current"]["scores"][1]["total"] == 40

    def test_correcting_a_game_not_entered_is_refused(self, phone, table) -> None:
        [error] = refusal(put(phone, table, version=1), 400)
        assert "no result to correct" in error["message"]

    def test_after_sign_off_only_a_ruling_changes_a_score_r12_4(self, phone, table) -> None:
        play_set(table)
        sign_off = phone.post(url(table, action="sign-off"), {"signer": "Ann"}, format="json")
        assert sign_off.status_code == 200
        [error] = refusal(put(phone, table, version=1), 400)
        assert error["rule"] == "R12.4"

    def test_a_locked_round_takes_no_result_r12_4(self, phone, table) -> None:
        Round.objects.update(status=Round.Status.LOCKED)
        assert refusal(put(phone, table), 400)[0]["rule"] == "R12.4"


class TestConfirming:
    @pytest.fixture
    def pending(self, open_, phone, table) -> None:
        Tournament.objects.filter(pk=open_.pk).update(requires_confirmation=True)
        assert put(phone, table, entered_by="Ann").json()["status"] == "pending"

    def confirm(self, phone, table, **body):
        return phone.post(url(table, 1, "confirm"), body, format="json")

    def test_someone_else_at_the_table_confirms(self, pending, phone, table) -> None:
        response = self.confirm(phone, table, confirmed_by="Ben", version=1)
        assert response.status_code == 200, response.content
        assert response.json()["status"] == "confirmed"
        revision = ResultRevision.objects.get()
        assert (revision.status, revision.confirmed_via) == ("confirmed", "table 1 link · Ben")

    def test_the_one_who_entered_cannot_confirm(self, pending, phone, table) -> None:
        [error] = refusal(self.confirm(phone, table, confirmed_by=" ann "), 400)
        assert "someone else" in error["message"]
        assert Deal.objects.get().status == "pending"

    def test_on_a_link_the_confirmer_says_who_they_are(self, pending, phone, table) -> None:
        [error] = refusal(self.confirm(phone, table), 400)
        assert error["field"] == "confirmed_by"

    def test_on_a_link_the_enterer_says_who_they_are(self, pending, phone, table) -> None:
        [error] = refusal(put(phone, table, 2), 400)
        assert error["field"] == "entered_by"

    def test_a_version_corrected_since_is_not_confirmed_blind(self, pending, phone, table) -> None:
        put(phone, table, version=1, entered_by="Cy", hands=hands(s2={"points": 40}))
        response = self.confirm(phone, table, confirmed_by="Ben", version=1)
        assert refusal(response, 409) and response.json()["current"]["version"] == 2

    def test_confirming_twice_is_a_conflict_showing_the_stored_result(
        self, pending, phone, table
    ) -> None:
        assert self.confirm(phone, table, confirmed_by="Ben").status_code == 200
        response = self.confirm(phone, table, confirmed_by="Cy")
        [error] = refusal(response, 409)
        assert "already confirmed" in error["message"]
        assert response.json()["current"]["status"] == "confirmed"

    def test_a_game_without_a_result_has_nothing_to_confirm(self, pending, phone, table) -> None:
        response = phone.post(url(table, 2, "confirm"), {"confirmed_by": "Ben"}, format="json")
        assert refusal(response, 404)


class TestSigningOff:
    def test_a_finished_set_is_signed_off(self, phone, table) -> None:
        play_set(table)
        response = phone.post(url(table, action="sign-off"), {"signer": "Ann"}, format="json")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["signed_off"] is True and body["current_game"] is None
        assert body["signed_off_by"] == "Ann (table 1 link)"

    def test_an_unfinished_set_is_not(self, phone, table) -> None:
        play_set(table, 8)
        response = phone.post(url(table, action="sign-off"), {"signer": "Ann"}, format="json")
        assert refusal(response, 400)[0]["rule"] == "R4.1"

    def test_the_signer_is_needed(self, phone, table) -> None:
        play_set(table)
        response = phone.post(url(table, action="sign-off"), {}, format="json")
        assert refusal(response, 400)[0]["field"] == "signer"


class TestBadInput:
    """Strict as the rules API: anything malformed is a 400 naming the field, never a 500."""

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"hands": [{"seat": 1, "entry": 1, "went_out": True}]}, "hands.0"),
            ({"hands": [{"went_out": True}]}, "hands.0"),
            ({"hands": [{"seat": 7}]}, "hands.0.seat"),
            ({"hands": [{"seat": 0}]}, "hands.0.seat"),
            ({"hands": [{"entry": 10**30}]}, "hands.0.entry"),
            ({"hands": [{"seat": 2, "points": 10**30}]}, "hands.0.points"),
            ({"hands": [{"seat": 2, "calls": "three"}]}, "hands.0.calls"),
            ({"hands": [{"seat": 2, "went_out": [1]}]}, "hands.0.went_out"),
            ({"hands": [{"seat": 2, "cards": "AS\x00KH"}]}, "hands.0.cards"),
            ({"hands": [{"seat": 2, "cards": "AS " * 200}]}, "hands.0.cards"),
            ({"hands": [{"seat": 2, "player": "A" * 121}]}, "hands.0.player"),
            ({"hands": [{"seat": n} for n in range(1, 8)]}, "hands"),
            ({"hands": "everyone"}, "hands"),
            ({"version": 10**30}, "version"),
            ({"version": "one"}, "version"),
            ({"entered_by": "Ann\x00"}, "entered_by"),
            ({"entered_by": "A" * 81}, "entered_by"),
            ({"reason": "x" * 301}, "reason"),
            ({"game": 2}, "game"),
            ({"confirm_warnings": "perhaps"}, "confirm_warnings"),
        ],
    )
    def test_it_names_the_field(self, phone, table, body, field) -> None:
        body = {"hands": hands()} | body
        errors = refusal(phone.put(url(table, 1), body, format="json"), 400)
        assert field in {error["field"] for error in errors}, errors
        assert not Deal.objects.exists()

    def test_a_seat_the_table_does_not_have(self, phone, table) -> None:
        body = {"hands": [*hands(), {"seat": 6, "points": 3}]}
        [error] = refusal(phone.put(url(table, 1), body, format="json"), 400)
        assert (error["field"], error["message"]) == ("hands.5", "Table 1 has no seat 6.")

    def test_a_player_of_another_table(self, open_, phone, table) -> None:
        stranger = tables_of(table.round)[1].seats.first().entry_id
        lines = hands()
        lines[4] = {"entry": stranger, "points": 3}
        errors = refusal(phone.put(url(table, 1), {"hands": lines}, format="json"), 400)
        assert errors[0]["field"] == "hands.4" and "R12.1" in errors[0]["message"]

    def test_the_same_player_twice(self, phone, table) -> None:
        lines = hands()
        lines[4] = {"seat": 2, "points": 3}
        errors = refusal(phone.put(url(table, 1), {"hands": lines}, format="json"), 400)
        assert errors[0]["field"] == "hands.4" and "already has a result in hands.1" in str(errors)

    def test_a_name_that_is_not_the_seats(self, phone, table) -> None:
        lines = hands()
        lines[1]["player"] = "Nobody"
        errors = refusal(phone.put(url(table, 1), {"hands": lines}, format="json"), 400)
        assert errors[0]["field"] == "hands.1" and "not Nobody" in errors[0]["message"]

    @pytest.mark.parametrize("body", [b"[]", b'"hands"', b"null", b"12", b'{"hands": {}}'])
    def test_a_body_that_is_not_an_object(self, phone, table, body) -> None:
        response = phone.put(url(table, 1), body, content_type="application/json")
        assert refusal(response, 400)

    def test_malformed_json(self, phone, table) -> None:
        response = phone.put(url(table, 1), b'{"hands": [', content_type="application/json")
        assert "Malformed" in refusal(response, 400)[0]["message"]

    def test_a_form_body_is_not_accepted(self, phone, table) -> None:
        response = phone.put(url(table, 1), "hands=1", content_type="text/plain")
        assert response.status_code == 415

    @pytest.mark.parametrize("path", ["games/10/result", "games/0/result"])
    def test_a_game_the_set_does_not_have_is_a_404(self, phone, table, path) -> None:
        response = phone.put(f"/api/tables/{table.pk}/{path}", {"hands": hands()}, format="json")
        assert response.status_code == 404

    def test_a_huge_table_id_is_a_404(self, phone) -> None:
        assert phone.get(f"/api/tables/{10**30}").status_code == 404


class TestIdempotency:
    def keyed(self, phone, table, key: str, game: int = 1, **body):
        body.setdefault("hands", hands())
        return phone.put(url(table, game), body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    def test_a_retry_gets_the_first_answer_and_stores_nothing_twice(self, phone, table) -> None:
        first = self.keyed(phone, table, "7d1c0e0a-retry")
        again = self.keyed(phone, table, "7d1c0e0a-retry")
        assert (first.status_code, again.status_code) == (201, 201)
        assert again.json() == first.json()
        assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
        assert (Deal.objects.count(), ResultRevision.objects.count()) == (1, 1)

    def test_a_replay_writes_nothing(self, phone, table) -> None:
        """Keys are not looked up first: the retry's write is refused under the table's lock (the
        game is stored, R4.1) and only then is the stored answer found."""
        self.keyed(phone, table, "k1")
        with CaptureQueriesContext(connection) as queries:
            assert self.keyed(phone, table, "k1").status_code == 201
        sent = [spelled_out(query["sql"]) for query in queries.captured_queries]
        statements = [sql.split()[0].upper() for message in sent for sql in message]
        assert not {"INSERT", "UPDATE", "DELETE"} & set(statements), statements
        assert (Deal.objects.count(), ResultRevision.objects.count()) == (1, 1)

    def test_the_same_key_with_another_body_is_a_422(self, phone, table) -> None:
        self.keyed(phone, table, "k1")
        response = self.keyed(phone, table, "k1", hands=hands(s2={"points": 40}))
        assert "already answered a different request" in refusal(response, 422)[0]["message"]
        assert self.keyed(phone, table, "k1", game=2).status_code == 422  # another address
        assert Deal.objects.count() == 1  # game 2 was written, then undone with its transaction

    def test_a_retried_void_game_is_stored_once(self, phone, table) -> None:
        """A second void attempt is a legal write (R9.2): only the key's record, colliding,
        undoes the retry's write."""
        first = self.keyed(phone, table, "void-1", void=True, hands=[])
        again = self.keyed(phone, table, "void-1", void=True, hands=[])
        assert (first.status_code, again.status_code) == (201, 201)
        assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
        assert list(Deal.objects.values_list("number", "attempt", "is_void")) == [(1, 1, True)]

    def test_a_refusal_is_not_stored_so_a_fixed_entry_may_keep_the_key(self, phone, table) -> None:
        bad = self.keyed(phone, table, "k1", hands=hands(s2={"went_out": True}))
        assert bad.status_code == 400
        assert self.keyed(phone, table, "k1").status_code == 201

    def test_keys_belong_to_their_table(self, open_, phone, table) -> None:
        self.keyed(phone, table, "k1")
        other = tables_of(table.round)[1]
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Table {other.access_token}")
        assert self.keyed(client, other, "k1").status_code == 201
        assert IdempotencyRecord.objects.count() == 2

    def test_confirm_and_sign_off_are_idempotent_too(self, phone, table) -> None:
        play_set(table)
        sign_off = url(table, action="sign-off")
        first = phone.post(sign_off, {"signer": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY="s")
        again = phone.post(sign_off, {"signer": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY="s")
        assert (first.status_code, again.status_code) == (200, 200)
        assert again.json() == json.loads(json.dumps(first.json()))

    @pytest.mark.parametrize("key", ["", "k" * (MAX_KEY + 1), "with space", "caf\xe9"])
    def test_a_key_that_cannot_be_one_is_a_400(self, phone, table, key) -> None:
        errors = refusal(self.keyed(phone, table, key), 400)
        assert errors[0]["field"] == "Idempotency-Key"
        assert not Deal.objects.exists()

    def test_the_longest_key_is_fine(self, phone, table) -> None:
        assert self.keyed(phone, table, "k" * MAX_KEY).status_code == 201


def test_the_table_api_is_in_the_openapi_schema(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert {
        "/api/tables/{id}",
        "/api/tables/{id}/games/{number}/result",
        "/api/tables/{id}/games/{number}/confirm",
        "/api/tables/{id}/sign-off",
    } <= set(schema["paths"])
    result = schema["paths"]["/api/tables/{id}/games/{number}/result"]["put"]
    assert {"201", "200", "400", "409", "422"} <= set(result["responses"])
    assert "Idempotency-Key" in {parameter["name"] for parameter in result["parameters"]}
    link = schema["components"]["securitySchemes"]["tableLink"]
    assert (link["type"], link["in"], link["name"]) == ("apiKey", "header", "Authorization")
    assert {"tableLink": []} in result["security"]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
HAND_KEYS = ["seat", "entry", "player", "went_out", "cards", "points", "calls"]
HAND_KEYS += ["failed_come_downs", "overcall_penalty"]
BODY_KEYS = ["game", "down_and_out", "void", "version", "confirm_warnings", "reason"]
BODY_KEYS += ["entered_by"]
HAND = st.fixed_dictionaries({}, optional={key: JSON for key in HAND_KEYS})
BODY = st.fixed_dictionaries(
    {"hands": st.lists(HAND, max_size=7) | JSON}, optional={key: JSON for key in BODY_KEYS}
)


def _fuzz_table() -> Table:
    return tables_of(published_round(tournament_with(5, name="Fuzz", slug="fuzz")))[0]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=BODY)
def test_no_body_makes_it_fail(body: dict) -> None:
    """Whatever JSON a client sends, the answer is a decision, never a 500."""
    table = Table.objects.select_related("round").first() or _fuzz_table()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    response = client.put(url(table, 1), body, format="json")
    assert response.status_code in {200, 201, 400, 409}, response.content
