"""Standings as derived data: computed from the stored results and rulings, kept as snapshots.

Terms
- **standings**: every entry of a tournament placed by R12.3 (total, then the ruleset's
  tie-breaks; level players share a place). Only confirmed, scored games count (a void attempt
  scores nothing, R9.2), plus the points of rulings against the player (R12.4).
- **live round**: a round in play (R12.1) with a table that has not played its whole set. While
  one is, the standings are **fair mid-round**:
  players are placed by the rounds already completed only (their totals and tie-breaks, R12.3),
  and the live round's points and games played are shown beside them. A table behind schedule
  has played fewer games, so its players' raw totals are lower; counting them would put them
  above players who played more (lowest total wins). Players level on the completed rounds
  share the place, and within it those who played more of the live round come first, then the
  lower live points. Without a live round every round counts, as before.
- **ranked total**: the total the place is decided by: the completed rounds' while a round is
  live, else the whole total.
- **movement**: places gained (positive) or lost since the standings at the end of the previous
  round, i.e. counting only the rounds before the latest counted one with a result.
- **table standings**: the players of one table and their totals in that table's set so far.
- **snapshot**: one computation, stored with a **version** (1, 2, 3 …; the highest wins) and the
  **stamp** of the facts it was computed from; a computation from the same facts stores nothing.
- **counted rulings**: the ids of the rulings a computation read (`counted_rulings`; the highest
  is its **last ruling**). Whether a ruling is in the totals is whether the snapshot counted it,
  never a comparison of the clocks of the web process that decided it and the worker that
  computed them, nor of ids alone (an id is taken at insert, not at commit).

`standings_compute` reads every result row once and ranks in memory, so its cost stays close to
reading the rows (bench/bench_standings.py). `standings_refresh` stores a snapshot and puts it
in the cache; `standings_current` is what pages and the API read.
"""

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.utils import timezone

from games.kalooki import StandingLine, rank_standings
from scoring.models import Game, HandResult, Ruling, StandingsSnapshot
from tables.models import Seat
from tournament.models import Entry, Round, Tournament

CACHE_SECONDS = 24 * 3600
# Part of the stamp: goes up when a snapshot's data changes shape, so that the next refresh
# recomputes a snapshot stored in an older shape (2: `last_ruling_id` recorded; 3: the ids of
# the rulings counted, `counted_rulings`).
SNAPSHOT_SHAPE = 4  # 4: fair mid-round standings (live rounds apart)


@dataclass
class PlayerTally:
    """One entry's tournament so far, built up row by row."""

    entry: int
    player: str
    club: str
    status: str
    rounds: dict[int, int] = field(default_factory=dict)  # round -> points, rulings included
    played: dict[int, int] = field(default_factory=dict)  # round -> games played
    won: dict[int, int] = field(default_factory=dict)  # round -> games won (went out)
    doubled_out: dict[int, int] = field(default_factory=dict)  # round -> down-and-outs
    live: frozenset[int] = frozenset()  # the rounds in play, which do not decide the place
    current: int | None = None  # the round shown as "this round": the live one, else the latest
    ruling_points: int = 0
    last_game: int | None = None
    last_game_at: tuple[int, int] = (0, 0)  # (round, game) of the last game played
    place: int | None = None
    shared: bool = False
    movement: int | None = None

    @property
    def total(self) -> int:
        return sum(self.rounds.values())

    @property
    def games_played(self) -> int:
        return sum(self.played.values())

    @property
    def games_won(self) -> int:
        return sum(self.won.values())

    @property
    def down_and_outs(self) -> int:
        return sum(self.doubled_out.values())

    @property
    def live_points(self) -> int:
        return sum(points for round, points in self.rounds.items() if round in self.live)

    @property
    def live_games(self) -> int:
        return sum(games for round, games in self.played.items() if round in self.live)

    @property
    def ranked_total(self) -> int:
        return self.total - self.live_points

    def add_game(self, round: int, game: int, total: int, went_out: bool, doubled: bool) -> None:
        self.rounds[round] = self.rounds.get(round, 0) + total
        self.played[round] = self.played.get(round, 0) + 1
        self.won[round] = self.won.get(round, 0) + went_out
        self.doubled_out[round] = self.doubled_out.get(round, 0) + (went_out and doubled)
        if (round, game) >= self.last_game_at:
            self.last_game_at, self.last_game = (round, game), total

    def add_ruling(self, round: int | None, points: int) -> None:
        """A ruling's points count in its round, else in the player's latest (R12.4)."""
        round = round or max(self.rounds, default=1)
        self.ruling_points += points
        self.rounds[round] = self.rounds.get(round, 0) + points

    def counts(self, round: int, up_to_round: int | None = None) -> bool:
        """Whether `round` decides the place: not live, and not after `up_to_round`."""
        return round not in self.live and (up_to_round is None or round <= up_to_round)

    def line(self, up_to_round: int | None = None) -> StandingLine:
        """The R12.3 line of this player over the rounds that count (see `counts`)."""
        rounds = {r: p for r, p in self.rounds.items() if self.counts(r, up_to_round)}
        latest = max(rounds, default=None)
        return StandingLine(
            player=self.label,
            total=sum(rounds.values()),
            games_won=sum(n for r, n in self.won.items() if self.counts(r, up_to_round)),
            down_and_outs=sum(
                n for r, n in self.doubled_out.items() if self.counts(r, up_to_round)
            ),
            latest_round_score=rounds.get(latest, 0) if latest is not None else 0,
        )

    @property
    def label(self) -> str:
        return f"{self.player}\x00{self.entry}"  # unique, and sorts level players by name

    def as_row(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "player": self.player,
            "club": self.club,
            "status": self.status,
            "rounds": {str(number): points for number, points in sorted(self.rounds.items())},
            "games_played": self.games_played,
            "games_won": self.games_won,
            "down_and_outs": self.down_and_outs,
            "ruling_points": self.ruling_points,
            "last_game": self.last_game,
            "place": self.place,
            "shared": self.shared,
            "movement": self.movement,
            "total": self.total,
            "ranked_total": self.ranked_total,
            "live_points": self.live_points,
            "live_games": self.live_games,
            "round_points": self.rounds.get(self.current, 0) if self.current else 0,
            "round_games": self.played.get(self.current, 0) if self.current else 0,
        }


