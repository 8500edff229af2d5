"""Seating rules (R12.1, R12.2, R4.3): table sizes, seating a round, first dealers, event plans."""

import dataclasses
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import kalooki as rules
from games.kalooki import ASAJ_2025, Ruleset
from tables.seating import (
    MeetingHistory,
    Plan,
    Repeats,
    SeatingError,
    choose_first_dealers,
    plan_event,
    seat_round,
    table_sizes,
)

# R12.2: the counts that cannot be split into fours and fives.
R12_2_SPECIAL = {6: [6], 7: [4, 3], 11: [6, 5]}


def tables_of(size: int) -> Ruleset:
    """ASAJ with another usual table size; the least (3) and largest (6) tables stay."""
    return dataclasses.replace(ASAJ_2025, table_size=size)


def seated_players(seating: list[list[int]]) -> list[int]:
    return sorted(player for table in seating for player in table)


def repeats_of(seating: list[list[int]], history: MeetingHistory) -> int:
    return sum(history.meetings(a, b) for table in seating for a, b in combinations(table, 2))


# --- table sizes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players",
    [p for p in range(4, 61) if p not in R12_2_SPECIAL],
    ids=lambda p: f"R12.2-{p}-players",
)
def test_players_sit_at_fives_and_fours_only(players: int) -> None:
    sizes = table_sizes(players)

    assert sum(sizes) == players
    assert set(sizes) <= {4, 5}


@pytest.mark.parametrize("players", range(4, 61), ids=lambda p: f"R12.2-{p}-players")
def test_as_many_full_tables_as_possible(players: int) -> None:
    sizes = table_sizes(players)

    if players not in R12_2_SPECIAL:
        assert sizes.count(4) < 5  # five fours would seat as many as four fives


def test_forty_three_players_sit_at_seven_fives_and_two_fours_R12_2() -> None:
    assert table_sizes(43) == [5, 5, 5, 5, 5, 5, 5, 4, 4]


@pytest.mark.parametrize(
    ("players", "sizes"), sorted(R12_2_SPECIAL.items()), ids=lambda v: f"R12.2-{v}"
)
def test_six_seven_and_eleven_players_sit_as_r12_2_says(players: int, sizes: list[int]) -> None:
    assert table_sizes(players) == sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, [3]), (4, [4]), (5, [5]), (8, [4, 4]), (9, [5, 4]), (12, [4, 4, 4]), (16, [4] * 4)],
    ids=lambda v: f"R12.2-{v}",
)
def test_small_fields_sit_as_documented(players: int, sizes: list[int]) -> None:
    assert table_sizes(players) == sizes


def test_three_players_make_the_smallest_table_R12_1() -> None:
    assert table_sizes(ASAJ_2025.min_table_size) == [3]


@pytest.mark.parametrize("players", [0, 1, 2])
def test_fewer_than_three_players_are_refused_R12_1(players: int) -> None:
    with pytest.raises(SeatingError, match=r"at least 3 checked-in players.*\(R12\.1\)"):
        table_sizes(players)


def test_refusal_says_how_many_are_checked_in_and_what_to_do() -> None:
    with pytest.raises(SeatingError) as refused:
        table_sizes(2)

    assert str(refused.value) == (
        "Seating needs at least 3 checked-in players; 2 are checked in. "
        "Check in more players (R12.1)."
    )


def test_refusal_names_the_rulesets_least_table_R12_1() -> None:
    fours_at_least = dataclasses.replace(ASAJ_2025, min_table_size=4)

    with pytest.raises(SeatingError, match="at least 4 checked-in players; 3 are checked in"):
        table_sizes(3, fours_at_least)


def test_a_count_the_ruleset_cannot_split_is_refused_R12_2() -> None:
    fives_only = dataclasses.replace(ASAJ_2025, min_table_size=5, max_table_size=5)

    with pytest.raises(SeatingError) as refused:
        table_sizes(7, fives_only)

    assert str(refused.value) == (
        "7 players cannot be seated at tables of 5 to 5. "
        "Check in one more or one fewer player, or seat them by hand (R12.2)."
    )


def test_a_seating_error_is_a_value_error() -> None:
    assert issubclass(SeatingError, ValueError)


