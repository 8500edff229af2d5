"""Standings (PA7.4) and byes (PA7.2): match points, then the tie-break chain; level players
share a place."""

import pytest

from games.base import StandingLine

from .helpers import RULES, rules


def stats(match_points=0, total=0, wins=0, parcels=0, jacks=0):
    return {
        "match_points": match_points,
        "total": total,
        "wins": wins,
        "parcels": parcels,
        "jacks_of_hearts": jacks,
    }


def places(placings):
    return [(placing.place, placing.key, placing.shared) for placing in placings]


def test_pa7_4_match_points_first_then_total_points():
    lines = [
        StandingLine("Ann", (stats(3, 32), stats(1, 20))),  # 4 match points
        StandingLine("Bo", (stats(3, 31), stats(3, 35))),  # 6
        StandingLine("Cy", (stats(1, 40), stats(3, 33))),  # 4, more points than Ann
    ]
    assert places(RULES.rank(lines)) == [(1, "Bo", False), (2, "Cy", False), (3, "Ann", False)]


def test_pa7_4_level_players_share_a_place_and_the_next_is_skipped():
    lines = [
        StandingLine("Di", (stats(0, 10),)),
        StandingLine("Cy", (stats(1, 20, parcels=4),)),
        StandingLine("Bo", (stats(1, 20, parcels=4),)),
        StandingLine("Ann", (stats(3, 31),)),
    ]
    assert places(RULES.rank(lines)) == [
        (1, "Ann", False),
        (2, "Bo", True),
        (2, "Cy", True),
        (4, "Di", False),
    ]


@pytest.mark.parametrize(
    ("chain", "first"),
    [
        pytest.param(["total", "wins"], "Ann", id="PA7.4-total-first"),
        pytest.param(["wins", "total"], "Bo", id="PA7.4-wins-first"),
        pytest.param(["parcels"], "Cy", id="PA7.4-parcels-only"),
        pytest.param(["jacks_of_hearts", "total"], "Cy", id="PA7.4-jacks-of-hearts"),
    ],
)
def test_pa7_4_the_tie_break_chain_is_a_ruleset_setting(chain, first):
    lines = [
        StandingLine("Ann", (stats(4, 70, wins=1, parcels=8),)),
        StandingLine("Bo", (stats(4, 60, wins=2, parcels=9),)),
        StandingLine("Cy", (stats(4, 50, wins=1, parcels=12, jacks=2),)),
    ]
    assert rules(tie_breaks=chain).rank(lines)[0].key == first


def test_pa7_4_with_no_tie_breaks_equal_match_points_share_the_place():
    lines = [StandingLine("Ann", (stats(3, 40),)), StandingLine("Bo", (stats(3, 30),))]
    assert places(rules(tie_breaks=[]).rank(lines)) == [(1, "Ann", True), (1, "Bo", True)]


def test_pa7_4_the_stats_ranked_by_are_the_sums_over_the_rounds():
    lines = [StandingLine("Ann", (stats(3, 32, 1, 4, 1), stats(1, 20, 0, 2, 0)))]
    assert RULES.rank(lines)[0].stats == stats(4, 52, 1, 6, 1)


def test_pa7_4_the_columns_show_match_points_then_the_chain():
    assert [column.stat for column in RULES.columns()] == [
        "match_points",
        "total",
        "wins",
        "parcels",
    ]
    chain = rules(tie_breaks=["jacks_of_hearts", "wins"]).columns()
    assert [column.stat for column in chain] == [
        "match_points",
        "jacks_of_hearts",
        "wins",
        "total",
        "parcels",
    ]
    assert all(column.higher_is_better for column in chain)


# --- byes (PA7.2) ------------------------------------------------------------------------------


def bye_round(ruleset_rules, *played):
    """What one bye counts for a player who played ``played``."""
    lines = [StandingLine("Ann", (*played, None))]
    summed = ruleset_rules.rank(lines)[0].stats
    return {name: summed[name] - sum(round_[name] for round_ in played) for name in summed}


def test_pa7_2_an_average_bye_is_the_players_average_match_rounded_halves_away_from_zero():
    played = (stats(3, 33, 1, 3, 1), stats(0, 20, 0, 2, 0))  # averages 1.5, 26.5, 0.5, 2.5, 0.5
    assert bye_round(RULES, *played) == stats(2, 27, 1, 3, 1)
    played = (stats(3, 31), stats(1, 20), stats(0, 10))  # 1.33 and 20.33
    assert bye_round(RULES, *played) == stats(1, 20)


def test_pa7_2_an_average_bye_before_any_match_counts_nothing_then_catches_up():
    assert bye_round(RULES) == stats()
    bye_first = RULES.rank([StandingLine("Ann", (None, stats(3, 32, 1, 4)))])[0]
    assert bye_first.stats == stats(6, 64, 2, 8)


def test_pa7_2_a_winning_bye_is_a_match_won_with_the_bye_points():
    assert bye_round(rules(bye_rule="win", bye_points=25), stats(1, 20)) == stats(3, 25, 1)
    assert bye_round(rules(bye_rule="win", preset="wins-only")) == stats(1, 30, 1)


def test_pa7_2_a_bye_for_nothing_counts_nothing():
    assert bye_round(rules(bye_rule="nothing"), stats(3, 33, 1, 3)) == stats()


def test_pa7_2_a_player_with_a_bye_is_ranked_among_the_others():
    lines = [
        StandingLine("Ann", (stats(3, 32, 1), None)),
        StandingLine("Bo", (stats(1, 25), stats(3, 31, 1))),
    ]
    ranked = rules(bye_rule="win").rank(lines)
    assert places(ranked) == [(1, "Ann", False), (2, "Bo", False)]
    assert ranked[0].stats["match_points"] == 6


def test_pa7_4_missing_stats_in_a_stored_round_count_as_nothing():
    lines = [StandingLine("Ann", ({"total": 30, "match_points": 3},))]
    assert RULES.rank(lines)[0].stats == stats(3, 30)
