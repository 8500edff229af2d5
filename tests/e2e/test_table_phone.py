"""The table's page on tournament day, on a 390×844 touch phone, with one thumb.

Ann keeps score at table 1 of the Spring Open and enters a whole set: games of points, games
tapped on the card keypad (a pair by a long press, three of a kind with ×3), a warning she
confirms, a void game, a down-and-out, and a correction. Every tap is counted; on every game the
Save button, this game's scores and the set's totals are on the screen without scrolling, and so
is every seat's line. The figures (taps per game, page height per game) are what
bench/bench_table.py prints: it runs this test with TABLE_BENCH_FIGURES set to a file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tables.models import Table
from tests.e2e.steps import Game, Hand, engine_totals, saved
from tests.scoring.playing import published_round, tournament_with

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORT_HEIGHT = 844
TARGET = 44  # px: the smallest a thumb's target may be
POINTS_BUDGET = 8  # taps, plus the digits, for a game entered as points
KEYPAD_OVERHEAD = 4  # taps beyond one per card, for a game tapped on the keypad
SHOTS = "/tmp/table-phone"


@dataclass
class Thumb:
    """The scorekeeper's thumb: every tap and every digit typed, counted."""

    phone: Page
    taps: int = 0
    digits: int = 0
    log: list[dict] = field(default_factory=list)

    def tap(self, target: Locator) -> None:
        target.tap()
        self.taps += 1

    def type(self, target: Locator, digits: str) -> None:
        self.tap(target)
        self.phone.keyboard.type(digits)
        self.digits += len(digits)

    def keys(self, digits: str) -> None:
        """Digits typed where the focus already is: it followed the last tap."""
        self.phone.keyboard.type(digits)
        self.digits += len(digits)

    def long_press(self, key: Locator) -> None:
        """One touch held down: the keypad adds a pair."""
        key.dispatch_event("pointerdown")
        self.phone.wait_for_timeout(650)
        key.dispatch_event("pointerup")
        self.taps += 1

    def start(self) -> None:
        self.taps = self.digits = 0


# Each hand: points (typed), or keypad keys ("K", "K*" a long press for a pair, "3×5" ×3 then 5).
SET = [
    ("keypad", Game(1, "Ann", {"Ben": Hand(keys=["K*", "10"]), "Cy": Hand(keys=["JK"]),
                               "Di": Hand(keys=["3×5"]), "Ed": Hand(keys=["Q", "2"])})),
    ("points", Game(2, "Ben", {"Ann": Hand(points=12), "Cy": Hand(points=31),
                               "Di": Hand(points=10), "Ed": Hand(points=7)})),
    ("void", Game(3, "", {})),
    ("points", Game(3, "Cy", {"Ann": Hand(points=14), "Ben": Hand(points=9),
                              "Di": Hand(points=22), "Ed": Hand(points=5)}, down_and_out=True)),
    ("warning", Game(4, "Di", {"Ann": Hand(points=12), "Cy": Hand(keys=["2×AB"]),
                               "Ben": Hand(keys=["2", "3", "4", "5", "6", "7"], calls=2),
                               "Ed": Hand(keys=["8"])},
                     warning="holds 6 cards with 2 calls")),
    ("points", Game(5, "Ed", {"Ann": Hand(points=3), "Ben": Hand(points=40),
                              "Cy": Hand(points=12), "Di": Hand(points=3)})),
    ("keypad", Game(6, "Ann", {"Ben": Hand(keys=["2×JK"]), "Cy": Hand(keys=["7"]),
                               "Di": Hand(keys=["10", "J", "Q"]), "Ed": Hand(keys=["3×9"])})),
    ("points", Game(7, "Ben", {"Ann": Hand(points=5), "Cy": Hand(points=15),
                               "Di": Hand(points=17), "Ed": Hand(points=10)})),
    ("keypad", Game(8, "Cy", {"Ann": Hand(keys=["2", "3"]), "Ben": Hand(keys=["3×Q"]),
                              "Di": Hand(keys=["JK"]), "Ed": Hand(keys=["6*"])})),
    ("points", Game(9, "Di", {"Ann": Hand(points=30), "Ben": Hand(points=15),
                              "Cy": Hand(points=40), "Ed": Hand(points=3)})),
]  # fmt: skip
WORDS = {"JK": "a joker", "AB": "a black ace", "AR": "a red ace", "K": "a king", "Q": "a queen",
         "J": "a jack", "10": "a ten", "9": "a nine", "8": "an eight", "7": "a seven",
         "6": "a six", "5": "a five", "4": "a four", "3": "a three", "2": "a two"}  # fmt: skip


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Spring Open")).tables.all()
    return table


def line(phone: Page, name: str) -> Locator:
    return phone.locator(f'fieldset[data-player="{name}"]')


