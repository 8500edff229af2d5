"""Contracts (R4, R5): what a player's first lay-down must hold."""

import dataclasses

import pytest

from games.kalooki import ASAJ_2025, FOUR, THREE, UnknownGameError, check_contract, parse_cards

RULES = ASAJ_2025

# One minimal lay-down per game, using exactly the cards dealt (R4.2).
MINIMAL_LAY_DOWNS = {
    1: ["5H 5S 5C", "KH KD JK", "9C 9C 9D"],
    2: ["5H 5S 5C", "KH KD JK", "4D 5D 6D 7D"],
    3: ["QS QS QH", "AH 2H 3H 4H", "9C JK JC QC"],
    4: ["AH 2H 3H 4H", "JS QS KS AS", "6D JK 8D 9D"],
    5: ["2H 2S 2C", "3H 3S JK", "4D 4D 4D", "8C 8S 8H"],
    6: ["2H 2S 2C", "3H 3S JK", "4D 4D 4D", "10S JS QS KS"],
    7: ["2H 2S 2C", "3H 3S JK", "4D 5D 6D 7D", "10S JS QS KS"],
    8: ["7H 7C JK", "4D 5D 6D 7D", "10S JS QS KS", "JK 2C 3C 4C"],
    9: ["4D 5D 6D 7D", "10S JS QS KS", "JK 2C 3C 4C", "8H 9H JK JH"],
}


@pytest.mark.parametrize("game", range(1, 10), ids=[f"R5.1-game-{g}" for g in range(1, 10)])
def test_r5_1_a_minimal_lay_down_satisfies_each_contract(game):
    check = check_contract(game, MINIMAL_LAY_DOWNS[game], RULES)
    assert check.valid, check.reasons
    assert [meld.kind for meld in check.melds] == [
        THREE if digit == "3" else FOUR for digit in RULES.game(game).contract
    ]
    assert sum(len(meld.cards) for meld in check.melds) == RULES.game(game).dealt  # R4.2


def test_r5_1_a_lay_down_short_of_the_contract_is_refused():
    check = check_contract(2, ["5H 5S 5C", "KH KD JK"], RULES)
    assert not check.valid
    assert [reason.rule for reason in check.reasons] == ["R5.1"]
    assert check.reasons[0].message == (
        "game 2 asks for two threes and one four; this lay-down has two threes (R5.1)"
    )


def test_r5_1_a_three_does_not_stand_in_for_a_four():
    check = check_contract(2, ["5H 5S 5C", "KH KD JK", "7C 7D 7S"], RULES)
    assert [reason.rule for reason in check.reasons] == ["R5.1"]


def test_r5_2_two_fours_of_one_suit_are_refused():
    check = check_contract(3, ["QS QS QH", "AH 2H 3H 4H", "9H 10H JH QH"], RULES)
    assert [reason.rule for reason in check.reasons] == ["R5.2"]
    assert "2 fours in hearts" in check.reasons[0].message


def test_r5_2_two_threes_of_one_rank_are_refused():
    check = check_contract(1, ["5H 5S 5C", "5D 5D JK", "9C 9C 9D"], RULES)
    assert [reason.rule for reason in check.reasons] == ["R5.2"]
    assert "2 threes of rank 5" in check.reasons[0].message


def test_r5_3_extra_melds_beyond_the_contract_are_allowed():
    lay_down = [*MINIMAL_LAY_DOWNS[2], "9S 10S JS QS", "AC AD AH"]
    assert check_contract(2, lay_down, RULES).valid


def test_r5_3_extra_melds_still_keep_to_r5_2():
    lay_down = [*MINIMAL_LAY_DOWNS[2], "JD QD KD AD"]
    check = check_contract(2, lay_down, RULES)
    assert [reason.rule for reason in check.reasons] == ["R5.2"]


def test_r5_3_a_ruleset_may_forbid_extra_melds():
    exact = dataclasses.replace(RULES, extra_melds_allowed=False)
    lay_down = [*MINIMAL_LAY_DOWNS[2], "AC AD AH"]
    assert [reason.rule for reason in check_contract(2, lay_down, exact).reasons] == ["R5.3"]
    assert check_contract(2, MINIMAL_LAY_DOWNS[2], exact).valid


def test_an_invalid_group_is_named_with_its_reasons():
    check = check_contract(2, ["5H 5S 5C", "9H JK JK", "4D 5D 6D 7D"], RULES)
    assert not check.valid
    assert check.reasons[0].rule == "R3.2"
    assert check.reasons[0].message.startswith("group 2 (9H JK JK): ")


def test_groups_may_be_given_as_cards():
    groups = [parse_cards(text) for text in MINIMAL_LAY_DOWNS[4]]
    assert check_contract(4, groups, RULES).valid


def test_unreadable_group_text_is_refused_citing_r11():
    check = check_contract(1, ["5H 5S 5X", "KH KD JK", "9C 9C 9D"], RULES)
    assert not check.valid
    assert [reason.rule for reason in check.reasons] == ["R11"]
    assert '"5X"' in check.reasons[0].message


def test_a_contract_for_an_unknown_game_is_a_clear_error():
    with pytest.raises(UnknownGameError, match="R4"):
        check_contract(10, MINIMAL_LAY_DOWNS[1], RULES)
