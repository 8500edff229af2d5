"""The table page's live part, `/t/<token>/live`: the round's clock and the call for the director,
as the phone asks for them every ten seconds (static/js/live.js).

Ann keeps score at table 1. Once the director starts the round's clock the live part shows it;
a pause, an answered call and Hand and Foot's warning 15 minutes before time (HF2.2) each change
what it answers, so the phone shows them without a reload.
"""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from scoring.clock import clock_pause, clock_start
from scoring.control import director_call, director_call_answer
from scoring.models import ClockEvent
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import director_of, published_round, tournament_with

pytestmark = pytest.mark.django_db


def live(client: Client, table, etag: str = "") -> tuple[int, str, str]:
    headers = {"If-None-Match": etag} if etag else {}
    response = client.get(f"/t/{table.access_token}/live", headers=headers)
    return response.status_code, response.content.decode(), response.get("ETag", "")


def test_the_live_part_answers_once_the_round_clock_runs(client) -> None:
    tournament = tournament_with(5, name="Spring Open")
    round_ = published_round(tournament)
    table = round_.tables.get()
    clock_start(round=round_, minutes=90, by=director_of(tournament))
    status, body, _ = live(client, table)
    assert status == 200
    assert "Time left for the set" in body and 'data-state="running"' in body
    assert 'data-warn="0"' in body  # Kalooki gives no warning before time
    page = client.get(f"/t/{table.access_token}/")  # and the whole page draws it the same
    assert page.status_code == 200 and 'data-state="running"' in page.content.decode()


def test_a_pause_and_an_answered_call_change_the_live_part(client) -> None:
    tournament = tournament_with(5, name="Spring Open")
    round_ = published_round(tournament)
    table = round_.tables.get()
    alice = director_of(tournament)
    clock_start(round=round_, minutes=90, by=alice)
    _, _, etag = live(client, table)
    clock_pause(round=round_, by=alice, reason="a fire drill")
    status, body, etag = live(client, table, etag)
    assert status == 200 and 'data-state="paused"' in body and "paused" in body
    call = director_call(table=table, via="table 1 link · Ann").call
    status, body, etag = live(client, table, etag)
    assert status == 200 and "The director is called" in body
    director_call_answer(call=call, by=alice)
    status, body, etag = live(client, table, etag)
    assert status == 200 and "Call the director" in body  # answered: the button is back
    assert live(client, table, etag)[0] == 304


def test_hand_and_foot_warns_the_phone_fifteen_minutes_before_time(client) -> None:
    tournament = game_tournament("hand_and_foot", slug="hf", is_published=True)
    round_ = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]])
    at = timezone.now() - datetime.timedelta(minutes=80)  # 10 minutes left of 90
    ClockEvent.objects.create(round=round_, kind=ClockEvent.Kind.START, minutes=90, at=at)
    status, body, _ = live(client, table_of(round_))
    assert status == 200
    assert 'data-warn="900"' in body and "clock-warning" in body
    assert "the last 15 minutes: time will be called (HF2.2)" in body
