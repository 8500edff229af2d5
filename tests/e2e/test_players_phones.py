"""The players' own phones in Chromium: twelve check themselves in, are seated, and see it.

The Spring Open has twelve registered players (tests/e2e/steps.py) and Alice directs it. She
opens self check-in and keeps the players page open on her laptop. Each player scans the
check-in QR code on a 390x844 touch phone (twelve pages in one browser, each with its own
cookies), taps their name and "Yes, check me in": two taps, counted. Alice sees them arrive
without a reload, seats and publishes round 1, and every phone's own page shows its table and
seat within 2 seconds, by itself; the phone that allowed it buzzes. Marcia then turns on large
print, Spanish (her own pages speak it) and high contrast, and every page she reaches stays
usable at 390 and at 320 CSS px wide:
nothing wider than the screen, axe-core without a serious or critical finding (colour contrast
included) in both themes. Screenshots go to /tmp/h34-shots/ (or $SHOTS).

`CHECK_IN_BENCH_FIGURES`, when set, names a JSON file the taps are written to
(bench/bench_check_in.py).
"""

import json
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.rounds import round_publish
from tests.e2e.axe import axe_findings
from tests.e2e.conftest import PHONE, NewPage
from tests.e2e.steps import PLAYERS, TOURNAMENT_DAY, sign_in
from tests.factories import EntryFactory, StaffRoleFactory, TournamentFactory
from tests.scoring.playing import seated_round
from tournament.check_in import check_in_window_open, my_page_token
from tournament.models import Entry, Tournament

SHOTS = Path(os.environ.get("SHOTS", "/tmp/h34-shots"))
SEAT_WITHIN_SECONDS = 2.0
NARROWEST = {"width": 320, "height": 700}
BUZZES = "window.__buzzes"


@pytest.fixture
def spring(transactional_db: None) -> Tournament:
    spring = TournamentFactory(
        name="Spring Open", slug="spring", starts_on=TOURNAMENT_DAY, ends_on=TOURNAMENT_DAY
    )
    spring.is_published = True
    spring.save()
    for name, club in PLAYERS:
        EntryFactory(tournament=spring, player__name=name, player__club=club, status="registered")
    alice = StaffRoleFactory(tournament=spring, user__username="alice").user
    return check_in_window_open(tournament=spring, by=alice, minutes=45)


def _check_in(phone: Page, base: str, name: str) -> int:
    """Scan the QR code (open its address), find the name, check in; the taps it took."""
    phone.goto(f"{base}/p/spring/check-in")
    taps = 0
    letters = phone.locator("nav.letters")
    if letters.count():
        letters.get_by_role("link", name=name[0], exact=True).tap()
        taps += 1
    phone.get_by_role("link", name=name).tap()
    phone.get_by_role("button", name="Yes, check me in").tap()
    expect(phone.get_by_text(f"You are checked in, {name}")).to_be_visible()
    return taps + 2


