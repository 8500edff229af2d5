"""A `Shape` checks and answers exactly as a serializer made for each request would (#18)."""

import datetime
import threading

import pytest
from django.core.validators import MaxValueValidator, MinLengthValidator
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from scorekeeper import serializers as ts
from scorekeeper import shapes
from scorekeeper.shapes import shape

HANDS = [{"seat": 1, "went_out": True, "cards": ""}] + [
    {"seat": seat, "points": 10 + seat} for seat in range(2, 6)
]


def drf(serializer_class, data):
    """What a serializer made for the request says: its validated data, or its refusal."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return "valid", serializer.validated_data
    return "refused", serializer.errors


def shaped(serializer_class, data):
    try:
        return "valid", shape(serializer_class).validated(data)
    except ValidationError as exc:
        return "refused", exc.detail


@pytest.mark.parametrize(
    "body",
    [
        {"hands": HANDS, "entered_by": "Marcia"},
        {"sides": [{"seat": 1, "values": {"cards": 4, "parcels": 1}}], "values": {"x": True}},
        {"hands": HANDS, "version": 3, "reason": "  wrong seat ", "confirm_warnings": True},
        {},
    ],
    ids=["hands", "sides", "correction", "empty"],
)
def test_a_good_body_validates_to_the_same_data(body):
    assert shaped(ts.TableResultInput, body) == drf(ts.TableResultInput, body)


@pytest.mark.parametrize(
    "body",
    [
        None,  # DRF words this one its own way: "No data provided"
        [],
        "text",
        {"hands": HANDS, "sides": [{"seat": 1}]},
        {"hands": [{"seat": 9, "points": "many"}]},
        {"hands": [{"seat": 1, "entry": 4}]},
        {"values": {"x" * 41: 1}},
        {"sides": [{"seat": 1, "values": {"cards": "\x00"}}]},
        {"version": 0, "game": 10_000, "entered_by": "x" * 500},
    ],
    ids=[
        "null",
        "list",
        "text",
        "both",
        "bad hand",
        "seat and entry",
        "long name",
        "nul",
        "bounds",
    ],
)
def test_a_refusal_is_drfs_own_to_the_letter(body):
    outcome, detail = shaped(ts.TableResultInput, body)
    assert outcome == "refused"
    assert (outcome, detail) == drf(ts.TableResultInput, body)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**7), 10**7) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
# Values at the edges of the fields' own checks, which a plain value of the right type passes
# without DRF's walk (`shapes._plain_values_checked_at_once`): bounds, lengths, blanks, NULs,
# surrogates, a yes/no for a number.
edge_integers = st.sampled_from([0, 1, 50, 51, -100_000, 100_000, 100_001, 2**63, True, 3.0])
edge_texts = st.sampled_from(
    ["", " ", " a ", "a\x00b", "\ud800", "é", "x" * 80, "x" * 81, " " + "x" * 80 + " ", "\t"]
) | st.text(max_size=90)
hand = st.fixed_dictionaries(
    {},
    optional={
        "seat": json_values | st.integers(0, 6) | edge_integers,
        "entry": json_values,
        "points": json_values | st.integers(-5, 200) | edge_integers,
        "cards": json_values | edge_texts,
        "went_out": json_values | st.booleans(),
        "calls": json_values | edge_integers,
        "overcall_penalty": st.booleans() | edge_integers,
    },
)
body = st.fixed_dictionaries(
    {},
    optional={
        "hands": st.lists(hand, max_size=6) | json_values,
        "sides": st.lists(
            st.fixed_dictionaries({"seat": st.integers(0, 6)}, optional={"values": json_values}),
            max_size=3,
        ),
        "values": json_values,
        "version": json_values | edge_integers,
        "void": json_values,
        "entered_by": json_values | edge_texts,
        "reason": edge_texts,
    },
)


@settings(max_examples=300, deadline=None)
@given(body | json_values)
def test_any_body_gets_the_same_answer_as_from_a_fresh_serializer(data):
    assert shaped(ts.TableResultInput, data) == drf(ts.TableResultInput, data)


def test_a_plain_value_is_taken_at_once_only_where_the_fields_checks_are_its_own():
    """A field with a validator of its own, or of a class of its own, is checked by DRF."""

    class Odd(serializers.IntegerField):
        pass

    class Body(serializers.Serializer):
        plain = serializers.IntegerField(max_value=9)
        checked = serializers.IntegerField(validators=[MaxValueValidator(5)])
        odd = Odd()
        named = serializers.CharField(max_length=5, validators=[MinLengthValidator(2)])

    serializer = shape(Body)._serializer()
    taken_at_once = [name for name, f in serializer.fields.items() if "run_validation" in vars(f)]
    assert taken_at_once == ["plain"]
    body = {"plain": 9, "checked": 6, "odd": 1, "named": "a"}
    assert shaped(Body, body) == drf(Body, body)
    assert set(shaped(Body, body)[1]) == {"checked", "named"}


def test_an_answer_of_a_serializers_own_or_holding_a_callable_is_drfs():
    class Own(serializers.Serializer):
        n = serializers.IntegerField()

        def to_representation(self, instance):
            return {"n": instance["n"] * 2}

    class Plain(serializers.Serializer):
        n = serializers.IntegerField()

    assert shape(Own).answer({"n": 2}) == {"n": 4}
    assert shape(Plain).answer({"n": lambda: 3}) == {"n": 3}  # DRF calls it


def test_a_whole_number_too_long_to_write_out_is_checked_by_drf():
    class Unbounded(serializers.Serializer):
        n = serializers.IntegerField()

    huge = 10**5000
    assert shaped(Unbounded, {"n": huge}) == drf(Unbounded, {"n": huge})
    assert shaped(Unbounded, {"n": 10**300}) == ("valid", {"n": 10**300})


def test_an_answer_is_the_serializers_data():
    at = timezone.make_aware(datetime.datetime(2026, 11, 24, 9, 30, 5, 123456), datetime.UTC)
    score = {
        "seat": 2, "entry": 11, "player": "Ann <b>", "side": 1, "went_out": False, "points": 25,
        "total": 25, "running": 40, "values": {"points": 25}, "members": [{"x": 1}],
        "detail": {"doubled": False},
    }  # fmt: skip
    game = {
        "number": 3, "title": "Game 3", "attempt": 1, "void": False, "down_and_out": False,
        "detail": {}, "status": "confirmed", "version": 2, "flagged": True,
        "warnings": [{"rule": "R10.6", "message": "Check it", "field": None}],
        "updated_at": at, "scores": [score, score | {"seat": 3, "side": 2}], "ignored": "x",
    }  # fmt: skip
    assert shape(ts.TableGameOutput).answer(game) == ts.TableGameOutput(game).data


moments = st.datetimes(
    datetime.datetime(1900, 1, 1), datetime.datetime(2200, 1, 1), timezones=st.just(datetime.UTC)
)
answer_values = st.one_of(
    json_values,
    st.integers(),
    st.sampled_from([0, 1, "true", "no", "", " x ", "T"]),
    moments,
)
problem = st.fixed_dictionaries(
    {"message": st.text(max_size=5)},
    optional={"rule": answer_values, "player": answer_values, "side": st.integers() | st.none()},
)
score = st.fixed_dictionaries(
    {
        "seat": st.integers(0, 6), "entry": st.integers(1, 9), "player": st.text(max_size=5),
        "side": st.integers(0, 3), "went_out": answer_values, "points": st.integers(),
        "total": st.integers(), "running": st.integers(),
        "values": st.dictionaries(st.text(max_size=4) | st.integers(), answer_values, max_size=3),
        "members": st.lists(st.dictionaries(st.text(max_size=4), json_values, max_size=2)),
        "detail": st.dictionaries(st.text(max_size=4), json_values, max_size=3),
    },
)  # fmt: skip
game = st.fixed_dictionaries(
    {
        "number": st.integers(1, 9) | st.text("0123456789", min_size=1, max_size=2),
        "title": answer_values, "attempt": st.integers(1, 3), "void": answer_values,
        "down_and_out": st.booleans(), "detail": st.dictionaries(st.text(max_size=4), json_values),
        "status": st.sampled_from(["confirmed", "pending", "odd"]) | st.none(),
        "version": st.integers(1, 9), "flagged": st.booleans(), "warnings": st.lists(problem),
        "updated_at": moments | st.none(),
        "scores": st.lists(score, max_size=3),
    },
    optional={"extra": json_values},
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(game)
def test_any_answer_is_the_serializers_data(game):
    assert shape(ts.TableGameOutput).answer(game) == ts.TableGameOutput(game).data


def test_an_answer_is_made_without_drfs_walk_through_the_fields(monkeypatch):
    """The plan makes a plain answer itself; DRF's walk is only for what the plan does not
    cover, here a warning without its optional keys."""
    game = ts.TableGameOutput
    answer = {
        "number": 1, "title": "Game 1", "attempt": 1, "void": False, "down_and_out": False,
        "detail": {}, "status": "confirmed", "version": 1, "flagged": False, "warnings": [],
        "updated_at": None, "scores": [],
    }  # fmt: skip
    expected = game(answer).data
    shape(game).answer(answer)  # the plan, made
    walked = []
    walk = serializers.Serializer.to_representation
    monkeypatch.setattr(shapes, "CHECKED", False)
    monkeypatch.setattr(
        serializers.Serializer,
        "to_representation",
        lambda self, instance: walked.append(type(self)) or walk(self, instance),
    )
    assert shape(game).answer(answer) == expected
    assert walked == []
    warned = answer | {"warnings": [{"rule": None, "message": "Check it"}]}
    assert shape(game).answer(warned)["warnings"] == [
        {"rule": None, "message": "Check it", "player": None, "field": None, "side": None,
         "member": None}
    ]  # fmt: skip
    assert walked == [ts.TableProblemOutput]


def test_each_thread_builds_its_own_serializer_once():
    first = shape(ts.TableResultInput)._serializer()
    assert shape(ts.TableResultInput)._serializer() is first
    other = []
    worker = threading.Thread(target=lambda: other.append(shape(ts.TableResultInput)._serializer()))
    worker.start()
    worker.join()
    assert other[0] is not first
