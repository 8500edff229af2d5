"""A property of every seating: whatever the field, the game, the mode and the pins,
every round keeps to the game's table plan (R12.2, PA7.1), gives the plan's byes to distinct
players, seats everyone else exactly once, and keeps pinned players at their tables and seats."""

import dataclasses

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import games
from games.kalooki import ASAJ_2025
from tables.seating import (
    MeetingHistory,
    Pin,
    SeatingError,
    check_pins,
    order_seats,
    plan_event,
    seat,
    seats_by_seed,
    table_plan,
)

PARCELLUS = games.get("parcellus")
KALOOKI = games.get("kalooki")


def kalooki(size: int):
    return KALOOKI.rules(dataclasses.replace(ASAJ_2025, table_size=size))


RULES = st.one_of(
    st.integers(3, 6).map(kalooki),
    st.just(PARCELLUS.rules(PARCELLUS.ruleset())),
)


@st.composite
def pins_for(draw, players: list[int], sizes: list[int]) -> dict[int, Pin]:
    """Up to four valid pins: a table that exists, and perhaps a seat at it."""
    chosen = draw(st.lists(st.sampled_from(players), unique=True, max_size=min(4, len(players))))
    pins = {}
    for player in chosen:
        table = draw(st.integers(1, len(sizes)))
        seat_at = draw(st.none() | st.integers(1, sizes[table - 1]))
        pins[player] = Pin(table, seat_at)
    try:
        check_pins(pins, sizes)
    except SeatingError:
        assume(False)
    return pins


def assert_round_keeps_to_the_plan(players, tables, byes, rules, pins) -> None:
    plan = table_plan(len(players), rules)
    assert [len(table) for table in tables] == list(plan.sizes)
    assert len(byes) == plan.byes == len(set(byes))
    assert sorted([p for table in tables for p in table] + byes) == sorted(players)
    for player, pin in pins.items():
        if player in byes:
            continue
        table = tables[pin.table - 1]
        assert player in table
        if pin.seat is not None:
            assert table[pin.seat - 1] == player


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    rules=RULES,
    count=st.integers(3, 45),
    rounds=st.integers(1, 3),
    mode=st.sampled_from(["avoid_repeats", "standings", "rating_balanced", "random"]),
    seed=st.integers(0, 2**31 - 1),
)
def test_every_round_keeps_to_the_table_plan_byes_and_pins(
    data, rules, count, rounds, mode, seed
) -> None:
    players = [1000 + 3 * p for p in range(count)]
    sizes = list(table_plan(count, rules).sizes)
    pins = data.draw(pins_for(players, sizes))
    ratings = {player: 1500 + (player * 37) % 400 for player in players}
    history, place, byes_so_far = MeetingHistory(), None, {}
    for number in range(rounds):
        seating = seat(
            players,
            history,
            seed=seed + number,
            rules=rules,
            mode=mode,
            byes_so_far=byes_so_far,
            ratings=ratings,
            pins=pins,
            design=place,
            rounds_left=rounds - number,
            swaps=2000,
        )
        tables, _ = order_seats(seating.tables, seed=seed ^ number, pins=pins)
        assert_round_keeps_to_the_plan(players, tables, seating.byes, rules, pins)
        history, place = history.after(tables), seating.design
        for player in seating.byes:
            byes_so_far[player] = byes_so_far.get(player, 0) + 1
    if rounds * table_plan(count, rules).byes <= count:
        assert max(byes_so_far.values(), default=0) <= 1  # nobody sits out twice too soon


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    size=st.integers(3, 6),
    count=st.integers(3, 60),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 2**31 - 1),
)
def test_every_plan_keeps_to_the_table_plan_and_pins(data, size, count, rounds, seed) -> None:
    rules = kalooki(size)
    sizes = list(table_plan(count, rules).sizes)
    pins = data.draw(pins_for(list(range(count)), sizes))
    plan = plan_event(count, rounds, seed=seed, rules=rules, pins=pins, swaps=2000)
    assert len(plan.rounds) == rounds
    for seating in plan.rounds:
        assert_round_keeps_to_the_plan(
            list(range(count)),
            seating,
            [],
            rules,
            {
                player: Pin(pin.table)
                for player, pin in pins.items()  # a plan's seat order is free
            },
        )
    assert plan.pairs_met_twice == MeetingHistory.from_rounds(plan.rounds).repeats().pairs_met_twice


@settings(max_examples=80, deadline=None)
@given(
    rules=RULES,
    count=st.integers(3, 40),
    mode=st.sampled_from(["standings", "random"]),
    seed=st.integers(0, 2**31 - 1),
    data=st.data(),
)
def test_a_stage_seats_only_those_who_made_its_cut_to_the_plan(
    rules, count, mode, seed, data
) -> None:
    """A cut's entrants (a subset of the field, seeded) are seated to the game's plan for
    them, drawn or by standing; by standing, seeds snake across the tables in seed order."""
    field = [500 + 7 * p for p in range(count + data.draw(st.integers(0, 20)))]
    entrants = data.draw(st.permutations(field))[:count]
    seating = seat(entrants, MeetingHistory(), seed=seed, rules=rules, mode=mode, standing=entrants)
    tables, _ = order_seats(seating.tables, seed=seed)
    assert_round_keeps_to_the_plan(entrants, tables, seating.byes, rules, {})
    if seating.byes:
        return
    sizes = [len(table) for table in tables]
    by_seed = seats_by_seed(entrants, sizes)
    assert [len(table) for table in by_seed] == sizes
    assert sorted(p for table in by_seed for p in table) == sorted(entrants)
    rank = {player: index for index, player in enumerate(entrants)}
    assert all([rank[p] for p in table] == sorted(rank[p] for p in table) for table in by_seed)
    heads = sorted(rank[table[0]] for table in by_seed)
    assert heads == list(range(len(sizes)))  # the best seeds head the tables, one each
