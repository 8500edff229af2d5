"""Standings as derived data: computed from the stored results and rulings, kept as snapshots.

Terms
- **standings**: every entry of a tournament placed by its game (``Rules.rank``: Kalooki's
  R12.3 total then tie-breaks, Parcellus's match points, ...; level entries share a place), with
  the game's columns (``Rules.columns``). Each table's match is scored by the game
  (``Rules.match_result``) from its confirmed, scored deals (a void attempt scores nothing,
  R9.2), the points of rulings against its players counted as **adjustments** and a
  tie-break ruling as the side it **decided for**; an entry's stats are the stats of the side
  it sat in, summed over its rounds by the game.
- **live round**: a round in play (R12.1) with a table whose match is not over. While one is,
  the standings are **fair mid-round**: the live round counts up to the deal every table of it
  has completed (its **counted deals**, `counted_up_to`: "after game 3"), the same deals for
  everyone, and the rest of the round's points and deals show beside the place ("this round").
  A table behind schedule has played fewer deals, so raw totals mislead (lowest total wins
  Kalooki); counting the same deals at every table compares like with like, and changes the
  order from the first deal every table has played. Entries level on what counts share the
  place, and within it those who played more of the live round come first, then the better
  live points. A match's win (``Rules.match_win_stats``) counts once the match is over. Without
  a live round every deal counts.
- **counted total**: the **total** every page shows and the place is decided by: every
  completed round, and the live round's counted deals (`ranked_total` is the same number).
- **bye**: a round an entry sat out (`tables.Bye`). The game scores it by the tournament's bye
  rule (a bye round is None in the entry's ``StandingLine``; Parcellus PA7.2, Hand and Foot
  HF11.1). A bye is a round played: an entry whose only round so far is a bye is placed. While
  its round is live the bye waits (a bye scores a whole round, the others only its counted
  deals).
- **movement**: places gained (positive) or lost since the standings at the end of the previous
  round, i.e. counting only the rounds before the latest counted one with a result.
- **table standings**: the players of one table and their totals in that table's match so far
  (every deal confirmed there, counted or not yet).
- **snapshot**: one computation, stored with a **version** (1, 2, 3 …; the highest wins) and the
  **stamp** of the facts it was computed from; a computation from the same facts stores nothing.
- **counted rulings**: the ids of the rulings a computation read (`counted_rulings`; the highest
  is its **last ruling**). Whether a ruling is in the totals is whether the snapshot counted it,
  never a comparison of the clocks of the web process that decided it and the worker that
  computed them, nor of ids alone (an id is taken at insert, not at commit).

`standings_compute` reads each fact once and ranks in memory, so its cost stays close to reading
the rows (bench/bench_speed.py, bench/bench_standings.py). A game that scores a match from each
side's sums (``Rules.scores_from_sums``: Kalooki) has the database sum them, one row per side of
a table; the others' matches are scored from every result, each row read once.
`standings_refresh` stores a snapshot and puts it in the cache; `standings_current` is what
pages and the API read.
"""

import contextlib
import gc
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, connections, transaction
from django.db.models import Count, Max, Q, Sum, TextField, Value
from django.db.models.functions import Cast
from django.utils import timezone

from config.caches import BREAKDOWNS, MISSING, STANDINGS, STANDINGS_HEAD, STANDINGS_KEPT
from games.base import Column, DealScore, Rules, SideResult, SideScore, SideSums, StandingLine
from scoring.matches import deal_noun, ranking_words, side_count
from scoring.models import Deal, DealResult, Ruling, StandingsSnapshot
from scoring.signals import results_settled
from scoring.stage_standings import (
    Placed,
    final_order,
    stage_rankings,
    stages_data,
    stages_read,
)
from tables.models import Bye, Seat
from tournament.models import Entry, EntryMember, Round, Tournament
from tournament.stages import Stage

# Part of the stamp: goes up whenever a snapshot's data changes shape (a field added or read
# differently), so that the next refresh recomputes a snapshot stored in an older shape.
SNAPSHOT_SHAPE = 9


class StoredDetail(Mapping[str, Any]):
    """A result's breakdown as stored (JSON text), read when the game first looks at it: most
    games score a match from the points alone (Kalooki), so a tournament's tens of thousands of
    results are not decoded for nothing."""

    __slots__ = ("_text", "_value")

    def __init__(self, text: str | None) -> None:
        self._text, self._value = text, None

    def _read(self) -> dict[str, Any]:
        if self._value is None:
            self._value = _decoded(self._text or "{}")
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._read()[key]

    def get(self, key: str, default: Any = None) -> Any:  # the mixin's, without its try
        return self._read().get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


@BREAKDOWNS
def _decoded(text: str) -> dict[str, Any]:
    """A breakdown's JSON, decoded once per text: most deals of a game share a few (Kalooki's
    '{"down_and_out": false}'). Shared, so only read through `StoredDetail`'s mapping."""
    return json.loads(text)


