"""Reads for the director's round page, dashboard and rulings list, and the basic standings.

Each selector runs a fixed number of queries, whatever the number of players and tables:
`round_progress` 2 (3 if the round comes without its tournament), `standings_basic` 3,
`rulings_list` 1.

Terms
- progress of a table: how many of the set's games are scored (void attempts do not count,
  R9.2), when a result was last entered or corrected, how many results await confirmation, and
  how many were saved over a warning (flagged, R10.6, R10.7).
- standing: one player's tournament so far (R12.3): confirmed scored games only, plus the points
  of the rulings against them (R12.4), each ruling listed behind the number. The latest round is
  the latest round with a confirmed result; its score includes the rulings of that round (see
  `scoring.rulings` for the round of a ruling). Players who have played no game yet, and
  disqualified players, are listed after the placed players, without a place.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Max, Prefetch, Q, Sum

from scoring.models import Game, HandResult, Ruling
from scoring.rules import StandingLine, rank_standings
from tables.models import Seat
from tournament.models import Entry, Round, Tournament

# --- round progress --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    position: int
    entry_id: int
    player: str
    club: str
    is_first_dealer: bool


@dataclass(frozen=True)
class TableProgress:
    id: int
    number: int
    seats: tuple[SeatLine, ...]
    games_scored: int
    games_in_set: int
    last_entry_at: datetime | None
    pending: int
    flagged: int
    access_token: str
    signed_off_at: datetime | None

    @property
    def first_dealer(self) -> SeatLine | None:
        return next((seat for seat in self.seats if seat.is_first_dealer), None)

    @property
    def is_finished(self) -> bool:
        return self.games_scored >= self.games_in_set


def round_progress(*, round: Round) -> list[TableProgress]:
    """Every table of the round with its seats and progress, by table number (2 queries)."""
    games_in_set = len(round.tournament.rules().games)
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = (
        round.tables.annotate(
            games_scored=Count("games", filter=Q(games__is_void=False)),
            pending=Count("games", filter=Q(games__status=Game.Status.PENDING)),
            flagged=Count("games", filter=Q(games__is_flagged=True)),
            last_entry_at=Max("games__updated_at"),
        )
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    return [
        TableProgress(
            id=table.pk,
            number=table.number,
            seats=tuple(_seat_line(seat) for seat in table.seats.all()),
            games_scored=table.games_scored,
            games_in_set=games_in_set,
            last_entry_at=table.last_entry_at,
            pending=table.pending,
            flagged=table.flagged,
            access_token=table.access_token,
            signed_off_at=table.signed_off_at,
        )
        for table in tables
    ]


def _seat_line(seat: Seat) -> SeatLine:
    player = seat.entry.player
    return SeatLine(seat.position, seat.entry_id, player.name, player.club, seat.is_first_dealer)


# --- rulings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulingLine:
    id: int
    kind: str
    kind_label: str
    points: int
    decision: str
    reason: str
    decided_at: datetime
    decided_by: str
    player: str
    entry_id: int | None
    round_number: int | None
    table_number: int | None
    game_number: int | None
    reverses_id: int | None
    reversed_by_id: int | None


def rulings_list(*, tournament: Tournament) -> list[RulingLine]:
    """The tournament's rulings, newest first, each linked to its reversal (1 query)."""
    rulings = list(
        Ruling.objects.filter(tournament=tournament)
        .select_related("entry__player", "round", "table", "game", "decided_by")
        .order_by("-decided_at", "-id")
    )
    return _ruling_lines(rulings)


def ruling_get(*, ruling: Ruling) -> RulingLine:
    """One ruling as the rulings list shows it (2 queries)."""
    found = Ruling.objects.select_related(
        "entry__player", "round", "table", "game", "decided_by"
    ).get(pk=ruling.pk)
    later = found.reversed_by.values_list("pk", flat=True).first()
    return _ruling_line(found, later)


def _ruling_lines(rulings: list[Ruling]) -> list[RulingLine]:
    reversed_by = {ruling.reverses_id: ruling.pk for ruling in rulings if ruling.reverses_id}
    return [_ruling_line(ruling, reversed_by.get(ruling.pk)) for ruling in rulings]


def _ruling_line(ruling: Ruling, reversed_by_id: int | None) -> RulingLine:
    return RulingLine(
        id=ruling.pk,
        kind=ruling.kind,
        kind_label=ruling.get_kind_display(),
        points=ruling.points,
        decision=ruling.decision,
        reason=ruling.reason,
        decided_at=ruling.decided_at,
        decided_by=ruling.decided_by.get_username() if ruling.decided_by else "",
        player=ruling.entry.player.name if ruling.entry else "",
        entry_id=ruling.entry_id,
        round_number=ruling.round.number if ruling.round else None,
        table_number=ruling.table.number if ruling.table else None,
        game_number=ruling.game.number if ruling.game else None,
        reverses_id=ruling.reverses_id,
        reversed_by_id=reversed_by_id,
    )


