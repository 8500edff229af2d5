"""Kalooki behind the game protocol: the same engine answers, through ``GAME``."""

from __future__ import annotations

import pytest

import games
from games.base import FieldKind, RulesError, Scope, StandingLine
from games.kalooki import ASAJ_2025, GAME, GameReport, HandReport, evaluate

from .protocol_helpers import OUT, deal, points, rules, rules_of

ASAJ = rules()


def test_the_game_is_found_by_its_key():
    assert games.get("kalooki") is GAME
    assert (GAME.name, GAME.higher_wins, GAME.default_preset) == ("Kalooki", False, "asaj-2025")


def test_r1_1_a_side_is_one_player_five_at_a_table_three_to_six():
    shape = ASAJ.shape()
    assert (shape.sides, shape.min_sides, shape.max_sides, shape.members) == (5, 3, 6, 1)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(43, (5,) * 7 + (4,) * 2), (6, (6,)), (7, (4, 3)), (11, (6, 5)), (10, (5, 5))],
    ids=lambda value: f"R12.2-{value}",
)
def test_r12_2_table_plans_without_byes(players, sizes):
    plan = ASAJ.table_plan(players)
    assert (plan.sizes, plan.byes) == (sizes, 0)


def test_r12_2_too_few_players_for_a_table_is_a_rules_error():
    with pytest.raises(RulesError, match=r"R12\.2"):
        ASAJ.table_plan(2)


@pytest.mark.parametrize("number", range(1, 10), ids=lambda n: f"R4-game-{n}")
def test_r4_each_deal_of_the_set(number):
    spec, game = ASAJ.deal(number), ASAJ_2025.game(number)
    assert spec.title == f"Game {number}"
    assert spec.summary == f"{game.dealt} cards: {game.describe()}"
    assert spec.dealer_step == number - 1  # R4.3
    assert spec.facts == {"dealt": game.dealt, "contract": game.contract}


def test_r4_there_is_no_tenth_game():
    with pytest.raises(RulesError, match="R4"):
        ASAJ.deal(10)
    with pytest.raises(RulesError, match="R4"):
        ASAJ.fields(10)


def test_the_fields_a_scorekeeper_fills_in():
    fields = {field.name: field for field in ASAJ.fields(1)}
    assert list(fields) == [
        "down_and_out", "void", "went_out", "cards", "points", "calls", "failed_come_downs",
        "overcall_penalty",
    ]  # fmt: skip
    assert fields["void"].scope is Scope.DEAL and fields["void"].rule == "R9.2"
    assert fields["went_out"].exclusive and fields["went_out"].rule == "R8.1"
    assert fields["cards"].kind is FieldKind.CARDS and fields["cards"].rule == "R11"
    assert fields["points"].alternative_to == "cards" and fields["points"].rule == "R10.4"
    assert fields["calls"].rule == "R6.2" and fields["failed_come_downs"].rule == "R5.4"
    assert fields["overcall_penalty"].rule == "R6.3"


# Evaluation maps onto today's R10 checks and R8 scoring.


GAME_3 = GameReport(
    3,
    (
        HandReport("Ann", went_out=True, cards=""),
        HandReport("Bob", cards="JK AS 2C", calls=2),
        HandReport("Cy", points=44),
        HandReport("Di", cards="KD KD 9S", failed_come_downs=1),
    ),
    down_and_out=True,
)


def test_r8_the_protocol_scores_exactly_as_the_engine():
    entry = deal(
        3,
        OUT,
        {"cards": "JK AS 2C", "calls": 2},
        {"points": 44},
        {"cards": "KD KD 9S", "failed_come_downs": 1},
        down_and_out=True,
    )
    evaluation = ASAJ.evaluate(entry)
    _, score = evaluate(GAME_3, ASAJ_2025)
    assert points(evaluation) == [line.total for line in score.scores]
    assert [side.reasons for side in evaluation.score.sides] == [s.reasons for s in score.scores]
    assert evaluation.score.detail == {"down_and_out": True}
    assert evaluation.score.sides[1].detail["doubled_points"] == 134


