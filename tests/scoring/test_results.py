"""Corrections, conflicts, second-person confirmation and sign-off (the result services).

The Spring Open seats Ann, Ben, Cy, Di and Ed at one table. Marcia keeps score on the table's
link; Dana directs.
"""

import pytest

from scoring.models import Deal, ResultRevision
from scoring.rounds import round_complete, round_lock
from scoring.services import (
    HandInput,
    ResultConflict,
    ResultRefused,
    deal_current,
    result_confirm,
    result_submit,
    table_sign_off,
)
from tables.models import Table
from tests.scoring.playing import director_of, play_set, published_round, tournament_with

pytestmark = pytest.mark.django_db
LINK = "table 1 link · Marcia"


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5)).tables.all()
    return table


def hands(table: Table, ben: int = 20) -> list[HandInput]:
    """Ann goes out; Ben scores `ben`; Cy, Di and Ed score 30, 40 and 50."""
    seats = {
        seat.entry.player.name: seat.entry_id
        for seat in table.seats.select_related("entry__player")
    }
    points = {"Ben": ben, "Cy": 30, "Di": 40, "Ed": 50}
    return [
        HandInput(seats["Ann"], went_out=True, cards=""),
        *(HandInput(seats[name], points=value) for name, value in points.items()),
    ]


def totals(game: Deal) -> dict[str, int]:
    return dict(game.results.values_list("entry__player__name", "points"))


def test_a_new_result_is_created_at_version_one(table: Table) -> None:
    outcome = result_submit(table=table, number=1, hands=hands(table), via=LINK)
    assert outcome.created and outcome.deal.version == 1
    assert totals(outcome.deal)["Ben"] == 20


def test_a_correction_keeps_every_version_and_says_what_changed(table: Table) -> None:
    result_submit(table=table, number=1, hands=hands(table), via=LINK)
    outcome = result_submit(
        table=table, number=1, hands=hands(table, ben=25), via=LINK, base_version=1
    )
    assert not outcome.created and outcome.deal.version == 2
    assert totals(outcome.deal)["Ben"] == 25
    revisions = list(outcome.deal.revisions.order_by("version"))
    assert [r.status for r in revisions] == ["superseded", "confirmed"]
    labels = [side["label"] for side in revisions[0].entry["sides"]]
    points = [side["points"] for side in revisions[0].scores["sides"]]
    first = dict(zip(labels, points, strict=True))
    assert first["Ben"] == 20  # the first version is still there, as it was
    assert revisions[1].reason == "corrected: Ben 20 → 25"


def test_a_correction_keeps_its_reason_when_given(table: Table) -> None:
    result_submit(table=table, number=1, hands=hands(table), via=LINK)
    game = result_submit(
        table=table,
        number=1,
        hands=hands(table, ben=21),
        via=LINK,
        base_version=1,
        reason="Ben's seven was a one",
    ).deal
    assert game.revisions.get(version=2).reason == "Ben's seven was a one"


def test_a_second_new_result_for_the_same_game_is_a_conflict(table: Table) -> None:
    result_submit(table=table, number=1, hands=hands(table), via=LINK)
    with pytest.raises(ResultConflict, match="saved meanwhile") as conflict:
        result_submit(table=table, number=1, hands=hands(table, ben=99), via="table 1 link · Di")
    assert totals(conflict.value.deal)["Ben"] == 20  # nothing was overwritten


def test_a_correction_based_on_an_old_version_is_a_conflict(table: Table) -> None:
    result_submit(table=table, number=1, hands=hands(table), via=LINK)
    result_submit(table=table, number=1, hands=hands(table, ben=25), via=LINK, base_version=1)
    with pytest.raises(ResultConflict, match="you had version 1, it is now version 2"):
        result_submit(table=table, number=1, hands=hands(table, ben=30), via=LINK, base_version=1)
    assert totals(deal_current(table=table, number=1))["Ben"] == 25


def test_there_is_nothing_to_correct_before_a_result_exists(table: Table) -> None:
    with pytest.raises(ResultRefused, match="no result to correct"):
        result_submit(table=table, number=1, hands=hands(table), via=LINK, base_version=1)


def test_a_scored_game_is_not_turned_void_by_the_table_r9_2(table: Table) -> None:
    result_submit(table=table, number=1, hands=hands(table), via=LINK)
    with pytest.raises(ResultRefused, match="ask the director"):
        result_submit(table=table, number=1, void=True, via=LINK, base_version=1)


def test_a_refused_correction_changes_nothing_r10_1(table: Table) -> None:
    result_submit(table=table, number=1, hands=hands(table), via=LINK)
    nobody_out = [HandInput(h.entry_id, points=h.points or 5) for h in hands(table)]
    with pytest.raises(ResultRefused):
        result_submit(table=table, number=1, hands=nobody_out, via=LINK, base_version=1)
    game = deal_current(table=table, number=1)
    assert game.version == 1 and totals(game)["Ann"] == 0
    assert game.revisions.count() == 1


