"""Writes to tables and seats: seating a round (R12.1, R12.2), drawing first dealers (R4.3),
moving and swapping players in a draft, and reissuing a table's private link.

Seat edits keep each table's positions 1..n with no gaps, and exactly one first dealer per table:
a swapped-in player takes the other's seat, first deal included; a moved player joins the new
table as an ordinary seat, and when the first dealer leaves a table the next player clockwise
deals first instead (R4.3).
"""

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tables.models import MAX_SEATS, Seat, Table, new_access_token
from tables.seating import MeetingHistory, SeatingError, choose_first_dealers, seat_round
from tables.selectors import seatings_before
from tournament.models import Entry, Round
from tournament.services import audit_record

__all__ = [
    "SeatingClosed",
    "SeatingError",
    "round_seat",
    "seat_move",
    "seat_relocate",
    "seat_swap",
    "seats_exchange",
    "table_link_reissue",
]


def _new_seed() -> int:
    return secrets.randbelow(2**31)


@transaction.atomic
def round_seat(
    *, round: Round, by: AbstractBaseUser | None = None, seed: int | None = None
) -> list[Table]:
    """Seat the checked-in players of a draft round, replacing its earlier draft seating.

    Earlier rounds' meetings are avoided; the seeds of the seating and of the first-dealer draw
    are stored on the round, so the same seeds reproduce the same tables.
    """
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if not round.is_editable():
        raise SeatingError(
            f"Round {round.number} is {round.get_status_display().lower()}: its seating can no "
            "longer be redrawn. Move players one by one, or record a ruling."
        )
    entry_ids = list(
        round.tournament.entries.checked_in().order_by("id").values_list("id", flat=True)
    )
    round.seating_seed = _new_seed() if seed is None else seed
    round.dealer_seed = round.seating_seed ^ 0x5EA7
    history = MeetingHistory.from_rounds(seatings_before(round))
    groups = seat_round(entry_ids, history, seed=round.seating_seed, rules=round.tournament.rules())
    dealers = choose_first_dealers(groups, seed=round.dealer_seed)
    round.tables.all().delete()
    round.save(update_fields=["seating_seed", "dealer_seed"])
    tables = _create_tables(round, groups, dealers)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="round.seat",
        summary=f"Seated round {round.number}: {len(entry_ids)} players at {len(tables)} tables",
        detail={"round": round.number, "seed": round.seating_seed, "tables": groups},
    )
    return tables


def _create_tables(round: Round, groups: list[list[int]], dealers: list[int]) -> list[Table]:
    tables = Table.objects.bulk_create(
        [Table(round=round, number=number) for number in range(1, len(groups) + 1)]
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round,
            entry_id=entry_id,
            position=index + 1,
            is_first_dealer=index == dealer,
        )
        for table, group, dealer in zip(tables, groups, dealers, strict=True)
        for index, entry_id in enumerate(group)
    )
    return tables


# --- seat edits --------------------------------------------------------------------------------


class SeatingClosed(SeatingError):
    """The round is no longer a draft: its seats change only by a director's ruling."""


def _status_words(round: Round) -> str:
    return round.status.replace("_", " ")


def _draft_round(round: Round) -> Round:
    """The round, locked for the edit, if its seating is still a draft."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if not round.is_editable():
        raise SeatingClosed(
            f"Round {round.number} is {_status_words(round)}: a change now is a ruling (R12.4). "
            "Record it as a seating change on the round page."
        )
    return round


@transaction.atomic
def seat_swap(
    *, round: Round, entry_a: Entry, entry_b: Entry, by: AbstractBaseUser | None
) -> tuple[Seat, Seat]:
    """Swap two players' seats in a draft round (at one table or two)."""
    round = _draft_round(round)
    seats = seats_exchange(round=round, entry_a=entry_a, entry_b=entry_b)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="seat.swap",
        summary=f"Round {round.number}: swapped {_describe(seats[0])}; {_describe(seats[1])}",
        detail={"round": round.number, "entries": [entry_a.pk, entry_b.pk]},
    )
    return seats


@transaction.atomic
def seat_move(
    *,
    round: Round,
    entry: Entry,
    table: Table,
    position: int | None = None,
    by: AbstractBaseUser | None,
) -> Seat:
    """Move a player of a draft round to another table: to `position` (1..n+1), or last."""
    round = _draft_round(round)
    seat = seat_relocate(round=round, entry=entry, table=table, position=position)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="seat.move",
        summary=f"Round {round.number}: moved {_describe(seat)}",
        detail={"round": round.number, "entry": entry.pk, "table": table.number},
    )
    return seat


def _describe(seat: Seat) -> str:
    return f"{seat.entry.player.name} to table {seat.table.number}, seat {seat.position}"


