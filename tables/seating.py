"""Seating: which players share a table in each round (R12.1, R12.2, R4.3).

Plain Python, no Django: the seating service turns checked-in entries into player ids, calls
`seat_round` and saves the tables it returns.

Terms
- player: an int id (a database id, or 0..N-1 in a plan made in advance).
- table: the players at one table in seat order. Seat 0 is the first seat; the deal passes
  clockwise from seat to seat (R4.3).
- seating: the tables of one round, biggest tables first, so table k has `table_sizes(...)[k]`
  players.
- meeting: two players at the same table in one round. A pair that meets again repeats; "met
  twice" means two or more meetings.
- history: how many times each pair has met in earlier rounds (`MeetingHistory`).
- repeats: how far a seating or plan is from everyone meeting new opponents (`Repeats`), compared
  in this order: pairs met twice or more, the most meetings of any one pair, then the meetings
  beyond each pair's first.
- plan: every round of an event seated in advance (`plan_event`), for a fixed field of players.

Table sizes come from the game's **table plan** (`Rules.table_plan`, `games.base`): the sizes of
the tables in sides, and how many sides have a bye. For Kalooki (R12.2) every table is within the
ruleset's least and largest size: tables of the usual size and, when the count is not a multiple
of it, tables one short, so that no table is short by more than one (43 players at five a table:
seven fives and two fours; a club's tables of four seat 10 as 4 + 3 + 3, 11 as 4 + 4 + 3). Counts
that cannot be split that way take tables one over (ASAJ: 6 -> 6, 11 -> 6+5), and failing that
the allowed split nearest the usual size (7 -> 4+3). Seating refuses fewer players than the least
table (3 for ASAJ). In a game of partners (Hand and Foot, HF1.2) a side is a team entry, so the
same search seats teams two to a table and keeps teams from meeting again; the partners sit
opposite each other at the team's table (`tables.selectors.partner_lines`).

Byes: when the plan leaves players without a table (Parcellus seats threes, PA7.1), `choose_byes`
gives the byes to the players with the fewest byes so far, then the lowest standing, so nobody
sits out twice while another has not sat out at all; the rest are seated as usual. An odd number
of teams leaves one team a bye the same way (HF11.1).

The search: simulated annealing over swaps of two players between tables of one round. A pair's
meetings are penalised convexly (`_penalty`), so the search spreads unavoidable repeats over
several pairs rather than letting one pair meet three or four times. That agrees with the order
of `Repeats` except in one trade: the search would rather have up to three pairs meet twice than
one pair meet a third time, because a third meeting is what players notice and complain about.
The number of swaps tried comes from the size of the problem, never from the clock, so a seed
always gives the same result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import Any

import games
from games.base import Rules, RulesError, TablePlan

DEFAULT_GAME = "kalooki"  # the game of a plan made without a tournament

# Swaps tried per seat to fill (players × rounds). Measured: the targets of bench/bench_seating.py
# are already met with 100,000 swaps; the rest buys fewer repeats. The floor keeps small fields
# well seated and the ceiling keeps big events to a second or two of CPU.
_SWAPS_PER_SEAT = 3000
_MIN_SWAPS = 20_000
_MAX_SWAPS = 1_500_000

# The swaps are spent in two sweeps from hot to cold. The short first one settles easy fields,
# and the search stops as soon as nobody meets twice; the second, from where the first ended, is
# for fields where repeats are hard to avoid.
_FIRST_SWEEP = 0.25

# Annealing temperatures, in penalty units (a pair meeting twice costs 1): at first a swap that
# makes one more pair meet twice is accepted half the time, at the end almost never.
_HOT = 1.5
_COLD = 0.05


class SeatingError(ValueError):
    """A seating that cannot be made; the message says what the director can do about it."""


# --- table sizes (R12.2) ---------------------------------------------------------------------


def rules_of(rules: Rules[Any] | Any | None = None) -> Rules[Any]:
    """The rules to seat by: a game's ``Rules`` as given, a ruleset of the default game (Kalooki)
    for a plan made in advance, or that game's default preset (ASAJ 2025)."""
    if isinstance(rules, Rules):
        return rules
    game = games.get(DEFAULT_GAME)
    return game.rules(game.ruleset() if rules is None else rules)


def table_plan(players: int, rules: Rules[Any] | Any | None = None) -> TablePlan:
    """The game's plan for `players` players (one a side); a `SeatingError` that tells the
    director what to do when there is none, or when it needs what seating does not do yet."""
    rules = rules_of(rules)
    try:
        plan = rules.table_plan(players)
    except RulesError as error:
        raise _refusal(players, rules) from error
    return plan


def sides_word(rules: Rules[Any]) -> str:
    """What seating places: "teams" in a game of partners (HF1.2), else "players"."""
    return "teams" if rules.shape().members > 1 else "players"


