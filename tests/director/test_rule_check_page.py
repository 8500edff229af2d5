"""The director's Rule check page: the three checks as forms, for directors only."""

import pytest
from django.test import Client

from tests.factories import StaffRoleFactory, TournamentFactory, UserFactory
from tests.tournament.test_rules_set_up import SEVEN_GAMES
from tournament.models import StaffRole

pytestmark = pytest.mark.django_db
URL = "/rules/check"


@pytest.fixture
def director_client(client: Client) -> Client:
    """Dana directs a tournament."""
    role = StaffRoleFactory(user__username="dana", role=StaffRole.Role.DIRECTOR)
    client.force_login(role.user)
    return client


def test_anonymous_visitors_are_sent_to_sign_in(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_a_scorekeeper_is_not_a_director(client: Client) -> None:
    role = StaffRoleFactory(role=StaffRole.Role.SCOREKEEPER)
    client.force_login(role.user)
    assert client.get(URL).status_code == 302


def test_a_user_without_a_role_is_turned_away(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get(URL).status_code == 302


def test_it_shows_the_three_checks(director_client: Client) -> None:
    page = director_client.get(URL).content.decode()
    assert "Check meld" in page and "Check contract" in page and "Check and score" in page
    assert "Game 3: 11 cards, one three and two fours" in page


def test_it_settles_a_disputed_four_r3_5(director_client: Client) -> None:
    page = director_client.post(URL, {"check": "meld", "cards": "5H JK JK 8H", "kind": "four"})
    text = page.content.decode()
    assert "Not a valid meld" in text and "R3.5" in text


def test_it_arranges_a_valid_four(director_client: Client) -> None:
    page = director_client.post(URL, {"check": "meld", "cards": "7H JK 5H", "kind": ""})
    assert "Valid three" not in page.content.decode()
    page = director_client.post(URL, {"check": "meld", "cards": "7H JK 5H 8H", "kind": "four"})
    assert "Valid four</strong>: 5H JK 7H 8H" in page.content.decode()


def test_an_unreadable_card_is_shown_next_to_the_field_r11(director_client: Client) -> None:
    page = director_client.post(URL, {"check": "meld", "cards": "5H QQ"})
    assert "&quot;QQ&quot;" in page.content.decode() and "R11" in page.content.decode()


def test_it_checks_a_lay_down_against_the_contract_r5_2(director_client: Client) -> None:
    groups = "5H 5C 5D\n3C 4C 5C 6C\n8C 9C 10C JC"
    page = director_client.post(URL, {"check": "contract", "game": "3", "groups": groups})
    text = page.content.decode()
    assert "The contract is not met" in text and "R5.2" in text


def _game_post(rows: list[dict], **game: str) -> dict[str, str]:
    data = {
        "check": "game",
        "game": "1",
        "hands-TOTAL_FORMS": "6",
        "hands-INITIAL_FORMS": "0",
        **game,
    }
    for index, row in enumerate(rows):
        data |= {f"hands-{index}-{key}": value for key, value in row.items()}
    return data


def test_it_scores_a_game_with_reasons_r8(director_client: Client) -> None:
    rows = [
        {"player": "Ann", "went_out": "on"},
        {"player": "Ben", "cards": "JK AS 2C", "calls": "3"},
        {"player": "Cy", "points": "44"},
    ]
    text = director_client.post(URL, _game_post(rows)).content.decode()
    assert "The entry is acceptable" in text
    assert "<strong>67</strong>" in text and "JK AS 2C = 50 + 15 + 2 = 67" in text


def test_it_shows_why_an_entry_would_be_refused_r10_1(director_client: Client) -> None:
    rows = [{"player": "Ann"}, {"player": "Ben", "points": "10"}, {"player": "Cy", "points": "4"}]
    text = director_client.post(URL, _game_post(rows)).content.decode()
    assert "The entry would be refused" in text and "R10.1" in text


def test_a_player_named_on_two_rows_is_refused_on_the_second_r10(director_client: Client) -> None:
    rows = [
        {"player": "Ann", "went_out": "on"},
        {"player": "Ben", "points": "10"},
        {"player": "ann", "points": "4"},
    ]
    text = director_client.post(URL, _game_post(rows)).content.decode()
    assert "Ann already has a hand (row 1): a player has one hand in a game (R10)." in text
    assert "The entry is acceptable" not in text


# The tack-on panel and the rules to check under.


def test_it_shows_the_tack_on_panel_and_the_rules_in_words(director_client: Client) -> None:
    page = director_client.get(URL).content.decode()
    assert "Check tack-on" in page and 'name="replaces_joker"' in page
    assert (
        "Checking under <strong>ASAJ Kalooki Tournament 2025 (preset asaj-2025).</strong>" in page
    )
    assert 'name="own_meld"' not in page  # ASAJ has no joker exchange (R7.3)


def test_a_card_goes_on_at_the_high_end_r7_2(director_client: Client) -> None:
    body = {"check": "tack-on", "card": "8H", "meld": "4H 5H 6H 7H", "kind": "four", "end": "high"}
    text = director_client.post(URL, body | {"has_come_down": "on"}).content.decode()
    assert "It goes on</strong>: 4H 5H 6H 7H 8H" in text


def test_a_joker_beyond_an_ace_is_refused_with_its_rule_r3_4(director_client: Client) -> None:
    body = {"check": "tack-on", "card": "JK", "meld": "JH QH KH AH", "end": "high"}
    text = director_client.post(URL, body | {"has_come_down": "on"}).content.decode()
    assert "It cannot go on." in text and "cannot stand beyond an ace" in text and "R3.4" in text


def test_the_joker_move_of_r7_3(director_client: Client) -> None:
    body = {"check": "tack-on", "card": "6H", "meld": "4H 5H JK 7H", "replaces_joker": "on"}
    text = director_client.post(URL, body | {"has_come_down": "on"}).content.decode()
    assert "The joker moves</strong>: 4H 5H 6H 7H JK" in text


def test_a_bad_card_token_is_shown_with_r11(director_client: Client) -> None:
    body = {"check": "tack-on", "card": "ZZ", "meld": "4H 5H 6H 7H", "has_come_down": "on"}
    text = director_client.post(URL, body).content.decode()
    assert "&quot;ZZ&quot;, is not a card" in text and "(R11)" in text


def test_a_preset_changes_the_answer(director_client: Client) -> None:
    body = {"check": "meld", "cards": "5H JK JK", "kind": "three", "as_laid": "on"}
    assert "Not a valid meld" in director_client.post(URL, body).content.decode()
    page = director_client.get(URL, {"rules": "preset:club-four"}).content.decode()
    assert "Club Kalooki, four at a table" in page
    assert "Lost the challenge (R13.9)" in page  # club-four plays the 18-card challenge


def test_a_tournaments_house_rules_are_offered_and_followed(client: Client) -> None:
    club = TournamentFactory(slug="club-night", name="Club Night")
    club.ruleset = {**club.ruleset, "min_naturals_in_three": 1, "joker_exchange": True}
    club.save()
    role = StaffRoleFactory(tournament=club, role=StaffRole.Role.DIRECTOR)
    client.force_login(role.user)
    page = client.get(URL).content.decode()
    assert 'value="tournament:club-night"' in page and "Club Night: its rules" in page
    body = {"check": "meld", "cards": "5H JK JK", "kind": "three", "rules": "tournament:club-night"}
    text = client.post(URL, body).content.decode()
    assert "Valid three" in text
    page = client.get(URL, {"rules": "tournament:club-night"}).content.decode()
    assert 'name="own_meld"' in page  # the joker exchange (R13.6)


def test_another_directors_tournament_is_neither_offered_nor_used(director_client) -> None:
    other = TournamentFactory(slug="their-cup")
    other.ruleset = {**other.ruleset, "min_naturals_in_three": 1}
    other.save()
    page = director_client.get(URL).content.decode()
    assert "their-cup" not in page
    body = {"check": "meld", "cards": "5H JK JK", "kind": "three", "rules": "tournament:their-cup"}
    text = director_client.post(URL, body).content.decode()
    assert "Not a valid meld" in text  # checked under ASAJ 2025, never under their rules


def test_a_set_of_seven_games_offers_seven(client: Client) -> None:
    club = TournamentFactory(slug="club-night")
    club.ruleset = {**club.ruleset, "games": SEVEN_GAMES}
    club.save()
    client.force_login(StaffRoleFactory(tournament=club, role=StaffRole.Role.DIRECTOR).user)
    page = client.get(URL, {"rules": "tournament:club-night"}).content.decode()
    assert "Game 7: 14 cards" in page and "Game 8:" not in page