def _wide(page: Page) -> int:
    """How far the page reaches past the screen's right edge, in CSS px (0: it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def _usable(page: Page, shot: str, *, axe: bool = True) -> list[tuple]:
    """The page fits the screen and axe finds nothing serious; its first screen is kept."""
    page.screenshot(path=str(SHOTS / f"{shot}.png"))
    assert _wide(page) <= 0, f"{shot}: the page is wider than the screen"
    return axe_findings(page) if axe else []


def test_twelve_phones_check_in_are_seated_and_see_their_seat(
    live_server, spring: Tournament, new_page: NewPage
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    desk = new_page("laptop")
    sign_in(desk, base, "alice")
    desk.goto(f"{base}/director/spring/players")
    assert axe_findings(desk) == []

    started = time.monotonic()
    phones: dict[str, Page] = {}
    taps: dict[str, int] = {}
    for name, _club in PLAYERS:
        phones[name] = new_page("phone")
        taps[name] = _check_in(phones[name], base, name)
    assert max(taps.values()) <= 3, taps
    print(f"TIMING check-ins {time.monotonic() - started:.1f}s")
    marcia = phones["Marcia Campbell"]
    marcia.add_init_script(f"{BUZZES} = []; navigator.vibrate = (p) => {BUZZES}.push(p) || true;")
    marcia.reload()
    marcia.get_by_label("Buzz and beep when my seat changes").check()
    marcia.screenshot(path=str(SHOTS / "my-page-waiting.png"), full_page=True)
    assert axe_findings(marcia) == []

    # Alice sees them arrive on the players page, which she never reloads.
    expect(desk.locator(".arrivals-state")).to_contain_text("checked in 12 (12 by phone)")
    expect(desk.locator("ol.arrivals li")).to_have_count(12)
    desk.screenshot(path=str(SHOTS / "director-arrivals.png"), full_page=True)
    assert Entry.objects.filter(tournament=spring, checked_in_by_phone=True).count() == 12

    round_publish(round=seated_round(spring), by=None)
    published = time.monotonic()
    shown: dict[str, float] = {}
    while len(shown) < len(phones) and time.monotonic() - published < 10:
        for name, phone in phones.items():
            if name not in shown and phone.locator("[data-my-table]").count():
                shown[name] = time.monotonic() - published
        time.sleep(0.05)
    assert len(shown) == 12, sorted(set(phones) - set(shown))
    assert max(shown.values()) <= SEAT_WITHIN_SECONDS, shown
    for name, phone in phones.items():
        seat = Entry.objects.get(tournament=spring, player__name=name).seats.get()
        expect(phone.locator("[data-my-table]")).to_have_text(str(seat.table.number))
        expect(phone.locator("[data-my-seat]")).to_have_text(str(seat.position))
    assert marcia.evaluate(f"{BUZZES}.length") >= 1

    print(f"TIMING seated {time.monotonic() - started:.1f}s")
    _large_print_tour(marcia, base, spring)
    print(f"TIMING tour {time.monotonic() - started:.1f}s")
    _write_figures(taps, shown)


def _large_print_tour(marcia: Page, base: str, spring: Tournament) -> None:
    """Marcia turns on large print, then high contrast: every page she reaches stays usable."""
    marcia.get_by_role("button", name="Large print").first.tap()
    expect(marcia.locator("html")).to_have_class("large-print")
    marcia.get_by_label("Language").select_option("es")
    marcia.get_by_role("button", name="Change").tap()
    expect(marcia.locator("html")).to_have_attribute("lang", "es")
    expect(marcia.locator("[data-my-table]")).to_be_visible()
    expect(marcia.get_by_text("En su mesa:")).to_be_visible()
    entry = Entry.objects.get(tournament=spring, player__name="Marcia Campbell")
    table = entry.seats.get().table
    pages = {
        "my-page": f"/me/{my_page_token(entry.pk)}",
        "check-in": "/p/spring/check-in",
        "home": "/p/spring/",
        "leaderboard": "/p/spring/leaderboard",
        "seating": "/p/spring/seating",
        "player": f"/p/spring/players/{entry.pk}",
        "table": f"/p/spring/tables/1/{table.number}",
        "table-link": f"/t/{table.access_token}/",
    }
    findings = {}
    # Large print at 320 px; then high contrast too, at 390 px (axe) and at 320 px (the fit).
    for theme, viewport, axe in (
        ("large", NARROWEST, True),
        ("contrast", PHONE, True),
        ("contrast", NARROWEST, False),
    ):
        if theme == "contrast" and "high-contrast" not in marcia.locator("html").get_attribute(
            "class"
        ):
            marcia.locator("[data-display=high-contrast]:visible").tap()  # in Spanish now
            expect(marcia.locator("html")).to_have_class("large-print high-contrast")
        marcia.set_viewport_size(viewport)
        for shot, path in pages.items():
            marcia.goto(base + path)  # the switch is remembered from page to page
            assert "large-print" in marcia.locator("html").get_attribute("class")
            found = _usable(marcia, f"{theme}-{viewport['width']}-{shot}", axe=axe)
            if found:
                findings[f"{theme}-{viewport['width']}-{shot}"] = found
    assert findings == {}


def _write_figures(taps: dict[str, int], shown: dict[str, float]) -> None:
    out = os.environ.get("CHECK_IN_BENCH_FIGURES")
    if out:
        figures = {"taps": taps, "seat_shown_seconds": shown}
        Path(out).write_text(json.dumps(figures))
