"""The hall's reads: what the public pages show, as frozen read models, in a fixed number
of queries.

Terms
- public facts: what the pages need of a tournament itself (name, dates, venue, published, its
  game and ruleset), from the shared cache (`config.caches`: `public.facts`), so that a
  leaderboard request reads nothing but the cache.
- standings: `scoring.standings.standings_current`, the newest snapshot (R12.3). Each process
  asks the shared cache for the newest version's head only and reads the standings themselves
  once per version (`standings.kept`).
- hall round: the round the hall plays or has just played: the newest round that is not a draft
  (a draft's seating may still change, so it is never shown).
- seating board: the hall round's players by name, A to Z, each with their table and seat (or
  their bye), so that a player finds their seat at a glance.
- live part: the part of a public page that changes while the hall plays (the home's rounds and
  leaders, a player's games and seat, a table's scores, the board), asked for again with the
  ETag the page holds (`?live=1`); the ETag is a digest of the figures the part shows.
- updated: the one clock of the hall's pages: the server's, in the venue's time zone (`TIME_ZONE`),
  never a browser's.
- running total: a player's total over their counted deals up to and including one (R8.6);
  rulings (R12.4) are added to the leaderboard's total and listed on the player's page.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import BooleanField, Count, IntegerField, Q, Value
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext

from config.caches import MISSING, PUBLIC_FACTS, PUBLIC_RECENT, STANDINGS_KEPT
from games.base import DealScore, SideScore
from scoring.clock import Clock, round_clocks
from scoring.matches import deal_noun, deals_in_match, match_noun, sides_of
from scoring.models import Deal, DealResult, Ruling
from scoring.standings import standings_current, standings_head, standings_keep
from tables.models import Bye, Seat, Table
from tables.selectors import (
    DealLine,
    SeatLine,
    deal_lines,
    schedule_numbers,
    seat_lines,
    seats_prefetch,
)
from tournament.models import Entry, EntryMember, Round, Tournament, entry_name
from tournament.selectors import rules_in_words

LIVE_SECONDS = 10  # how often a page's live part asks again


@dataclass(frozen=True)
class HallRound:
    id: int
    number: int
    status: str
    status_label: str


def hall_round_get(*, tournament_id: int) -> HallRound | None:
    """The newest round that is not a draft (1 query); None before the first is published."""
    round = (
        Round.objects.filter(tournament_id=tournament_id)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if round is None:
        return None
    return HallRound(round.pk, round.number, round.status, round.get_status_display())


@dataclass(frozen=True)
class SeatOnBoard:
    entry: int
    name: str
    club: str
    table: int | None  # None for a bye
    seat: int | None
    first_dealer: bool
    bye: bool = False


def seating_board_get(*, round_id: int) -> list[SeatOnBoard]:
    """The round's players A to Z with their table and seat, and those with a bye (1 query,
    however many)."""
    names = ("entry_id", "who", "entry__player__club")  # a team by its name (HF1.2)
    seats = (
        Seat.objects.filter(round_id=round_id)
        .order_by()
        .annotate(who=entry_name("entry__"))
        .values_list(*names, "table__number", "position", "is_first_dealer")
    )
    byes = (
        Bye.objects.filter(round_id=round_id)
        .order_by()
        .annotate(who=entry_name("entry__"))
        .annotate(no_table=Value(0, IntegerField()), no_seat=Value(0, IntegerField()))
        .annotate(deals=Value(False, BooleanField()))
        .values_list(*names, "no_table", "no_seat", "deals")
    )
    board = [
        SeatOnBoard(entry, name, club, table or None, seat or None, first, bye=not table)
        for entry, name, club, table, seat, first in seats.union(byes, all=True)
    ]
    return sorted(board, key=lambda seat: (seat.name.casefold(), seat.club.casefold(), seat.entry))


def byes_public_get(*, entry_id: int) -> list[int]:
    """The published rounds the player sits out (a bye), by number (1 query)."""
    byes = (
        Bye.objects.filter(entry_id=entry_id)
        .exclude(round__status=Round.Status.DRAFT)
        .order_by("round__number")
    )
    return list(byes.values_list("round__number", flat=True))


def seat_now_get(*, tournament_id: int, entry_id: int) -> tuple[HallRound, SeatOnBoard] | None:
    """Where the player sits in the hall round, if they are seated there (2 queries)."""
    round = hall_round_get(tournament_id=tournament_id)
    if round is None:
        return None
    seat = (
        Seat.objects.filter(round_id=round.id, entry_id=entry_id)
        .annotate(who=entry_name("entry__"))
        .values_list(
            "entry_id",
            "who",
            "entry__player__club",
            "table__number",
            "position",
            "is_first_dealer",
        )
        .first()
    )
    return (round, SeatOnBoard(*seat)) if seat else None


def clock_figures(clock: Clock | None) -> tuple[Any, ...] | None:
    """What of a clock changes its part: its state and time allowed, not the seconds that run
    (the page's script counts those down)."""
    return (clock.state, clock.allowed_seconds, clock.table_paused) if clock else None


def hall_clock_get(*, round: HallRound | None) -> Clock | None:
    """The hall round's clock, while it is being played (1 query)."""
    if round is None or round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        return None
    clock = round_clocks(round_id=round.id).round
    return clock if clock.is_started else None


# --- live parts --------------------------------------------------------------------------------


def digest(*figures: Any) -> str:
    """A weak ETag of the figures a part shows: it changes when any of them does."""
    return 'W/"' + hashlib.sha256(repr(figures).encode()).hexdigest()[:20] + '"'


def is_live_request(request: HttpRequest) -> bool:
    return request.GET.get("live") == "1"


def live_response(
    request: HttpRequest, template: str, context: dict[str, Any], *figures: Any
) -> HttpResponse:
    """The live part alone: a 304 while `figures` are unchanged for the client, else the part,
    never stored by a shared cache (a preview is the director's alone)."""
    etag = digest(*figures)
    if get_conditional_response(request, etag=etag) is not None:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(request, template, context)
    response.headers["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def updated_now() -> datetime.datetime:
    return timezone.localtime()


@dataclass(frozen=True)
class PartnerLine:
    """One partner of a team tournament, with the team's line of the standings (HF11.2)."""

    name: str
    club: str
    team: str
    entry: int
    place: int | None
    shared: bool
    lead: int  # the figure that decides the place before points (games won, HF11.2)
    total: int


def partner_lines_get(
    *, tournament_id: int, standings: dict[str, Any], lead: str | None = None
) -> list[PartnerLine]:
    """Every partner of the tournament's teams A to Z, each with the team's place and its
    `lead` figure and total from `standings` (1 query)."""
    rows = {row["entry"]: row for row in standings.get("players", [])}
    members = EntryMember.objects.filter(entry__tournament_id=tournament_id).values_list(
        "player__name", "player__club", "entry__team_name", "entry_id"
    )
    lines = []
    for name, club, team, entry in members:
        row = rows.get(entry, {})
        lines.append(
            PartnerLine(
                name, club, team, entry, row.get("place"), bool(row.get("shared")),
                row.get("stats", {}).get(lead or "", 0), row.get("total", 0),
            )
        )  # fmt: skip
    return sorted(lines, key=lambda line: (line.name.casefold(), line.team.casefold()))


# --- the tournament's public facts -----------------------------------------------------------


@dataclass(frozen=True)
class PublicTournament:
    id: int
    slug: str
    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    venue: str
    status: str
    is_published: bool
    games_in_set: int | None  # deals in a match (nine under ASAJ); None: to a target score
    game: str = "kalooki"
    game_name: str = ""  # the game and its ruleset in words (Rules.describe), for the home page
    rules_words: tuple[str, ...] = ()
    deals_noun: str = "games"  # "games", "hands", "deals"
    lead: tuple[str, str, str] | None = None  # (stat, label, help) of the column that decides
    # the place, when it is not the total (Parcellus: match points)
    ruleset: str = "{}"  # the tournament's stored ruleset, as JSON text (the facts are cached)
    preview: bool = False  # a director looking at the unpublished pages

    @property
    def status_label(self) -> str:
        return Tournament.Status(self.status).label

    @property
    def query(self) -> str:
        """What links between the pages carry: the preview stays a preview."""
        return "?preview=1" if self.preview else ""

    @property
    def teams(self) -> bool:
        """Whether the game is played by teams of partners (Hand and Foot, HF1.2)."""
        return self.rules().shape().members > 1

    def rules(self) -> Any:
        """The tournament's game under its ruleset, read from the cached facts (no query)."""
        return Tournament(game=self.game, ruleset=json.loads(self.ruleset)).rules()

    def as_model(self) -> Tournament:
        """An unsaved stand-in with the primary key, enough for `standings_current`."""
        return Tournament(pk=self.id, slug=self.slug, name=self.name)


FACTS = ("id", "slug", "name", "starts_on", "ends_on", "venue", "status", "is_published")


def tournament_public_get(*, slug: str) -> PublicTournament | None:
    """The tournament's public facts, from the cache (else 1 query); None if there is none."""
    return PUBLIC_RECENT.get_or_read(("tournament", slug), lambda: _cached_facts(slug))


def _cached_facts(slug: str) -> PublicTournament | None:
    key = PUBLIC_FACTS.key_of(slug=slug)
    facts = _cache_get(key)
    if facts is None:
        facts = _facts(slug)
        _cache_set(key, facts, PUBLIC_FACTS.seconds)  # unknown addresses too: a 404 costs no query
    return PublicTournament(**facts) if facts else None


def _facts(slug: str) -> dict[str, Any]:
    row = Tournament.objects.filter(slug=slug).values(*FACTS, "game", "ruleset").first()
    if row is None:
        return {}
    rules = Tournament(game=row["game"], ruleset=row["ruleset"]).rules()
    row["game_name"], row["rules_words"] = rules_in_words(game=row["game"], stored=row["ruleset"])
    row["ruleset"] = json.dumps(row["ruleset"], sort_keys=True)
    row["games_in_set"] = deals_in_match(rules)
    row["deals_noun"] = deal_noun(rules, 2)
    first = rules.columns()[0]
    if first.stat != "total":
        row["lead"] = (first.stat, first.label, first.help)
    return row


def _cache_get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # Redis away: the database answers instead
        return None


def _cache_set(key: str, value: Any, seconds: int) -> None:
    try:
        cache.set(key, value, seconds)
    except Exception:
        return


# --- the leaderboard ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderRow:
    """One player's line on the leaderboard, ready to show."""

    entry: int
    player: str
    club: str
    status: str
    place: str  # "=3" when shared (R12.3), "—" when not placed
    games_played: int
    last_game: int | None
    total: int
    ruling_points: int
    movement: int | None  # places gained since the previous round
    ranked_total: int = 0  # what the place is decided by: the completed rounds' while one is live
    round_points: int = 0  # in the current round (the live one, else the latest)
    round_games: int = 0
    lead: int | None = None  # the stat that decides the place, when it is not the total
    round_bye: bool = False  # the player sits out the current round

    @property
    def status_label(self) -> str:
        """Shown only for a player no longer playing."""
        return Entry.Status(self.status).label if self.status in STOPPED else ""

    @property
    def movement_label(self) -> str:
        if not self.movement:
            return "–"
        return f"▲{self.movement}" if self.movement > 0 else f"▼{-self.movement}"

    @property
    def movement_class(self) -> str:
        if not self.movement:
            return "same"
        return "up" if self.movement > 0 else "down"

    @property
    def movement_words(self) -> str:
        if self.movement is None:
            return gettext("no earlier round to compare")
        if not self.movement:
            return gettext("same place as after the previous round")
        if self.movement > 0:
            return gettext("up {places} since the previous round").format(places=self.movement)
        return gettext("down {places} since the previous round").format(places=-self.movement)


STOPPED = (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED)


def leader_rows(
    players: Iterable[dict[str, Any]], lead: tuple[str, str, str] | None = None
) -> list[LeaderRow]:
    """The snapshot's players, in its order (placed by the game, then the unplaced)."""
    return [_leader_row(row, lead) for row in players]


def _leader_row(row: dict[str, Any], lead: tuple[str, str, str] | None = None) -> LeaderRow:
    place = row["place"]
    return LeaderRow(
        entry=row["entry"],
        player=row["player"],
        club=row["club"],
        status=row["status"],
        place="—" if place is None else f"={place}" if row["shared"] else str(place),
        games_played=row["games_played"],
        last_game=row["last_game"],
        total=row["total"],
        ruling_points=row["ruling_points"],
        movement=row["movement"],
        # .get: a snapshot of an older shape lacks them until its next refresh
        ranked_total=row["total"],
        round_points=row.get("round_points", 0),
        round_games=row.get("round_games", 0),
        # Like the total, the lead counts the completed rounds while one is live.
        lead=(row.get("ranked_stats") or row.get("stats", {})).get(lead[0], 0) if lead else None,
        round_bye=row.get("round_bye", False),
    )


def version_stamp(tournament: PublicTournament, standings: dict[str, Any]) -> Hashable:
    """What a drawing of these standings is good for: these facts at this version."""
    return (tournament, standings.get("version"), standings.get("computed_at"))


def standings_public(tournament: PublicTournament) -> dict[str, Any]:
    """The standings a public page shows. Each process asks the shared cache only for the
    newest version's head (a few bytes, `standings_head`) and reads the standings themselves
    once per version: a 304 never waits for 2,000 players' standings to be fetched and
    unpickled."""
    if tournament.preview:  # a director checking a change sees it at once
        return standings_current(tournament=tournament.as_model())
    head = standings_version(tournament)
    kept = STANDINGS_KEPT.get(tournament.id, (head["version"], head.get("computed_at")))
    if kept is not MISSING:
        return kept
    standings = standings_current(tournament=tournament.as_model())
    return standings_keep(tournament_id=tournament.id, standings=standings)


def standings_version(tournament: PublicTournament) -> dict[str, Any]:
    """The newest standings' `version` and `computed_at` (what `Validators.of` reads), from
    this process's memory (`public.recent`), else the shared cache's head of the snapshot."""
    if tournament.preview:
        return standings_current(tournament=tournament.as_model())
    keep = lambda standings: standings_keep(tournament_id=tournament.id, standings=standings)  # noqa: E731
    read = lambda: standings_head(tournament=tournament.as_model(), keep=keep)  # noqa: E731
    return PUBLIC_RECENT.get_or_read(("standings", tournament.id), read)


def stage_lines(standings: dict[str, Any]) -> list[dict[str, Any]]:
    """Each stage cut so far, as the public pages show it above the standings: its name and
    rounds, its scoring and seats in words, and its players in its own order."""
    names = {row["entry"]: row["player"] for row in standings["players"]}
    return [
        {
            "name": stage["name"],
            "rounds": stage["rounds"],
            "words": f"{stage['scoring_words']} {stage['seats_words']}",
            "players": [names[entry] for entry in stage["order"] if entry in names],
        }
        for stage in standings.get("stages", ())
        if stage["number"] > 1 and stage["cut"]
    ]


# --- the tournament's home ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableLink:
    number: int
    games_played: int


@dataclass(frozen=True)
class RoundLine:
    number: int
    status: str
    status_label: str
    tables: tuple[TableLink, ...]

    @property
    def is_public(self) -> bool:
        """A draft round's seating may still change: its tables are not shown yet."""
        return self.status != Round.Status.DRAFT


def rounds_public(*, tournament_id: int) -> list[RoundLine]:
    """Every round with its tables and how many of each match's deals are scored (2 queries)."""
    tables: dict[int, list[TableLink]] = {}
    scored = Count("deals", filter=Q(deals__is_void=False))
    for round_id, number, games in (
        Table.objects.filter(round__tournament_id=tournament_id)
        .annotate(scored=scored)
        .order_by("number")
        .values_list("round_id", "number", "scored")
    ):
        tables.setdefault(round_id, []).append(TableLink(number, games))
    rounds = Round.objects.filter(tournament_id=tournament_id).order_by("number")
    return [
        RoundLine(r.number, r.status, r.get_status_display(), tuple(tables.get(r.pk, ())))
        for r in rounds
    ]


# --- a table -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreCell:
    score: int
    running: int  # the seat's side's total after this deal
    went_out: bool


@dataclass(frozen=True)
class GameRow:
    """One deal at the table, or a void attempt at one (R9.2), a cell per seat in seat order."""

    line: DealLine
    attempt: int
    is_void: bool
    is_pending: bool  # awaiting a second person's confirmation: not counted yet
    down_and_out: bool  # Kalooki's R8.3
    cells: tuple[ScoreCell, ...]


@dataclass(frozen=True)
class PublicTable:
    round: int
    number: int
    seats: list[SeatLine]
    games: list[GameRow]
    totals: list[int]  # each seat's side's total so far, in seat order
    current: DealLine | None  # the deal being played now; None once the match is over
    current_attempt: int  # 2 after one void attempt (R9.2)
    games_scored: int
    games_in_set: int | None  # None for a match to a target score
    is_signed_off: bool
    clock: Clock | None = None  # the table's clock while its round is being played
    updated: datetime.datetime | None = None  # its last entry: the figures' time
    deal_noun: str = "game"
    match_noun: str = "set"
    higher_wins: bool = False
    order_rule: str = ""  # the rule that says who wins the match (Kalooki R4.1)


def table_public_get(
    *, tournament_id: int, round_number: int, table_number: int
) -> PublicTable | None:
    """One table of a published round: seats, every deal's scores, the deal being played and
    its clock (5 queries: table, seats, deals, results, clock events). None for a draft
    round's table."""
    table = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(seats_prefetch())
        .filter(round__tournament_id=tournament_id, round__number=round_number)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(number=table_number)
        .first()
    )
    if table is None:
        return None
    seats = seat_lines(table)
    rules = table.round.tournament.rules()
    deals = list(table.deals.order_by("number", "attempt"))
    rows = DealResult.objects.filter(deal__table=table).values_list(
        "deal_id", "side", "points", "went_out", "detail"
    )
    results = {(deal, side): (points, out, detail) for deal, side, points, out, detail in rows}
    played = _played(deals, results)
    scored = sum(1 for deal in deals if not deal.is_void)
    lines = deal_lines(seats, rules, schedule_numbers(rules, played=scored))
    game_rows, totals = _game_rows(rules, deals, lines, seats, results)
    current, attempt = _current_game(rules, deals, seats, played, table.time_called)
    return PublicTable(
        round=round_number,
        number=table.number,
        seats=seats,
        games=game_rows,
        totals=totals,
        current=current,
        current_attempt=attempt,
        games_scored=scored,
        games_in_set=deals_in_match(rules),
        is_signed_off=table.is_signed_off(),
        clock=_table_clock(table),
        updated=max((deal.updated_at for deal in deals), default=None),
        deal_noun=deal_noun(rules),
        match_noun=match_noun(rules),
        higher_wins=rules.higher_wins,
        order_rule=rules.cites("order"),
    )


def _played(deals: list[Deal], results: dict[tuple[int, int], tuple]) -> list[Any]:
    """The deals as the game scored them, from the rows read (``scoring.matches``)."""
    scores = []
    for deal in deals:
        if deal.is_void:
            scores.append(DealScore(deal.number, (), void=True, detail=deal.detail))
            continue
        sides = sorted((side, row) for (pk, side), row in results.items() if pk == deal.pk)
        scored = tuple(SideScore(p, out, (), detail) for _, (p, out, detail) in sides)
        scores.append(DealScore(deal.number, scored, detail=deal.detail))
    return scores


def _table_clock(table: Table) -> Clock | None:
    if table.round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        return None
    clock = round_clocks(round_id=table.round_id).of(table.pk)
    return clock if clock.is_started else None


def _game_rows(
    rules: Any,
    deals: list[Deal],
    lines: list[DealLine],
    seats: list[SeatLine],
    results: dict[tuple[int, int], tuple],
) -> tuple[list[GameRow], list[int]]:
    """Each deal with its scores and the running totals; only confirmed scores count."""
    by_number = {line.number: line for line in lines}
    side_of = {s.entry_id: i for i, side in enumerate(sides_of(rules, seats)) for s in side}
    totals = [0] * len(seats)
    rows = []
    for deal in deals:
        counted = not deal.is_void and deal.status == Deal.Status.CONFIRMED
        cells = []
        for index, seat in enumerate(seats):
            score, went_out, _ = results.get((deal.pk, side_of.get(seat.entry_id)), (0, False, {}))
            totals[index] += score if counted else 0
            cells.append(ScoreCell(score, totals[index], went_out))
        line = by_number.get(deal.number) or deal_lines(seats, rules, [deal.number])[0]
        rows.append(
            GameRow(
                line=line,
                attempt=deal.attempt,
                is_void=deal.is_void,
                is_pending=deal.status == Deal.Status.PENDING,
                down_and_out=deal.down_and_out,
                cells=tuple(cells) if counted else (),
            )
        )
    return rows, totals


def _current_game(
    rules: Any, deals: list[Deal], seats: list[SeatLine], played: list[Any], time_called: bool
) -> tuple[DealLine | None, int]:
    """The deal the game says comes next (none once time is called, HF2.2), and which attempt
    at it this is (R9.2)."""
    number = rules.next_deal(played, time_called=time_called)
    if number is None:
        return None, 0
    voids = sum(1 for deal in deals if deal.number == number and deal.is_void)
    return deal_lines(seats, rules, [number])[0], voids + 1


def seat_standings(
    seats: list[SeatLine], standings: dict[str, Any], lead: tuple[str, str, str] | None
) -> list[LeaderRow | None]:
    """Each seat's line of the standings, in seat order: the place and total every public page
    shows for the player (None for one the standings do not list)."""
    wanted = {seat.entry_id for seat in seats}
    rows = {row["entry"]: row for row in standings["players"] if row["entry"] in wanted}
    return [_leader_row(rows[s.entry_id], lead) if s.entry_id in rows else None for s in seats]


# --- a player ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame:
    round: int
    table: int
    number: int
    contract: str  # Kalooki: "3334" (R4); the deal's title for other games
    contract_words: str  # Kalooki: "three threes and one four"; the deal's summary
    score: int
    went_out: bool
    down_and_out: bool
    running: int  # the player's total over their deals so far (R8.6)
    title: str = ""  # "Game 3", "Hand 2", "Deal 4"


@dataclass(frozen=True)
class PublicRuling:
    id: int
    kind: str
    points: int
    decision: str
    reason: str
    decided_at: datetime.datetime
    round: int | None
    table: int | None
    game: int | None
    reverses: int | None
    reversed_by: int | None


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    """The cumulative score game by game, as coordinates of an inline SVG (no script)."""

    width: int
    height: int
    left: int
    top: int
    bottom: int  # y of the axis
    right: int
    top_total: int
    points: list[ChartPoint]
    rounds: list[tuple[float, str]]  # x where each round starts, and its label
    bottom_total: int = 0  # the lowest running total shown: 0, or below it (Hand and Foot)

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x},{point.y}" for point in self.points)


