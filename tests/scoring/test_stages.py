"""Stages: qualifying rounds, a cut to a final table, the final's scoring and seats,
and the final standings with the finalists first."""

import re

import pytest

from scoring.backup import SECTIONS, backup_parse, tournament_export, tournament_import
from scoring.rounds import RoundError, round_add, round_complete, round_publish
from scoring.stages import stage_cut
from tables.models import Seat
from tables.services import round_seat
from tests.scoring.playing import play, tournament_with
from tests.scoring.stage_play import (
    QUALIFYING,
    final_of,
    plan_stages,
    play_qualifying,
    play_round,
    standings,
)
from tournament.models import AuditEvent
from tournament.stage_services import StageError, StageLocked, StagePlan, stages_set
from tournament.stages import Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def qualified():
    """23 players, 3 qualifying rounds played and complete; a final of 5 planned (drawn)."""
    tournament = tournament_with(23)
    plan_stages(tournament, QUALIFYING, final_of(5))
    play_qualifying(tournament)
    return tournament


def qualifying_top(tournament, size: int) -> list[int]:
    rows = [row for row in standings(tournament)["players"] if row["place"]]
    return [row["entry"] for row in sorted(rows, key=lambda row: row["place"])][:size]


def final_stage(tournament) -> Stage:
    return tournament.stages.get(number=2)


class TestThePlan:
    def test_it_plans_the_rounds_of_every_stage(self) -> None:
        tournament = tournament_with(23)
        plan_stages(tournament, QUALIFYING, final_of(5, scoring="carry_share", carry_percent=50))
        tournament.refresh_from_db()
        assert tournament.rounds_planned == 4
        final = final_stage(tournament)
        assert final.scoring_words() == (
            "Carried over: 50% of the totals of the earlier rounds count."
        )
        assert AuditEvent.objects.filter(tournament=tournament, action="stages.set").exists()

    @pytest.mark.parametrize(
        ("plan", "words"),
        [
            ([QUALIFYING, final_of(24)], "a cut to 24 is larger than the field (23 entered)"),
            ([QUALIFYING, final_of(7)], "a final table of 7 is not allowed"),
            ([QUALIFYING, final_of(2)], "a final table of 2 is not allowed"),
            ([QUALIFYING, StagePlan("semi_finals", 1, 5)], "semi-finals of 5 do not make"),
            ([final_of(5)], "Stage 1 is the qualifying stage"),
            ([QUALIFYING, final_of(5, carry_percent=0)], "a share carried over is 1% to 100%"),
        ],
        ids=[
            "cut-larger-than-field",
            "final-of-7",
            "final-of-2",
            "semis-of-5",
            "no-qualifying",
            "share-0",
        ],
    )
    def test_bad_plans_are_refused_with_the_reason_and_nothing_changed(self, plan, words) -> None:
        tournament = tournament_with(23)
        plan_stages(tournament, QUALIFYING, final_of(5))
        with pytest.raises(StageError, match=re.escape(words)):
            stages_set(tournament=tournament, plan=plan, by=None)
        assert list(tournament.stages.values_list("number", "size")) == [(1, None), (2, 5)]

    def test_a_stage_cannot_change_once_its_first_round_is_published(self) -> None:
        tournament = tournament_with(10)
        plan_stages(tournament, QUALIFYING, final_of(5))
        round = round_add(tournament=tournament, by=None)
        round_seat(round=round, seed=1)
        round_publish(round=round, by=None)
        with pytest.raises(StageLocked, match="its first round is published"):
            stages_set(tournament=tournament, plan=[StagePlan("qualifying", 2)], by=None)
        # The stage not begun yet may still change.
        plan_stages(tournament, QUALIFYING, final_of(4, seats="standing"))
        assert final_stage(tournament).size == 4


class TestTheCut:
    def test_the_cut_takes_the_best_five_seats_them_and_lists_the_finalists_first(
        self, qualified
    ) -> None:
        with pytest.raises(RoundError, match="make its cut"):  # the cut adds the final's round
            round_add(tournament=qualified, by=None)
        top = qualifying_top(qualified, 5)
        final = stage_cut(stage=final_stage(qualified), by=None, seed=7)
        assert final.number == 4
        seated = list(Seat.objects.filter(round=final).order_by("position"))
        assert sorted(seat.entry_id for seat in seated) == sorted(top)
        assert final.tables.count() == 1
        assert final.seating_record.mode == "random"  # seats drawn
        with pytest.raises(StageLocked, match="made already"):
            stage_cut(stage=final_stage(qualified), by=None)
        play_round(final)
        data = standings(qualified)
        first_five = data["players"][:5]
        assert sorted(row["entry"] for row in first_five) == sorted(top)
        assert [row["place"] for row in first_five] == [1, 2, 3, 4, 5]
        assert all(row["stage"] == 2 for row in first_five)
        assert data["players"][5]["place"] == 6 and data["players"][5]["stage"] == 1
        # Fresh scoring: the finalists are ordered by the final's totals alone (lowest wins).
        finals = [row["rounds"]["4"] for row in first_five]
        assert finals == sorted(finals)
        assert [row["ranked_total"] for row in first_five] == finals  # the final's alone
        seeds = [top.index(row["entry"]) + 1 for row in first_five]
        assert [row["movement"] for row in first_five] == [
            seed - place for place, seed in enumerate(seeds, 1)
        ]  # places gained since the cut
        assert data["stages"][1]["order"] == [row["entry"] for row in first_five]
        assert AuditEvent.objects.filter(tournament=qualified, action="stage.cut").exists()