@dataclass(frozen=True)
class RulingRow:
    """One ruling as the standings read it; most carry no points (warnings, seating changes)."""

    id: int
    entry: int | None
    round: int | None  # the round its points count in: the ruling's, else its table's
    points: int


def standings_compute(*, tournament: Tournament) -> dict[str, Any]:
    """The tournament's standings, per table and overall, as JSON-ready data (6 queries)."""
    rulings = _ruling_rows(tournament)
    tallies = _tallies(tournament, rulings)
    tables = _tables(tournament, tallies)
    live = _unfinished(
        live_rounds(tournament=tournament), tables, len(tournament.rules().ruleset.games)
    )
    latest = max((r for tally in tallies.values() for r in tally.rounds), default=None)
    for tally in tallies.values():
        tally.live, tally.current = live, max(live, default=latest)
    counted = [r for tally in tallies.values() for r in tally.rounds if r not in live]
    _place(tournament, tallies, max(counted, default=None))
    players = sorted(tallies.values(), key=_order)
    return {
        "tournament": tournament.slug,
        "latest_round": latest,
        "live_rounds": sorted(live),
        "current_round": max(live, default=latest),
        "tie_breaks": list(tournament.rules().ruleset.tie_breaks),
        "players": [tally.as_row() for tally in players],
        "tables": tables,
        "last_ruling_id": max((ruling.id for ruling in rulings), default=None),
        # Ids are taken at insert, not at commit: ruling 10 may commit after ruling 11, so the
        # newest id alone does not say which rulings a snapshot counts.
        "counted_rulings": sorted(ruling.id for ruling in rulings),
    }


def live_rounds(*, tournament: Tournament) -> frozenset[int]:
    """The numbers of the tournament's rounds in play (1 query)."""
    rounds = Round.objects.filter(tournament=tournament, status=Round.Status.IN_PLAY)
    return frozenset(rounds.values_list("number", flat=True))


def _unfinished(
    in_play: frozenset[int], tables: list[dict[str, Any]], games: int
) -> frozenset[int]:
    """The rounds in play with a table that has not played its whole set: the live rounds. Once
    every table has played its set, everyone has played as many games and the round counts."""
    return frozenset(
        t["round"] for t in tables if t["round"] in in_play and t["games_played"] < games
    )


def _tallies(tournament: Tournament, rulings: list[RulingRow]) -> dict[int, PlayerTally]:
    entries = Entry.objects.filter(tournament=tournament).values_list(
        "pk", "player__name", "player__club", "status"
    )
    tallies = {pk: PlayerTally(pk, name, club, status) for pk, name, club, status in entries}
    for row in _result_rows(tournament):
        entry, round, game, total, went_out, doubled = row
        tallies[entry].add_game(round, game, total, went_out, doubled)
    for ruling in rulings:
        if ruling.entry is not None and ruling.points:
            tallies[ruling.entry].add_ruling(ruling.round, ruling.points)
    return tallies