def sheet(phone: Page) -> Locator:
    return phone.locator("section.sheet")


def cards_of(keys: list[str]) -> int:
    """How many cards a hand's keys add."""
    count = 0
    for key in keys:
        if key.endswith("*"):
            count += 2
        elif "×" in key:
            count += int(key.split("×")[0])
        else:
            count += 1
    return count


def tap_keys(thumb: Thumb, phone: Page, keys: list[str]) -> None:
    pad = sheet(phone)
    for key in keys:
        if key.endswith("*"):
            thumb.long_press(pad.get_by_role("button", name=f"Add {WORDS[key[:-1]]}", exact=True))
            continue
        if "×" in key:
            times, key = key.split("×")
            thumb.tap(pad.get_by_role("button", name=f"×{times}"))
        thumb.tap(pad.get_by_role("button", name=f"Add {WORDS[key]}", exact=True))


def whose_sheet(phone: Page) -> str:
    expect(sheet(phone)).to_be_visible()
    return sheet(phone).locator("h2").inner_text().removesuffix("’s cards")


def in_view(phone: Page, target: Locator) -> bool:
    box = target.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT_HEIGHT


def one_screen(phone: Page, figures: dict) -> None:
    """Save, this game's scores, the set's totals and every seat's line: all on the first screen,
    each line above the bar; and every target a thumb's size."""
    assert phone.evaluate("window.scrollY") == 0
    bar = phone.locator("[data-bar]").bounding_box()
    for target in (phone.locator(".save-button"), phone.locator(".bar-scores"),
                   phone.locator(".set-totals")):  # fmt: skip
        assert in_view(phone, target), target
    lines = phone.locator("fieldset[data-player]")
    last = lines.nth(lines.count() - 1).locator(".line-grid").bounding_box()
    assert last["y"] + last["height"] <= bar["y"], "a seat's line is under the bar"
    small = phone.evaluate(
        """() => Array.from(document.querySelectorAll(
            'form[data-entry-form] button:not([hidden]), form[data-entry-form] select,'
            + 'form[data-entry-form] input[type=number], .out-toggle:not(.none),'
            + 'form[data-entry-form] label.check'))
          .filter(n => n.offsetParent !== null)
          .map(n => [n.textContent.trim() || n.name, n.getBoundingClientRect()])
          .filter(([, r]) => r.height < 44 || r.width < 44).map(([t]) => t)"""
    )
    assert small == [], small
    figures["entry_height"] = round(last["y"] + last["height"] + (VIEWPORT_HEIGHT - bar["y"]))
    figures["page_height"] = phone.evaluate("document.documentElement.scrollHeight")


def play(thumb: Thumb, phone: Page, kind: str, game: Game) -> None:
    """Enter one game as a scorekeeper would, the fewest taps the page allows."""
    if kind == "void":
        thumb.tap(phone.get_by_label("Void game"))
        return
    thumb.tap(line(phone, game.out).get_by_label("Went out"))
    keyed = {name: hand for name, hand in game.hands.items() if hand.keys}
    while keyed:  # the keypad opened on the next seat: the hands follow, Next between them
        name = whose_sheet(phone)
        if name in keyed:
            tap_keys(thumb, phone, keyed.pop(name).keys)
        if keyed:  # on to the next seat (past a hand given as points, in a mixed game)
            thumb.tap(sheet(phone).get_by_role("button", name="Next ▸"))
    typed = any(hand.points is not None or hand.calls is not None for hand in game.hands.values())
    if typed and sheet(phone).is_visible():  # out of the way of the lines it covers
        thumb.tap(sheet(phone).get_by_role("button", name="Done"))
    for name, hand in game.hands.items():
        if hand.points is not None:
            thumb.type(line(phone, name).get_by_label("Points", exact=True), str(hand.points))
        if hand.calls is not None:
            thumb.tap(line(phone, name).get_by_role("button", name=f"More for {name}"))
            thumb.type(line(phone, name).get_by_label("Calls", exact=True), str(hand.calls))
    if game.down_and_out:
        thumb.tap(phone.get_by_label("Down and out"))


def save(thumb: Thumb, phone: Page, game: Game) -> None:
    button = phone.get_by_role("button", name=f"Save game {game.number}")
    if game.warning:
        thumb.tap(button)
        box = phone.locator("[data-warnings-box]")
        expect(box).to_contain_text(game.warning)
        expect(box).to_contain_text("R10.6")
        assert in_view(phone, box.get_by_label("Confirm anyway"))
        thumb.tap(box.get_by_label("Confirm anyway"))
    now = phone.locator("#now").inner_text()
    thumb.tap(button)  # the page moves on in place: no reload
    expect(phone.locator("#now")).not_to_have_text(now)