def _seat_of(round: Round, entry: Entry) -> Seat:
    seat = (
        Seat.objects.select_related("table", "entry__player")
        .filter(round=round, entry_id=entry.pk)
        .first()
    )
    if seat is None:
        raise SeatingError(
            f"{entry.player.name} has no seat in round {round.number}: seat the round first, "
            "or choose a seated player."
        )
    return seat


def seats_exchange(*, round: Round, entry_a: Entry, entry_b: Entry) -> tuple[Seat, Seat]:
    """Each player takes the other's seat. No status check or audit: the caller (a draft edit
    or a ruling) has locked the round and decided the change is allowed."""
    seat_a, seat_b = _seat_of(round, entry_a), _seat_of(round, entry_b)
    if seat_a.pk == seat_b.pk:
        raise SeatingError("Choose two different players to swap.")
    # Delete and create again: updating in place would seat one player twice for a moment,
    # which the database's one-seat-per-round constraint refuses.
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    new_a, new_b = Seat.objects.bulk_create(
        [_seat_at(seat_b, entry=seat_a.entry), _seat_at(seat_a, entry=seat_b.entry)]
    )
    return new_a, new_b


def _seat_at(place: Seat, *, entry: Entry) -> Seat:
    """A new seat for `entry` in `place`'s seat, first deal included."""
    return Seat(
        table=place.table,
        round_id=place.round_id,
        entry=entry,
        position=place.position,
        is_first_dealer=place.is_first_dealer,
    )


def seat_relocate(*, round: Round, entry: Entry, table: Table, position: int | None = None) -> Seat:
    """Move a player to another table of the round. No status check or audit (see
    `seats_exchange`); `round` must come with its tournament."""
    seat = _seat_of(round, entry)
    source = seat.table
    leaving = list(source.seats.select_related("entry__player").order_by("position"))
    joining = list(table.seats.select_related("entry__player").order_by("position"))
    _check_move(round, seat, table, len(leaving), len(joining), position)
    stay = _pass_first_deal([s for s in leaving if s.pk != seat.pk], leaving.index(seat), seat)
    seat.table, seat.is_first_dealer = table, False
    joining.insert(len(joining) if position is None else position - 1, seat)
    Seat.objects.filter(table__in=[source, table]).delete()
    created = Seat.objects.bulk_create(_renumbered(stay) + _renumbered(joining))
    return next(new for new in created if new.entry_id == entry.pk)


def _check_move(
    round: Round, seat: Seat, table: Table, leaving: int, joining: int, position: int | None
) -> None:
    if table.round_id != round.pk:
        raise SeatingError(f"{table} is not a table of round {round.number}.")
    name = seat.entry.player.name
    if table.pk == seat.table_id:
        raise SeatingError(
            f"{name} already sits at table {table.number}: swap two players to change seats "
            "at one table."
        )
    if leaving == 1:
        raise SeatingError(
            f"Table {seat.table.number} would be left with nobody: to change the number of "
            "tables, seat the round again."
        )
    shape = round.tournament.rules().shape()
    most = min(MAX_SEATS, shape.max_sides * shape.members)
    if joining >= most:
        raise SeatingError(
            f"Table {table.number} is full: it seats {joining}, the most a table may (R12.2)."
        )
    if position is not None and not 1 <= position <= joining + 1:
        raise SeatingError(f"Choose a seat from 1 to {joining + 1} at table {table.number}.")


def _pass_first_deal(stay: list[Seat], index: int, leaver: Seat) -> list[Seat]:
    """When the first dealer leaves, the next player clockwise deals first (R4.3)."""
    if leaver.is_first_dealer and stay:
        stay[index % len(stay)].is_first_dealer = True
    return stay


def _renumbered(seats: list[Seat]) -> list[Seat]:
    return [
        Seat(
            table=seat.table,
            round_id=seat.round_id,
            entry=seat.entry,
            position=number,
            is_first_dealer=seat.is_first_dealer,
        )
        for number, seat in enumerate(seats, start=1)
    ]


# --- the table's private link ---------------------------------------------------------------------


@transaction.atomic
def table_link_reissue(*, table: Table, by: AbstractBaseUser | None) -> Table:
    """Give the table a new private scorekeeper link; the old one stops working at once."""
    # Only the table's row (`of=self`): results lock its round before it, never after.
    tables = Table.objects.select_for_update(of=("self",)).select_related("round__tournament")
    table = tables.get(pk=table.pk)
    table.access_token = new_access_token()
    table.token_issued_at = timezone.now()
    table.save(update_fields=["access_token", "token_issued_at"])
    audit_record(
        tournament=table.round.tournament,
        actor=by,
        action="table.link_reissue",
        summary=f"Round {table.round.number}: new scorekeeper link for table {table.number}",
        detail={"round": table.round.number, "table": table.number},
    )
    return table
