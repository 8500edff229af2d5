"""In Chromium at 1024×768 and 1920×1080: the projector shows every column of a game with its
own lead column (Parcellus's match points, Hand and Foot's games won) whole: "This round" and
"Move" are never cut off to make room for the names."""

import pytest
from playwright.sync_api import Page

from scoring.standings import standings_refresh
from tests.hall.test_other_games_pages import play_hf, play_pa
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db(transaction=True)

CUT_CELLS = """() => [...document.querySelectorAll(
    'table.projector-board tbody td.num')].filter(td => td.scrollWidth > td.clientWidth + 1)
    .map(td => td.className + ': ' + td.textContent.trim())"""


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
def test_no_number_of_the_projector_is_cut_off(live_server, new_page, size) -> None:
    pa = game_tournament("parcellus", slug="pa", is_published=True)
    play_pa(pa, table_of(seated_by_hand(pa, [["Ann", "Ben", "Cy"]])), 1)
    hf = game_tournament("hand_and_foot", slug="hf", is_published=True)
    play_hf(hf, table_of(seated_by_hand(hf, [["Ann", "Ben", "Cy", "Di"]])), 2)
    for tournament in (pa, hf):
        standings_refresh(tournament_id=tournament.pk)
    page: Page = new_page("laptop")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for slug in ("pa", "hf"):
        page.goto(f"{live_server.url}/p/{slug}/projector")
        page.wait_for_selector("table.projector-board tbody tr")
        assert page.evaluate(CUT_CELLS) == [], slug