def seated_count(plan: TablePlan) -> int:
    """How many of the players sit at a table: all but the byes."""
    return sum(plan.sizes)


def table_sizes(players: int, rules: Rules[Any] | Any | None = None) -> list[int]:
    """Sizes of the tables that seat `players`, biggest first, as the game plans them.

    `table_sizes(43) == [5, 5, 5, 5, 5, 5, 5, 4, 4]`; `table_sizes(11) == [6, 5]` (ASAJ 2025).
    """
    return list(table_plan(players, rules).sizes)


def _refusal(players: int, rules: Rules[Any]) -> SeatingError:
    shape = rules.shape()
    least, largest = shape.min_sides, shape.max_sides
    if players < least:
        verb = "is" if players == 1 else "are"
        sides, rule = sides_word(rules), "HF1.2" if shape.members > 1 else "R12.1"
        return SeatingError(
            f"Seating needs at least {least} checked-in {sides}; {players} {verb} "
            f"checked in. Check in more {sides} ({rule})."
        )
    return SeatingError(
        f"{players} players cannot be seated at tables of {least} to {largest}. "
        "Check in one more or one fewer player, or seat them by hand (R12.2)."
    )


# --- meeting history and repeats ---------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Repeats:
    """How far a seating or plan is from everyone meeting new opponents; smaller is better."""

    pairs_met_twice: int
    max_meetings: int
    repeat_meetings: int


@dataclass(frozen=True)
class MeetingHistory:
    """How many times each pair of players has shared a table in earlier rounds."""

    counts: Mapping[frozenset[int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Read-only, so that a history handed to several seatings cannot change under them.
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))

    @classmethod
    def from_rounds(cls, rounds: Iterable[Sequence[Sequence[int]]]) -> MeetingHistory:
        """The history of the given rounds, each a seating (a list of tables)."""
        counts: dict[frozenset[int], int] = {}
        for seating in rounds:
            _count_meetings(seating, counts)
        return cls(counts)

    def after(self, seating: Sequence[Sequence[int]]) -> MeetingHistory:
        """This history with one more round played."""
        counts = dict(self.counts)
        _count_meetings(seating, counts)
        return MeetingHistory(counts)

    def meetings(self, a: int, b: int) -> int:
        return self.counts.get(frozenset((a, b)), 0)

    def repeats(self) -> Repeats:
        met = [k for k in self.counts.values() if k > 0]
        return Repeats(
            pairs_met_twice=sum(1 for k in met if k >= 2),
            max_meetings=max(met, default=0),
            repeat_meetings=sum(k - 1 for k in met),
        )


def _count_meetings(seating: Sequence[Sequence[int]], counts: dict[frozenset[int], int]) -> None:
    for table in seating:
        for pair in combinations(table, 2):
            key = frozenset(pair)
            counts[key] = counts.get(key, 0) + 1


# --- one round ---------------------------------------------------------------------------------


def choose_byes(
    players: Sequence[int],
    count: int,
    *,
    byes_so_far: Mapping[int, int] | None = None,
    standing: Sequence[int] = (),
    seed: int = 0,
) -> list[int]:
    """The `count` players who sit out the round: the fewest byes so far first, then the lowest
    standing (`standing` lists players best first; a player not in it has no place yet and
    counts as below everyone), then a seeded draw among players still level."""
    if count <= 0:
        return []
    byes_so_far = byes_so_far or {}
    place = {player: index for index, player in enumerate(standing)}
    unplaced = len(standing)
    draw = random.Random(seed ^ 0xB7E5)
    ticket = {player: draw.random() for player in sorted(players)}
    order = sorted(
        players,
        key=lambda p: (byes_so_far.get(p, 0), -place.get(p, unplaced), ticket[p]),
    )
    return order[:count]


@dataclass(frozen=True)
class RoundSeating:
    """One round's tables (biggest first, each in seat order) and the players with a bye."""

    tables: list[list[int]]
    byes: list[int]


def seat_round_with_byes(
    players: Sequence[int],
    history: MeetingHistory | Mapping[frozenset[int], int],
    *,
    seed: int,
    rules: Rules[Any] | Any | None = None,
    byes_so_far: Mapping[int, int] | None = None,
    standing: Sequence[int] = (),
    swaps: int | None = None,
) -> RoundSeating:
    """Seat a round as `seat_round` does, first giving the plan's byes by `choose_byes`."""
    if len(set(players)) != len(players):
        raise SeatingError("A player is listed twice; each player takes exactly one seat (R12.1).")
    plan = table_plan(len(players), rules)
    byes = choose_byes(players, plan.byes, byes_so_far=byes_so_far, standing=standing, seed=seed)
    seated = [player for player in players if player not in set(byes)]
    tables = seat_round(seated, history, seed=seed, rules=rules, swaps=swaps) if seated else []
    return RoundSeating(tables, byes)


