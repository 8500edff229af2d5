"""A match to 30 (PA5) and its result: places, the winner, match points, rulings (PA7.3, PA7.5)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import RulesError

from .helpers import RULES, entry, match, rules
from .strategies import captures, rows

OVER = [
    pytest.param([(20, 5, 5), (12, 9, 3)], 0, id="PA5.2-Ann-32-alone-wins"),
    pytest.param([(30, 1, 1)], 0, id="PA5.2-30-in-one-deal-is-enough"),
    pytest.param([(20, 20, 5), (12, 9, 26)], 0, id="PA5.2-the-highest-wins-not-the-first-past-30"),
    pytest.param([(20, 10, 10), (12, 5, 5)], 0, id="PA5.3-a-tie-for-second-does-not-go-on"),
    pytest.param([(15, 15, 0), (15, 15, 0), (1, 2, 3)], 1, id="PA5.3-a-tie-broken-by-another-deal"),
]
GOES_ON = [
    pytest.param([], id="PA5.4-the-first-deal"),
    pytest.param([(10, 10, 10)], id="PA5.3-nobody-has-30"),
    pytest.param([(29, 28, 0)], id="PA5.3-29-is-not-30"),
    pytest.param([(15, 15, 0), (15, 15, 0)], id="PA5.3-level-on-30-at-the-top"),
    pytest.param([(20, 20, 5), (11, 9, 26)], id="PA5.3-level-on-31-at-the-top-with-29"),
    pytest.param([(20, 20, 20), (12, 12, 12)], id="PA5.3-all-three-level-on-32"),
]


@pytest.mark.parametrize(("deals", "winner"), OVER)
def test_the_match_is_over_once_one_player_alone_is_highest_with_30(deals, winner):
    played = match(*deals)
    assert RULES.next_deal(played) is None and RULES.match_over(played)
    results = RULES.match_result(played)
    assert [result.won for result in results] == [side == winner for side in range(3)]


@pytest.mark.parametrize("deals", GOES_ON)
def test_the_match_goes_on_with_the_next_deal(deals):
    played = match(*deals)
    assert RULES.next_deal(played) == len(deals) + 1
    assert not any(result.won for result in RULES.match_result(played))


def test_pa5_1_the_target_is_a_ruleset_setting():
    played = match((20, 5, 5), (12, 9, 3))
    assert rules(target=50).next_deal(played) == 3
    assert rules(target=32).next_deal(played) is None


def _goes_on(totals, target=30):
    best = max(totals)
    return best < target or totals.count(best) > 1


@settings(max_examples=200, deadline=None)
@given(st.lists(captures(), min_size=1, max_size=12))
def test_pa5_a_match_is_over_exactly_when_the_rules_say(deals):
    """Deal after deal, by the rules' own words: over once someone has 30 and the highest is
    alone; and once over, no further deal is entered (PA6.5)."""
    played = []
    totals = [0, 0, 0]
    for number, deal in enumerate(deals, start=1):
        evaluation = RULES.evaluate(entry(*rows(deal), number=number), played)
        if played and not _goes_on(totals):
            assert [problem.rule for problem in evaluation.errors] == ["PA6.5"]
            return
        assert evaluation.ok
        played.append(evaluation.score)
        totals = [
            total + side.points for total, side in zip(totals, evaluation.score.sides, strict=True)
        ]
        assert RULES.match_over(played) == (not _goes_on(totals))


# --- the result --------------------------------------------------------------------------------


def _places(results):
    return [(result.place, result.shared) for result in results]


def _stat(results, name):
    return [result.stats[name] for result in results]


def test_pa7_3_a_match_over_places_by_total_and_scores_match_points():
    results = RULES.match_result(match((20, 9, 5), (12, 9, 3)))  # 32, 18, 8
    assert _places(results) == [(1, False), (2, False), (3, False)]
    assert _stat(results, "match_points") == [3, 1, 0]
    assert _stat(results, "total") == [32, 18, 8]
    assert _stat(results, "wins") == [1, 0, 0]


def test_pa7_3_players_level_share_the_place_and_its_match_points():
    results = RULES.match_result(match((20, 5, 5), (12, 9, 9)))  # 32, 14, 14
    assert _places(results) == [(1, False), (2, True), (2, True)]
    assert _stat(results, "match_points") == [3, 1, 1]


def test_pa7_3_a_match_in_play_shows_places_but_no_winner_or_match_points():
    results = RULES.match_result(match((15, 15, 0), (15, 15, 2)))  # 30, 30, 2: another deal
    assert _places(results) == [(1, True), (1, True), (3, False)]
    assert _stat(results, "match_points") == [0, 0, 0]
    assert not any(result.won for result in results)


def test_pa7_3_before_any_deal_everyone_is_level():
    results = RULES.match_result([])
    assert _places(results) == [(1, True)] * 3 and _stat(results, "total") == [0, 0, 0]


def test_pa7_3_the_match_points_are_a_ruleset_setting():
    played = match((20, 9, 5), (12, 9, 3))
    assert _stat(rules(match_points=[5, 2, 1]).match_result(played), "match_points") == [5, 2, 1]
    assert _stat(rules(preset="wins-only").match_result(played), "match_points") == [1, 0, 0]


def test_pa7_3_parcels_and_jacks_of_hearts_are_counted_over_the_match():
    first = RULES.evaluate(entry((5, 2), (4, 1), (9, 3, "J♥"))).score
    second = RULES.evaluate(entry((6, 3, "J♥"), (8, 3), (0, 0), number=2), [first]).score
    results = RULES.match_result([first, second])
    assert _stat(results, "parcels") == [5, 4, 3]
    assert _stat(results, "jacks_of_hearts") == [1, 0, 1]
    assert _stat(results, "total") == [5 + 11, 4 + 11, 17 + 0]


def test_pa7_5_a_rulings_points_count_in_the_total_and_the_places():
    played = match((20, 9, 5), (12, 9, 3))  # 32, 18, 8: Ann won
    results = RULES.match_result(played, adjustments=[0, -10, 5])
    assert _stat(results, "total") == [32, 8, 13]
    assert [result.place for result in results] == [1, 3, 2]
    assert _stat(results, "match_points") == [3, 0, 1]


def test_pa7_5_a_ruling_that_changes_the_top_changes_the_winner():
    played = match((20, 9, 5), (12, 9, 3))
    results = RULES.match_result(played, adjustments=[-20, 0, 0])  # 12, 18, 8
    assert [result.won for result in results] == [False, True, False]
    assert _stat(results, "match_points") == [1, 3, 0]


def test_pa7_5_a_ruling_that_levels_the_top_leaves_the_win_to_the_director():
    played = match((20, 9, 5), (12, 9, 3))
    results = RULES.match_result(played, adjustments=[0, 14, 0])  # 32, 32, 8
    assert _places(results)[:2] == [(1, True), (1, True)]
    assert not any(result.won for result in results)
    decided = RULES.match_result(played, adjustments=[0, 14, 0], decided_for=1)
    assert [result.won for result in decided] == [False, True, False]
    assert [result.place for result in decided] == [2, 1, 3]


def test_pa7_5_a_ruling_names_the_winner_of_a_match_that_cannot_go_on():
    played = match((15, 15, 0), (15, 15, 9))  # 30, 30, 9: would go on
    results = RULES.match_result(played, decided_for=1)
    assert [result.won for result in results] == [False, True, False]
    assert _places(results) == [(2, False), (1, False), (3, False)]
    assert _stat(results, "match_points") == [1, 3, 0]


@pytest.mark.parametrize(
    ("ruling", "why"),
    [
        pytest.param({"decided_for": 3}, "PA7.5", id="PA7.5-a-fourth-player"),
        pytest.param({"decided_for": -1}, "PA7.5", id="PA7.5-a-negative-player"),
        pytest.param({"decided_for": "1"}, "PA7.5", id="PA7.5-a-player-as-text"),
        pytest.param({"adjustments": [1, 2]}, "PA7.5", id="PA7.5-points-for-two-players"),
        pytest.param({"adjustments": [1, 2, 1.5]}, "PA7.5", id="PA7.5-a-fraction-of-a-point"),
    ],
)
def test_pa7_5_a_ruling_that_does_not_fit_the_table_is_a_clear_error(ruling, why):
    with pytest.raises(RulesError) as refused:
        RULES.match_result(match((10, 10, 10)), **ruling)
    assert refused.value.rule == why


@settings(max_examples=150, deadline=None)
@given(st.lists(captures(), min_size=1, max_size=6), st.permutations(range(3)))
def test_pa7_3_permuting_the_players_permutes_the_result(deals, order):
    def result(seat_order):
        played = []
        for number, deal in enumerate(deals, start=1):
            shuffled = tuple(deal[seat] for seat in seat_order)
            evaluation = RULES.evaluate(entry(*rows(shuffled), number=number), played)
            if not evaluation.ok:  # the match ended before this deal
                break
            played.append(evaluation.score)
        return RULES.match_result(played)

    before, after = result((0, 1, 2)), result(order)
    assert list(after) == [before[seat] for seat in order]
