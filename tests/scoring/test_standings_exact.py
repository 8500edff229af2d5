"""The standings' own decisions, each checked against numbers worked out here from what was
played, never read back from the code under test: the movement arrows player by player, a
tie-break ruling and its reversal (PA7.5), a ruling's round (R12.4), live rounds (R12.1), void
attempts (R9.2), the snapshot's stamp, and Hand and Foot partners sitting opposite (HF1.2).

Each test here fails when the behaviour it names is broken by hand.
"""

from collections.abc import Callable

import pytest
from django.core.cache import cache

from scoring.models import Deal, DealResult, Ruling
from scoring.rulings import ruling_record, ruling_reverse
from scoring.services import SideInput, result_confirm, result_record
from scoring.standings import (
    _store,
    standings_compute,
    standings_current,
    standings_head,
    standings_kept,
    standings_refresh,
    standings_stamp,
)
from tables.models import Seat, Table
from tests.factories import EntryFactory, RoundFactory
from tests.scoring.other_games import entry_of, game_tournament, seated_by_hand, table_of
from tests.scoring.playing import (
    entry,
    penalty_ruling,
    play,
    play_set,
    published_round,
    rounds_over,
    seated,
    tables_of,
    tournament_with,
)
from tests.scoring.test_other_games import EXPECTED, HANDS, hf_inputs
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

GAMES = 9  # a Kalooki set (R12.1)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def rows(tournament: Tournament) -> dict[str, dict]:
    return {row["player"]: row for row in standings_compute(tournament=tournament)["players"]}


def set_points(names: list[str], winner: int, points: int, games: int = GAMES) -> dict[str, int]:
    """`games` games as `play` scores them (tests/scoring/playing.py), by hand: the winner goes
    out every game (0 points, R8.3), every other player scores `points` plus their seat number."""
    scored = {seat: 0 if seat == winner else games * (points + seat + 1) for seat in range(5)}
    return {name: scored[seat] for seat, name in enumerate(names)}


def places(totals: dict[str, int]) -> dict[str, int]:
    """Places by total, lowest first (R12.3); the totals here are all different."""
    assert len(set(totals.values())) == len(totals), "a test set-up with a tie"
    return {name: rank for rank, name in enumerate(sorted(totals, key=totals.get), start=1)}


# --- movement ---------------------------------------------------------------------------------


def test_movement_is_places_gained_since_the_previous_round_player_by_player() -> None:
    """Round 1's last player wins every game of round 2: up four places (+4); each player they
    passed is down one (-1), and the arrows are computed here from the points played. (Two
    games in round 1 and nine in round 2: no two totals can be level, whatever the seats.)"""
    tournament = tournament_with(5)
    [one] = tables_of(published_round(tournament))
    play_set(one, games=2, winner=0)
    rounds_over(tournament)
    first = set_points(seated(one), winner=0, points=10, games=2)
    last = max(first, key=first.get)
    [two] = tables_of(published_round(tournament, number=2, seed=2))
    order = seated(two)
    play_set(two, winner=order.index(last), points=40)
    second = set_points(order, winner=order.index(last), points=40)
    totals = {name: first[name] + second[name] for name in first}
    before, after = places(first), places(totals)
    expected = {name: before[name] - after[name] for name in first}
    assert expected[last] == 4 and sum(expected.values()) == 0
    standings = rows(tournament)
    assert {name: row["total"] for name, row in standings.items()} == totals
    assert {name: row["place"] for name, row in standings.items()} == after
    assert {name: row["movement"] for name, row in standings.items()} == expected


def test_no_movement_is_shown_after_the_first_round() -> None:
    tournament = tournament_with(5)
    [one] = tables_of(published_round(tournament))
    play_set(one, winner=2)
    rounds_over(tournament)
    assert [row["movement"] for row in rows(tournament).values()] == [None] * 5


# --- tie-break rulings (PA7.5) ----------------------------------------------------------------