def seat_round(
    players: Sequence[int],
    history: MeetingHistory | Mapping[frozenset[int], int],
    *,
    seed: int,
    rules: Rules[Any] | Any | None = None,
    swaps: int | None = None,
) -> list[list[int]]:
    """Seat `players` at the tables of the game's plan (`table_plan`), avoiding pairs who have met.

    Returns the tables biggest first, each in seat order. `history` holds the meetings of earlier
    rounds, as a `MeetingHistory` or a mapping from pairs to counts; pairs with a player who is not
    seated now are ignored. Round 1 (nobody has met) is a seeded shuffle. From a greedy start the
    search keeps the seating with the fewest repeats it finds: no pair meeting again if that can
    be done, otherwise as few pairs as possible and no third meeting while a second will do.
    `swaps` overrides the search budget, which by default grows with the number of players.
    """
    if len(set(players)) != len(players):
        raise SeatingError("A player is listed twice; each player takes exactly one seat (R12.1).")
    plan = table_plan(len(players), rules)
    sizes = list(plan.sizes)
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    order = order[: seated_count(plan)]  # byes sit out (`seat_round_with_byes` chooses them)
    counts = history.counts if isinstance(history, MeetingHistory) else history
    meetings = _meetings_matrix(order, counts)
    if not any(map(any, meetings)):
        return _deal_out(order, sizes)  # every seating is as good
    floor = _total_penalty(meetings)  # reached when every pair at a table is meeting first time
    tables = _greedy_tables(len(order), sizes, meetings)
    for table in tables:
        _add_meetings(table, meetings, 1)
    budget = _budget(len(order)) if swaps is None else swaps
    best = _anneal([tables], meetings, rng, budget, floor)[0]
    return [[order[i] for i in table] for table in best]


def _meetings_matrix(order: Sequence[int], counts: Mapping[frozenset[int], int]) -> list[list[int]]:
    """Meetings between the players of `order`, by their position in it."""
    index = {player: i for i, player in enumerate(order)}
    meetings = [[0] * len(order) for _ in order]
    for pair, k in counts.items():
        a, b = pair
        if a in index and b in index:  # a player absent this round cannot repeat a meeting
            meetings[index[a]][index[b]] = meetings[index[b]][index[a]] = k
    return meetings


