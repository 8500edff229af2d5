"""The game protocol (``games.base``), as every game must keep it: checked for each game in
``games.GAME_KEYS`` alike, so a new game is held to the same contract the moment it is listed."""

from __future__ import annotations

import json
import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.base import DealEntry, RulesError, RulesetInvalid, SideEntry, StandingLine

KEYS = games.GAME_KEYS


@pytest.fixture(params=KEYS)
def game(request):
    return games.get(request.param)


def every_ruleset(game):
    return [game.presets()[key] for key in game.presets()]


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(RulesError, match="no game called 'chess'"):
        games.get("chess")


def test_the_default_preset_is_what_an_empty_request_gives(game):
    assert game.ruleset() == game.presets()[game.default_preset]
    assert game.ruleset({}) == game.presets()[game.default_preset]


def test_dump_and_load_round_trip_every_preset_through_json(game):
    for ruleset in every_ruleset(game):
        stored = json.loads(json.dumps(game.dump(ruleset)))
        assert game.load(stored) == ruleset


def test_changes_give_back_the_same_ruleset(game):
    for ruleset in every_ruleset(game):
        assert game.ruleset(game.changes(ruleset)) == ruleset


def test_every_setting_has_a_schema_and_a_label(game):
    for setting in game.settings():
        data = setting.to_dict()
        assert data["label"] and isinstance(data["schema"], dict) and data["schema"]
    json.dumps(game.to_dict())  # GET /api/games can serve it as it is


@pytest.mark.parametrize("request_data", [5, "x", {"no_such_setting": 1}, {"preset": "nope"}])
def test_a_bad_request_is_refused_naming_its_problem(game, request_data):
    with pytest.raises(RulesetInvalid) as refused:
        game.ruleset(request_data)
    assert refused.value.problems


def test_every_setting_with_a_wrong_type_is_refused_naming_its_field(game):
    for setting in game.settings():
        with pytest.raises(RulesetInvalid) as refused:
            game.ruleset({setting.name: {"not": ["a", "value"]}})
        assert setting.name in {problem.field for problem in refused.value.problems}


def test_example_entries_evaluate_without_errors_for_every_deal_of_a_match(game):
    for ruleset in every_ruleset(game):
        rules = game.rules(ruleset)
        rng = random.Random(7)
        for sides in range(rules.shape().min_sides, rules.shape().max_sides + 1):
            played = []
            while (number := rules.next_deal(played)) is not None:
                evaluation = rules.evaluate(rules.example_entry(number, sides, rng), played)
                assert evaluation.ok, evaluation.errors
                played.append(evaluation.score)
            assert rules.match_over(played)
            results = rules.match_result(played)
            assert len(results) == sides
            assert all("total" in result.stats for result in results)


def test_an_evaluated_entry_is_canonical_evaluating_it_again_changes_nothing(game):
    rules = game.rules(game.ruleset())
    entry = rules.example_entry(1, rules.shape().sides, random.Random(3))
    once = rules.evaluate(entry).entry
    assert rules.evaluate(once).entry == once


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_hostile_values_are_errors_never_exceptions(data):
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=5,
    )
    for key in KEYS:
        game = games.get(key)
        rules = game.rules(game.ruleset())
        names = [f.name for f in rules.fields(1)] + ["nonsense"]
        sides = tuple(
            SideEntry(
                data.draw(st.text(max_size=5)),
                data.draw(st.dictionaries(st.sampled_from(names), json_values, max_size=4)),
            )
            for _ in range(rules.shape().sides)
        )
        values = data.draw(st.dictionaries(st.sampled_from(names), json_values, max_size=3))
        evaluation = rules.evaluate(DealEntry(data.draw(st.integers(-3, 12)), sides, values))
        assert evaluation.ok or evaluation.score is None


def test_rank_is_a_permutation_and_level_sides_share_a_place(game):
    rules = game.rules(game.ruleset())
    rng = random.Random(11)
    lines = [
        StandingLine(f"side {n}", tuple({"total": rng.randint(0, 3) * 10} for _ in range(2)))
        for n in range(9)
    ]
    placings = rules.rank(lines)
    assert sorted(p.key for p in placings) == sorted(line.key for line in lines)
    places = [p.place for p in placings]
    assert places == sorted(places) and places[0] == 1
    for first, second in pairwise(placings):
        if first.place == second.place:
            assert first.shared and second.shared


def test_tools_answer_in_the_shared_shape(game):
    rules = game.rules(game.ruleset())
    for tool in rules.tools():
        answer = rules.check(tool.name, {}).to_dict()
        assert answer["valid"] is False and answer["errors"]
    with pytest.raises(RulesError):
        rules.check("no-such-tool", {})


def test_columns_start_with_the_ranking_order(game):
    columns = game.rules(game.ruleset()).columns()
    assert columns[0].stat == "total"
