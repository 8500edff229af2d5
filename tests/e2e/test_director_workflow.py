"""A director runs the start of a tournament in Chromium: set-up, CSV import, check-in, seating,
publishing and printing (the director's walk-through)."""

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.steps import (
    PLAYERS_CSV,
    players_check_in,
    players_import,
    round_publish,
    round_seat,
    sign_in,
    tournament_create,
)
from tests.factories import StaffRoleFactory

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS_CSV_WITH_A_BAD_ROW = """name,club,email
Marcia Campbell,Half Way Tree,marcia@example.org
,Portmore,
Delroy Brown,Portmore,not-an-email
"""


def test_a_director_sets_up_imports_checks_in_seats_publishes_and_prints(
    live_server, laptop: Page
) -> None:
    StaffRoleFactory(user__username="dana")  # Dana already directs last year's event
    base = live_server.url
    sign_in(laptop, base, "dana")

    hub = tournament_create(laptop, base, "Spring Open")

    # CSV import: every bad row is reported by line, and nothing is imported until it is clean
    laptop.get_by_role("link", name="Import a CSV").click()
    players_import(laptop, PLAYERS_CSV_WITH_A_BAD_ROW)
    expect(laptop.locator("body")).to_contain_text("Nothing was imported: the file has 2 problems")
    problems = laptop.locator("table", has_text="Problem")
    expect(problems.get_by_role("row", name="3 the name is missing")).to_be_visible()
    expect(
        problems.get_by_role("row", name="4 “not-an-email” is not an email address")
    ).to_be_visible()
    players_import(laptop, PLAYERS_CSV)
    expect(laptop.locator("body")).to_contain_text("12")

    players_check_in(laptop, hub, 12)

    # Seating round 1 (R12.2: 12 players sit at three tables of four) and publishing it
    round_seat(laptop, hub)
    expect(laptop.locator("body")).to_contain_text("Table 3")
    expect(laptop.locator("body")).not_to_contain_text("Table 4")
    round_publish(laptop)

    # Printing: a card per table with its QR code and link, and a score sheet per table
    round_page = laptop.url.rstrip("/")
    laptop.goto(f"{round_page}/print/cards")
    laptop.emulate_media(media="print")
    expect(laptop.locator("svg")).to_have_count(3)
    expect(laptop.locator("header.site-header")).to_be_hidden()
    expect(laptop.locator("body")).to_contain_text("/t/")
    laptop.goto(f"{round_page}/print/sheets")
    expect(laptop.locator("body")).to_contain_text("two threes and one four")
    expect(laptop.locator("body")).to_contain_text("four fours")
