"""The public pages in Chromium, in Spanish, in large print, with long names (issue 34).

The Long Names Open seats ten players, some with long names ("Beverley", a hyphenated pair, one
very long word). On a 320 CSS px phone in large print and Spanish, every public page fits the
screen, no name is cut, a word is never broken in the middle while it fits its line ("Beverley"
stays whole), and axe-core finds nothing serious or critical, in both themes. The projector at
1024x768 and 1920x1080, in both sizes of print, wraps long names onto a second line instead of
cutting them with "…", and every row of the page it shows is on the screen. Screenshots go to
/tmp/h34hall-shots/ (or $SHOTS).
"""

import os
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import Browser, Page

from hall.views import forget_recent
from scoring.standings import standings_refresh
from tests.e2e.axe import axe_findings
from tests.factories import EntryFactory, TournamentFactory
from tests.scoring.playing import play, published_round, tables_of
from tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("SHOTS", "/tmp/h34hall-shots"))
LONG_NAMES = [
    "Beverley",
    "Anne-Marie Featherstonehaugh-Cholmondeley",
    "Maximiliano Alessandro Wolfeschlegelsteinhausen",
    "Beverley Montgomery Richardson",
    "Winston",
    "Delroy Barrington-Fitzgerald",
    "Lloyd",
    "Marcia Campbell",
    "Neville Walker",
    "Dana",
]
NARROWEST = {"width": 320, "height": 700}
# Words broken across two lines although they fit their line (a hyphen is a place to break).
BROKEN_WORDS = """(names) => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/[^\\s-]+/g)) {
      if (!names.some((name) => name.split(/[\\s-]/).includes(match[0]))) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (range.getClientRects().length < 2) continue;
      let box = node.parentElement;  // the line's box: the nearest one not inline
      while (getComputedStyle(box).display === 'inline') box = box.parentElement;
      const probe = document.createElement('span');
      probe.style.whiteSpace = 'nowrap';
      probe.textContent = match[0];
      box.appendChild(probe);
      const fits = probe.getBoundingClientRect().width <= box.clientWidth;
      probe.remove();
      if (fits) broken.push(match[0]);
    }
  }
  return broken;
}"""
# Names and headings cut ("…" or hidden past the cell's edge).
CUT_NAMES = """() => [...document.querySelectorAll('td.player, td.club, th, .projector-head h1')]
  .filter((cell) => cell.scrollWidth > cell.clientWidth + 1
    || getComputedStyle(cell).textOverflow === 'ellipsis')
  .map((cell) => cell.textContent.trim())"""
BOARD_PAST_ITS_BOX = """() => {
  const board = document.querySelector('table.seating-board');
  return Math.max(0, board.scrollWidth - board.parentElement.clientWidth);
}"""
ROWS_OFF_SCREEN = """() => [...document.querySelectorAll('table.projector-board tbody tr')]
  .filter((row) => !row.hidden && row.getBoundingClientRect().bottom > window.innerHeight + 1)
  .map((row) => row.textContent.trim())"""


@pytest.fixture
def open_day(transactional_db: None) -> Tournament:
    cache.clear()  # the hall remembers the last test's tournament of this address
    forget_recent()
    day = TournamentFactory(name="Long Names Open", slug="long", is_published=True)
    for name in LONG_NAMES:
        EntryFactory(tournament=day, player__name=name, player__club="Half Way Tree Club")
    table = tables_of(published_round(day))[0]
    play(table, 1, winner=0)
    play(table, 2, winner=2)
    standings_refresh(tournament_id=day.pk)
    return day


def _spanish(browser: Browser, viewport: dict, display: str) -> Page:
    """A Spanish browser with the display switch set as `display` (localStorage "display")."""
    context = browser.new_context(viewport=viewport, locale="es-ES", has_touch=True)
    context.add_init_script(f"window.localStorage.setItem('display', '{display}');")
    return context.new_page()


THEMES = {
    "large": '{"large-print": true}',
    "contrast": '{"large-print": true, "high-contrast": true}',
}


@pytest.mark.parametrize("theme", THEMES)
def test_every_public_page_at_320_px_in_large_print_and_spanish(
    live_server, browser: Browser, open_day: Tournament, theme: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = _spanish(browser, NARROWEST, THEMES[theme])
    beverley = open_day.entries.get(player__name="Beverley")
    pages = {
        "home": "/p/long/",
        "leaderboard": "/p/long/leaderboard",
        "seating": "/p/long/seating",
        "player": f"/p/long/players/{beverley.pk}",
        "table": "/p/long/tables/1/1",
    }
    problems = {}
    for shot, path in pages.items():
        phone.goto(live_server.url + path)
        assert phone.locator("html").get_attribute("lang") == "es"
        assert "large-print" in phone.locator("html").get_attribute("class")
        phone.screenshot(path=str(SHOTS / f"{theme}-320-{shot}.png"), full_page=True)
        wide = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        broken = phone.evaluate(BROKEN_WORDS, LONG_NAMES)
        if shot == "seating":  # the table and seat are seen without scrolling the board
            wide += phone.evaluate(BOARD_PAST_ITS_BOX)
        found = axe_findings(phone)
        if wide > 0 or broken or found:
            problems[shot] = (wide, broken, found)
    phone.context.close()
    assert problems == {}, problems


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
@pytest.mark.parametrize("theme", ["plain", *THEMES])
def test_the_projector_wraps_long_names_and_shows_every_row_of_its_page(
    live_server, browser: Browser, open_day: Tournament, size: tuple[int, int], theme: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    screen = _spanish(browser, {"width": size[0], "height": size[1]}, THEMES.get(theme, "{}"))
    for shot, path in (
        ("leaderboard", "/p/long/projector"),
        ("seating", "/p/long/seating/projector"),
    ):
        screen.goto(live_server.url + path)
        screen.wait_for_selector("table.projector-board tbody tr:not([hidden])")
        screen.wait_for_timeout(300)  # the script has paged the rows
        screen.screenshot(path=str(SHOTS / f"projector-{theme}-{size[0]}-{shot}.png"))
        assert screen.locator("html").get_attribute("lang") == "es"
        assert screen.locator("[data-display-switch]").is_visible()
        assert screen.evaluate(CUT_NAMES) == [], shot
        assert screen.evaluate(ROWS_OFF_SCREEN) == [], shot
        assert "Página 1 de" in screen.locator("[data-page-label]").inner_text()
        assert axe_findings(screen) == [], shot
    screen.context.close()
