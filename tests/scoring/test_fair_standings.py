"""Fair standings mid-round: a table behind schedule never ranks its players above equal
players who have played more (issue 14).

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


@pytest.mark.parametrize(("fast", "slow"), [(8, 3), (9, 0), (5, 4), (9, 1), (3, 1)])
def test_a_table_behind_schedule_never_ranks_its_players_above_equals_who_played_more(
    fast: int, slow: int
) -> None:
    _, standings = league(fast, slow)
    players = standings["players"]
    assert standings["live_rounds"] == [2]
    for ahead, row in enumerate(players):
        for below in players[ahead + 1 :]:
            if (
                round_1(below) == round_1(row)
                and below["stats"]["games_won"] == row["stats"]["games_won"]
            ):
                assert below["live_games"] <= row["live_games"], (row, below)
                assert below["place"] >= row["place"]


def test_the_raw_totals_do_not_decide_the_place_mid_round() -> None:
    """The issue's example: a player on 36 after 3 games does not lead one on 211 after 9."""
    _, standings = league(9, 3)
    by_round_1: dict[int, list[dict]] = {}
    for row in standings["players"]:
        by_round_1.setdefault(round_1(row), []).append(row)
    pairs = [rows for rows in by_round_1.values() if len(rows) == 2]
    assert pairs, "round 1 made equal pairs"
    for pair in pairs:
        fast, slow = sorted(pair, key=lambda row: -row["live_games"])
        if fast["live_games"] > slow["live_games"]:
            assert slow["total"] < fast["total"]  # lower raw total, yet not ahead
            assert fast["place"] == slow["place"]  # level on the completed rounds: shared
            assert standings["players"].index(fast) < standings["players"].index(slow)


def test_the_places_come_from_the_completed_rounds_and_the_live_round_shows_beside() -> None:
    _, standings = league(6, 2)
    for row in standings["players"]:
        assert row["ranked_total"] == round_1(row)
        assert row["live_points"] == row["rounds"].get("2", 0)
        assert row["total"] == row["ranked_total"] + row["live_points"]
    ranked = [row["ranked_total"] for row in standings["players"]]
    assert ranked == sorted(ranked)  # lowest completed total first (R12.3)


def test_once_every_table_has_played_its_set_the_round_counts_in_full() -> None:
    tournament, _ = league(9, 9)
    standings = standings_compute(tournament=tournament)
    assert standings["live_rounds"] == []
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.IN_PLAY
    totals = [row["total"] for row in standings["players"]]
    assert totals == sorted(totals)
    assert all(row["ranked_total"] == row["total"] for row in standings["players"])


def test_in_the_first_round_everyone_is_level_until_it_is_played(db) -> None:
    tournament = tournament_with(10, slug="first")
    one, two = tables_of(published_round(tournament))
    play_set(one, games=6)
    play_set(two, games=2)
    players = standings_compute(tournament=tournament)["players"]
    assert {row["place"] for row in players} == {1}
    assert [row["live_games"] for row in players] == [6] * 5 + [2] * 5
