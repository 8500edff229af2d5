"""The table API's request and answer shapes, their serializers built once per thread.

Making a DRF serializer deep-copies each of its declared fields, and each field of every nested
serializer: for the result write's body and answer that copying cost more than checking the
body and writing the answer. A `Shape` keeps one serializer of a class per thread, its
fields built, and runs DRF's own validation and representation with it: the same checks, the
same refusals (a 400 with the same field errors), the same answer. Only serializers that use no
context and no instance may be shapes (the table API's inputs and answers use neither).

An answer is made by a plan worked out once from the serializer's fields (`_represent`): DRF's walk
through the fields (`get_attribute`, then `to_representation`, field by field) is the slow part of
an answer (bench/bench_store.py measures what the shapes save). Where DRF's own method would give
the value back as it is, or call `int`, `str` or `dict` on it, the plan does that; any other field
(a date, a choice, a field of our own) is represented by its own `to_representation`, and anything a
plan does not cover (a missing key, a model instead of a dict) by DRF's. With `CHECKED` set (the
test suite sets it) every answer is compared with DRF's.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import Any

from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinLengthValidator,
    MinValueValidator,
    ProhibitNullCharactersValidator,
)
from rest_framework import fields, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.validators import ProhibitSurrogateCharactersValidator

CHECKED = False  # each answer compared with the serializer's own (set by tests/conftest.py)

# How a plan represents a value that is not None.
Represent = Callable[[Any], Any]


class Shape:
    """One serializer class, built once per thread: `validated(data)` and `answer(instance)`."""

    def __init__(self, serializer_class: type[serializers.Serializer]) -> None:
        self.serializer_class = serializer_class
        self._local = threading.local()

    def _serializer(self) -> serializers.Serializer:
        serializer = getattr(self._local, "serializer", None)
        if serializer is None:
            serializer = self.serializer_class()
            serializer.fields  # noqa: B018 (built now, nested serializers' fields as they are used)
            _plain_values_checked_at_once(serializer)
            self._local.serializer = serializer
            self._local.represent = _represent(serializer)
        return serializer

    def validated(self, data: Any) -> dict[str, Any]:
        """`data` checked as `is_valid(raise_exception=True)` checks it; its validated data."""
        try:
            validated = self._serializer().run_validation(data)
        except ValidationError:
            pass
        else:
            if CHECKED:
                expected = self.serializer_class().run_validation(data)
                assert validated == expected, f"{validated!r} is not DRF's {expected!r}"
            return validated
        # Refused: checked again by a serializer made for it, so that the refusal is DRF's own
        # to the letter (`is_valid` words a few errors its own way). Refusals are rare.
        serializer = self.serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def answer(self, instance: Any) -> dict[str, Any]:
        """`instance` as the serializer's `data` shows it."""
        serializer = self._serializer()
        answer = self._local.represent(instance)
        if CHECKED:
            expected = serializer.to_representation(instance)
            assert answer == expected, f"{answer!r} is not DRF's {expected!r}"
        return answer


@functools.cache
def shape(serializer_class: type[serializers.Serializer]) -> Shape:
    """The shape of `serializer_class`, one per process."""
    return Shape(serializer_class)


# --- plain values, checked at once ---------------------------------------------------------------


def _plain_values_checked_at_once(serializer: serializers.Serializer) -> None:
    """Each whole number, yes/no and text field of `serializer` (nested ones too) takes a value
    already of its type, within its bounds, as it is; a value left out takes the default (or
    is skipped), and a null is taken where the field allows it, as DRF does; any other value
    (blank, another type, out of bounds) goes through the field's own `run_validation`, which
    would otherwise run for every plain value of the five hands of a table. Only the shape's
    own fields are changed; with `CHECKED` set, every checked body is compared with DRF's."""
    for field in serializer.fields.values():
        if isinstance(field, serializers.ListSerializer):
            field = field.child
        if isinstance(field, serializers.Serializer):
            _plain_values_checked_at_once(field)
        elif not field.read_only and (checked := _checked_at_once(field)) is not None:
            field.run_validation = checked


def _checked_at_once(field: fields.Field) -> Callable[..., Any] | None:
    """`field.run_validation`, for a value of the field's own type taken as it is, and for a
    value left out or null where the field takes that; None for a field whose checks are not
    only its type, bounds and lengths."""
    kind = type(field)
    if kind is fields.BooleanField and _checks(field) == set():
        plain = _yes_or_no
    elif kind is fields.IntegerField and _checks(field) == _bounds(field):
        plain = functools.partial(_whole_number, field.min_value, field.max_value)
    elif kind is fields.CharField and _checks(field) == _lengths(field):
        plain = functools.partial(_text, field)
    else:
        return None
    if field.source == "*" or getattr(field.default, "requires_context", False):
        return None
    return functools.partial(_run, field, field.run_validation, plain)


_DRFS = object()  # what a plain check answers for a value DRF must check