# --- standings (R12.3) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    place: int | None  # None: not placed (no game played yet, or disqualified)
    shared: bool
    entry_id: int
    player: str
    club: str
    status: str
    status_label: str
    games_played: int
    games_won: int
    down_and_outs: int
    result_points: int  # sum of game scores (R8.5) over confirmed scored games
    ruling_points: int
    latest_round_score: int
    rulings: tuple[RulingLine, ...]

    @property
    def total(self) -> int:
        return self.result_points + self.ruling_points


@dataclass
class _Tally:
    games_played: int = 0
    games_won: int = 0
    down_and_outs: int = 0
    result_points: int = 0
    ruling_points: int = 0
    latest_round_score: int = 0
    rulings: list[RulingLine] = field(default_factory=list)


def standings_basic(*, tournament: Tournament) -> list[Standing]:
    """Every entry with totals, placed by R12.3 (3 queries)."""
    entries = list(tournament.entries.select_related("player"))
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    latest = _tally_results(tournament, tallies)
    _tally_rulings(tournament, tallies, latest)
    return _placed(tournament, entries, tallies)


def _tally_results(tournament: Tournament, tallies: dict[int, _Tally]) -> int | None:
    """Add each entry's confirmed scored games; return the latest round with a result."""
    rows = list(
        HandResult.objects.filter(
            game__table__round__tournament=tournament,
            game__is_void=False,
            game__status=Game.Status.CONFIRMED,
        )
        .values("entry_id", "game__table__round__number")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=Q(went_out=True)),
            down_and_outs=Count("id", filter=Q(went_out=True, game__down_and_out=True)),
            points=Sum("total"),
        )
        .order_by()
    )
    latest = max((row["game__table__round__number"] for row in rows), default=None)
    for row in rows:
        tally = tallies[row["entry_id"]]
        tally.games_played += row["played"]
        tally.games_won += row["won"]
        tally.down_and_outs += row["down_and_outs"]
        tally.result_points += row["points"]
        if row["game__table__round__number"] == latest:
            tally.latest_round_score += row["points"]
    return latest


def _tally_rulings(tournament: Tournament, tallies: dict[int, _Tally], latest: int | None) -> None:
    rulings = list(
        Ruling.objects.filter(tournament=tournament, entry__isnull=False)
        .select_related("entry__player", "round", "table", "game", "decided_by")
        .order_by("decided_at", "id")
    )
    for ruling, line in zip(rulings, _ruling_lines(rulings), strict=True):
        tally = tallies[ruling.entry_id]
        tally.rulings.append(line)
        tally.ruling_points += ruling.points
        if latest is not None and line.round_number == latest:
            tally.latest_round_score += ruling.points


def _placed(
    tournament: Tournament, entries: list[Entry], tallies: dict[int, _Tally]
) -> list[Standing]:
    """Rank the players who have played, by the ruleset's tie-breaks; the others follow."""
    placed = [
        entry
        for entry in entries
        if tallies[entry.pk].games_played and entry.status != Entry.Status.DISQUALIFIED
    ]
    labels = {_label(entry): entry for entry in placed}
    lines = [_standing_line(label, tallies[entry.pk]) for label, entry in labels.items()]
    standings = [
        _standing(labels[placing.line.player], tallies, placing.place, placing.shared)
        for placing in rank_standings(lines, tournament.rules())
    ]
    unplaced = sorted(set(entries) - set(placed), key=lambda entry: (entry.player.name, entry.pk))
    return standings + [_standing(entry, tallies, None, False) for entry in unplaced]


def _label(entry: Entry) -> str:
    """Unique per entry, and sorting by name, for `rank_standings` to list level players by."""
    return f"{entry.player.name}\x00{entry.pk}"


def _standing_line(label: str, tally: _Tally) -> StandingLine:
    return StandingLine(
        player=label,
        total=tally.result_points + tally.ruling_points,
        games_won=tally.games_won,
        down_and_outs=tally.down_and_outs,
        latest_round_score=tally.latest_round_score,
    )


def _standing(
    entry: Entry, tallies: dict[int, _Tally], place: int | None, shared: bool
) -> Standing:
    tally = tallies[entry.pk]
    return Standing(
        place=place,
        shared=shared,
        entry_id=entry.pk,
        player=entry.player.name,
        club=entry.player.club,
        status=entry.status,
        status_label=entry.get_status_display(),
        games_played=tally.games_played,
        games_won=tally.games_won,
        down_and_outs=tally.down_and_outs,
        result_points=tally.result_points,
        ruling_points=tally.ruling_points,
        latest_round_score=tally.latest_round_score,
        rulings=tuple(tally.rulings),
    )
