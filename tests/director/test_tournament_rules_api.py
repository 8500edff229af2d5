"""The tournament API's game and ruleset, and `GET /api/games`: house rules asked for as a request,
refused setting by setting, frozen once a round is published (409)."""

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import RoundFactory
from tests.tournament.test_rules_set_up import SEVEN_GAMES, SWITCHES
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db
NEW = {"name": "Club Night", "starts_on": "2026-05-02", "ends_on": "2026-05-02"}


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize(("setting", "value", "played"), SWITCHES, ids=[s[0] for s in SWITCHES])
def test_each_house_rule_is_set_through_the_api(dana, setting, value, played) -> None:
    body = NEW | {"game": "kalooki", "ruleset": {"preset": "asaj-2025", setting: value}}
    response = as_user(dana).post("/api/tournaments", body, format="json")
    assert response.status_code == 201, response.json()
    assert setting in response.json()["ruleset"]["request"]
    assert played(Tournament.objects.get(slug="club-night").rules().ruleset)


def test_a_four_player_club_with_a_seven_game_set(dana) -> None:
    ruleset = {"preset": "club-four", "games": SEVEN_GAMES, "min_naturals_in_three": 1}
    response = as_user(dana).post("/api/tournaments", NEW | {"ruleset": ruleset}, format="json")
    answer = response.json()
    assert response.status_code == 201
    assert answer["ruleset"]["request"] == ruleset
    assert answer["ruleset"]["table_size"] == 4
    assert "A set is seven games, played in order (R4)." in answer["ruleset"]["words"]
    assert (
        "A three holds at least 1 natural cards and any number of jokers (R3.2)."
        in (answer["ruleset"]["words"])
    )


def test_a_bad_ruleset_is_a_400_with_one_error_per_bad_setting(dana) -> None:
    ruleset = {"table_size": 2, "card_values": {"joker": -1}, "jokers": 13}
    response = as_user(dana).post("/api/tournaments", NEW | {"ruleset": ruleset}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {e["field"] for e in errors} == {
        "ruleset.table_size",
        "ruleset.card_values.joker",
        "ruleset.jokers",
    }
    assert all(e["rule"] and e["rule"] in e["message"] for e in errors)
    assert not Tournament.objects.filter(slug="club-night").exists()


@pytest.mark.parametrize(
    ("ruleset", "field"),
    [([1, 2], "ruleset"), (7, "ruleset"), ({str(n): n for n in range(80)}, "ruleset")],
    ids=["a list", "a number", "too many settings"],
)
def test_a_ruleset_of_the_wrong_shape_is_a_400(dana, ruleset, field) -> None:
    response = as_user(dana).post("/api/tournaments", NEW | {"ruleset": ruleset}, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]


def test_an_unknown_game_is_a_400(dana) -> None:
    response = as_user(dana).post("/api/tournaments", NEW | {"game": "bridge"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "game"


def test_a_patch_without_a_preset_changes_only_the_settings_sent(dana, spring) -> None:
    client = as_user(dana)
    client.patch("/api/tournaments/spring-open", {"ruleset": "club-four"}, format="json")
    response = client.patch(
        "/api/tournaments/spring-open", {"ruleset": {"joker_exchange": True}}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["ruleset"]["request"] == {"preset": "club-four", "joker_exchange": True}


def test_a_bad_patch_changes_nothing(dana, spring) -> None:
    before = dict(spring.ruleset)
    response = as_user(dana).patch(
        "/api/tournaments/spring-open",
        {"venue": "Mandeville", "ruleset": {"packs": 0}},
        format="json",
    )
    assert response.status_code == 400
    spring.refresh_from_db()
    assert (spring.ruleset, spring.venue) == (before, "Half Way Tree")


@pytest.mark.parametrize("status", [Round.Status.PUBLISHED, Round.Status.LOCKED])
def test_a_change_after_round_1_is_published_is_a_409_that_says_why(dana, spring, status) -> None:
    RoundFactory(tournament=spring, number=1, status=status)
    client = as_user(dana)
    for body in ({"ruleset": {"table_size": 4}}, {"game": "parcellus"}, {"ruleset": {"x": 1}}):
        response = client.patch("/api/tournaments/spring-open", body, format="json")
        assert response.status_code == 409
        [error] = response.json()["errors"]
        assert "round 1 has been published" in error["message"]
    answer = client.get("/api/tournaments/spring-open").json()
    assert "frozen" in answer["ruleset"]["frozen_because"]
    assert answer["ruleset"]["request"] == {"preset": "asaj-2025"}


def test_the_games_list_each_game_with_its_presets_and_settings(client) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    found = {game["key"]: game for game in response.json()}
    assert set(found) == {"kalooki", "hand_and_foot", "parcellus"}
    kalooki = found["kalooki"]
    assert (kalooki["default_preset"], sorted(kalooki["presets"])) == (
        "asaj-2025",
        ["asaj-2025", "club-four"],
    )
    assert kalooki["presets"]["club-four"]["table_size"] == 4
    settings = {setting["name"]: setting for setting in kalooki["settings"]}
    assert settings["packs"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 4}
    assert settings["card_challenge"]["rule"] == "R13.9"
    assert settings["games"]["schema"]["items"]["required"] == ["number", "dealt", "contract"]


def test_the_schema_shows_the_ruleset_request_and_the_games(client) -> None:
    schema = json.loads(client.get("/api/schema/", HTTP_ACCEPT="application/json").content)
    assert {"/api/games", "/api/rules/tack-on"} <= set(schema["paths"])
    create = schema["components"]["schemas"]["TournamentCreateInput"]
    assert {"game", "ruleset"} <= set(create["properties"])
