"""Seating: which players share a table in each round (R12.1, R12.2, R4.3).

Plain Python, no Django: the seating service turns checked-in entries into player ids, calls
`seat` and `order_seats`, and saves the tables they return.

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
- design: a whole event's seating in which nobody meets twice, built from mathematics
  (`tables.designs`); a **design place** (`DesignPlace`) says which round of which design a round
  follows and which design point each player is, so the next round follows the next.
- mode (`SeatingMode`): what a round's seating aims for: new opponents (the default), players of
  similar standing together, tables balanced or graded by rating, or a plain random draw.
- pin (`Pin`): a player who cannot move (a wheelchair space, a walking frame) keeps a chosen
  table, and perhaps a chosen seat, all event; the seating works around them.
- duties (`SeatDuty`): how often a player has been the first dealer of a set and the first to
  play (the player to the first dealer's left, R4.3), so that nobody is always either.

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

Designs first: where a design fits the field (its tables the plan's, at most one short where
the field is a few players under the design), a plan follows it and reaches the optimum, and
round-by-round seating follows it round by round, the players keeping their design points;
withdrawals leave holes and late entries take free points, and the search repairs what no longer
fits. Elsewhere the search starts from the greedy seating.

The search: simulated annealing over swaps of two players between tables of one round. A pair's
meetings are penalised convexly (`_penalty`), so the search spreads unavoidable repeats over
several pairs rather than letting one pair meet three or four times. That agrees with the order
of `Repeats` except in one trade: the search would rather have up to three pairs meet twice than
one pair meet a third time, because a third meeting is what players notice and complain about.
Pinned players' seats never take part in a swap. The modes by standing and by rating add a cost
for each pair at a table (`_pair_costs`) and search the same way. The number of swaps tried comes
from the size of the problem, never from the clock, so a seed always gives the same result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from types import MappingProxyType
from typing import Any

import games
from games.base import Rules, RulesError, TablePlan
from tables import designs

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


# The words a person reads: `_` marks a message for the catalogues (makemessages), and the
# Django side (`tables.apps`) sets `translate` to gettext, so that a refusal reads in the
# director's language when it is shown while this module stays free of Django.
translate: Callable[[str], str] = str


def _(message: str) -> str:
    return message


# The words for who is seated, marked for the catalogues: `sides_word` and its singular.
SIDE_WORDS = (_("players"), _("teams"), _("player"), _("team"))


class SeatingError(ValueError):
    """A seating that cannot be made; the message says what the director can do about it.

    Raised with the message's English template and its values (`{players}`), or a message already
    in words; `str()` reads it in the language `translate` gives ("sides" is a word, translated)."""

    def __init__(self, template: str, /, **values: Any) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template, self.values = template, values

    def __str__(self) -> str:
        if not self.values:
            return translate(self.template)
        values = {key: translate(value) if key == "sides" else value
                  for key, value in self.values.items()}  # fmt: skip
        return translate(self.template).format(**values)


class SeatingMode(StrEnum):
    """What a round's seating aims for; stored with the round, like its seed."""

    AVOID_REPEATS = "avoid_repeats"
    STANDINGS = "standings"
    RATING_BALANCED = "rating_balanced"
    RATING_STRATIFIED = "rating_stratified"
    RANDOM = "random"

    @property
    def words(self) -> str:
        """The mode in a sentence: "Avoid repeats: everyone meets new opponents ..." """
        return translate(MODE_WORDS[self])

    @property
    def label(self) -> str:
        """The mode in a few words: "Avoid repeats"."""
        return self.words.split(":")[0]

    @property
    def needs_ratings(self) -> bool:
        return self in (SeatingMode.RATING_BALANCED, SeatingMode.RATING_STRATIFIED)


# The modes a director chooses from: seating by rating joins them once players have ratings
# (members and their OpenSkill ratings); until then it would be an option that cannot work.
DIRECTOR_MODES = tuple(mode for mode in SeatingMode if not mode.needs_ratings)

