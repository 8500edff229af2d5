"""Tournament numbers: table sizes for a round (R12.2) and the order of the standings (R12.3)."""

import dataclasses

import pytest

from games.kalooki import ASAJ_2025, RulesError, StandingLine, rank_standings, table_sizes

RULES = ASAJ_2025

TABLE_SIZES = [
    (43, (5, 5, 5, 5, 5, 5, 5, 4, 4)),  # the example of R12.2
    (6, (6,)),
    (7, (4, 3)),
    (11, (6, 5)),
    (3, (3,)),
    (4, (4,)),
    (5, (5,)),
    (8, (4, 4)),
    (12, (4, 4, 4)),
    (13, (5, 4, 4)),
    (20, (5, 5, 5, 5)),
    (101, (5,) * 17 + (4,) * 4),
]


@pytest.mark.parametrize(
    ("players", "sizes"), TABLE_SIZES, ids=[f"R12.2-{n}-players" for n, _ in TABLE_SIZES]
)
def test_r12_2_table_sizes(players, sizes):
    assert table_sizes(players, RULES) == sizes


def test_r12_2_every_player_is_seated_at_a_table_the_ruleset_allows():
    for players in range(3, 300):
        sizes = table_sizes(players, RULES)
        assert sum(sizes) == players
        assert all(RULES.min_table_size <= size <= RULES.max_table_size for size in sizes)
        assert max(sizes) - min(sizes) <= 1


def test_r12_2_fewer_players_than_a_table_is_an_error():
    with pytest.raises(RulesError, match=r"R12\.2"):
        table_sizes(2, RULES)


def places(lines, ruleset=RULES):
    return [
        (placing.place, placing.line.player, placing.shared)
        for placing in rank_standings(lines, ruleset)
    ]


def test_r12_3_lowest_total_first():
    lines = [StandingLine("Ann", 300), StandingLine("Bob", 120), StandingLine("Cy", 200)]
    assert places(lines) == [(1, "Bob", False), (2, "Cy", False), (3, "Ann", False)]


def test_r12_3_ties_are_broken_by_games_won_then_down_and_outs_then_the_latest_round():
    lines = [
        StandingLine("Ann", 100, games_won=2, down_and_outs=0, latest_round_score=10),
        StandingLine("Bob", 100, games_won=3, down_and_outs=0, latest_round_score=90),
        StandingLine("Cy", 100, games_won=2, down_and_outs=1, latest_round_score=90),
        StandingLine("Di", 100, games_won=2, down_and_outs=0, latest_round_score=5),
    ]
    assert [player for _, player, _ in places(lines)] == ["Bob", "Cy", "Di", "Ann"]


def test_r12_3_players_still_level_share_the_place():
    lines = [
        StandingLine("Cy", 100, games_won=2),
        StandingLine("Ann", 90),
        StandingLine("Bob", 100, games_won=2),
        StandingLine("Di", 150),
    ]
    assert places(lines) == [(1, "Ann", False), (2, "Bob", True), (2, "Cy", True), (4, "Di", False)]


def test_r12_3_the_tie_break_chain_is_a_ruleset_setting():
    latest_only = dataclasses.replace(RULES, tie_breaks=("latest_round_score",))
    lines = [
        StandingLine("Ann", 100, games_won=5, latest_round_score=40),
        StandingLine("Bob", 100, games_won=1, latest_round_score=30),
    ]
    assert [player for _, player, _ in places(lines)] == ["Ann", "Bob"]
    assert [player for _, player, _ in places(lines, latest_only)] == ["Bob", "Ann"]
