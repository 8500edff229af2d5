"""The least a team's books' own cards count (HF8.6): a book is seven cards of one rank (HF4.1),
so books are placed rank by rank, never made of the cheapest cards of any rank.

The club sheet's deck (HF1.1, HF7): sixteen naturals of each rank; six ranks (nine to four) at 5
points, four (king to ten) at 10, the ace at 20; sixteen twos at 20 and eight jokers at 50.
"""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.hand_and_foot.books import BLACK_NATURALS, BOOK, least_worth, worth_within
from games.hand_and_foot.deck import BOOK_KINDS, WILD_KINDS, Kind

from .builders import CLUB, evaluate, rules_of, table

DECK = CLUB.ruleset.deck
VALUES = CLUB.ruleset.card_values
FULL = dict(DECK.counts)
SETTINGS = {"max_examples": 200, "deadline": None}


@pytest.mark.parametrize(
    ("red", "black", "least"),
    [
        # Two red books of fives (70); two black books of fours, six naturals and a two (100).
        pytest.param(2, 2, 170, id="HF8.6-two-and-two"),
        # A rank makes two red books at most (HF4.3): the 12 red take all six ranks at 5 (420),
        # leaving two of each, too few for a black book; so the black books are of a rank at
        # 10: six naturals and a two each (160). Of any rank's cheapest cards: 520.
        pytest.param(12, 2, 580, id="HF8.6-twelve-red-two-black"),
        # A thirteenth red book is of a rank at 10.
        pytest.param(13, 0, 420 + 70, id="HF8.6-thirteen-red"),
        # All 22: 12 at 5, eight at 10, two of aces at 20.
        pytest.param(22, 0, 420 + 8 * 70 + 2 * 140, id="HF8.6-twenty-two-red"),
        pytest.param(0, 1, 6 * 5 + 20, id="HF8.6-one-black"),
        # Eleven ranks make 22 red books at most (HF4.3).
        pytest.param(23, 0, None, id="HF4.3-no-twenty-third-red-book"),
    ],
)
def test_hf8_6_the_least_the_books_count_on_the_club_deck(red, black, least):
    assert least_worth(FULL, VALUES, red, black) == least


@pytest.mark.parametrize(
    ("laid", "refused"),
    [
        pytest.param(575, True, id="HF8.6-575-for-12-red-and-2-black"),
        pytest.param(580, False, id="HF8.6-580-for-12-red-and-2-black"),
    ],
)
def test_hf8_6_books_of_one_rank_each_are_checked_by_rank(laid, refused):
    entry = table(a={"red_books": 12, "black_books": 2, "laid_down": laid})
    evaluation = evaluate(entry)
    assert rules_of(evaluation.errors) == (["HF8.6"] if refused else [])
    if refused:
        assert "at least 580" in evaluation.errors[0].message


def test_hf8_6_the_cards_in_hands_are_not_in_books():
    # Bea holds four fives and Cy four nines: two of their ranks make one red book each now.
    entry = table(
        a={"red_books": 12, "black_books": 2, "laid_down": 580},
        bea={"hand": "5S 5S 5S 5S"},
        cy={"hand": "9C 9C 9C 9C"},
    )
    assert rules_of(evaluate(entry).errors) == ["HF8.6"]


# --- laws -----------------------------------------------------------------------------------------

values = st.sampled_from((0, 5, 10, 15, 20, 50))


def _by_kind(naturals: list[int], wilds: list[int]) -> dict[Kind, int]:
    """A number per kind: the book kinds' from ``naturals`` (ace first), the wild kinds' from
    ``wilds`` (joker, two), 0 for any kind left out."""
    found = {kind: 0 for kind in Kind}
    found.update(zip(BOOK_KINDS, naturals, strict=False))
    found.update(zip(WILD_KINDS, wilds, strict=False))
    return found


@settings(**SETTINGS)
@given(st.lists(values, min_size=11, max_size=11), st.data())
def test_n_red_books_of_a_rank_each_count_seven_of_the_n_cheapest_ranks(rank_values, data):
    # Each rank holds 7 to 13 naturals: one red book a rank, so N books take N ranks.
    supply = _by_kind(data.draw(st.lists(st.integers(7, 13), min_size=11, max_size=11)), [0, 0])
    books = data.draw(st.integers(0, 11))
    least = least_worth(supply, _by_kind(rank_values, [50, 20]), books, 0)
    assert least == BOOK * sum(sorted(rank_values)[:books])


def _brute_least(ranks, wilds, red, black):
    """Every way to give each book a rank and each black book its naturals (four to six)."""
    wilds = sorted(wilds)
    best = None
    colours = ["red"] * red + ["black"] * black
    for homes in product(range(len(ranks)), repeat=len(colours)):
        for held in product(range(BLACK_NATURALS, BOOK), repeat=black):
            used = [0] * len(ranks)
            worth, wild_count = 0, 0
            for home, count in zip(homes, [BOOK] * red + list(held), strict=True):
                used[home] += count
                worth += ranks[home][0] * count
            wild_count = sum(BOOK - count for count in held)
            if any(n > ranks[i][1] for i, n in enumerate(used)) or wild_count > len(wilds):
                continue
            total = worth + sum(wilds[:wild_count])
            best = total if best is None else min(best, total)
    return best


@settings(**SETTINGS)
@given(
    st.lists(st.tuples(values, st.integers(0, 16)), min_size=1, max_size=3),
    st.tuples(values, st.integers(0, 4)),
    st.tuples(values, st.integers(0, 3)),
    st.integers(0, 2),
    st.integers(0, 2),
)
def test_the_least_worth_is_the_least_of_every_way_to_place_the_books(
    ranks, jokers, twos, red, black
):
    supply = _by_kind([count for _, count in ranks], [jokers[1], twos[1]])
    value_of = _by_kind([value for value, _ in ranks], [jokers[0], twos[0]])
    wilds = [jokers[0]] * jokers[1] + [twos[0]] * twos[1]
    assert least_worth(supply, value_of, red, black) == _brute_least(ranks, wilds, red, black)


@settings(**SETTINGS)
@given(st.integers(0, 12), st.integers(0, 8), st.integers(0, 2500))
def test_the_quick_placement_never_decides_otherwise_than_the_least(red, black, points):
    least = least_worth(FULL, VALUES, red, black)
    assert worth_within(FULL, VALUES, red, black, points) == (least is not None and least <= points)


@settings(**SETTINGS)
@given(st.integers(0, 12), st.integers(0, 8))
def test_one_more_book_never_counts_less(red, black):
    least = least_worth(FULL, VALUES, red, black)
    for more in (
        least_worth(FULL, VALUES, red + 1, black),
        least_worth(FULL, VALUES, red, black + 1),
    ):
        if least is not None and more is not None:
            assert more > least
