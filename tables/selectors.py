"""Reads of tables and seats.

Terms
- seat line: one seat as pages show it: position (clockwise from 1), player, club, and whether
  the seat holds the first dealer of the set (R4.3). A team entry (HF1.2) holds one seat, the
  team's, and its partners sit opposite each other: its seat line becomes one line per partner,
  partner 1 at the team's seat and partner 2 across the table (seats 1 & 3, 2 & 4), each naming
  the team, so that pages and forms see the partners as the game does.
- deal line: one deal of a match as its game describes it (``Rules.deal``), with its dealer: the
  first dealer deals the first and the game says how many seats clockwise each deal's dealer
  sits (Kalooki R4.3: one seat per game; a void game is redealt by the same dealer, R9.2).
- print sheet: what the printed table cards and score sheets of a round need, read with a fixed
  number of queries however many tables the round has.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from games.base import Rules, RulesError, ScheduleKind
from tables import designs
from tables.models import Bye, PinnedSeat, Seat, SeatingRecord, Table
from tables.seating import DesignPlace, Pin, SeatDuty, SeatingMode
from tournament.models import EntryMember, Round, Tournament

MODES = {mode.value for mode in SeatingMode}


def seatings_before(round: Round) -> list[list[list[int]]]:
    """The seating of every earlier round of the tournament: rounds of tables of entry ids."""
    seats = (
        Seat.objects.filter(round__tournament=round.tournament_id, round__number__lt=round.number)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "entry_id")
    )
    rounds: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for round_number, table_number, entry_id in seats:
        rounds[round_number][table_number].append(entry_id)
    return [list(tables.values()) for tables in rounds.values()]


def byes_before(round: Round) -> dict[int, int]:
    """How many byes each entry had in the tournament's earlier rounds, by entry id."""
    byes = Bye.objects.filter(
        round__tournament=round.tournament_id, round__number__lt=round.number
    ).values_list("entry_id", flat=True)
    counts: dict[int, int] = defaultdict(int)
    for entry_id in byes:
        counts[entry_id] += 1
    return dict(counts)


def seat_duties_before(round: Round) -> dict[int, SeatDuty]:
    """How often each entry dealt first, and played first (the seat after the first dealer's,
    R4.3), in the tournament's earlier rounds, by entry id (one query)."""
    seats = (
        Seat.objects.filter(round__tournament=round.tournament_id, round__number__lt=round.number)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id", "is_first_dealer")
    )
    tables: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for table_id, entry_id, is_first_dealer in seats:
        tables[table_id].append((entry_id, is_first_dealer))
    deals: dict[int, int] = defaultdict(int)
    plays: dict[int, int] = defaultdict(int)
    for table in tables.values():
        dealer = next((i for i, (_, first) in enumerate(table) if first), None)
        if dealer is None:
            continue
        deals[table[dealer][0]] += 1
        plays[table[(dealer + 1) % len(table)][0]] += 1
    return {entry: SeatDuty(deals[entry], plays[entry]) for entry in set(deals) | set(plays)}


def design_place_before(round: Round) -> DesignPlace | None:
    """The design place of the round before `round`, when that round avoided repeats by a
    design: the next round follows the design's next round (one query)."""
    record = SeatingRecord.objects.filter(
        round__tournament=round.tournament_id, round__number=round.number - 1
    ).first()
    if record is None or record.mode != SeatingMode.AVOID_REPEATS:
        return None
    return DesignPlace.from_dict(record.design)


def pins_of(tournament: Tournament) -> dict[int, Pin]:
    """The tournament's pinned seats by entry id (one query)."""
    found = PinnedSeat.objects.filter(tournament=tournament).values_list(
        "entry_id", "table", "position"
    )
    return {entry: Pin(table, position) for entry, table, position in found}


@dataclass(frozen=True)
class PinLine:
    """One pinned seat as pages show it."""

    entry_id: int
    name: str
    table: int
    position: int | None
    reason: str

    @property
    def place(self) -> str:
        return Pin(self.table, self.position).words()


