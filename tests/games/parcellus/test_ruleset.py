"""Rulesets (PA4, PA5, PA7): presets, requests read setting by setting, stored and read back."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# jsonschema comes with drf-spectacular (requirements.txt); here it checks that every setting's
# schema allows exactly what its reader accepts.
from jsonschema import Draft202012Validator

from games.base import RulesetInvalid
from games.parcellus import GAME, PRESETS, Ruleset


def test_the_default_preset_is_the_published_game_with_3_1_0_match_points():
    ruleset = GAME.ruleset()
    assert GAME.default_preset == "shields-2008" and ruleset == PRESETS["shields-2008"]
    assert (ruleset.target, ruleset.bonus, ruleset.jack_of_hearts) == (30, 6, 3)
    assert ruleset.match_points == (3, 1, 0)
    assert (ruleset.bye_rule, ruleset.tie_breaks) == ("average", ("total", "wins", "parcels"))


def test_a_request_names_a_preset_and_only_the_settings_that_differ():
    ruleset = GAME.ruleset({"preset": "wins-only", "target": 50, "tie_breaks": ["parcels"]})
    assert ruleset.match_points == (1, 0, 0) and ruleset.target == 50
    assert ruleset.tie_breaks == ("parcels",)
    assert GAME.changes(ruleset) == {"preset": "wins-only", "target": 50, "tie_breaks": ["parcels"]}
    assert GAME.ruleset(GAME.changes(ruleset)) == ruleset


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_dumps_as_json_and_loads_back_equal(name):
    import json

    stored = json.loads(json.dumps(GAME.dump(PRESETS[name])))
    assert stored["preset"] == name
    assert GAME.load(stored) == PRESETS[name]
    assert GAME.changes(PRESETS[name]) == {"preset": name}


BAD = [
    pytest.param({"target": 0}, "target", "PA5.1", id="PA5.1-target-0"),
    pytest.param({"target": "30"}, "target", "PA5.1", id="PA5.1-target-as-text"),
    pytest.param({"target": True}, "target", "PA5.1", id="PA5.1-target-as-yes"),
    pytest.param({"target": 10**40}, "target", "PA5.1", id="PA5.1-an-endless-match"),
    pytest.param({"bonus": 7}, "bonus", "PA4.2", id="PA4.2-a-bonus-that-does-not-share"),
    pytest.param({"bonus": -6}, "bonus", "PA4.2", id="PA4.2-a-negative-bonus"),
    pytest.param({"jack_of_hearts": -1}, "jack_of_hearts", "PA4.1", id="PA4.1-negative-jack"),
    pytest.param({"jack_of_hearts": 2.5}, "jack_of_hearts", "PA4.1", id="PA4.1-half-points"),
    pytest.param({"match_points": [3, 1]}, "match_points", "PA7.3", id="PA7.3-two-places"),
    pytest.param(
        {"match_points": [1, 3, 0]}, "match_points", "PA7.3", id="PA7.3-second-beats-first"
    ),
    pytest.param({"match_points": [3, 1, -1]}, "match_points", "PA7.3", id="PA7.3-negative"),
    pytest.param({"match_points": "3,1,0"}, "match_points", "PA7.3", id="PA7.3-as-text"),
    pytest.param({"bye_rule": "draw"}, "bye_rule", "PA7.2", id="PA7.2-unknown-bye-rule"),
    pytest.param({"bye_rule": ["win"]}, "bye_rule", "PA7.2", id="PA7.2-bye-rule-as-a-list"),
    pytest.param({"bye_points": -30}, "bye_points", "PA7.2", id="PA7.2-negative-bye-points"),
    pytest.param({"tie_breaks": ["total", "total"]}, "tie_breaks", "PA7.4", id="PA7.4-twice"),
    pytest.param({"tie_breaks": ["luck"]}, "tie_breaks", "PA7.4", id="PA7.4-unknown"),
    pytest.param({"tie_breaks": "total"}, "tie_breaks", "PA7.4", id="PA7.4-as-text"),
    pytest.param({"table_size": 4}, "table_size", "", id="PA1.1-no-table-size-setting"),
    pytest.param({"preset": "asaj-2025"}, "preset", "", id="a-preset-of-another-game"),
    pytest.param({"preset": ["x"]}, "preset", "", id="a-preset-as-a-list"),
]


@pytest.mark.parametrize(("request_", "field", "rule"), BAD)
def test_a_setting_that_cannot_be_played_is_refused_naming_its_field(request_, field, rule):
    with pytest.raises(RulesetInvalid) as refused:
        GAME.ruleset(request_)
    (problem,) = refused.value.problems
    assert (problem.field, problem.rule) == (field, rule)
    assert len(problem.message) < 200


def test_every_bad_setting_of_a_request_is_named_at_once():
    with pytest.raises(RulesetInvalid) as refused:
        GAME.ruleset({"preset": "nope", "target": -1, "bonus": 5, "colour": "red"})
    assert [problem.field for problem in refused.value.problems] == [
        "preset",
        "colour",
        "target",
        "bonus",
    ]


def test_a_request_that_is_not_an_object_is_refused():
    with pytest.raises(RulesetInvalid):
        GAME.ruleset(["target", 30])  # type: ignore[arg-type]


def test_a_ruleset_built_in_code_is_checked_and_stored_as_tuples():
    assert Ruleset(match_points=[3, 1, 0]).match_points == (3, 1, 0)  # type: ignore[arg-type]
    with pytest.raises(RulesetInvalid) as refused:
        Ruleset(target=-5, preset="mine")
    assert [problem.field for problem in refused.value.problems] == ["preset", "target"]


def test_a_stored_ruleset_that_cannot_be_played_is_refused_on_load():
    stored = GAME.dump(GAME.ruleset()) | {"bonus": 5}
    with pytest.raises(RulesetInvalid):
        GAME.load(stored)


def test_settings_list_every_setting_of_the_ruleset_with_its_rule():
    names = [setting.name for setting in GAME.settings()]
    assert names == [name for name in GAME.dump(GAME.ruleset()) if name != "preset"]
    assert all(setting.rule.startswith("PA") and setting.help for setting in GAME.settings())
    for setting in GAME.settings():
        Draft202012Validator.check_schema(setting.schema)


json_values = st.one_of(
    st.integers(-50, 1100),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from(["average", "win", "nothing", "total", "wins", "parcels"]),
    st.lists(st.integers(-2, 120), max_size=4),
    st.lists(st.sampled_from(["total", "wins", "parcels", "jacks_of_hearts", "x"]), max_size=5),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([setting.name for setting in GAME.settings()]), json_values)
def test_each_settings_schema_allows_what_its_reader_accepts(name, value):
    """The schema a set-up page validates with, and the ruleset's own reading, agree; except
    that match points must also not rise from place to place, which a schema cannot say."""
    setting = next(setting for setting in GAME.settings() if setting.name == name)
    allowed = Draft202012Validator(setting.schema).is_valid(value)
    try:
        GAME.ruleset({name: value})
        accepted = True
    except RulesetInvalid:
        accepted = False
    if name == "match_points" and allowed and list(value) != sorted(value, reverse=True):
        assert not accepted
    else:
        assert accepted == allowed


def test_describe_says_the_ruleset_in_words_citing_its_rules():
    words = GAME.rules(GAME.ruleset({"target": 40, "bye_rule": "win"})).describe()
    assert "A match is played to 40 points" in words[1]
    assert words[2] == "Each card captured scores 1, the J♥ 3 (PA4.1)."
    assert "6 bonus points, shared equally when tied: 3 each for two, 2 each for three" in words[3]
    assert words[4].startswith("Match points: 3 for first, 1 for second and 0 for third")
    assert words[5].startswith(
        "Standings: more match points, then more total points, then more matches won, "
        "then more parcels captured"
    )
    assert words[6] == "A bye counts as a match won with 30 points and 3 match points (PA7.2)."


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        pytest.param({}, "A bye counts as the player's average match so far", id="PA7.2-average"),
        pytest.param(
            {"bye_rule": "nothing"}, "A bye counts for nothing (PA7.2).", id="PA7.2-nothing"
        ),
        pytest.param({"bonus": 0}, "No bonus for the most parcels (PA4.2).", id="PA4.2-no-bonus"),
    ],
)
def test_describe_puts_each_choice_in_words(changes, words):
    assert any(line.startswith(words) for line in GAME.rules(GAME.ruleset(changes)).describe())


def test_the_game_lists_itself_for_the_games_api():
    data = GAME.to_dict()
    assert data["key"] == "parcellus" and data["higher_wins"] is True
    assert set(data["presets"]) == {"shields-2008", "wins-only"}
    assert len(data["settings"]) == 7