def _deal_out(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _greedy_tables(n: int, sizes: Sequence[int], meetings: list[list[int]]) -> list[list[int]]:
    """Players 0..n-1 in turn take the open table where they add the least penalty.

    A start for the search that already avoids most repeats, so less of the budget goes on
    undoing a random seating.
    """
    penalty = _penalties(max(map(max, meetings)) + 2)
    tables: list[list[int]] = [[] for _ in sizes]
    for player in range(n):
        row = meetings[player]
        open_tables = [t for t, size in enumerate(sizes) if len(tables[t]) < size]
        best = min(open_tables, key=lambda t: sum(penalty[row[q] + 1] for q in tables[t]))
        tables[best].append(player)
    return tables


def _add_meetings(table: Sequence[int], meetings: list[list[int]], step: int) -> None:
    for a, b in combinations(table, 2):
        meetings[a][b] += step
        meetings[b][a] += step


def _budget(seats: int) -> int:
    return max(_MIN_SWAPS, min(_MAX_SWAPS, _SWAPS_PER_SEAT * seats))


# --- the search --------------------------------------------------------------------------------


def _penalty(meetings: int) -> int:
    """Cost of a pair that has met `meetings` times: free once, then growing as a square.

    Convex, so two pairs meeting twice (cost 2) beat one pair meeting three times (cost 4):
    players want new opponents, not the same one again and again.
    """
    return max(0, meetings - 1) ** 2


def _penalties(limit: int) -> list[int]:
    return [_penalty(k) for k in range(limit + 1)]


def _total_penalty(meetings: list[list[int]]) -> int:
    penalty = _penalties(max(map(max, meetings)))
    return sum(penalty[k] for i, row in enumerate(meetings) for k in row[i + 1 :])


def _anneal(
    rounds: list[list[list[int]]],
    meetings: list[list[int]],
    rng: random.Random,
    swaps: int,
    floor: int = 0,
) -> list[list[list[int]]]:
    """Improve `rounds` in place by swapping players between tables; return the best seen.

    `meetings` counts every round in `rounds` plus any earlier history; no seating can cost
    less than `floor`, so the search stops there. A swap's change of penalty is worked out inline,
    in O(table size) from `meetings`: it runs for each of millions of proposed swaps, and a
    function call each time would cost about as much as the work. Only accepted swaps call out.
    """
    cost = _total_penalty(meetings)
    best_cost, best = cost, [[list(t) for t in seating] for seating in rounds]
    if len(rounds[0]) < 2 or cost <= floor:
        return best
    # A count can grow by at most one per round searched: size the penalty steps for that.
    penalty = _penalties(max(map(max, meetings)) + len(rounds) + 1)
    up = [penalty[k + 1] - penalty[k] for k in range(len(penalty) - 1)]
    down = [0] + [penalty[k - 1] - penalty[k] for k in range(1, len(penalty))]
    seat_table = [t for t, table in enumerate(rounds[0]) for _ in table]
    seat_slot = [s for table in rounds[0] for s in range(len(table))]
    n, n_rounds = len(seat_table), len(rounds)
    rand, exp = rng.random, math.exp
    first_sweep = int(swaps * _FIRST_SWEEP)
    temperature, cooling = _HOT, _cooling(first_sweep)
    for step in range(swaps):
        temperature *= cooling
        if step == first_sweep:
            temperature, cooling = _HOT, _cooling(swaps - first_sweep)
        tables = rounds[int(rand() * n_rounds)]
        i, j = int(rand() * n), int(rand() * n)
        if seat_table[i] == seat_table[j]:
            continue
        table_a, table_b = tables[seat_table[i]], tables[seat_table[j]]
        a, b = table_a[seat_slot[i]], table_b[seat_slot[j]]
        met_a, met_b = meetings[a], meetings[b]
        delta = 0
        for x in table_a:
            if x != a:
                delta += up[met_b[x]] + down[met_a[x]]
        for y in table_b:
            if y != b:
                delta += up[met_a[y]] + down[met_b[y]]
        if delta > 0 and rand() >= exp(-delta / temperature):
            continue
        _swap(table_a, seat_slot[i], table_b, seat_slot[j], meetings)
        cost += delta
        if cost < best_cost:
            best_cost, best = cost, [[list(t) for t in seating] for seating in rounds]
            if cost <= floor:
                break
    return best


def _cooling(swaps: int) -> float:
    """The factor that takes the temperature from hot to cold in `swaps` steps."""
    return (_COLD / _HOT) ** (1.0 / max(1, swaps))


def _swap(
    table_a: list[int], slot_a: int, table_b: list[int], slot_b: int, meetings: list[list[int]]
) -> None:
    """Exchange the players in two seats of one round, keeping `meetings` up to date."""
    a, b = table_a[slot_a], table_b[slot_b]
    met_a, met_b = meetings[a], meetings[b]
    for x in table_a:
        if x != a:  # a leaves x's table and b joins it
            met_x = meetings[x]
            met_a[x] -= 1
            met_x[a] -= 1
            met_b[x] += 1
            met_x[b] += 1
    for y in table_b:
        if y != b:
            met_y = meetings[y]
            met_b[y] -= 1
            met_y[b] -= 1
            met_a[y] += 1
            met_y[a] += 1
    table_a[slot_a], table_b[slot_b] = b, a


# --- dealers (R4.3) ----------------------------------------------------------------------------


def choose_first_dealers(tables: Sequence[Sequence[int]], *, seed: int) -> list[int]:
    """For each table, the seat index of its first dealer, drawn at random (R4.3)."""
    rng = random.Random(seed)
    return [rng.randrange(len(table)) for table in tables]


# --- a whole event -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Every round of an event seated in advance; players are numbered 0..N-1."""

    rounds: list[list[list[int]]]
    pairs_met_twice: int
    max_meetings: int

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "pairs_met_twice": self.pairs_met_twice,
            "max_meetings": self.max_meetings,
        }


def plan_event(
    players: int,
    rounds: int,
    *,
    seed: int,
    rules: Rules[Any] | Any | None = None,
    swaps: int | None = None,
) -> Plan:
    """Seat players 0..`players`-1 for `rounds` rounds so that as few pairs as possible meet twice.

    The search swaps players within any round, against the meetings of the whole plan, so an
    early round can still change to make room for a later one.
    """
    if rounds < 1:
        raise SeatingError(f"A tournament has at least one round (R12.1); {rounds} were asked for.")
    plan_shape = table_plan(players, rules)
    if plan_shape.byes:
        raise SeatingError(
            f"{players} players leave {plan_shape.byes} without a table each round: byes go to "
            "the lowest standing, which a plan made in advance cannot know. Seat the rounds one "
            "by one instead."
        )
    sizes = list(plan_shape.sizes)
    rng = random.Random(seed)
    meetings = [[0] * players for _ in range(players)]
    plan = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        seating = _deal_out(order, sizes)
        for table in seating:
            _add_meetings(table, meetings, 1)
        plan.append(seating)
    budget = _budget(players * rounds) if swaps is None else swaps
    plan = _anneal(plan, meetings, rng, budget)
    repeats = MeetingHistory.from_rounds(plan).repeats()
    return Plan(plan, repeats.pairs_met_twice, repeats.max_meetings)
