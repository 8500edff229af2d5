"""The director re-seats a table from its page (R12.4) at 1280x800: Ann and Ben
played games 1 and 2 in each other's seats; game 1 is kept (its results follow the seats) and
game 2 replayed. The page shows the new seats and totals, and game 1's history says why.
Screenshots go to $SCREENSHOTS (default /tmp/kalooki-shots)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.standings import standings_compute
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import sign_in
from tests.scoring.playing import director_of, play, published_round, tournament_with

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))


def test_a_table_is_reseated_with_game_1_kept_and_game_2_replayed(live_server, laptop) -> None:
    tournament = tournament_with(5)
    director_of(tournament, "dana")
    table = published_round(tournament).tables.get()
    play(table, 1, winner=0, points=7)
    play(table, 2, winner=1, points=9)
    seats = list(table.seats.order_by("position").select_related("entry__player"))
    first, second = seats[0].entry, seats[1].entry
    game_1 = dict(table.deals.get(number=1).results.values_list("entry_id", "points"))
    page: Page = laptop
    sign_in(page, live_server.url, "dana")
    page.goto(f"{live_server.url}/director/{tournament.slug}/rounds/1/tables/1/")

    form = page.locator("#reseat")
    form.get_by_label("Seat 1", exact=True).select_option(str(second.pk))
    form.get_by_label("Seat 2", exact=True).select_option(str(first.pk))
    form.locator("[data-game='1']").get_by_label("Keep it as played").check()
    form.locator("[data-game='2']").get_by_label("Replay it").check()
    form.get_by_label("What was decided").fill(f"{first.name} and {second.name} swap back")
    form.get_by_role("button", name="Re-seat table 1").click()

    expect(page.locator(".messages")).to_contain_text("Kept as played: 1. To be replayed: 2.")
    rows = page.locator("section[aria-labelledby=seats-title] tbody tr")
    expect(rows.nth(0)).to_contain_text(second.name)
    expect(rows.nth(1)).to_contain_text(first.name)
    # The standings: game 1's seat results follow the players now in those seats; game 2 is
    # void, so it scores nothing until it is replayed.
    totals = {
        row["entry"]: row["total"] for row in standings_compute(tournament=tournament)["players"]
    }
    assert totals[second.pk] == game_1[first.pk] and totals[first.pk] == game_1[second.pk]
    expect(rows.nth(0).locator("td").nth(2)).to_have_text(str(game_1[first.pk]))
    # The history: game 1's second version says why; game 2's attempt is void.
    game = page.locator("#game-1")
    game.locator("summary").click()
    expect(game).to_contain_text("Every version (2)")
    expect(game).to_contain_text("kept as played")
    expect(page.locator("#games")).to_contain_text("attempt 1: void")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "director-reseat-1280x800.png"), full_page=True)
    assert_accessible(page)
