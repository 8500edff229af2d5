"""Seating modes per round: avoid repeats, by standings (Swiss-like), by rating
(balanced or stratified, over a plain mapping of player to rating) and a random draw; and seat
fairness: nobody always deals first or always plays first (R4.3)."""

from collections import Counter
from statistics import mean, pstdev

import pytest

from tables.seating import (
    DIRECTOR_MODES,
    MeetingHistory,
    Pin,
    SeatDuty,
    SeatingError,
    SeatingMode,
    order_seats,
    seat,
    seat_round,
)

PLAYERS = list(range(100, 125))  # 25 players: five tables of five
STANDING = PLAYERS  # 100 leads, 124 is last
RATINGS = {player: 1500 + 10 * (124 - player) for player in PLAYERS}  # 100 is the strongest


@pytest.fixture(scope="module")
def after_round_one() -> MeetingHistory:
    return MeetingHistory.from_rounds([seat_round(PLAYERS, {}, seed=1)])


def places(table: list[int]) -> list[int]:
    return sorted(STANDING.index(p) for p in table)


# --- by standings -------------------------------------------------------------------------------


def test_by_standings_the_leaders_sit_at_table_one_and_meet_nobody_again(after_round_one) -> None:
    seating = seat(PLAYERS, after_round_one, seed=2, mode="standings", standing=STANDING)
    assert after_round_one.after(seating.tables).repeats().pairs_met_twice == 0
    averages = [mean(places(table)) for table in seating.tables]
    assert averages == sorted(averages)  # table 1 the top table, then down the standings
    assert max(places(seating.tables[0])) < 10  # the top table from the top ten
    assert min(places(seating.tables[-1])) >= 15  # the bottom one from the bottom ten


def test_by_standings_a_player_without_a_place_counts_as_last() -> None:
    seating = seat(PLAYERS, MeetingHistory(), seed=3, mode="standings", standing=PLAYERS[:20])
    assert set(seating.tables[-1]) == set(PLAYERS[20:])


# --- by rating ----------------------------------------------------------------------------------


def test_balanced_tables_are_of_about_equal_strength(after_round_one) -> None:
    seating = seat(PLAYERS, after_round_one, seed=2, mode="rating_balanced", ratings=RATINGS)
    strengths = [mean(RATINGS[p] for p in table) for table in seating.tables]
    assert max(strengths) - min(strengths) <= 10  # ratings 10 apart: one place at most
    assert after_round_one.after(seating.tables).repeats().pairs_met_twice == 0


def test_stratified_tables_grade_the_field_strongest_first(after_round_one) -> None:
    seating = seat(PLAYERS, after_round_one, seed=2, mode="rating_stratified", ratings=RATINGS)
    strengths = [mean(RATINGS[p] for p in table) for table in seating.tables]
    assert strengths == sorted(strengths, reverse=True)
    spreads = [pstdev(RATINGS[p] for p in table) for table in seating.tables]
    balanced = seat(PLAYERS, after_round_one, seed=2, mode="rating_balanced", ratings=RATINGS)
    assert mean(spreads) < mean(pstdev(RATINGS[p] for p in t) for t in balanced.tables)


def test_a_player_without_a_rating_counts_as_the_fields_mean() -> None:
    ratings = {p: r for p, r in RATINGS.items() if p != 112}
    seating = seat(PLAYERS, MeetingHistory(), seed=4, mode="rating_balanced", ratings=ratings)
    assert sorted(p for table in seating.tables for p in table) == PLAYERS


@pytest.mark.parametrize("mode", ["rating_balanced", "rating_stratified"])
def test_seating_by_rating_without_ratings_is_refused(mode: str) -> None:
    with pytest.raises(SeatingError, match="needs the players' ratings, and none are recorded"):
        seat(PLAYERS, MeetingHistory(), seed=1, mode=mode)


def test_directors_are_not_offered_rating_modes_until_ratings_exist() -> None:
    assert [mode.value for mode in DIRECTOR_MODES] == ["avoid_repeats", "standings", "random"]
    assert all(not mode.needs_ratings for mode in DIRECTOR_MODES)


# --- a random draw ------------------------------------------------------------------------------


def test_a_random_draw_ignores_earlier_meetings_and_keeps_to_its_seed(after_round_one) -> None:
    draws = [seat(PLAYERS, after_round_one, seed=s, mode="random").tables for s in range(6)]
    assert draws[0] == seat(PLAYERS, after_round_one, seed=0, mode="random").tables
    assert any(after_round_one.after(draw).repeats().pairs_met_twice for draw in draws)


def test_every_mode_has_words() -> None:
    assert SeatingMode("standings").words.startswith("By standings: players of similar standing")
    assert SeatingMode.AVOID_REPEATS.label == "Avoid repeats"
    with pytest.raises(ValueError):
        SeatingMode("alphabetical")


# --- seat fairness (R4.3) -----------------------------------------------------------------------


def test_over_an_event_nobody_is_always_the_dealer_or_first_to_play() -> None:
    """Five players at one table for five rounds: each deals first once and plays first once."""
    duties: dict[int, SeatDuty] = {}
    table = [1, 2, 3, 4, 5]
    for number in range(5):
        [seats], [dealer] = order_seats([table], seed=number, duties=duties)
        first_player = seats[(dealer + 1) % 5]
        for player in table:
            before = duties.get(player, SeatDuty())
            duties[player] = SeatDuty(
                before.first_deals + (player == seats[dealer]),
                before.first_plays + (player == first_player),
            )
    assert {duty.first_deals for duty in duties.values()} == {1}
    assert {duty.first_plays for duty in duties.values()} == {1}


def test_the_first_dealer_is_still_drawn_among_those_who_dealt_least() -> None:
    duties = {1: SeatDuty(1, 0), 2: SeatDuty(1, 0), 3: SeatDuty(0, 1), 4: SeatDuty(0, 1)}
    dealers = Counter()
    for seed in range(40):
        [seats], [dealer] = order_seats([[1, 2, 3, 4]], seed=seed, duties=duties)
        dealers[seats[dealer]] += 1
    assert set(dealers) == {3, 4}  # drawn, but only among the two who have not dealt first


def test_a_player_pinned_to_a_seat_keeps_it_whoever_deals() -> None:
    pins = {3: Pin(1, 1)}
    for seed in range(20):
        [seats], _ = order_seats([[1, 2, 3, 4, 5]], seed=seed, pins=pins)
        assert seats[0] == 3


def test_without_a_dealer_the_seats_stay_and_a_first_dealer_is_drawn() -> None:
    [seats], [dealer] = order_seats([[7, 8]], seed=1, dealt=False)
    assert seats == [7, 8] and dealer in (0, 1)