def _run(
    field: fields.Field,
    slow: Callable[..., Any],
    plain: Callable[[Any], Any],
    data: Any = fields.empty,
) -> Any:
    """As `field.run_validation(data)` (`slow`) answers, for a field of a serializer made for
    a request (not partial): a value left out takes the default, or is skipped."""
    if data is fields.empty and not field.required:
        if field.default is fields.empty:
            raise fields.SkipField()
        return field.default() if callable(field.default) else field.default
    if data is None and field.allow_null:
        return None
    value = plain(data)
    return slow(data) if value is _DRFS else value


def _yes_or_no(data: Any) -> Any:
    return data if type(data) is bool else _DRFS


def _whole_number(low: int | None, high: int | None, data: Any) -> Any:
    """A whole number within the bounds (and short enough for DRF to write out as text)."""
    if type(data) is int and data.bit_length() <= _MOST_BITS and _within(data, low, high):
        return data
    return _DRFS


_MOST_BITS = 4000  # about 1,200 digits: well within the digits Python writes out (4,300)


def _checks(field: fields.Field) -> set[tuple[type, Any]] | None:
    """The field's validators, each as its class and limit; None if two are alike."""
    checks = {(type(check), getattr(check, "limit_value", None)) for check in field.validators}
    return checks if len(checks) == len(field.validators) else None


def _bounds(field: fields.IntegerField) -> set[tuple[type, Any]]:
    """The validators an integer field makes of its own bounds (and no others)."""
    made = {(MinValueValidator, field.min_value), (MaxValueValidator, field.max_value)}
    return {(kind, limit) for kind, limit in made if limit is not None}


def _lengths(field: fields.CharField) -> set[tuple[type, Any]]:
    """The validators a text field makes of its own lengths, and its NUL and surrogate
    checks (and no others)."""
    made = {(MinLengthValidator, field.min_length), (MaxLengthValidator, field.max_length)}
    always = {(ProhibitNullCharactersValidator, None), (ProhibitSurrogateCharactersValidator, None)}
    return {(kind, limit) for kind, limit in made if limit is not None} | always


def _text(field: fields.CharField, data: Any) -> Any:
    """A text that is not blank, within the field's lengths, with no NUL (ASCII: no surrogate
    either), trimmed as the field trims."""
    if type(data) is str and data.isascii() and "\x00" not in data:
        value = data.strip() if field.trim_whitespace else data
        if value and _within(len(value), field.min_length, field.max_length):
            return value
    return _DRFS


def _within(number: int, low: int | None, high: int | None) -> bool:
    return (low is None or number >= low) and (high is None or number <= high)


# --- the plan of an answer ----------------------------------------------------------------------


def _represent(serializer: serializers.Serializer) -> Represent:
    """`serializer.to_representation`, for a mapping that has each field's key, as a plan."""
    plan = [
        (field.field_name, field.source_attrs[0], _value(field))
        for field in serializer._readable_fields
        if field.source != "*" and len(field.source_attrs) == 1
    ]
    own_answer = not _own(serializer, serializers.Serializer)
    if own_answer or len(plan) != len(list(serializer._readable_fields)):
        return serializer.to_representation  # an answer of its own, or a field reads a path

    def represent(instance: Any) -> dict[str, Any]:
        if not isinstance(instance, Mapping):
            return serializer.to_representation(instance)
        answer = {}
        try:
            for name, key, value in plan:
                found = instance[key]
                if callable(found):
                    raise KeyError(key)  # DRF calls it
                answer[name] = None if found is None else value(found)
        except KeyError:  # a default, a null, a field left out, a callable: DRF's own rules
            return serializer.to_representation(instance)
        return answer

    return represent


def _value(field: fields.Field) -> Represent:
    """How `field` represents a value (not None), as its `to_representation` does."""
    kind = type(field)
    if isinstance(field, serializers.ListSerializer) and _own(field, serializers.ListSerializer):
        item = _value(field.child)

        def each(found: Any) -> Any:
            if type(found) is not list:
                return field.to_representation(found)
            return [item(one) for one in found]

        return each
    if isinstance(field, serializers.Serializer) and _own(field, serializers.Serializer):
        return _represent(field)
    if kind is fields.IntegerField:
        return int
    if kind is fields.CharField:
        return str
    if kind is fields.BooleanField:
        return lambda found: found if type(found) is bool else field.to_representation(found)
    if kind is fields.JSONField and not field.binary:
        return _as_is
    if kind in (fields.DictField, fields.ListField):
        return _container(field)
    return field.to_representation


def _container(field: fields.DictField | fields.ListField) -> Represent:
    """A dict's keys as texts, or a list; each item (not None) as the child represents it."""
    item = _value(field.child)
    if type(field) is fields.DictField:
        return lambda found: {
            str(key): None if one is None else item(one) for key, one in found.items()
        }
    return lambda found: [None if one is None else item(one) for one in found]


def _own(field: fields.Field, base: type) -> bool:
    """`field`'s class represents as `base` does."""
    return type(field).to_representation is base.to_representation


def _as_is(found: Any) -> Any:
    return found
