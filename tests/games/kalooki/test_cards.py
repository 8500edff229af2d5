"""Cards: the deck (R1.2), penalty values (R2) and the notation scorekeepers type (R11)."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kalooki import (
    ASAJ_2025,
    JOKER,
    Card,
    CardParseError,
    CardValues,
    Rank,
    RulesError,
    Ruleset,
    Suit,
    card_points,
    deck,
    format_cards,
    hand_points,
    parse_card,
    parse_cards,
)

from .strategies import SETTINGS, card_lists, spellings


def test_r1_2_the_deck_is_three_packs_and_six_jokers():
    cards = deck(ASAJ_2025)
    copies = Counter(cards)
    assert len(cards) == 162
    assert copies[JOKER] == 6
    assert {count for card, count in copies.items() if not card.is_joker} == {3}


R2_VALUES = [
    ("JK", 50),
    ("AS", 15),
    ("AC", 15),
    ("KH", 10),
    ("QD", 10),
    ("JC", 10),
    ("10S", 10),
    ("9H", 9),
    ("5D", 5),
    ("2C", 2),
    ("AH", 1),
    ("AD", 1),
]


@pytest.mark.parametrize(("text", "points"), R2_VALUES, ids=[f"R2-{t}" for t, _ in R2_VALUES])
def test_r2_card_values(text, points):
    assert card_points(parse_card(text), ASAJ_2025) == points


def test_r2_a_hand_is_worth_the_sum_of_its_cards():
    assert hand_points(parse_cards("JK AS 2C"), ASAJ_2025) == 67


def test_r2_card_values_come_from_the_ruleset():
    cheap_jokers = Ruleset(name="cheap jokers", card_values=CardValues(joker=25))
    assert hand_points(parse_cards("JK AS 2C"), cheap_jokers) == 42


def test_r11_reads_the_example_from_the_rules():
    assert parse_cards("AS 10h qd JK 7♣") == [
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.TEN, Suit.HEARTS),
        Card(Rank.QUEEN, Suit.DIAMONDS),
        JOKER,
        Card(Rank.SEVEN, Suit.CLUBS),
    ]


R11_SPELLINGS = [
    ("TH", "10H"),
    ("t♥", "10H"),
    ("*", "JK"),
    ("🃏", "JK"),
    ("jk", "JK"),
    ("♠A", "AS"),
    ("h5", "5H"),
    ("5♥\ufe0f", "5H"),
    ("q♡", "QH"),
]


@pytest.mark.parametrize(
    ("text", "expected"), R11_SPELLINGS, ids=[f"R11-{t!r}" for t, _ in R11_SPELLINGS]
)
def test_r11_accepts_the_other_ways_to_write_a_card(text, expected):
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["AS,KD", "AS , KD", " AS\tKD ", "AS,,KD", ",AS KD,"])
def test_r11_cards_are_separated_by_spaces_or_commas(text):
    assert format_cards(parse_cards(text)) == "AS KD"


def test_r11_an_empty_hand_reads_as_no_cards():
    assert parse_cards("") == []
    assert parse_cards(" , ") == []


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [("AS 10h XQ", "XQ", 3), ("1H", "1H", 1), ("AS KD 11C", "11C", 3), ("AS-KD", "AS-KD", 1)],
)
def test_r11_an_unreadable_token_is_quoted_with_its_position(text, token, position):
    with pytest.raises(CardParseError) as refused:
        parse_cards(text)
    assert (refused.value.token, refused.value.position) == (token, position)
    assert f'"{token}"' in str(refused.value)
    assert f"card {position}" in str(refused.value)
    assert "R11" in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_it_refuses_two_cards_where_one_is_asked_for():
    with pytest.raises(RulesError, match="R11"):
        parse_card("AS KD")


def test_card_text_is_rank_then_suit_letter():
    assert [str(card) for card in parse_cards("10♥ a♠ *")] == ["10H", "AS", "JK"]
    assert format_cards(parse_cards("10H AS JK"), symbols=True) == "10♥ A♠ JK"


def test_a_joker_has_no_suit_and_a_natural_card_has_one():
    with pytest.raises(ValueError, match="joker"):
        Card(Rank.JOKER, Suit.HEARTS)
    with pytest.raises(ValueError, match="joker"):
        Card(Rank.FIVE)


def test_cards_sort_by_rank_then_suit_with_jokers_last():
    assert format_cards(sorted(parse_cards("JK KS 2H 2C JK AD"))) == "AD 2C 2H KS JK JK"


@settings(**SETTINGS)
@given(card_lists)
def test_r11_format_then_parse_gives_back_the_same_cards(cards):
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, symbols=True)) == cards


@settings(**SETTINGS)
@given(card_lists, st.randoms(use_true_random=False))
def test_r11_any_case_separator_or_symbol_reads_the_same_cards(cards, chooser: random.Random):
    separators = [" ", ",", ", ", " ,", "  ", "\t", " , "]
    text = "".join(spellings(card, chooser) + chooser.choice(separators) for card in cards)
    assert parse_cards(text) == cards
