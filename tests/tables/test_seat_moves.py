"""The director swaps and moves players while a round is a draft; after that, a change is a ruling.

Ten players sit at two tables of five. Seats stay numbered 1..n with no gap, and every table
keeps exactly one first dealer (R4.3).
"""

import pytest

from tables.models import Seat, Table
from tables.services import (
    SeatingClosed,
    SeatingError,
    seat_move,
    seat_swap,
    table_link_reissue,
)
from tests.factories import EntryFactory
from tests.scoring.playing import director_of, entry, seated_round, tables_of, tournament_with
from tournament.models import AuditEvent, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def round() -> Round:
    return seated_round(tournament_with(10), seed=5)


def layout(table: Table) -> list[tuple[str, bool]]:
    """The table's players in seat order, each with whether they deal first."""
    seats = table.seats.select_related("entry__player").order_by("position")
    return [(seat.entry.player.name, seat.is_first_dealer) for seat in seats]


def names(table: Table) -> list[str]:
    return [name for name, _ in layout(table)]


def first_dealer(table: Table) -> str:
    [dealer] = [name for name, deals in layout(table) if deals]
    return dealer


def positions(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("position", flat=True))


def seat_of(round: Round, name: str) -> Seat:
    return Seat.objects.select_related("table").get(round=round, entry__player__name=name)


class TestSwap:
    def test_two_players_at_different_tables_take_each_others_seats(self, round) -> None:
        one, two = tables_of(round)
        a, b = names(one)[1], names(two)[3]
        tournament = round.tournament
        seat_swap(round=round, entry_a=entry(tournament, a), entry_b=entry(tournament, b), by=None)
        assert names(one)[1] == b and names(two)[3] == a
        assert len(names(one)) == len(names(two)) == 5

    def test_the_first_deal_stays_with_the_seat_r4_3(self, round) -> None:
        one, two = tables_of(round)
        dealer = first_dealer(one)
        other = next(name for name in names(two) if name != first_dealer(two))
        seat_swap(
            round=round,
            entry_a=entry(round.tournament, dealer),
            entry_b=entry(round.tournament, other),
            by=None,
        )
        assert first_dealer(one) == other
        assert dealer in names(two) and first_dealer(two) != dealer

    def test_two_players_at_one_table_swap_too(self, round) -> None:
        one, _ = tables_of(round)
        before = names(one)
        seat_swap(
            round=round,
            entry_a=entry(round.tournament, before[0]),
            entry_b=entry(round.tournament, before[4]),
            by=None,
        )
        assert names(one) == [before[4], *before[1:4], before[0]]

    def test_it_is_audited_with_who_and_what(self, round) -> None:
        alice = director_of(round.tournament)
        one, two = tables_of(round)
        a, b = names(one)[0], names(two)[0]
        seat_swap(
            round=round,
            entry_a=entry(round.tournament, a),
            entry_b=entry(round.tournament, b),
            by=alice,
        )
        event = AuditEvent.objects.get(action="seat.swap")
        assert event.actor == alice
        assert f"{a} to table 2, seat 1" in event.summary
        assert f"{b} to table 1, seat 1" in event.summary

    def test_a_player_cannot_swap_with_themself(self, round) -> None:
        ann = entry(round.tournament, "Ann")
        with pytest.raises(SeatingError, match="two different players"):
            seat_swap(round=round, entry_a=ann, entry_b=ann, by=None)

    def test_a_player_without_a_seat_is_refused(self, round) -> None:
        late = EntryFactory(tournament=round.tournament, player__name="Late Larry")
        with pytest.raises(SeatingError, match="Late Larry has no seat in round 1"):
            seat_swap(round=round, entry_a=late, entry_b=entry(round.tournament, "Ann"), by=None)


