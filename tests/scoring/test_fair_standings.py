"""Fair standings mid-round: a table behind schedule never ranks its players above equal
players who have played more.

The League's ten players played round 1 at two tables of five, game for game alike: the player
in seat n of table 1 and the one in seat n of table 2 have equal round-1 lines (R12.3). Round 2
seats them again (seed 4: the fast table's first seat, who goes out every game, is not one of
an equal pair) and is in play: one table is fast, the other slow.
"""

import pytest

from scoring.rounds import round_complete, round_lock
from scoring.standings import standings_compute
from tests.scoring.playing import play_set, published_round, tables_of, tournament_with
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


def league(fast: int, slow: int) -> tuple[Tournament, dict]:
    """Round 1 played alike at both tables and locked; in round 2, table 1 has played `fast`
    games and table 2 `slow`."""
    tournament = tournament_with(10, slug="league", rounds_planned=2)
    first = published_round(tournament)
    for table in tables_of(first):
        play_set(table, points=10)
    round_lock(round=round_complete(round=first, by=None), by=None)
    one, two = tables_of(published_round(tournament, number=2, seed=4))
    play_set(one, games=fast, points=30)  # the fast table scores badly...
    if slow:
        play_set(two, games=slow, points=1)  # ...the slow one well, so far
    return tournament, standings_compute(tournament=tournament)


def round_1(row: dict) -> int:
    return row["rounds"].get("1", 0)


def seat_points(games: int, points: int, seat: int) -> int:
    """What `play_set` gives the player in seat `seat` (1 to 5) over `games` games: the first
    seat goes out every game, the others score `points` plus their seat (playing.py)."""
    return 0 if seat == 1 else games * (points + seat)


@pytest.mark.parametrize(("fast", "slow"), [(8, 3), (9, 0), (5, 4), (9, 1), (3, 1)])
def test_a_table_behind_schedule_never_ranks_its_players_above_equals_who_played_more(
    fast: int, slow: int
) -> None:
    _, standings = league(fast, slow)
    players = standings["players"]
    assert standings["live_rounds"] == [2]
    assert standings["counted_up_to"] == {"2": slow}
    for ahead, row in enumerate(players):
        for below in players[ahead + 1 :]:
            assert below["place"] >= row["place"]
            if below["place"] == row["place"]:
                assert below["live_games"] <= row["live_games"], (row, below)


def test_the_live_round_counts_the_games_every_table_has_played() -> None:
    """Round 2 counts games 1 to 3 at both tables, though one has played 9: the same games
    for everyone, and the rest show as this round's points."""
    tournament, standings = league(9, 3)
    fast, slow = tables_of(Round.objects.get(tournament=tournament, number=2))
    seats = {s.entry_id: (s.position, 30) for s in fast.seats.all()}
    seats |= {s.entry_id: (s.position, 1) for s in slow.seats.all()}
    for row in standings["players"]:
        seat, points = seats[row["entry"]]
        played = 9 if points == 30 else 3
        assert row["total"] == round_1(row) + seat_points(3, points, seat)
        assert row["ranked_total"] == row["total"]
        assert row["round_points"] == seat_points(played, points, seat)
        assert row["round_games"] == played
    assert "game 3" in standings["counted_words"]


def test_the_places_follow_the_counted_totals_lowest_first() -> None:
    _, standings = league(6, 2)
    totals = [row["total"] for row in standings["players"]]
    assert totals == sorted(totals)  # lowest counted total first (R12.3)
    places = [row["place"] for row in standings["players"]]
    assert places == sorted(places) and len(set(places)) > 2


def test_once_every_table_has_played_its_set_the_round_counts_in_full() -> None:
    tournament, _ = league(9, 9)
    standings = standings_compute(tournament=tournament)
    assert standings["live_rounds"] == []
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.IN_PLAY
    totals = [row["total"] for row in standings["players"]]
    assert totals == sorted(totals)
    assert all(row["ranked_total"] == row["total"] for row in standings["players"])


def test_mid_round_1_the_places_and_totals_count_the_games_every_table_has_played(db) -> None:
    """Mid-round 1 every player showed "=1" with a total of 0. Now the first two
    games, played at both tables, place them; the sets' wins wait for the sets to end."""
    tournament = tournament_with(10, slug="first")
    one, two = tables_of(published_round(tournament))
    play_set(one, games=6)
    play_set(two, games=2)
    standings = standings_compute(tournament=tournament)
    players = standings["players"]
    assert standings["counted_up_to"] == {"1": 2}
    assert {row["place"] for row in players} != {1}
    assert any(row["total"] for row in players)
    assert all(row["stats"]["wins"] == 0 for row in players)  # no set is over (R4.1)
    assert sorted(row["round_games"] for row in players) == [2] * 5 + [6] * 5


def test_before_every_table_has_played_a_game_nobody_is_placed(db) -> None:
    tournament = tournament_with(10, slug="first")
    one, _ = tables_of(published_round(tournament))
    play_set(one, games=2)
    standings = standings_compute(tournament=tournament)
    assert {row["place"] for row in standings["players"]} == {None}
    assert [row["live_games"] for row in standings["players"]] == [2] * 5 + [0] * 5
    assert "game 1" in standings["counted_words"]
