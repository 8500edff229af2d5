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
        "again", ["Ann", " ann ", "ANN"], ids=["same-name", "spaces", "capitals"]
    )
    def test_two_hands_for_one_player_is_a_400_naming_the_second_r10(
        self, client: Client, again: str
    ) -> None:
        hands = [dict(hand) for hand in GAME_3["hands"]]
        hands[3]["player"] = again
        status, body = post(client, "/api/rules/game", {**GAME_3, "hands": hands})
        assert status == 400
        [error] = body["errors"]
        assert (error["rule"], error["field"]) == ("R10", "hands.3.player")
        assert "Ann already has a hand (hands.0)" in error["message"]

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


CLUB = {"preset": "club-four", "min_naturals_in_three": 1}


class TestUnderARuleset:
    def test_a_three_with_one_natural_is_refused_by_asaj_r3_2(self, client: Client) -> None:
        status, body = post(client, "/api/rules/meld", {"cards": "5H JK JK", "kind": "three"})
        assert (status, body["valid"]) == (200, False)
        assert "R3.2" in {error["rule"] for error in body["errors"]}

    def test_and_accepted_under_a_house_rule_of_one_natural_r13_5(self, client: Client) -> None:
        asked = {"cards": "5H JK JK", "kind": "three", "ruleset": CLUB}
        status, body = post(client, "/api/rules/meld", asked)
        assert (status, body["valid"], body["errors"]) == (200, True, [])

    def test_a_preset_by_name_alone(self, client: Client) -> None:
        asked = {"cards": "5H 5H 5H", "kind": "three", "ruleset": "club-four"}
        _, body = post(client, "/api/rules/meld", asked)
        assert body["valid"] is False
        assert "3 copies of 5H in one meld, but the deck has only 2 (R1.2)" in {
            error["message"] for error in body["errors"]
        }

    def test_a_seven_game_set_has_no_game_8_r4(self, client: Client) -> None:
        from tests.tournament.test_rules_set_up import SEVEN_GAMES

        asked = {"game": 8, "groups": ["5H 5C 5D"], "ruleset": {"games": SEVEN_GAMES}}
        status, body = post(client, "/api/rules/contract", asked)
        assert status == 400 and body["errors"][0] == {
            **body["errors"][0],
            "field": "game",
            "rule": "R4",
        }

    def test_an_unplayable_ruleset_is_a_400_naming_each_setting(self, client: Client) -> None:
        asked = {"cards": "5H 5C 5D", "ruleset": {"packs": 0, "jokers": -1}}
        status, body = post(client, "/api/rules/meld", asked)
        assert status == 400
        assert {error["field"] for error in body["errors"]} == {"ruleset.packs", "ruleset.jokers"}

    def test_the_game_check_follows_the_challenge_r13_9(self, client: Client) -> None:
        hands = [
            {"player": "Ann", "went_out": True, "cards": ""},
            {"player": "Ben", "cards": "KH", "challenge": "challenger"},
            {"player": "Cy", "cards": "KD"},
        ]
        asked = {"game": 1, "hands": hands, "ruleset": "club-four"}
        status, body = post(client, "/api/rules/game", asked)
        assert status == 200, body
        ben, cy = body["scores"][1], body["scores"][2]
        assert ben["total"] - cy["total"] == 50  # the cards, plus 50 (R13.9)
        status, body = post(client, "/api/rules/game", {**asked, "ruleset": None})
        assert status == 400  # ASAJ 2025 has no challenge: the field is refused

    def test_a_third_copy_of_a_card_at_a_two_pack_table_is_refused_r10_3(
        self, client: Client
    ) -> None:
        hands = [
            {"player": "Ann", "went_out": True, "cards": ""},
            {"player": "Ben", "cards": "KH KH"},
            {"player": "Cy", "cards": "KH 2C"},
        ]
        status, body = post(client, "/api/rules/game", {"game": 1, "hands": hands})
        assert status == 200  # three packs: three KH are possible
        asked = {"game": 1, "hands": hands, "ruleset": "club-four"}
        status, body = post(client, "/api/rules/game", asked)
        assert status == 400 and "R10.3" in {error["rule"] for error in body["errors"]}


def tack_on(client: Client, **asked: Any) -> tuple[int, dict]:
    return post(client, "/api/rules/tack-on", asked)


