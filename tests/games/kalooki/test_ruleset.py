"""Rulesets: the nine games (R4), every number as data, stored and read back as JSON."""

import dataclasses
import json

import pytest

from games.kalooki import ASAJ_2025, PRESETS, GameSpec, RulesError, Ruleset, UnknownGameError

R4_GAMES = [
    (1, 9, "333", "three threes"),
    (2, 10, "334", "two threes and one four"),
    (3, 11, "344", "one three and two fours"),
    (4, 12, "444", "three fours"),
    (5, 12, "3333", "four threes"),
    (6, 13, "3334", "three threes and one four"),
    (7, 14, "3344", "two threes and two fours"),
    (8, 15, "3444", "one three and three fours"),
    (9, 16, "4444", "four fours"),
]


@pytest.mark.parametrize(
    ("number", "dealt", "contract", "words"), R4_GAMES, ids=[f"R4-game-{g[0]}" for g in R4_GAMES]
)
def test_r4_the_nine_games_of_a_set(number, dealt, contract, words):
    spec = ASAJ_2025.game(number)
    assert (spec.number, spec.dealt, spec.contract) == (number, dealt, contract)
    assert spec.describe() == words
    assert (spec.threes, spec.fours) == (contract.count("3"), contract.count("4"))


@pytest.mark.parametrize(
    "spec", ASAJ_2025.games, ids=[f"R4.2-game-{s.number}" for s in ASAJ_2025.games]
)
def test_r4_2_the_minimum_contract_uses_exactly_the_cards_dealt(spec):
    assert spec.contract_cards == spec.dealt


def test_the_asaj_2025_preset_holds_the_numbers_of_the_rules():
    rules = PRESETS["asaj-2025"]
    assert rules is ASAJ_2025
    assert rules.name == "ASAJ Kalooki Tournament 2025"
    assert (rules.table_size, rules.packs, rules.jokers, rules.max_copies) == (5, 3, 6, 3)  # R1
    assert (rules.call_limit, rules.failed_come_down_penalty, rules.overcall_penalty) == (3, 50, 50)
    assert rules.double_penalties_on_down_and_out is False  # R8.4
    assert rules.assumed_calls_when_unknown == 3  # R10.4
    assert rules.tie_breaks == ("games_won", "down_and_outs", "latest_round_score")  # R12.3
    assert rules.min_naturals_in_three == 2  # R3.2
    assert rules.max_jokers_in_three is None  # R3.2 Interpretation
    assert rules.aces_at_both_ends is True  # R3.4 Interpretation
    assert rules.extra_melds_allowed is True  # R5.3 Interpretation


@pytest.mark.parametrize("number", [0, 10, -1, "3", None])
def test_r4_an_unknown_game_number_is_a_clear_error(number):
    with pytest.raises(UnknownGameError, match=r"a set has games 1 to 9 \(R4\)"):
        ASAJ_2025.game(number)


def test_a_ruleset_survives_json_and_back_unchanged():
    stored = json.dumps(ASAJ_2025.to_dict())
    assert Ruleset.from_dict(json.loads(stored)) == ASAJ_2025


def test_a_changed_ruleset_survives_json_and_back_unchanged():
    house = dataclasses.replace(
        ASAJ_2025,
        name="House rules",
        games=(GameSpec(1, 7, "34"), GameSpec(2, 9, "333")),
        double_penalties_on_down_and_out=True,
        max_jokers_in_three=2,
        tie_breaks=("down_and_outs",),
    )
    restored = Ruleset.from_dict(json.loads(json.dumps(house.to_dict())))
    assert restored == house
    assert restored.game(2).describe() == "three threes"


def test_stored_ruleset_data_with_an_unknown_setting_is_refused():
    data = ASAJ_2025.to_dict() | {"jokers_are_wild": True}
    with pytest.raises(RulesError, match="jokers_are_wild"):
        Ruleset.from_dict(data)


def test_stored_ruleset_data_without_a_newer_setting_takes_its_default():
    data = ASAJ_2025.to_dict()
    del data["assumed_calls_when_unknown"]
    assert Ruleset.from_dict(data) == ASAJ_2025


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"games": (GameSpec(2, 10, "334"),)}, "R4"),
        ({"min_table_size": 6, "table_size": 5}, "R1.1"),
        ({"tie_breaks": ("coin_toss",)}, "R12.3"),
        ({"max_copies": 4}, "R1.2"),
    ],
)
def test_it_refuses_a_ruleset_that_contradicts_itself(changes, rule):
    with pytest.raises(RulesError) as refused:
        dataclasses.replace(ASAJ_2025, **changes)
    assert refused.value.rule == rule


@pytest.mark.parametrize("contract", ["", "335", "3a4"])
def test_r4_a_contract_is_written_in_threes_and_fours(contract):
    with pytest.raises(ValueError, match="contract"):
        GameSpec(1, 9, contract)
