"""The venue on the day, in Chromium: the director's control room and the live hall.

Dana directs the Open: fifteen players at three tables of five in round 1, published. The
director works on a laptop (1280x800), the scorekeepers on phones (390x844, touch), the hall
on projectors (1024x768, 1920x1080 and 4K). Screenshots go to $SCREENSHOTS (default
/tmp/kalooki-shots) for a person to look at; axe-core (`tests/e2e/axe.py`) checks each page state
for serious or critical accessibility findings.
"""

import os
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from config.caches import forget_process_caches
from scoring.clock import clock_start
from scoring.models import DirectorCall
from scoring.rounds import round_complete, round_lock, round_publish
from scoring.services import HandInput, result_record
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import sign_in
from tests.scoring.playing import (
    director_of,
    play,
    play_set,
    published_round,
    seated_round,
    tables_of,
    tournament_with,
)
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_hall")]

SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))
SCREENS = {"xga": (1024, 768), "full-hd": (1920, 1080), "4k": (3840, 2160)}


@pytest.fixture
def quick_hall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every live part asks again each second, the dashboard too; nothing is remembered from
    an earlier test (the tournaments' public facts are cached by address)."""
    cache.clear()
    forget_process_caches()
    monkeypatch.setattr("director.round_views.DASHBOARD_REFRESH_SECONDS", 1)
    monkeypatch.setattr("hall.views.LIVE_SECONDS", 1)
    monkeypatch.setattr("hall.seating_views.LIVE_SECONDS", 1)


@pytest.fixture
def open_() -> Tournament:
    tournament = tournament_with(15, name="Kingston Open", slug="open", is_published=True)
    director_of(tournament, "dana")
    published_round(tournament)
    return Tournament.objects.get(pk=tournament.pk)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def every_shown_row_is_on_screen(page: Page, height: int) -> int:
    rows = page.locator("table.projector-board tbody tr:visible")
    count = rows.count()
    assert count > 0
    for index in range(count):
        box = rows.nth(index).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height + 0.5, (index, box)
    return count


def flagged(table) -> None:
    ids = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    hands = [HandInput(ids[0], went_out=True, cards="", calls=0)]
    hands += [HandInput(ids[1], cards="JK AS 2C", calls=0)]
    hands += [HandInput(entry, points=9) for entry in ids[2:]]
    result_record(table=table, number=1, hands=hands, via="test", confirm_warnings=True)


# --- the control room ----------------------------------------------------------------------------


def test_a_call_from_a_phone_shows_on_the_dashboard_and_the_director_answers_it(
    live_server, open_, laptop: Page, phone: Page
) -> None:
    one, two, three = tables_of(open_.rounds.get())
    play_set(one, games=4)
    play_set(two, games=3)
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/open/rounds/1/dashboard")
    laptop.get_by_label("Minutes for the set").fill("100")
    laptop.get_by_role("button", name="Start the clock").click()
    expect(laptop.locator(".messages")).to_contain_text("Round 1's clock is started")
    expect(laptop.locator("[data-missing='3']")).to_contain_text("Table 3")

    phone.goto(f"{live_server.url}/t/{three.access_token}/")
    expect(phone.locator(".table-live [data-clock]")).to_contain_text("left")
    phone.get_by_role("button", name="Call the director").click()
    expect(phone.locator(".call-sent")).to_contain_text("The director is called")
    shot(phone, "table-page-phone-390x844")
    assert_accessible(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    call = laptop.locator("[data-call='3']")  # the dashboard was not reloaded
    expect(call).to_contain_text("Table 3", timeout=5_000)
    expect(call).to_contain_text("waiting")
    shot(laptop, "dashboard-1280x800")
    assert_accessible(laptop)
    call.get_by_role("button", name="Answer").click()
    expect(laptop.locator(".calls")).to_contain_text("No table is calling")
    assert DirectorCall.objects.get().answered_by.username == "dana"


def test_the_director_clears_a_flag_and_enters_a_game_from_the_paper_sheet(
    live_server, open_, laptop: Page
) -> None:
    table = tables_of(open_.rounds.get())[0]
    flagged(table)
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/open/rounds/1/dashboard")
    laptop.locator("tr[data-table='1']").get_by_role("link", name="1", exact=True).click()
    expect(laptop.get_by_role("heading", name="Table 1", exact=False).first).to_be_visible()
    shot(laptop, "director-table-1280x800")
    assert_accessible(laptop)
    laptop.get_by_label("Why it is right").fill("Counted the hand again: right.")
    laptop.get_by_role("button", name="Clear the flag").click()
    expect(laptop.locator(".review")).to_contain_text("Flag cleared by dana")

    seats = list(table.seats.order_by("position"))
    enter = laptop.locator("#enter")
    enter.locator(f"input[name=went_out][value='{seats[0].entry_id}']").check()
    for seat in seats[1:]:
        enter.locator(f"input[name='p{seat.position}-points']").fill("15")
    enter.get_by_role("button", name="Save game 2").click()
    expect(laptop.locator(".messages")).to_contain_text("entered by you from the paper score sheet")
    expect(laptop.locator("#game-2")).to_contain_text("director dana")


def test_the_tournament_status_shows_on_the_public_pages(live_server, laptop: Page) -> None:
    tournament = tournament_with(5, name="Cup", slug="cup", is_published=True)
    director_of(tournament, "dana")
    [table] = tables_of(published_round(tournament))
    play_set(table)
    round_lock(round=round_complete(round=table.round, by=None), by=None)
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/cup/")
    finish = laptop.locator("form.status-finished")
    finish.get_by_role("checkbox").check()
    finish.get_by_role("button", name="Finish").click()
    expect(laptop.locator(".messages")).to_contain_text("Cup is finished")
    laptop.goto(f"{live_server.url}/p/cup/")
    expect(laptop.locator("[data-tournament-status]")).to_have_text("Finished")


def test_the_print_page_warns_of_links_no_phone_can_open(live_server, open_, laptop) -> None:
    sign_in(laptop, live_server.url, "dana")
    laptop.goto(f"{live_server.url}/director/open/rounds/1/print/cards")
    expect(laptop.get_by_role("alert")).to_contain_text("will not open on the players' phones")


# --- the hall ------------------------------------------------------------------------------------


def test_the_home_player_and_table_pages_update_by_themselves(
    live_server, open_, phone: Page
) -> None:
    table = tables_of(open_.rounds.get())[0]
    ben = table.seats.get(position=2)
    phone.goto(f"{live_server.url}/p/open/tables/1/1")
    phone.evaluate("window.stillTheSamePage = true")
    expect(phone.locator(".live")).to_contain_text("0 of 9 games scored")
    play(table, 1)
    expect(phone.locator(".live")).to_contain_text("1 of 9 games scored", timeout=8_000)
    assert phone.evaluate("window.stillTheSamePage") is True

    phone.goto(f"{live_server.url}/p/open/players/{ben.entry_id}")
    expect(phone.locator("#seat-now")).to_contain_text("seat 2")
    phone.evaluate("window.stillTheSamePage = true")
    play(table, 2)
    expect(phone.locator(".live")).to_contain_text("2 played", timeout=8_000)
    assert phone.evaluate("window.stillTheSamePage") is True
    assert_accessible(phone)

    phone.goto(f"{live_server.url}/")
    phone.get_by_role("link", name="Kingston Open").click()
    expect(phone.locator("[data-tournament-status]")).to_have_text("Running")
    assert_accessible(phone)


def test_find_your_seat_on_a_phone(live_server, open_, phone: Page) -> None:
    phone.goto(f"{live_server.url}/p/open/")
    phone.get_by_role("link", name="Find your seat").first.click()
    expect(phone.locator("table.seating-board tbody tr")).to_have_count(15)
    shot(phone, "seating-phone-390x844")
    assert_accessible(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("screen", SCREENS)
def test_the_projectors_show_every_row_of_each_page(live_server, browser, screen: str) -> None:
    tournament = tournament_with(40, name="Jamaica National Kalooki Open", slug="big")
    Tournament.objects.filter(pk=tournament.pk).update(is_published=True)
    round = round_publish(round=seated_round(tournament), by=None)
    for table in tables_of(round):
        play_set(table, games=2)
    clock_start(round=round, minutes=120, by=None)
    width, height = SCREENS[screen]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        for path, name in [("projector", "projector"), ("seating/projector", "seating")]:
            page.goto(f"{live_server.url}/p/big/{path}")
            expect(page.locator("[data-page-label]")).to_contain_text("Page 1 of")
            page.wait_for_timeout(300)
            shot(page, f"{name}-{width}x{height}")
            shown = every_shown_row_is_on_screen(page, height)
            assert shown >= 12, (name, screen, shown)
            assert page.evaluate("document.documentElement.scrollHeight") <= height
            shot(page, f"{name}-{width}x{height}")
            if screen == "xga":
                assert_accessible(page)
    finally:
        context.close()


def test_a_slow_table_does_not_lead_the_leaderboard_mid_round(live_server, phone) -> None:
    tournament = tournament_with(10, slug="league", is_published=True, rounds_planned=2)
    one, two = tables_of(published_round(tournament))
    play_set(one, games=8, points=30)  # the fast table: 8 games, many points
    play_set(two, games=2, points=1)  # the slow table: 2 games, few points so far
    phone.goto(f"{live_server.url}/p/league/leaderboard")
    first = phone.locator("table.leaderboard tbody tr").first
    expect(first.locator("td.round")).to_contain_text("(8/9)")