@dataclass(frozen=True)
class PublicPlayer:
    entry: int
    name: str
    club: str
    status: str
    status_label: str
    games: list[PlayedGame]
    rulings: list[PublicRuling]
    standing: LeaderRow | None  # from the standings snapshot
    rounds: list[tuple[int, int]]  # (round, points with its rulings), from the snapshot
    chart: Chart

    @property
    def games_total(self) -> int:
        return self.games[-1].running if self.games else 0


def player_public_get(
    *, tournament_id: int, entry_id: int, standings: dict[str, Any]
) -> PublicPlayer | None:
    """One player's every counted game with the running total, and their rulings (R12.4), in
    3 queries however many deals (entry, results, rulings; and seats for a game of partners)."""
    entry = (
        Entry.objects.select_related("player", "tournament")
        .filter(pk=entry_id, tournament_id=tournament_id)
        .first()
    )
    if entry is None:
        return None
    games = _played_games(entry)
    row = next((row for row in standings["players"] if row["entry"] == entry.pk), None)
    return PublicPlayer(
        entry=entry.pk,
        name=entry.name,
        club=entry.player.club,
        status=entry.status,
        status_label=entry.get_status_display(),
        games=games,
        rulings=_rulings_of(entry),
        standing=_leader_row(row, entry_lead(entry)) if row else None,
        rounds=[(int(number), points) for number, points in row["rounds"].items()] if row else [],
        chart=cumulative_chart(games),
    )


