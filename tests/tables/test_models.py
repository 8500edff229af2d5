"""The database itself refuses a player seated twice in a round and a seat taken twice."""

import pytest
from django.db import IntegrityError, transaction

from tables.models import Seat
from tests.factories import EntryFactory, SeatFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_a_seat_position_is_taken_once_per_table() -> None:
    seat = SeatFactory(position=1)
    other = EntryFactory(tournament=seat.round.tournament)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=seat.table, round=seat.round, entry=other, position=1)


def test_a_player_is_seated_once_per_round() -> None:
    seat = SeatFactory(position=1)
    other_table = TableFactory(round=seat.round)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=other_table, round=seat.round, entry=seat.entry, position=1)


def test_a_player_sits_again_in_the_next_round() -> None:
    seat = SeatFactory(position=1)
    next_table = TableFactory(round__tournament=seat.round.tournament, round__number=2)
    Seat.objects.create(table=next_table, round=next_table.round, entry=seat.entry, position=1)
    assert seat.entry.seats.count() == 2


def test_a_table_has_one_first_dealer() -> None:
    seat = SeatFactory(position=1, is_first_dealer=True)
    other = EntryFactory(tournament=seat.round.tournament)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            table=seat.table, round=seat.round, entry=other, position=2, is_first_dealer=True
        )


@pytest.mark.parametrize("position", [0, 7])
def test_seat_positions_run_from_one_to_six(position: int) -> None:
    table = TableFactory()
    entry = EntryFactory(tournament=table.round.tournament)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, round=table.round, entry=entry, position=position)


def test_every_table_gets_its_own_private_link_token() -> None:
    first, second = TableFactory(), TableFactory()
    assert len(first.access_token) >= 32
    assert first.access_token != second.access_token
