"""Standings of a team tournament (HF11): games won, then the tie-break chain; byes by rule."""

import pytest

from games.base import StandingLine

from .builders import CLUB, rules


def game(total, won=False, books=0, went_out=0):
    return {
        "total": total,
        "wins": int(won),
        "games_won": int(won),
        "books": books,
        "went_out": went_out,
    }


def places(placings):
    return [(p.place, p.key) for p in placings]


def test_hf11_2_games_won_rank_first_then_total_points():
    lines = [
        StandingLine("Aces", (game(3000, True), game(1000))),
        StandingLine("Books", (game(2500, True), game(2600, True))),
        StandingLine("Clubs", (game(4000, True), game(3900))),
        StandingLine("Diamonds", (game(1000), game(900))),
    ]
    placings = CLUB.rank(lines)
    assert places(placings) == [(1, "Books"), (2, "Clubs"), (3, "Aces"), (4, "Diamonds")]
    assert placings[0].stats["games_won"] == 2 and placings[0].stats["total"] == 5100


def test_hf11_2_teams_still_level_share_a_place_listed_by_key():
    lines = [
        StandingLine("Zebras", (game(2000, True),)),
        StandingLine("Ants", (game(2000, True),)),
        StandingLine("Moles", (game(2500, True),)),
        StandingLine("Owls", (game(100),)),
    ]
    placings = CLUB.rank(lines)
    assert places(placings) == [(1, "Moles"), (2, "Ants"), (2, "Zebras"), (4, "Owls")]
    assert [p.shared for p in placings] == [False, True, True, False]


@pytest.mark.parametrize(
    ("tie_breaks", "expected"),
    [
        (["total"], ["Books", "Out"]),
        (["books", "total"], ["Books", "Out"]),
        (["went_out"], ["Out", "Books"]),
        (["latest_round"], ["Out", "Books"]),
        ([], ["Books", "Out"]),  # level: shared, by key
    ],
)
def test_hf11_2_the_tie_break_chain_is_a_setting(tie_breaks, expected):
    lines = [
        StandingLine("Books", (game(2000, True, books=9, went_out=0), game(900, books=3))),
        StandingLine(
            "Out", (game(900, books=2, went_out=2), game(1500, True, books=4, went_out=1))
        ),
    ]
    placings = rules(tie_breaks=tie_breaks).rank(lines)
    assert [p.key for p in placings] == expected
    assert placings[0].shared == (tie_breaks == [])


def test_hf11_2_the_columns_show_the_ranking_order_first():
    assert [c.stat for c in CLUB.columns()] == ["games_won", "total", "books", "went_out"]
    chained = rules(tie_breaks=["went_out", "latest_round", "books"]).columns()
    assert [c.stat for c in chained] == ["games_won", "went_out", "books", "total"]
    assert all(column.higher_is_better for column in chained)


BYE_CASES = [
    ("average", (game(1000, True), game(2001), None), {"games_won": 2, "total": 4502}),
    ("average", (None, game(-1500), game(-2000)), {"games_won": 0, "total": -5250}),
    ("win", (game(1000), None), {"games_won": 1, "total": 1000 + 1200}),
    ("nothing", (game(1000, True), None), {"games_won": 1, "total": 1000}),
]


@pytest.mark.parametrize(
    ("rule", "rounds", "expected"),
    BYE_CASES,
    ids=[
        "HF11.1-average",
        "HF11.1-average-negative-halves-away-from-zero",
        "HF11.1-win",
        "HF11.1-nothing",
    ],
)
def test_hf11_1_a_bye_counts_by_the_bye_rule(rule, rounds, expected):
    [placing] = rules(bye_rule=rule, bye_points=1200).rank([StandingLine("Hearts", rounds)])
    assert {name: placing.stats[name] for name in expected} == expected


def test_hf11_1_an_average_bye_before_any_game_counts_nothing():
    [placing] = CLUB.rank([StandingLine("Hearts", (None,))])
    assert placing.stats["total"] == 0 and placing.stats["games_won"] == 0


def test_hf11_1_the_bye_of_the_latest_round_is_the_latest_round():
    lines = [
        StandingLine("Bye", (game(900), None)),
        StandingLine("Play", (game(900), game(100))),
    ]
    placings = rules(bye_rule="win", bye_points=500, tie_breaks=["latest_round"]).rank(lines)
    assert [p.key for p in placings] == ["Bye", "Play"]


def test_rank_of_no_teams_is_empty_and_of_no_rounds_is_level():
    assert CLUB.rank([]) == ()
    assert places(CLUB.rank([StandingLine("b", ()), StandingLine("a", ())])) == [(1, "a"), (1, "b")]
