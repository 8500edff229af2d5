"""The live leaderboard in Chromium: a result saved at a table shows on an open leaderboard
without a reload, and the projector pages through the players by itself.

Results are saved through the services, committed; the standings refresh runs on commit (tasks
run eagerly in tests, tests/conftest.py), as a Celery worker would run it in production.
"""

import pytest
from playwright.sync_api import Page, expect

from tests.scoring.playing import play, published_round, tournament_with

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.urls("tests.hall.urls"),
    pytest.mark.usefixtures("quick_leaderboard"),
]


def test_a_saved_result_appears_on_the_open_leaderboard_without_a_reload(
    live_server, phone: Page
) -> None:
    tournament = tournament_with(5, slug="live-open", is_published=True)
    [table] = published_round(tournament).tables.all()
    play(table, 1)
    ben = table.seats.get(position=2).entry  # 10 + seat 2 a game
    phone.goto(f"{live_server.url}/p/live-open/leaderboard")
    row = phone.locator(f"#entry-{ben.pk}")
    # Round 1 is being played: its points show as "this round" (no round is complete yet)
    expect(row.locator("td.round")).to_have_text("12 (1/9)")
    phone.evaluate("window.stillTheSamePage = true")

    play(table, 2)

    expect(row.locator("td.round")).to_have_text("24 (2/9)", timeout=10_000)
    expect(row.locator("td.games")).to_have_text("2")
    assert phone.evaluate("window.stillTheSamePage") is True  # the rows changed, not the page
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # fits the phone


def test_the_projector_pages_through_the_players_by_itself(live_server, laptop: Page) -> None:
    tournament = tournament_with(30, slug="live-hall", is_published=True)
    [first, *_] = published_round(tournament).tables.order_by("number")
    play(first, 1)
    laptop.goto(f"{live_server.url}/p/live-hall/projector")
    board = laptop.locator("table.projector-board tbody tr:visible")
    expect(laptop.locator("[data-page-label]")).to_have_text("Page 2 of 3", timeout=5_000)
    per_page = board.count()  # as many as the laptop's 800 pixels show: 12 at least
    assert per_page >= 12
    expect(laptop.locator("[data-page-label]")).to_have_text("Page 3 of 3", timeout=5_000)
    expect(board).to_have_count(30 - 2 * per_page)
    assert laptop.locator("nav, form, button:not(.switch)").count() == 0  # the display switch only