def test_r10_the_protocol_gives_the_engines_messages_with_side_and_field():
    entry = deal(1, OUT, {"cards": "", "calls": 1}, {"points": 3, "overcall_penalty": True})
    engine = GameReport(
        1,
        (
            HandReport("Ann", went_out=True, cards=""),
            HandReport("Bob", cards="", calls=1),
            HandReport("Cy", points=3, overcall_penalty=True),
        ),
    )
    refused = ASAJ.evaluate(entry)
    check, _ = evaluate(engine, ASAJ_2025)
    assert [e.message for e in refused.errors] == [e.message for e in check.errors]
    assert [(e.side, e.field) for e in refused.errors] == [(1, "cards"), (2, "overcall_penalty")]
    assert refused.score is None


def test_r10_1_exactly_one_player_goes_out():
    refused = ASAJ.evaluate(deal(1, OUT, OUT, {"points": 3}))
    assert rules_of(refused.errors) == ["R10.1"] and refused.errors[0].field == "went_out"


def test_sides_without_a_name_are_named_by_seat():
    from games.base import DealReport, SideReport

    entry = DealReport(
        1, (SideReport("", OUT), SideReport("", {}), SideReport("Ann", {"points": 2}))
    )
    [error] = ASAJ.evaluate(entry).errors
    assert error.player == "Seat 2" and error.side == 1 and error.rule == "R8.2"


# R9.2: a void game scores nothing and is dealt again.


def test_r9_2_a_void_game_scores_nothing_and_is_dealt_again():
    void = ASAJ.evaluate(deal(2, {}, {}, {}, void=True))
    assert void.ok and void.score.void and points(void) == [0, 0, 0]
    played = [ASAJ.evaluate(deal(1, OUT, {"points": 4}, {"points": 6})).score, void.score]
    assert ASAJ.next_deal(played) == 2


# The set's result (R4.1, R8.6) and the standings (R12.3).


def _played(*totals):
    return [ASAJ.evaluate(deal(n, *sides)).score for n, sides in enumerate(totals, start=1)]


def test_r4_1_the_lowest_total_wins_the_set():
    played = _played(
        (OUT, {"points": 10}, {"points": 5}),
        ({"points": 3}, OUT, {"points": 5}),
    )
    results = ASAJ.match_result(played)
    assert [r.total for r in results] == [3, 10, 10]
    assert [(r.place, r.won, r.shared) for r in results] == [(1, True, False), (2, False, True),
                                                             (2, False, True)]  # fmt: skip
    assert results[0].stats == {"total": 3, "games_won": 1, "down_and_outs": 0, "wins": 1}


def test_r12_4_adjustments_count_and_a_ruling_decides_a_tie():
    played = _played((OUT, {"points": 10}, {"points": 10}))
    results = ASAJ.match_result(played, adjustments=(10, 0, 0), decided_for=2)
    assert [r.total for r in results] == [10, 10, 10]
    assert [r.place for r in results] == [2, 2, 1] and results[2].won and not results[2].shared


def test_r12_3_a_down_and_out_is_counted_for_the_one_who_went_out():
    played = [ASAJ.evaluate(deal(1, OUT, {"points": 1}, {"points": 2}, down_and_out=True)).score]
    assert ASAJ.match_result(played)[0].stats["down_and_outs"] == 1


def test_r12_3_columns_follow_the_tie_break_chain():
    assert [c.stat for c in ASAJ.columns()] == [
        "total", "games_won", "down_and_outs", "latest_round_score", "wins",
    ]  # fmt: skip
    assert [c.stat for c in rules(tie_breaks=["latest_round_score"]).columns()][:2] == [
        "total",
        "latest_round_score",
    ]


def test_r12_3_rank_sums_rounds_and_breaks_ties_by_the_latest_round():
    lines = [
        StandingLine("ann", ({"total": 50, "games_won": 2}, {"total": 50, "games_won": 1})),
        StandingLine("bob", ({"total": 70, "games_won": 2}, {"total": 30, "games_won": 1})),
        StandingLine("cy", ({"total": 200, "games_won": 0}, None)),
    ]
    placings = ASAJ.rank(lines)
    assert [(p.key, p.place) for p in placings] == [("bob", 1), ("ann", 2), ("cy", 3)]
    assert placings[0].stats["latest_round_score"] == 30 and placings[0].stats["total"] == 100