PA_NAMES = ["Ann", "Ben", "Cy"]
# (cards, parcels, J♥) for Ann, Ben and Cy: 22 cards, six parcels; nobody reaches 30 (PA5.2).
PA_DEAL = [(6, 2, False), (8, 2, True), (8, 2, False)]
# PA4: a point a card, the J♥ 2 more, and the six bonus points shared by the three level on
# parcels (PA4.2: two each).
PA_TOTALS = {"Ann": 6 + 2, "Ben": 8 + 2 + 2, "Cy": 8 + 2}
PLACE_POINTS = {1: 3, 2: 1, 3: 0}  # PA7.3


def parcellus_table() -> tuple[Tournament, Table]:
    """Ann, Ben and Cy at one table, one deal played: the match is not over (PA5.2)."""
    tournament = game_tournament("parcellus")
    table = table_of(seated_by_hand(tournament, [PA_NAMES]))
    sides = [
        SideInput(entry_of(tournament, name).pk, {"cards": c, "parcels": p, "jack_of_hearts": j})
        for name, (c, p, j) in zip(PA_NAMES, PA_DEAL, strict=True)
    ]
    result_record(table=table, number=1, sides=sides, via="test")
    return tournament, table


def tie_break(tournament: Tournament, table: Table, name: str) -> Ruling:
    return ruling_record(
        tournament=tournament,
        by=None,
        kind="tie_break",
        entry=entry_of(tournament, name),
        table=table,
        decision=f"{name} wins the match that cannot be finished (PA7.5).",
    )


def match_points(tournament: Tournament) -> dict[str, tuple[int, int]]:
    return {
        name: (row["stats"]["wins"], row["stats"]["match_points"])
        for name, row in rows(tournament).items()
    }


def test_a_tie_break_ruling_for_the_first_seat_names_the_winner_pa7_5() -> None:
    """Side 0 is a side like any other: Ann, in the first seat, is named the winner and is first;
    the others are placed by total (Ben 12, Cy 10: PA7.5) and score their places (PA7.3)."""
    tournament, table = parcellus_table()
    assert match_points(tournament) == {"Ann": (0, 0), "Ben": (0, 0), "Cy": (0, 0)}
    tie_break(tournament, table, "Ann")
    ann, ben, cy = PLACE_POINTS[1], PLACE_POINTS[2], PLACE_POINTS[3]  # Ann first, then by total
    expected = {"Ann": (1, ann), "Ben": (0, ben), "Cy": (0, cy)}
    assert match_points(tournament) == expected
    assert {name: row["total"] for name, row in rows(tournament).items()} == PA_TOTALS


def test_a_reversed_tie_break_ruling_decides_nothing_pa7_5() -> None:
    tournament, table = parcellus_table()
    ruling = tie_break(tournament, table, "Cy")
    assert match_points(tournament)["Cy"] == (1, PLACE_POINTS[1])
    ruling_reverse(ruling=ruling, by=None, reason="The match was finished after all.")
    assert match_points(tournament) == {"Ann": (0, 0), "Ben": (0, 0), "Cy": (0, 0)}


# --- a ruling's round (R12.4) ------------------------------------------------------------------


def test_a_ruling_without_a_round_counts_in_the_players_latest_round_r12_4() -> None:
    """A ruling stored without a round or table (as an older one may be) counts in the latest
    round the player has a result in, where the latest-round tie-break sees it (R12.3)."""
    tournament = tournament_with(5)
    [one] = tables_of(published_round(tournament))
    play_set(one, winner=0)
    rounds_over(tournament)
    [two] = tables_of(published_round(tournament, number=2, seed=2))
    play_set(two, winner=0, points=20)
    name = seated(two)[1]
    ruling = penalty_ruling(
        tournament=tournament, entry=entry(tournament, name), points=25, decision="Card shown"
    )
    Ruling.objects.filter(pk=ruling.pk).update(round=None, table=None)
    first = set_points(seated(one), winner=0, points=10)[name]
    second = set_points(seated(two), winner=0, points=20)[name]
    row = rows(tournament)[name]
    assert row["rounds"] == {"1": first, "2": second + 25}
    assert row["total"] == first + second + 25


