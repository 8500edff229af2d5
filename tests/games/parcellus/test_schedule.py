"""The table and the match's deals: three at a table with byes (PA7.1), a match to 30 (PA5),
each deal's dealer and pass (PA2.3, PA2.4), and what a scorekeeper enters (PA6.1)."""

import pytest

from games.base import FieldKind, RulesError, ScheduleKind, Scope, TablePlan

from .helpers import RULES, rules


def test_pa1_1_three_players_a_table_each_on_her_own():
    shape = RULES.shape()
    assert (shape.sides, shape.min_sides, shape.max_sides, shape.members) == (3, 3, 3, 1)


@pytest.mark.parametrize(
    ("players", "plan"),
    [
        pytest.param(3, TablePlan((3,), 0), id="PA7.1-one-table"),
        pytest.param(4, TablePlan((3,), 1), id="PA7.1-one-bye"),
        pytest.param(5, TablePlan((3,), 2), id="PA7.1-two-byes"),
        pytest.param(9, TablePlan((3, 3, 3), 0), id="PA7.1-three-tables"),
        pytest.param(10, TablePlan((3, 3, 3), 1), id="PA7.1-ten-players-one-bye"),
        pytest.param(101, TablePlan((3,) * 33, 2), id="PA7.1-a-hundred-and-one"),
    ],
)
def test_pa7_1_tables_of_three_and_a_bye_for_each_player_left_over(players, plan):
    assert RULES.table_plan(players) == plan


@pytest.mark.parametrize("players", [0, 1, 2, -3, "9", True])
def test_pa7_1_fewer_than_three_players_cannot_make_a_table(players):
    with pytest.raises(RulesError) as refused:
        RULES.table_plan(players)
    assert refused.value.rule == "PA7.1"


def test_pa5_1_a_match_is_played_to_a_target():
    schedule = rules(target=45).schedule()
    assert (schedule.kind, schedule.target, schedule.deals) == (ScheduleKind.TARGET, 45, None)
    assert schedule.words == "a match to 45 points"


@pytest.mark.parametrize(
    ("number", "way", "step"),
    [
        pytest.param(1, "left", 0, id="PA2.3-PA2.4-deal-1-left-the-first-dealer"),
        pytest.param(2, "right", 1, id="PA2.3-PA2.4-deal-2-right-one-seat-on"),
        pytest.param(3, "left", 2, id="PA2.3-PA2.4-deal-3-left-two-seats-on"),
        pytest.param(4, "right", 0, id="PA2.3-PA2.4-deal-4-right-back-to-the-first-dealer"),
        pytest.param(11, "left", 1, id="PA2.3-PA2.4-deal-11"),
    ],
)
def test_each_deal_says_its_dealer_and_which_way_the_pass_goes(number, way, step):
    spec = RULES.deal(number)
    assert (spec.number, spec.title, spec.dealer_step) == (number, f"Deal {number}", step)
    assert spec.facts["pass"] == way
    assert f"pass three cards to the {way}" in spec.summary
    assert f"Each player passes three cards to the {way} (PA2.3)." in spec.notes


def test_pa2_4_the_deal_says_who_deals_in_words():
    assert RULES.deal(1).summary == "dealer: the first dealer; pass three cards to the left"
    assert RULES.deal(2).notes[1] == "The dealer is the first dealer's left neighbour (PA2.4)."
    assert RULES.deal(3).notes[1] == "The dealer is the first dealer's right neighbour (PA2.4)."


@pytest.mark.parametrize("number", [0, -1, "2", 2.0, None, True])
def test_pa5_4_there_is_no_deal_but_a_whole_number_from_1(number):
    with pytest.raises(RulesError) as refused:
        RULES.deal(number)
    assert refused.value.rule == "PA5.4"
    with pytest.raises(RulesError):
        RULES.fields(number)


def test_pa6_1_the_scorekeeper_enters_cards_parcels_and_the_jack_of_hearts_per_player():
    cards, parcels, jack = RULES.fields(1)
    assert (cards.name, cards.kind, cards.scope) == ("cards", FieldKind.COUNT, Scope.SIDE)
    assert (cards.minimum, cards.maximum, cards.required) == (0, 24, True)
    assert (parcels.name, parcels.minimum, parcels.maximum) == ("parcels", 0, 6)
    assert (jack.name, jack.kind, jack.exclusive, jack.default) == (
        "jack_of_hearts",
        FieldKind.FLAG,
        True,
        False,
    )
    assert all(field.rule.startswith("PA") for field in (cards, parcels, jack))
    assert "scores 5" in rules(jack_of_hearts=5).fields(1)[2].help
