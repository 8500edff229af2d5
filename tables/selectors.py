"""Reads of tables and seats.

Terms
- seat line: one seat as pages show it: position (clockwise from 1), player, club, and whether
  the seat holds the first dealer of the set (R4.3).
- dealer of a game: the first dealer deals game 1 and the deal passes clockwise one seat per game
  (R4.3); a void game is redealt by the same dealer (R9.2), so the dealer depends only on the
  game's number.
- print sheet: what the printed table cards and score sheets of a round need, read with a fixed
  number of queries however many tables the round has.
"""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from games.kalooki import GameSpec
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
class GameLine:
    """One game of the set at one table: what is dealt, the contract, and who deals (R4, R4.3)."""

    number: int
    dealt: int
    contract: str  # the digits, "334"
    contract_words: str  # "two threes and one four"
    dealer: SeatLine | None  # None while the table has no first dealer marked


def dealer_index(first_dealer: int, game: int, seats: int) -> int:
    """Index in seat order of the dealer of `game` (1-based): clockwise one seat per game (R4.3)."""
    return (first_dealer + game - 1) % seats


def first_dealer_index(seats: Sequence[SeatLine]) -> int | None:
    return next((i for i, seat in enumerate(seats) if seat.is_first_dealer), None)


def game_lines(seats: Sequence[SeatLine], games: Sequence[GameSpec]) -> list[GameLine]:
    """The games of a set at a table of `seats`, each with its dealer (R4.3)."""
    first = first_dealer_index(seats)
    return [
        GameLine(
            number=spec.number,
            dealt=spec.dealt,
            contract=spec.contract,
            contract_words=spec.describe(),
            dealer=None if first is None else seats[dealer_index(first, spec.number, len(seats))],
        )
        for spec in games
    ]


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


@dataclass(frozen=True)
class TablePrint:
    number: int
    access_token: str
    seats: list[SeatLine]
    games: list[GameLine]

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
    games = round.tournament.rules().ruleset.games
    printed = []
    for table in tables:
        seats = seat_lines(table)
        printed.append(
            TablePrint(table.number, table.access_token, seats, game_lines(seats, games))
        )
    return RoundPrint(tournament=round.tournament, round=round, tables=printed)
