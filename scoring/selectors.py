"""Reads for the director's round page, dashboard and rulings list.

Each selector runs a fixed number of queries, whatever the number of players and tables:
`round_progress` 3 (4 if the round comes without its tournament), `rulings_list` 1,
`standings_for_director` 1 while the standings are cached.

Terms
- progress of a table: how many of its match's deals are scored (void attempts do not count,
  R9.2), whether the game says the match is over, when a result was last entered or
  corrected, how many results await confirmation, and how many were saved over a warning
  (flagged, R10.6, R10.7).
- standings: the snapshot `scoring.standings.standings_current` reads, the one the public
  leaderboard shows, so that the director and the hall's projector never disagree (R12.3,
  R12.4). The director sees each ruling behind the points it adds; the latest round's score is
  the player's points in the snapshot's latest round, rulings of that round included.
- counted ruling: one the snapshot's totals include, i.e. one whose id is at most the snapshot's
  last ruling (`scoring.standings`). Ids, not clocks: the web process that decided a ruling and
  the worker that computed the snapshot need not agree on the time.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from django.db.models import Count, Max, Prefetch, Q

from config.caches import MATCHES_OVER, MISSING
from games.base import DealScore, SideScore
from scoring.matches import deal_noun, deals_in_match, progress
from scoring.models import Deal, DealResult, Ruling
from scoring.standings import standings_kept, standings_refresh
from tables.models import Seat
from tournament.models import Entry, EntryMember, Round, Tournament, entry_name

# --- round progress --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    position: int
    entry_id: int
    player: str  # the entry's name: a team's (HF1.2), or the player's
    club: str
    is_first_dealer: bool
    partners: str = ""  # a team's partners, "Ann Lee & Cy Moss", where read (`with_seats`)


@dataclass(frozen=True)
class TableProgress:
    id: int
    number: int
    seats: tuple[SeatLine, ...]
    games_scored: int  # deals scored (void attempts do not count)
    games_in_set: int | None  # the deals of a match; None for a match to a target score
    last_entry_at: datetime | None
    pending: int
    flagged: int
    access_token: str
    signed_off_at: datetime | None
    finished: bool = False  # the game says the match is over
    progress: str = ""  # "6 of 9 games", "4 deals"

    @property
    def first_dealer(self) -> SeatLine | None:
        return next((seat for seat in self.seats if seat.is_first_dealer), None)

    @property
    def is_finished(self) -> bool:
        return self.finished


def round_progress(*, round: Round, seated: bool = True) -> list[TableProgress]:
    """Every table of the round with its seats and progress, by table number (3 queries:
    tables, seats, and the scored deals' results, which say when a match is over). Without
    `seated`, the seats are left out (`with_seats` adds them to the tables shown), and only
    the tables with a new entry since this process last looked have their results read."""
    rules = round.tournament.rules()
    tables = round.tables.annotate(
        games_scored=Count("deals", filter=Q(deals__is_void=False)),
        deals_stored=Count("deals"),
        pending=Count("deals", filter=Q(deals__status=Deal.Status.PENDING)),
        flagged=Count("deals", filter=Q(deals__is_flagged=True)),
        last_entry_at=Max("deals__updated_at"),
    ).order_by("number")
    if seated:
        seats = Seat.objects.select_related("entry__player").order_by("position")
        tables = list(tables.prefetch_related(Prefetch("seats", queryset=seats)))
    else:  # plain rows: a dashboard's refresh reads every table of the round
        tables = [SimpleNamespace(pk=row["id"], **row) for row in tables.values(*_PROGRESS)]
    over = matches_over(rules=rules, tables=tables) if seated else _over_since(rules, tables)
    return [
        TableProgress(
            id=table.pk,
            number=table.number,
            seats=tuple(_seat_line(seat) for seat in table.seats.all()) if seated else (),
            games_scored=table.games_scored,
            games_in_set=deals_in_match(rules),
            last_entry_at=table.last_entry_at,
            pending=table.pending,
            flagged=table.flagged,
            access_token=table.access_token,
            signed_off_at=table.signed_off_at,
            finished=table.pk in over,
            progress=progress(rules, table.games_scored),
        )
        for table in tables
    ]


_PROGRESS = (
    "id", "number", "games_scored", "deals_stored", "pending", "flagged", "last_entry_at",
    "access_token", "signed_off_at",
)  # fmt: skip


def _over_since(rules: Any, tables: list[Any]) -> set[int]:
    """`matches_over`, reading the results only of the tables whose deals changed since this
    process last read them (`matches.over`): a dashboard's refresh reads the few tables that
    entered a result."""
    known = {table.pk: MATCHES_OVER.get(table.pk, _as_of(table)) for table in tables}
    stale = [table for table in tables if known[table.pk] is MISSING]
    fresh = matches_over(rules=rules, tables=stale) if stale else set()
    for table in stale:
        known[table.pk] = MATCHES_OVER.put(table.pk, _as_of(table), table.pk in fresh)
    return {pk for pk, over in known.items() if over is True}


def _as_of(table: Any) -> tuple[int, Any]:
    return (table.deals_stored, table.last_entry_at)


def with_seats(tables: list[TableProgress]) -> list[TableProgress]:
    """The tables (of `round_progress(seated=False)`) with their seats, each named as its
    entry is (a team by its name) and a team with its partners (HF1.2): one query, two for
    a game of partners."""
    seats = (
        Seat.objects.filter(table_id__in=[t.id for t in tables])
        .annotate(name=entry_name("entry__"))
        .order_by("table_id", "position")
    )
    rows = list(
        seats.values_list(
            "table_id", "position", "entry_id", "name", "entry__player__club",
            "is_first_dealer", "entry__team_name",
        )
    )  # fmt: skip
    partners = _partners({row[2] for row in rows if row[-1]})
    by_table: dict[int, list[SeatLine]] = defaultdict(list)
    for table_id, *line, _ in rows:
        by_table[table_id].append(SeatLine(*line, partners=partners.get(line[1], "")))
    return [replace(table, seats=tuple(by_table[table.id])) for table in tables]


def _partners(team_ids: set[int]) -> dict[int, str]:
    """Each team's partners in order, "Ann Lee & Cy Moss" (one query; none without teams)."""
    if not team_ids:
        return {}
    members = EntryMember.objects.filter(entry_id__in=team_ids).order_by("entry_id", "position")
    names: dict[int, list[str]] = defaultdict(list)
    for entry_id, name in members.values_list("entry_id", "player__name"):
        names[entry_id].append(name)
    return {entry_id: " & ".join(partners) for entry_id, partners in names.items()}


def matches_over(*, rules: Any, tables: Iterable[Any]) -> set[int]:
    """The ids of the tables whose match the game says is over (1 query for any tables)."""
    ids = [table.pk for table in tables]
    called = {table.pk for table in tables if getattr(table, "time_called_at", None)}  # HF2.2
    rows = (
        DealResult.objects.filter(deal__table_id__in=ids, deal__is_void=False)
        .order_by()
        .values_list(
            "deal__table_id", "deal_id", "deal__number", "deal__detail", "side", "points",
            "went_out", "detail",
        )
    )  # fmt: skip
    deals: dict[int, dict[int, list]] = defaultdict(dict)
    for table_id, deal_id, number, deal_detail, side, points, went_out, detail in rows:
        deal = deals[table_id].setdefault(deal_id, [number, deal_detail, {}])
        deal[2][side] = SideScore(points, went_out, (), detail)
    over = set()
    for table_id in ids:
        played = [
            DealScore(number, tuple(s for _, s in sorted(sides.items())), detail=detail)
            for number, detail, sides in sorted(deals[table_id].values(), key=lambda d: d[0])
        ]
        if rules.match_over(played, time_called=table_id in called):
            over.add(table_id)
    return over


def _seat_line(seat: Seat) -> SeatLine:
    player = seat.entry.player
    return SeatLine(
        seat.position, seat.entry_id, seat.entry.name, player.club, seat.is_first_dealer
    )


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
    deal_number: int | None
    reverses_id: int | None
    reversed_by_id: int | None
    deal_noun: str = "game"  # the game's word for the deal it names


def rulings_list(*, tournament: Tournament) -> list[RulingLine]:
    """The tournament's rulings, newest first, each linked to its reversal (1 query)."""
    rulings = list(
        Ruling.objects.filter(tournament=tournament)
        .select_related("entry__player", "round", "table", "deal", "decided_by")
        .order_by("-decided_at", "-id")
    )
    return _ruling_lines(rulings, deal_noun(tournament.rules()))


def ruling_get(*, ruling: Ruling) -> RulingLine:
    """One ruling as the rulings list shows it (2 queries)."""
    found = Ruling.objects.select_related(
        "entry__player", "round", "table", "deal", "decided_by", "tournament"
    ).get(pk=ruling.pk)
    later = found.reversed_by.values_list("pk", flat=True).first()
    return _ruling_line(found, later, deal_noun(found.tournament.rules()))


def _ruling_lines(rulings: list[Ruling], noun: str) -> list[RulingLine]:
    reversed_by = {ruling.reverses_id: ruling.pk for ruling in rulings if ruling.reverses_id}
    return [_ruling_line(ruling, reversed_by.get(ruling.pk), noun) for ruling in rulings]


def _ruling_line(ruling: Ruling, reversed_by_id: int | None, noun: str) -> RulingLine:
    return RulingLine(
        id=ruling.pk,
        kind=ruling.kind,
        kind_label=ruling.get_kind_display(),
        points=ruling.points,
        decision=ruling.decision,
        reason=ruling.reason,
        decided_at=ruling.decided_at,
        decided_by=ruling.decided_by.get_username() if ruling.decided_by else "",
        player=ruling.entry.name if ruling.entry else "",
        entry_id=ruling.entry_id,
        round_number=ruling.round.number if ruling.round else None,
        table_number=ruling.table.number if ruling.table else None,
        deal_number=ruling.deal.number if ruling.deal else None,
        reverses_id=ruling.reverses_id,
        reversed_by_id=reversed_by_id,
        deal_noun=noun,
    )


# --- standings (R12.3), as the public leaderboard shows them ---------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings snapshot, with the rulings behind its ruling points."""

    place: int | None  # None: not placed (no game played yet, or disqualified)
    shared: bool
    entry_id: int
    player: str
    club: str
    status: str
    games_played: int
    stats: dict[str, int]  # the game's stats as counted (`Rules.columns`), like the total
    ruling_points: int
    total: int
    latest_round_score: int
    rulings: tuple[RulingLine, ...]
    ranked_total: int = 0  # the same as the total: what the place is decided by
    round_points: int = 0  # in the round being played (else the latest)
    round_games: int = 0
    cells: tuple[int, ...] = ()  # the stats in the order of the standings' columns

    @property
    def status_label(self) -> str:
        return Entry.Status(self.status).label


@dataclass(frozen=True)
class Standings:
    version: int
    computed_at: datetime
    columns: tuple[dict[str, Any], ...]  # the game's standings columns but the total
    deal_noun: str  # "games", "hands", "deals"
    lines: tuple[Standing, ...]  # placed players by place, then the unplaced
    ranking: str = ""  # how the game ranks, in words: "Lowest total first, then games won, ..."
    count: int = 0  # the lines of the whole standings, when `lines` are only some of them
    start: int = 0  # the first line's index in the whole standings
    counted_words: str = ""  # what the places count while a round is live (`counted_words`)
    counted_up_to: dict[str, int] = field(default_factory=dict)  # round: deals every table played

    def get(self, name: str, default: Any = None) -> Any:
        """As a snapshot's dict answers: `counted_sentence` reads both."""
        return getattr(self, name, default)

    @property
    def end(self) -> int:
        """The last line's number in the whole standings (1 for the first)."""
        return self.start + len(self.lines)


def standings_for_director(*, tournament: Tournament, lines: slice | None = None) -> Standings:
    """The standings the public leaderboard shows (`standings_current`, the newest snapshot),
    each line with the rulings behind its points (1 query while the snapshot is cached); only
    the `lines` asked for (a page), when given. The snapshot is read from the cache once per
    version in each process (`standings_kept`)."""
    snapshot = standings_kept(tournament=tournament)
    if "counted_rulings" not in snapshot:  # stored before snapshots recorded them: recompute
        snapshot = standings_refresh(tournament_id=tournament.pk).data
    # .get: a worker still on the old code may have stored it meanwhile (a rolling deploy)
    rulings = _rulings_by_entry(tournament, frozenset(snapshot.get("counted_rulings", ())))
    latest = snapshot["latest_round"]
    # The total has a column of its own, beside the live round's points.
    columns = tuple(c for c in snapshot.get("columns", ()) if c["stat"] != "total")
    stats = [column["stat"] for column in columns]
    return Standings(
        version=snapshot["version"],
        computed_at=datetime.fromisoformat(snapshot["computed_at"]),
        columns=columns,
        deal_noun=snapshot.get("deal_noun", "games"),
        ranking=snapshot.get("ranking", ""),
        counted_words=snapshot.get("counted_words", ""),
        counted_up_to=snapshot.get("counted_up_to", {}),
        lines=tuple(
            _standing(row, latest, rulings.get(row["entry"], ()), stats)
            for row in snapshot["players"][lines or slice(None)]
        ),
        count=len(snapshot["players"]),
        start=(lines or slice(None)).indices(len(snapshot["players"]))[0],
    )


def _rulings_by_entry(
    tournament: Tournament, counted: frozenset[int]
) -> dict[int, list[RulingLine]]:
    """Each player's rulings the snapshot counted, oldest first: a newer one is not in the
    totals yet, and shows with them at the next refresh."""
    by_entry: dict[int, list[RulingLine]] = defaultdict(list)
    for line in sorted(rulings_list(tournament=tournament), key=lambda line: line.id):
        if line.entry_id is not None and line.id in counted:
            by_entry[line.entry_id].append(_as_counted(line, counted))
    return by_entry


def _as_counted(line: RulingLine, counted: frozenset[int]) -> RulingLine:
    """A reversal not counted yet is left out: until the next refresh the ruling shows
    unreversed, as its points still are."""
    reversal = line.reversed_by_id if line.reversed_by_id in counted else None
    return replace(line, reversed_by_id=reversal)


def _standing(
    row: dict[str, Any],
    latest_round: int | None,
    rulings: Iterable[RulingLine],
    columns: list[str],
) -> Standing:
    latest_round_score = 0 if latest_round is None else row["rounds"].get(str(latest_round), 0)
    return Standing(
        place=row["place"],
        shared=row["shared"],
        entry_id=row["entry"],
        player=row["player"],
        club=row["club"],
        status=row["status"],
        games_played=row["games_played"],
        stats=row.get("stats", {}),
        ruling_points=row["ruling_points"],
        total=row["total"],
        latest_round_score=latest_round_score,
        rulings=tuple(rulings),
        ranked_total=row.get("ranked_total", row["total"]),
        round_points=row.get("round_points", latest_round_score),
        round_games=row.get("round_games", 0),
        cells=tuple(row.get("stats", {}).get(stat, 0) for stat in columns),
    )
