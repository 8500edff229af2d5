"""Reading an entry (HF8.1, HF8.2, HF9): whatever a client sends, an answer and never a crash.

Every bad value is an error naming its field, team and player; card text comes back in one
spelling.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import DealReport, SideReport
from games.hand_and_foot.fields import MEMBER_FIELDS, SIDE_FIELDS

from .builders import CLUB, evaluate, rules_of, table


@pytest.mark.parametrize("number", [0, 4, -1, "2", True, None, 2.0, 10**40])
def test_hf2_1_a_hand_the_game_does_not_have_is_refused(number):
    evaluation = CLUB.evaluate(DealReport(number, table().sides))
    assert rules_of(evaluation.errors) == ["HF2.1"]
    assert "a game has hands 1 to 3" in evaluation.errors[0].message


def test_hf2_1_hands_are_entered_in_order():
    evaluation = evaluate(table(number=3), played=1)
    assert [p.message for p in evaluation.errors] == ["hand 2 comes before hand 3 (HF2.1)"]
    assert evaluate(table(number=2), played=3).ok  # a correction of an earlier hand


@pytest.mark.parametrize(
    "sides",
    [
        (),
        (table().sides[0],),
        table().sides * 2,
        (table().sides[0], "team B"),
        (table().sides[0], SideReport("Team B", {}, ({},))),
        (table().sides[0], SideReport("Team B", {}, ({}, {}, {}))),
        (table().sides[0], SideReport("Team B", {}, ({}, "Di"))),
        (table().sides[0], SideReport("Team B", "books", ({}, {}))),
    ],
    ids=[
        "none",
        "one",
        "four",
        "text",
        "one-player",
        "three-players",
        "player-text",
        "values-text",
    ],
)
def test_hf1_2_a_table_is_two_teams_of_two(sides):
    evaluation = CLUB.evaluate(DealReport(1, sides))
    assert rules_of(evaluation.errors) and set(rules_of(evaluation.errors)) == {"HF1.2"}


@pytest.mark.parametrize(
    ("changes", "field", "side", "member"),
    [
        ({"a": {"colour": "red"}}, "colour", 0, None),
        ({"cy": {"cards": "5S"}}, "cards", 1, 0),
    ],
)
def test_hf8_1_a_field_the_game_does_not_have_is_refused(changes, field, side, member):
    [problem] = evaluate(table(**changes)).errors
    assert (problem.rule, problem.field, problem.side, problem.member) == (
        "HF8.1",
        field,
        side,
        member,
    )


def test_hf8_1_a_hand_value_the_game_does_not_have_is_refused():
    entry = DealReport(1, table().sides, {"void": True})
    assert [(p.rule, p.field, p.side) for p in CLUB.evaluate(entry).errors] == [
        ("HF8.1", "void", None)
    ]
    assert rules_of(CLUB.evaluate(DealReport(1, table().sides, 5)).errors) == ["HF8.1"]


BAD_VALUES = [
    ("a", "red_books", "2"),
    ("a", "red_books", -1),
    ("a", "red_books", 23),
    ("a", "black_books", 10**30),
    ("a", "black_books", True),
    ("a", "laid_down", 2.5),
    ("a", "laid_down", 500.0),
    ("a", "laid_down", 2165),
    ("a", "laid_down", [500]),
    ("bea", "went_out", "yes"),
    ("bea", "went_out", 1),
    ("bea", "foot_played", "false"),
    ("bea", "dealt_26", 0),
    ("bea", "hand_points", -5),
    ("bea", "hand_points", "15"),
    ("bea", "red_threes", 9),
    ("bea", "failed_melds", 57),
    ("di", "foot_points", 505),
]


@pytest.mark.parametrize(
    ("who", "field", "value"), BAD_VALUES, ids=[f"HF8.1-{b[1]}-{b[2]!r}"[:60] for b in BAD_VALUES]
)
def test_hf8_1_a_value_of_the_wrong_kind_or_out_of_range_is_refused(who, field, value):
    evaluation = evaluate(table(**{who: {field: value}}))
    problem = next(p for p in evaluation.errors if p.field == field)
    assert problem.rule == "HF8.1" and repr(value) in problem.message


@pytest.mark.parametrize(
    ("text", "shown"),
    [(42, "42"), (["5S"], "['5S']"), ("5S " * 400, "1200 characters")],
)
def test_hf9_card_text_must_be_text_of_reasonable_length(text, shown):
    [problem] = [p for p in evaluate(table(bea={"hand": text})).errors if p.rule == "HF9"]
    assert problem.field == "hand" and shown in problem.message


def test_hf9_an_unreadable_card_names_the_token_and_its_place():
    [problem] = evaluate(table(cy={"hand": "JK 9C ZZ"})).errors
    assert (problem.rule, problem.field, problem.side, problem.member) == ("HF9", "hand", 1, 0)
    assert 'card 3, "ZZ", is not a card' in problem.message and problem.player == "Cy"


def test_hf9_cards_come_back_in_one_spelling():
    evaluation = evaluate(
        table(
            cy={
                "hand": "jk, 9♣",
                "foot_played": False,
                "foot": "*,10h,ks ks ks ks ks ks ks ks ks ks 4d",
            }
        )
    )
    assert evaluation.ok, evaluation.errors
    cy = evaluation.entry.sides[1].members[0]
    assert cy["hand"] == "JK 9C" and cy["foot"] == "JK 10H" + " KS" * 10 + " 4D"


def test_an_entry_with_errors_still_comes_back_for_the_form():
    entry = table(cy={"hand": "jk 9c", "hand_points": 10})
    evaluation = evaluate(entry)
    assert not evaluation.ok and evaluation.entry.sides[1].members[0]["hand"] == "JK 9C"


def test_a_value_of_none_is_not_given():
    assert evaluate(table(a={"black_books": 2}, bea={"dealt_26": None, "failed_melds": None})).ok


def test_labels_are_optional():
    bare = tuple(SideReport("", side.values, side.members) for side in table().sides)
    evaluation = CLUB.evaluate(DealReport(1, bare))
    assert evaluation.ok
    broken = evaluate(table(cy={"hand": None}))
    assert broken.errors[0].player == "Cy"
    unnamed = CLUB.evaluate(
        DealReport(
            1,
            (bare[0], SideReport("", bare[1].values, ({"foot_played": True}, bare[1].members[1]))),
        )
    )
    assert unnamed.errors[0].player == "team 2, player 1"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=5,
)


@st.composite
def hostile_entries(draw):
    def values(names):
        chosen = draw(st.lists(st.sampled_from((*names, "junk")), unique=True, max_size=len(names)))
        return {name: draw(json_values) for name in chosen}

    sides = tuple(
        SideReport(
            draw(st.text(max_size=5)),
            values(SIDE_FIELDS),
            (values(MEMBER_FIELDS), values(MEMBER_FIELDS)),
        )
        for _ in range(2)
    )
    return DealReport(draw(st.integers(-2, 5) | json_values), sides, values(("junk",)))


@settings(max_examples=300, deadline=None)
@given(hostile_entries())
def test_hf8_1_no_entry_makes_the_engine_raise(entry):
    evaluation = CLUB.evaluate(entry)
    assert evaluation.ok == (evaluation.score is not None)
    for problem in evaluation.errors:
        assert problem.rule and problem.message.endswith(f"({problem.rule})")
