"""Seating a round through the service: stored seeds, checked-in players only, drafts only."""

import pytest

from tables.models import Seat
from tables.seating import SeatingError
from tables.services import round_seat
from tests.factories import EntryFactory, RoundFactory, TournamentFactory
from tournament.models import AuditEvent, Entry, Round

pytestmark = pytest.mark.django_db


def _tournament_with(players: int, status: str = Entry.Status.CHECKED_IN):
    tournament = TournamentFactory()
    EntryFactory.create_batch(players, tournament=tournament, status=status)
    return tournament


def test_it_seats_only_checked_in_players_r12_1() -> None:
    tournament = _tournament_with(13)
    EntryFactory.create_batch(2, tournament=tournament, status=Entry.Status.WITHDRAWN)
    EntryFactory(tournament=tournament, status=Entry.Status.REGISTERED)
    tables = round_seat(round=RoundFactory(tournament=tournament), seed=7)
    assert sorted(table.seats.count() for table in tables) == [4, 4, 5]
    assert Seat.objects.count() == 13


def test_the_same_seed_gives_the_same_tables_and_dealers() -> None:
    round = RoundFactory(tournament=_tournament_with(23))
    first = _layout(round_seat(round=round, seed=42))
    second = _layout(round_seat(round=round, seed=42))
    assert first == second
    round.refresh_from_db()
    assert round.seating_seed == 42 and round.dealer_seed is not None


def _layout(tables) -> list[list[tuple[int, bool]]]:
    return [
        list(table.seats.order_by("position").values_list("entry_id", "is_first_dealer"))
        for table in tables
    ]


def test_it_refuses_fewer_than_three_players_and_keeps_the_old_seating() -> None:
    with pytest.raises(SeatingError, match="at least 3"):
        round_seat(round=RoundFactory(tournament=_tournament_with(2)), seed=1)
    assert not Seat.objects.exists()


def test_a_published_round_is_not_redrawn() -> None:
    round = RoundFactory(tournament=_tournament_with(10), status=Round.Status.PUBLISHED)
    with pytest.raises(SeatingError, match="ruling"):
        round_seat(round=round, seed=1)


def test_round_two_avoids_the_opponents_of_round_one() -> None:
    tournament = _tournament_with(25)
    round_seat(round=RoundFactory(tournament=tournament, number=1), seed=3)
    second = round_seat(round=RoundFactory(tournament=tournament, number=2), seed=4)
    met = {
        frozenset(pair)
        for table in tournament.rounds.get(number=1).tables.all()
        for pair in _pairs(table)
    }
    assert not any(frozenset(pair) in met for table in second for pair in _pairs(table))


def _pairs(table) -> list[tuple[int, int]]:
    ids = list(table.seats.values_list("entry_id", flat=True))
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]


def test_seating_is_in_the_audit_log() -> None:
    round = RoundFactory(tournament=_tournament_with(5))
    round_seat(round=round, seed=1)
    event = AuditEvent.objects.get()
    assert event.action == "round.seat"
    assert event.detail["seed"] == 1
