"""Every game keeps the protocol of ``games.base``: the same questions, answered the same way.

Parametrised over ``games.GAME_KEYS``, so a game joins these tests by being registered. A game
whose package does not export ``GAME`` yet (it is being moved behind the protocol) is skipped,
saying so.
"""

from __future__ import annotations

import importlib
import json
import random

import pytest

import games
from games.base import (
    DealEntry,
    Game,
    RulesetInvalid,
    ScheduleKind,
    SideEntry,
    StandingLine,
)

MOST_DEALS = 60  # a match to a target score that has not ended by then is a bug


def _game(key: str) -> Game:
    if not hasattr(importlib.import_module(f"games.{key}"), "GAME"):
        pytest.skip(f"games.{key} does not export GAME yet")
    return games.get(key)


@pytest.fixture(params=games.GAME_KEYS)
def game(request: pytest.FixtureRequest) -> Game:
    return _game(request.param)


def _presets(game: Game):
    return list(game.presets().items())


def _match(game: Game, seed: int):
    """A whole match of example entries, evaluated in turn: the entries and their scores."""
    rules = game.rules(game.ruleset())
    rng, scores, entries = random.Random(seed), [], []
    number = rules.next_deal(scores)
    while number is not None and len(scores) < MOST_DEALS:
        entry = rules.example_entry(number, rules.shape().sides, rng)
        evaluation = rules.evaluate(entry, scores)
        assert evaluation.ok, [str(problem) for problem in evaluation.errors]
        entries.append(entry)
        scores.append(evaluation.score)
        number = rules.next_deal(scores)
    assert number is None, "the match never ended"
    return rules, entries, scores


def test_the_game_is_found_by_its_key(game):
    assert games.get(game.key) is game and game.name
    assert game.default_preset in game.presets()
    assert isinstance(game.higher_wins, bool)


def test_every_preset_is_stored_and_read_back_equal(game):
    for name, ruleset in _presets(game):
        stored = json.loads(json.dumps(game.dump(ruleset)))
        assert stored["preset"] == name
        assert game.load(stored) == ruleset
        assert game.changes(ruleset) == {"preset": name}
        assert game.ruleset(game.changes(ruleset)) == ruleset


def test_a_request_with_an_unknown_setting_or_preset_is_refused_naming_it(game):
    with pytest.raises(RulesetInvalid) as refused:
        game.ruleset({"preset": game.default_preset, "no_such_setting": 1})
    assert "no_such_setting" in [problem.field for problem in refused.value.problems]
    with pytest.raises(RulesetInvalid):
        game.ruleset({"preset": "no-such-preset"})


def test_every_setting_has_a_schema_and_the_game_lists_as_json(game):
    names = [setting.name for setting in game.settings()]
    assert len(names) == len(set(names)) and names
    assert all(setting.schema.get("type") for setting in game.settings())
    assert json.loads(json.dumps(game.to_dict()))["key"] == game.key


def test_the_ruleset_is_described_in_words(game):
    for _, ruleset in _presets(game):
        lines = game.rules(ruleset).describe()
        assert lines and all(isinstance(line, str) and line for line in lines)


def test_a_table_plan_seats_every_side(game):
    rules = game.rules(game.ruleset())
    shape = rules.shape()
    assert 1 <= shape.min_sides <= shape.sides <= shape.max_sides and shape.members >= 1
    for sides in range(shape.min_sides, 40):
        plan = rules.table_plan(sides)
        assert sum(plan.sizes) + plan.byes == sides
        assert all(shape.min_sides <= size <= shape.max_sides for size in plan.sizes)


def test_every_deal_of_the_schedule_has_a_spec_and_fields(game):
    rules = game.rules(game.ruleset())
    schedule = rules.schedule()
    if schedule.kind in (ScheduleKind.FIXED, ScheduleKind.TIMED):
        assert schedule.deals and schedule.deals >= 1
    numbers = range(1, (schedule.deals or 1) + 1)
    for number in numbers:
        assert rules.deal(number).number == number
        fields = rules.fields(number)
        names = [field.name for field in fields]
        assert len(names) == len(set(names))
        assert all(f.alternative_to in names for f in fields if f.alternative_to)
        assert json.dumps([field.to_dict() for field in fields])


@pytest.mark.parametrize("seed", range(5))
def test_example_entries_are_valid_for_every_deal_of_a_match(game, seed):
    rules, entries, scores = _match(game, seed)
    for entry, score in zip(entries, scores, strict=True):
        assert len(score.sides) == len(entry.sides) == rules.shape().sides
        assert json.dumps(score.to_dict()) and json.dumps(entry.to_dict())


@pytest.mark.parametrize("seed", range(3))
def test_a_match_result_places_every_side(game, seed):
    rules, _, scores = _match(game, seed)
    results = rules.match_result(scores)
    assert len(results) == rules.shape().sides
    assert min(result.place for result in results) == 1
    assert all("total" in result.stats for result in results)
    assert sum(result.won for result in results) <= 1


def test_rank_is_a_permutation_of_the_lines(game):
    rules = game.rules(game.ruleset())
    rng = random.Random(7)
    lines = []
    for index in range(9):
        _, _, scores = _match(game, index)
        stats = rules.match_result(scores)[index % rules.shape().sides].stats
        rounds = (stats, None) if index % 4 == 0 else (stats, stats)
        lines.append(StandingLine(f"side-{rng.randrange(10**6)}-{index}", rounds))
    placings = rules.rank(lines)
    assert sorted(p.key for p in placings) == sorted(line.key for line in lines)
    assert placings[0].place == 1
    assert [p.place for p in placings] == sorted(p.place for p in placings)
    stats = {column.stat for column in rules.columns()}
    assert stats <= set(placings[0].stats)


@pytest.mark.parametrize(
    "entry",
    [
        DealEntry(1, ()),
        DealEntry("one", ()),
        DealEntry(1, (SideEntry("x", {"?": object()}),)),
        DealEntry(1, tuple(SideEntry("x", {"?": "?"}, ({"?": []},)) for _ in range(9))),
    ],
)
def test_a_hostile_entry_is_an_answer_with_errors_not_a_crash(game, entry):
    evaluation = game.rules(game.ruleset()).evaluate(entry)
    assert not evaluation.ok and evaluation.score is None
    assert all(problem.message.endswith(f"({problem.rule})") for problem in evaluation.errors)
