"""Dispute checks: a book (HF4.1), an opening meld (HF3), a count (HF6, HF7)."""

import pytest

from games.base import RulesError

from .builders import CLUB


def check(tool, **request):
    return CLUB.check(tool, request)


def test_the_tools_offered():
    assert [tool.name for tool in CLUB.tools()] == ["book", "meld", "count"]


@pytest.mark.parametrize(
    ("cards", "colour", "points", "bonus"),
    [
        ("KS KH KD KC KS KH KD", "red", 70, 500),
        ("7S 7H 7D 7C 2S JK 2H", "black", 20 + 90, 300),
        ("AS AS AS AS AS AS 2C", "black", 140, 300),
        ("9S 9S 9S 9S 9S 9S 9S 9S", "red", 40, 500),  # HF4.2: a closed book with a natural added
    ],
    ids=["HF4.1-red", "HF4.1-black-three-wild", "HF4.1-black-one-wild", "HF4.2-eight-naturals"],
)
def test_hf4_1_a_book_and_what_it_scores(cards, colour, points, bonus):
    answer = check("book", cards=cards)
    assert answer.valid and answer.detail["colour"] == colour
    assert (answer.detail["points"], answer.detail["bonus"]) == (points, bonus)


@pytest.mark.parametrize(
    ("cards", "rule"),
    [
        ("KS KH KD KC KS KH", "HF4.1"),  # six cards
        ("JK JK JK 2S 2S 2S 2S", "HF4.1"),  # wild cards only
        ("7S 7S 7S 2S 2S 2S JK", "HF3.2"),  # as many wild cards as naturals
        ("7S 7S 7S 7S 7S 2S 2S 2S JK", "HF4.1"),  # four wild cards
        ("7S 7S 7S 7S 8S 8S 8S", "HF4.1"),  # two ranks
        ("3S 3S 3C 3C 3S 3S 3C", "HF3.4"),  # threes
    ],
)
def test_hf4_1_what_is_not_a_book(cards, rule):
    answer = check("book", cards=cards)
    assert not answer.valid and answer.errors[0].rule == rule


def test_hf3_1_an_opening_meld_against_the_hands_minimum():
    answer = check("meld", cards="AS AS AS / KS KS JK", hand=2)
    assert answer.valid and answer.detail == {"points": 130, "minimum": 120, "melds": 2}
    short = check("meld", cards="AS AS AS / KS KS JK", hand=3)
    assert not short.valid and short.errors[0].rule == "HF3.1"


@pytest.mark.parametrize(
    ("cards", "rule"),
    [
        ("AS AS", "HF3.2"),
        ("AS JK JK", "HF3.2"),
        ("AS AS KS JK JK", "HF4.1"),
        ("3C 3C 3C JK", "HF3.4"),
    ],
)
def test_hf3_2_melds_that_are_not_melds(cards, rule):
    answer = check("meld", cards=cards + " / JK JK AS AS AS AS AS", hand=1)
    assert not answer.valid and answer.errors[0].rule == rule


def test_hf6_a_count_in_hand_and_laid_down():
    in_hand = check("count", cards="JK 3H AS 4D")
    assert in_hand.valid and in_hand.detail == {
        "points": -(50 + 20 + 5) - 500,
        "cards": 4,
        "red_threes": 1,
    }
    assert check("count", cards="JK 3H AS 4D", in_hand=False).detail["points"] == 75


@pytest.mark.parametrize(
    ("tool", "request_"),
    [
        ("book", {}),
        ("book", {"cards": 7}),
        ("book", {"cards": "ZZ"}),
        ("meld", {"cards": "AS AS AS", "hand": 9}),
        ("meld", {"cards": None}),
        ("count", {"cards": "AS", "in_hand": "yes"}),
        ("count", {"cards": "AS " * 500}),
    ],
)
def test_a_bad_request_is_an_answer_not_a_crash(tool, request_):
    answer = CLUB.check(tool, request_)
    assert not answer.valid and answer.errors and answer.to_dict()["errors"][0]["rule"]


def test_a_request_that_is_not_an_object_and_an_unknown_tool():
    assert not CLUB.check("book", ["AS"]).valid
    with pytest.raises(RulesError, match="no check called 'tack-on'"):
        CLUB.check("tack-on", {})
