"""Writes to tables and seats: seating a round (R12.1, R12.2) and drawing first dealers (R4.3)."""

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tables.models import Seat, Table
from tables.seating import MeetingHistory, SeatingError, choose_first_dealers, seat_round
from tables.selectors import seatings_before
from tournament.models import Round
from tournament.services import audit_record

__all__ = ["SeatingError", "round_seat"]


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
    groups = seat_round(
        entry_ids, history, seed=round.seating_seed, ruleset=round.tournament.rules()
    )
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