def test_corrections_stop_when_the_set_is_signed_off(table: Table) -> None:
    play_set(table)
    table_sign_off(table=table, by=None, via=LINK, signer="Marcia")
    with pytest.raises(ResultRefused, match="signed its set off"):
        result_submit(table=table, number=9, hands=hands(table), via=LINK, base_version=1)


def test_a_complete_round_may_still_be_corrected_until_it_is_locked_r12_4(table: Table) -> None:
    play_set(table)
    round_complete(round=table.round, by=None)
    result_submit(table=table, number=9, hands=hands(table), via=LINK, base_version=1)
    round_lock(round=table.round, by=None)
    with pytest.raises(ResultRefused, match="only a director ruling"):
        result_submit(table=table, number=9, hands=hands(table), via=LINK, base_version=2)


class TestSecondPersonConfirmation:
    @pytest.fixture
    def table(self) -> Table:
        tournament = tournament_with(5, requires_confirmation=True)
        [table] = published_round(tournament).tables.all()
        return table

    def test_a_result_waits_for_someone_else(self, table: Table) -> None:
        game = result_submit(table=table, number=1, hands=hands(table), via=LINK).deal
        assert game.status == Deal.Status.PENDING
        game = result_confirm(deal=game, by=None, via="table 1 link · Di")
        assert game.status == Deal.Status.CONFIRMED
        revision = game.revisions.get()
        assert (revision.status, revision.confirmed_via) == ("confirmed", "table 1 link · Di")

    def test_the_person_who_entered_it_cannot_confirm_it(self, table: Table) -> None:
        game = result_submit(table=table, number=1, hands=hands(table), via=LINK).deal
        with pytest.raises(ResultRefused, match="someone else at the table"):
            result_confirm(deal=game, by=None, via=" Table 1 link · MARCIA ")

    def test_a_signed_in_enterer_cannot_confirm_under_another_label(self, table: Table) -> None:
        dana = director_of(table.round.tournament, "dana")
        game = result_submit(
            table=table, number=1, hands=hands(table), by=dana, via="director dana"
        ).deal
        with pytest.raises(ResultRefused):
            result_confirm(deal=game, by=dana, via="table 1 link · Di")
        other = director_of(table.round.tournament, "omar")
        assert result_confirm(deal=game, by=other, via="director omar").status == "confirmed"

    def test_a_result_is_confirmed_once(self, table: Table) -> None:
        game = result_submit(table=table, number=1, hands=hands(table), via=LINK).deal
        result_confirm(deal=game, by=None, via="table 1 link · Di")
        with pytest.raises(ResultConflict, match="already confirmed") as conflict:
            result_confirm(deal=game, by=None, via="table 1 link · Ed")
        assert conflict.value.deal.status == Deal.Status.CONFIRMED

    def test_only_the_version_the_confirmer_saw_is_confirmed(self, table: Table) -> None:
        game = result_submit(table=table, number=1, hands=hands(table), via=LINK).deal
        result_submit(table=table, number=1, hands=hands(table, ben=25), via=LINK, base_version=1)
        with pytest.raises(ResultConflict, match="corrected since you saw it"):
            result_confirm(deal=game, by=None, via="table 1 link · Di", base_version=1)

    def test_a_correction_needs_confirming_again_and_one_version_stays_confirmed(
        self, table: Table
    ) -> None:
        game = result_submit(table=table, number=1, hands=hands(table), via=LINK).deal
        result_confirm(deal=game, by=None, via="table 1 link · Di")
        game = result_submit(
            table=table, number=1, hands=hands(table, ben=25), via=LINK, base_version=1
        ).deal
        assert game.status == Deal.Status.PENDING
        statuses = list(game.revisions.order_by("version").values_list("status", flat=True))
        assert statuses == ["superseded", "pending"]
        assert not ResultRevision.objects.filter(deal=game, status="confirmed").exists()

    def test_a_set_with_an_unconfirmed_game_is_not_signed_off(self, table: Table) -> None:
        play_set(table)
        with pytest.raises(ResultRefused, match="Game 1 awaits confirmation"):
            table_sign_off(table=table, by=None, via=LINK, signer="Marcia")


def test_a_set_is_signed_off_once_nine_games_are_played_r4_1(table: Table) -> None:
    play_set(table, games=8)
    with pytest.raises(ResultRefused, match="played 8 of 9 games"):
        table_sign_off(table=table, by=None, via=LINK, signer="Marcia")
    play_set(table, games=1)
    table = table_sign_off(table=table, by=None, via=LINK, signer="Marcia")
    assert table.is_signed_off() and table.signed_off_by == f"Marcia ({LINK})"
    with pytest.raises(ResultRefused, match="signed its set off"):
        table_sign_off(table=table, by=None, via=LINK, signer="Marcia")