@dataclass
class TableMatch:
    """One table's match as the standings read it: its sides' entries (in side order), its
    scored deals (confirmed ones apart: only they count), and the rulings that adjust it."""

    id: int
    round: int
    number: int
    sides: list[list[int]] = field(default_factory=list)  # side -> entries seated in it
    entered: dict[int, DealScore] = field(default_factory=dict)  # deal id -> every scored deal
    confirmed: set[int] = field(default_factory=set)  # the deal ids that count
    adjustments: dict[int, int] = field(default_factory=dict)  # side -> ruling points
    decided_for: int | None = None  # the side a tie-break ruling named
    time_called: bool = False  # the match ended when time was called (HF2.2)
    sums: list[SideSums] = field(default_factory=list)  # side -> its confirmed deals summed
    over: bool = True  # its match is over (read for the tables of rounds in play)
    up_to: int | None = None  # its round is live: the deals counted are those up to this one
    counted_sums: list[SideSums] = field(default_factory=list)  # side -> its counted deals summed
    places: list[int] = field(default_factory=list)  # side -> its place in the match, once scored

    @property
    def entries(self) -> list[int]:
        return [entry for side in self.sides for entry in side]

    def side_of(self, entry: int) -> int | None:
        return next((i for i, side in enumerate(self.sides) if entry in side), None)

    def played(self, confirmed_only: bool) -> list[DealScore]:
        deals = sorted(self.entered.items(), key=lambda item: item[1].number)
        return [deal for pk, deal in deals if not confirmed_only or pk in self.confirmed]

    def counted(self) -> int:
        return len(self.confirmed)

    def completed(self) -> int:
        """The deals confirmed from the first without a gap: 3 when deals 1 to 3 are."""
        numbers = {self.entered[pk].number for pk in self.confirmed}
        done = 0
        while done + 1 in numbers:
            done += 1
        return done

    def counted_deals(self, played: list[DealScore]) -> list[DealScore]:
        """Of its confirmed deals `played`, those the standings count (`up_to`)."""
        if self.up_to is None:
            return played
        return [deal for deal in played if deal.number <= self.up_to]


@dataclass
class Tally:
    """One entry's tournament so far: per round, the stats of the side it sat in over the
    counted deals, and the live rounds' points over every deal played (`shown`)."""

    entry: int
    player: str
    club: str
    status: str
    rounds: dict[int, dict[str, int]] = field(default_factory=dict)  # round -> counted stats
    played: dict[int, int] = field(default_factory=dict)  # round -> deals played
    shown: dict[int, int] = field(default_factory=dict)  # live round -> points, every deal
    live: frozenset[int] = frozenset()  # the rounds in play
    current: int | None = None  # the round shown as "this round": the live one, else the latest
    ruling_points: int = 0
    last_game: int | None = None  # the points of the last deal played
    last_game_at: tuple[int, int] = (0, 0)  # (round, deal) of the last deal played
    byes: set[int] = field(default_factory=set)  # the rounds it sat out
    stats: dict[str, int] = field(default_factory=dict)  # summed by the game, as counted
    place: int | None = None
    shared: bool = False
    movement: int | None = None

    key: str = field(init=False)  # unique, and sorts level entries by name

    def __post_init__(self) -> None:
        self.key = f"{self.player}\x00{self.entry}"

    def points(self, round: int) -> int:
        """The counted points of `round`."""
        return self.rounds.get(round, {}).get("total", 0)

    def shown_points(self, round: int) -> int:
        """The points of `round` over every deal played: what its table shows."""
        return self.shown.get(round, self.points(round))

    @property
    def games_played(self) -> int:
        return sum(self.played.values())

    @property
    def live_points(self) -> int:
        return sum(self.shown_points(round) for round in self.played if round in self.live)

    @property
    def live_games(self) -> int:
        return sum(deals for round, deals in self.played.items() if round in self.live)

    def counted_rounds(self, up_to_round: int | None = None) -> list[int]:
        """The rounds that count, in order: those with counted deals, and the byes of rounds
        not live (a live round's bye waits with the round)."""
        rounds = set(self.rounds) | {r for r in self.byes if r not in self.live}
        return sorted(r for r in rounds if up_to_round is None or r <= up_to_round)

    @property
    def has_played(self) -> bool:
        """Whether the entry has something to be placed by: a counted deal, or a bye."""
        return bool(self.counted_rounds())

    def line(self, up_to_round: int | None = None) -> StandingLine:
        """The game's standing line of this entry over the rounds that count."""
        played = self.counted_rounds(up_to_round)
        return StandingLine(self.key, tuple([self.rounds.get(r) for r in played]))

    def add_deals(self, round: int, count: int, last: int, points: int) -> None:
        """`count` deals played in `round`, the last of them deal `last`, scoring `points`."""
        self.played[round] = self.played.get(round, 0) + count
        if (round, last) >= self.last_game_at:
            self.last_game_at, self.last_game = (round, last), points

    @property
    def total(self) -> int:
        """The counted total: the game's (its bye rule, its rulings), else the rounds' sum."""
        if "total" in self.stats:
            return self.stats["total"]
        return sum(self.points(r) for r in self.rounds)

    def as_row(self) -> dict[str, Any]:
        rounds = {number: self.points(number) for number in sorted(self.rounds)}
        total = self.total
        return {
            "entry": self.entry,
            "player": self.player,
            "club": self.club,
            "status": self.status,
            "rounds": {str(number): points for number, points in rounds.items()},
            "byes": sorted(self.byes),
            "stats": self.stats,
            "ranked_stats": self.stats,  # the same: the stats shown are those that place
            "games_played": self.games_played,
            "ruling_points": self.ruling_points,
            "last_game": self.last_game,
            "place": self.place,
            "shared": self.shared,
            "movement": self.movement,
            "total": total,
            "ranked_total": total,  # the same: one total on every page
            "live_points": self.live_points,
            "live_games": self.live_games,
            "round_points": self.shown_points(self.current) if self.current else 0,
            "round_games": self.played.get(self.current, 0) if self.current else 0,
            "round_bye": self.current in self.byes,
        }


