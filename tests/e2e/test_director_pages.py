"""The director's pages at 1280x800 in Chromium: each with its heading, its favicon and
no request that fails, axe-clean; the set-up page keeping what was typed when another preset is
shown; a Hand and Foot night's dashboard naming both partners of each team.

Dana directs a Hand and Foot night: Ann & Cy against Ben & Di at table 1, Eve & Gus against
Flo & Hal at table 2, a hand entered at table 1. Screenshots go to $SCREENSHOTS (default
/tmp/kalooki-shots).
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, Response, expect

from tests.e2e.axe import assert_accessible, axe_findings
from tests.e2e.steps import sign_in
from tests.factories import StaffRoleFactory
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.test_other_games import HANDS, enter_hf

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))


@pytest.fixture
def night() -> str:
    tournament = game_tournament("hand_and_foot", name="Team Night", slug="night")
    StaffRoleFactory(tournament=tournament, user__username="dana")
    round = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"], ["Eve", "Flo", "Gus", "Hal"]])
    enter_hf(tournament, table_of(round), 1, HANDS[0])
    return tournament.slug


def failures(page: Page) -> list[str]:
    """Every response of 400 or more the page's requests get from now on (a favicon's too)."""
    failed: list[str] = []

    def seen(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("response", seen)
    return failed


PAGES = {  # the page, and its heading
    "": "Team Night",
    "rounds/": "Rounds",
    "rounds/1/": "Round 1",
    "rounds/1/dashboard": "Round 1 dashboard",
    "rounds/1/tables/1/": "Table 1",
    "rounds/1/print/cards": "Table cards · Team Night · Round 1",
    "rounds/1/print/sheets": "Score sheets · Team Night · Round 1",
    "rulings/": "Rulings",
    "players": "Teams",
    "edit": "Set-up of Team Night",
}


def test_every_director_page_has_its_heading_and_favicon_and_no_failed_request(
    live_server, night, laptop: Page
) -> None:
    sign_in(laptop, live_server.url, "dana")
    failed = failures(laptop)
    for path, heading in PAGES.items():
        laptop.goto(f"{live_server.url}/director/{night}/{path}")
        expect(laptop.locator("h1")).to_have_count(1)
        expect(laptop.locator("h1")).to_contain_text(heading)
        icon = laptop.evaluate(
            "fetch(document.querySelector('link[rel=icon]').href).then(r => r.status)"
        )
        assert icon == 200, path
        assert_accessible(laptop)
        every = axe_findings(laptop, impacts=("minor", "moderate", "serious", "critical"))
        assert [f for f in every if f[0] in ("empty-table-header", "page-has-heading-one")] == []
        name = path.strip("/").replace("/", "-") or "hub"
        laptop.screenshot(path=str(SHOTS / f"director-{name}-1280x800.png"), full_page=True)
    assert failed == []


def test_the_dashboard_names_both_partners_of_each_team(live_server, night, laptop: Page) -> None:
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/{night}/rounds/1/dashboard")
    rows = laptop.locator("[data-table]")
    expect(rows.nth(0)).to_contain_text("Ann & Cy (Ann & Cy), Ben & Di (Ben & Di)")
    expect(laptop.locator("body")).not_to_contain_text("first dealer")
    laptop.goto(f"{live_server.url}/director/{night}/rounds/1/tables/1/")
    hand = laptop.locator(".game-hands li")
    expect(hand.filter(has_text="went out")).to_have_count(1)  # HF5.2: one player, not a team


def test_showing_another_preset_keeps_what_was_typed_and_enter_saves(
    live_server, night, laptop: Page
) -> None:
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/new")
    laptop.get_by_label("Name", exact=True).fill("Club Night")
    laptop.get_by_label("Venue").fill("Mandeville")
    laptop.get_by_label("First day").fill("2026-05-02")
    laptop.get_by_label("Game and preset").select_option(label="Hand and Foot: club sheet")
    laptop.get_by_role("button", name="Show its settings").click()
    expect(laptop.get_by_label("Bye rule", exact=True)).to_be_visible()
    expect(laptop.get_by_label("Name", exact=True)).to_have_value("Club Night")
    expect(laptop.get_by_label("Venue")).to_have_value("Mandeville")
    expect(laptop.get_by_label("First day")).to_have_value("2026-05-02")
    expect(laptop.get_by_label("Last day")).to_have_value("")  # optional: a one-day event
    assert_accessible(laptop)
    laptop.screenshot(path=str(SHOTS / "director-set-up-1280x800.png"), full_page=True)
    laptop.get_by_label("Name", exact=True).press("Enter")  # the form's default: save
    expect(laptop.get_by_role("heading", name="Club Night")).to_be_visible()
    expect(laptop.locator("body")).to_contain_text("Hand and Foot")
