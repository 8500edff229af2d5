"""In Chromium: a Hand and Foot table's clock turns to its warning by itself when 15 minutes are
left (HF2.2), without a reload, and the warning is readable (axe-core)."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring.models import ClockEvent
from tests.e2e.axe import assert_accessible
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_phone_clock_warns_when_fifteen_minutes_are_left(live_server, phone: Page) -> None:
    tournament = game_tournament("hand_and_foot", slug="hf", is_published=True)
    round_ = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]])
    at = timezone.now() - datetime.timedelta(minutes=75, seconds=-4)  # 15:04 left
    ClockEvent.objects.create(round=round_, kind=ClockEvent.Kind.START, minutes=90, at=at)
    phone.goto(f"{live_server.url}/t/{table_of(round_).access_token}/")
    clock = phone.locator(".table-live [data-clock]")
    note = clock.locator("[data-clock-warning]")
    expect(clock).to_contain_text("15:0")
    expect(note).to_be_hidden()
    expect(note).to_be_visible(timeout=10_000)
    expect(note).to_have_text("the last 15 minutes: time will be called (HF2.2)")
    expect(clock).to_have_class("clock clock-running clock-warning")
    assert_accessible(phone)
