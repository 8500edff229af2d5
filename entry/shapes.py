"""The table API's request and answer shapes, their serializers built once per thread.

Making a DRF serializer deep-copies each of its declared fields, and each field of every nested
serializer: for the result write's body and answer that copying cost more than checking the
body and writing the answer (#18). A `Shape` keeps one serializer of a class per thread, its
fields built, and runs DRF's own validation and representation with it: the same checks, the
same refusals (a 400 with the same field errors), the same answer. Only serializers that use no
context and no instance may be shapes (the table API's inputs and answers use neither).

An answer is made by a plan worked out once from the serializer's fields (`_plan`): DRF's walk
through the fields (`get_attribute`, then `to_representation`, field by field) cost a result
write a tenth of its CPU. Where DRF's own method would give the value back as it is, or call
`int`, `str` or `dict` on it, the plan does that; any other field (a date, a choice, a field
of our own) is represented by its own `to_representation`, and anything a plan does not
cover (a missing key, a model instead of a dict) by DRF's. With `CHECKED` set (the test suite
sets it) every answer is compared with DRF's.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import Any

from rest_framework import fields, serializers
from rest_framework.exceptions import ValidationError

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
            self._local.serializer = serializer
            self._local.represent = _represent(serializer)
        return serializer

    def validated(self, data: Any) -> dict[str, Any]:
        """`data` checked as `is_valid(raise_exception=True)` checks it; its validated data."""
        try:
            return self._serializer().run_validation(data)
        except ValidationError:
            pass
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


# --- the plan of an answer ----------------------------------------------------------------------


def _represent(serializer: serializers.Serializer) -> Represent:
    """`serializer.to_representation`, for a mapping that has each field's key, as a plan."""
    plan = [
        (field.field_name, field.source_attrs[0], _value(field))
        for field in serializer._readable_fields
        if field.source != "*" and len(field.source_attrs) == 1
    ]
    if len(plan) != len(list(serializer._readable_fields)):
        return serializer.to_representation  # a field reads a path or the whole instance

    def represent(instance: Any) -> dict[str, Any]:
        if not isinstance(instance, Mapping):
            return serializer.to_representation(instance)
        answer = {}
        try:
            for name, key, value in plan:
                found = instance[key]
                answer[name] = None if found is None else value(found)
        except KeyError:  # a default, a null or a field left out: DRF's own rules
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
