"""The round lifecycle: draft → published → in play → complete → locked, and every refusal."""

import pytest

from scoring.rounds import (
    RoundError,
    round_add,
    round_complete,
    round_lock,
    round_publish,
    round_remove,
    round_reopen,
    round_start,
    round_unpublish,
)
from scoring.services import ResultRefused
from tables.services import seat_move
from tests.factories import EntryFactory, RoundFactory, TournamentFactory
from tests.scoring.playing import (
    director_of,
    penalty_ruling,
    play,
    play_set,
    published_round,
    seated_round,
    tables_of,
    tournament_with,
)
from tournament.models import AuditEvent, Entry, Round

pytestmark = pytest.mark.django_db

Status = Round.Status


def _actions(tournament) -> list[str]:
    return list(tournament.audit.order_by("at", "id").values_list("action", flat=True))


class TestAddingRounds:
    def test_rounds_are_numbered_in_order_and_each_addition_is_audited(self) -> None:
        tournament = TournamentFactory(rounds_planned=3)
        alice = director_of(tournament)
        first = round_add(tournament=tournament, by=alice)
        Round.objects.filter(pk=first.pk).update(status=Status.PUBLISHED)
        second = round_add(tournament=tournament, by=alice)
        assert (first.number, second.number) == (1, 2)
        assert second.status == Status.DRAFT
        event = AuditEvent.objects.filter(action="round.add").first()
        assert event.actor == alice and "round 2" in event.summary

    def test_it_refuses_a_round_beyond_the_rounds_planned(self) -> None:
        tournament = TournamentFactory(rounds_planned=1)
        RoundFactory(tournament=tournament, number=1, status=Status.LOCKED)
        with pytest.raises(RoundError, match=r"plans 1 round.*raise the number of rounds"):
            round_add(tournament=tournament, by=None)

    def test_it_refuses_a_new_round_while_the_latest_is_a_draft(self) -> None:
        tournament = TournamentFactory(rounds_planned=3)
        round_add(tournament=tournament, by=None)
        with pytest.raises(RoundError, match="Round 1 is still a draft: publish it before"):
            round_add(tournament=tournament, by=None)
        assert tournament.rounds.count() == 1

    def test_removing_the_latest_draft_undoes_adding_it(self) -> None:
        tournament = tournament_with(5, rounds_planned=2)
        round = seated_round(tournament)
        round_remove(round=round, by=None)
        assert not tournament.rounds.exists()
        assert "round.remove" in _actions(tournament)

    def test_a_published_round_cannot_be_removed(self) -> None:
        round = published_round(tournament_with(5))
        with pytest.raises(RoundError, match="only a draft round can be removed"):
            round_remove(round=round, by=None)


class TestPublishing:
    def test_publishing_an_empty_round_is_refused(self) -> None:
        round = RoundFactory(tournament=tournament_with(5), number=2)
        RoundFactory(tournament=round.tournament, number=1, status=Status.LOCKED)
        with pytest.raises(RoundError, match="Round 2 has no tables: seat it first"):
            round_publish(round=round, by=None)
        round.refresh_from_db()
        assert round.status == Status.DRAFT and round.published_at is None

    def test_publishing_makes_the_seating_final_and_is_audited(self) -> None:
        tournament = tournament_with(10)
        alice = director_of(tournament)
        round = round_publish(round=seated_round(tournament), by=alice)
        assert round.status == Status.PUBLISHED and round.published_at is not None
        event = tournament.audit.get(action="round.publish")
        assert event.actor == alice and event.detail == {
            "round": 1,
            "from": "draft",
            "to": "published",
        }

    def test_a_table_below_the_smallest_size_is_refused_r12_2(self) -> None:
        tournament = tournament_with(8)  # two tables of four
        round = seated_round(tournament)
        first, second = tables_of(round)
        for seat in list(second.seats.order_by("position"))[:2]:
            seat_move(round=round, entry=seat.entry, table=first, by=None)
        with pytest.raises(RoundError, match=r"Table 2 seats 2 players; a table seats 3 to 6"):
            round_publish(round=round, by=None)

    def test_a_withdrawn_player_still_seated_is_refused(self) -> None:
        tournament = tournament_with(5)
        round = seated_round(tournament)
        Entry.objects.filter(player__name="Cy").update(status=Entry.Status.WITHDRAWN)
        with pytest.raises(RoundError, match="Cy is withdrawn but seated at table 1"):
            round_publish(round=round, by=None)

    def test_an_earlier_draft_round_is_published_first(self) -> None:
        tournament = tournament_with(5, rounds_planned=2)
        seated_round(tournament, number=1)
        second = seated_round(tournament, number=2)
        with pytest.raises(RoundError, match="Round 1 is still a draft: publish it first"):
            round_publish(round=second, by=None)

    def test_a_published_round_goes_back_to_draft_while_nothing_is_played(self) -> None:
        round = round_unpublish(round=published_round(tournament_with(5)), by=None)
        assert round.status == Status.DRAFT and round.published_at is None

    def test_once_a_result_is_in_it_cannot_go_back_to_draft(self) -> None:
        round = published_round(tournament_with(5))
        play(tables_of(round)[0], 1)
        with pytest.raises(RoundError, match="Round 1 is in play: only a published round"):
            round_unpublish(round=round, by=None)

    def test_once_a_ruling_names_it_it_cannot_go_back_to_draft(self) -> None:
        """Else the ruling would keep a draft round (and its re-seated tables) from going."""
        tournament = tournament_with(5)
        round = published_round(tournament)
        entry = round.seats.first().entry
        table = tables_of(round)[0]
        penalty_ruling(
            tournament=tournament, entry=entry, points=10, decision="Late (R12.4)", table=table
        )
        with pytest.raises(RoundError, match="Round 1 has rulings already"):
            round_unpublish(round=round, by=None)
        round.refresh_from_db()
        assert round.status == Status.PUBLISHED


