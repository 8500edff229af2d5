"""Every page and export of a Hand and Foot and of a Parcellus tournament shows the game's columns
and words ("Hand 2", "Deal 4", "Match points"), and the table and player pages read the same
number of queries however many deals were played."""

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.services import SideInput, result_record
from scoring.standings import standings_refresh
from tests.factories import StaffRoleFactory
from tests.scoring.other_games import entry_of, game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db

OUT = (
    {"went_out": True, "hand": "", "foot_played": True},
    {"foot_played": True, "hand_points": 10},
)
NOT_OUT = ({"hand_points": 20, "foot_points": 40}, {"hand_points": 30, "foot_points": 40})
HF_HAND = [
    ("Ann", {"red_books": 2, "black_books": 2, "laid_down": 200}, OUT),  # 1890 (HF6)
    ("Ben", {"red_books": 1, "black_books": 0, "laid_down": 150}, NOT_OUT),  # 520
]
PA_DEAL = [("Ann", (11, 3, True)), ("Ben", (6, 2, False)), ("Cy", (5, 1, False))]


def play_hf(tournament, table, hands: int) -> None:
    for number in range(1, hands + 1):
        sides = [
            SideInput(entry_of(tournament, name).pk, values, members)
            for name, values, members in HF_HAND
        ]
        result_record(table=table, number=number, sides=sides, via="test")


def play_pa(tournament, table, deals: int) -> None:
    for number in range(1, deals + 1):
        sides = [
            SideInput(entry_of(tournament, n).pk, {"cards": c, "parcels": p, "jack_of_hearts": j})
            for n, (c, p, j) in PA_DEAL
        ]
        result_record(table=table, number=number, sides=sides, via="test")


@pytest.fixture
def hf():
    tournament = game_tournament("hand_and_foot", slug="hf", is_published=True)
    table = table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]]))
    play_hf(tournament, table, 2)
    standings_refresh(tournament_id=tournament.pk)
    return tournament, table


@pytest.fixture
def pa():
    tournament = game_tournament("parcellus", slug="pa", is_published=True)
    table = table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy"]]))
    play_pa(tournament, table, 1)
    standings_refresh(tournament_id=tournament.pk)
    return tournament, table


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return (
        response.content.decode()
        if not response.streaming
        else b"".join(response.streaming_content).decode()
    )


def test_the_hall_shows_hand_and_foot_in_its_words(client: Client, hf) -> None:
    tournament, _table = hf
    board = page(client, "/p/hf/leaderboard")
    assert "Games won" in board and "Hands" in board
    assert "Standings: games won" not in board and "Games won, then total points" in board
    assert "Hand 1" in page(client, "/p/hf/tables/1/1") or "hand 3" in page(
        client, "/p/hf/tables/1/1"
    )
    tables = page(client, "/p/hf/tables/1/1")
    assert "Now playing: <strong>hand 3</strong>" in tables and "2 of 3 hands scored" in tables
    assert "Highest total wins the game" in tables
    player = page(client, f"/p/hf/players/{entry_of(tournament, 'Cy').pk}")
    assert "Score hand by hand" in player and "2 played" in player  # Cy plays Ann's team's hands
    assert "Games won" in page(client, "/p/hf/projector")


