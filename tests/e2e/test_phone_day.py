"""The scorekeeper's phone on a real day, in Chromium at 390×844, touch: the page is
opened once and kept open.

- The director starts the round's clock, pauses it, and answers the table's call: the phone
  shows each within one refresh of its live part, no reload, and its clock stands still while
  paused; a Hand and Foot table turns to its warning 15 minutes before time (HF2.2).
- A Hand and Foot hand for two teams fits one screen with Save, in at most 12 taps and the
  digits; a Parcellus deal is counted too. The figures are what bench/bench_table.py prints
  (it runs these tests with TABLE_BENCH_FIGURES set to a file).
- Long names are never cut to a few letters; a 999-points error marks its field.
- Over plain http (no service worker) a result saved without the network is held on the
  phone, listed with the time it was kept, guarded by a warning before leaving, and sent once
  the network returns: the page moves on in place, and says when it was sent.
Each state is checked by axe-core and kept as a screenshot in /tmp/phone-day.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring.clock import clock_pause, clock_start
from scoring.control import director_call_answer
from scoring.models import ClockEvent, Deal, DirectorCall
from tables.models import Table
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import saved
from tests.e2e.test_table_phone import VIEWPORT_HEIGHT, Thumb, in_view
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import director_of

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = "/tmp/phone-day"
LIVE_EVERY = 10  # seconds between two asks of the live part (templates/entry/link.html)
LONG_NAMES = ["Beverley Grant", "Clive Henry", "Hyacinth Morgan", "Winston Clarke",
              "Yvonne Stewart"]  # fmt: skip
HF_TAP_BUDGET = 12  # taps, plus the digits, for a typical Hand and Foot hand


def shot(phone: Page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    phone.screenshot(path=f"{SHOTS}/{name}.png")


def open_phone(phone: Page, base: str, table: Table, who: str | None = None) -> None:
    phone.goto(f"{base}/t/{table.access_token}/")
    expect(phone.locator("html[data-table-ready=yes]")).to_be_attached()
    if who:
        phone.get_by_label("Who is entering?").select_option(label=who)


def kalooki_table(names: list[str]) -> Table:
    tournament = game_tournament("kalooki", slug="spring", name="Spring Open", is_published=True)
    return table_of(seated_by_hand(tournament, [names]))


def append_figures(figures: list[dict]) -> None:
    """Add this test's figures to bench/bench_table.py's file, if it asked for them."""
    path = os.environ.get("TABLE_BENCH_FIGURES")
    if not path:
        return
    kept = json.loads(Path(path).read_text()) if os.path.exists(path) else []
    with open(path, "w", encoding="utf-8") as out:
        json.dump(kept + figures, out)


# --- the live part: clock, pause, call, warning --------------------------------------------------


def test_the_phone_shows_a_pause_and_an_answered_call_without_a_reload(
    live_server, new_page
) -> None:
    table = kalooki_table(LONG_NAMES)
    round_ = table.round
    alice = director_of(round_.tournament)
    clock_start(round=round_, minutes=90, by=alice)
    phone = new_page("phone")
    open_phone(phone, live_server.url, table)
    phone.evaluate("window.stillTheSamePage = true")
    clock = phone.locator(".table-live [data-clock]")
    expect(clock).to_have_attribute("data-state", "running")
    clock_pause(round=round_, by=alice, reason="a fire drill")
    expect(clock).to_have_attribute("data-state", "paused", timeout=(LIVE_EVERY + 5) * 1000)
    shown = clock.locator("[data-clock-time]").inner_text()
    phone.wait_for_timeout(2200)
    assert clock.locator("[data-clock-time]").inner_text() == shown  # stands still
    expect(clock).to_contain_text("paused")

    phone.get_by_role("button", name="Call the director").click()
    expect(phone.locator(".call-sent")).to_contain_text("The director is called")
    shot(phone, "call-sent")
    director_call_answer(call=DirectorCall.objects.get(table=table), by=alice)
    expect(phone.get_by_role("button", name="Call the director")).to_be_visible(
        timeout=(LIVE_EVERY + 5) * 1000
    )
    assert phone.evaluate("window.stillTheSamePage") is True  # never reloaded
    assert_accessible(phone)


def test_hand_and_foot_s_warning_reaches_an_open_phone_hf2_2(live_server, new_page) -> None:
    tournament = game_tournament("hand_and_foot", slug="hf-warn", is_published=True)
    round_ = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]])
    phone = new_page("phone")
    open_phone(phone, live_server.url, table_of(round_))
    phone.evaluate("window.stillTheSamePage = true")
    at = timezone.now() - datetime.timedelta(minutes=80)  # started meanwhile: 10 minutes left
    ClockEvent.objects.create(round=round_, kind=ClockEvent.Kind.START, minutes=90, at=at)
    note = phone.locator(".table-live [data-clock-warning]")
    expect(note).to_be_visible(timeout=(LIVE_EVERY + 5) * 1000)
    expect(note).to_have_text("the last 15 minutes: time will be called (HF2.2)")
    assert phone.evaluate("window.stillTheSamePage") is True
    shot(phone, "hand-and-foot-warning")
    assert_accessible(phone)


# --- Hand and Foot on one screen; Parcellus; names; an error marked ----------------------------


def one_screen(phone: Page) -> dict:
    """Save, the scores and the totals in view, every line above the bar: the figures."""
    assert phone.evaluate("window.scrollY") == 0
    for target in (".save-button", ".bar-scores", ".set-totals"):
        assert in_view(phone, phone.locator(target)), target
    bar = phone.locator("[data-bar]").bounding_box()
    lines = phone.locator("fieldset[data-hand]")
    last = lines.nth(lines.count() - 1).locator(".line-grid").bounding_box()
    assert last["y"] + last["height"] <= bar["y"], "a line is under the bar"
    return {
        "entry_height": round(last["y"] + last["height"] + (VIEWPORT_HEIGHT - bar["y"])),
        "page_height": phone.evaluate("document.documentElement.scrollHeight"),
    }


def line(phone: Page, name: str):
    return phone.locator(f'fieldset[data-player="{name}"]')


def test_a_hand_and_foot_hand_on_one_screen_in_twelve_taps(live_server, new_page) -> None:
    tournament = game_tournament("hand_and_foot", slug="hf-day", is_published=True)
    table = table_of(seated_by_hand(tournament, [["Gwendolyn Simpson", "Cynthia Watson",
                                                  "Alton Hines", "Basil Shaw"]]))  # fmt: skip
    phone = new_page("phone")
    open_phone(phone, live_server.url, table, who="Gwendolyn Simpson")
    figures = {"play": "hand_and_foot", "game": 1, "kind": "hand"} | one_screen(phone)
    thumb = Thumb(phone)
    ours, theirs = "Gwendolyn Simpson & Alton Hines", "Cynthia Watson & Basil Shaw"
    # Gwendolyn went out: her foot is played (HF5.3), and her team's red books take the focus.
    thumb.tap(line(phone, "Gwendolyn Simpson").locator(".out-toggle"))
    expect(line(phone, "Gwendolyn Simpson").get_by_label("Foot played")).to_be_checked()
    thumb.keys("2")
    thumb.type(line(phone, ours).get_by_label("Black books"), "2")
    thumb.type(line(phone, ours).get_by_label("Points laid down"), "1200")
    # Alton played his foot: ticking it takes the focus to his points in hand.
    thumb.tap(line(phone, "Alton Hines").locator(".toggle"))
    thumb.keys("10")
    thumb.type(line(phone, theirs).get_by_label("Red books"), "1")
    thumb.type(line(phone, theirs).get_by_label("Points laid down"), "500")
    thumb.tap(line(phone, "Cynthia Watson").locator(".toggle"))
    thumb.keys("20")
    thumb.type(line(phone, "Basil Shaw").get_by_label("Points in hand"), "30")
    thumb.type(line(phone, "Basil Shaw").get_by_label("Points in foot"), "40")
    bar = phone.locator(".bar-scores output")
    expect(bar).to_have_text(["2890", "910"])  # HF6, worked out below
    figures |= one_screen(phone)
    shot(phone, "hand-and-foot-hand")
    assert_accessible(phone)
    thumb.tap(phone.get_by_role("button", name="Save hand 1"))
    expect(saved(phone)).to_contain_text("Hand 1 is saved.")
    expect(phone.get_by_role("heading", name="Now: hand 2 of 3")).to_be_visible()
    figures |= {"taps": thumb.taps, "digits": thumb.digits, "cards": 0}
    assert thumb.taps <= HF_TAP_BUDGET, figures
    # HF6: 2 red 1000 + 2 black 600 + 1200 laid − 10 + 100 out; 500 + 500 − 20 − 30 − 40
    points = dict(Deal.objects.get(table=table).results.values_list("side", "points"))
    assert points == {0: 2890, 1: 910}
    append_figures([figures])


def test_a_parcellus_deal_counted_in_taps(live_server, new_page) -> None:
    tournament = game_tournament("parcellus", slug="pa-day", is_published=True)
    table = table_of(seated_by_hand(tournament, [["Beverley Grant", "Clive Henry", "Lloyd"]]))
    phone = new_page("phone")
    open_phone(phone, live_server.url, table, who="Beverley Grant")
    figures = {"play": "parcellus", "game": 1, "kind": "deal"} | one_screen(phone)
    thumb = Thumb(phone)
    thumb.tap(line(phone, "Beverley Grant").locator(".out-toggle"))  # took the J♥: her cards next
    thumb.keys("11")
    thumb.type(line(phone, "Beverley Grant").get_by_label("Parcels captured"), "3")
    for name, (cards, parcels) in {"Clive Henry": (6, 2), "Lloyd": (5, 1)}.items():
        thumb.type(line(phone, name).get_by_label("Cards captured"), str(cards))
        thumb.type(line(phone, name).get_by_label("Parcels captured"), str(parcels))
    expect(phone.locator(".bar-scores output")).to_have_text(["19", "6", "5"])  # PA4
    figures |= one_screen(phone)
    shot(phone, "parcellus-deal")
    assert_accessible(phone)
    thumb.tap(phone.get_by_role("button", name="Save deal 1"))
    expect(saved(phone)).to_contain_text("Deal 1 is saved.")
    figures |= {"taps": thumb.taps, "digits": thumb.digits, "cards": 0}
    append_figures([figures])


def test_long_names_are_never_cut_and_a_999_points_error_marks_its_field(
    live_server, new_page
) -> None:
    table = kalooki_table(LONG_NAMES)
    phone = new_page("phone")
    open_phone(phone, live_server.url, table, who="Beverley Grant")
    cut = phone.evaluate(
        """() => Array.from(document.querySelectorAll(
            '.line-grid .name, .bar-scores .who, .set-totals th'))
          .filter(n => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
          .map(n => n.textContent.trim())"""
    )
    assert cut == [], cut
    for name in LONG_NAMES:  # each whole name is shown on its line
        expect(line(phone, name).locator(".name")).to_contain_text(name)
    line(phone, "Beverley Grant").locator(".out-toggle").click()
    phone.locator("section.sheet").get_by_role("button", name="Done").click()
    for name, points in zip(LONG_NAMES[1:], (999, 12, 10, 7), strict=True):
        line(phone, name).get_by_label("Points", exact=True).fill(str(points))
    phone.get_by_role("button", name="Save game 1").click()
    expect(saved(phone)).to_contain_text("Game 1 is not saved: fix the marked fields.")
    points = line(phone, "Clive Henry").get_by_label("Points", exact=True)
    expect(points).to_have_attribute("aria-invalid", "true")
    box = line(phone, "Clive Henry").locator(".box")
    expect(box).to_have_class(re.compile(r"\bhas-problem\b"))
    mark = box.locator("label").evaluate("n => getComputedStyle(n, '::after').content")
    assert "⚠" in mark  # a mark beside the label, not only a colour
    expect(line(phone, "Clive Henry").locator("[data-note]")).to_contain_text("R10.4")
    shot(phone, "error-marked")
    assert_accessible(phone)
    points.fill("9")
    expect(points).not_to_have_attribute("aria-invalid", "true", timeout=5000)


# --- plain http: held on the phone, never a reload -----------------------------------------------


def test_over_http_a_result_is_held_listed_guarded_and_sent_in_place(live_server, browser) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        service_workers="block",  # plain http at the venue: no service worker
    )  # fmt: skip
    try:
        phone = context.new_page()
        table = kalooki_table(["Ann", "Ben", "Cy", "Di", "Ed"])
        open_phone(phone, live_server.url, table, who="Ann")
        phone.evaluate("window.stillTheSamePage = true")
        line(phone, "Ann").locator(".out-toggle").click()
        phone.locator("section.sheet").get_by_role("button", name="Done").click()
        for name, points in {"Ben": 12, "Cy": 31, "Di": 10, "Ed": 7}.items():
            line(phone, name).get_by_label("Points", exact=True).fill(str(points))
        context.set_offline(True)
        phone.get_by_role("button", name="Save game 1").click()
        held = phone.get_by_role("region", name="Results on this phone")
        expect(held).to_contain_text(re.compile(r"Game 1: held on this phone since \d\d:\d\d"))
        expect(saved(phone)).to_contain_text("Waiting for the network (1 result)")
        shot(phone, "held-offline")
        assert_accessible(phone)
        dialogs: list[str] = []
        phone.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
        phone.close(run_before_unload=True)  # leaving asks first: the result is only here
        phone.wait_for_timeout(500)
        assert dialogs == ["beforeunload"] and not phone.is_closed()
        context.set_offline(False)
        expect(phone.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()
        sent = r"Game 1 is saved\. Sent at \d\d:\d\d \(held on this phone since \d\d:\d\d\)"
        expect(saved(phone)).to_contain_text(re.compile(sent))
        expect(held).to_be_hidden()  # nothing held any more
        assert phone.evaluate("window.stillTheSamePage") is True  # in place, never reloaded
        assert Deal.objects.get(table=table).revisions.count() == 1
        shot(phone, "sent")
    finally:
        context.close()