@pytest.mark.parametrize("size", [3, 4, 5, 6], ids=lambda n: f"R12.2-tables-of-{n}")
def test_every_table_size_seats_everyone_within_the_rulesets_tables(size: int) -> None:
    ruleset = tables_of(size)
    for players in range(3, 301):
        sizes = table_sizes(players, ruleset)

        assert sum(sizes) == players
        assert ruleset.min_table_size <= min(sizes)
        assert max(sizes) <= ruleset.max_table_size
        assert sizes == sorted(sizes, reverse=True)
        assert sizes == list(rules.table_sizes(players, ruleset))  # one source of truth


@pytest.mark.parametrize("size", [4, 5, 6])
def test_big_fields_are_never_short_by_more_than_one_R12_2(size: int) -> None:
    for players in range(size * size, 200):
        assert set(table_sizes(players, tables_of(size))) <= {size, size - 1}


def test_a_plan_seats_at_the_rulesets_table_size() -> None:
    plan = plan_event(24, 2, seed=1, rules=tables_of(6), swaps=2000)

    assert [[len(table) for table in seating] for seating in plan.rounds] == [[6] * 4] * 2


# --- meeting history ---------------------------------------------------------------------------


def test_history_counts_meetings_over_rounds() -> None:
    history = MeetingHistory.from_rounds([[[1, 2, 3], [4, 5, 6]], [[1, 2, 4], [3, 5, 6]]])

    assert history.meetings(1, 2) == 2
    assert history.meetings(2, 1) == 2
    assert history.meetings(1, 5) == 0
    assert history.repeats() == Repeats(pairs_met_twice=2, max_meetings=2, repeat_meetings=2)


def test_history_after_a_round_leaves_the_earlier_history_unchanged() -> None:
    before = MeetingHistory.from_rounds([[[1, 2, 3]]])
    after = before.after([[1, 2, 4]])

    assert before.meetings(1, 2) == 1
    assert after.meetings(1, 2) == 2


def test_fewer_pairs_met_twice_is_better_whatever_the_most_meetings() -> None:
    assert Repeats(1, 3, 2) < Repeats(2, 2, 2) < Repeats(2, 3, 3)


# --- seating a round ---------------------------------------------------------------------------

ENTRY_IDS = list(range(101, 144))  # 43 database ids


def test_round_one_seats_every_player_exactly_once_at_r12_2_tables() -> None:
    seating = seat_round(ENTRY_IDS, MeetingHistory(), seed=1)

    assert seated_players(seating) == ENTRY_IDS
    assert [len(table) for table in seating] == table_sizes(43)


def test_round_one_is_a_shuffle() -> None:
    seating = seat_round(ENTRY_IDS, {}, seed=1)

    assert [p for table in seating for p in table] != ENTRY_IDS


def test_same_seed_gives_the_same_seating() -> None:
    history = MeetingHistory.from_rounds([seat_round(ENTRY_IDS, {}, seed=5)])

    assert seat_round(ENTRY_IDS, history, seed=9) == seat_round(ENTRY_IDS, history, seed=9)


def test_different_seeds_usually_give_different_seatings() -> None:
    seatings = {str(seat_round(ENTRY_IDS, {}, seed=seed)) for seed in range(5)}

    assert len(seatings) == 5


def test_second_round_of_twenty_five_players_repeats_no_meeting() -> None:
    players = list(range(25))
    history = MeetingHistory.from_rounds([seat_round(players, {}, seed=3)])

    second = seat_round(players, history, seed=4)

    assert seated_players(second) == players
    assert repeats_of(second, history) == 0


def test_history_may_be_a_plain_mapping_of_pairs() -> None:
    players = list(range(25))
    history = MeetingHistory.from_rounds([seat_round(players, {}, seed=3)])

    from_mapping = seat_round(players, dict(history.counts), seed=4)

    assert from_mapping == seat_round(players, history, seed=4)


def test_meetings_with_players_who_left_are_ignored() -> None:
    history = MeetingHistory.from_rounds([[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]])

    seating = seat_round([1, 2, 3, 6, 7, 8], history, seed=1)

    assert seated_players(seating) == [1, 2, 3, 6, 7, 8]


def test_when_repeats_are_forced_no_pair_meets_a_third_time() -> None:
    # Twelve players, three fours: from round 4 on repeats cannot be avoided (each player has
    # met 9 of 11 others after three rounds), but a third meeting can be.
    players = list(range(12))
    history = MeetingHistory()
    for round_number in range(4):
        history = history.after(seat_round(players, history, seed=round_number))

    assert history.repeats().max_meetings == 2


