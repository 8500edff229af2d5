"""Deals played out by the rules (PA2, PA3) and the example entries made of them."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import RulesError
from games.cards import parse_card
from games.parcellus.deck import DECK, read_parcel
from games.parcellus.play import (
    LEFT,
    RIGHT,
    deal_hands,
    pass_cards,
    play_deal,
    play_parcel,
    play_parcels,
)

from .helpers import RULES, rules


@settings(max_examples=200, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.integers(0, 2),
    st.sampled_from([LEFT, RIGHT]),
    st.floats(0, 1),
)
def test_pa3_a_deal_played_by_the_rules_makes_six_legal_parcels(rng, dealer, direction, eager):
    played = play_deal(rng, dealer=dealer, direction=direction, eagerness=eager)
    assert len(played.parcels) == 6  # PA3.7
    cards = [card for _, parcel in played.parcels for card in parcel]
    assert len(cards) == len(set(cards)) and set(cards) <= set(DECK)  # PA1.2
    for _, parcel in played.parcels:
        assert read_parcel(" ".join(map(str, parcel)))[1] == ()  # PA3.2
    assert played.parcels[0][0] == dealer or len(played.parcels[0][1]) > 1  # PA3.5


def cards(text):
    return [parse_card(token) for token in text.split()]


def test_pa2_1_each_player_and_the_common_pile_get_six_cards_of_the_deck():
    hands, common = deal_hands(random.Random(1))
    assert [len(hand) for hand in hands] == [6, 6, 6] and len(common) == 6
    assert sorted([*hands[0], *hands[1], *hands[2], *common]) == sorted(DECK)


@pytest.mark.parametrize(
    ("direction", "giver"),
    [pytest.param(LEFT, 2, id="PA2.3-left"), pytest.param(RIGHT, 1, id="PA2.3-right")],
)
def test_pa2_2_each_player_passes_three_cards_and_keeps_three(direction, giver):
    hands, _ = deal_hands(random.Random(2))
    passed = pass_cards([list(hand) for hand in hands], direction, random.Random(5))
    assert [len(hand) for hand in passed] == [6, 6, 6]
    received = [card for card in passed[0] if card not in hands[0]]
    assert len(received) == 3 and set(received) <= set(hands[giver])


def test_pa3_1_pa3_4_the_published_example_south_captures_six_cards():
    """West (0) turns up J♠; North (1) Q♣, South (2) passes, West K♣, North passes, South A♠,
    West passes, North 9♣, South 10♣, and three passes: South takes the parcel."""
    hands = [cards("KC"), cards("QC 9C"), cards("AS 10C")]
    taker, parcel = play_parcel(parse_card("JS"), 0, hands, random.Random(0), eagerness=1)
    assert (taker, " ".join(map(str, parcel))) == (2, "JS QC KC AS 9C 10C")
    assert hands == [[], [], []]


def test_pa3_3_a_player_may_pass_even_when_she_could_add():
    hands = [[], cards("10H"), []]
    taker, parcel = play_parcel(parse_card("9H"), 0, hands, random.Random(0), eagerness=0)
    assert (taker, len(parcel), hands[1]) == (0, 1, cards("10H"))


def test_pa3_6_the_captor_turns_up_the_next_card_and_her_left_plays_first():
    """Bo (1), left of the dealer, adds 10♥ before Cy (2) can add 10♦, so Bo takes the first
    parcel, turns up 9♠, and Cy, on her left, is first to play on it: she adds 10♠."""
    hands = [[], cards("10H"), cards("10D 10S")]
    played = play_parcels(cards("9H 9S"), hands, 0, random.Random(0), eagerness=1)
    assert [(taker, " ".join(map(str, parcel))) for taker, parcel in played.parcels] == [
        (1, "9H 10H"),
        (2, "9S 10S"),
    ]


def test_pa3_5_nobody_adding_the_dealer_takes_every_one_card_parcel():
    played = play_deal(random.Random(3), dealer=2, eagerness=0)
    assert [(taker, len(cards)) for taker, cards in played.parcels] == [(2, 1)] * 6


def example_match(ruleset_rules, seed):
    rng, played = random.Random(seed), []
    while (number := ruleset_rules.next_deal(played)) is not None:
        evaluation = ruleset_rules.evaluate(ruleset_rules.example_report(number, 3, rng), played)
        assert evaluation.ok and not evaluation.warnings, evaluation.errors
        played.append(evaluation.score)
        assert number < 40, "a match of example deals should end long before this"
    return played


@pytest.mark.parametrize("seed", range(40))
def test_example_entries_are_valid_for_every_deal_and_end_a_match(seed):
    played = example_match(RULES, seed)
    assert sum(result.won for result in RULES.match_result(played)) == 1


def test_example_matches_end_in_a_few_deals():
    lengths = [len(example_match(RULES, seed)) for seed in range(300)]
    assert max(lengths) <= 12 and 2 <= sum(lengths) / len(lengths) <= 6
    longer = [len(example_match(rules(target=100), seed)) for seed in range(30)]
    assert min(longer) > max(lengths) / 2


def test_example_entries_follow_the_seed():
    first = RULES.example_report(2, 3, random.Random(7))
    assert first == RULES.example_report(2, 3, random.Random(7))


@pytest.mark.parametrize("sides", [2, 4])
def test_pa1_1_there_is_no_example_for_a_table_of_other_than_three(sides):
    with pytest.raises(RulesError) as refused:
        RULES.example_report(1, sides, random.Random(0))
    assert refused.value.rule == "PA1.1"
