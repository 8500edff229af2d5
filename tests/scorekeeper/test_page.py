"""The table's private page `/t/<token>/`: seats, the game now played and who deals (R4, R4.3),
and the results so far. Whoever holds the link sees it; a reissued link stops working."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal
from scoring.score_sheet import table_page_get
from tables.models import Table, new_access_token
from tests.factories import (
    DealFactory,
    DealResultFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
)
from tournament.models import Round

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve"]


@pytest.fixture
def table() -> Table:
    """Table 3 of round 2 at the Spring Open: Ann to Eve in seats 1 to 5, Dev deals first."""
    tournament = TournamentFactory(name="Spring Open")
    round = RoundFactory(tournament=tournament, number=2, status=Round.Status.IN_PLAY)
    TableFactory(round=round, number=1)  # another table of the round
    table = TableFactory(round=round, number=3)
    for index, name in enumerate(NAMES):
        SeatFactory(
            table=table, position=index + 1, is_first_dealer=name == "Dev", entry__player__name=name
        )
    return table


def _score(table: Table, number: int, totals: list[int], **game) -> Deal:
    """Game `number` at `table`, each seat scoring its total; a 0 went out."""
    game = DealFactory(table=table, number=number, **game)
    for seat, total in zip(table.seats.order_by("position"), totals, strict=True):
        side = seat.position - 1
        DealResultFactory(deal=game, entry=seat.entry, side=side, went_out=total == 0, points=total)
    return game


def _page(client: Client, table: Table) -> str:
    response = client.get(f"/t/{table.access_token}/")
    assert response.status_code == 200
    return response.content.decode()


def _now(page: str) -> str:
    return re.search(r'<section class="now".*?</section>', page, re.S).group(0)


def test_the_link_opens_its_own_table(client: Client, table: Table) -> None:
    page = _page(client, table)
    assert "<h1>Table 3</h1>" in page and "Spring Open" in page and "Round 2" in page
    assert re.findall(r'<span class="pos">(\d)</span>\s*<span class="who">(\w+)', page) == [
        (str(position), name) for position, name in enumerate(NAMES, start=1)
    ]
    marked = [item for item in re.findall(r"<li>.*?</li>", page, re.S) if "first dealer" in item]
    assert len(marked) == 1 and "Dev" in marked[0]


def test_a_wrong_token_finds_no_table(client: Client, table: Table) -> None:
    assert client.get("/t/not-a-token/").status_code == 404


def test_a_reissued_link_revokes_the_old_one(client: Client, table: Table) -> None:
    old = table.access_token
    table.access_token = new_access_token()
    table.save()
    assert client.get(f"/t/{old}/").status_code == 404
    assert client.get(f"/t/{table.access_token}/").status_code == 200


def test_before_any_result_game_1_is_dealt_by_the_first_dealer_r4_3(client, table) -> None:
    now = _now(_page(client, table))
    assert "Now: game 1 of 9" in now and "Three threes" in now and "9 cards each" in now
    assert "<strong>Dev</strong> deals (seat 4)" in now
    assert "<strong>Eve</strong> plays first (seat 5" in now


def test_the_deal_moves_one_seat_clockwise_per_game_and_wraps_r4_3(client, table) -> None:
    _score(table, 1, [0, 10, 20, 30, 40])
    _score(table, 2, [5, 0, 15, 25, 35])
    now = _now(_page(client, table))
    assert "Now: game 3 of 9" in now and "One three and two fours" in now and "11 cards" in now
    assert "<strong>Ann</strong> deals (seat 1)" in now  # seat 4 -> 5 -> 1
    assert "<strong>Ben</strong> plays first (seat 2" in now


def test_a_void_game_is_played_again_by_the_same_dealer_r9_2(client, table) -> None:
    _score(table, 1, [0, 10, 20, 30, 40])
    DealFactory(table=table, number=2, attempt=1, is_void=True)
    page = _page(client, table)
    now = _now(page)
    assert "Now: game 2 of 9, attempt 2" in now and "<strong>Eve</strong> deals" in now
    assert "void (R9.2)" in page


def test_results_show_each_game_and_running_totals(client, table) -> None:
    _score(table, 1, [0, 10, 20, 30, 40])
    _score(table, 2, [5, 0, 15, 25, 35], status=Deal.Status.PENDING)
    page = _page(client, table)
    rows = re.findall(r"<tr class=\"\"[^>]*>(.*?)</tr>", page, re.S)  # a row is a part
    cells = [
        re.findall(r'<td class="num">(\d+).*?<span class="running">(\d+)</span>', row, re.S)
        for row in rows
    ]
    assert cells[0] == [("0", "0"), ("10", "10"), ("20", "20"), ("30", "30"), ("40", "40")]
    assert cells[1] == [("5", "5"), ("0", "10"), ("15", "35"), ("25", "55"), ("35", "75")]
    footer = re.search(r"<tfoot>.*?</tfoot>", page, re.S).group(0)
    assert re.findall(r'<td class="num">(\d+)</td>', footer) == ["5", "10", "35", "55", "75"]
    assert "unconfirmed" in rows[1]


def test_a_finished_set_names_the_lowest_total_r4_1(client, table) -> None:
    for number in range(1, 10):  # Ann 5 x 0 + 4 x 7 = 28, Ben 5 x 10 + 4 x 0 = 50
        _score(table, number, [0, 10, 20, 30, 40] if number % 2 else [7, 0, 20, 30, 40])
    now = _now(_page(client, table))
    assert "Set finished" in now and "Lowest total (R4.1):\n    <strong>Ann</strong>." in now
    page = table_page_get(token=table.access_token)
    assert page.current is None and page.games_scored == 9
    assert page.totals == [28, 50, 180, 270, 360]


def test_the_page_reads_the_same_queries_for_one_game_or_nine(table, django_assert_num_queries):
    _score(table, 1, [0, 10, 20, 30, 40])
    # table with round and tournament, seats, games, hands, versions (with who entered them)
    with django_assert_num_queries(5):
        table_page_get(token=table.access_token)
    for number in range(2, 10):
        _score(table, number, [0, 10, 20, 30, 40])
    with django_assert_num_queries(5):
        table_page_get(token=table.access_token)


def test_the_link_stays_out_of_referers_and_search_engines(client, table) -> None:
    response = client.get(f"/t/{table.access_token}/")
    # Never sent to another site; its own forms still carry their origin for the CSRF check.
    assert response["Referrer-Policy"] == "same-origin"
    assert "noindex" in response["X-Robots-Tag"]
    assert "no-store" in response["Cache-Control"]  # always the latest results


def test_the_link_is_reversed_as_table_link(table) -> None:
    assert reverse("scorekeeper:link", args=[table.access_token]) == f"/t/{table.access_token}/"
