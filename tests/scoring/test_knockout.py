"""A knockout of teams (Hand and Foot): four teams qualify over one round, a knockout
seeds them 1 v 4 and 2 v 3, and only each table's winner goes on to the final, whatever the
totals of the teams that lost; the final standings list the final's two first, then the
knockout's losers."""

import pytest

from scoring.rounds import round_complete, round_publish
from scoring.stages import stage_cut
from scoring.standings import standings_compute
from scoring.time_called import table_time_call
from tests.scoring.other_games import entry_of, game_tournament, seated_by_hand
from tests.scoring.playing import tournament_with
from tests.scoring.test_other_games import enter_hf, hf_side
from tournament.stage_services import StageError, StagePlan, stages_set
from tournament.stages import Stage

pytestmark = pytest.mark.django_db

TEAMS = {"Ann": "Cy", "Ben": "Di", "Ed": "Gus", "Flo": "Hal"}  # a team named by its partners


def win(winner: str, loser: str, margin: int = 0):
    """One hand: `winner`'s team goes out (HF5.1); `loser`'s scores less, by `margin` more."""
    return (
        hf_side(winner, 2, 2, 200, (0, 10), out=0),
        hf_side(loser, 1, 0, 150 - margin, (20, 30)),
    )


def play_table(tournament, table, winner: str, loser: str, margin: int = 0) -> None:
    """One hand, then time is called: the match ends with it (HF2.2)."""
    enter_hf(tournament, table, 1, win(winner, loser, margin))
    table_time_call(table=table, by=None, via="test")


def team(tournament, name: str) -> int:
    return entry_of(tournament, name).pk


@pytest.fixture
def knockout():
    """Round 1 played: Ann's team beat Ben's by a lot, Ed's beat Flo's by a little."""
    tournament = game_tournament("hand_and_foot", rounds_planned=3)
    first = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"], ["Ed", "Flo", "Gus", "Hal"]])
    tables = list(first.tables.order_by("number"))
    play_table(tournament, tables[0], "Ann", "Ben", margin=50)
    play_table(tournament, tables[1], "Ed", "Flo", margin=0)
    round_complete(round=first, by=None)
    stages_set(
        tournament=tournament,
        plan=[
            StagePlan("qualifying", 1),
            StagePlan("knockout", 1, 4, seats="standing"),
            StagePlan("final", 1, 2, seats="standing"),
        ],
        by=None,
    )
    return tournament


def test_a_knockout_sends_each_tables_winner_on_and_only_them(knockout) -> None:
    tournament = knockout
    order = [row["entry"] for row in standings_compute(tournament=tournament)["players"]]
    semi = round_publish(round=stage_cut(stage=stage(tournament, 2), by=None), by=None)
    tables = list(semi.tables.order_by("number"))
    seated = [list(t.seats.order_by("position").values_list("entry_id", flat=True)) for t in tables]
    assert seated == [[order[0], order[3]], [order[1], order[2]]]  # 1 v 4, 2 v 3
    names = {team(tournament, n): n for n in TEAMS}
    # The fourth seed beats the first; the second seed beats the third by a little.
    play_table(tournament, tables[0], names[order[3]], names[order[0]], margin=0)
    play_table(tournament, tables[1], names[order[1]], names[order[2]], margin=0)
    round_complete(round=semi, by=None)
    final = stage_cut(stage=stage(tournament, 3), by=None)
    assert list(final.seats.order_by("position").values_list("entry_id", flat=True)) == [
        order[3],
        order[1],
    ]
    round_publish(round=final, by=None)
    play_table(tournament, final.tables.get(), names[order[1]], names[order[3]])
    round_complete(round=final, by=None)
    rows = standings_compute(tournament=tournament)["players"]
    assert [row["entry"] for row in rows[:2]] == [order[1], order[3]]  # the final's winner first
    assert {row["entry"] for row in rows[2:]} == {order[0], order[2]}
    assert [row["stage"] for row in rows] == [3, 3, 2, 2]


def test_after_a_knockout_only_its_winners_go_through(knockout) -> None:
    with pytest.raises(StageError, match="the 2 winners of its tables go through"):
        stages_set(
            tournament=knockout,
            plan=[
                StagePlan("qualifying", 1),
                StagePlan("knockout", 1, 4),
                StagePlan("knockout", 1, 4),
            ],
            by=None,
        )
    assert stage(knockout, 3).size == 2


def stage(tournament, number: int) -> Stage:
    return tournament.stages.get(number=number)


def test_a_knockout_of_a_game_seated_five_a_table_is_refused() -> None:
    tournament = tournament_with(10)
    with pytest.raises(StageError, match="a knockout seats two a table"):
        stages_set(
            tournament=tournament,
            plan=[StagePlan("qualifying", 1), StagePlan("knockout", 1, 8)],
            by=None,
        )
    assert not tournament.stages.exists()
