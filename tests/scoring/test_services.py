"""Recording a game result: the engine's checks decide, and nothing refused is saved."""

import pytest
from django.db import transaction

from scoring.models import Deal, DealResult, ResultRevision
from scoring.services import (
    HandInput,
    ResultConflict,
    ResultRefused,
    WarningsNotConfirmed,
    deal_current,
    result_record,
    result_submit,
    table_lock,
)
from tables.models import Table
from tables.services import round_seat
from tests.factories import EntryFactory, RoundFactory, TournamentFactory
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    """A table of five in a round in play: Ann, Ben, Cy, Di and Ed."""
    tournament = TournamentFactory()
    for name in ["Ann", "Ben", "Cy", "Di", "Ed"]:
        EntryFactory(tournament=tournament, player__name=name)
    round = RoundFactory(tournament=tournament)
    [table] = round_seat(round=round, seed=1)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.IN_PLAY)
    return Table.objects.get(pk=table.pk)


def _hands(table: Table, **by_name: dict) -> list[HandInput]:
    seats = table.seats.select_related("entry__player").order_by("position")
    return [HandInput(seat.entry_id, **by_name[seat.entry.player.name]) for seat in seats]


GAME_1 = {
    "Ann": {"went_out": True, "cards": ""},
    "Ben": {"cards": "JK AS 2C 3C 4C 5C 6C 7C 8C", "calls": 0},
    "Cy": {"points": 44, "calls": 0},
    "Di": {"cards": "KH KD KS QH QD QS JH JD JS", "calls": 0},
    "Ed": {"cards": "2H", "calls": 1},
}


def test_it_stores_each_players_score_r8(table: Table) -> None:
    game = result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")
    totals = {
        result.entry.player.name: result.points
        for result in game.results.select_related("entry__player")
    }
    assert totals == {"Ann": 0, "Ben": 100, "Cy": 44, "Di": 90, "Ed": 2}
    assert game.status == Deal.Status.CONFIRMED
    assert game.revisions.get().status == ResultRevision.Status.CONFIRMED


def test_down_and_out_doubles_card_points_r8_3(table: Table) -> None:
    game = result_record(
        table=table, number=1, hands=_hands(table, **GAME_1), down_and_out=True, via="table link"
    )
    ben = game.results.get(entry__player__name="Ben")
    assert (ben.detail["card_points"], ben.detail["doubled"], ben.points) == (100, True, 200)
    assert game.detail == {"down_and_out": True} and game.down_and_out


def test_it_refuses_two_players_going_out_and_saves_nothing_r10_1(table: Table) -> None:
    both_out = {**GAME_1, "Ben": {"went_out": True, "cards": ""}}
    with pytest.raises(ResultRefused) as refused:
        result_record(table=table, number=1, hands=_hands(table, **both_out), via="table link")
    assert "R10.1" in {problem.rule for problem in refused.value.problems}
    assert not Deal.objects.exists() and not DealResult.objects.exists()


def test_it_refuses_a_fourth_copy_of_a_card_r10_3(table: Table) -> None:
    four_kings = {
        **GAME_1,
        "Ed": {"cards": "KH", "calls": 1},
        "Ben": {"cards": "KH KH", "calls": 1},
    }
    four_kings["Di"] = {"cards": "KH 2S", "calls": 1}
    with pytest.raises(ResultRefused) as refused:
        result_record(table=table, number=1, hands=_hands(table, **four_kings), via="table link")
    assert "R10.3" in {problem.rule for problem in refused.value.problems}


def test_a_warning_needs_confirmation_and_then_flags_the_game_r10_6(table: Table) -> None:
    odd_count = {**GAME_1, "Ed": {"cards": "2H 3H 4H", "calls": 0}}  # 3 cards, no call: suspect
    with pytest.raises(WarningsNotConfirmed) as refused:
        result_record(table=table, number=1, hands=_hands(table, **odd_count), via="table link")
    assert "R10.6" in {problem.rule for problem in refused.value.warnings}
    assert not Deal.objects.exists()
    game = result_record(
        table=table,
        number=1,
        hands=_hands(table, **odd_count),
        via="table link",
        confirm_warnings=True,
    )
    assert game.is_flagged
    assert game.warnings[0]["rule"] == "R10.6"


def test_a_void_game_is_kept_and_the_same_game_is_played_again_r9_2(table: Table) -> None:
    void = result_record(table=table, number=1, void=True, via="table link")
    replay = result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")
    assert (void.is_void, void.attempt, void.results.count()) == (True, 1, 0)
    assert (replay.is_void, replay.attempt) == (False, 2)


def test_games_are_entered_in_order_r4_1(table: Table) -> None:
    with pytest.raises(ResultRefused, match="game 1 comes next"):
        result_record(table=table, number=2, hands=_hands(table, **GAME_1), via="table link")


def test_a_game_is_not_entered_twice(table: Table) -> None:
    result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")
    with pytest.raises(ResultRefused, match="already recorded"):
        result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")


def test_every_seated_player_needs_a_result(table: Table) -> None:
    hands = _hands(table, **GAME_1)[:-1]
    with pytest.raises(ResultRefused, match="every player at the table needs one"):
        result_record(table=table, number=1, hands=hands, via="table link")


def test_a_locked_round_takes_no_result_r12_4(table: Table) -> None:
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.LOCKED)
    with pytest.raises(ResultRefused, match="only a director ruling"):
        result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")


def test_with_second_person_confirmation_a_result_waits(table: Table) -> None:
    table.round.tournament.requires_confirmation = True
    table.round.tournament.save()
    game = result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")
    assert game.status == Deal.Status.PENDING
    assert game.revisions.get().status == ResultRevision.Status.PENDING