@dataclass(frozen=True)
class RulingRow:
    """One ruling as the standings read it; most carry no points (warnings, seating changes)."""

    id: int
    kind: str
    entry: int | None
    round: int | None  # the round its points count in: the ruling's, else its table's
    table: int | None
    points: int
    reverses: int | None


def standings_compute(*, tournament: Tournament) -> dict[str, Any]:
    """The tournament's standings, per table and overall, as JSON-ready data (8 queries at
    most, whatever the tournament's size)."""
    with _collector_paused():
        return _compute(tournament)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while the standings are built: the hundreds of
    thousands of short-lived objects of a big tournament set it off again and again, for
    nothing (they hold no cycles)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _compute(tournament: Tournament) -> dict[str, Any]:
    rules = tournament.rules()
    rulings = _ruling_rows(tournament)
    tables = _tables(tournament, rules)
    tallies = _tallies(tournament, teams=rules.shape().members > 1)
    _read_byes(tournament, tallies)
    live = _unfinished(rules, live_rounds(tournament=tournament), tables)
    up_to = _counted_up_to(live, tables)
    if rules.scores_from_sums:
        _read_sums(tournament, tables, rules.sums_flag, up_to)
    _apply_rulings(tables, tallies, rulings)
    _score_matches(rules, tables, tallies, live)
    latest = max((r for tally in tallies.values() for r in _rounds(tally)), default=None)
    for tally in tallies.values():
        tally.live, tally.current = live, max(live, default=latest)
    counted = [r for tally in tallies.values() for r in tally.counted_rounds()]
    _place(rules, tallies, max(counted, default=None))
    players = sorted(tallies.values(), key=lambda tally: _order(tally, rules.higher_wins))
    rows, stages = _staged(rules, tournament, tallies, [tally.as_row() for tally in players])
    return {
        "tournament": tournament.slug,
        "game": rules.game.key,
        "higher_wins": rules.higher_wins,
        "deal_noun": deal_noun(rules, 2),
        "columns": [_column(column) for column in rules.columns()],
        "ranking": ranking_words(rules),
        "latest_round": latest,
        "live_rounds": sorted(live),
        "current_round": max(live, default=latest),
        "counted_up_to": {str(round): deals for round, deals in sorted(up_to.items())},
        "counted_words": counted_words(rules, up_to),
        "players": rows,
        "stages": stages,
        "tables": [_table_row(table, tallies) for table in tables.values()],
        "last_ruling_id": max((ruling.id for ruling in rulings), default=None),
        # Ids are taken at insert, not at commit: ruling 10 may commit after ruling 11, so the
        # newest id alone does not say which rulings a snapshot counts.
        "counted_rulings": sorted(ruling.id for ruling in rulings),
    }


