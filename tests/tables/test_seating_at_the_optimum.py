"""Seating at the optimum: where a design fits the field, a plan reaches it, and
round-by-round seating follows it round by round, repaired for withdrawals and late entries."""

import dataclasses

import pytest

from games.kalooki import ASAJ_2025, Ruleset
from tables import designs
from tables.seating import (
    DesignPlace,
    MeetingHistory,
    plan_event,
    seat,
    seat_round,
    table_sizes,
)


def tables_of(size: int) -> Ruleset:
    return dataclasses.replace(ASAJ_2025, table_size=size)


# players, usual table size, rounds, the optimum (pairs met twice): the table and bench.
AT_THE_OPTIMUM = [
    (25, 5, 6, 0),  # the affine plane AG(2, 5): everyone meets everyone once
    (40, 5, 8, 0),
    (32, 4, 10, 0),
    (16, 4, 5, 0),
    (15, 3, 7, 0),
    (21, 3, 10, 0),
    (100, 5, 8, 0),
]


@pytest.mark.parametrize(("players", "size", "rounds", "optimum"), AT_THE_OPTIMUM)
def test_a_plan_reaches_the_optimum_where_a_design_fits(players, size, rounds, optimum) -> None:
    plan = plan_event(players, rounds, seed=1, rules=tables_of(size))
    assert plan.pairs_met_twice == optimum
    assert plan.design is not None
    for seating in plan.rounds:
        assert [len(table) for table in seating] == table_sizes(players, tables_of(size))


def test_twenty_in_fives_for_two_rounds_meet_at_least_four_pairs_twice() -> None:
    """Four tables of five, then each new table takes at most one player of each old table:
    only four a table can be new, so every table of round 2 repeats a pair."""
    plan = plan_event(20, 2, seed=1)
    assert plan.pairs_met_twice == 4 and plan.max_meetings == 2


@pytest.mark.parametrize(
    ("players", "rounds", "sizes"),
    [(24, 6, [5, 5, 5, 5, 4]), (43, 5, [5] * 7 + [4] * 2), (38, 8, [5] * 6 + [4] * 2)],
)
def test_a_field_a_few_short_of_a_design_drops_players_apart_and_stays_at_the_optimum(
    players: int, rounds: int, sizes: list[int]
) -> None:
    plan = plan_event(players, rounds, seed=2)
    assert plan.pairs_met_twice == 0 and plan.design is not None
    assert all([len(table) for table in seating] == sizes for seating in plan.rounds)


def test_a_plan_for_200_players_follows_a_design() -> None:
    plan = plan_event(200, 8, seed=1)
    assert plan.pairs_met_twice == 0 and "RTD(5, 40)" in (plan.design or "")


def test_rounds_beyond_the_design_are_searched_from_the_greedy_start() -> None:
    plan = plan_event(16, 6, rules=tables_of(4), seed=1)  # AG(2, 4) has 5 rounds
    assert plan.design == "affine plane AG(2, 4)"
    assert plan.max_meetings == 2  # the sixth round cannot avoid repeats, nor a third meeting


# --- round by round ----------------------------------------------------------------------------


def round_by_round(players, rounds, *, size=5, changes=None, seed=0, seatings=None):
    """Seat `rounds` rounds one at a time, each following the last one's design place;
    `changes[r]` is (withdrawn, late) before round r. Returns the history and the places (and
    the seatings in `seatings`, when given a list)."""
    rules, history, place, places = tables_of(size), MeetingHistory(), None, []
    players = list(players)
    for number in range(rounds):
        withdrawn, late = (changes or {}).get(number, ((), ()))
        players = [p for p in players if p not in withdrawn] + list(late)
        seating = seat(
            players,
            history,
            seed=seed + number,
            rules=rules,
            design=place,
            rounds_left=rounds - number,
        )
        assert [len(table) for table in seating.tables] == table_sizes(len(players), rules)
        history, place = history.after(seating.tables), seating.design
        places.append(place)
        if seatings is not None:
            seatings.append(seating.tables)
    return history, places


@pytest.mark.parametrize(("players", "size", "rounds", "optimum"), AT_THE_OPTIMUM)
def test_round_by_round_seating_follows_the_design_to_the_optimum(
    players, size, rounds, optimum
) -> None:
    history, places = round_by_round(range(100, 100 + players), rounds, size=size)
    assert history.repeats().pairs_met_twice == optimum
    assert [place.round for place in places] == list(range(rounds))
    assert len({place.key for place in places}) == 1


def test_round_k_is_the_designs_round_k_at_the_players_points() -> None:
    seatings: list[list[list[int]]] = []
    _, places = round_by_round(range(25), 6, seatings=seatings)
    design = designs.design_by_key(places[0].key)
    for number, (place, seating) in enumerate(zip(places, seatings, strict=True)):
        by_points = {frozenset(place.points[p] for p in table) for table in seating}
        assert by_points == {frozenset(table) for table in design.rounds[number]}


@pytest.mark.parametrize(
    ("players", "rounds", "changes"),
    [
        (25, 6, {2: ((100, 101), ())}),  # two withdraw after round 2
        (25, 6, {2: ((100,), ()), 3: ((), (999,))}),  # one leaves, a late entry takes her point
        (40, 8, {3: ((100, 120, 130), ()), 5: ((), (998, 999))}),
        (32, 10, {4: ((100,), ()), 6: ((), (999,))}),
    ],
)
def test_withdrawals_and_late_entries_stay_within_a_small_margin_of_the_plan(
    players, rounds, changes
) -> None:
    size = 4 if players == 32 else 5
    history, places = round_by_round(range(100, 100 + players), rounds, size=size, changes=changes)
    assert history.repeats().pairs_met_twice <= 2
    assert all(place is not None for place in places)


def test_a_late_entry_takes_a_free_point_and_the_others_keep_theirs() -> None:
    _, places = round_by_round(range(24), 3, changes={2: ((), (99,))})
    before, after = places[1].points, places[2].points
    assert all(after[p] == before[p] for p in range(24))
    assert after[99] not in before.values()


def test_a_stored_place_that_makes_no_sense_starts_afresh() -> None:
    players = list(range(25))
    history = MeetingHistory.from_rounds([seat_round(players, {}, seed=1)])
    nonsense = DesignPlace("ag:2:5", 0, dict.fromkeys(players, 3))  # everyone at one point
    seating = seat(players, history, seed=2, design=nonsense)
    assert sorted(p for table in seating.tables for p in table) == players
    assert seating.design is None
