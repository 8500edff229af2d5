"""What a hand scores for each team (HF6, HF7), part by part, under the club sheet."""

import pytest

from games.hand_and_foot.deck import Kind
from games.hand_and_foot.scoring import PARTS

from .builders import evaluate, rules, table


def points(entry, ruleset=None):
    evaluation = evaluate(entry, ruleset)
    assert evaluation.ok, evaluation.errors
    return [side.points for side in evaluation.score.sides]


def parts(entry, side=0):
    return evaluate(entry).score.sides[side].detail["parts"]


def test_hf6_the_standard_hand_worked_out():
    # Team A: 2 red books 1000 + 2 black 600 + 500 laid down - Bea's KS 5H 15 + going out 100.
    # Team B: 1 red book 500 + 200 laid down - Cy's JK 9C 55 - Di's 30 in hand and 100 in foot.
    assert points(table()) == [2185, 515]


@pytest.mark.parametrize(
    ("change", "part", "expected"),
    [
        ({"a": {"red_books": 3}}, "books", 3 * 500 + 2 * 300),
        ({"a": {"black_books": 3}}, "books", 2 * 500 + 3 * 300),
        ({"a": {"laid_down": 735}}, "laid_down", 735),
        (
            {"bea": {"hand": "JK AS KD 10C 9H 4S 2C 3S"}},
            "left",
            -(50 + 20 + 10 + 10 + 5 + 5 + 20 + 0),
        ),
        ({"bea": {"hand": "3H 3D 5S"}}, "red_threes", -1000),
        ({"bea": {"dealt_26": True}}, "dealt_26", 100),
        ({"ann": {"dealt_26": True}, "bea": {"dealt_26": True}}, "dealt_26", 200),
        ({"bea": {"failed_melds": 2}}, "failed_melds", -200),
    ],
    ids=[
        "HF6.1-red-book-500",
        "HF6.1-black-book-300",
        "HF6.2-laid-down-counts-for",
        "HF6.3-HF7-cards-in-hand-count-against",
        "HF6.4-red-three-in-hand-minus-500",
        "HF6.6-26-card-deal-plus-100",
        "HF6.6-each-partner-26",
        "HF6.7-failed-meld-minus-100",
    ],
)
def test_hf6_each_part_of_a_hand(change, part, expected):
    assert parts(table(**change))[part] == expected


def test_hf6_5_going_out_scores_100_for_the_team_of_the_player_out():
    assert parts(table())["going_out"] == 100
    assert parts(table(), side=1)["going_out"] == 0


def test_hf6_3_an_unplayed_foot_counts_against_the_team():
    entry = table(bea={"foot_played": False, "foot": "JK JK AS AS KS KS QS QS 10S 9S 8S 3S 4S"})
    assert parts(entry)["left"] == -(15 + 100 + 40 + 20 + 20 + 10 + 5 + 5 + 0 + 5)


def test_hf6_4_interpretation_a_red_three_in_an_unplayed_foot_counts_minus_500():
    foot = "3H 3D KS KS QS QS 10S 9S 8S 3S 4S 5S 6S"
    entry = table(bea={"foot_played": False, "foot": foot})
    assert parts(entry)["red_threes"] == -1000
    assert parts(entry)["left"] == -(15 + 20 + 20 + 10 + 5 * 5)


def test_hf6_4_red_threes_entered_with_points_count_minus_500_each():
    entry = table(bea={"hand": None, "hand_points": 15, "red_threes": 2})
    assert parts(entry)["red_threes"] == -1000 and parts(entry)["left"] == -15


def test_hf7_interpretation_a_red_three_laid_aside_is_worth_its_setting():
    ruleset = rules(red_three_points=100).ruleset
    assert ruleset.card_values[Kind.RED_THREE] == 100
    # In hand it still costs the penalty, not its value (HF6.4).
    entry = table(bea={"hand": "3H KS"})
    assert evaluate(entry, ruleset).score.sides[0].detail["parts"]["left"] == -10


def test_hf6_8_a_team_score_is_the_sum_of_its_parts():
    score = evaluate(table(bea={"hand": "3H JK", "dealt_26": True, "failed_melds": 1})).score
    for side in score.sides:
        assert side.points == sum(side.detail["parts"][name] for name in PARTS)


def test_hf6_values_follow_the_ruleset():
    ruleset = rules(
        red_book_points=600, black_book_points=400, going_out_bonus=250, joker_points=100
    ).ruleset
    entry = table(bea={"hand": "JK"})
    team_a = evaluate(entry, ruleset).score.sides[0]
    assert team_a.detail["parts"]["books"] == 2 * 600 + 2 * 400
    assert team_a.detail["parts"]["going_out"] == 250
    assert team_a.detail["parts"]["left"] == -100


def test_hf2_4_a_hand_no_one_went_out_of_is_a_draw_pile_end_without_the_bonus():
    entry = table(ann={"went_out": None, "hand": "5S"})
    score = evaluate(entry).score
    assert score.detail["ended"] == "draw_pile" and score.detail["out"] is None
    assert [side.detail["parts"]["going_out"] for side in score.sides] == [0, 0]
    assert not any(side.went_out for side in score.sides)


def test_the_score_says_why_with_each_rule():
    reasons = evaluate(table(bea={"hand": "3H KS"})).score.sides[0].reasons
    assert reasons == (
        "2 red and 2 black books: +1600 (HF6.1)",
        "cards laid down: +500 (HF6.2)",
        "cards left in hands and feet: -10 (HF6.3)",
        "1 red three left in hand: -500 (HF6.4)",
        "went out: +100 (HF6.5)",
    )


def test_the_score_records_how_the_hand_ended_and_its_meld_minimum():
    score = evaluate(table(number=2)).score
    assert score.detail == {"ended": "went_out", "meld": 120, "out": [0, 0]}
    assert score.sides[0].detail["players"][0]["went_out"] is True
    assert score.to_dict()["sides"][1]["detail"]["red_books"] == 1