class TestMove:
    def test_a_moved_player_takes_the_last_seat_and_the_gap_closes(self, round) -> None:
        one, two = tables_of(round)
        mover = names(one)[1]
        seat_move(round=round, entry=entry(round.tournament, mover), table=two, by=None)
        assert names(two)[-1] == mover and len(names(two)) == 6
        assert positions(one) == [1, 2, 3, 4] and positions(two) == [1, 2, 3, 4, 5, 6]

    def test_a_moved_player_can_take_a_chosen_seat(self, round) -> None:
        one, two = tables_of(round)
        mover, before = names(one)[0], names(two)
        seat_move(round=round, entry=entry(round.tournament, mover), table=two, position=2, by=None)
        assert names(two) == [before[0], mover, *before[1:]]

    def test_a_moved_player_never_deals_first_at_the_new_table_r4_3(self, round) -> None:
        one, two = tables_of(round)
        dealer_two = first_dealer(two)
        seat_move(round=round, entry=entry(round.tournament, first_dealer(one)), table=two, by=None)
        assert first_dealer(two) == dealer_two

    def test_when_the_first_dealer_leaves_the_next_player_clockwise_deals_first_r4_3(
        self, round
    ) -> None:
        one, two = tables_of(round)
        before = layout(one)
        index = [deals for _, deals in before].index(True)
        following = before[(index + 1) % len(before)][0]
        seat_move(round=round, entry=entry(round.tournament, before[index][0]), table=two, by=None)
        assert first_dealer(one) == following
        assert sum(deals for _, deals in layout(one)) == 1

    def test_it_is_audited(self, round) -> None:
        one, two = tables_of(round)
        mover = names(one)[0]
        seat_move(round=round, entry=entry(round.tournament, mover), table=two, by=None)
        event = AuditEvent.objects.get(action="seat.move")
        assert event.summary == f"Round 1: moved {mover} to table 2, seat 6"

    def test_a_move_to_the_same_table_is_refused(self, round) -> None:
        one, _ = tables_of(round)
        with pytest.raises(SeatingError, match="already sits at table 1: swap"):
            seat_move(round=round, entry=entry(round.tournament, names(one)[0]), table=one, by=None)

    def test_a_full_table_takes_nobody_more_r12_2(self, round) -> None:
        one, two = tables_of(round)
        seat_move(round=round, entry=entry(round.tournament, names(one)[0]), table=two, by=None)
        with pytest.raises(SeatingError, match="Table 2 is full: it seats 6"):
            seat_move(round=round, entry=entry(round.tournament, names(one)[0]), table=two, by=None)

    def test_a_seat_beyond_the_table_is_refused(self, round) -> None:
        one, two = tables_of(round)
        with pytest.raises(SeatingError, match="Choose a seat from 1 to 6 at table 2"):
            seat_move(
                round=round,
                entry=entry(round.tournament, names(one)[0]),
                table=two,
                position=7,
                by=None,
            )

    def test_a_table_is_never_emptied_by_moves(self) -> None:
        round = seated_round(tournament_with(12), seed=2)  # three tables of four
        one, two, three = tables_of(round)
        leaving = names(three)
        for name, table in zip(leaving[:3], [one, two, one], strict=True):
            seat_move(round=round, entry=entry(round.tournament, name), table=table, by=None)
        with pytest.raises(SeatingError, match="Table 3 would be left with nobody"):
            seat_move(round=round, entry=entry(round.tournament, leaving[3]), table=two, by=None)
        assert names(three) == [leaving[3]]

    def test_a_table_of_another_round_is_refused(self, round) -> None:
        other = seated_round(round.tournament, number=2, seed=9)
        with pytest.raises(SeatingError, match="is not a table of round 1"):
            seat_move(
                round=round,
                entry=entry(round.tournament, "Ann"),
                table=tables_of(other)[0],
                by=None,
            )


@pytest.mark.parametrize("status", [Round.Status.PUBLISHED, Round.Status.IN_PLAY])
def test_after_publishing_a_change_is_a_ruling(round, status) -> None:
    Round.objects.filter(pk=round.pk).update(status=status)
    one, two = tables_of(round)
    before = names(one), names(two)
    ann, ben = entry(round.tournament, names(one)[0]), entry(round.tournament, names(two)[0])
    words = status.replace("_", " ")
    with pytest.raises(SeatingClosed, match=f"Round 1 is {words}: a change now is a ruling"):
        seat_swap(round=round, entry_a=ann, entry_b=ben, by=None)
    with pytest.raises(SeatingClosed, match="a change now is a ruling"):
        seat_move(round=round, entry=ann, table=two, by=None)
    assert (names(one), names(two)) == before
    assert not AuditEvent.objects.filter(action__startswith="seat.").exists()


def test_a_new_link_revokes_the_old_one_and_is_audited(round) -> None:
    table = tables_of(round)[0]
    old = table.access_token
    alice = director_of(round.tournament)
    renewed = table_link_reissue(table=table, by=alice)
    assert renewed.access_token != old
    assert not Table.objects.filter(access_token=old).exists()
    assert AuditEvent.objects.get(action="table.link_reissue").actor == alice
