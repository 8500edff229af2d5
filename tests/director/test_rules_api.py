"""The rules API: open to anyone, writes nothing, answers with the rule numbers of the engine."""

import json
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any) -> tuple[int, dict]:
    raw = body if isinstance(body, str) else json.dumps(body)
    response = client.post(url, raw, content_type="application/json")
    return response.status_code, response.json()


class TestMeld:
    def test_a_four_with_jokers_apart_is_valid_r3_5(self, client: Client) -> None:
        status, body = post(client, "/api/rules/meld", {"cards": "5H JK 7H JK", "kind": "four"})
        assert status == 200
        assert body == {
            "valid": True,
            "kind": "four",
            "arrangement": ["5H", "JK", "7H", "JK"],
            "errors": [],
        }

    def test_jokers_side_by_side_are_refused_with_the_rule_r3_5(self, client: Client) -> None:
        status, body = post(client, "/api/rules/meld", {"cards": "5H JK JK 8H", "kind": "four"})
        assert status == 200
        assert body["valid"] is False
        assert [reason["rule"] for reason in body["errors"]] == ["R3.5"]

    def test_without_a_kind_it_tries_both(self, client: Client) -> None:
        status, body = post(client, "/api/rules/meld", {"cards": "KH KD JK"})
        assert (status, body["valid"], body["kind"]) == (200, True, "three")

    def test_a_hand_is_arranged_into_a_four(self, client: Client) -> None:
        asked = {"cards": "8H JK 10H 7H", "kind": "four", "as_laid": False}
        _, body = post(client, "/api/rules/meld", asked)
        assert body["valid"] and body["arrangement"][0] == "7H"

    def test_a_four_is_checked_as_laid_by_default(self, client: Client) -> None:
        _, body = post(client, "/api/rules/meld", {"cards": "8H JK 10H 7H", "kind": "four"})
        assert body["valid"] is False and body["errors"]

    def test_an_unreadable_card_is_a_400_quoting_the_token_r11(self, client: Client) -> None:
        status, body = post(client, "/api/rules/meld", {"cards": "5H ZZ 7H"})
        assert status == 400
        [error] = body["errors"]
        assert error["rule"] == "R11" and error["field"] == "cards"
        assert '"ZZ"' in error["message"] and "2" in error["message"]

    def test_an_unknown_kind_is_a_400(self, client: Client) -> None:
        status, body = post(client, "/api/rules/meld", {"cards": "5H 6H 7H 8H", "kind": "run"})
        assert status == 400 and body["errors"][0]["field"] == "kind"


class TestContract:
    def test_game_3_is_one_three_and_two_fours_r4(self, client: Client) -> None:
        groups = ["5H 5C 5D", "3C 4C 5C 6C", "8D 9D 10D JD"]
        status, body = post(client, "/api/rules/contract", {"game": 3, "groups": groups})
        assert (status, body["valid"], body["errors"]) == (200, True, [])
        assert [meld["kind"] for meld in body["melds"]] == ["three", "four", "four"]

    def test_two_fours_of_one_suit_are_refused_r5_2(self, client: Client) -> None:
        groups = ["5H 5C 5D", "3C 4C 5C 6C", "8C 9C 10C JC"]
        _, body = post(client, "/api/rules/contract", {"game": 3, "groups": groups})
        assert body["valid"] is False
        assert "R5.2" in {reason["rule"] for reason in body["errors"]}

    def test_a_short_lay_down_is_refused_r5_1(self, client: Client) -> None:
        _, body = post(client, "/api/rules/contract", {"game": 3, "groups": ["5H 5C 5D"]})
        assert body["valid"] is False and body["errors"]

    def test_an_unknown_game_is_a_400_citing_r4(self, client: Client) -> None:
        status, body = post(client, "/api/rules/contract", {"game": 12, "groups": ["5H 5C 5D"]})
        assert status == 400
        assert body["errors"][0]["field"] == "game"
        assert body["errors"][0]["rule"] == "R4"


