"""A director runs the start of a tournament in Chromium: set-up, CSV import, check-in, seating,
publishing and printing (issue 4's walk-through)."""

import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_rule_check import sign_in
from tests.factories import StaffRoleFactory

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS_CSV_WITH_A_BAD_ROW = """name,club,email
Marcia Campbell,Half Way Tree,marcia@example.org
,Portmore,
Delroy Brown,Portmore,not-an-email
"""
PLAYERS_CSV = "name,club\n" + "\n".join(
    f"{name},{club}"
    for name, club in [
        ("Marcia Campbell", "Half Way Tree"),
        ("Delroy Brown", "Portmore"),
        ("Sonia Williams", "Portmore"),
        ("Errol Thompson", "Mandeville"),
        ("Paulette Reid", "Mandeville"),
        ("Winston Clarke", "Montego Bay"),
        ("Hyacinth Morgan", "Montego Bay"),
        ("Clive Henry", "Spanish Town"),
        ("Beverley Grant", "Spanish Town"),
        ("Lloyd Francis", "Ocho Rios"),
        ("Yvonne Stewart", "Ocho Rios"),
        ("Neville Walker", "May Pen"),
    ]
)


def test_a_director_sets_up_imports_checks_in_seats_publishes_and_prints(
    live_server, laptop: Page
) -> None:
    StaffRoleFactory(user__username="dana")  # Dana already directs last year's event
    base = live_server.url
    sign_in(laptop, base, "dana")

    # Set-up
    laptop.goto(f"{base}/director/new")
    laptop.get_by_label("Name").fill("Spring Open")
    today = datetime.date(2026, 11, 21).isoformat()
    laptop.get_by_label("First day").fill(today)
    laptop.get_by_label("Last day").fill(today)
    laptop.get_by_label("Number of rounds").fill("2")
    laptop.get_by_role("button", name="Create tournament").click()
    expect(laptop.get_by_role("heading", name="Spring Open")).to_be_visible()
    hub = laptop.url

    # CSV import: every bad row is reported by line, and nothing is imported until it is clean
    laptop.get_by_role("link", name="Import a CSV").click()
    laptop.get_by_label("or paste the rows").fill(PLAYERS_CSV_WITH_A_BAD_ROW)
    laptop.get_by_role("button", name="Check and import").click()
    expect(laptop.locator("body")).to_contain_text("Nothing was imported: the file has 2 problems")
    problems = laptop.locator("table", has_text="Problem")
    expect(problems.get_by_role("row", name="3 the name is missing")).to_be_visible()
    expect(
        problems.get_by_role("row", name="4 “not-an-email” is not an email address")
    ).to_be_visible()
    laptop.get_by_label("or paste the rows").fill(PLAYERS_CSV)
    laptop.get_by_role("button", name="Check and import").click()
    expect(laptop.locator("body")).to_contain_text("12")

    # Check-in
    laptop.goto(hub)
    laptop.get_by_role("link", name="Players and check-in").click()
    laptop.get_by_role("link", name="Check in all 12 registered").click()
    laptop.get_by_role("button", name="Check in 12 players").click()
    expect(laptop.locator("body")).to_contain_text("Checked in")

    # Seating round 1 (R12.2: 12 players sit at three tables of four) and publishing it
    laptop.goto(hub)
    laptop.get_by_role("link", name="Rounds").first.click()
    laptop.get_by_role("button", name="Add the next round").click()
    laptop.get_by_role("button", name="Seat players").click()
    expect(laptop.locator("body")).to_contain_text("Table 3")
    expect(laptop.locator("body")).not_to_contain_text("Table 4")
    publish = laptop.locator("form.step-publish")
    publish.get_by_role("checkbox").check()
    publish.get_by_role("button").click()
    expect(laptop.locator("body")).to_contain_text("Published")

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