def entry_lead(entry: Entry) -> tuple[str, str, str] | None:
    first = entry.tournament.rules().columns()[0]
    return None if first.stat == "total" else (first.stat, first.label, first.help)


def _played_games(entry: Entry) -> list[PlayedGame]:
    """Every counted deal the entry's side played, in order, with the running total."""
    rules = entry.tournament.rules()
    # A side of one player stores its results under its entry; a team's partners find theirs
    # through their seats (one query more, for games played in partnerships only).
    partners = rules.shape().members > 1
    mine = {"deal__table__seats__entry": entry} if partners else {"entry": entry}
    rows = (
        DealResult.objects.filter(**mine, deal__is_void=False, deal__status=Deal.Status.CONFIRMED)
        .order_by("deal__table__round__number", "deal__number", "side")
        .values_list(
            "deal__table_id",
            "deal__table__round__number",
            "deal__table__number",
            "deal__number",
            "side",
            "points",
            "went_out",
            "deal__detail",
        )
    )
    side = _sides_of(entry, rules) if rules.shape().members > 1 else None
    running, games = 0, []
    for table_id, round, table, number, at, points, went_out, detail in rows:
        if side is not None and side.get(table_id) != at:
            continue  # another side's result at the entry's table
        running += points
        line = _deal_line(rules, number)
        games.append(
            PlayedGame(
                round=round,
                table=table,
                number=number,
                contract=line.contract or line.title,
                contract_words=line.contract_words,
                score=points,
                went_out=went_out,
                down_and_out=bool(detail.get("down_and_out")),
                running=running,
                title=line.title,
            )
        )
    return games


