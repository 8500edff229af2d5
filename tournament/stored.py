"""The base of the project's models: rows read from the database without Django's constructor.

Django makes a model read from a row by calling the model's class with the row's values
(`Model.from_db`); the constructor, written for a caller's keywords, defaults and signals, is
most of the cost of reading a model, and a result write reads some forty (`bench/bench_store.py`
measures it). A row that holds every column makes its model here as the constructor would leave
it: the values under their attribute names, a fresh state (not adding, read from `db`). Where the
constructor has something to do, it runs: a row with deferred columns, or a model that a
`pre_init` or `post_init` receiver listens to.
"""

from __future__ import annotations

import functools
from typing import Any, Self

from django.db import models
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init


class StoredModel(models.Model):
    """A model read from a whole row without running its constructor (see the module)."""

    class Meta:
        abstract = True

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Self:
        names = _attnames(cls)
        if len(values) != len(names) or _signalled(cls):
            return super().from_db(db, field_names, values)
        new = cls.__new__(cls)
        new._state = state = ModelState()
        new.__dict__.update(zip(names, values, strict=True))
        state.adding, state.db = False, db
        return new


@functools.cache
def _attnames(model: type[models.Model]) -> tuple[str, ...]:
    """The attribute of each column, in the order of a whole row (the constructor's)."""
    return tuple(field.attname for field in model._meta.concrete_fields)


def _signalled(model: type[models.Model]) -> bool:
    """A receiver of `pre_init` or `post_init` listens to `model` (asked only if any is
    connected at all: asking costs as much as the rest of making the model)."""
    if not (pre_init.receivers or post_init.receivers):
        return False
    return pre_init.has_listeners(model) or post_init.has_listeners(model)
