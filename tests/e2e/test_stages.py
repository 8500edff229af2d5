"""Stages in Chromium: Dana runs a 23-player Kalooki event with three qualifying
rounds and a final table of five. On the stages page a cut larger than the field is refused with
the reason; she plans the final (fresh scoring, seats drawn), makes the cut once the qualifying
rounds are complete, publishes and completes the final, and the public leaderboard lists the
finalists first under the final's line. Laptop 1280x800; axe-core checks each state; screenshots
go to $SCREENSHOTS (default /tmp/kalooki-shots).

The qualifying rounds' games are stored by factories and the final's entered through the
services (the phone's entry has its own browser tests): the browser drives the director's stage
steps and the final's round.
"""

import os
from pathlib import Path

import pytest
from django.db import transaction
from playwright.sync_api import Page, expect

from scoring.standings import standings_compute
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import round_step, sign_in
from tests.scoring.playing import director_of, play, tournament_with
from tests.scoring.stage_play import fill_qualifying
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))


@pytest.fixture
def open_() -> Tournament:
    tournament = tournament_with(23, name="Kingston Open", slug="open", is_published=True)
    director_of(tournament, "dana")
    return tournament


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"stages-{name}.png"), full_page=True)


def plan_final(page: Page, size: str) -> None:
    page.get_by_label("Qualifying rounds").fill("3")
    page.get_by_label("Then").select_option(label="Final table")
    page.get_by_label("Cut to").fill(size)
    page.get_by_label("Scoring after the cut").select_option(label="Fresh")
    page.get_by_label("Seats after the cut").select_option(label="Drawn")
    page.get_by_role("button", name="Save the stages").click()


def test_dana_cuts_to_a_final_table_and_the_finalists_lead_the_standings(
    open_, laptop, live_server, quick_leaderboard
) -> None:
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/open/stages/")
    plan_final(laptop, "24")
    expect(laptop.locator(".messages")).to_contain_text(
        "Nothing was changed: Stage 2: a cut to 24 is larger than the field (23 entered)"
    )
    plan_final(laptop, "5")
    expect(laptop.locator(".messages")).to_contain_text("The stages are set.")
    final_line = laptop.locator("tr[data-stage='2']")
    expect(final_line).to_contain_text("Round 4")
    expect(final_line).to_contain_text("Fresh: everyone starts from zero")
    expect(final_line).to_contain_text("Seats drawn at random.")
    assert_accessible(laptop)
    shot(laptop, "planned")

    fill_qualifying(open_)
    qualifying = standings_compute(tournament=open_)["players"]
    top = [row["player"] for row in qualifying[:5]]

    laptop.reload()
    final_line.get_by_label("Seed of the draw").fill("5")
    final_line.get_by_role("button", name="Make the cut to the final table").click()
    expect(laptop.locator(".messages")).to_contain_text("The cut to the final table is made")
    expect(laptop.locator("h1")).to_contain_text("Round 4")
    seated = laptop.locator("#table-1 li")
    expect(seated).to_have_count(5)
    texts = seated.all_inner_texts()
    assert all(any(name in text for text in texts) for name in top)
    round_step(laptop, "publish", "Published")
    assert_accessible(laptop)
    shot(laptop, "final-seated")

    table = Round.objects.get(tournament=open_, number=4).tables.get()
    with transaction.atomic():
        for number in range(1, 10):
            play(table, number, winner=(number * 2) % 5)
    laptop.reload()
    round_step(laptop, "complete", "Complete")

    laptop.goto(f"{live_server.url}/p/open/leaderboard")
    stages = laptop.locator("section.stages")
    expect(stages).to_contain_text("Final table (round 4)")
    rows = laptop.locator("table.leaderboard tbody tr")
    expect(rows.nth(0)).to_be_visible()
    first_five = [rows.nth(i).locator("td.player a").inner_text() for i in range(5)]
    assert sorted(first_five) == sorted(top)
    places = [rows.nth(i).locator("td.place").inner_text().strip() for i in range(6)]
    assert places == ["1", "2", "3", "4", "5", "6"]
    assert_accessible(laptop)
    shot(laptop, "final-standings")
