"""Checks on a deal's entry (PA6): errors refuse it, warnings ask for a confirmation.

Each row of the tables cites the rule it tests in its id. A valid deal used throughout: Ann 5
cards in 2 parcels, Bo 4 in 1, Cy 9 in 3 with the J♥.
"""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import DealReport, SideReport

from .helpers import PLAYERS, RULES, entry, match, raw, rules_of

VALID = ((5, 2), (4, 1), (9, 3, "J♥"))


def test_pa6_a_valid_deal_has_no_errors_or_warnings_and_is_scored():
    evaluation = RULES.evaluate(entry(*VALID))
    assert evaluation.ok and not evaluation.warnings
    assert [side.points for side in evaluation.score.sides] == [5, 4, 17]


ERRORS = [
    pytest.param(((5, 2), (4, 1), (9, 2)), "PA6.2", "parcels", None, id="PA6.2-five-parcels"),
    pytest.param(((5, 2), (4, 2), (9, 3)), "PA6.2", "parcels", None, id="PA6.2-seven-parcels"),
    pytest.param(((0, 0), (0, 0), (0, 0)), "PA6.2", "parcels", None, id="PA6.2-no-parcels"),
    pytest.param(((10, 2), (10, 2), (5, 2)), "PA6.3", "cards", None, id="PA6.3-25-cards"),
    pytest.param(
        ((1, 2), (5, 2), (5, 2)), "PA6.3", "cards", 0, id="PA6.3-fewer-cards-than-parcels"
    ),
    pytest.param(((5, 3), (3, 0), (5, 3)), "PA6.3", "cards", 1, id="PA6.3-cards-but-no-parcel"),
    pytest.param(((5, 3), (5, 2), (13, 1)), "PA6.3", "cards", 2, id="PA6.3-13-cards-in-one-parcel"),
    pytest.param(
        ((5, 2, "J♥"), (4, 1, "J♥"), (9, 3)),
        "PA6.4",
        "jack_of_hearts",
        None,
        id="PA6.4-two-jacks-of-hearts",
    ),
    pytest.param(
        ((9, 3), (0, 0, "J♥"), (9, 3)),
        "PA6.4",
        "jack_of_hearts",
        1,
        id="PA6.4-jack-of-hearts-without-cards",
    ),
    pytest.param(
        ((8, 2), (8, 2), (8, 2)),
        "PA6.4",
        "jack_of_hearts",
        None,
        id="PA6.4-all-24-captured-but-no-jack-of-hearts",
    ),
]


@pytest.mark.parametrize(("rows", "rule", "field", "side"), ERRORS)
def test_an_impossible_deal_is_refused_citing_its_rule(rows, rule, field, side):
    evaluation = RULES.evaluate(entry(*rows))
    assert not evaluation.ok and evaluation.score is None
    assert rules_of(evaluation.errors) == [rule]
    problem = evaluation.errors[0]
    assert (problem.field, problem.side) == (field, side)
    assert f"({rule})" in problem.message
    if side is not None:
        assert problem.player == PLAYERS[side] and PLAYERS[side] in problem.message


def test_pa6_3_messages_say_what_is_wrong_in_words():
    (problem,) = RULES.evaluate(entry((5, 3), (5, 2), (13, 1))).errors
    assert problem.message == (
        "Cy captured 13 cards in 1 parcel: a parcel is of one colour, so it holds at most 12 "
        "cards (PA6.3)"
    )
    (problem,) = RULES.evaluate(entry((5, 2, "J♥"), (4, 1, "J♥"), (9, 3))).errors
    assert (
        problem.message == "the J♥ is marked captured by Ann and Bo, but there is only one (PA6.4)"
    )


def test_pa6_every_error_is_reported_at_once():
    evaluation = RULES.evaluate(entry((1, 2), (3, 0, "J♥"), (20, 5, "J♥")))
    assert sorted(rules_of(evaluation.errors)) == ["PA6.2", "PA6.3", "PA6.3", "PA6.4"]
    evaluation = RULES.evaluate(entry((-1, 2), (5, 4), (1, 0), number=2))
    assert sorted(rules_of(evaluation.errors)) == ["PA6.1", "PA6.5"]


