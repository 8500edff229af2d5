"""Reads of tables and seats.

Terms
- seat line: one seat as pages show it: position (clockwise from 1), player, club, and whether
  the seat holds the first dealer of the set (R4.3).
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

from games.base import Rules, RulesError, ScheduleKind
from tables.models import Seat, Table
from tournament.models import Round, Tournament


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


# --- seats and dealers (R4.3) -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    position: int
    entry_id: int
    name: str
    club: str
    is_first_dealer: bool


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
    """The seats of `table` in seat order; reads `seats_prefetch()` when it was used."""
    return [
        SeatLine(
            position=seat.position,
            entry_id=seat.entry_id,
            name=seat.entry.player.name,
            club=seat.entry.player.club,
            is_first_dealer=seat.is_first_dealer,
        )
        for seat in table.seats.all()
    ]


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