# --- live rounds (R12.1) -----------------------------------------------------------------------


def test_a_round_whose_every_set_is_entered_is_not_live_though_a_result_awaits_confirmation() -> (
    None
):
    """Whether a table's match is over is judged from every deal entered, pending ones too: the
    set is played, only its last result waits for a second person. The round counts now."""
    tournament = tournament_with(5, requires_confirmation=True)
    [table] = tables_of(published_round(tournament))
    deals = [play(table, number, winner=0) for number in range(1, GAMES + 1)]
    for deal in deals[:-1]:
        result_confirm(deal=deal, by=None, via="test · Ben")
    standings = standings_compute(tournament=tournament)
    assert standings["live_rounds"] == []
    expected = {
        name: (GAMES - 1) * (0 if seat == 0 else 10 + seat + 1)
        for seat, name in enumerate(seated(table))
    }
    got = {row["player"]: (row["total"], row["ranked_total"]) for row in standings["players"]}
    assert got == {name: (points, points) for name, points in expected.items()}


def test_a_round_with_a_set_unfinished_is_live_and_counts_the_games_every_table_played_r12_1() -> (
    None
):
    """A live round counts up to the game every table has played (here the only one's
    three), the same games for everyone; the set's win waits for its end (R4.1)."""
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play_set(table, games=3, winner=0)
    standings = standings_compute(tournament=tournament)
    assert standings["live_rounds"] == [1] and standings["counted_up_to"] == {"1": 3}
    assert [row["total"] for row in standings["players"]] == [0, 36, 39, 42, 45]
    assert all(row["ranked_total"] == row["total"] for row in standings["players"])
    assert {row["stats"]["wins"] for row in standings["players"]} == {0}


# --- void attempts (R9.2) ---------------------------------------------------------------------


def test_void_attempts_count_nothing_even_with_results_stored_against_them_r9_2() -> None:
    """A void attempt scores nothing for anyone (R9.2): not in the totals, the games played or
    the table's count, even where results are stored against it (a deal marked void later)."""
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play(table, 1, winner=0)
    result_record(table=table, number=2, hands=[], void=True, via="test")
    play(table, 2, winner=1)
    void = Deal.objects.create(table=table, number=3, attempt=1, is_void=True, status="confirmed")
    for side, seat in enumerate(table.seats.order_by("position")):
        DealResult.objects.create(deal=void, entry=seat.entry, side=side, points=500)
    names = seated(table)
    expected = {name: (0 if s == 0 else 11 + s) + (0 if s == 1 else 11 + s) for s, name in
                enumerate(names)}  # fmt: skip
    standings = standings_compute(tournament=tournament)
    assert {row["player"]: row["total"] for row in standings["players"]} == expected
    assert {row["games_played"] for row in standings["players"]} == {2}
    assert [row["games_played"] for row in standings["tables"]] == [2]


# --- the stamp ---------------------------------------------------------------------------------


def test_completing_a_round_changes_the_stamp_and_re_ranks() -> None:
    """Nothing played changes when a round is completed, yet the places do (a live round does
    not decide them): the stamp must see it, or the next refresh keeps the old snapshot."""
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play_set(table, games=3, winner=0)
    live = standings_refresh(tournament_id=tournament.pk)
    assert live.data["live_rounds"] == [1]
    assert live.data["counted_up_to"] == {"1": 3}  # the set's three games, its win not yet
    stamp = standings_stamp(tournament=tournament)
    rounds_over(tournament)
    assert standings_stamp(tournament=tournament) != stamp
    complete = standings_refresh(tournament_id=tournament.pk)
    assert complete.version == live.version + 1 and complete.data["live_rounds"] == []
    assert [row["place"] for row in complete.data["players"]] == [1, 2, 3, 4, 5]


# --- Hand and Foot partners (HF1.2) ------------------------------------------------------------


