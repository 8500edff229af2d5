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
