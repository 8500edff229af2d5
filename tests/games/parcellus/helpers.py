"""Shared helpers for the Parcellus tests: a table of Ann, Bo and Cy, entries written as rows.

A **row** is one player's captures as ``(cards, parcels)`` or ``(cards, parcels, "J♥")``; a deal
is three rows in seat order (Ann, Bo, Cy). ``score`` turns points per deal into the stored
``DealScore`` a match is made of, as the apps would keep it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import DealReport, DealScore, SideReport, SideScore
from games.parcellus import GAME, ParcellusRules

PLAYERS = ("Ann", "Bo", "Cy", "Di")
RULES = GAME.rules(GAME.ruleset())


def rules(**changes: Any) -> ParcellusRules:
    return GAME.rules(GAME.ruleset(changes))


def entry(*rows: tuple[Any, ...], number: int = 1, labels: Sequence[str] = PLAYERS) -> DealReport:
    """An entry of rows, one per player in seat order."""
    return DealReport(
        number, tuple(_side(row, label) for row, label in zip(rows, labels, strict=False))
    )


def _side(row: tuple[Any, ...], label: str) -> SideReport:
    cards, parcels, *jack = row
    return SideReport(label, {"cards": cards, "parcels": parcels, "jack_of_hearts": jack == ["J♥"]})


def raw(*values: dict[str, Any], number: Any = 1) -> DealReport:
    """An entry of the values exactly as a client sent them, one mapping per player."""
    return DealReport(number, tuple(SideReport(PLAYERS[i], v) for i, v in enumerate(values)))


def deal(*points: int, number: int = 1, parcels: Sequence[int] = (2, 2, 2)) -> DealScore:
    """A deal as stored, with these points per player."""
    sides = tuple(
        SideScore(each, detail={"parcels": p, "jack_of_hearts": False})
        for each, p in zip(points, parcels, strict=True)
    )
    return DealScore(number, sides)


def match(*deals: Sequence[int]) -> list[DealScore]:
    """A match of deals given as points per player, numbered 1, 2, 3, ..."""
    return [deal(*points, number=number) for number, points in enumerate(deals, start=1)]


def rules_of(problems: Sequence[Any]) -> list[str]:
    return [problem.rule for problem in problems]