def _staged(
    rules: Rules[Any], tournament: Tournament, tallies: dict[int, Tally], rows: list[dict]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """With stages cut (`scoring.stage_standings`): the rows in the final standings' order,
    the furthest stage's entrants first, each with its overall place and furthest stage."""
    stages, seeds = stages_read(tournament.pk)
    if not stages:
        return rows, []
    ranked = stage_rankings(rules, tallies, stages, seeds)
    if len(ranked) > 1:  # a cut is made: the final standings' order
        rows = _final_rows(rows, final_order(stages, ranked), seeds)
    return rows, stages_data(stages, seeds, ranked)


def _final_rows(
    rows: list[dict[str, Any]], placed: list[Placed], seeds: dict[int, dict[int, int]]
) -> list[dict[str, Any]]:
    """The rows in the final standings' order. An entrant of a later stage is ranked by that
    stage's total and moves from its seed; across a cut, the others' movement means nothing."""
    by_entry = {row["entry"]: row for row in rows}
    for entry, place, shared, stage, total in placed:
        seed = seeds.get(stage, {}).get(entry)
        moved = seed - place if seed is not None and total is not None else None
        by_entry[entry] |= {"place": place, "shared": shared, "stage": stage, "movement": moved}
        if stage > 1 and total is not None:
            by_entry[entry]["ranked_total"] = total
    listed = {row.entry for row in placed}
    return [by_entry[row.entry] for row in placed] + [r for r in rows if r["entry"] not in listed]


def _column(column: Column) -> dict[str, Any]:
    return {
        "stat": column.stat,
        "label": column.label,
        "higher_is_better": column.higher_is_better,
        "help": column.help,
    }


def live_rounds(*, tournament: Tournament) -> frozenset[int]:
    """The numbers of the tournament's rounds in play (1 query)."""
    rounds = Round.objects.filter(tournament=tournament, status=Round.Status.IN_PLAY)
    return frozenset(rounds.values_list("number", flat=True))


def _counted_up_to(live: frozenset[int], tables: dict[int, TableMatch]) -> dict[int, int]:
    """Each live round's counted deals: up to the one every table still playing has completed
    (a table whose match is over counts all it played, up to that deal). Each of its tables
    learns it (`TableMatch.up_to`)."""
    up_to: dict[int, int] = {}
    for table in tables.values():
        if table.round in live and not table.over:
            up_to[table.round] = min(up_to.get(table.round, table.completed()), table.completed())
    for table in tables.values():
        if table.round in up_to:
            table.up_to = up_to[table.round]
    return up_to


def counted_words(rules: Rules[Any], up_to: Mapping[int, int]) -> str:
    """What the places count while a round is live, in the game's words: "Round 2 counts up to
    game 3, which every table has played"; "" when every deal counts."""
    if not up_to:
        return ""
    round, deals = max(up_to.items())
    noun = deal_noun(rules)
    if not deals:
        return f"Round {round} counts from when every table has played {noun} 1"
    return f"Round {round} counts up to {noun} {deals}, which every table has played"


def _unfinished(
    rules: Rules[Any], in_play: frozenset[int], tables: dict[int, TableMatch]
) -> frozenset[int]:
    """The rounds in play with a table whose match is not over: the live rounds. Once every
    table has finished, everyone has played their match and the round counts."""
    for table in tables.values():
        if table.round in in_play:
            played = table.played(confirmed_only=False)
            table.over = rules.match_over(played, time_called=table.time_called)
    return frozenset(t.round for t in tables.values() if t.round in in_play and not t.over)


def _tables(tournament: Tournament, rules: Rules[Any]) -> dict[int, TableMatch]:
    """Every table with its sides (from its seats) and its scored deals (2 queries)."""
    seats = Seat.objects.filter(round__tournament=tournament).order_by(
        "round__number", "table__number", "position"
    )
    seated: dict[int, list[int]] = defaultdict(list)
    tables: dict[int, TableMatch] = {}
    for table_id, round, number, entry, called in _rows(  # `called`: only whether it is set
        seats.values_list(
            "table_id", "round__number", "table__number", "entry_id", "table__time_called_at"
        )
    ):
        if table_id not in tables:  # made once, not once per seat
            tables[table_id] = TableMatch(table_id, round, number, time_called=bool(called))
        seated[table_id].append(entry)
    for table_id, entries in seated.items():
        count = max(side_count(rules, len(entries)), 1)
        tables[table_id].sides = [entries[side::count] for side in range(count)]
    if rules.scores_from_sums:
        _read_deal_numbers(tournament, tables)
    else:
        _read_deals(tournament, tables)
    return tables


def _read_deals(tournament: Tournament, tables: dict[int, TableMatch]) -> None:
    """Every scored deal, and its results, once each (void attempts score nothing and are not
    read): two queries, a deal's own detail read once, not once per side. The rows come straight
    from the cursor (`_rows`): tens of thousands of them, where the ORM's per-row work would
    cost more than the read itself."""
    deals = (
        Deal.objects.filter(table__round__tournament=tournament, is_void=False)
        .order_by()  # in any order: a deal's rows are gathered by id
        .annotate(stored=Cast("detail", TextField()))
        .values_list("pk", "table_id", "number", "status", "stored")
    )
    found: dict[int, tuple[TableMatch, int, StoredDetail, list]] = {}
    confirmed = Deal.Status.CONFIRMED.value
    details: dict[str | None, StoredDetail] = {}  # one per text: a breakdown is read-only
    for deal_id, table_id, number, status, stored in _rows(deals):
        table = tables.get(table_id)
        if table is None:
            continue  # a table without seats: nobody's standings
        detail = details.get(stored)  # not `or`: an empty mapping is falsy, and asking decodes
        if detail is None:
            detail = details[stored] = StoredDetail(stored)
        found[deal_id] = (table, number, detail, [])
        if status == confirmed:
            table.confirmed.add(deal_id)
    results = (
        DealResult.objects.filter(deal__table__round__tournament=tournament, deal__is_void=False)
        .order_by()  # sorted by side per deal below, not by the database
        .annotate(stored=Cast("detail", TextField()))
        .values_list("deal_id", "side", "points", "went_out", "stored")
    )
    scores: dict[tuple, SideScore] = {}  # one per (points, out, breakdown): they are frozen
    for deal_id, side, points, went_out, stored in _rows(results):
        deal = found.get(deal_id)
        if deal is None:
            continue  # a deal of a table without seats
        score = scores.get(key := (points, went_out, stored))
        if score is None:
            score = scores[key] = SideScore(points, bool(went_out), (), StoredDetail(stored))
        deal[3].append((side, score))
    for deal_id, (table, number, detail, sides) in found.items():
        sides.sort(key=itemgetter(0))  # by side
        table.entered[deal_id] = DealScore(number, tuple([s for _, s in sides]), detail=detail)


def _read_deal_numbers(tournament: Tournament, tables: dict[int, TableMatch]) -> None:
    """For a game that scores a match from sums (`Rules.scores_from_sums`, Kalooki): every
    scored deal without its results, and the results of each table's last confirmed deal only
    (two queries); `_read_sums` sums the sides. A match's results are read as one row per side
    instead of one per side of each deal: a ninth as many in a set of nine games."""
    scored = Deal.objects.filter(table__round__tournament=tournament, is_void=False).order_by()
    confirmed = Deal.Status.CONFIRMED.value
    unread: dict[int, DealScore] = {}  # deal number -> the deal, its results unread: one each
    last: dict[int, tuple[int, int]] = {}  # table -> (number, id) of its last confirmed deal
    for deal_id, table_id, number, status in _rows(
        scored.values_list("pk", "table_id", "number", "status")
    ):
        table = tables.get(table_id)
        if table is None:
            continue  # a table without seats: nobody's standings
        deal = unread.get(number)
        if deal is None:
            deal = unread[number] = DealScore(number, ())
        table.entered[deal_id] = deal
        if status == confirmed:
            table.confirmed.add(deal_id)
            last[table_id] = max(last.get(table_id, (0, 0)), (number, deal_id))
    _read_last_deals({deal_id: tables[table_id] for table_id, (_, deal_id) in last.items()})


def _read_sums(
    tournament: Tournament, tables: dict[int, TableMatch], flag: str | None, up_to: dict
) -> None:
    """Each side's confirmed deals summed by the database, and its counted deals (`up_to`, the
    live rounds') beside them, in one query."""
    confirmed = Deal.Status.CONFIRMED.value
    results = DealResult.objects.filter(
        deal__table__round__tournament=tournament, deal__is_void=False, deal__status=confirmed
    )
    for table_id, side, *figures in _summed_sides(results, flag, _counted_filter(up_to)):
        if table_id in tables:
            table = tables[table_id]
            for sums, (points, out, flagged) in (
                (table.sums, figures[:3]),
                (table.counted_sums, figures[3:] or figures[:3]),
            ):
                sums += [_UNSUMMED] * (side + 1 - len(sums))
                sums[side] = SideSums(points or 0, out, flagged)


def _counted_filter(up_to: dict[int, int]) -> Q | None:
    """The results the standings count while rounds are live (`up_to`), None when all are."""
    if not up_to:
        return None
    counted = ~Q(deal__table__round__number__in=list(up_to))
    for round, deals in up_to.items():
        counted |= Q(deal__table__round__number=round, deal__number__lte=deals)
    return counted


_UNSUMMED = SideSums()  # a side without a confirmed deal (frozen: one for all)


def _summed_sides(results: Any, flag: str | None, counted: Q | None = None) -> list[tuple]:
    """(table, side, points, deals gone out in, of those flagged) of `results`, summed by the
    database, and the same three of the `counted` ones when given: plain whole numbers, read
    from the cursor (`_rows`)."""
    out = Q(went_out=True)
    down = out & Q(**{f"deal__detail__{flag}": True}) if flag else None
    sums = _sums(out, down)
    if counted is not None:
        sums |= {f"counted_{name}": value for name, value in _sums(out, down, counted).items()}
    summed = results.order_by().values_list("deal__table_id", "side").annotate(**sums)
    return _rows(summed)


def _sums(out: Q, down: Q | None, only: Q | None = None) -> dict[str, Any]:
    """The three sums of a side (`only` its results that match it, when given)."""
    both = (lambda q: q & only) if only is not None else (lambda q: q)
    return {
        "points_summed": Sum("points", filter=only),  # not `points`: the field's own name
        "out_summed": Count("pk", filter=both(out)),
        "flagged_summed": Count("pk", filter=both(down)) if down is not None else Value(0),
    }


def _read_last_deals(last: dict[int, TableMatch]) -> None:
    """The results of each table's last confirmed deal (`last`: its id -> the table): the last
    game's points of the standings (`Tally.last_game`). One query, by the deals' ids."""
    if not last:
        return
    results = DealResult.objects.filter(deal_id__in=list(last)).order_by()
    sides: dict[int, list[tuple[int, SideScore]]] = defaultdict(list)
    scores: dict[tuple, SideScore] = {}  # one per (points, out): they are frozen
    for deal_id, side, points, went_out in _rows(
        results.values_list("deal_id", "side", "points", "went_out")
    ):
        score = scores.get(key := (points, went_out))
        if score is None:
            score = scores[key] = SideScore(points, bool(went_out))
        sides[deal_id].append((side, score))
    for deal_id, table in last.items():
        scores = [score for _, score in sorted(sides[deal_id], key=itemgetter(0))]
        table.entered[deal_id] = DealScore(table.entered[deal_id].number, tuple(scores))


def _rows(query: Any) -> list[tuple]:
    """A values_list query's rows as the database sends them: its SQL, run on the cursor
    (only plain columns and text casts, which need no converter)."""
    sql, params = query.query.sql_with_params()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _tallies(tournament: Tournament, *, teams: bool = False) -> dict[int, Tally]:
    """Each entry by its name: a team's (HF1.2), with its partners where a player shows a club
    (one query more, in a game of partners only)."""
    entries = Entry.objects.filter(tournament=tournament).values_list(
        "pk", "team_name", "player__name", "player__club", "status"
    )
    partners = _partners(tournament) if teams else {}
    return {
        pk: Tally(pk, team or name, partners.get(pk, club), status)
        for pk, team, name, club, status in entries
    }


def _partners(tournament: Tournament) -> dict[int, str]:
    """Each team's partners' names, "Ann Lee & Cy Moss" (HF1.2)."""
    names: dict[int, list[str]] = defaultdict(list)
    members = EntryMember.objects.filter(entry__tournament=tournament).order_by("entry", "position")
    for entry, name in members.values_list("entry_id", "player__name"):
        names[entry].append(name)
    return {entry: " & ".join(found) for entry, found in names.items()}


def _read_byes(tournament: Tournament, tallies: dict[int, Tally]) -> None:
    """The rounds each entry sat out (1 query)."""
    byes = Bye.objects.filter(round__tournament=tournament).values_list("entry_id", "round__number")
    for entry, round in byes:
        if entry in tallies:
            tallies[entry].byes.add(round)


def _rounds(tally: Tally) -> set[int]:
    """The rounds an entry has played a deal in, has a result in, or sat out."""
    return set(tally.played) | set(tally.rounds) | tally.byes


def _apply_rulings(
    tables: dict[int, TableMatch], tallies: dict[int, Tally], rulings: list[RulingRow]
) -> None:
    """A ruling's points adjust its player's side at the table of its round (else of the
    player's latest round with a result, R12.4); a tie-break ruling that stands decides its
    table's tie for its player's side (PA7.5, HF10.2). A reversal decides nothing: it only takes
    the ruling it reverses back."""
    reversed_ids = {ruling.reverses for ruling in rulings if ruling.reverses}
    seated = {(t.round, entry): t for t in tables.values() for entry in t.entries}
    for ruling in rulings:
        if ruling.entry is None:
            continue
        table = _ruling_table(ruling, tables, seated)
        if ruling.points:
            tallies[ruling.entry].ruling_points += ruling.points
            _adjust(table, ruling, tallies[ruling.entry])
        elif table and _decides_tie(ruling, reversed_ids):
            table.decided_for = table.side_of(ruling.entry)


def _decides_tie(ruling: RulingRow, reversed_ids: set[int | None]) -> bool:
    """Whether `ruling` names a side the winner of its table's match: a tie-break ruling that
    stands (neither reversed nor itself a reversal)."""
    standing = ruling.id not in reversed_ids and ruling.reverses is None
    return ruling.kind == Ruling.Kind.TIE_BREAK and standing


def _ruling_table(
    ruling: RulingRow,
    tables: dict[int, TableMatch],
    seated: dict[tuple[int, int], TableMatch],
) -> TableMatch | None:
    if ruling.table in tables and ruling.entry in tables[ruling.table].entries:
        return tables[ruling.table]
    round = ruling.round
    if round is None:  # the player's latest round with a result
        played = [t.round for t in tables.values() if ruling.entry in t.entries and t.confirmed]
        round = max(played, default=None)
    return seated.get((round, ruling.entry)) if round is not None else None


def _adjust(table: TableMatch | None, ruling: RulingRow, tally: Tally) -> None:
    if table is None or not table.counted():
        # No match to count it in (no seat that round, or nothing confirmed there yet): the
        # points stand alone in the round, as the player's, until the table has results.
        round = ruling.round or 1
        stats = tally.rounds.setdefault(round, {"total": 0})
        stats["total"] = stats.get("total", 0) + ruling.points
        return
    side = table.side_of(ruling.entry)
    table.adjustments[side] = table.adjustments.get(side, 0) + ruling.points


def _score_matches(
    rules: Rules[Any], tables: dict[int, TableMatch], tallies: dict, live: frozenset[int]
) -> None:
    """Each table's match result by the game, over its counted deals; each entry takes its
    side's stats. A live round's table also shows its points over every deal (`Tally.shown`)."""
    for table in tables.values():
        if not table.counted():
            continue  # nothing confirmed yet: the match does not count for anyone
        played = table.played(confirmed_only=True)
        counted = table.counted_deals(played)
        results = _counted_result(rules, table, counted, live)
        table.places = [result.place for result in results] if results else []
        last = played[-1]  # the deals are in order (`TableMatch.played`)
        shown = _match_result(rules, table, played) if table.up_to is not None else None
        for index, side in enumerate(table.sides):
            points = last.sides[index].points
            for entry in side:
                tally = tallies[entry]
                _take(tally, table.round, results[index].stats if results else None)
                tally.add_deals(table.round, len(played), last.number, points)
                if shown is not None:
                    tally.shown[table.round] = shown[index].total


def _counted_result(
    rules: Rules[Any], table: TableMatch, counted: list[DealScore], live: frozenset[int]
) -> tuple[SideResult, ...] | None:
    """The match over its counted deals, its win counted only once it is over; None when
    nothing counts yet (a ruling's points then stand alone in the round)."""
    if not counted:
        return _adjustments_only(table)
    if table.up_to is None:
        results = _match_result(rules, table, counted)
    else:  # partial: some of its deals wait for the other tables (a ruling then decides nothing)
        partial = len(counted) < table.counted()
        results = _match_result(rules, table, counted, table.counted_sums, partial=partial)
    if table.round not in live or (table.over and len(counted) == table.counted()):
        return results
    unwon = dict.fromkeys(rules.match_win_stats, 0)
    return tuple(replace(r, won=False, stats={**r.stats, **unwon}) for r in results)


def _adjustments_only(table: TableMatch) -> tuple[SideResult, ...] | None:
    if not table.adjustments:
        return None
    points = [table.adjustments.get(side, 0) for side in range(len(table.sides))]
    return tuple(SideResult(1, False, {"total": p}) for p in points)


def _match_result(
    rules: Rules[Any],
    table: TableMatch,
    played: list[DealScore],
    sums: list[SideSums] | None = None,
    partial: bool = False,
) -> tuple[SideResult, ...]:
    """The table's match by the game: from its sides' sums when the game scores by them
    (`_read_sums`; `sums`, else all its confirmed deals'), else from the deals `played`. A
    `partial` match (its counted deals only) is not over: no tie-break ruling, no time called."""
    how = {
        "adjustments": [table.adjustments.get(side, 0) for side in range(len(table.sides))],
        "decided_for": None if partial else table.decided_for,
        "time_called": table.time_called and not partial,
    }
    if rules.scores_from_sums:
        return rules.match_result_from_sums(table.sums if sums is None else sums, **how)
    return rules.match_result(played, **how)


def _take(tally: Tally, round: int, stats: Any) -> None:
    """The entry's share of its table's match: its side's stats (None: nothing counted yet).
    The side's stats are shared by its members: each entry keeps its own copy."""
    if stats is None:
        return
    mine = tally.rounds.get(round)
    if mine is None:
        tally.rounds[round] = dict(stats)
    else:  # the entry's own dict already: a ruling's points, or another table that round
        for stat, value in stats.items():
            mine[stat] = mine.get(stat, 0) + value


def _table_row(table: TableMatch, tallies: dict[int, Tally]) -> dict[str, Any]:
    return {
        "round": table.round,
        "table": table.number,
        "games_played": len(table.entered),
        # The match's order, what ratings read: each side's entries and its place (1 best).
        "sides": [
            {"entries": side, "place": place}
            for side, place in zip(table.sides, table.places, strict=False)
        ],
        "seats": [
            {"entry": entry, "total": tallies[entry].shown_points(table.round)}
            for entry in _seat_order(table)
        ],
    }


def _seat_order(table: TableMatch) -> list[int]:
    """The entries in seat order: member by member, side by side (partners sit opposite)."""
    members = max((len(side) for side in table.sides), default=0)
    return [side[m] for m in range(members) for side in table.sides if m < len(side)]


def _ruling_rows(tournament: Tournament) -> list[RulingRow]:
    """Every ruling of the tournament, points or not, in one read: the snapshot's counted
    rulings must come from the same read as the points it counts."""
    rulings = (
        Ruling.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list(
            "pk",
            "kind",
            "entry_id",
            "round__number",
            "table__round__number",
            "table_id",
            "points",
            "reverses_id",
        )
    )
    return [
        RulingRow(pk, kind, entry, round or table_round, table, points, reverses)
        for pk, kind, entry, round, table_round, table, points, reverses in rulings
    ]


def _place(rules: Rules[Any], tallies: dict[int, Tally], latest: int | None) -> None:
    """Places now over what counts (`Tally.line`), by the game's ranking, and the movement
    since the end of the round before the latest that counts (`latest`)."""
    ranked = [t for t in tallies.values() if t.has_played and t.status != "disqualified"]
    placings = rules.rank([tally.line() for tally in ranked])
    by_key = {tally.key: tally for tally in tallies.values()}
    every = {placing.key: placing.stats for placing in placings}
    others = [tally.line() for tally in tallies.values() if tally.key not in every]
    if others:
        every |= rules.stats(others)
    for key, stats in every.items():
        by_key[key].stats = dict(stats)
    for placing in placings:
        tally = by_key[placing.key]
        tally.place, tally.shared = placing.place, placing.shared
    if latest is None or latest <= 1:
        return
    before = [t for t in ranked if t.counted_rounds(latest - 1)]
    for placing in rules.rank([tally.line(latest - 1) for tally in before]):
        tally = by_key[placing.key]
        tally.movement = placing.place - tally.place


def _order(tally: Tally, higher_wins: bool) -> tuple:
    """Placed entries by place, then the unplaced (nothing counted yet, then disqualified).
    Within a shared place, or among the unplaced, who played more of the live round first,
    then the better live points: a table behind schedule never lists its players above level
    players who played more."""
    unplaced = tally.place is None
    points = -tally.live_points if higher_wins else tally.live_points
    out = tally.status == "disqualified"
    return (unplaced, out, tally.place or 0, -tally.live_games, points, tally.player.casefold(),
            tally.entry)  # fmt: skip


def standing_order(*, tournament: Tournament) -> list[int]:
    """The placed entries' ids, best first, computed now from the stored facts: what seating
    reads to give byes to the lowest standing."""
    players = standings_compute(tournament=tournament)["players"]
    return [row["entry"] for row in players if row["place"] is not None]


# --- snapshots ---------------------------------------------------------------------------------


def standings_stamp(*, tournament: Tournament) -> str:
    """A fingerprint of every fact the standings depend on: when any changes, so does this."""
    games = Deal.objects.filter(table__round__tournament=tournament).aggregate(
        n=Count("id"), at=Max("updated_at"), versions=Max("version")
    )
    rulings = Ruling.objects.filter(tournament=tournament).aggregate(n=Count("id"), last=Max("id"))
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        n=Count("id"),
        at=Max("status_changed_at"),
        seated=Count("seats"),
        # Time called at a table ends its match (HF2.2): its round may count now.
        called=Count("seats__table__time_called_at"),
        called_at=Max("seats__table__time_called_at"),
    )
    byes = Bye.objects.filter(round__tournament=tournament).values_list("round__number", "entry_id")
    entries["byes"] = sorted(byes)
    entries["stages"] = _stage_facts(tournament)
    at = games["at"].isoformat() if games["at"] else "-"
    parts = [SNAPSHOT_SHAPE, games["n"], at, games["versions"], rulings["n"], rulings["last"]]
    parts += [sorted(live_rounds(tournament=tournament))]  # a round completed re-ranks
    parts += entries.values()
    return hashlib.sha256(":".join(str(part) for part in parts).encode()).hexdigest()


