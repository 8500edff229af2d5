"""One truth in the hall: every page that shows a player's place and total (the
leaderboard and its rows, the projector, the home page's leaders, the player's page, the table
page, the director's dashboard and the standings API) shows the same ones at the same moment,
mid-round and after a ruling; and mid-round 1 they say something (not "=1" and 0 for all).

The Open's ten players sit at two tables of five (tests/hall/conftest.py); in `play`, seat
index 0 goes out and the others score 10 plus their seat number (tests/scoring/playing.py).
"""

import re

import pytest
from django.test import Client

from scoring.standings import standings_refresh
from tables.models import Table
from tests.scoring.playing import director_of, entry, penalty_ruling, play_set, seated
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

Shown = dict[int, tuple[str, int]]  # entry -> (place as shown, total)


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).strip()


def leaderboard_rows(html: str) -> Shown:
    """The rows of the leaderboard, its rows endpoint or the projector."""
    shown = {}
    for entry_id, row in re.findall(r'<tr id="entry-(\d+)"(.*?)</tr>', html, re.S):
        place = re.search(r'<td class="num place">(.*?)</td>', row, re.S)
        total = re.search(r'<td class="num total">(?:<strong>)?(-?\d+)', row, re.S)
        shown[int(entry_id)] = (text(place.group(1)), int(total.group(1)))
    return shown


def home_leaders(html: str) -> Shown:
    rows = re.findall(
        r'<tr class="status-\w+"><td class="num">(.*?)</td><td class="player">'
        r'<a href="/p/[\w-]+/players/(\d+)">'
        r".*?<td class=\"num\"><strong>(-?\d+)</strong></td></tr>",
        html,
        re.S,
    )
    return {int(entry_id): (text(place), int(total)) for place, entry_id, total in rows}


def player_page(html: str) -> tuple[str, int]:
    place = re.search(r"<dt>Place</dt><dd>(=?\d+|—)", html)
    total = re.search(r'class="standing-total">(-?\d+)<', html)
    return place.group(1), int(total.group(1))


def table_page(html: str) -> Shown:
    seats = [
        int(e)
        for e in re.findall(r'<th scope="col" class="num"><a href="/p/[\w-]+/players/(\d+)"', html)
    ]
    cells = re.findall(
        r'<span class="place">(.*?)</span> · <span class="standing-total">(-?\d+)</span>', html
    )
    assert len(seats) == len(cells) == 5
    return {
        entry_id: (place, int(total)) for entry_id, (place, total) in zip(seats, cells, strict=True)
    }


def label(place: int | None, shared: bool) -> str:
    return "—" if place is None else f"={place}" if shared else str(place)


def everything_shown(client: Client, director: Client, tournament: Tournament) -> list[Shown]:
    """Each page's places and totals, keyed by entry, as read now."""
    slug = tournament.slug
    pages = [
        leaderboard_rows(client.get(f"/p/{slug}/leaderboard").text),
        leaderboard_rows(client.get(f"/p/{slug}/leaderboard/rows").text),
        leaderboard_rows(client.get(f"/p/{slug}/projector").text),
        home_leaders(client.get(f"/p/{slug}/").text),
    ]
    for table in Table.objects.filter(round__tournament=tournament):
        pages.append(table_page(client.get(f"/p/{slug}/tables/1/{table.number}").text))
    pages.append(
        {
            e.pk: player_page(client.get(f"/p/{slug}/players/{e.pk}").text)
            for e in tournament.entries.all()
        }
    )
    api = client.get(f"/api/tournaments/{slug}/standings").json()
    pages.append(
        {row["entry"]: (label(row["place"], row["shared"]), row["total"]) for row in api["players"]}
    )
    lines = director.get(f"/director/{slug}/rounds/1/dashboard").context["standings"].lines
    pages.append({line.entry_id: (label(line.place, line.shared), line.total) for line in lines})
    return pages


def assert_one_truth(pages: list[Shown]) -> Shown:
    api = pages[-2]
    assert len(api) == 10
    for page in pages:
        assert page and all(page[entry_id] == api[entry_id] for entry_id in page), (page, api)
    return api


@pytest.fixture
def director(tournament: Tournament) -> Client:
    client = Client()
    client.force_login(director_of(tournament))
    return client


@pytest.fixture
def mid_round(tournament: Tournament, table_one: Table, table_two: Table) -> Tournament:
    """Round 1 in play: table 1 has played six games, table 2 two."""
    play_set(table_one, games=6)
    play_set(table_two, games=2)
    standings_refresh(tournament_id=tournament.pk)
    return tournament


def test_mid_round_1_the_leaderboard_places_players_by_the_games_every_table_played(
    client: Client, mid_round: Tournament, table_one: Table
) -> None:
    """Every player showed "=1" with a bold total of 0."""
    html = client.get("/p/open/leaderboard").text
    shown = leaderboard_rows(html)
    assert {place for place, _ in shown.values()} != {"=1"}
    assert any(total for _, total in shown.values())
    assert "Round 1 counts up to game 2, which every table has played" in html
    # Seat 1 of each table went out in both counted games: 0, level, first.
    assert sorted(shown.values())[:2] == [("=1", 0), ("=1", 0)]
    second = entry(mid_round, seated(table_one)[1])  # seat 2: 12 a game, 24 after two
    assert shown[second.pk] == ("=3", 24)


def test_the_dashboard_counts_no_set_won_before_it_ends_and_names_its_lines(
    director: Client, mid_round: Tournament
) -> None:
    """Not "Sets won 1" after one game of seven, and "places 1 to 0 of 23"."""
    response = director.get("/director/open/rounds/1/dashboard?partial=1")
    standings = response.context["standings"]
    wins = [i for i, column in enumerate(standings.columns) if column["stat"] == "wins"]
    assert wins and all(line.cells[wins[0]] == 0 for line in standings.lines)
    assert "(lines 1 to 10 of 10)" in response.text


def test_every_page_shows_the_same_place_and_total_mid_round(
    client: Client, director: Client, mid_round: Tournament
) -> None:
    shown = assert_one_truth(everything_shown(client, director, mid_round))
    assert len({total for _, total in shown.values()}) > 2


def test_every_page_shows_the_same_place_and_total_after_a_ruling(
    client: Client, director: Client, mid_round: Tournament, table_one: Table
) -> None:
    before = assert_one_truth(everything_shown(client, director, mid_round))
    leader = entry(mid_round, seated(table_one)[0])
    penalty_ruling(tournament=mid_round, entry=leader, points=25, decision="Slow play")
    standings_refresh(tournament_id=mid_round.pk)
    after = assert_one_truth(everything_shown(client, director, mid_round))
    assert after[leader.pk][1] == before[leader.pk][1] + 25
    assert after[leader.pk][0] != before[leader.pk][0]
