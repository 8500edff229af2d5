"""The director's table page with long names: every name whole, nothing overlapping,
at 1280x800 and on a 390x844 phone.

Five players whose names are as long as registration lets them be play three games at table
1; Dana opens the table's page. Screenshots go to $SCREENSHOTS (default
/tmp/kalooki-shots).
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.steps import sign_in
from tests.factories import EntryFactory, TournamentFactory
from tests.scoring.playing import director_of, play, published_round

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))
LONG_NAMES = [
    "Maximiliana Featherstonehaugh-Worthington",
    "Bartholomew Cholmondeley-Saint-John",
    "Anastasiya Konstantinopolskaya",
    "Wolfeschlegelsteinhausenbergerdorff",  # one word, no place to break it
    "Ann",
]

# Every box on the page that shows text, checked against its neighbours and its container: a
# name cut (its box narrower than its text, or an ellipsis), a box reaching past the page's
# right edge, or two cells of a row covering each other.
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  for (const cell of document.querySelectorAll("main td, main th, main h1, main h2, main h3")) {
    const box = cell.getBoundingClientRect();
    if (!box.width) continue;
    if (cell.scrollWidth > cell.clientWidth + 1)
      problems.push("cut: " + cell.textContent.trim().slice(0, 60));
    if (getComputedStyle(cell).textOverflow === "ellipsis")
      problems.push("ellipsis: " + cell.textContent.trim().slice(0, 60));
    const scroller = cell.closest(".scroll-x");
    if (!scroller && box.right > width + 1)
      problems.push("past the edge: " + cell.textContent.trim().slice(0, 60));
  }
  for (const head of document.querySelectorAll("main th")) {  // a heading's word never split
    const words = head.textContent.trim().split(/\\s+/).filter(Boolean);
    const range = document.createRange();
    range.selectNodeContents(head);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    if (words.length === 1 && lines > 1)
      problems.push("heading split: " + words[0]);
  }
  for (const row of document.querySelectorAll("main tr")) {
    const cells = [...row.children].map(c => c.getBoundingClientRect());
    for (let i = 1; i < cells.length; i++)
      if (cells[i].left < cells[i - 1].right - 1)
        problems.push("overlap in: " + row.textContent.trim().replace(/\\s+/g, " ").slice(0, 80));
  }
  return problems;
}"""


@pytest.fixture
def long_names_table() -> str:
    tournament = TournamentFactory(name="Long Names Open", slug="long-names")
    for name in LONG_NAMES:
        EntryFactory(tournament=tournament, player__name=name)
    director_of(tournament, "dana")
    [table] = published_round(tournament).tables.all()
    for number in (1, 2, 3):
        play(table, number, winner=number - 1)
    return f"/director/{tournament.slug}/rounds/1/tables/1/"


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_table_page_shows_every_long_name_whole_and_nothing_overlaps(
    live_server, long_names_table: str, new_page, device: str
) -> None:
    page: Page = new_page(device)
    sign_in(page, live_server.url, "dana")
    page.goto(live_server.url + long_names_table)
    page.locator("details").evaluate_all("all => all.forEach(d => d.open = true)")
    size = page.viewport_size
    page.screenshot(
        path=str(SHOTS / f"director-table-long-names-{size['width']}x{size['height']}.png"),
        full_page=True,
    )
    seats = page.locator("section[aria-labelledby=seats-title] tbody")
    for name in LONG_NAMES:  # whole, each in its row
        expect(seats.locator("tr", has_text=name)).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    assert_accessible(page)