def test_a_cut_before_the_qualifying_is_complete_is_refused() -> None:
    tournament = tournament_with(10)
    plan_stages(tournament, StagePlan("qualifying", 1), final_of(5))
    with pytest.raises(StageLocked, match="waits for rounds 1 to 1"):
        stage_cut(stage=final_stage(tournament), by=None)
    assert not final_stage(tournament).entrants.exists()


def test_seats_by_standing_put_the_best_seed_at_seat_one_and_carry_the_totals() -> None:
    tournament = tournament_with(10)
    plan_stages(
        tournament,
        StagePlan("qualifying", 1),
        final_of(5, seats="standing", scoring="carry_all"),
    )
    play_qualifying(tournament, rounds=1)
    top = qualifying_top(tournament, 5)
    final = stage_cut(stage=final_stage(tournament), by=None)
    assert list(final.seats.order_by("position").values_list("entry_id", flat=True)) == top
    assert final.seats.filter(is_first_dealer=True).count() == 1
    play_round(final)
    rows = standings(tournament)["players"][:5]
    totals = [row["rounds"]["1"] + row["rounds"]["2"] for row in rows]
    assert totals == sorted(totals)  # carried over in full: both rounds count


def test_a_tie_across_the_cut_line_waits_for_the_directors_order() -> None:
    tournament = tournament_with(8)  # two tables of four, playing the same set
    plan_stages(tournament, StagePlan("qualifying", 1), final_of(3))
    round = round_add(tournament=tournament, by=None)
    round_seat(round=round, seed=3)
    round = round_publish(round=round, by=None)
    for table in round.tables.all():  # places shared two by two: 1, 1, 3, 3, ...
        for number in range(1, 10):
            play(table, number, winner=number % 3)
    round_complete(round=round, by=None)
    order = standings(tournament)["players"]
    level = [row["entry"] for row in order if row["place"] == order[2]["place"]]
    assert len(level) >= 2
    with pytest.raises(StageError, match="level at place"):
        stage_cut(stage=final_stage(tournament), by=None)
    assert not final_stage(tournament).entrants.exists()
    final = stage_cut(stage=final_stage(tournament), by=None, decided=list(reversed(level)))
    through = set(final.seats.values_list("entry_id", flat=True))
    above = {row["entry"] for row in order if row["place"] < order[2]["place"]}
    assert above <= through and len(through) == 3
    assert level[-1] in through  # the director's first choice goes through


def test_a_final_carrying_half_the_qualifying_totals_ranks_by_half_plus_the_final() -> None:
    tournament = tournament_with(10)
    plan_stages(
        tournament,
        StagePlan("qualifying", 1),
        final_of(5, scoring="carry_share", carry_percent=50),
    )
    play_qualifying(tournament, rounds=1)
    play_round(stage_cut(stage=final_stage(tournament), by=None, seed=2))
    rows = standings(tournament)["players"][:5]
    carried = [round(row["rounds"]["1"] * 50 / 100) + row["rounds"]["2"] for row in rows]
    assert [row["ranked_total"] for row in rows] == carried
    assert carried == sorted(carried)


def test_the_stages_and_the_cut_go_into_the_backup_and_come_back() -> None:
    tournament = tournament_with(10, slug="staged")
    plan_stages(tournament, StagePlan("qualifying", 1), final_of(5, seats="standing"))
    play_qualifying(tournament, rounds=1)
    stage_cut(stage=final_stage(tournament), by=None)
    before = [(row["player"], row["place"]) for row in standings(tournament)["players"]]
    text = tournament_export(tournament=tournament)
    for section in reversed(SECTIONS):  # the tournament goes, as on another server
        section.model.objects.filter(**{section.path or "tournament": tournament}).delete()
    tournament.delete()
    imported = tournament_import(document=backup_parse(text)).tournament
    final = imported.stages.get(number=2)
    assert (final.kind, final.size, final.seats) == ("final", 5, "standing")
    assert final.entrants.count() == 5
    assert [(row["player"], row["place"]) for row in standings(imported)["players"]] == before
