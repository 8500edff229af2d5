"""Standings of a team tournament (HF11): byes, columns and the ranking.

A team's **line** holds its stats round by round, a bye as None. The **bye rule** turns a bye into
stats (HF11.1): ``average`` (the team's average over the rounds it played, each stat rounded to a
whole number, halves away from zero; nothing while it has played none), ``win`` (a game won with
``bye_points``) or ``nothing``. The **order** is games won, then the ruleset's tie-breaks
(HF11.2); ``latest_round`` compares the points of the latest round, the others the sums.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal

from games.base import Column, Placing, RoundStats, StandingLine

from .ruleset import Ruleset

STATS = ("games_won", "wins", "total", "books", "red_books", "black_books", "went_out", "hands")
LATEST_ROUND = "latest_round"
_COLUMNS = {
    "games_won": Column("games_won", "Games won", True, "Games won, a tie decided by a ruling"),
    "total": Column("total", "Points", True, "Points over every hand played"),
    "books": Column("books", "Books", True, "Red and black books made"),
    "went_out": Column("went_out", "Out", True, "Hands in which the team went out"),
}


def order(ruleset: Ruleset) -> tuple[str, ...]:
    return ("games_won", *ruleset.tie_breaks)


def columns(ruleset: Ruleset) -> tuple[Column, ...]:
    """The ranking's stats first, then the others worth showing."""
    names = [name for name in order(ruleset) if name in _COLUMNS]
    names += [name for name in _COLUMNS if name not in names]
    return tuple(_COLUMNS[name] for name in names)


def round_stats(rounds: Sequence[RoundStats], ruleset: Ruleset) -> list[dict[str, int]]:
    """Every round's stats, each bye turned into stats by the bye rule (HF11.1)."""
    played = [stats for stats in rounds if stats is not None]
    bye = _bye(played, ruleset)
    return [_full(bye if stats is None else stats) for stats in rounds]


def _bye(played: Sequence[Mapping[str, int]], ruleset: Ruleset) -> dict[str, int]:
    if ruleset.bye_rule == "win":
        return {"games_won": 1, "wins": 1, "total": ruleset.bye_points}
    if ruleset.bye_rule == "average" and played:
        return {name: _average([s.get(name, 0) for s in played]) for name in STATS}
    return {}


def _average(values: Sequence[int]) -> int:
    mean = Decimal(sum(values)) / Decimal(len(values))
    return int(mean.quantize(Decimal(1), rounding=ROUND_HALF_UP))  # halves away from zero


def _full(stats: Mapping[str, int]) -> dict[str, int]:
    return {name: stats.get(name, 0) for name in STATS} | dict(stats)


def summed(rounds: Sequence[Mapping[str, int]]) -> dict[str, int]:
    names = dict.fromkeys(name for stats in rounds for name in stats) | dict.fromkeys(STATS)
    return {name: sum(stats.get(name, 0) for stats in rounds) for name in names}


def rank(lines: Sequence[StandingLine], ruleset: Ruleset) -> tuple[Placing, ...]:
    """Every team placed; level teams share a place (1, 2, 2, 4) and are listed by key."""
    keyed = []
    for line in lines:
        rounds = round_stats(line.rounds, ruleset)
        stats = summed(rounds)
        latest = rounds[-1]["total"] if rounds else 0
        keyed.append((_key(stats, latest, ruleset), line.key, stats))
    keyed.sort(key=lambda item: (item[0], item[1]))
    placings: list[Placing] = []
    for index, (key, name, stats) in enumerate(keyed):
        level = index > 0 and keyed[index - 1][0] == key
        place = placings[-1].place if level else index + 1
        placings.append(Placing(place, name, stats))
    return tuple(_mark_shared(placings))


def _key(stats: Mapping[str, int], latest: int, ruleset: Ruleset) -> tuple[int, ...]:
    return tuple(-(latest if name == LATEST_ROUND else stats[name]) for name in order(ruleset))


def _mark_shared(placings: list[Placing]) -> list[Placing]:
    counts: dict[int, int] = {}
    for placing in placings:
        counts[placing.place] = counts.get(placing.place, 0) + 1
    return [Placing(p.place, p.key, p.stats, shared=counts[p.place] > 1) for p in placings]
