"""Scoring a deal (PA4): a point a card, the J♥ three, six for the most parcels, shared."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import RULES, entry, rules
from .strategies import captures, rows

SCORES = [
    pytest.param(
        ((5, 2), (4, 1), (9, 3)), (5, 4, 15), id="PA4.1-PA4.2-a-card-a-point-six-for-most"
    ),
    pytest.param(
        ((5, 2), (4, 1), (9, 3, "J♥")), (5, 4, 17), id="PA4.1-the-jack-of-hearts-scores-3"
    ),
    pytest.param(((5, 2, "J♥"), (4, 1), (9, 3)), (7, 4, 15), id="PA4.1-the-jack-without-the-bonus"),
    pytest.param(((6, 3), (8, 3), (0, 0)), (9, 11, 0), id="PA4.2-two-level-for-most-share-3-each"),
    pytest.param(((2, 2), (7, 2, "J♥"), (9, 2)), (4, 11, 11), id="PA4.2-three-level-share-2-each"),
    pytest.param(((7, 6), (0, 0), (0, 0)), (13, 0, 0), id="PA4.2-all-six-parcels"),
    pytest.param(
        ((12, 1), (5, 3), (5, 2)), (12, 11, 5), id="PA4.2-parcels-not-cards-take-the-bonus"
    ),
]


@pytest.mark.parametrize(("deal", "points"), SCORES)
def test_pa4_each_player_scores_cards_jack_and_bonus(deal, points):
    evaluation = RULES.evaluate(entry(*deal))
    assert tuple(side.points for side in evaluation.score.sides) == points


def test_pa4_the_reasons_say_where_every_point_came_from():
    score = RULES.evaluate(entry((6, 3), (8, 3, "J♥"), (0, 0))).score
    ann, bo, cy = score.sides
    assert ann.reasons == (
        "6 cards captured: 6 (PA4.1)",
        "most parcels, level with Bo: 6 / 2 = 3 (PA4.2)",
        "deal score = 9 (PA4.3)",
    )
    assert bo.reasons == (
        "8 cards captured: 8 (PA4.1)",
        "the J♥ scores 3: +2 (PA4.1)",
        "most parcels, level with Ann: 6 / 2 = 3 (PA4.2)",
        "deal score = 13 (PA4.3)",
    )
    assert cy.reasons == ("0 cards captured: 0 (PA4.1)", "deal score = 0 (PA4.3)")
    assert bo.detail == {
        "cards": 8,
        "parcels": 3,
        "jack_of_hearts": True,
        "card_points": 10,
        "bonus": 3,
    }
    assert score.detail == {"cards_captured": 14, "most_parcels": 3, "bonus_shared_by": 2}


def test_pa4_1_the_alone_bonus_reason_names_no_one_else():
    score = RULES.evaluate(entry((5, 2), (4, 1), (9, 3))).score
    assert "most parcels: 6 bonus points (PA4.2)" in score.sides[2].reasons


@pytest.mark.parametrize(
    ("changes", "points"),
    [
        pytest.param({"jack_of_hearts": 5}, (5, 4, 19), id="PA4.1-a-jack-worth-5"),
        pytest.param({"jack_of_hearts": 0}, (5, 4, 14), id="PA4.1-a-jack-worth-nothing"),
        pytest.param({"bonus": 12}, (5, 4, 23), id="PA4.2-a-bonus-of-12"),
        pytest.param({"bonus": 0}, (5, 4, 11), id="PA4.2-no-bonus"),
    ],
)
def test_pa4_the_ruleset_sets_the_jack_and_the_bonus(changes, points):
    score = rules(**changes).evaluate(entry((5, 2), (4, 1), (9, 3, "J♥"))).score
    assert tuple(side.points for side in score.sides) == points


# --- laws --------------------------------------------------------------------------------------

LAWS = settings(max_examples=300, deadline=None)


@LAWS
@given(captures())
def test_pa4_3_a_deals_points_add_up_to_cards_plus_two_for_the_jack_plus_six(deal):
    evaluation = RULES.evaluate(entry(*rows(deal)))
    assert evaluation.ok
    cards = sum(capture.cards for capture in deal)
    jack = 2 if any(capture.jack_of_hearts for capture in deal) else 0
    assert sum(side.points for side in evaluation.score.sides) == cards + jack + 6


@LAWS
@given(captures(), st.permutations(range(3)))
def test_pa4_permuting_the_players_permutes_the_scores(deal, order):
    before = RULES.evaluate(entry(*rows(deal))).score
    shuffled = tuple(deal[seat] for seat in order)
    after = RULES.evaluate(entry(*rows(shuffled))).score
    assert [side.points for side in after.sides] == [before.sides[seat].points for seat in order]


@LAWS
@given(captures(), st.integers(0, 20), st.integers(0, 20))
def test_pa4_under_any_ruleset_the_points_add_up_to_cards_jack_and_bonus(deal, jack, sixes):
    score = rules(jack_of_hearts=jack, bonus=6 * sixes).evaluate(entry(*rows(deal))).score
    cards = sum(capture.cards for capture in deal)
    jack_extra = jack - 1 if any(capture.jack_of_hearts for capture in deal) else 0
    assert sum(side.points for side in score.sides) == cards + jack_extra + 6 * sixes


@LAWS
@given(captures())
def test_pa4_2_the_bonus_goes_only_to_the_most_parcels_in_equal_shares(deal):
    score = RULES.evaluate(entry(*rows(deal))).score
    most = max(capture.parcels for capture in deal)
    shares = [side.detail["bonus"] for side in score.sides]
    leaders = [capture.parcels == most for capture in deal]
    assert shares == [6 // sum(leaders) if leads else 0 for leads in leaders]
