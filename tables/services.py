"""Writes to tables and seats: seating a round (R12.1, R12.2), drawing first dealers (R4.3),
moving and swapping players in a draft, and reissuing a table's private link.

Seat edits keep each table's positions 1..n with no gaps, and exactly one first dealer per table:
a swapped-in player takes the other's seat, first deal included; a moved player joins the new
table as an ordinary seat, and when the first dealer leaves a table the next player clockwise
deals first instead (R4.3).
"""

import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.base import Rules
from tables.models import MAX_SEATS, Bye, Seat, Table, new_access_token
from tables.seating import (
    MeetingHistory,
    SeatingError,
    choose_first_dealers,
    seat_round_with_byes,
    sides_word,
)
from tables.selectors import byes_before, seatings_before
from tournament.models import Entry, Round
from tournament.services import audit_record

__all__ = [
    "SeatingClosed",
    "SeatingError",
    "bye_swap",
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
    *,
    round: Round,
    by: AbstractBaseUser | None = None,
    seed: int | None = None,
    standing: Sequence[int] = (),
) -> list[Table]:
    """Seat the checked-in players of a draft round, replacing its earlier draft seating.

    Earlier rounds' meetings are avoided; the seeds of the seating and of the first-dealer draw
    are stored on the round, so the same seeds reproduce the same tables. When the game's table
    plan leaves players over, they get byes: the fewest byes so far first, then the lowest in
    `standing` (entry ids, best first; the caller reads the standings).
    """
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if not round.is_editable():
        raise SeatingError(
            f"Round {round.number} is {round.get_status_display().lower()}: its seating can no "
            "longer be redrawn. Move players one by one, or record a ruling."
        )
    rules = round.tournament.rules()
    checked_in = round.tournament.entries.checked_in().order_by("id")
    _check_teams_seated_as_teams(rules, checked_in)
    entry_ids = list(checked_in.values_list("id", flat=True))
    round.seating_seed = _new_seed() if seed is None else seed
    round.dealer_seed = round.seating_seed ^ 0x5EA7
    history = MeetingHistory.from_rounds(seatings_before(round))
    seating = seat_round_with_byes(
        entry_ids,
        history,
        seed=round.seating_seed,
        rules=rules,
        byes_so_far=byes_before(round),
        standing=standing,
    )
    groups = seating.tables
    dealers = choose_first_dealers(groups, seed=round.dealer_seed)
    round.tables.all().delete()
    round.byes.all().delete()
    round.save(update_fields=["seating_seed", "dealer_seed"])
    tables = _create_tables(round, groups, dealers)
    Bye.objects.bulk_create(Bye(round=round, entry_id=entry_id) for entry_id in seating.byes)
    byes = f", {len(seating.byes)} with a bye" if seating.byes else ""
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="round.seat",
        summary=(
            f"Seated round {round.number}: {len(entry_ids)} {sides_word(rules)} at "
            f"{len(tables)} table{'s' if len(tables) != 1 else ''}{byes}"
        ),
        detail={
            "round": round.number,
            "seed": round.seating_seed,
            "tables": groups,
            "byes": seating.byes,
        },
    )
    return tables


def _check_teams_seated_as_teams(rules: Rules[Any], checked_in: QuerySet[Entry]) -> None:
    """In a game of partners each side is a team entry (HF1.2): a player entered alone (from
    before teams were entered as teams) has no partner to sit opposite."""
    if rules.shape().members == 1:
        return
    alone = list(checked_in.filter(team_name="").select_related("player")[:3])
    if alone:
        names = ", ".join(entry.name for entry in alone)
        raise SeatingError(
            f"{rules.game.name} seats teams of two partners (HF1.2), and {names} "
            "entered alone: withdraw them and enter each pair as a team, or seat by hand."
        )


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
    """Swap two players' seats in a draft round (at one table or two). When one of them has a
    bye, the other takes the bye and the first the seat (`bye_swap`)."""
    round = _draft_round(round)
    byes = set(
        Bye.objects.filter(round=round, entry_id__in=[entry_a.pk, entry_b.pk]).values_list(
            "entry_id", flat=True
        )
    )
    if len(byes) == 2:
        raise SeatingError(
            f"{entry_a.player.name} and {entry_b.player.name} both have a bye in round "
            f"{round.number}: swap a player with a bye and a seated player."
        )
    if byes:
        sitting_out, seated = (entry_a, entry_b) if entry_a.pk in byes else (entry_b, entry_a)
        seat = bye_swap(round=round, bye_entry=sitting_out, seated_entry=seated, by=by)
        return seat, seat
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
    return f"{seat.entry.name} to table {seat.table.number}, seat {seat.position}"


def _seat_of(round: Round, entry: Entry) -> Seat:
    seat = (
        Seat.objects.select_related("table", "entry__player")
        .filter(round=round, entry_id=entry.pk)
        .first()
    )
    if seat is None:
        raise SeatingError(
            f"{entry.name} has no seat in round {round.number}: seat the round first, "
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
    name = seat.entry.name
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


@transaction.atomic
def bye_swap(
    *, round: Round, bye_entry: Entry, seated_entry: Entry, by: AbstractBaseUser | None
) -> Seat:
    """Give a draft round's bye to a seated player: the player with the bye takes that
    player's seat (first deal included), and that player sits out instead."""
    round = _draft_round(round)
    bye = Bye.objects.filter(round=round, entry_id=bye_entry.pk).first()
    if bye is None:
        raise SeatingError(
            f"{bye_entry.player.name} has no bye in round {round.number}: choose a player "
            "with a bye."
        )
    place = _seat_of(round, seated_entry)
    place.delete()
    bye.delete()
    seat = _seat_at(place, entry=bye_entry)
    seat.save()
    Bye.objects.create(round=round, entry=seated_entry)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="bye.swap",
        summary=(
            f"Round {round.number}: {bye_entry.player.name} to table {place.table.number}, "
            f"seat {place.position}; bye to {seated_entry.player.name}"
        ),
        detail={"round": round.number, "seated": bye_entry.pk, "bye": seated_entry.pk},
    )
    return seat


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
