"""Every game keeps the protocol of ``games.base`` the same way, so the apps can treat them alike.

Parametrised over ``games.GAME_KEYS``: presets round-trip through ``dump``/``load``, settings carry
valid JSON Schemas, table plans seat everyone, a whole match of ``example_entry`` deals evaluates
without errors and ends, entries are canonical, hostile values are errors (never exceptions) that
cite their rule, ``rank`` places every side once (``stats`` gives its stats), and dispute tools
answer in the shared shape.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# jsonschema comes with drf-spectacular (requirements.txt).
from jsonschema import Draft202012Validator

import games
from games.base import (
    DealEntry,
    DealScore,
    Game,
    Rules,
    RulesError,
    RulesetInvalid,
    ScheduleKind,
    Scope,
    SideEntry,
    SideResult,
    StandingLine,
    side_sums,
)

MOST_DEALS = 100  # a match of example deals that runs longer than this does not end


@pytest.fixture(params=games.GAME_KEYS)
def game(request: pytest.FixtureRequest) -> Game[Any]:
    return games.get(request.param)


@pytest.fixture
def rules(game: Game[Any]) -> Rules[Any]:
    return game.rules(game.ruleset())


def play_match(rules: Rules[Any], seed: int) -> list[DealScore]:
    """A whole match of example entries at a usual table, each evaluated after those before."""
    rng, played = random.Random(seed), []
    sides = rules.shape().sides
    while (number := rules.next_deal(played)) is not None:
        assert len(played) < MOST_DEALS, "a match of example deals does not end"
        evaluation = rules.evaluate(rules.example_entry(number, sides, rng), played)
        assert evaluation.ok, [problem.message for problem in evaluation.errors]
        assert evaluation.score is not None and len(evaluation.score.sides) == sides
        played.append(evaluation.score)
    return played


def test_a_game_is_found_by_its_key(game: Game[Any]):
    assert games.get(game.key) is game and game.name
    assert game.default_preset in game.presets()
    assert game.ruleset() == game.presets()[game.default_preset]


def test_every_preset_dumps_as_json_and_loads_back_equal(game: Game[Any]):
    for name, ruleset in game.presets().items():
        stored = json.loads(json.dumps(game.dump(ruleset)))
        assert stored["preset"] == name
        assert game.load(stored) == ruleset
        assert game.changes(ruleset) == {"preset": name}
        assert game.ruleset(game.changes(ruleset)) == ruleset


def test_settings_have_valid_schemas_and_unknown_settings_are_refused(game: Game[Any]):
    names = [setting.name for setting in game.settings()]
    assert len(names) == len(set(names)) and names
    for setting in game.settings():
        Draft202012Validator.check_schema(dict(setting.schema))
    with pytest.raises(RulesetInvalid) as refused:
        game.ruleset({"no_such_setting_anywhere": 1})
    assert [problem.field for problem in refused.value.problems] == ["no_such_setting_anywhere"]
    with pytest.raises(RulesetInvalid):
        game.ruleset({"preset": "no-such-preset"})
    assert json.loads(json.dumps(game.to_dict()))["key"] == game.key


def test_the_ruleset_is_said_in_words(rules: Rules[Any]):
    words = rules.describe()
    assert words and all(isinstance(line, str) and line for line in words)


def test_a_table_plan_seats_every_side_at_tables_the_game_allows(rules: Rules[Any]):
    shape = rules.shape()
    assert shape.min_sides <= shape.sides <= shape.max_sides
    for count in range(shape.sides, 60):
        plan = rules.table_plan(count)
        assert sum(plan.sizes) + plan.byes == count and plan.byes >= 0
        assert all(shape.min_sides <= size <= shape.max_sides for size in plan.sizes)
        assert list(plan.sizes) == sorted(plan.sizes, reverse=True)


@pytest.mark.parametrize("seed", range(12))
def test_example_entries_make_a_match_that_ends(rules: Rules[Any], seed: int):
    played = play_match(rules, seed)
    assert played and rules.match_over(played)
    results = rules.match_result(played)
    assert len(results) == rules.shape().sides
    assert sum(result.won for result in results) <= 1
    for result in results:
        assert 1 <= result.place <= len(results) and "total" in result.stats
        assert all(type(value) is int for value in result.stats.values())


@pytest.mark.parametrize("seed", range(6))
def test_a_game_that_scores_from_sums_gives_the_same_match_from_them(rules: Rules[Any], seed: int):
    """The standings' promise of ``Rules.scores_from_sums``: after every deal, the
    match from the sides' sums is the match from the deals, rulings and a tie-break included,
    and the next deal follows from the deals' numbers alone (the standings read no results to
    tell whether a match is over). A game that does not score from sums says so."""
    played = play_match(rules, seed)
    if not rules.scores_from_sums:
        with pytest.raises(NotImplementedError):
            rules.match_result_from_sums(side_sums(played, rules.sums_flag))
        return
    sides = rules.shape().sides
    for count in range(len(played) + 1):
        prefix = played[:count]
        how = {"adjustments": [5 * side for side in range(sides)], "decided_for": seed % sides}
        sums = side_sums(prefix, rules.sums_flag)
        assert rules.match_result(prefix, **how) == rules.match_result_from_sums(sums, **how)
        numbers_only = [DealScore(deal.number, (), deal.void) for deal in prefix]
        assert rules.next_deal(numbers_only) == rules.next_deal(prefix)


def test_every_deal_of_a_fixed_schedule_has_a_spec_and_fields(rules: Rules[Any]):
    schedule = rules.schedule()
    if schedule.kind in (ScheduleKind.FIXED, ScheduleKind.TIMED):
        assert schedule.deals and schedule.deals >= 1
    for number in range(1, (schedule.deals or 1) + 1):
        assert rules.deal(number).number == number
        fields = rules.fields(number)
        names = [field.name for field in fields]
        assert all(field.alternative_to in names for field in fields if field.alternative_to)
        json.dumps([field.to_dict() for field in fields])


def test_each_deal_has_a_spec_and_fields(rules: Rules[Any]):
    for score in play_match(rules, 0):
        spec = rules.deal(score.number)
        assert spec.number == score.number and spec.title
        names = [field.name for field in rules.fields(score.number)]
        assert names and len(names) == len(set(names))
        json.dumps(dict(spec.facts))


def test_an_evaluated_entry_is_canonical(rules: Rules[Any]):
    """Evaluating the stored form again gives the same form and the same score."""
    rng, played = random.Random(3), []
    while (number := rules.next_deal(played)) is not None and len(played) < MOST_DEALS:
        first = rules.evaluate(rules.example_entry(number, rules.shape().sides, rng), played)
        again = rules.evaluate(first.entry, played)
        assert again.entry == first.entry and again.score == first.score
        json.dumps(first.entry.to_dict())
        json.dumps(first.score.to_dict())
        played.append(first.score)


JUNK = ("12", -1, 10**400, 2.5, [1], {"a": 1}, None, "JK JK JK", True)


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_hostile_values_are_errors_that_cite_their_rule(rules: Rules[Any], junk: Any):
    sides = rules.shape().sides
    example = rules.example_entry(1, sides, random.Random(0))
    for field in rules.fields(1):
        entry = _with(example, field.name, field.scope, junk)
        evaluation = rules.evaluate(entry)
        for problem in (*evaluation.errors, *evaluation.warnings):
            assert problem.rule and problem.rule in problem.message
        assert evaluation.ok == (evaluation.score is not None)


def _with(entry: DealEntry, name: str, scope: Scope, value: Any) -> DealEntry:
    """``entry`` with one field set to ``value``: for the deal, the first side or its member."""
    if scope is Scope.DEAL:
        return DealEntry(entry.number, entry.sides, {**entry.values, name: value})
    first = entry.sides[0]
    if scope is Scope.SIDE:
        side = SideEntry(first.label, {**first.values, name: value}, first.members)
    else:
        members = ({**(first.members[0] if first.members else {}), name: value},)
        side = SideEntry(first.label, first.values, members + tuple(first.members[1:]))
    return DealEntry(entry.number, (side, *entry.sides[1:]), entry.values)


def test_rank_places_every_side_once(rules: Rules[Any]):
    """Two rounds of example matches, a side with a bye in one: everyone placed exactly once,
    places from 1 that share only when level."""
    rounds = [_round(rules, seed) for seed in (1, 2)]
    sides = len(rounds[0])
    lines = [
        StandingLine(f"side {side}", (_stats(rounds[0][side]), _stats(rounds[1][side])))
        for side in range(sides)
    ] + [StandingLine("side with a bye", (_stats(rounds[0][0]), None))]
    placings = rules.rank(lines)
    assert sorted(placing.key for placing in placings) == sorted(line.key for line in lines)
    places = [placing.place for placing in placings]
    assert places[0] == 1 and places == sorted(places)
    for index, placing in enumerate(placings):
        assert placing.place in (index + 1, places[index - 1])
    columns = [column.stat for column in rules.columns()]
    assert columns and all(column in placings[0].stats for column in columns)
    assert rules.stats(lines) == {placing.key: placing.stats for placing in placings}


def _round(rules: Rules[Any], seed: int) -> Sequence[SideResult]:
    return rules.match_result(play_match(rules, seed))


def _stats(result: SideResult) -> dict[str, int]:
    return dict(result.stats)


@pytest.mark.parametrize(
    "entry",
    [
        DealEntry(1, ()),
        DealEntry("one", ()),  # type: ignore[arg-type]
        DealEntry(1, (SideEntry("x", {"?": object()}),)),
        DealEntry(1, tuple(SideEntry("x", {"?": "?"}, ({"?": []},)) for _ in range(9))),
    ],
    ids=["no sides", "number as text", "an object as a value", "nine junk sides"],
)
def test_a_malformed_entry_is_an_answer_with_errors_not_a_crash(rules: Rules[Any], entry):
    evaluation = rules.evaluate(entry)
    assert not evaluation.ok and evaluation.score is None
    assert all(problem.message.endswith(f"({problem.rule})") for problem in evaluation.errors)


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(RulesError, match="no game called 'chess'"):
        games.get("chess")


def test_an_empty_request_gives_the_default_preset(game: Game[Any]):
    assert game.ruleset({}) == game.presets()[game.default_preset]


@pytest.mark.parametrize("request_data", [5, "x", {"preset": "nope"}])
def test_a_request_that_is_not_a_ruleset_is_refused(game: Game[Any], request_data: Any):
    with pytest.raises(RulesetInvalid) as refused:
        game.ruleset(request_data)
    assert refused.value.problems


def test_every_setting_with_a_wrong_type_is_refused_naming_its_field(game: Game[Any]):
    for setting in game.settings():
        with pytest.raises(RulesetInvalid) as refused:
            game.ruleset({setting.name: {"not": ["a", "value"]}})
        assert setting.name in {problem.field for problem in refused.value.problems}


def test_example_entries_make_matches_at_every_table_size_of_every_preset(game: Game[Any]):
    for ruleset in game.presets().values():
        rules = game.rules(ruleset)
        rng = random.Random(7)
        for sides in range(rules.shape().min_sides, rules.shape().max_sides + 1):
            played: list[DealScore] = []
            while (number := rules.next_deal(played)) is not None:
                assert len(played) < MOST_DEALS, "a match of example deals does not end"
                evaluation = rules.evaluate(rules.example_entry(number, sides, rng), played)
                assert evaluation.ok, evaluation.errors
                played.append(evaluation.score)
            assert len(rules.match_result(played)) == sides


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_hostile_json_values_are_errors_never_exceptions(data: st.DataObject):
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=5,
    )
    for key in games.GAME_KEYS:
        game = games.get(key)
        rules = game.rules(game.ruleset())
        names = [field.name for field in rules.fields(1)] + ["nonsense"]
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


def test_level_sides_share_a_place(rules: Rules[Any]):
    rng = random.Random(11)
    stats = [rules.match_result(play_match(rules, seed))[0].stats for seed in range(3)]
    lines = [
        StandingLine(f"side {n}", (dict(stats[rng.randrange(3)]), dict(stats[0]))) for n in range(9)
    ]
    placings = rules.rank(lines)
    for first, second in pairwise(placings):
        if first.stats == second.stats:
            assert first.place == second.place and first.shared and second.shared


def test_tools_answer_in_the_shared_shape(rules: Rules[Any]):
    for tool in rules.tools():
        answer = rules.check(tool.name, {}).to_dict()
        assert answer["valid"] is False and answer["errors"]
    with pytest.raises(RulesError):
        rules.check("no-such-tool", {})