GAME_3 = {
    "game": 3,
    "down_and_out": False,
    "void": False,
    "hands": [
        {"player": "Ann", "went_out": True, "cards": ""},
        {
            "player": "Ben",
            "cards": "JK AS 2C",
            "calls": 2,
            "failed_come_downs": 0,
            "overcall_penalty": False,
        },
        {"player": "Cy", "points": 44},
        {"player": "Di", "cards": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", "calls": 0},
        {"player": "Ed", "points": 12, "calls": 1},
    ],
}


class TestGame:
    def test_it_scores_the_issue_example_r8(self, client: Client) -> None:
        status, body = post(client, "/api/rules/game", GAME_3)
        assert status == 200
        ben = next(score for score in body["scores"] if score["player"] == "Ben")
        assert {k: ben[k] for k in ("card_points", "doubled", "penalties", "total")} == {
            "card_points": 67,
            "doubled": False,
            "penalties": 0,
            "total": 67,
        }
        assert [score["player"] for score in body["scores"]] == ["Ann", "Ben", "Cy", "Di", "Ed"]
        assert all(score["reasons"] for score in body["scores"])

    def test_down_and_out_doubles_card_points_not_penalties_r8_3_r8_4(self, client: Client) -> None:
        hands = [dict(hand) for hand in GAME_3["hands"]]
        hands[1]["failed_come_downs"] = 1
        _, body = post(client, "/api/rules/game", {**GAME_3, "down_and_out": True, "hands": hands})
        ben = body["scores"][1]
        assert (ben["doubled_points"], ben["penalties"], ben["total"]) == (134, 50, 184)

    def test_a_void_game_scores_nothing_r9_2(self, client: Client) -> None:
        hands = [{"player": name} for name in ["Ann", "Ben", "Cy", "Di", "Ed"]]
        status, body = post(client, "/api/rules/game", {"game": 3, "void": True, "hands": hands})
        assert status == 200
        assert {score["total"] for score in body["scores"]} == {0}

    def test_two_players_out_is_a_400_with_the_rule_r10_1(self, client: Client) -> None:
        hands = [dict(hand) for hand in GAME_3["hands"]]
        hands[2] = {"player": "Cy", "went_out": True, "cards": ""}
        status, body = post(client, "/api/rules/game", {**GAME_3, "hands": hands})
        assert status == 400
        assert "R10.1" in {error["rule"] for error in body["errors"]}
        assert "warnings" in body

    def test_a_seventh_joker_at_the_table_is_refused_r10_3(self, client: Client) -> None:
        hands = [dict(hand) for hand in GAME_3["hands"]]
        hands[1]["cards"] = "JK JK JK JK"
        hands[3]["cards"] = "JK JK JK"
        hands[1]["calls"] = hands[3]["calls"] = None
        status, body = post(client, "/api/rules/game", {**GAME_3, "hands": hands})
        assert status == 400
        assert "R10.3" in {error["rule"] for error in body["errors"]}

    def test_an_impossible_point_total_is_refused_r10_4(self, client: Client) -> None:
        hands = [dict(hand) for hand in GAME_3["hands"]]
        hands[2] = {"player": "Cy", "points": 5000, "calls": 0}
        status, body = post(client, "/api/rules/game", {**GAME_3, "hands": hands})
        assert status == 400
        assert {"rule": "R10.4", "player": "Cy"}.items() <= body["errors"][0].items()

    def test_a_suspect_card_count_is_a_warning_r10_6(self, client: Client) -> None:
        hands = [dict(hand) for hand in GAME_3["hands"]]
        hands[3] = {"player": "Di", "cards": "2H 3H 4H", "calls": 0}
        status, body = post(client, "/api/rules/game", {**GAME_3, "hands": hands})
        assert status == 200
        assert [(w["rule"], w["player"]) for w in body["warnings"]] == [("R10.6", "Di")]

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ('{"game": 3, "hands": [', None),
            ({"game": "three", "hands": GAME_3["hands"]}, "game"),
            ({"game": 10, "hands": GAME_3["hands"]}, "game"),
            ({"game": 3, "hands": "Ann"}, "hands"),
            ({"game": 3, "hands": [{"player": "Ann", "calls": -1}]}, "hands.0.calls"),
            ({"game": 3, "hands": [{"player": "Ann\u0000"}]}, "hands.0.player"),
            ({"game": 10**40, "hands": GAME_3["hands"]}, "game"),
            ({"hands": GAME_3["hands"]}, "game"),
        ],
        ids=[
            "malformed-json",
            "wrong-type",
            "unknown-game",
            "not-a-list",
            "negative-calls",
            "nul-byte",
            "huge-number",
            "missing-game",
        ],
    )
    def test_bad_input_is_a_400_that_names_the_field(
        self, client: Client, body: Any, field: str | None
    ) -> None:
        status, answer = post(client, "/api/rules/game", body)
        assert status == 400
        assert answer["errors"] and answer["errors"][0]["message"]
        assert answer["errors"][0].get("field") == field


def test_the_rules_api_is_in_the_openapi_schema(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    assert {"/api/rules/meld", "/api/rules/contract", "/api/rules/game"} <= set(paths)


def test_the_rules_api_needs_no_login_or_csrf_token() -> None:
    strict = Client(enforce_csrf_checks=True)
    status, _ = post(strict, "/api/rules/meld", {"cards": "KH KD KS"})
    assert status == 200