def engine_set() -> list[Game]:
    """The set as the rules engine reads it: keypad keys become the cards they add."""
    games = []
    for kind, game in SET:
        if kind == "void":
            continue
        hands = {}
        for name, hand in game.hands.items():
            cards = None
            if hand.keys:
                cards = " ".join(
                    " ".join([k[:-1]] * 2) if k.endswith("*")
                    else " ".join([k.split("×")[1]] * int(k.split("×")[0])) if "×" in k
                    else k
                    for k in hand.keys
                )  # fmt: skip
            hands[name] = Hand(cards=cards, points=hand.points, calls=hand.calls)
        games.append(Game(game.number, game.out, hands, game.down_and_out))
    return games


def page_totals(phone: Page) -> dict[str, int]:
    names = phone.locator(".set-totals th").all_inner_texts()
    totals = phone.locator(".set-totals td").all_inner_texts()
    return {name.split()[-1]: int(total) for name, total in zip(names, totals, strict=True)}


def test_a_whole_set_on_a_390_by_844_touch_phone_one_screen_per_game(
    live_server, new_page, table: Table
) -> None:
    phone: Page = new_page("phone")
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    os.makedirs(SHOTS, exist_ok=True)
    phone.goto(f"{live_server.url}/t/{table.access_token}/")
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    phone.get_by_label("Who is entering?").select_option(label="Ann")  # once: remembered
    figures: list[dict] = []
    thumb = Thumb(phone)
    for index, (kind, game) in enumerate(SET):
        expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
        game_figures = {"game": game.number, "kind": kind}
        one_screen(phone, game_figures)
        thumb.start()
        play(thumb, phone, kind, game)
        if kind in ("points", "keypad"):  # the game's scores as they will be saved, in the bar
            bar = phone.locator(".bar-scores .cell", has_text=game.out).locator("output")
            expect(bar).to_have_text("0")
            for name in game.hands:
                bar = phone.locator(".bar-scores .cell", has_text=name).locator("output")
                expect(bar).to_have_text(re.compile(r"^\d+$"))
        assert in_view(phone, phone.locator(".save-button"))  # never scrolled out of reach
        assert in_view(phone, phone.locator(".set-totals"))
        phone.screenshot(path=f"{SHOTS}/game-{index + 1}-{kind}.png")
        save(thumb, phone, game)
        expected = "is recorded as void" if kind == "void" else "is saved."
        expect(saved(phone)).to_contain_text(f"Game {game.number} {expected}")
        game_figures |= {"taps": thumb.taps, "digits": thumb.digits}
        cards = sum(cards_of(hand.keys) for hand in game.hands.values())
        game_figures["cards"] = cards
        if kind == "points":
            assert thumb.taps <= POINTS_BUDGET, game_figures
        if kind == "keypad":
            assert thumb.taps <= cards + KEYPAD_OVERHEAD, game_figures
        figures.append(game_figures)

    expect(phone.get_by_role("heading", name="Set finished")).to_be_visible()
    assert page_totals(phone) == engine_totals(engine_set())

    # A correction: game 1's Di held two fives, not three.
    phone.locator("#game-1 summary").click()
    phone.get_by_role("link", name="Correct game 1").click()
    thumb.start()
    thumb.tap(line(phone, "Di").get_by_role("button", name="Keypad for Di's cards"))
    thumb.tap(sheet(phone).get_by_role("button", name="Remove the last card"))
    thumb.tap(sheet(phone).get_by_role("button", name="Done"))
    thumb.type(phone.get_by_label("Why is it corrected?"), "Di held two fives")
    expect(phone.locator(".bar-scores .cell", has_text="Di").locator("output")).to_have_text("10")
    phone.screenshot(path=f"{SHOTS}/correction.png")
    with phone.expect_navigation():
        thumb.tap(phone.get_by_role("button", name="Save correction"))
    expect(saved(phone)).to_contain_text("Game 1 is corrected: this is version 2.")
    figures.append({"game": 1, "kind": "correction", "taps": thumb.taps, "digits": 0})
    deal = table.deals.get(number=1)
    assert deal.version == 2 and deal.revisions.count() == 2
    stored = {
        side["label"]: side["values"] for side in deal.revisions.get(version=2).entry["sides"]
    }
    assert stored["Di"]["cards"] == "5 5"  # suitless, as the keypad spelt it: no suit invented
    assert errors == []
    path = os.environ.get("TABLE_BENCH_FIGURES")
    if path:  # beside the other games' figures (tests/e2e/test_phone_day.py)
        kept = json.loads(Path(path).read_text()) if os.path.exists(path) else []
        with open(path, "w", encoding="utf-8") as out:
            json.dump(kept + [f | {"play": "kalooki"} for f in figures], out)