def _stage_facts(tournament: Tournament) -> list[tuple]:
    """The stages' settings and cuts, as the stamp reads them (one query)."""
    stages = Stage.objects.filter(tournament=tournament).annotate(cut=Count("entrants"))
    fields = ("number", "kind", "rounds", "size", "scoring", "carry_percent", "seats", "cut")
    return list(stages.order_by("number").values_list(*fields))


def standings_refresh(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute from the stored facts and store a new snapshot if anything changed.

    Safe to run twice or concurrently: the same facts store nothing new, and two runs racing for
    one version number leave one snapshot (the loser reads the winner's)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    stamp = standings_stamp(tournament=tournament)
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    if latest is None or latest.source_stamp != stamp:
        latest = _store(tournament, stamp, (latest.version if latest else 0) + 1)
        results_settled.send(sender=StandingsSnapshot, tournament_id=tournament.pk)
    _cache_put(latest)
    return latest


def _store(tournament: Tournament, stamp: str, version: int) -> StandingsSnapshot:
    data = standings_compute(tournament=tournament)
    data["version"], data["computed_at"] = version, timezone.now().isoformat()
    try:
        with transaction.atomic():
            return StandingsSnapshot.objects.create(
                tournament=tournament,
                version=version,
                source_stamp=stamp,
                last_ruling_id=data["last_ruling_id"],
                data=data,
            )
    except IntegrityError:  # another run stored this version first: theirs is as good
        return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version")[0]


def standings_forget(*, tournament_id: int, entries: set[int], name: str) -> None:
    """An erased person's name taken out of every snapshot of the tournament (rows of
    `entries` renamed `name`), and a new version stored, so that every cache and process
    moves on from the old ones."""
    snapshots = StandingsSnapshot.objects.select_for_update().filter(tournament_id=tournament_id)
    latest = None
    for snapshot in snapshots.order_by("version"):
        for row in snapshot.data.get("players", []):
            if row.get("entry") in entries:
                row["player"], row["club"] = name, ""
        snapshot.save(update_fields=["data"])
        latest = snapshot
    if latest is None:
        return
    tournament = Tournament.objects.get(pk=tournament_id)
    _cache_put(_store(tournament, standings_stamp(tournament=tournament), latest.version + 1))


def _cache_key(tournament_id: int) -> str:
    return STANDINGS.key_of(tournament=tournament_id)


def _head_key(tournament_id: int) -> str:
    return STANDINGS_HEAD.key_of(tournament=tournament_id)


def _head(data: dict[str, Any]) -> dict[str, Any]:
    """What tells one snapshot from another, a few bytes: its version and when it was made."""
    return {"version": data.get("version", 0), "computed_at": data.get("computed_at")}


def _cache_put(snapshot: StandingsSnapshot) -> None:
    """Cache the snapshot, and its head (`standings_head`) with it, unless a newer one is there
    already: the newest always wins."""
    key = _cache_key(snapshot.tournament_id)
    try:
        cached = cache.get(_head_key(snapshot.tournament_id))
        if cached is None or cached["version"] <= snapshot.version:
            head = {_head_key(snapshot.tournament_id): _head(snapshot.data)}
            cache.set_many({key: snapshot.data, **head}, STANDINGS.seconds)
    except Exception:
        return


def standings_head(
    *, tournament: Tournament, keep: Callable[[dict[str, Any]], None] | None = None
) -> dict[str, Any]:
    """The newest snapshot's version and time (`computed_at`), read without the standings
    themselves: what a client's ETag is compared with. From the cache, else as
    `standings_current` finds the standings (handed to `keep`, so they are read once)."""
    try:
        head = cache.get(_head_key(tournament.pk))
    except Exception:
        head = None
    if head is not None:
        return head
    standings = standings_current(tournament=tournament)
    if keep is not None:
        keep(standings)
    head = _head(standings)
    with contextlib.suppress(Exception):
        cache.add(_head_key(tournament.pk), head, STANDINGS_HEAD.seconds)
    return head


def standings_kept(*, tournament: Tournament) -> dict[str, Any]:
    """`standings_current`, read from the cache once per version in each process
    (`standings.kept`): each call asks the cache only for the head (`standings_head`)."""
    keep = lambda data: standings_keep(tournament_id=tournament.pk, standings=data)  # noqa: E731
    head = standings_head(tournament=tournament, keep=keep)
    kept = STANDINGS_KEPT.get(tournament.pk, (head["version"], head.get("computed_at")))
    if kept is not MISSING:
        return kept
    standings = standings_current(tournament=tournament)
    return standings_keep(tournament_id=tournament.pk, standings=standings)


def standings_keep(*, tournament_id: int, standings: dict[str, Any]) -> dict[str, Any]:
    """Keep `standings` in this process under their version (`standings.kept`)."""
    stamp = (standings.get("version", 0), standings.get("computed_at"))
    return STANDINGS_KEPT.put(tournament_id, stamp, standings)


def standings_current(*, tournament: Tournament) -> dict[str, Any]:
    """The newest standings for pages and the API: from the cache, else the database, else
    computed now (the first time a tournament is shown)."""
    try:
        cached = cache.get(_cache_key(tournament.pk))
    except Exception:
        cached = None
    if cached is not None:
        return cached
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    if latest is None:
        latest = standings_refresh(tournament_id=tournament.pk)
    _cache_put(latest)
    return latest.data