VALID_EDGES = [
    pytest.param(((12, 1), (5, 3), (5, 2)), id="PA3.2-a-parcel-of-all-12-cards-of-a-colour"),
    pytest.param(((7, 6), (0, 0), (0, 0)), id="PA3.5-one-player-takes-all-six-parcels"),
    pytest.param(((1, 1, "J♥"), (8, 3), (9, 2)), id="PA6.4-the-jack-alone-in-a-one-card-parcel"),
    pytest.param(((22, 5, "J♥"), (1, 1), (0, 0)), id="PA6.3-22-cards-in-five-parcels"),
]


@pytest.mark.parametrize("rows", VALID_EDGES)
def test_a_deal_at_the_edge_of_the_rules_is_accepted(rows):
    evaluation = RULES.evaluate(entry(*rows))
    assert evaluation.ok and not evaluation.warnings


@pytest.mark.parametrize(
    ("rows", "rule"),
    [
        pytest.param(((2, 2), (2, 2), (2, 2)), "PA6.6", id="PA6.6-only-the-common-pile-captured"),
        pytest.param(((6, 6, "J♥"), (0, 0), (0, 0)), "PA6.6", id="PA6.6-six-one-card-parcels"),
        pytest.param(((8, 2), (8, 2, "J♥"), (8, 2)), "PA6.7", id="PA6.7-all-24-captured"),
    ],
)
def test_a_doubtful_deal_is_scored_with_a_warning(rows, rule):
    evaluation = RULES.evaluate(entry(*rows))
    assert evaluation.ok and evaluation.score is not None
    assert rules_of(evaluation.warnings) == [rule]
    assert evaluation.warnings[0].field == "cards"


# --- what a hostile client may send (PA6.1) ---------------------------------------------------

GOOD = {"cards": 5, "parcels": 2, "jack_of_hearts": False}
OTHERS = ({"cards": 4, "parcels": 1}, {"cards": 9, "parcels": 3})

BAD_VALUES = [
    pytest.param({"cards": "5"}, "cards", id="PA6.1-cards-as-text"),
    pytest.param({"cards": -1}, "cards", id="PA6.1-negative-cards"),
    pytest.param({"cards": 25}, "cards", id="PA6.1-25-cards"),
    pytest.param({"cards": 10**5000}, "cards", id="PA6.1-a-5000-digit-number"),
    pytest.param({"cards": 5.0}, "cards", id="PA6.1-cards-as-a-fraction"),
    pytest.param({"cards": math.nan}, "cards", id="PA6.1-cards-not-a-number"),
    pytest.param({"cards": True}, "cards", id="PA6.1-cards-as-yes"),
    pytest.param({"cards": None}, "cards", id="PA6.1-cards-missing"),
    pytest.param({"cards": [5]}, "cards", id="PA6.1-cards-as-a-list"),
    pytest.param({"parcels": 7}, "parcels", id="PA6.1-seven-parcels-for-one-player"),
    pytest.param({"parcels": {"n": 2}}, "parcels", id="PA6.1-parcels-as-an-object"),
    pytest.param({"jack_of_hearts": "yes"}, "jack_of_hearts", id="PA6.1-jack-as-text"),
    pytest.param({"jack_of_hearts": 1}, "jack_of_hearts", id="PA6.1-jack-as-a-number"),
    pytest.param({"points": 12}, "points", id="PA6.1-a-field-parcellus-does-not-have"),
]


@pytest.mark.parametrize(("change", "field"), BAD_VALUES)
def test_a_bad_value_is_an_error_naming_its_field_and_player(change, field):
    values = {name: value for name, value in (GOOD | change).items() if value is not None}
    evaluation = RULES.evaluate(raw(values, *OTHERS))
    assert evaluation.score is None
    (problem,) = evaluation.errors
    assert (problem.rule, problem.field, problem.side, problem.player) == ("PA6.1", field, 0, "Ann")
    assert len(problem.message) < 200


def test_pa6_1_a_refused_entry_keeps_what_was_sent_so_the_form_can_show_it_back():
    evaluation = RULES.evaluate(raw(GOOD | {"cards": "five"}, *OTHERS))
    assert evaluation.entry.sides[0].values["cards"] == "five"


