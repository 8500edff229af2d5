"""The words of the deck's limits (HF8.3) in full, as a scorekeeper reads them: the count held,
the kind by its plural name, the count in the deck, the rule, and the field to correct."""

import pytest

from .builders import CLUB, table


@pytest.mark.parametrize(
    ("hand", "field", "message"),
    [
        pytest.param("JK " * 9, "hand", "hold 9 jokers, but the deck has 8", id="jokers"),
        pytest.param("6C " * 17, "hand", "hold 17 sixes, but the deck has 16", id="sixes"),
        pytest.param("3H " * 9, "red_threes", "hold 9 red threes, but the deck has 8", id="3s"),
    ],
)
def test_more_cards_of_a_kind_than_the_deck_holds_hf8_3(hand, field, message):
    [problem] = CLUB.evaluate(table(cy={"hand": hand.strip()})).errors
    assert (problem.rule, problem.field) == ("HF8.3", field)
    assert problem.message == f"the table's hands and feet {message} (HF8.3)"


def test_more_books_than_the_deck_can_make_hf4_3():
    [problem] = CLUB.evaluate(table(a={"red_books": 14}, b={"red_books": 14})).errors
    assert (problem.rule, problem.field, problem.message) == (
        "HF4.3",
        "red_books",
        "28 red and 2 black books at the table are more than the deck can make with the cards "
        "left in hands and feet (HF4.3)",
    )


def test_every_reason_and_each_players_detail_of_a_hand_hf6():
    """The standard hand (builders.py), Bea holding two red threes besides her KS, two failed
    melds and a deal of 26 cards; Cy and Di each a deal of 26 cards. Worked out by HF6: team A
    1600 + 500 - 10 - 2 × 500 + 100 + 100 - 2 × 100; team B 500 + 200 - (50 + 5) - 130 + 200."""
    entry = table(
        bea={"dealt_26": True, "failed_melds": 2, "hand": "3H 3D KS"},
        cy={"dealt_26": True},
        di={"dealt_26": True},
    )
    score = CLUB.evaluate(entry).score
    assert score.number == 1
    assert [side.points for side in score.sides] == [1090, 715]
    assert score.sides[0].reasons == (
        "2 red and 2 black books: +1600 (HF6.1)",
        "cards laid down: +500 (HF6.2)",
        "cards left in hands and feet: -10 (HF6.3)",
        "2 red threes left in hand: -1000 (HF6.4)",
        "went out: +100 (HF6.5)",
        "1 deal of exactly 26 cards: +100 (HF6.6)",
        "2 failed melds: -200 (HF6.7)",
    )
    assert score.sides[1].reasons == (
        "1 red and 0 black books: +500 (HF6.1)",
        "cards laid down: +200 (HF6.2)",
        "cards left in hands and feet: -185 (HF6.3)",
        "2 deals of exactly 26 cards: +200 (HF6.6)",
    )
    player = {"went_out": False, "foot_played": True, "red_threes": 0, "failed_melds": 0}
    assert score.sides[1].detail["players"] == [
        {**player, "left": 55, "dealt_26": True},
        {**player, "left": 130, "foot_played": False, "dealt_26": True},
    ]
    assert score.sides[0].detail["players"][1] == {
        **player, "left": 10, "red_threes": 2, "dealt_26": True, "failed_melds": 2,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            {"di": {"foot_points": 0}},
            ("HF8.5", "Di", "foot_points", 1, 1,
             "Di's foot of 13 cards counts at least 25, not 0 (with 0 red threes) (HF8.5)"),
            id="HF8.5",
        ),
        pytest.param(
            {"bea": {"foot_played": False, "foot_points": 500, "red_threes": 6}},
            ("HF8.5", "Bea", "foot_points", 0, 1,
             "Bea's foot counts at most 350, not 500: 7 cards besides its 6 red threes are worth "
             "no more (HF8.5)"),  # seven jokers at most: 7 × 50
            id="HF8.5-at-most",
        ),
        pytest.param(
            {"a": {"laid_down": 165}},
            ("HF8.6", "Team A", "laid_down", 0, None,
             "Team A's 2 red and 2 black books hold cards worth at least 170, more than the 165 "
             "laid down: a book is seven cards of one rank (HF8.6)"),
            id="HF8.6",
        ),
        pytest.param(
            {"bea": {"hand": ""}},
            ("HF8.9", "Bea", "hand", 0, 1,
             "Bea holds no card but did not go out; a player keeps a card to discard (HF8.9)"),
            id="HF8.9",
        ),
        pytest.param(
            {"cy": {"failed_melds": 3}},
            ("HF8.10", "Cy", "failed_melds", 1, 0,
             "Cy failed to meld 3 times in one hand (HF8.10)"),
            id="HF8.10",
        ),
    ],
)  # fmt: skip
def test_each_problem_names_its_rule_player_field_and_seat_in_words(change, expected):
    evaluation = CLUB.evaluate(table(**change))
    [problem] = evaluation.errors + evaluation.warnings
    found = (problem.rule, problem.player, problem.field, problem.side, problem.member)
    assert (*found, problem.message) == expected
