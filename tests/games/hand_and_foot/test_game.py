"""A game at one table (HF1.2, HF2, HF10): the table, the hands, time, the winner and ties."""

import pytest

from games.base import DealScore, RulesError, ScheduleKind, SideScore
from games.hand_and_foot import GAME

from .builders import CLUB, rules, table


def hand(number, a, b, *, void=False):
    return DealScore(number, (SideScore(a, detail={"red_books": 2}), SideScore(b)), void=void)


def test_hf1_2_two_teams_of_two_partners_opposite():
    shape = CLUB.shape()
    assert (shape.sides, shape.min_sides, shape.max_sides, shape.members, shape.seats) == (
        2,
        2,
        2,
        2,
        4,
    )
    # Partners sit opposite: team 0 at seats 1 and 3, team 1 at seats 2 and 4.
    assert [shape.seat(side, member) for side in (0, 1) for member in (0, 1)] == [1, 3, 2, 4]


@pytest.mark.parametrize(
    ("teams", "tables", "byes"),
    [(2, 1, 0), (3, 1, 1), (8, 4, 0), (9, 4, 1), (101, 50, 1)],
    ids=lambda value: str(value),
)
def test_hf11_1_teams_sit_two_to_a_table_and_an_odd_one_has_a_bye(teams, tables, byes):
    plan = CLUB.table_plan(teams)
    assert plan.sizes == (2,) * tables and plan.byes == byes


@pytest.mark.parametrize("teams", [0, 1, -3, "8", None])
def test_hf1_2_a_round_needs_two_teams(teams):
    with pytest.raises(RulesError, match=r"at least two teams.*\(HF1.2\)"):
        CLUB.table_plan(teams)


def test_hf2_a_game_is_three_hands_timed():
    schedule = CLUB.schedule()
    assert (schedule.kind, schedule.deals, schedule.minutes) == (ScheduleKind.TIMED, 3, 90)
    assert schedule.words == "a game of three hands, within 1 h 30"


@pytest.mark.parametrize(
    ("number", "meld"), [(1, 90), (2, 120), (3, 150)], ids=lambda v: f"HF2.1-{v}"
)
def test_hf2_1_each_hand_has_its_meld_minimum(number, meld):
    spec = CLUB.deal(number)
    assert (spec.title, spec.summary, spec.facts["meld"]) == (
        f"Hand {number}",
        f"meld {meld}",
        meld,
    )
    assert spec.dealer_step is None  # every player deals their own hand and foot (HF2.3)
    assert f"at least {meld} points (HF3.1)" in spec.notes[0]


@pytest.mark.parametrize("number", [0, 4, "1", None])
def test_hf2_1_a_hand_the_game_does_not_have(number):
    with pytest.raises(RulesError, match=r"HF2.1"):
        CLUB.deal(number)
    with pytest.raises(RulesError):
        CLUB.fields(number)


def test_hf2_1_the_four_hands_preset_has_four():
    four = rules(preset="four-hands")
    assert (
        four.deal(4).summary == "meld 150"
        and four.schedule().words == "a game of four hands, within 2 h"
    )


def test_hf2_the_hands_come_in_order_until_the_last():
    played = [hand(1, 100, 50), hand(2, 10, 20)]
    assert CLUB.next_deal([]) == 1
    assert CLUB.next_deal(played) == 3
    assert CLUB.next_deal([*played, hand(3, 0, 0)]) is None
    assert CLUB.match_over([*played, hand(3, 0, 0)])


def test_hf2_2_when_time_is_called_no_hand_follows():
    played = [hand(1, 100, 50)]
    assert CLUB.next_deal(played, time_called=True) is None
    assert CLUB.match_over([], time_called=True)


def test_hf10_1_the_higher_total_wins():
    a, b = CLUB.match_result([hand(1, 2185, 515), hand(2, -300, 900), hand(3, 100, 600)])
    assert (a.place, a.won, a.total, a.shared) == (2, False, 1985, False)
    assert (b.place, b.won, b.total, b.shared) == (1, True, 2015, False)


def test_hf10_1_when_time_is_called_the_hands_played_decide():
    played = [hand(1, 1200, 300), hand(2, 100, 900)]
    a, b = CLUB.match_result(played, time_called=True)
    assert (a.total, b.total) == (1300, 1200) and a.won and a.stats["hands"] == 2


def test_hf10_2_a_tie_has_no_winner_until_a_ruling_decides_it():
    played = [hand(1, 700, 500), hand(2, 300, 500)]
    a, b = CLUB.match_result(played)
    assert (a.place, a.won, a.shared) == (1, False, True) and (b.place, b.won, b.shared) == (
        1,
        False,
        True,
    )
    a, b = CLUB.match_result(played, decided_for=1)
    assert (a.place, a.won, a.shared) == (2, False, False) and (b.place, b.won) == (1, True)
    assert b.stats["games_won"] == 1 and a.stats["games_won"] == 0


def test_hf10_2_interpretation_a_ruling_decides_only_a_tie():
    a, b = CLUB.match_result([hand(1, 700, 500)], decided_for=1)
    assert a.won and not b.won


def test_hf6_8_ruling_adjustments_count_in_the_totals():
    a, b = CLUB.match_result([hand(1, 700, 500)], adjustments=(-200, 0))
    assert (a.total, b.total) == (500, 500) and a.shared
    a, b = CLUB.match_result([hand(1, 700, 500)], adjustments=(-300, 0))
    assert b.won


@pytest.mark.parametrize(
    "arguments",
    [{"decided_for": 2}, {"decided_for": True}, {"adjustments": (1,)}, {"adjustments": ("5", 0)}],
)
def test_a_match_result_of_a_question_the_rules_cannot_answer(arguments):
    with pytest.raises(RulesError):
        CLUB.match_result([hand(1, 500, 500)], **arguments)


def test_a_match_result_of_hands_not_of_two_teams():
    with pytest.raises(RulesError, match=r"HF1\.2"):
        CLUB.match_result([DealScore(1, (SideScore(10),))])


def test_the_stats_of_a_game():
    played = [CLUB.evaluate(table()).score]
    a, b = CLUB.match_result(played)
    assert a.stats == {
        "total": 2185,
        "wins": 1,
        "games_won": 1,
        "books": 4,
        "red_books": 2,
        "black_books": 2,
        "went_out": 1,
        "hands": 1,
    }
    assert b.stats["books"] == 1 and b.stats["went_out"] == 0 and b.stats["wins"] == 0


def test_a_void_hand_counts_nothing():
    # Hand and Foot has no void hands; a void score from elsewhere is skipped, not counted.
    played = [hand(1, 100, 0), hand(1, 999, 0, void=True)]
    assert CLUB.next_deal(played) == 2 and CLUB.match_result(played)[0].total == 100


def test_the_game_is_registered():
    import games

    assert games.get("hand_and_foot") is GAME and GAME.name == "Hand and Foot" and GAME.higher_wins
