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