class TestPlay:
    def test_the_first_result_puts_a_published_round_in_play(self) -> None:
        round = published_round(tournament_with(5))
        play(tables_of(round)[0], 1)
        round.refresh_from_db()
        assert round.status == Status.IN_PLAY

    def test_a_void_game_counts_as_the_first_result_too_r9_2(self) -> None:
        from scoring.services import result_record

        round = published_round(tournament_with(5))
        result_record(table=tables_of(round)[0], number=1, void=True, via="test")
        round.refresh_from_db()
        assert round.status == Status.IN_PLAY

    def test_the_director_can_start_play_before_any_result(self) -> None:
        round = round_start(round=published_round(tournament_with(5)), by=None)
        assert round.status == Status.IN_PLAY

    def test_a_draft_round_takes_no_result(self) -> None:
        round = seated_round(tournament_with(5))
        with pytest.raises(ResultRefused, match="Round 1 is draft"):
            play(tables_of(round)[0], 1)


class TestCompletingAndLocking:
    def test_completing_is_refused_while_a_table_is_unfinished_r4_1(self) -> None:
        round = published_round(tournament_with(10))
        first, second = tables_of(round)
        play_set(first)
        play_set(second, games=6)
        with pytest.raises(RoundError, match="Table 2 has played 6 of 9 games") as refused:
            round_complete(round=round, by=None)
        assert "Table 1" not in str(refused.value)
        round.refresh_from_db()
        assert round.status == Status.IN_PLAY

    def test_every_unfinished_table_is_named(self) -> None:
        round = published_round(tournament_with(10))
        first, _ = tables_of(round)
        play(first, 1)
        with pytest.raises(RoundError) as refused:
            round_complete(round=round, by=None)
        message = str(refused.value)
        assert "Table 1 has played 1 of 9 games" in message
        assert "Table 2 has played 0 of 9 games" in message

    def test_a_result_awaiting_confirmation_keeps_the_round_open(self) -> None:
        round = published_round(tournament_with(5, requires_confirmation=True))
        play_set(tables_of(round)[0])
        with pytest.raises(RoundError, match=r"Table 1 has 9 result\(s\) to confirm"):
            round_complete(round=round, by=None)

    def test_locking_is_refused_with_a_table_unfinished(self) -> None:
        round = published_round(tournament_with(5))
        play_set(tables_of(round)[0], games=8)
        with pytest.raises(RoundError, match=r"Table 1 has played 8 of 9 games.*Complete round 1"):
            round_lock(round=round, by=None)

    def test_a_complete_round_can_be_reopened_for_a_correction(self) -> None:
        round = published_round(tournament_with(5))
        play_set(tables_of(round)[0])
        round_complete(round=round, by=None)
        assert round_reopen(round=round, by=None).status == Status.IN_PLAY

    def test_the_whole_lifecycle_is_audited_step_by_step(self) -> None:
        tournament = tournament_with(10)
        alice = director_of(tournament)
        round = seated_round(tournament)
        round_publish(round=round, by=alice)
        round_start(round=round, by=alice)
        for table in tables_of(round):
            play_set(table)
        round_complete(round=round, by=alice)
        round = round_lock(round=round, by=alice)
        assert round.status == Status.LOCKED and round.locked_at is not None
        assert _actions(tournament) == [
            "round.seat",
            "tournament.status",  # the first published round sets the tournament running
            "round.publish",
            "round.start",
            "round.complete",
            "round.lock",
        ]
        with pytest.raises(ResultRefused, match="only a director ruling changes a score"):
            play(tables_of(round)[0], 9)


@pytest.mark.parametrize(
    ("status", "step", "message"),
    [
        (Status.PUBLISHED, round_publish, "Round 1 is published: only a draft round"),
        (Status.DRAFT, round_start, "Round 1 is draft: only a published round can be started"),
        (Status.IN_PLAY, round_start, "only a published round can be started"),
        (Status.PUBLISHED, round_complete, "only a round in play can be completed"),
        (Status.LOCKED, round_complete, "Round 1 is locked"),
        (Status.DRAFT, round_lock, "only a complete round can be locked"),
        (Status.LOCKED, round_lock, "only a complete round can be locked"),
        (Status.IN_PLAY, round_reopen, "only a complete round can be reopened"),
        (Status.DRAFT, round_unpublish, "only a published round can be taken back to draft"),
    ],
)
def test_each_step_is_refused_from_the_wrong_state(status, step, message) -> None:
    round = RoundFactory(tournament=TournamentFactory(), status=status)
    EntryFactory(tournament=round.tournament)
    with pytest.raises(RoundError, match=message):
        step(round=round, by=None)
    round.refresh_from_db()
    assert round.status == status


def test_a_refused_step_changes_nothing_and_logs_nothing() -> None:
    round = RoundFactory(tournament=TournamentFactory())
    with pytest.raises(RoundError):
        round_publish(round=round, by=None)
    assert not AuditEvent.objects.exists()