def _deal_line(rules: Any, number: int) -> DealLine:
    return deal_lines([], rules, [number])[0]


def _sides_of(entry: Entry, rules: Any) -> dict[int, int]:
    """The side the entry sat in at each of its tables (1 query)."""
    seats = Seat.objects.filter(table__seats__entry=entry).order_by("table_id", "position")
    by_table: dict[int, list[int]] = {}
    for table_id, entry_id in seats.values_list("table_id", "entry_id"):
        by_table.setdefault(table_id, []).append(entry_id)
    found = {}
    for table_id, entries in by_table.items():
        for index, side in enumerate(sides_of(rules, entries)):
            if entry.pk in side:
                found[table_id] = index
    return found


def _rulings_of(entry: Entry) -> list[PublicRuling]:
    rulings = list(
        Ruling.objects.filter(tournament_id=entry.tournament_id, entry=entry)
        .select_related("round", "table__round", "deal")
        .order_by("decided_at", "id")
    )
    reversed_by = {ruling.reverses_id: ruling.pk for ruling in rulings if ruling.reverses_id}
    return [
        PublicRuling(
            id=ruling.pk,
            kind=ruling.get_kind_display(),
            points=ruling.points,
            decision=ruling.decision,
            reason=ruling.reason,
            decided_at=ruling.decided_at,
            round=_ruling_round(ruling),
            table=ruling.table.number if ruling.table else None,
            game=ruling.deal.number if ruling.deal else None,
            reverses=ruling.reverses_id,
            reversed_by=reversed_by.get(ruling.pk),
        )
        for ruling in rulings
    ]