def pin_lines(tournament: Tournament) -> list[PinLine]:
    """The tournament's pinned seats by table and seat (one query)."""
    pins = PinnedSeat.objects.filter(tournament=tournament).select_related("entry__player")
    return [
        PinLine(pin.entry_id, pin.entry.name, pin.table, pin.position, pin.reason)
        for pin in pins.order_by("table", "position", "entry_id")
    ]


@dataclass(frozen=True)
class SeatingSummary:
    """How a round was seated, in words: its mode, and the design it follows if any."""

    mode: str
    words: str
    design: str  # "round 2 of 6 of the affine plane AG(2, 5)", or ""


def seating_summary(round: Round) -> SeatingSummary | None:
    """How the round was seated, once it has been (one query)."""
    record = SeatingRecord.objects.filter(round=round).first()
    if record is None:
        return None
    place = DesignPlace.from_dict(record.design)
    design = designs.design_by_key(place.key) if place else None
    follows = ""
    if place is not None and design is not None:
        follows = _("round {round} of {rounds} of the {design}").format(
            round=place.round + 1, rounds=len(design.rounds), design=design.name
        )
    words = SeatingMode(record.mode).words if record.mode in MODES else record.mode_words
    return SeatingSummary(record.mode, words, follows)


@dataclass(frozen=True)
class ByeLine:
    """One player sitting out a round."""

    entry_id: int
    name: str
    club: str


def round_byes(round: Round) -> list[ByeLine]:
    """The players with a bye in `round`, by name (1 query)."""
    byes = Bye.objects.filter(round=round).select_related("entry__player")
    lines = [ByeLine(b.entry_id, b.entry.name, b.entry.player.club) for b in byes]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.entry_id))


# --- seats and dealers (R4.3) -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    position: int
    entry_id: int
    name: str
    club: str
    is_first_dealer: bool
    team: str = ""  # the team's name, on a partner's line (HF1.2)


@dataclass(frozen=True)
class DealLine:
    """One deal of the match at one table as the game describes it ("Game 3", "11 cards: two
    threes and one four"), and who deals it, where the game has a dealer (Kalooki R4.3)."""

    number: int
    title: str
    summary: str
    dealer: SeatLine | None  # None where the game has no dealer, or no first dealer is marked
    has_dealer: bool = True  # whether the game names a dealer for this deal
    facts: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def dealt(self) -> int | None:
        return self.facts.get("dealt")

    @property
    def contract(self) -> str:
        return self.facts.get("contract", "")

    @property
    def contract_words(self) -> str:
        """Kalooki's contract in words: its summary says "11 cards: one three and two fours"."""
        if self.contract and ": " in self.summary:
            return self.summary.split(": ", 1)[1]
        return self.summary


def dealer_index(first_dealer: int, game: int, seats: int) -> int:
    """Index in seat order of the dealer of `game` (1-based): clockwise one seat per game (R4.3)."""
    return (first_dealer + game - 1) % seats


def first_dealer_index(seats: Sequence[SeatLine]) -> int | None:
    return next((i for i, seat in enumerate(seats) if seat.is_first_dealer), None)


def schedule_numbers(rules: Rules[Any], played: int = 0) -> list[int]:
    """The deals of a match, for pages and score sheets: the schedule's fixed list, or for a
    match to a target score the deals played so far and the next one."""
    schedule = rules.schedule()
    if schedule.kind != ScheduleKind.TARGET and schedule.deals:
        return list(range(1, schedule.deals + 1))
    return list(range(1, played + 2))