def test_hand_and_foot_partners_seated_one_by_one_sit_opposite_hf1_2() -> None:
    """Four players seated in their own names at a table of four: seats 1 and 3 are one team,
    seats 2 and 4 the other (HF1.2), so partners share their team's score."""
    tournament = game_tournament("hand_and_foot")
    round = RoundFactory(tournament=tournament, number=1)
    table = Table.objects.create(round=round, number=1)
    for position, name in enumerate(["Ann", "Ben", "Cy", "Di"], start=1):
        player = EntryFactory(tournament=tournament, player__name=name)
        Seat.objects.create(table=table, round=round, entry=player, position=position)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.IN_PLAY)
    table = table_of(round)
    result_record(table=table, number=1, sides=hf_inputs(tournament, HANDS[0]), via="test")
    totals = {name: row["total"] for name, row in rows(tournament).items()}
    ann_cy, ben_di = EXPECTED[0]
    assert totals == {"Ann": ann_cy, "Cy": ann_cy, "Ben": ben_di, "Di": ben_di}


# --- the newest standings each process holds ---------------------------------------------------


def test_the_head_is_the_newest_snapshots_version_and_time_from_the_cache_or_the_database() -> None:
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play(table, 1)
    snapshot = standings_refresh(tournament_id=tournament.pk)
    assert snapshot.version == 1  # the first snapshot
    head = {"version": snapshot.version, "computed_at": snapshot.data["computed_at"]}
    assert cache.get(f"standings:{tournament.pk}:head") == head  # cached with the standings
    assert standings_head(tournament=tournament) == head
    cache.clear()
    kept: list[dict] = []
    assert standings_head(tournament=tournament, keep=kept.append) == head
    assert [data["version"] for data in kept] == [snapshot.version]  # read once, handed over
    assert cache.get(f"standings:{tournament.pk}:head") == head  # and cached for the next


def test_a_process_reads_the_standings_once_per_version() -> None:
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play(table, 1)
    first = standings_refresh(tournament_id=tournament.pk)
    kept = standings_kept(tournament=tournament)
    assert kept["version"] == first.version
    assert standings_kept(tournament=tournament) is kept  # the same version: not read again
    play(table, 2)
    second = standings_refresh(tournament_id=tournament.pk)
    newer = standings_kept(tournament=tournament)
    assert newer is not kept and newer["version"] == second.version
    assert newer["tables"][0]["games_played"] == 2


def test_the_standings_are_served_from_the_cache_without_a_query(
    django_assert_num_queries: Callable,
) -> None:
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play(table, 1)
    snapshot = standings_refresh(tournament_id=tournament.pk)
    with django_assert_num_queries(0):
        assert standings_current(tournament=tournament) == snapshot.data


def test_a_refresh_that_lost_the_race_for_its_version_returns_the_newest() -> None:
    """Two refreshes racing for one version: the loser's insert fails and it reads the newest
    snapshot stored (`standings_refresh`: safe to run concurrently)."""
    tournament = tournament_with(5)
    [table] = tables_of(published_round(tournament))
    play(table, 1)
    first = standings_refresh(tournament_id=tournament.pk)
    play(table, 2)
    second = standings_refresh(tournament_id=tournament.pk)
    lost = _store(tournament, "another stamp", first.version)
    assert lost.pk == second.pk and lost.version == 2


# --- where a ruling's points count (R12.4) -----------------------------------------------------


def test_rulings_before_any_result_add_up_in_their_round_r12_4() -> None:
    """No match to count them in yet: the points stand alone in the round, and add up."""
    tournament = tournament_with(5)
    published_round(tournament)
    ben = entry(tournament, "Ben")
    penalty_ruling(tournament=tournament, entry=ben, points=25, decision="Late")
    penalty_ruling(tournament=tournament, entry=ben, points=10, decision="Slow play")
    row = rows(tournament)["Ben"]
    assert (row["total"], row["ruling_points"], row["rounds"]) == (35, 35, {"1": 35})
    assert row["stats"] == {
        "total": 35, "games_won": 0, "down_and_outs": 0, "wins": 0, "latest_round_score": 35
    }  # fmt: skip
