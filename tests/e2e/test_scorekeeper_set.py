"""A scorekeeper enters a whole nine-game set on the table's page, on a phone, in Chromium.

Ann, Ben, Cy, Di and Ed play table 1 of the Spring Open; Ann keeps score on the table's link.
Along the way a game is void and replayed (R9.2), one ends down and out (R8.3), one raises a
warning that Ann confirms (R10.6), one has an overcall (R6.3), and game 1 is corrected. The totals
the page shows must equal the rules engine's own sums of the same entries; then Cy signs off.
"""

import pytest
from playwright.sync_api import Page, expect

from tables.models import Table
from tests.e2e.steps import (
    Game,
    Hand,
    engine_totals,
    enter,
    fill_hand,
    row,
    save,
    saved,
    sign_off,
    table_open,
)
from tests.scoring.playing import published_round, tournament_with

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_WIDTH = 390


SET = [
    Game(1, "Ann", {"Ben": Hand("KH 5C"), "Cy": Hand("JK AS 2D"), "Di": Hand(points=10),
                    "Ed": Hand("AH 3S 4S")}),
    Game(2, "Ben", {"Ann": Hand(keys=["a king", "a queen", "a two"]), "Cy": Hand(points=31),
                    "Di": Hand("9H 9D"), "Ed": Hand("10S")}),
    Game(3, "Cy", {"Ann": Hand("5H 6H"), "Ben": Hand("JK"), "Di": Hand("KS KC"),
                   "Ed": Hand(points=7, failed_come_downs=1)}, down_and_out=True),
    Game(4, "Di", {"Ann": Hand(points=12), "Ben": Hand("2H 3H 4H 5H 6H 7H", calls=2),
                   "Cy": Hand("AS AC"), "Ed": Hand("8D")},
         warning="Ben holds 6 cards with 2 calls"),  # 14 if he never came down, 4 if he did
    Game(5, "Ed", {"Ann": Hand("QS"), "Ben": Hand(points=40), "Cy": Hand("4C 4D 4H"),
                   "Di": Hand(points=3)}),
    Game(6, "Ann", {"Ben": Hand("JK JK"), "Cy": Hand("7C"), "Di": Hand("10H JH QH"),
                    "Ed": Hand(points=22)}),
    Game(7, "Ben", {"Ann": Hand(points=5), "Cy": Hand("AD", calls=4, overcall_penalty=True),
                    "Di": Hand("9S 8S"), "Ed": Hand("KD")}),
    Game(8, "Cy", {"Ann": Hand("2C 3C"), "Ben": Hand(points=14), "Di": Hand("JK"),
                   "Ed": Hand("6S 6D")}),
    Game(9, "Di", {"Ann": Hand(points=60), "Ben": Hand("AS"), "Cy": Hand("KH QH JH 10H"),
                   "Ed": Hand("3D")}),
]  # fmt: skip
# Game 1 is corrected: Di's 10 points were two queens.
CORRECTED_DI = Hand("QH QD")


def bar_score(phone: Page, name: str):
    """A player's score for the game being entered, in the bar at the bottom."""
    return phone.locator(".bar-scores .cell", has_text=name).locator("output")


def fits_the_phone(phone: Page) -> None:
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH


def page_totals(phone: Page) -> dict[str, int]:
    seats = phone.locator(".seat-list li")
    names = [seats.nth(i).locator(".who").inner_text().split()[0] for i in range(seats.count())]
    totals = [int(text) for text in phone.locator("table.results tfoot td").all_inner_texts()]
    listed = [int(text) for text in phone.locator(".seat-list .total").all_inner_texts()]
    assert totals == listed  # the seat list and the results table agree
    return dict(zip(names, totals, strict=True))


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Spring Open")).tables.all()
    return table


def test_a_scorekeeper_enters_a_whole_set_on_a_phone_and_signs_it_off(
    live_server, phone: Page, table: Table
) -> None:
    script_errors: list[str] = []
    phone.on("pageerror", lambda error: script_errors.append(str(error)))
    table_open(phone, f"{live_server.url}/t/{table.access_token}/", "Ann")

    # Game 1, with the live check: Cy's score shows before anything is saved.
    game = SET[0]
    row(phone, game.out).get_by_label("Went out").check()
    for name, hand in game.hands.items():
        fill_hand(phone, name, hand)
    expect(bar_score(phone, "Cy")).to_have_text("67")  # JK 50 + AS 15 + 2, in the bar
    expect(row(phone, "Cy").locator("[data-note]")).to_contain_text("= 50 + 15 + 2 = 67 (R8.2)")
    save(phone, "Save game 1")
    expect(saved(phone)).to_contain_text("Game 1 is saved.")

    # Game 2 is void: the stock ran out twice. Same dealer, same game (R9.2).
    dealer = phone.locator("#now strong").first.inner_text()
    phone.get_by_label("Void game").check()
    save(phone, "Save game 2")
    expect(saved(phone)).to_contain_text("Game 2 is recorded as void")
    expect(phone.get_by_role("heading", name="Now: game 2 of 9, attempt 2")).to_be_visible()
    assert phone.locator("#now strong").first.inner_text() == dealer

    # Game 2 again, Ann's cards tapped on the keypad: a king, a queen and a two.
    row(phone, "Ann").get_by_role("button", name="Keypad for Ann's cards").click()
    fits_the_phone(phone)
    enter(phone, SET[1])
    assert SET[1].hands["Ann"].cards == "K Q 2"  # suitless: the keypad invents no suit

    for game in SET[2:5]:  # a down-and-out (3), a confirmed warning (4), and game 5
        enter(phone, game)
    expect(phone.locator("table.results")).to_contain_text("flagged")

    # Game 1 is corrected: Di's 10 points were two queens.
    phone.locator("#game-1 summary").click()
    phone.get_by_role("link", name="Correct game 1").click()
    expect(phone.get_by_role("heading", name="Correct game 1")).to_be_visible()
    expect(row(phone, "Cy").get_by_label("Cards left", exact=True)).to_have_value("JK AS 2D")
    fill_hand(phone, "Di", CORRECTED_DI)
    phone.get_by_label("Why is it corrected?").fill("Di's cards were two queens, not 10 points")
    save(phone, "Save correction")
    expect(saved(phone)).to_contain_text("Game 1 is corrected: this is version 2.")
    history = phone.locator("#game-1")
    history.locator("summary").click()
    expect(history).to_contain_text("Version 1 · Superseded · table 1 link · Ann")
    expect(history).to_contain_text("Di: cards – → QH QD, points 10 → –, score 10 → 20")
    expect(history).to_contain_text("Why: Di's cards were two queens, not 10 points")
    SET[0].hands["Di"] = CORRECTED_DI

    for game in SET[5:]:
        enter(phone, game)

    expect(phone.get_by_role("heading", name="Set finished")).to_be_visible()
    assert page_totals(phone) == engine_totals(SET)
    fits_the_phone(phone)

    sign_off(phone, "Cy")
    expect(phone.get_by_role("link", name="Correct game 1")).to_have_count(0)
    expect(phone.locator("form.result-form")).to_have_count(0)
    assert page_totals(phone) == engine_totals(SET)
    assert script_errors == []