def test_the_exports_follow_the_game(client: Client, hf, pa) -> None:
    rows = list(csv.DictReader(io.StringIO(page(client, "/p/hf/results.csv"))))
    assert list(rows[0])[6:8] == ["games_won", "books"]
    ann = next(row for row in rows if row["player"] == "Ann & Cy")  # the team (HF1.2)
    # Two hands of three: the game is not over, so nobody has won it yet (HF10.1).
    assert ann["total"] == str(2 * 1890) and ann["games_won"] == "0"
    deals = list(csv.DictReader(io.StringIO(page(client, "/p/hf/games.csv"))))
    assert list(deals[0])[:4] == ["round", "table", "hand", "attempt"]
    assert "p1_hand_points" in deals[0] and "p2_foot_points" in deals[0]
    assert [(d["hand"], d["side"], d["total"]) for d in deals[:2]] == [
        ("1", "1", "1890"),
        ("1", "2", "520"),
    ]
    pa_deals = list(csv.DictReader(io.StringIO(page(client, "/p/pa/games.csv"))))
    assert (pa_deals[0]["deal"], pa_deals[0]["cards"], pa_deals[0]["bonus"]) == ("1", "11", "6")
    standings = client.get("/api/tournaments/pa/standings").json()
    assert next(c["stat"] for c in standings["columns"]) == "match_points"
    assert standings["players"][0]["stats"]["total"] == 19


def test_the_director_sees_the_games_columns_and_prints_its_sheets(client: Client, hf, pa) -> None:
    for tournament, _table in (hf, pa):
        director = StaffRoleFactory(tournament=tournament, user__username=f"d{tournament.pk}").user
        client.force_login(director)
        slug = tournament.slug
        dashboard = page(client, f"/director/{slug}/rounds/1/dashboard")
        control = page(client, f"/director/{slug}/rounds/1/tables/1/")
        sheets = page(client, f"/director/{slug}/rounds/1/print/sheets")
        cards = page(client, f"/director/{slug}/rounds/1/print/cards")
        assert 'id="table-1"' in cards and "qr" in cards
        if slug == "hf":
            assert "Games won" in dashboard and "2/3" in dashboard
            assert "<th>Team</th><th>Partners</th>" in dashboard  # a line a team (HF1.2)
            assert "Hand 2" in control and "Enter hand 3 from the paper score sheet" in control
            assert "meld 150" in sheets and "Total (highest wins" in sheets
        else:
            assert "Match points" in dashboard and "Deal 1" in control
            assert "<th>Player</th><th>Club</th>" in dashboard
            assert "Deal 12" in sheets or "12" in sheets  # rows for a match to 30


def test_the_pages_of_a_match_read_the_same_queries_for_one_deal_or_more(
    client: Client, pa
) -> None:
    tournament, table = pa

    def counted(path: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            page(client, path)
        return len(queries)

    player = f"/p/pa/players/{entry_of(tournament, 'Ben').pk}"
    for path in ("/p/pa/tables/1/1", player):
        page(client, path)  # the tournament's public facts are cached from the first read on
    before = (counted("/p/pa/tables/1/1"), counted(player), counted(f"/t/{table.access_token}/"))
    play_pa(tournament, table, 0)
    sides = [
        SideInput(entry_of(tournament, n).pk, {"cards": c, "parcels": p, "jack_of_hearts": j})
        for n, (c, p, j) in PA_DEAL
    ]
    result_record(table=table, number=2, sides=sides, via="test")
    standings_refresh(tournament_id=tournament.pk)
    after = (counted("/p/pa/tables/1/1"), counted(player), counted(f"/t/{table.access_token}/"))
    assert after == before


def test_team_standings_have_a_players_tab_hf11_2(client: Client, hf, pa) -> None:
    board = page(client, "/p/hf/leaderboard")
    assert '<th scope="col">Team</th>' in board and "Partners" in board
    assert 'href="/p/hf/leaderboard/players"' in board
    players = page(client, "/p/hf/leaderboard/players")
    for name in ("Ann", "Cy", "Ben", "Di"):
        assert f'<td class="player">{name}' in players
    assert players.count(f'<td class="num total">{2 * 1890}</td>') == 2  # Ann and Cy
    assert client.get("/p/pa/leaderboard/players").status_code == 404  # single players


def test_the_players_tab_is_read_in_few_queries(client: Client, hf) -> None:
    page(client, "/p/hf/leaderboard/players")  # the facts cached
    with CaptureQueriesContext(connection) as queries:
        page(client, "/p/hf/leaderboard/players")
    assert len(queries) <= 3
