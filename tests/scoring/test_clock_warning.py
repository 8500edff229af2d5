"""The round clock warns the tables before time is up where the game says so (Hand and Foot: 15
minutes before the 90, HF2.2): on the table's phone page, the director's pages and the hall, and
a Hand and Foot round's clock starts with the game's 90 minutes."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import get as game
from scoring.clock import DEFAULT_MINUTES, round_minutes, warning_seconds
from scoring.models import ClockEvent
from tests.factories import StaffRoleFactory
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db


def started(round_, minutes_ago: float, minutes: int = 90) -> None:
    at = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    ClockEvent.objects.create(round=round_, kind=ClockEvent.Kind.START, minutes=minutes, at=at)


def hf_table(minutes_ago: float):
    tournament = game_tournament("hand_and_foot", slug="hf", is_published=True)
    round_ = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]])
    started(round_, minutes_ago)
    return tournament, table_of(round_)


def test_the_game_gives_the_clock_its_minutes_and_warning() -> None:
    hand_and_foot, kalooki = game("hand_and_foot"), game("kalooki")
    assert round_minutes(hand_and_foot.rules(hand_and_foot.ruleset())) == 90  # HF2.2
    assert warning_seconds(hand_and_foot.rules(hand_and_foot.ruleset())) == 15 * 60
    assert round_minutes(kalooki.rules(kalooki.ruleset())) == DEFAULT_MINUTES
    assert warning_seconds(kalooki.rules(kalooki.ruleset())) == 0  # no warning in R1-R13
    quiet = hand_and_foot.ruleset({"warning_minutes": 0})
    assert warning_seconds(hand_and_foot.rules(quiet)) == 0


def test_the_table_page_warns_in_the_last_fifteen_minutes(client: Client) -> None:
    _tournament, table = hf_table(minutes_ago=80)  # 10 minutes left
    html = client.get(f"/t/{table.access_token}/").content.decode()
    assert 'class="clock clock-running clock-warning"' in html and 'data-warn="900"' in html
    note = html[html.index("data-clock-warning") :][:200]
    assert "hidden" not in note.split(">")[0]
    assert "the last 15 minutes: time will be called (HF2.2)" in note


def test_before_the_last_fifteen_minutes_the_warning_waits_hidden(client: Client) -> None:
    _tournament, table = hf_table(minutes_ago=30)  # an hour left
    html = client.get(f"/t/{table.access_token}/").content.decode()
    assert 'data-warn="900"' in html and 'class="clock clock-running"' in html
    assert "hidden" in html[html.index("data-clock-warning") :].split(">")[0]


def test_the_director_and_the_hall_see_the_warning_too(client: Client) -> None:
    tournament, _table = hf_table(minutes_ago=80)
    client.force_login(StaffRoleFactory(tournament=tournament, user__username="dana").user)
    for path in ("/director/hf/rounds/1/dashboard", "/p/hf/tables/1/1"):
        html = client.get(path).content.decode()
        assert "clock-running clock-warning" in html and "time will be called (HF2.2)" in html, path


def test_a_kalooki_clock_has_no_warning(client: Client) -> None:
    tournament = game_tournament("kalooki", slug="ka", is_published=True)
    round_ = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di", "Ed"]])
    started(round_, minutes_ago=115, minutes=120)  # 5 minutes left
    html = client.get(f"/t/{table_of(round_).access_token}/").content.decode()
    assert 'data-warn="0"' in html and "data-clock-warning" not in html


def test_a_hand_and_foot_clock_starts_with_the_games_ninety_minutes(client: Client) -> None:
    tournament = game_tournament("hand_and_foot", slug="hf", is_published=True)
    seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]])
    client.force_login(StaffRoleFactory(tournament=tournament, user__username="dana").user)
    dashboard = client.get("/director/hf/rounds/1/dashboard").content.decode()
    assert 'name="minutes" min="1" max="600" value="90"' in dashboard