class TestTackOn:
    def test_the_next_card_at_the_high_end_goes_on_r7_2(self, client: Client) -> None:
        status, body = tack_on(client, card="8H", meld="4H 5H 6H 7H", kind="four", end="high")
        assert status == 200
        assert body == {
            "valid": True,
            "errors": [],
            "kind": "four",
            "end": "high",
            "meld_after": ["4H", "5H", "6H", "7H", "8H"],
        }

    def test_a_card_that_does_not_fit_is_refused_with_its_rule(self, client: Client) -> None:
        status, body = tack_on(client, card="10H", meld="4H 5H 6H 7H", kind="four", end="high")
        assert (status, body["valid"]) == (200, False)
        assert body["errors"] and all(error["rule"] for error in body["errors"])

    def test_only_a_player_who_has_come_down_may_tack_on_r7_1(self, client: Client) -> None:
        _, body = tack_on(client, card="KS", meld="KH KD KC", has_come_down=False)
        assert body["valid"] is False and "R7.1" in {error["rule"] for error in body["errors"]}

    def test_a_joker_beyond_an_ace_is_refused_and_says_so_r3_4(self, client: Client) -> None:
        _, body = tack_on(client, card="JK", meld="JH QH KH AH", kind="four", end="high")
        [error] = body["errors"]
        assert error["rule"] == "R3.4" and "cannot stand beyond an ace" in error["message"]

    def test_the_real_card_takes_the_jokers_place_and_the_joker_moves_high_r7_3(
        self, client: Client
    ) -> None:
        _, body = tack_on(client, card="6H", meld="4H 5H JK 7H", replaces_joker=True)
        assert body["valid"] is True
        assert body["meld_after"] == ["4H", "5H", "6H", "7H", "JK"]
        assert (body["joker_from"], body["joker_to"], body["to_hand"]) == (2, 4, False)

    def test_a_joker_under_a_high_ace_is_dead_r7_3(self, client: Client) -> None:
        _, body = tack_on(client, card="KH", meld="10H JH QH JK AH", replaces_joker=True)
        [error] = body["errors"]
        assert error["rule"] == "R7.3" and "dead" in error["message"]

    def test_under_the_joker_exchange_ones_own_joker_goes_to_the_hand_r13_6(
        self, client: Client
    ) -> None:
        ruleset = {"joker_exchange": True}
        asked = {"card": "6H", "meld": "4H 5H JK 7H", "replaces_joker": True, "own_meld": True}
        _, body = tack_on(client, **asked, ruleset=ruleset)
        assert (body["valid"], body["to_hand"]) == (True, True)
        assert body["meld_after"] == ["4H", "5H", "6H", "7H"]

    def test_a_fourth_copy_with_three_packs_is_refused_r1_2(self, client: Client) -> None:
        _, body = tack_on(client, card="5H", meld="5H 5H 5H", kind="three")
        assert body["valid"] is False
        assert "4 copies of 5H in one meld, but the deck has only 3 (R1.2)" in {
            error["message"] for error in body["errors"]
        }

    def test_a_third_copy_with_two_packs_is_refused_r1_2(self, client: Client) -> None:
        _, body = tack_on(client, card="5H", meld="5H 5H 5C", kind="three", ruleset="club-four")
        assert "R1.2" in {error["rule"] for error in body["errors"]}

    @pytest.mark.parametrize(
        ("field", "asked"),
        [("card", {"card": "ZZ", "meld": "4H 5H 6H 7H"}), ("meld", {"card": "8H", "meld": "4H X"})],
    )
    def test_a_bad_card_token_is_a_400_citing_r11_in_every_check(
        self, client: Client, field: str, asked: dict
    ) -> None:
        status, body = tack_on(client, **asked)
        assert status == 400
        [error] = body["errors"]
        assert (error["rule"], error["field"]) == ("R11", field)
        _, meld = post(client, "/api/rules/meld", {"cards": "4H X"})
        _, contract = post(client, "/api/rules/contract", {"game": 1, "groups": ["4H X"]})
        assert meld["errors"][0]["rule"] == contract["errors"][0]["rule"] == "R11"

    @pytest.mark.parametrize(
        "asked",
        [
            {"card": "8H"},
            {"card": 8, "meld": "4H 5H 6H 7H"},
            {"card": "8H", "meld": "4H 5H 6H 7H", "end": "middle"},
            {"card": "8H", "meld": "4H 5H 6H 7H", "replaces_joker": "yes"},
            {"card": "8H", "meld": "4H 5H 6H 7H", "colour": "red"},
            {"card": "8H", "meld": "4H 5H 6H 7H", "ruleset": [1]},
        ],
        ids=["no meld", "a number", "no such end", "not a flag", "unknown field", "bad ruleset"],
    )
    def test_a_malformed_request_is_a_400_naming_its_field(self, client: Client, asked) -> None:
        status, body = tack_on(client, **asked)
        assert status == 400 and body["errors"][0]["field"]

    def test_it_needs_no_login_and_writes_nothing(self) -> None:
        strict = Client(enforce_csrf_checks=True)
        status, _ = post(strict, "/api/rules/tack-on", {"card": "KS", "meld": "KH KD KC"})
        assert status == 200