def test_a_locked_table_reads_its_tournament_under_the_lock_unless_the_caller_read_it_now(
    table: Table,
) -> None:
    """A table read some time ago may hold a tournament changed since: the lock reads it again.
    A caller that read the table in this request (the API) may keep its own (`read_now`)."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    Tournament.objects.update(requires_confirmation=True)  # changed since the table was read
    with transaction.atomic():
        fresh = table_lock(table)
        assert fresh.table.round.tournament.requires_confirmation is True
    with transaction.atomic():
        kept = table_lock(table, read_now=True)
        assert kept.table.round.tournament is table.round.tournament
        assert kept.table.round is not table.round  # the round, read under its lock
    assert [seat.pk for seat in kept.seats] == [seat.pk for seat in fresh.seats]


def test_the_revision_keeps_the_entry_as_submitted(table: Table) -> None:
    game = result_record(table=table, number=1, hands=_hands(table, **GAME_1), via="table link")
    revision = game.revisions.get()
    assert revision.entered_via == "table link"
    seats = list(table.seats.order_by("position"))
    assert [side["label"] for side in revision.entry["sides"]] == [
        seat.entry.player.name for seat in seats
    ]
    assert [side["entry"] for side in revision.entry["sides"]] == [s.entry_id for s in seats]
    ben = next(side for side in revision.entry["sides"] if side["label"] == "Ben")
    assert ben["values"]["cards"] == "JK AS 2C 3C 4C 5C 6C 7C 8C"  # as the game spells them
    assert revision.scores["sides"][0]["reasons"]


def test_a_table_whose_seats_were_all_taken_away_is_refused_under_its_lock(table: Table) -> None:
    """No seat to read with the lock: the table's row is locked on its own, its deals read
    again under it, and the result refused for the seats (nothing saved)."""
    table.seats.all().delete()
    with pytest.raises(ResultRefused) as refused:
        result_record(table=table, number=1, hands=[], via="test")
    assert "has 0 seats" in str(refused.value.problems[0])
    assert not Deal.objects.filter(table=table).exists()


def test_the_current_result_is_the_scored_attempt_of_the_deal_asked_for(table: Table) -> None:
    first = result_record(
        table=table, number=1, hands=_hands(table, **GAME_1), via="test", confirm_warnings=True
    )
    result_record(table=table, number=2, hands=[], void=True, via="test")  # a void attempt
    second = result_record(
        table=table, number=2, hands=_hands(table, **GAME_1), via="test", confirm_warnings=True
    )
    assert deal_current(table=table, number=1).pk == first.pk
    assert deal_current(table=table, number=2).pk == second.pk
    assert deal_current(table=table, number=3) is None


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_locking_a_table_outside_a_transaction_is_refused_in_words(table: Table) -> None:
    with pytest.raises(transaction.TransactionManagementError, match="inside a transaction"):
        table_lock(table)


# --- what a correction says, in words ---------------------------------------------------------

SIMPLE = {
    "Ann": {"went_out": True, "cards": ""},
    "Ben": {"points": 10},
    "Cy": {"points": 11},
    "Di": {"points": 12},
    "Ed": {"points": 13},
}


def test_a_correction_is_not_a_new_result_and_keeps_its_words(table: Table) -> None:
    first = result_submit(table=table, number=1, hands=_hands(table, **SIMPLE), via="test")
    assert first.created is True
    again = result_submit(
        table=table, number=1, hands=_hands(table, **SIMPLE), via="test", base_version=1
    )
    assert again.created is False and again.deal.version == 2
    revision = again.deal.revisions.exclude(status=ResultRevision.Status.SUPERSEDED).get()
    assert revision.reason == "corrected: no total changed"  # the same totals, sent again
    with pytest.raises(ResultConflict) as stale:
        result_submit(
            table=table, number=1, hands=_hands(table, **SIMPLE), via="test", base_version=1
        )
    assert str(stale.value) == (
        "Game 1 changed since you opened it (you had version 1, it is now version 2): here is "
        "the stored result"
    )


def test_correcting_a_game_never_entered_is_refused_citing_the_order_r4_1(table: Table) -> None:
    with pytest.raises(ResultRefused) as refused:
        result_submit(
            table=table, number=1, hands=_hands(table, **SIMPLE), via="test", base_version=1
        )
    [problem] = refused.value.problems
    assert (problem.rule, problem.message) == (
        "R4.1",
        "Game 1 has no result to correct: enter it instead (R4.1)",
    )


def test_a_result_with_warnings_is_refused_unless_they_are_confirmed(table: Table) -> None:
    doubtful = {**SIMPLE, "Ben": {"cards": "2H 3H 4H 5H 6H 7H 8H 9C", "calls": 1}}  # R10.6
    with pytest.raises(WarningsNotConfirmed):
        result_submit(table=table, number=1, hands=_hands(table, **doubtful), via="test")
    assert not Deal.objects.exists()


def test_a_locked_round_refuses_a_correction_naming_its_state_r12_4(table: Table) -> None:
    result_submit(table=table, number=1, hands=_hands(table, **SIMPLE), via="test")
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.LOCKED)
    with pytest.raises(ResultRefused) as refused:
        result_submit(
            table=Table.objects.get(pk=table.pk), number=1, hands=_hands(table, **SIMPLE),
            via="test", base_version=1,
        )  # fmt: skip
    assert str(refused.value) == (
        "Round 1 is locked (changes only by ruling): only a director ruling changes a score (R12.4)"
    )