def _result_rows(tournament: Tournament):
    """Every counted hand result, once: (entry, round, game, total, went out, down and out)."""
    return HandResult.objects.filter(
        game__table__round__tournament=tournament,
        game__is_void=False,
        game__status=Game.Status.CONFIRMED,
    ).values_list(
        "entry_id",
        "game__table__round__number",
        "game__number",
        "total",
        "went_out",
        "game__down_and_out",
    )


def _ruling_rows(tournament: Tournament) -> list[RulingRow]:
    """Every ruling of the tournament, points or not, in one read: the snapshot's counted
    rulings must come from the same read as the points it counts."""
    rulings = (
        Ruling.objects.filter(tournament=tournament)
        .order_by()
        .values_list("pk", "entry_id", "round__number", "table__round__number", "points")
    )
    return [
        RulingRow(pk, entry, round or table_round, points)
        for pk, entry, round, table_round, points in rulings
    ]


def _place(tournament: Tournament, tallies: dict[int, PlayerTally], latest: int | None) -> None:
    """Places now (R12.3) over the rounds that count (none live), and the movement since the end
    of the previous one of them (`latest`)."""
    ruleset = tournament.rules().ruleset
    ranked = [t for t in tallies.values() if t.games_played and t.status != "disqualified"]
    by_label = {tally.label: tally for tally in ranked}
    for placing in rank_standings([tally.line() for tally in ranked], ruleset):
        tally = by_label[placing.line.player]
        tally.place, tally.shared = placing.place, placing.shared
    if latest is None or latest <= 1:
        return
    before = [tally for tally in ranked if any(tally.counts(r, latest - 1) for r in tally.rounds)]
    for placing in rank_standings([tally.line(latest - 1) for tally in before], ruleset):
        tally = by_label[placing.line.player]
        tally.movement = placing.place - tally.place


def _order(tally: PlayerTally) -> tuple:
    """Placed players by place, then the unplaced (not played yet, disqualified) by name. Within
    a shared place, who played more of the live round first, then the lower live points: a
    table behind schedule never lists its players above level players who played more."""
    unplaced = tally.place is None
    live = (-tally.live_games, tally.live_points)
    return (unplaced, tally.place or 0, *live, tally.player.casefold(), tally.entry)


def _tables(tournament: Tournament, tallies: dict[int, PlayerTally]) -> list[dict[str, Any]]:
    """Each table's set so far: its players in seat order and their totals at that table."""
    seats = Seat.objects.filter(round__tournament=tournament).order_by(
        "round__number", "table__number", "position"
    )
    played = dict(
        Game.objects.filter(table__round__tournament=tournament, is_void=False)
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    tables: dict[int, dict[str, Any]] = {}
    for table_id, round, number, entry in seats.values_list(
        "table_id", "round__number", "table__number", "entry_id"
    ):
        table = tables.setdefault(
            table_id,
            {"round": round, "table": number, "games_played": played.get(table_id, 0), "seats": []},
        )
        table["seats"].append({"entry": entry, "total": tallies[entry].rounds.get(round, 0)})
    return list(tables.values())


# --- snapshots ---------------------------------------------------------------------------------


def standings_stamp(*, tournament: Tournament) -> str:
    """A fingerprint of every fact the standings depend on: when any changes, so does this."""
    games = Game.objects.filter(table__round__tournament=tournament).aggregate(
        n=Count("id"), at=Max("updated_at"), versions=Max("version")
    )
    rulings = Ruling.objects.filter(tournament=tournament).aggregate(n=Count("id"), last=Max("id"))
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        n=Count("id"), at=Max("status_changed_at"), seats=Count("seats")
    )
    at = games["at"].isoformat() if games["at"] else "-"
    parts = [SNAPSHOT_SHAPE, games["n"], at, games["versions"], rulings["n"], rulings["last"]]
    parts += [sorted(live_rounds(tournament=tournament))]  # a round completed re-ranks
    parts += entries.values()
    return hashlib.sha256(":".join(str(part) for part in parts).encode()).hexdigest()


def standings_refresh(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute from the stored facts and store a new snapshot if anything changed.

    Safe to run twice or concurrently: the same facts store nothing new, and two runs racing for
    one version number leave one snapshot (the loser reads the winner's)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    stamp = standings_stamp(tournament=tournament)
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    if latest is None or latest.source_stamp != stamp:
        latest = _store(tournament, stamp, (latest.version if latest else 0) + 1)
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


def _cache_key(tournament_id: int) -> str:
    return f"standings:{tournament_id}"


def _cache_put(snapshot: StandingsSnapshot) -> None:
    """Cache the snapshot unless a newer one is there already: the newest always wins."""
    key = _cache_key(snapshot.tournament_id)
    try:
        cached = cache.get(key)
        if cached is None or cached["version"] <= snapshot.version:
            cache.set(key, snapshot.data, CACHE_SECONDS)
    except Exception:
        return


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
