"""The round page's seating in Chromium: Dana pins Ann, who uses a wheelchair, to
table 2, seat 1; a pin at a table that does not exist is refused with the reason; she seats
round 2 by standings and the page says how it was seated. Laptop 1280x800; screenshots go to
$SCREENSHOTS (default /tmp/kalooki-shots) for a person to look at; axe-core checks each state."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.steps import sign_in
from tests.factories import RoundFactory
from tests.scoring.playing import director_of, published_round, tournament_with
from tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))


@pytest.fixture
def open_() -> Tournament:
    tournament = tournament_with(25, name="Kingston Open", slug="open", rounds_planned=6)
    director_of(tournament, "dana")
    published_round(tournament)
    RoundFactory(tournament=tournament, number=2)
    return tournament


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"seating-{name}.png"), full_page=True)


def test_dana_pins_a_player_and_seats_round_two_by_standings(open_, laptop, live_server) -> None:
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/open/rounds/1/")
    expect(laptop.locator(".seated-by")).to_contain_text(
        "Avoid repeats: everyone meets new opponents where possible · following round 1 of 6 "
        "of the affine plane AG(2, 5)"
    )
    laptop.goto(f"{live_server.url}/director/open/rounds/2/")
    pins = laptop.locator("#pinned-seats")
    pins.get_by_label("Player").select_option(label="Ann")
    pins.get_by_label("Table").fill("9")
    pins.get_by_role("button", name="Pin to the table").click()
    expect(laptop.locator(".messages")).to_contain_text(
        "Nothing was pinned: Ann is pinned to table 9, which does not exist: 25 players sit at "
        "5 tables (R12.2)."
    )
    pins.get_by_label("Player").select_option(label="Ann")
    pins.get_by_label("Table").fill("2")
    pins.get_by_label("Seat").fill("1")
    pins.get_by_label("Why").fill("Wheelchair space")
    pins.get_by_role("button", name="Pin to the table").click()
    expect(laptop.locator(".messages")).to_contain_text("Ann keeps table 2, seat 1")
    expect(pins.locator("table.pins")).to_contain_text("Wheelchair space")
    assert_accessible(laptop)

    laptop.get_by_label("By standings: players of similar standing together").check()
    laptop.get_by_role("button", name="Seat players").click()
    expect(laptop.locator(".messages")).to_contain_text("Seated 25 players at 5 tables")
    expect(laptop.locator(".seated-by")).to_contain_text("By standings: players of similar")
    expect(laptop.locator("#table-2 li").first).to_contain_text("Ann")
    assert_accessible(laptop)
    shot(laptop, "round-2-by-standings")