def test_round_by_round_seating_keeps_repeats_low() -> None:
    players = list(range(40))
    history = MeetingHistory()
    for round_number in range(6):
        history = history.after(seat_round(players, history, seed=round_number))

    assert history.repeats().pairs_met_twice <= 11


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(SeatingError, match="listed twice"):
        seat_round([1, 2, 3, 3], {}, seed=1)


def test_seating_fewer_than_three_is_refused_R12_1() -> None:
    with pytest.raises(SeatingError, match="Check in more players"):
        seat_round([1, 2], {}, seed=1)


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 60),
    size=st.integers(3, 6),
    earlier_rounds=st.integers(0, 3),
    seed=st.integers(0, 2**32),
)
def test_every_player_takes_exactly_one_seat(
    players: int, size: int, earlier_rounds: int, seed: int
) -> None:
    ruleset = tables_of(size)
    ids = [1000 + 7 * p for p in range(players)]
    history = MeetingHistory.from_rounds(
        seat_round(ids, {}, seed=seed + r, rules=ruleset) for r in range(earlier_rounds)
    )

    seating = seat_round(ids, history, seed=seed, rules=ruleset, swaps=2000)

    assert seated_players(seating) == ids
    assert [len(table) for table in seating] == table_sizes(players, ruleset)


# --- first dealers (R4.3) ----------------------------------------------------------------------


def test_first_dealer_is_a_seat_at_each_table_R4_3() -> None:
    seating = seat_round(ENTRY_IDS, {}, seed=1)

    dealers = choose_first_dealers(seating, seed=1)

    assert len(dealers) == len(seating)
    assert all(0 <= seat < len(table) for seat, table in zip(dealers, seating, strict=True))


def test_first_dealers_are_reproducible_by_seed_R4_3() -> None:
    tables = [[1, 2, 3, 4, 5]] * 20

    assert choose_first_dealers(tables, seed=7) == choose_first_dealers(tables, seed=7)
    assert choose_first_dealers(tables, seed=7) != choose_first_dealers(tables, seed=8)


def test_every_seat_can_deal_first_R4_3() -> None:
    dealers = choose_first_dealers([[1, 2, 3, 4, 5]] * 200, seed=1)

    assert set(dealers) == {0, 1, 2, 3, 4}


# --- planning an event -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plan_43_by_5() -> Plan:
    return plan_event(43, 5, seed=1)


def test_plan_seats_every_player_once_per_round(plan_43_by_5: Plan) -> None:
    assert len(plan_43_by_5.rounds) == 5
    for seating in plan_43_by_5.rounds:
        assert seated_players(seating) == list(range(43))
        assert [len(table) for table in seating] == table_sizes(43)


def test_forty_three_players_meet_nobody_twice_in_five_rounds_R12_2(plan_43_by_5: Plan) -> None:
    assert plan_43_by_5.pairs_met_twice == 0
    assert plan_43_by_5.max_meetings == 1


def test_plan_reports_its_own_repeats() -> None:
    plan = plan_event(12, 5, seed=2)
    repeats = MeetingHistory.from_rounds(plan.rounds).repeats()

    assert (plan.pairs_met_twice, plan.max_meetings) == (
        repeats.pairs_met_twice,
        repeats.max_meetings,
    )
    assert plan.pairs_met_twice > 0  # 12 players at fours cannot go 5 rounds without repeats


def test_same_seed_gives_the_same_plan() -> None:
    assert plan_event(20, 4, seed=3) == plan_event(20, 4, seed=3)


def test_different_seeds_usually_give_different_plans() -> None:
    assert plan_event(20, 4, seed=3).rounds != plan_event(20, 4, seed=4).rounds


def test_forty_players_over_six_rounds_meet_few_pairs_twice() -> None:
    assert plan_event(40, 6, seed=1).pairs_met_twice <= 11


def test_one_table_plans_every_round_at_it() -> None:
    plan = plan_event(5, 3, seed=1)

    assert [seated_players(seating) for seating in plan.rounds] == [list(range(5))] * 3
    assert plan.max_meetings == 3


def test_plan_serialises_for_the_seating_plan_command() -> None:
    plan = plan_event(9, 2, seed=1)

    assert plan.to_dict() == {
        "rounds": plan.rounds,
        "pairs_met_twice": plan.pairs_met_twice,
        "max_meetings": plan.max_meetings,
        "design": plan.design,
    }


def test_a_plan_needs_at_least_one_round_R12_1() -> None:
    with pytest.raises(SeatingError, match="at least one round"):
        plan_event(10, 0, seed=1)
