"""Melds (R3): threes and fours, as laid on the table and as found in a hand."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kalooki import (
    ASAJ_2025,
    FOUR,
    THREE,
    check_four,
    check_meld,
    check_three,
    format_cards,
    parse_cards,
)

from .strategies import SETTINGS, cards, laid_fours

RULES = ASAJ_2025


def rules_of(check):
    return [reason.rule for reason in check.reasons]


# R3.1, R3.2: threes.

THREES = [
    ("R3.1-duplicates-allowed", "5H 5H 5C", True),
    ("R3.1-five-kings", "KS KH KD KC KS", True),
    ("R3.1-three-duplicates", "7C 7C 7C 7H", True),
    # R1.2: the deck has three 7C, so a meld cannot hold seven (melds obey the deck).
    ("R1.2-seven-duplicates", "7C 7C 7C 7C 7C 7C 7C", False),
    ("R3.1-two-cards", "5H 5C", False),
    ("R3.1-two-ranks", "5H 5C 6D", False),
    ("R3.2-king-king-joker", "KH KS JK", True),
    ("R3.2-queen-queen-joker-joker", "QH QD JK JK", True),
    ("R3.2-nine-joker-joker", "9H JK JK", False),
    ("R3.2-interpretation-queen-queen-three-jokers", "QH QD JK JK JK", True),
    ("R3.2-jokers-alone", "JK JK JK", False),
]


@pytest.mark.parametrize(("text", "valid"), [t[1:] for t in THREES], ids=[t[0] for t in THREES])
def test_r3_threes(text, valid):
    check = check_three(text, RULES)
    assert check.valid is valid
    assert bool(check.reasons) is not valid
    assert check.kind == THREE


def test_r3_2_nine_joker_joker_is_not_a_three():
    check = check_three("9H JK JK", RULES)
    assert rules_of(check) == ["R3.2"]
    assert "at least 2 natural cards" in check.reasons[0].message


def test_r3_1_a_three_of_two_ranks_names_them():
    check = check_three("5H 5C 6D", RULES)
    assert [reason.message for reason in check.reasons] == [
        "a three is of one rank, not 5 and 6 (R3.1)"
    ]


def test_r3_2_a_ruleset_may_limit_the_jokers_in_a_three():
    strict = dataclasses.replace(RULES, max_jokers_in_three=1)
    assert check_three("QH QD JK", strict).valid
    assert rules_of(check_three("QH QD JK JK", strict)) == ["R3.2"]


def test_a_three_from_a_hand_lists_its_naturals_before_its_jokers():
    assert check_three("JK KH KS", RULES, as_laid=False).arrangement == ("KH", "KS", "JK")
    assert check_three("JK KH KS", RULES, as_laid=True).arrangement == ("JK", "KH", "KS")


# R3.3 to R3.5: fours, as laid.

FOURS_AS_LAID = [
    ("R3.3-five-hearts", "8H 9H 10H JH QH", True, []),
    ("R3.3-three-cards", "8H 9H 10H", False, ["R3.3"]),
    ("R3.3-mixed-suits", "5H 6C 7H 8H", False, ["R3.3"]),
    ("R3.3-not-consecutive", "5H 6H 8H 9H", False, ["R3.3"]),
    ("R3.4-ace-low", "AH 2H 3H 4H", True, []),
    ("R3.4-ace-high", "JH QH KH AH", True, []),
    ("R3.4-king-ace-two-three", "KH AH 2H 3H", False, ["R3.4"]),
    ("R3.4-aces-at-both-ends", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", True, []),
    ("R3.4-joker-above-high-ace", "QH KH AH JK", False, ["R3.4"]),
    ("R3.5-joker-gaps", "5H JK 7H JK", True, []),
    ("R3.5-jokers-side-by-side", "5H JK JK 8H", False, ["R3.5"]),
    ("R3.5-jokers-at-both-ends", "JK 5H 6H JK", True, []),
    ("R3.5-one-natural-three-jokers", "JK 5H JK JK", False, ["R3.5"]),
    ("R3.5-same-card-twice", "7H 7H 8H 9H", False, ["R3.5"]),
    ("R3.5-joker-stands-for-low-ace", "JK 2H 3H 4H", True, []),
    ("R3.5-joker-stands-for-high-ace", "JH QH KH JK", True, []),
    ("laid-high-to-low", "QH JH 10H 9H", True, []),
]


@pytest.mark.parametrize(
    ("text", "valid", "rules"), [f[1:] for f in FOURS_AS_LAID], ids=[f[0] for f in FOURS_AS_LAID]
)
def test_r3_fours_as_laid(text, valid, rules):
    check = check_four(text, RULES, as_laid=True)
    assert check.valid is valid
    assert sorted(set(rules_of(check))) == rules


def test_r3_4_king_ace_two_three_is_not_a_four_in_any_order():
    for as_laid in (True, False):
        check = check_four("KH AH 2H 3H", RULES, as_laid=as_laid)
        assert not check.valid
        assert rules_of(check) == ["R3.4"]
        assert "an ace can only be at an end" in check.reasons[0].message


def test_r3_4_an_ace_at_each_end_makes_one_four_of_fourteen_cards():
    check = check_meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", RULES)
    assert check.valid and check.kind == FOUR
    assert (check.low, check.high, len(check.cards)) == (1, 14, 14)


def test_r3_4_a_ruleset_may_allow_an_ace_at_one_end_only():
    one_end = dataclasses.replace(RULES, aces_at_both_ends=False)
    full_run = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    assert not check_four(full_run, one_end, as_laid=True).valid
    assert not check_four(full_run, one_end, as_laid=False).valid
    assert check_four("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", one_end).valid
    joker_for_the_second_ace = check_four("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", one_end)
    assert [reason.rule for reason in joker_for_the_second_ace.reasons] == ["R3.4"]


def test_r3_5_jokers_side_by_side_are_named_in_the_refusal():
    check = check_four("5H JK JK 8H", RULES)
    assert [reason.message for reason in check.reasons] == [
        "two jokers side by side in a four (R3.5)"
    ]


def test_r3_5_a_card_twice_in_a_four_is_named():
    check = check_four("7H 7H 8H 9H", RULES, as_laid=False)
    assert rules_of(check) == ["R3.5"]
    assert "7H appears twice" in check.reasons[0].message


def test_r3_5_each_joker_stands_for_the_card_at_its_place():
    check = check_four("5H JK 7H JK", RULES)
    assert format_cards(check.stands_for) == "5H 6H 7H 8H"


def test_a_four_laid_high_to_low_is_reported_low_to_high():
    assert check_four("QH JH 10H 9H", RULES).arrangement == ("9H", "10H", "JH", "QH")


# Fours found in a hand.

FOURS_IN_A_HAND = [
    ("R3.3-shuffled-run", "QH 9H JH 10H 8H", "8H 9H 10H JH QH"),
    ("R3.4-ace-low", "3H AH 4H 2H", "AH 2H 3H 4H"),
    ("R3.4-ace-high", "AH KH JH QH", "JH QH KH AH"),
    (
        "R3.4-aces-both-ends",
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    ),
    ("R3.5-joker-fills-a-gap", "7H 5H JK 8H", "5H JK 7H 8H"),
    ("R3.5-spare-joker-goes-high", "5H 6H 7H JK", "5H 6H 7H JK"),
    ("R3.5-spare-joker-goes-low-under-a-high-ace", "QH KH AH JK", "JK QH KH AH"),
    ("R3.5-jokers-at-both-ends", "JK 6H JK 7H", "JK 6H 7H JK"),
    ("R3.5-ace-low-then-joker", "AH JK 3H 2H", "AH 2H 3H JK"),
]


@pytest.mark.parametrize(
    ("text", "arranged"), [f[1:] for f in FOURS_IN_A_HAND], ids=[f[0] for f in FOURS_IN_A_HAND]
)
def test_r3_fours_found_in_a_hand(text, arranged):
    check = check_four(text, RULES, as_laid=False)
    assert check.valid
    assert " ".join(check.arrangement) == arranged
    assert check_four(arranged, RULES, as_laid=True).valid


NOT_FOURS_IN_A_HAND = [
    ("R3.3-fewer-than-four", "5H 6H 7H", "R3.3"),
    ("R3.3-mixed-suits", "5H 6C 7H 8H", "R3.3"),
    ("R3.3-a-gap-and-no-joker", "5H 6H 8H 9H", "R3.3"),
    ("R3.4-king-ace-two-three", "KH AH 2H 3H", "R3.4"),
    ("R3.5-jokers-would-touch", "5H JK JK 8H", "R3.5"),
    ("R3.5-one-natural-three-jokers", "5H JK JK JK", "R3.5"),
    ("R3.5-too-many-jokers", "5H 6H 7H JK JK JK", "R3.5"),
    ("R3.5-same-card-twice", "7H 7H 8H 9H", "R3.5"),
    ("R3.5-jokers-alone", "JK JK JK JK", "R3.5"),
    ("R3.5-ace-three-times", "AH AH AH 2H 3H", "R3.5"),
]


@pytest.mark.parametrize(
    ("text", "rule"),
    [f[1:] for f in NOT_FOURS_IN_A_HAND],
    ids=[f[0] for f in NOT_FOURS_IN_A_HAND],
)
def test_r3_not_fours_in_a_hand(text, rule):
    check = check_four(text, RULES, as_laid=False)
    assert not check.valid
    assert rule in rules_of(check)


def test_r3_5_jokers_that_would_touch_are_explained_by_the_cards_they_stand_for():
    check = check_four("5H JK JK 8H", RULES, as_laid=False)
    assert check.reasons[0].message == "jokers standing for 6H and 7H would be side by side (R3.5)"


def test_r3_3_a_missing_card_is_named():
    check = check_four("5H 6H 8H 9H", RULES, as_laid=False)
    assert check.reasons[0].message == "not a run: 7H missing, and no joker to stand in (R3.3)"


# Either kind.


def test_check_meld_finds_the_kind():
    assert check_meld("KH KS JK", RULES).kind == THREE
    assert check_meld("5H JK 7H JK", RULES).kind == FOUR


def test_check_meld_gives_the_reasons_for_both_kinds_when_neither_fits():
    check = check_meld("9H JK JK", RULES)
    assert not check.valid and check.kind is None
    assert rules_of(check) == ["R3.2", "R3.3"]


def test_check_meld_checks_only_the_kind_asked_for():
    assert not check_meld("KH KS JK", RULES, FOUR).valid
    with pytest.raises(ValueError, match="meld"):
        check_meld("KH KS JK", RULES, "run")


@pytest.mark.parametrize("as_laid", [True, False])
def test_fewer_than_three_cards_are_no_meld(as_laid):
    assert not check_meld("KH KS", RULES, as_laid=as_laid).valid
    assert not check_meld("", RULES, as_laid=as_laid).valid


def test_every_refusal_cites_its_rule_in_its_message():
    for text in ("9H JK JK", "5H JK JK 8H", "KH AH 2H 3H", "5H 6C", "7H 7H 8H 9H"):
        for reason in check_meld(text, RULES).reasons:
            assert reason.message.endswith(f"({reason.rule})")


# Laws.


@settings(**SETTINGS)
@given(laid_fours(), st.randoms(use_true_random=False))
def test_law_any_valid_four_shuffled_in_a_hand_is_found(laid, shuffler):
    assert check_four(laid, RULES, as_laid=True).valid
    hand = list(laid)
    shuffler.shuffle(hand)
    found = check_four(hand, RULES, as_laid=False)
    assert found.valid
    assert sorted(found.cards) == sorted(laid)
    assert check_four(found.cards, RULES, as_laid=True).valid


@settings(**SETTINGS)
@given(st.lists(cards, min_size=3, max_size=8))
def test_law_no_group_of_cards_is_both_a_three_and_a_four(group):
    assert not (check_three(group, RULES).valid and check_four(group, RULES, as_laid=False).valid)


@settings(**SETTINGS)
@given(st.lists(cards, min_size=0, max_size=8))
def test_law_a_meld_found_in_a_hand_uses_exactly_its_cards(group):
    check = check_meld(group, RULES)
    if check.valid:
        assert sorted(check.cards) == sorted(group)
        assert check_meld(check.cards, RULES, check.kind, as_laid=True).valid
    else:
        assert check.reasons


def test_parse_cards_and_card_lists_are_accepted_alike():
    assert check_meld(parse_cards("KH KS JK"), RULES) == check_meld("KH KS JK", RULES)