MODE_WORDS = {
    SeatingMode.AVOID_REPEATS: _("Avoid repeats: everyone meets new opponents where possible"),
    SeatingMode.STANDINGS: _("By standings: players of similar standing together (Swiss-like)"),
    SeatingMode.RATING_BALANCED: _("By rating, balanced: every table of about equal strength"),
    SeatingMode.RATING_STRATIFIED: _("By rating, stratified: players of similar rating together"),
    SeatingMode.RANDOM: _("Random draw: tables drawn at random, meetings not considered"),
}


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
        sides, rule = sides_word(rules), "HF1.2" if shape.members > 1 else "R12.1"
        if players == 1:
            needs = _(
                "Seating needs at least {least} checked-in {sides}; {players} is checked in. "
                "Check in more {sides} ({rule})."
            )
        else:
            needs = _(
                "Seating needs at least {least} checked-in {sides}; {players} are checked in. "
                "Check in more {sides} ({rule})."
            )
        return SeatingError(needs, least=least, sides=sides, players=players, rule=rule)
    return SeatingError(
        _(
            "{players} players cannot be seated at tables of {least} to {largest}. "
            "Check in one more or one fewer player, or seat them by hand (R12.2)."
        ),
        players=players,
        least=least,
        largest=largest,
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


# --- pins, duties and design places ------------------------------------------------------------


@dataclass(frozen=True)
class Pin:
    """A player's fixed place: a table (from 1) and perhaps a seat at it (from 1, clockwise)."""

    table: int
    seat: int | None = None

    def words(self) -> str:
        if self.seat:
            return translate(_("table {table}, seat {seat}")).format(
                table=self.table, seat=self.seat
            )
        return translate(_("table {table}")).format(table=self.table)


def check_pins(
    pins: Mapping[int, Pin],
    sizes: Sequence[int],
    *,
    name: Callable[[int], str] = lambda player: f"player {player}",
    sides: str = "players",
) -> None:
    """Refuse pins the tables cannot honour: a table or seat that does not exist, two players
    pinned to one seat, or more players pinned to a table than it seats (R12.2). `name` turns a
    player into words for the message."""
    count = len(sizes)
    at_table: dict[int, list[int]] = {}
    at_seat: dict[tuple[int, int], int] = {}
    for player, pin in sorted(pins.items(), key=lambda item: (item[1].table, item[0])):
        if not 1 <= pin.table <= count:
            raise SeatingError(
                _(
                    "{player} is pinned to table {table}, which does not exist: {seated} {sides} "
                    "sit at {count} tables (R12.2). Pin them to a table from 1 to {count}."
                ),
                player=name(player),
                table=pin.table,
                seated=sum(sizes),
                sides=sides,
                count=count,
            )
        size = sizes[pin.table - 1]
        if pin.seat is not None and not 1 <= pin.seat <= size:
            raise SeatingError(
                _(
                    "{player} is pinned to seat {seat} of table {table}, which seats {size}: "
                    "choose a seat from 1 to {size}."
                ),
                player=name(player),
                seat=pin.seat,
                table=pin.table,
                size=size,
            )
        if pin.seat is not None and (pin.table, pin.seat) in at_seat:
            other = at_seat[pin.table, pin.seat]
            raise SeatingError(
                _(
                    "{other} and {player} are both pinned to seat {seat} of table {table}: one "
                    "seat holds one {side}. Pin one of them elsewhere."
                ),
                other=name(other),
                player=name(player),
                seat=pin.seat,
                table=pin.table,
                side=translate(sides[:-1]),
            )
        if pin.seat is not None:
            at_seat[pin.table, pin.seat] = player
        at_table.setdefault(pin.table, []).append(player)
        if len(at_table[pin.table]) > size:
            names = ", ".join(name(p) for p in at_table[pin.table])
            raise SeatingError(
                _(
                    "Table {table} seats {size}, and {pinned} {sides} are pinned to it ({names}) "
                    "(R12.2): pin one of them to another table."
                ),
                table=pin.table,
                size=size,
                pinned=len(at_table[pin.table]),
                sides=sides,
                names=names,
            )


@dataclass(frozen=True)
class SeatDuty:
    """How often a player has dealt first at a table, and played first (the player to the first
    dealer's left, R4.3), in earlier rounds."""

    first_deals: int = 0
    first_plays: int = 0


@dataclass(frozen=True)
class DesignPlace:
    """A round that follows a design: the design's key, the design round it follows (from 0),
    and each seated player's design point."""

    key: str
    round: int
    points: Mapping[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "round": self.round,
            "points": {str(player): point for player, point in sorted(self.points.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> DesignPlace | None:
        """The place a round stored, or None for a round that followed no design (or a record
        that does not read as one)."""
        try:
            points = {int(player): int(point) for player, point in data["points"].items()}
            return cls(str(data["key"]), int(data["round"]), points)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


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
    """One round's tables (biggest first), the players with a bye, and the design place the
    round follows (None when it follows no design)."""

    tables: list[list[int]]
    byes: list[int]
    design: DesignPlace | None = None


def seat(
    players: Sequence[int],
    history: MeetingHistory | Mapping[frozenset[int], int],
    *,
    seed: int,
    rules: Rules[Any] | Any | None = None,
    mode: SeatingMode | str = SeatingMode.AVOID_REPEATS,
    byes_so_far: Mapping[int, int] | None = None,
    standing: Sequence[int] = (),
    ratings: Mapping[int, float] | None = None,
    pins: Mapping[int, Pin] | None = None,
    design: DesignPlace | None = None,
    rounds_left: int | None = None,
    swaps: int | None = None,
) -> RoundSeating:
    """Seat one round: the byes (`choose_byes`), then the tables by `mode`.

    `history` holds earlier rounds' meetings; `standing` lists players best first (for the byes
    and seating by standings); `ratings` maps players to a rating (seating by rating; a player
    without one counts as the field's mean); `pins` keeps players at their tables. Avoiding
    repeats, a round follows the design of the previous round's place (`design`) when it still
    fits, starts a design when nobody has met yet (for `rounds_left` rounds, or as many as a
    design has), and otherwise searches from the greedy seating. Every mode honours the pins and
    the table plan. Seat order within a table is `order_seats`'s.
    """
    if len(set(players)) != len(players):
        raise SeatingError(
            _("A player is listed twice; each player takes exactly one seat (R12.1).")
        )
    mode = SeatingMode(mode)
    plan = table_plan(len(players), rules)
    byes = choose_byes(players, plan.byes, byes_so_far=byes_so_far, standing=standing, seed=seed)
    out = set(byes)
    seated = [player for player in players if player not in out]
    if not seated:
        return RoundSeating([], byes)
    sizes = list(plan.sizes)
    pinned = {player: pin for player, pin in (pins or {}).items() if player in set(seated)}
    check_pins(pinned, sizes, sides=sides_word(rules_of(rules)))
    counts = history.counts if isinstance(history, MeetingHistory) else history
    rng = random.Random(seed)
    order = list(seated)
    rng.shuffle(order)
    if mode == SeatingMode.RANDOM:
        return RoundSeating(_place(order, sizes, pinned), byes)
    if mode != SeatingMode.AVOID_REPEATS:
        costs = _pair_costs(mode, order, counts, standing, ratings, repeat=max(sizes))
        start = _place(_affinity_order(mode, order, standing, ratings, sizes), sizes, pinned)
        budget = _budget(len(order)) if swaps is None else swaps
        tables = _anneal_costs(start, costs, order, pinned, rng, budget)
        if mode != SeatingMode.RATING_BALANCED:
            tables = _top_first(tables, _scores(mode, order, standing, ratings), pinned)
        return RoundSeating(tables, byes)
    tables, place = _avoid_repeats(order, counts, sizes, pinned, design, rounds_left, rng, swaps)
    return RoundSeating(tables, byes, place)


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
    return seat(
        players,
        history,
        seed=seed,
        rules=rules,
        byes_so_far=byes_so_far,
        standing=standing,
        swaps=swaps,
    )


def seat_round(
    players: Sequence[int],
    history: MeetingHistory | Mapping[frozenset[int], int],
    *,
    seed: int,
    rules: Rules[Any] | Any | None = None,
    swaps: int | None = None,
) -> list[list[int]]:
    """Seat `players` at the tables of the game's plan (`table_plan`), avoiding pairs who have met.

    Returns the tables biggest first. `history` holds the meetings of earlier rounds, as a
    `MeetingHistory` or a mapping from pairs to counts; pairs with a player who is not seated now
    are ignored. Round 1 (nobody has met) is the first round of a design where one fits, its
    points drawn by the seed, else a seeded shuffle. From a greedy start the search keeps the
    seating with the fewest repeats it finds: no pair meeting again if that can be done,
    otherwise as few pairs as possible and no third meeting while a second will do. `swaps`
    overrides the search budget, which by default grows with the number of players.
    """
    if len(set(players)) != len(players):
        raise SeatingError(
            _("A player is listed twice; each player takes exactly one seat (R12.1).")
        )
    plan = table_plan(len(players), rules)
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    order = order[: seated_count(plan)]  # byes sit out (`seat` chooses them)
    counts = history.counts if isinstance(history, MeetingHistory) else history
    tables, _design = _avoid_repeats(order, counts, list(plan.sizes), {}, None, None, rng, swaps)
    return tables


def _avoid_repeats(
    order: list[int],
    counts: Mapping[frozenset[int], int],
    sizes: list[int],
    pinned: Mapping[int, Pin],
    previous: DesignPlace | None,
    rounds_left: int | None,
    rng: random.Random,
    swaps: int | None,
) -> tuple[list[list[int]], DesignPlace | None]:
    """Tables with as few repeats as the search finds, from the design's round where one fits."""
    meetings = _meetings_matrix(order, counts)
    met = any(map(any, meetings))
    place = _continue_design(order, sizes, previous, pinned, rng) if previous else None
    if place is None and not met:
        started = _start_design(order, sizes, pinned, rounds_left, rng)
        place = started[0] if started else None
    index = {player: i for i, player in enumerate(order)}
    if place is not None:
        groups = _design_groups(place, order)
        start = _fit(groups, sizes, pinned, meetings, index)
    elif not met:
        return _place(order, sizes, pinned), None  # every seating is as good
    else:
        start = _greedy_tables(order, sizes, meetings, pinned)
    floor = _total_penalty(meetings)  # reached when every pair at a table is meeting first time
    tables = [[index[player] for player in table] for table in start]
    for table in tables:
        _add_meetings(table, meetings, 1)
    locked = [_locked(tables, {index[p] for p in pinned})]
    budget = _budget(len(order)) if swaps is None else swaps
    best = _anneal([tables], meetings, rng, budget, floor, locked)[0]
    return [[order[i] for i in table] for table in best], place


# --- following a design ------------------------------------------------------------------------


def _design_shape(sizes: Sequence[int]) -> tuple[int, int] | None:
    """(table size, points) of the design a plan of `sizes` follows: tables of the largest size,
    the others at most one short; None when the plan has tables of other sizes."""
    size = sizes[0]
    if size < 2 or any(s not in (size, size - 1) for s in sizes):
        return None
    return size, size * len(sizes)


def _start_design(
    players: Sequence[int],
    sizes: Sequence[int],
    pinned: Mapping[int, Pin],
    rounds: int | None,
    rng: random.Random,
) -> tuple[DesignPlace, int] | None:
    """The first round of the best design for the field, and how many of its rounds the field
    can follow. The design's surplus points are left empty, and one player pinned to each pinned
    table takes a point, all of them points that never share a table (so tables stay at most one
    short, and pinned players at different tables stay apart); the rest are drawn by the seed.
    When the design has too few such points, the field follows fewer of its rounds: after them
    the search takes over."""
    shape = _design_shape(sizes)
    if shape is None:
        return None
    size, points = shape
    design = designs.design_for(points, size, rounds or points)
    if design is None:
        return None
    spare = points - len(players)
    leaders = {pin.table: player for player, pin in sorted(pinned.items(), reverse=True)}
    wanted = spare + len(leaders)
    used = min(rounds or len(design.rounds), len(design.rounds))
    apart = designs.independent_points(design, used, wanted)
    while len(apart) < wanted and used > 1:
        used -= 1
        apart = designs.independent_points(design, used, wanted)
    empty, kept = set(apart[:spare]), apart[spare:]
    others = [p for p in range(points) if p not in empty and p not in set(kept)]
    rng.shuffle(others)
    others = others[: len(players) - len(kept[: len(leaders)])]  # too few apart: more empty
    mapping = dict(zip(sorted(leaders.values()), kept, strict=False))
    free = iter(others)
    for player in players:
        if player not in mapping:
            mapping[player] = next(free)
    return DesignPlace(design.key, 0, mapping), used


def _continue_design(
    players: Sequence[int],
    sizes: Sequence[int],
    previous: DesignPlace,
    pinned: Mapping[int, Pin],
    rng: random.Random,
) -> DesignPlace | None:
    """The next round of the previous round's design, for today's players: those who played
    keep their points, late entries take points nobody holds now; None when the design is over,
    no longer fits the field, or would seat two players pinned to different tables together."""
    shape = _design_shape(sizes)
    design = designs.design_by_key(previous.key)
    if shape is None or design is None or (design.size, design.points) != shape:
        return None
    if previous.round + 1 >= len(design.rounds):
        return None
    mapping = {p: previous.points[p] for p in players if p in previous.points}
    if len(set(mapping.values())) != len(mapping) or not set(mapping.values()) <= set(
        range(design.points)
    ):
        return None  # a stored place that does not read as one: start afresh
    free = sorted(set(range(design.points)) - set(mapping.values()))
    rng.shuffle(free)
    newcomers = sorted(p for p in players if p not in mapping)
    if len(newcomers) > len(free):
        return None
    mapping.update(zip(newcomers, free, strict=False))
    table_of = {p: t for t, table in enumerate(design.rounds[previous.round + 1]) for p in table}
    seen: dict[int, int] = {}
    for player, pin in pinned.items():
        table = table_of[mapping[player]]
        if seen.setdefault(table, pin.table) != pin.table:
            return None
    return DesignPlace(design.key, previous.round + 1, mapping)


def _design_groups(place: DesignPlace, players: Sequence[int]) -> list[list[int]]:
    """The design round's tables with today's players at their points, empty points left out."""
    design = designs.design_by_key(place.key)
    assert design is not None  # a place is only made for a design that exists
    holder = {point: player for player, point in place.points.items() if player in set(players)}
    groups = [[holder[p] for p in table if p in holder] for table in design.rounds[place.round]]
    return sorted((g for g in groups if g), key=len, reverse=True)


def _fit(
    groups: list[list[int]],
    sizes: Sequence[int],
    pinned: Mapping[int, Pin],
    meetings: list[list[int]],
    index: Mapping[int, int],
) -> list[list[int]]:
    """The design's groups at the plan's tables: each group takes a table (its pinned player's,
    else the biggest left), players beyond a table's size or pinned elsewhere move to the open
    seat where they meet the fewest players again."""
    tables: list[list[int]] = [[] for _ in sizes]
    taken = [False] * len(sizes)
    moving: list[int] = []
    for group in groups:
        target = _table_for(group, pinned, taken)
        if target is None:
            moving.extend(group)
            continue
        taken[target] = True
        for player in sorted(group, key=lambda p: p not in pinned):
            away = player in pinned and pinned[player].table - 1 != target
            if away or len(tables[target]) == sizes[target]:
                moving.append(player)
            else:
                tables[target].append(player)
    queue = sorted(moving, key=lambda p: p not in pinned)
    while queue:
        evicted = _seat_mover(queue.pop(0), tables, sizes, pinned, meetings, index)
        if evicted is not None:
            queue.append(evicted)
    return tables


def _table_for(group: list[int], pinned: Mapping[int, Pin], taken: list[bool]) -> int | None:
    for player in group:
        if player in pinned and not taken[pinned[player].table - 1]:
            return pinned[player].table - 1
    return next((t for t, done in enumerate(taken) if not done), None)


def _seat_mover(
    player: int,
    tables: list[list[int]],
    sizes: Sequence[int],
    pinned: Mapping[int, Pin],
    meetings: list[list[int]],
    index: Mapping[int, int],
) -> int | None:
    """Seat a player left over by `_fit`: a pinned one at the pinned table (a player not pinned
    there makes way, and is returned to be seated in turn), any other at the open seat where
    they meet the fewest players again."""
    if player in pinned:
        target = pinned[player].table - 1
        evicted = None
        if len(tables[target]) == sizes[target]:
            evicted = next(p for p in reversed(tables[target]) if p not in pinned)
            tables[target].remove(evicted)
        tables[target].append(player)
        return evicted
    row = meetings[index[player]]
    open_tables = [t for t, size in enumerate(sizes) if len(tables[t]) < size]
    best = min(open_tables, key=lambda t: sum(row[index[q]] for q in tables[t]))
    tables[best].append(player)
    return None


# --- other modes -------------------------------------------------------------------------------


def _place(
    order: Sequence[int], sizes: Sequence[int], pinned: Mapping[int, Pin]
) -> list[list[int]]:
    """Players dealt out to the tables in `order`, pinned players first at their tables."""
    tables: list[list[int]] = [[] for _ in sizes]
    for player in order:
        if player in pinned:
            tables[pinned[player].table - 1].append(player)
    rest = iter(player for player in order if player not in pinned)
    for table, size in zip(tables, sizes, strict=True):
        while len(table) < size:
            table.append(next(rest))
    return tables


def _scores(
    mode: SeatingMode,
    order: Sequence[int],
    standing: Sequence[int],
    ratings: Mapping[int, float] | None,
) -> dict[int, float]:
    """Each player's place on a scale from 0 (the top) to 1: by standing (a player without a
    place counts as last), or by rating (highest first; no rating: the field's mean)."""
    if mode == SeatingMode.STANDINGS:
        place = {player: i for i, player in enumerate(standing)}
        last = max(1, len(standing))
        return {p: min(place.get(p, last), last) / last for p in order}
    if not ratings:
        raise SeatingError(
            _(
                "Seating by rating needs the players' ratings, and none are recorded: seat this "
                "round by standings or to avoid repeats."
            )
        )
    known = [float(ratings[p]) for p in order if p in ratings]
    mean = sum(known) / len(known) if known else 0.0
    value = {p: float(ratings.get(p, mean)) for p in order}
    high, low = max(value.values()), min(value.values())
    spread = (high - low) or 1.0
    return {p: (high - value[p]) / spread for p in order}


def _affinity_order(
    mode: SeatingMode,
    order: Sequence[int],
    standing: Sequence[int],
    ratings: Mapping[int, float] | None,
    sizes: Sequence[int],
) -> list[int]:
    """The start of the search: best first for tables of similar players (one table after
    another), or a snake (1, 2, ..., n, then n, ..., 1 across the tables) for balanced ones."""
    score = _scores(mode, order, standing, ratings)
    ranked = sorted(order, key=lambda p: score[p])
    if mode != SeatingMode.RATING_BALANCED:
        return ranked
    tables: list[list[int]] = [[] for _ in sizes]
    players = iter(ranked)
    for lap in range(max(sizes)):
        turn = range(len(sizes)) if lap % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for t in turn:
            if len(tables[t]) < sizes[t]:
                tables[t].append(next(players))
    return [player for table in tables for player in table]


def _pair_costs(
    mode: SeatingMode,
    order: Sequence[int],
    counts: Mapping[frozenset[int], int],
    standing: Sequence[int],
    ratings: Mapping[int, float] | None,
    *,
    repeat: float,
) -> list[list[float]]:
    """What each pair costs at one table, by position in `order`: players far apart in standing
    or rating cost their distance (stratified), or strong with strong and weak with weak cost
    the product of their distances from the middle (balanced: the sum over tables of the square
    of a table's strength beyond the mean is, but for a constant, the sum of these products),
    plus `repeat` for each meeting beyond the first. A pair's own cost is at most 1, so a repeat
    that costs a table's size outweighs sitting with the whole table however far apart: as in a
    Swiss event, players meet again only when nothing else will do."""
    score = _scores(mode, order, standing, ratings)
    values = [score[p] for p in order]
    centre = sum(values) / len(values)
    meetings = _meetings_matrix(order, counts)
    penalty = _penalties(max(map(max, meetings)) + 2)
    costs = []
    for i, a in enumerate(values):
        row = []
        for j, b in enumerate(values):
            if mode == SeatingMode.RATING_BALANCED:
                affinity = (a - centre) * (b - centre)
            else:
                affinity = abs(a - b)
            k = meetings[i][j]
            row.append(affinity + repeat * (penalty[k + 1] - penalty[k]))
        costs.append(row)
    return costs


# The search by pair costs starts as hot as the mean change of a random swap, and cools to this
# share of it: the costs' scale depends on the field (a standing one place apart is 1/n).
_COLD_SHARE = 0.005
_SAMPLED_SWAPS = 500


def _anneal_costs(
    start: list[list[int]],
    costs: list[list[float]],
    order: Sequence[int],
    pinned: Mapping[int, Pin],
    rng: random.Random,
    swaps: int,
) -> list[list[int]]:
    """Swap players between tables to lower the sum of the costs of the pairs at each table;
    return the best seating seen. Pinned players never move."""
    index = {player: i for i, player in enumerate(order)}
    tables = [[index[p] for p in table] for table in start]
    locked = _locked(tables, {index[p] for p in pinned})
    seat_table = [t for t, table in enumerate(tables) for _ in table]
    seat_slot = [s for table in tables for s in range(len(table))]
    n = len(seat_table)
    cost = sum(costs[a][b] for table in tables for a, b in combinations(table, 2))
    best_cost, best = cost, [list(t) for t in tables]
    rand, exp = rng.random, math.exp

    def change(i: int, j: int) -> float | None:
        """The cost's change if the players in seats i and j swapped; None if they cannot."""
        if seat_table[i] == seat_table[j] or locked[i] or locked[j]:
            return None
        table_a, table_b = tables[seat_table[i]], tables[seat_table[j]]
        a, b = table_a[seat_slot[i]], table_b[seat_slot[j]]
        cost_a, cost_b = costs[a], costs[b]
        delta = sum(cost_b[x] - cost_a[x] for x in table_a if x != a)
        return delta + sum(cost_a[y] - cost_b[y] for y in table_b if y != b)

    sampled = [change(int(rand() * n), int(rand() * n)) for _ in range(_SAMPLED_SWAPS)]
    moves = [abs(d) for d in sampled if d]
    hot = sum(moves) / len(moves) if moves else 1.0
    temperature, cooling = hot, _COLD_SHARE ** (1.0 / max(1, swaps))
    for _ in range(swaps if len(tables) > 1 else 0):
        temperature *= cooling
        i, j = int(rand() * n), int(rand() * n)
        delta = change(i, j)
        if delta is None or (delta > 0 and rand() >= exp(-delta / temperature)):
            continue
        table_a, table_b = tables[seat_table[i]], tables[seat_table[j]]
        a, b = table_a[seat_slot[i]], table_b[seat_slot[j]]
        table_a[seat_slot[i]], table_b[seat_slot[j]] = b, a
        cost += delta
        if cost < best_cost - 1e-9:
            best_cost, best = cost, [list(t) for t in tables]
    return [[order[i] for i in table] for table in best]


def _top_first(
    tables: list[list[int]], score: Mapping[int, float], pinned: Mapping[int, Pin]
) -> list[list[int]]:
    """The tables renumbered best first (the lowest mean score), among tables of one size and
    without a pinned player: table 1 is the top table."""
    result = list(tables)
    for size in {len(table) for table in tables}:
        movable = [
            t
            for t, table in enumerate(tables)
            if len(table) == size and not any(p in pinned for p in table)
        ]
        ranked = sorted(
            (tables[t] for t in movable), key=lambda table: sum(score[p] for p in table)
        )
        for t, table in zip(movable, ranked, strict=True):
            result[t] = table
    return result


def _locked(tables: list[list[int]], pinned: set[int]) -> list[bool]:
    """Per seat (tables in order, seats in order), whether a pinned player holds it."""
    return [player in pinned for table in tables for player in table]


def _meetings_matrix(order: Sequence[int], counts: Mapping[frozenset[int], int]) -> list[list[int]]:
    """Meetings between the players of `order`, by their position in it."""
    index = {player: i for i, player in enumerate(order)}
    meetings = [[0] * len(order) for _ in order]
    for pair, k in counts.items():
        a, b = pair
        if a in index and b in index:  # a player absent this round cannot repeat a meeting
            meetings[index[a]][index[b]] = meetings[index[b]][index[a]] = k
    return meetings


def _greedy_tables(
    order: Sequence[int], sizes: Sequence[int], meetings: list[list[int]], pinned: Mapping[int, Pin]
) -> list[list[int]]:
    """Pinned players at their tables, then the others in turn at the open table where they add
    the least penalty: a start for the search that already avoids most repeats, so less of the
    budget goes on undoing a random seating."""
    penalty = _penalties(max(map(max, meetings)) + 2)
    index = {player: i for i, player in enumerate(order)}
    tables: list[list[int]] = [[] for _ in sizes]
    for player in order:
        if player in pinned:
            tables[pinned[player].table - 1].append(player)
    for player in order:
        if player in pinned:
            continue
        row = meetings[index[player]]
        open_tables = [t for t, size in enumerate(sizes) if len(tables[t]) < size]
        best = min(open_tables, key=lambda t: sum(penalty[row[index[q]] + 1] for q in tables[t]))
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
    locked: list[list[bool]] | None = None,
) -> list[list[list[int]]]:
    """Improve `rounds` in place by swapping players between tables; return the best seen.

    `meetings` counts every round in `rounds` plus any earlier history; no seating can cost
    less than `floor`, so the search stops there. `locked[r][seat]` marks the seats of round r
    (tables in order, seats in order) that never change hands: pinned players'. A swap's change
    of penalty is worked out inline, in O(table size) from `meetings`: it runs for each of
    millions of proposed swaps, and a function call each time would cost about as much as the
    work. Only accepted swaps call out.
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
    free = [[not held for held in round_locked] for round_locked in locked or []]
    if all(map(all, free)):
        free = []  # nothing pinned: skip the check in the loop
    rand, exp = rng.random, math.exp
    first_sweep = int(swaps * _FIRST_SWEEP)
    temperature, cooling = _HOT, _cooling(first_sweep)
    for step in range(swaps):
        temperature *= cooling
        if step == first_sweep:
            temperature, cooling = _HOT, _cooling(swaps - first_sweep)
        r = int(rand() * n_rounds)
        tables = rounds[r]
        i, j = int(rand() * n), int(rand() * n)
        if seat_table[i] == seat_table[j] or (free and not (free[r][i] and free[r][j])):
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


# --- dealers and seat order (R4.3) ------------------------------------------------------------


def choose_first_dealers(tables: Sequence[Sequence[int]], *, seed: int) -> list[int]:
    """For each table, the seat index of its first dealer, drawn at random (R4.3)."""
    rng = random.Random(seed)
    return [rng.randrange(len(table)) for table in tables]


def order_seats(
    tables: Sequence[Sequence[int]],
    *,
    seed: int,
    duties: Mapping[int, SeatDuty] | None = None,
    pins: Mapping[int, Pin] | None = None,
    dealt: bool = True,
) -> tuple[list[list[int]], list[int]]:
    """Each table's seat order and the seat index of its first dealer.

    Where the game has a dealer (`dealt`), the first dealer is drawn among the players at the
    table who have dealt first least often (R4.3: the draw stays random, among them), and the
    player to the dealer's left, who plays first, among the others who have played first least
    often: over an event nobody is always the dealer or always first to play. Players pinned to
    a seat keep it; the others' seats are drawn. Without a dealer (Hand and Foot), the order is
    kept and the first dealer drawn, as `choose_first_dealers` does.
    """
    if not dealt:
        return [list(table) for table in tables], choose_first_dealers(tables, seed=seed)
    rng = random.Random(seed)
    duties, pins = duties or {}, pins or {}
    ordered, dealers = [], []
    for table in tables:
        seats, dealer = _order_table(list(table), rng, duties, pins)
        ordered.append(seats)
        dealers.append(dealer)
    return ordered, dealers


def _order_table(
    table: list[int], rng: random.Random, duties: Mapping[int, SeatDuty], pins: Mapping[int, Pin]
) -> tuple[list[int], int]:
    ticket = {player: rng.random() for player in table}
    duty = {player: duties.get(player, SeatDuty()) for player in table}
    dealer = min(table, key=lambda p: (duty[p].first_deals, duty[p].first_plays, ticket[p]))
    rest = [p for p in table if p != dealer]
    first = min(rest, key=lambda p: (duty[p].first_plays, duty[p].first_deals, ticket[p]))
    n = len(table)
    fixed = {pins[p].seat - 1: p for p in table if p in pins and pins[p].seat}
    start = rng.randrange(n)
    for step in range(n):
        at = (start + step) % n
        if _can_sit(dealer, at, fixed) and (n == 1 or _can_sit(first, (at + 1) % n, fixed)):
            break
    else:  # the pins leave no two neighbouring seats: the dealer where allowed, first whoever
        at = next(i for i in range(n) if _can_sit(dealer, i, fixed))
        first = fixed.get((at + 1) % n, first)
    seats: list[int | None] = [None] * n
    for position, player in fixed.items():
        seats[position] = player
    seats[at] = dealer
    if n > 1 and seats[(at + 1) % n] is None and first not in seats:
        seats[(at + 1) % n] = first
    others = [p for p in table if p not in seats]
    rng.shuffle(others)
    filler = iter(others)
    return [p if p is not None else next(filler) for p in seats], at


def _can_sit(player: int, position: int, fixed: Mapping[int, int]) -> bool:
    """Whether `player` may take `position`: it is theirs, or free and they have no fixed seat."""
    if position in fixed:
        return fixed[position] == player
    return player not in fixed.values()


# --- a whole event -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Every round of an event seated in advance; players are numbered 0..N-1. `design` names
    the design the plan follows, if any."""

    rounds: list[list[list[int]]]
    pairs_met_twice: int
    max_meetings: int
    design: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "pairs_met_twice": self.pairs_met_twice,
            "max_meetings": self.max_meetings,
            "design": self.design,
        }


def plan_event(
    players: int,
    rounds: int,
    *,
    seed: int,
    rules: Rules[Any] | Any | None = None,
    swaps: int | None = None,
    pins: Mapping[int, Pin] | None = None,
) -> Plan:
    """Seat players 0..`players`-1 for `rounds` rounds so that as few pairs as possible meet twice.

    Where a design fits the field, its rounds start the plan (its points drawn by the seed), and
    the plan reaches the optimum; rounds beyond the design, or a field no design fits, start
    from the greedy seating. The search then swaps players within any round, against the
    meetings of the whole plan, so an early round can still change to make room for a later one.
    Pinned players sit at their tables every round.
    """
    if rounds < 1:
        raise SeatingError(
            _("A tournament has at least one round (R12.1); {rounds} were asked for."),
            rounds=rounds,
        )
    plan_shape = table_plan(players, rules)
    if plan_shape.byes:
        raise SeatingError(
            _(
                "{players} players leave {byes} without a table each round: byes go to the lowest "
                "standing, which a plan made in advance cannot know. Seat the rounds one by one "
                "instead."
            ),
            players=players,
            byes=plan_shape.byes,
        )
    sizes = list(plan_shape.sizes)
    pinned = dict(pins or {})
    check_pins(pinned, sizes, sides=sides_word(rules_of(rules)))
    rng = random.Random(seed)
    everyone = list(range(players))
    meetings = [[0] * players for _ in range(players)]
    index = {player: player for player in everyone}
    started = _start_design(everyone, sizes, pinned, rounds, rng)
    place, used = started if started else (None, 0)
    design = designs.design_by_key(place.key) if place else None
    plan = []
    for number in range(rounds):
        if place is not None and number < used:
            groups = _design_groups(DesignPlace(place.key, number, place.points), everyone)
            seating = _fit(groups, sizes, pinned, meetings, index)
        else:
            seating = _greedy_tables(everyone, sizes, meetings, pinned)
        for table in seating:
            _add_meetings(table, meetings, 1)
        plan.append(seating)
    locked = [_locked(seating, set(pinned)) for seating in plan]
    budget = _budget(players * rounds) if swaps is None else swaps
    plan = _anneal(plan, meetings, rng, budget, 0, locked)
    repeats = MeetingHistory.from_rounds(plan).repeats()
    name = design.name if design is not None else None
    return Plan(plan, repeats.pairs_met_twice, repeats.max_meetings, name)


def seats_by_seed(seeded: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Players in seed order (best first) at tables of `sizes`, for a stage seated by standing:
    the seeds snake across the tables (1 2 3 3 2 1 …) so each table is as strong as the next,
    and each table seats its players in seed order, its best seed at seat 1. A full table is
    passed over."""
    if sum(sizes) != len(seeded):
        raise SeatingError(
            _("{players} players cannot fill tables of {sizes}."),
            players=len(seeded),
            sizes=list(sizes),
        )
    tables: list[list[int]] = [[] for _ in sizes]
    order = [*range(len(sizes)), *reversed(range(len(sizes)))]  # one snake's lap
    turn = 0
    for player in seeded:
        while len(tables[order[turn % len(order)]]) >= sizes[order[turn % len(order)]]:
            turn += 1
        tables[order[turn % len(order)]].append(player)
        turn += 1
    return tables
