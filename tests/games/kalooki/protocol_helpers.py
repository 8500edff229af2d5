"""Helpers for the protocol tests: rules under a request, and deal reports written briefly."""

from __future__ import annotations

from typing import Any

from games.base import DealReport, SideReport
from games.kalooki import GAME, KalookiRules


def rules(**changes: Any) -> KalookiRules:
    """The rules of ASAJ 2025 (or the preset named) with ``changes``, built as a request."""
    return GAME.rules(GAME.ruleset(changes))


def deal(number: int, *sides: dict[str, Any], **values: Any) -> DealReport:
    """Deal ``number``: each side a dict of its values, labelled Ann, Bob, Cy, ... in order."""
    names = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
    return DealReport(
        number, tuple(SideReport(names[i], side) for i, side in enumerate(sides)), values
    )


OUT = {"went_out": True, "cards": ""}


def points(evaluation: Any) -> list[int]:
    assert evaluation.ok, evaluation.errors
    return [side.points for side in evaluation.score.sides]


def rules_of(problems: Any) -> list[str]:
    return [problem.rule for problem in problems]
