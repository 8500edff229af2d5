"""The director's Rule check page: the three checks as forms, for directors only."""

import pytest
from django.test import Client

from tests.factories import StaffRoleFactory, UserFactory
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
