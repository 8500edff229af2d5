"""Scoring a game (R8), a void game (R9.2) and a set of nine games (R8.6, R4.1)."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kalooki import (
    ASAJ_2025,
    GameReport,
    HandReport,
    ReportRefused,
    RulesError,
    evaluate,
    score_game,
    score_set,
)

from .strategies import SETTINGS, game_entries

RULES = ASAJ_2025


def game(*hands: HandReport, number: int = 2, **flags) -> GameReport:
    return GameReport(number, hands, **flags)


def by_player(score):
    return {line.player: line for line in score.scores}


def test_r8_1_r8_2_the_player_out_scores_nothing_the_others_their_cards():
    score = score_game(
        game(
            HandReport("Ann", went_out=True, cards=""),
            HandReport("Bob", cards="JK AS 2C"),
            HandReport("Cy", points=23),
        ),
        RULES,
    )
    assert [line.total for line in score.scores] == [0, 67, 23]
    assert by_player(score)["Bob"].reasons == (
        "cards JK AS 2C = 50 + 15 + 2 = 67 (R8.2)",
        "game score = 67 (R8.5)",
    )
    assert by_player(score)["Ann"].reasons[0] == "went out: 0 (R8.1)"


def test_r8_3_down_and_out_doubles_the_others_card_points():
    score = score_game(
        game(
            HandReport("Ann", went_out=True),
            HandReport("Bob", cards="JK AS 2C"),
            HandReport("Cy", points=23),
            down_and_out=True,
        ),
        RULES,
    )
    ann, bob, cy = score.scores
    assert (ann.total, ann.doubled) == (0, False)
    assert (bob.card_points, bob.doubled, bob.doubled_points, bob.total) == (67, True, 134, 134)
    assert cy.total == 46
    assert "doubled: down and out (R8.3): 67 × 2 = 134" in bob.reasons


def test_r5_4_each_failed_come_down_costs_50():
    score = score_game(
        game(
            HandReport("Ann", went_out=True),
            HandReport("Bob", cards="7H", failed_come_downs=2),
            HandReport("Cy", points=5),
        ),
        RULES,
    )
    bob = by_player(score)["Bob"]
    assert (bob.penalties, bob.total) == (100, 107)
    assert "failed come-down ×2 = 100 (R5.4)" in bob.reasons


def test_r6_3_an_overcall_costs_50():
    score = score_game(
        game(
            HandReport("Ann", went_out=True),
            HandReport("Bob", cards="7H", calls=4, overcall_penalty=True),
            HandReport("Cy", points=5),
        ),
        RULES,
    )
    bob = by_player(score)["Bob"]
    assert (bob.penalties, bob.total) == (50, 57)
    assert "overcall = 50 (R6.3)" in bob.reasons


def test_r8_4_penalties_are_added_after_doubling_and_not_doubled():
    entry = game(
        HandReport("Ann", went_out=True),
        HandReport("Bob", cards="JK AS 2C", failed_come_downs=1),
        HandReport("Cy", points=5, calls=4, overcall_penalty=True),
        down_and_out=True,
    )
    bob, cy = score_game(entry, RULES).scores[1:]
    assert (bob.doubled_points, bob.penalties, bob.total) == (134, 50, 184)
    assert (cy.doubled_points, cy.penalties, cy.total) == (10, 50, 60)
    assert "penalties not doubled (R8.4)" in bob.reasons
    assert bob.reasons[-1] == "game score = 134 + 50 = 184 (R8.5)"


def test_r8_4_a_ruleset_may_double_the_penalties_too():
    doubling = dataclasses.replace(RULES, double_penalties_on_down_and_out=True)
    entry = game(
        HandReport("Ann", went_out=True, failed_come_downs=1),
        HandReport("Bob", cards="JK AS 2C", failed_come_downs=1),
        HandReport("Cy", points=5),
        down_and_out=True,
    )
    ann, bob, _ = score_game(entry, doubling).scores
    assert (bob.penalties, bob.total) == (100, 234)
    assert ann.total == 50  # the player out was not doubled, so neither are their penalties


def test_r8_5_the_player_who_went_out_still_carries_penalties():
    entry = game(
        HandReport("Ann", went_out=True, failed_come_downs=1, calls=4, overcall_penalty=True),
        HandReport("Bob", points=7),
        HandReport("Cy", points=5),
    )
    assert by_player(score_game(entry, RULES))["Ann"].total == 100


def test_r12_4_a_director_adjustment_shows_in_the_score():
    entry = game(
        HandReport("Ann", went_out=True),
        HandReport("Bob", cards="7H", adjustment=-10),
        HandReport("Cy", points=5, adjustment=25),
    )
    bob, cy = score_game(entry, RULES).scores[1:]
    assert (bob.adjustment, bob.total, cy.total) == (-10, -3, 30)
    assert "director adjustment -10 (R12.4)" in bob.reasons
    assert bob.reasons[-1] == "game score = 7 - 10 = -3 (R8.5)"


def test_r9_2_a_void_game_scores_nothing_for_anyone():
    entry = game(
        HandReport("Ann"), HandReport("Bob", failed_come_downs=1), HandReport("Cy"), void=True
    )
    check, score = evaluate(entry, RULES)
    assert score is not None
    assert [line.total for line in score.scores] == [0, 0, 0]
    assert score.scores[0].reasons == ("void game: no score for anyone (R9.2)",)
    assert [w.rule for w in check.warnings] == ["R9.2"]


def test_scores_keep_the_order_of_the_hands():
    entry = game(
        HandReport("Cy", points=5), HandReport("Ann", went_out=True), HandReport("Bob", points=7)
    )
    assert [line.player for line in score_game(entry, RULES).scores] == ["Cy", "Ann", "Bob"]


def test_an_entry_with_errors_is_refused_with_its_check():
    entry = game(
        HandReport("Ann", went_out=True), HandReport("Bob", cards="7H 7X"), HandReport("Cy")
    )
    with pytest.raises(ReportRefused) as refused:
        score_game(entry, RULES)
    assert [problem.rule for problem in refused.value.check.errors] == ["R10.3", "R8.2"]
    assert "R10.3" in str(refused.value) and "R8.2" in str(refused.value)
    check, score = evaluate(entry, RULES)
    assert score is None and check == refused.value.check


def test_warnings_do_not_stop_scoring():
    entry = game(
        HandReport("Ann", went_out=True),
        HandReport("Bob", points=7, calls=5),
        HandReport("Cy", points=5),
    )
    check, score = evaluate(entry, RULES)
    assert [w.rule for w in check.warnings] == ["R10.7"]
    assert score is not None and score.total_for("Bob") == 7


def test_a_game_score_reads_as_plain_data():
    score = score_game(
        game(
            HandReport("Ann", went_out=True),
            HandReport("Bob", points=7),
            HandReport("Cy", points=5),
        ),
        RULES,
    )
    data = score.to_dict()
    assert data["game"] == 2
    assert data["scores"][1]["total"] == 7
    assert isinstance(data["scores"][1]["reasons"], list)


# A set (R8.6, R4.1).


def a_set(void_attempt: bool = False) -> list[GameReport]:
    entries = []
    for number in range(1, 10):
        winner = ("Ann", "Bob", "Cy")[number % 3]
        hands = tuple(
            HandReport(player, went_out=True)
            if player == winner
            else HandReport(player, points=number)
            for player in ("Ann", "Bob", "Cy")
        )
        entries.append(GameReport(number, hands, down_and_out=number == 9))
    if void_attempt:
        players = tuple(HandReport(player) for player in ("Ann", "Bob", "Cy"))
        entries.insert(4, GameReport(5, players, void=True))
    return entries


def test_r8_6_the_set_score_is_the_sum_of_the_nine_game_scores():
    result = score_set(a_set(), RULES)
    assert result.complete
    # Ann goes out in games 3, 6, 9; Bob in 1, 4, 7; Cy in 2, 5, 8. Game 9 is down and out.
    assert result.total_for("Ann") == 1 + 2 + 4 + 5 + 7 + 8
    assert result.total_for("Bob") == 2 + 3 + 5 + 6 + 8 + 2 * 9
    assert result.total_for("Cy") == 1 + 3 + 4 + 6 + 7 + 2 * 9
    assert result.winners == ("Ann",)  # R4.1: lowest set score wins
    ann = next(line for line in result.players if line.player == "Ann")
    assert (ann.games_won, ann.down_and_outs) == (3, 1)


def test_r9_2_a_void_attempt_counts_for_nothing_in_the_set():
    assert score_set(a_set(void_attempt=True), RULES).players == score_set(a_set(), RULES).players


def test_r4_1_a_set_missing_a_game_is_not_complete():
    assert not score_set(a_set()[:8], RULES).complete


def test_r4_1_a_game_scored_twice_in_one_set_is_refused():
    entries = a_set()
    with pytest.raises(RulesError, match=r"R4\.1"):
        score_set([*entries, entries[3]], RULES)


# Laws.


@settings(**SETTINGS)
@given(game_entries(), st.randoms(use_true_random=False))
def test_law_scores_do_not_depend_on_the_order_of_the_hands(entry, shuffler):
    hands = list(entry.hands)
    shuffler.shuffle(hands)
    before = by_player(score_game(entry, RULES))
    after = by_player(score_game(entry.with_hands(hands), RULES))
    assert before == after


@settings(**SETTINGS)
@given(game_entries(down_and_out=False))
def test_law_down_and_out_doubles_exactly_the_card_points(entry):
    plain = score_game(entry, RULES).scores
    doubled = score_game(dataclasses.replace(entry, down_and_out=True), RULES).scores
    for before, after in zip(plain, doubled, strict=True):
        extra = 0 if before.went_out else before.card_points
        assert after.total - before.total == extra
        assert after.penalties == before.penalties  # R8.4: the 50s are never doubled


@settings(**SETTINGS)
@given(game_entries())
def test_law_a_game_score_is_its_parts_added_up(entry):
    for line in score_game(entry, RULES).scores:
        assert line.total == line.doubled_points + line.penalties + line.adjustment
        assert line.doubled_points == line.card_points * (2 if line.doubled else 1)
        assert (line.card_points == 0) if line.went_out else line.card_points >= 1