def deal_lines(
    seats: Sequence[SeatLine], rules: Rules[Any], numbers: Iterable[int]
) -> list[DealLine]:
    """The deals `numbers` at a table of `seats`, each with its dealer (Kalooki R4.3)."""
    first = first_dealer_index(seats)
    lines = []
    for number in numbers:
        try:
            spec = rules.deal(number)
        except RulesError:
            continue
        dealer = None
        if spec.dealer_step is not None and first is not None and seats:
            dealer = seats[(first + spec.dealer_step) % len(seats)]
        lines.append(
            DealLine(
                number=spec.number,
                title=spec.title,
                summary=spec.summary,
                dealer=dealer,
                has_dealer=spec.dealer_step is not None,
                facts=dict(spec.facts),
                notes=tuple(spec.notes),
            )
        )
    return lines


def seats_prefetch() -> Prefetch:
    """Prefetch a table's seats in seat order with their players: one query for any tables."""
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
    )


def seat_lines(table: Table) -> list[SeatLine]:
    """The seats of `table` in seat order; reads `seats_prefetch()` when it was used. A table of
    teams reads their partners too (one query more, for a game of partners only)."""
    seats = list(table.seats.all())
    if not any(seat.entry.team_name for seat in seats):
        return [
            SeatLine(
                position=seat.position,
                entry_id=seat.entry_id,
                name=seat.entry.name,
                club=seat.entry.player.club,
                is_first_dealer=seat.is_first_dealer,
            )
            for seat in seats
        ]
    return partner_lines(seats)


def partner_lines(seats: Sequence[Seat]) -> list[SeatLine]:
    """The partners of the teams in `seats` (one seat a team), partner 1 at the team's seat and
    partner 2 opposite (HF1.2): at a table of two teams, seats 1 & 3 and 2 & 4."""
    members: dict[int, list[EntryMember]] = defaultdict(list)
    found = EntryMember.objects.filter(entry_id__in=[seat.entry_id for seat in seats])
    for member in found.select_related("player").order_by("position"):
        members[member.entry_id].append(member)
    lines = [
        SeatLine(
            position=index + 1 + (member.position - 1) * len(seats),
            entry_id=seat.entry_id,
            name=member.player.name,
            club=member.player.club,
            is_first_dealer=seat.is_first_dealer and member.position == 1,
            team=seat.entry.name,
        )
        for index, seat in enumerate(seats)
        for member in members[seat.entry_id]
    ]
    return sorted(lines, key=lambda line: line.position)


# --- printing -----------------------------------------------------------------------------------

# A printed sheet of a match to a target score has this many rows: more than most matches need.
PRINTED_TARGET_ROWS = 12


@dataclass(frozen=True)
class TablePrint:
    number: int
    access_token: str
    seats: list[SeatLine]
    games: list[DealLine]

    @property
    def first_dealer(self) -> SeatLine | None:
        return next((seat for seat in self.seats if seat.is_first_dealer), None)

    @property
    def teams(self) -> list[tuple[str, list[SeatLine]]]:
        """The teams of a game of partners with their partners in seat order (HF1.2); none at
        a table of single players."""
        teams: dict[int, tuple[str, list[SeatLine]]] = {}
        for seat in self.seats:
            if seat.team:
                teams.setdefault(seat.entry_id, (seat.team, []))[1].append(seat)
        return list(teams.values())


@dataclass(frozen=True)
class RoundPrint:
    tournament: Tournament
    round: Round
    tables: list[TablePrint]


def round_print_get(*, round: Round, table_number: int | None = None) -> RoundPrint:
    """The tables of `round` (or only table `table_number`) with seats and the nine games.

    Two queries (tables, seats with players) for any number of tables. `round.tournament`
    should be loaded with the round (`select_related("tournament")`).
    """
    tables: QuerySet[Table] = round.tables.order_by("number").prefetch_related(seats_prefetch())
    if table_number is not None:
        tables = tables.filter(number=table_number)
    rules = round.tournament.rules()
    numbers = schedule_numbers(rules, played=PRINTED_TARGET_ROWS - 1)
    printed = []
    for table in tables:
        seats = seat_lines(table)
        printed.append(
            TablePrint(table.number, table.access_token, seats, deal_lines(seats, rules, numbers))
        )
    return RoundPrint(tournament=round.tournament, round=round, tables=printed)