@pytest.mark.parametrize(
    "number",
    [
        pytest.param(0, id="PA5.4-deal-0"),
        pytest.param(-3, id="PA5.4-negative"),
        pytest.param("1", id="PA5.4-text"),
        pytest.param(True, id="PA5.4-yes"),
        pytest.param(None, id="PA5.4-none"),
    ],
)
def test_pa5_4_a_deal_number_that_is_not_a_number_from_1_is_an_error(number):
    evaluation = RULES.evaluate(raw(GOOD, *OTHERS, number=number))
    assert [(problem.rule, problem.field) for problem in evaluation.errors] == [("PA5.4", "number")]


@pytest.mark.parametrize("count", [0, 2, 4])
def test_pa6_1_a_table_of_other_than_three_players_is_refused(count):
    sides = tuple(SideReport(f"P{i}", GOOD) for i in range(count))
    evaluation = RULES.evaluate(DealReport(1, sides))
    assert "PA6.1" in rules_of(evaluation.errors) and evaluation.score is None


def test_pa6_1_values_that_are_not_an_object_are_refused():
    evaluation = RULES.evaluate(DealReport(1, (SideReport("Ann", [5, 2]), *raw(*OTHERS).sides)))
    assert evaluation.errors[0].rule == "PA6.1" and evaluation.errors[0].side == 0


def test_pa6_1_parcellus_has_no_values_for_the_deal_or_per_member():
    for bad in (
        DealReport(1, raw(GOOD, *OTHERS).sides, {"void": True}),
        DealReport(1, raw(GOOD, *OTHERS).sides, ["void"]),  # type: ignore[arg-type]
        DealReport(1, (SideReport("Ann", GOOD, ({"cards": 5},)), *raw(*OTHERS).sides)),
    ):
        evaluation = RULES.evaluate(bad)
        assert rules_of(evaluation.errors) == ["PA6.1"]


def test_pa6_1_the_stored_entry_is_canonical():
    """Only the three values, the J♥ a yes or no even when it was left out."""
    evaluation = RULES.evaluate(raw({"cards": 5, "parcels": 2}, *OTHERS))
    assert evaluation.ok
    assert [dict(side.values) for side in evaluation.entry.sides] == [
        {"cards": 5, "parcels": 2, "jack_of_hearts": False},
        {"cards": 4, "parcels": 1, "jack_of_hearts": False},
        {"cards": 9, "parcels": 3, "jack_of_hearts": False},
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=5,
)
side_values = st.dictionaries(
    st.sampled_from(["cards", "parcels", "jack_of_hearts", "other"]), json_values
)


@settings(max_examples=300, deadline=None)
@given(st.lists(side_values, min_size=0, max_size=4), json_values)
def test_pa6_1_evaluate_never_raises_on_anything_a_client_sends(values, number):
    evaluation = RULES.evaluate(raw(*values, number=number))
    assert evaluation.ok == (evaluation.score is not None)
    for problem in evaluation.errors:
        assert problem.rule.startswith("PA") and problem.rule in problem.message
        assert problem.side is None or problem.player == PLAYERS[problem.side]


# --- the match goes on, then stops (PA6.5) ----------------------------------------------------


def test_pa6_5_no_deal_is_entered_after_the_match_is_over():
    played = match((20, 5, 5), (12, 9, 3))  # Ann 32, alone at the top
    evaluation = RULES.evaluate(entry(*VALID, number=3), played)
    assert rules_of(evaluation.errors) == ["PA6.5"]
    assert evaluation.errors[0].message == (
        "the match is over: Ann won it with 32 points in deal 2; "
        "no deal is entered after it (PA6.5)"
    )


def test_pa6_5_the_match_goes_on_while_it_is_not_over():
    played = match((20, 5, 5), (12, 24, 3))  # Ann and Bo level on 32 and 29: Ann wins
    played_tied = match((20, 5, 5), (12, 27, 3))  # Ann and Bo level on 32: another deal
    assert not RULES.evaluate(entry(*VALID, number=3), played).ok
    assert RULES.evaluate(entry(*VALID, number=3), played_tied).ok


@pytest.mark.parametrize("number", [1, 2, 4, 99])
def test_pa6_5_a_deal_is_entered_as_the_next_deal_of_the_match(number):
    played = match((5, 5, 5), (6, 6, 6))
    evaluation = RULES.evaluate(entry(*VALID, number=number), played)
    assert rules_of(evaluation.errors) == ["PA6.5"]
    assert "deal 3 is the next deal of this match" in evaluation.errors[0].message
