"""Standings across a tournament (PA7.2, PA7.4): byes, columns and the ranking.

A player's **stats** for one match are her ``total`` points, ``wins`` (1 for a match won),
``match_points`` (PA7.3), ``parcels`` and ``jacks_of_hearts`` captured. A **bye** round has no
stats of its own: the ruleset's **bye rule** gives them (PA7.2). The standings add each stat over
the rounds and rank by **match points**, then by the **tie-break chain**, every stat the more the
better (PA7.4); players still level **share** a place and the next is skipped (1, 2, 2, 4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.base import Column, Placing, RoundStats, StandingLine

from .ruleset import Ruleset

STATS = ("total", "wins", "match_points", "parcels", "jacks_of_hearts")

_COLUMNS = {
    "match_points": Column("match_points", "Match points", True, "by place in each match (PA7.3)"),
    "total": Column("total", "Points", True, "points scored in all matches (PA4)"),
    "wins": Column("wins", "Wins", True, "matches won (PA5.2)"),
    "parcels": Column("parcels", "Parcels", True, "parcels captured (PA3.4)"),
    "jacks_of_hearts": Column("jacks_of_hearts", "J♥", True, "jacks of hearts captured (PA4.1)"),
}
_ALWAYS_SHOWN = ("match_points", "total", "wins", "parcels")


def columns(ruleset: Ruleset) -> tuple[Column, ...]:
    """Match points, the tie-breaks in their order, then the other counts worth showing."""
    order = ("match_points", *ruleset.tie_breaks)
    rest = tuple(name for name in _ALWAYS_SHOWN if name not in order)
    return tuple(_COLUMNS[name] for name in (*order, *rest))


def bye_stats(played: Sequence[Mapping[str, int]], ruleset: Ruleset) -> dict[str, int]:
    """What a bye counts, given the stats of the rounds the player played (PA7.2)."""
    if ruleset.bye_rule == "win":
        return _zero() | {
            "total": ruleset.bye_points,
            "wins": 1,
            "match_points": ruleset.place_points(1),
        }
    if ruleset.bye_rule == "average" and played:
        return {name: _half_up(_sum(played, name), len(played)) for name in STATS}
    return _zero()


def rank(lines: Sequence[StandingLine], ruleset: Ruleset) -> tuple[Placing, ...]:
    """Every player placed by match points and the tie-break chain (PA7.4); level players share
    a place and are listed by key."""
    summed = {line.key: _summed(line.rounds, ruleset) for line in lines}
    order = ("match_points", *ruleset.tie_breaks)

    def key(name: str) -> tuple[int, ...]:
        return tuple(-summed[name][stat] for stat in order)

    ordered = sorted(summed, key=lambda name: (key(name), name))
    level = Counter(key(name) for name in ordered)
    first: dict[tuple[int, ...], int] = {}
    for place, name in enumerate(ordered, start=1):
        first.setdefault(key(name), place)
    return tuple(
        Placing(first[key(name)], name, summed[name], level[key(name)] > 1) for name in ordered
    )


def _summed(rounds: Sequence[RoundStats], ruleset: Ruleset) -> dict[str, int]:
    played = [stats for stats in rounds if stats is not None]
    bye = bye_stats(played, ruleset)
    counted = [bye if stats is None else stats for stats in rounds]
    return {name: _sum(counted, name) for name in STATS}


def _sum(rounds: Sequence[Mapping[str, int]], name: str) -> int:
    return sum(int(stats.get(name, 0)) for stats in rounds)


def _half_up(total: int, count: int) -> int:
    """``total / count`` rounded to the nearest whole number, halves away from zero."""
    quotient = (abs(total) * 2 + count) // (count * 2)
    return quotient if total >= 0 else -quotient


def _zero() -> dict[str, int]:
    return dict.fromkeys(STATS, 0)
