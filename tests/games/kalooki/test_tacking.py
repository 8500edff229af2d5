"""Tacking on (R7), moving a joker (R7.3, R3.6) and discarding (R7.4)."""

import dataclasses

import pytest
from hypothesis import given, settings

from games.kalooki import (
    ASAJ_2025,
    RulesError,
    check_discard,
    check_four,
    check_tack_on,
    format_cards,
    replace_joker,
)

from .strategies import SETTINGS, cards, laid_fours

RULES = ASAJ_2025

TACKS = [
    ("R7.1-same-rank-onto-a-three", "KD", "KH KS JK", None, "KH KS JK KD"),
    ("R7.2-joker-onto-a-three", "JK", "KH KS KC", None, "KH KS KC JK"),
    ("R7.2-joker-onto-a-three-with-jokers", "JK", "QH QD JK JK", None, "QH QD JK JK JK"),
    ("R7.1-next-card-at-the-high-end", "9H", "5H 6H 7H 8H", None, "5H 6H 7H 8H 9H"),
    ("R7.1-next-card-at-the-low-end", "4H", "5H 6H 7H 8H", None, "4H 5H 6H 7H 8H"),
    ("R7.1-high-ace", "AH", "10H JH QH KH", None, "10H JH QH KH AH"),
    ("R7.1-low-ace", "AH", "2H 3H 4H 5H", None, "AH 2H 3H 4H 5H"),
    (
        "R3.4-second-ace-completes-ace-to-ace",
        "AS",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        None,
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    ),
    ("R7.2-joker-at-the-high-end", "JK", "5H 6H 7H 8H", None, "5H 6H 7H 8H JK"),
    ("R7.2-joker-at-the-low-end-asked-for", "JK", "5H 6H 7H 8H", "low", "JK 5H 6H 7H 8H"),
    ("R7.2-joker-goes-low-past-a-high-joker", "JK", "5H 6H 7H JK", None, "JK 5H 6H 7H JK"),
    ("R7.2-joker-goes-low-under-a-high-ace", "JK", "JH QH KH AH", None, "JK JH QH KH AH"),
    ("R7.1-onto-a-four-laid-high-to-low", "9H", "8H 7H 6H 5H", None, "5H 6H 7H 8H 9H"),
]


@pytest.mark.parametrize(
    ("card", "meld", "end", "after"), [t[1:] for t in TACKS], ids=[t[0] for t in TACKS]
)
def test_r7_cards_that_can_be_tacked_on(card, meld, end, after):
    check = check_tack_on(card, meld, RULES, end=end)
    assert check.valid, check.reasons
    assert format_cards(check.meld_after) == after


