"""The table's page for everyone: axe-core over every state of it, and the whole flow from a
keyboard alone.

The states: the form as it opens, the card keypad open, a line's "more" open, the problems shown
after Save, the warnings to confirm, a correction, the finished set with its sign-off. (The
draft restored, a result waiting for the network and two results to choose between are checked
in test_table_offline.py, where they happen.) axe-core fails the test on a serious or critical
finding.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tables.models import Table
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import saved
from tests.entry.test_other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import play_set, published_round, tournament_with

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Spring Open")).tables.all()
    return table


def line(phone: Page, name: str):
    return phone.locator(f'fieldset[data-player="{name}"]')


def test_every_state_of_the_table_page_passes_axe(live_server, phone: Page, table: Table):
    phone.goto(f"{live_server.url}/t/{table.access_token}/")
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    assert_accessible(phone)  # as it opens

    line(phone, "Ann").get_by_label("Went out").check()
    sheet = phone.get_by_role("dialog")
    expect(sheet).to_be_visible()
    sheet.get_by_role("button", name="Add a king").click()
    sheet.get_by_role("button", name="×2").click()
    assert_accessible(phone)  # the keypad open, ×2 pressed
    sheet.get_by_role("button", name="Done").click()

    line(phone, "Ben").get_by_role("button", name="More for Ben").click()
    expect(line(phone, "Ben").get_by_label("Calls", exact=True)).to_be_visible()
    assert_accessible(phone)  # a line's more open

    phone.get_by_label("Who is entering?").select_option(label="Ann")
    phone.get_by_role("button", name="Save game 1").click()  # four hands missing
    expect(phone.locator("[data-bar-problems]")).to_contain_text("did not go out")
    expect(phone.locator("[data-bar-problems]")).to_contain_text("(R8.2)")
    expect(saved(phone)).to_contain_text("Game 1 is not saved: fix the marked fields.")
    assert_accessible(phone)  # the problems shown

    for name, points in {"Ben": 6, "Cy": 31, "Di": 10, "Ed": 7}.items():
        line(phone, name).get_by_label("Points", exact=True).fill(str(points))
    line(phone, "Ben").get_by_label("Cards left").fill("2 3 4 5 6 7")
    line(phone, "Ben").get_by_label("Points", exact=True).fill("")
    line(phone, "Ben").get_by_label("Calls", exact=True).fill("2")
    phone.get_by_role("button", name="Save game 1").click()
    expect(phone.locator("[data-warnings-box]")).to_contain_text("R10.6")
    assert_accessible(phone)  # the warnings to confirm
    phone.locator("[data-warnings-box]").get_by_label("Confirm anyway").check()
    phone.get_by_role("button", name="Save game 1").click()  # saved in place, no reload
    expect(saved(phone)).to_contain_text("Game 1 is saved.")
    expect(phone.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()
    assert_accessible(phone)  # saved, the next game open

    phone.goto(f"{live_server.url}/t/{table.access_token}/games/1/correct")
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    assert_accessible(phone)  # a correction

    play_set(table, games=8)  # games 2 to 9
    phone.goto(f"{live_server.url}/t/{table.access_token}/")
    expect(phone.get_by_role("heading", name="Set finished")).to_be_visible()
    assert_accessible(phone)  # the finished set, to sign off


def focus(page: Page, selector: str, *, most: int = 80) -> None:
    """Press Tab until the element matching `selector` has the focus."""
    for _ in range(most):
        if page.evaluate(f"() => document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_game_is_entered_and_saved_from_the_keyboard_alone(
    live_server, laptop: Page, table: Table
) -> None:
    page = laptop
    page.goto(f"{live_server.url}/t/{table.access_token}/")
    expect(page.locator("form[data-enhanced=yes]")).to_be_visible()
    seats = {s.entry.player.name: s for s in table.seats.select_related("entry__player")}
    focus(page, "#id_who")
    page.keyboard.press("ArrowDown")  # the first name
    who = page.locator("#id_who").input_value()
    assert who  # someone is entering
    ann = seats["Ann"]
    focus(page, 'input[name="went_out"]')  # the group is one stop; arrows choose in it
    page.keyboard.press("Space")
    for _ in range(len(seats)):
        if page.evaluate(f"document.activeElement.value === '{ann.entry_id}'"):
            break
        page.keyboard.press("ArrowDown")
    expect(line(page, "Ann").get_by_label("Went out")).to_be_checked()
    expect(page.get_by_role("dialog")).to_be_hidden()  # a key press opens no sheet by itself
    points = {"Cy": "31", "Di": "10", "Ed": "7"}
    for name, value in points.items():
        focus(page, f'input[name="p{seats[name].position}-points"]')
        page.keyboard.type(value)
    focus(page, '[aria-label="Keypad for Ben\'s cards"]')
    page.keyboard.press("Enter")  # the keypad, its title focused
    expect(page.get_by_role("dialog", name="Ben’s cards")).to_be_visible()
    focus(page, '[aria-label="Add a king"]')
    page.keyboard.press("Enter")
    focus(page, '[aria-label="Add a two"]')
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog")).to_contain_text("2 cards · 12 points")
    page.keyboard.press("Escape")  # closed, the focus back on Ben's keypad button
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Keypad for Ben's cards"
    )
    focus(page, ".save-button")
    page.keyboard.press("Enter")  # saved in place, no reload
    expect(saved(page)).to_contain_text("Game 1 is saved.")
    expect(page.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()
    hands = {r.entry.player.name: r.points for r in table.deals.get(number=1).results.all()}
    assert hands == {"Ann": 0, "Ben": 12, "Cy": 31, "Di": 10, "Ed": 7}


@pytest.mark.parametrize(
    ("game", "names"),
    [("parcellus", ["Ann", "Ben", "Cy"]), ("hand_and_foot", ["Ann", "Ben", "Cy", "Di"])],
)
def test_every_game_gets_the_same_page_within_the_phones_width(
    live_server, phone: Page, game: str, names: list[str]
) -> None:
    table = table_of(seated_by_hand(game_tournament(game, slug=game[:2]), [names]))
    phone.goto(f"{live_server.url}/t/{table.access_token}/")
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    phone.screenshot(path=f"/tmp/table-phone-{game}.png")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    save = phone.locator(".save-button").bounding_box()
    assert save["y"] + save["height"] <= 844  # Save on the first screen
    assert_accessible(phone)
    keypads = phone.get_by_role("button", name=re.compile("^Keypad for"))
    if keypads.count():  # Hand and Foot: each partner's cards on the same keypad sheet
        keypads.first.click()
        expect(phone.get_by_role("dialog")).to_be_visible()
        assert_accessible(phone)
