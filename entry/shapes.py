"""The table API's request and answer shapes, their serializers built once per thread.

Making a DRF serializer deep-copies each of its declared fields, and each field of every nested
serializer: for the result write's body and answer that copying cost more than checking the
body and writing the answer (#18). A `Shape` keeps one serializer of a class per thread, its
fields built, and runs DRF's own validation and representation with it: the same checks, the
same refusals (a 400 with the same field errors), the same answer. Only serializers that use no
context and no instance may be shapes (the table API's inputs and answers use neither).
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError


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
        return self._serializer().to_representation(instance)


@functools.cache
def shape(serializer_class: type[serializers.Serializer]) -> Shape:
    """The shape of `serializer_class`, one per process."""
    return Shape(serializer_class)
