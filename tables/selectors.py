"""Reads of tables and seats."""

from collections import defaultdict

from tables.models import Seat
from tournament.models import Round


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