REFUSED_TACKS = [
    ("R7.1-other-rank-onto-a-three", "QD", "KH KS JK", None, "R7.1"),
    ("R7.1-other-suit-onto-a-four", "9C", "5H 6H 7H 8H", None, "R7.1"),
    ("R7.1-card-not-next-in-the-run", "10H", "5H 6H 7H 8H", None, "R7.1"),
    ("R7.1-card-for-the-other-end", "9H", "5H 6H 7H 8H", "low", "R7.1"),
    ("R7.2-joker-next-to-a-joker", "JK", "5H 6H 7H JK", "high", "R7.2"),
    ("R7.2-jokers-at-both-ends-already", "JK", "JK 6H 7H 8H JK", None, "R7.2"),
    ("R3.4-nothing-above-the-high-ace", "JK", "JH QH KH AH", "high", "R3.4"),
    ("R3.4-nothing-below-the-low-ace", "JK", "AH 2H 3H 4H", "low", "R3.4"),
    ("R3.4-ace-to-ace-is-full", "2H", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", None, "R3.4"),
    ("R7.1-not-onto-a-broken-meld", "KD", "KH KS", None, "R7.1"),
]


@pytest.mark.parametrize(
    ("card", "meld", "end", "rule"),
    [t[1:] for t in REFUSED_TACKS],
    ids=[t[0] for t in REFUSED_TACKS],
)
def test_r7_cards_that_cannot_be_tacked_on(card, meld, end, rule):
    check = check_tack_on(card, meld, RULES, end=end)
    assert not check.valid
    assert check.reasons[0].rule == rule


def test_r7_1_a_refused_card_is_told_which_cards_fit():
    check = check_tack_on("10H", "5H 6H 7H 8H", RULES)
    assert check.reasons[0].message == (
        "10H does not continue this four: it takes 4H at the low end or 9H at the high end,"
        " or a joker (R7.1)"
    )


def test_r7_1_only_a_player_who_has_come_down_may_tack_on():
    check = check_tack_on("9H", "5H 6H 7H 8H", RULES, has_come_down=False)
    assert [reason.rule for reason in check.reasons] == ["R7.1"]


def test_r7_2_a_joker_next_to_a_joker_is_refused_in_words():
    check = check_tack_on("JK", "5H 6H 7H JK", RULES, end="high")
    assert check.reasons[0].message == (
        "a joker at the high end would touch the joker already there (R7.2)"
    )


def test_r3_5_a_ruleset_with_aces_at_one_end_refuses_the_second_ace_as_the_same_card_twice():
    one_end = dataclasses.replace(RULES, aces_at_both_ends=False)
    check = check_tack_on("AS", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", one_end)
    assert [reason.rule for reason in check.reasons] == ["R3.5"]


def test_r3_4_a_ruleset_with_aces_at_one_end_refuses_a_joker_for_the_other_ace():
    one_end = dataclasses.replace(RULES, aces_at_both_ends=False)
    check = check_tack_on("JK", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", one_end)
    assert [reason.rule for reason in check.reasons] == ["R3.4", "R3.4"]
    assert "one end" in check.reasons[0].message


def test_an_unknown_end_is_a_programming_error():
    with pytest.raises(ValueError, match="end"):
        check_tack_on("9H", "5H 6H 7H 8H", RULES, end="middle")


def test_tacking_on_more_than_one_card_is_refused_citing_r11():
    with pytest.raises(RulesError, match="R11"):
        check_tack_on("9H 10H", "5H 6H 7H 8H", RULES)


# R7.3: moving a joker.

JOKER_MOVES = [
    ("R7.3-joker-inside", "5H JK 7H 8H", "6H", "5H 6H 7H 8H JK", 1),
    ("R7.3-joker-at-the-high-end-itself", "5H 6H 7H JK", "8H", "5H 6H 7H 8H JK", 3),
    ("R7.3-joker-at-the-low-end", "JK 2H 3H 4H", "AH", "AH 2H 3H 4H JK", 0),
    ("R7.3-one-of-two-jokers", "5H JK 7H JK", "8H", "5H JK 7H 8H JK", 3),
]


@pytest.mark.parametrize(
    ("meld", "real", "after", "place"),
    [m[1:] for m in JOKER_MOVES],
    ids=[m[0] for m in JOKER_MOVES],
)
def test_r7_3_the_real_card_takes_the_jokers_place_and_the_joker_moves_high(
    meld, real, after, place
):
    move = replace_joker(meld, real)
    assert move.valid, move.reasons
    assert format_cards(move.meld_after) == after
    assert (move.joker_from, move.joker_to) == (place, len(move.meld_after) - 1)


REFUSED_JOKER_MOVES = [
    ("R7.3-high-end-is-an-ace-so-the-joker-is-dead", "JK QH KH AH", "JH", "R7.3", "dead"),
    ("R7.3-joker-for-the-high-ace-is-dead", "JH QH KH JK", "AH", "R7.3", "dead"),
    ("R7.3-a-joker-already-at-the-high-end", "5H JK 7H JK", "6H", "R7.3", "already stands"),
    ("R7.3-no-joker-stands-for-that-card", "5H JK 7H 8H", "9H", "R7.3", "no joker"),
    ("R7.3-no-joker-exchange-for-a-joker", "5H JK 7H 8H", "JK", "R7.3", "real card"),
    ("R3.6-a-joker-in-a-three-never-moves", "KH KS JK", "KD", "R3.6", "never be moved"),
]


@pytest.mark.parametrize(
    ("meld", "real", "rule", "words"),
    [m[1:] for m in REFUSED_JOKER_MOVES],
    ids=[m[0] for m in REFUSED_JOKER_MOVES],
)
def test_r7_3_when_a_joker_cannot_move(meld, real, rule, words):
    move = replace_joker(meld, real)
    assert not move.valid
    assert move.reasons[0].rule == rule
    assert words in move.reasons[0].message


def test_r7_3_only_a_player_who_has_come_down_may_move_a_joker():
    move = replace_joker("5H JK 7H 8H", "6H", RULES, has_come_down=False)
    assert [reason.rule for reason in move.reasons] == ["R7.1"]


# R7.4: discards.


def test_r7_4_a_joker_cannot_be_discarded():
    problem = check_discard("JK")
    assert problem is not None and problem.rule == "R7.4"


@pytest.mark.parametrize("card", ["5H", "AS", "KD"])
def test_r7_4_any_other_card_can_be_discarded(card):
    assert check_discard(card) is None


# Laws.


@settings(**SETTINGS)
@given(laid_fours(), cards)
def test_law_a_card_tacked_onto_a_four_leaves_a_valid_four_one_longer(laid, card):
    check = check_tack_on(card, laid, RULES)
    if check.valid:
        assert len(check.meld_after) == len(laid) + 1
        assert check_four(check.meld_after, RULES, as_laid=True).valid
    else:
        assert check.reasons


@settings(**SETTINGS)
@given(laid_fours())
def test_law_a_moved_joker_leaves_a_valid_four_with_the_joker_at_the_high_end(laid):
    four = check_four(laid, RULES)
    for place, card in enumerate(laid):
        if not card.is_joker:
            continue
        move = replace_joker(laid, four.stands_for[place])
        if move.valid:
            assert move.meld_after[-1].is_joker
            assert check_four(move.meld_after, RULES).valid
