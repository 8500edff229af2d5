"""Table sizes (R12.2): how many tables, of which sizes, seat a number of players.

Each round seats every active player at tables of the ruleset's ``table_size`` (R12.1). When the
players do not fill whole tables, some tables are **one short** (tables of four, for ASAJ), so that
no table is short by more than one: 43 players sit at seven tables of five and two of four.

A few counts cannot be split so (for ASAJ: 6, 7 and 11 players). They take the split, within the
ruleset's least and largest table, whose tables are **nearest the usual size** in total, then the
one with fewer tables: 6 players sit as one table of 6, 7 as 4 + 3, 11 as 6 + 5. The director may
still move anyone (R12.2); this only proposes the sizes.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.base import gettext_noop

from .problems import Problem, RulesError
from .ruleset import Ruleset


def table_sizes(player_count: int, ruleset: Ruleset) -> tuple[int, ...]:
    """The sizes of the tables for ``player_count`` players, largest first (R12.2)."""
    least = ruleset.min_table_size
    if player_count < least:
        text = gettext_noop(
            "{players} players cannot make a table: a table needs at least {least}",
            players=player_count,
            least=least,
        )
        raise RulesError(Problem("R12.2", text))
    for sizes in (_one_short(player_count, ruleset), _one_over(player_count, ruleset)):
        if sizes and least <= min(sizes) and max(sizes) <= ruleset.max_table_size:
            return sizes
    return _nearest_split(player_count, ruleset)


def _one_short(player_count: int, ruleset: Ruleset) -> tuple[int, ...]:
    """Usual tables and as few tables one short as needed (43 -> 5 x 7 + 4 x 2); () if none."""
    usual = ruleset.table_size
    tables = -(-player_count // usual)
    full = player_count - tables * (usual - 1)
    return (usual,) * full + (usual - 1,) * (tables - full) if full >= 0 else ()


def _one_over(player_count: int, ruleset: Ruleset) -> tuple[int, ...]:
    """Usual tables and a few one over, for when one-short tables would be too small."""
    usual = ruleset.table_size
    tables, extra = divmod(player_count, usual)
    return (usual + 1,) * extra + (usual,) * (tables - extra) if 0 < tables >= extra else ()


def _nearest_split(player_count: int, ruleset: Ruleset) -> tuple[int, ...]:
    """The allowed split nearest the usual size; squared, so 4 + 4 beats 5 + 3 at tables of 6."""
    usual = ruleset.table_size
    splits = _splits(player_count, ruleset.max_table_size, ruleset.min_table_size)
    best = min(
        splits, key=lambda sizes: (sum((s - usual) ** 2 for s in sizes), len(sizes)), default=None
    )
    if best is None:
        text = gettext_noop(
            "{players} players cannot be split into tables the ruleset allows",
            players=player_count,
        )
        raise RulesError(Problem("R12.2", text))
    return best


def _splits(players: int, largest: int, least: int) -> Iterator[tuple[int, ...]]:
    """Every way to split the players into tables of ``least`` to ``largest``, largest first."""
    if players == 0:
        yield ()
        return
    for size in range(min(largest, players), least - 1, -1):
        for rest in _splits(players - size, size, least):
            yield (size, *rest)
