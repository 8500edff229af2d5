"""Entries of a hand written the way a scorekeeper reads them off the table.

``table()`` is the **standard hand** the tests start from and change one thing at a time: Ann
(team A) goes out with two red and two black books; her partner Bea keeps KS 5H; team B (Cy
and Di) has one red book, Cy keeps JK 9C, and Di never reached her foot (30 in hand, 100 in the
foot). Under the club sheet it scores 2185 for team A and 515 for team B (worked out in
``test_scoring``).
"""

from __future__ import annotations

from typing import Any

from games.base import DealReport, SideReport
from games.hand_and_foot import GAME, Ruleset

CLUB = GAME.rules(GAME.ruleset())
ANN, BEA, CY, DI = (0, 0), (0, 1), (1, 0), (1, 1)


def out(**values: Any) -> dict[str, Any]:
    """A player who went out: nothing in hand, the foot played."""
    return {"went_out": True, "hand": "", "foot_played": True} | values


def holding(hand: str | None = None, **values: Any) -> dict[str, Any]:
    """A player who did not go out, holding ``hand`` (card text), foot played unless said."""
    player: dict[str, Any] = {"foot_played": True}
    if hand is not None:
        player["hand"] = hand
    return player | values


def team(
    label: str, red: int, black: int, laid: int, *members: dict[str, Any], **values: Any
) -> SideReport:
    side_values = {"red_books": red, "black_books": black, "laid_down": laid} | values
    names = {"A": ("Ann", "Bea"), "B": ("Cy", "Di")}[label[-1]]
    return SideReport(label, side_values, tuple(members), names)


def table(number: int = 1, **changes: Any) -> DealReport:
    """The standard hand, with ``a=``/``b=`` team values or ``ann=``...``di=`` player values
    changed (a value of None removes that field)."""
    a = team("Team A", 2, 2, 500, out(), holding("KS 5H"))
    b = team(
        "Team B",
        1,
        0,
        200,
        holding("JK 9C"),
        holding(hand_points=30, foot_played=False, foot_points=100),
    )
    return change(DealReport(number, (a, b)), **changes)


def change(entry: DealReport, **changes: Any) -> DealReport:
    sides = list(entry.sides)
    for key, index in (("a", 0), ("b", 1)):
        if key in changes:
            sides[index] = _with(sides[index], values=changes[key])
    for key, (side, member) in zip(("ann", "bea", "cy", "di"), (ANN, BEA, CY, DI), strict=True):
        if key in changes:
            members = list(sides[side].members)
            members[member] = _merged(members[member], changes[key])
            sides[side] = SideReport(
                sides[side].label, sides[side].values, tuple(members), sides[side].member_labels
            )
    return DealReport(entry.number, tuple(sides), entry.values)


def _with(side: SideReport, values: dict[str, Any]) -> SideReport:
    return SideReport(side.label, _merged(side.values, values), side.members, side.member_labels)


def _merged(values: Any, changes: dict[str, Any]) -> dict[str, Any]:
    merged = dict(values) | changes
    return {name: value for name, value in merged.items() if value is not None}


def swapped(entry: DealReport) -> DealReport:
    return DealReport(entry.number, entry.sides[::-1], entry.values)


def rules(**settings: Any):
    return GAME.rules(GAME.ruleset(settings)) if settings else CLUB


def evaluate(entry: DealReport, ruleset: Ruleset | None = None, played: int | None = None):
    """Evaluate with the hands before it played (as the app passes them)."""
    game = CLUB if ruleset is None else GAME.rules(ruleset)
    before = entry.number - 1 if played is None else played
    return game.evaluate(entry, [_PLAYED] * before)


def rules_of(problems) -> list[str]:
    return [problem.rule for problem in problems]


def _played_hand():
    return CLUB.evaluate(table()).score


_PLAYED = _played_hand()