def _ruling_round(ruling: Ruling) -> int | None:
    if ruling.round is not None:
        return ruling.round.number
    return ruling.table.round.number if ruling.table is not None else None


CHART_WIDTH, CHART_HEIGHT = 480, 200
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 10, 12, 26


def cumulative_chart(games: list[PlayedGame]) -> Chart:
    """One point per game: x the game's place in the player's tournament, y the running total
    (lower is better, R8.6, so a flat line is a good run)."""
    top_total = max((game.running for game in games), default=0) or 1
    bottom_total = min([0, *(game.running for game in games)])
    span = (top_total - bottom_total) or 1
    plot_width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    step = plot_width / max(len(games) - 1, 1)
    points, rounds = [], []
    for index, game in enumerate(games):
        x = round(CHART_LEFT + index * step, 1)
        y = round(CHART_TOP + plot_height * (1 - (game.running - bottom_total) / span), 1)
        title = (game.title or f"Game {game.number}").lower()
        label = gettext("Round {round}, {title}: {score} (total {total})").format(
            round=game.round, title=title, score=game.score, total=game.running
        )
        points.append(ChartPoint(x, y, label))
        if index == 0 or games[index - 1].round != game.round:
            rounds.append((x, f"R{game.round}"))
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        left=CHART_LEFT,
        top=CHART_TOP,
        bottom=CHART_HEIGHT - CHART_BOTTOM,
        right=CHART_WIDTH - CHART_RIGHT,
        top_total=top_total,
        points=points,
        rounds=rounds,
        bottom_total=bottom_total,
    )
