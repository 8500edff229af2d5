"""Entry checks (R10): errors that refuse a scorekeeper's entry, warnings that need confirming."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kalooki import (
    ASAJ_2025,
    GameReport,
    HandReport,
    check_report,
    format_cards,
    hand_points,
    hand_size,
    max_hand_points,
    parse_cards,
)
from games.kalooki.cards import NATURALS

from .strategies import SETTINGS, game_entries, shuffled_decks

RULES = ASAJ_2025


def table(*hands: HandReport, game: int = 1, **flags) -> GameReport:
    """A game report; Ann goes out and Bob and Cy hold a card each unless the test says
    otherwise."""
    given_players = {hand.player for hand in hands}
    usual = [
        HandReport("Ann", went_out=True, cards=""),
        HandReport("Bob", cards="7H"),
        HandReport("Cy", points=12),
    ]
    return GameReport(game, (*[h for h in usual if h.player not in given_players], *hands), **flags)


def rules_of(problems) -> list[str]:
    return [problem.rule for problem in problems]


def test_a_plain_entry_passes():
    check = check_report(table(), RULES)
    assert check.ok
    assert (check.errors, check.warnings) == ((), ())


# R10.1


def test_r10_1_nobody_going_out_in_a_scored_game_is_refused():
    check = check_report(table(HandReport("Ann", cards="5H")), RULES)
    assert rules_of(check.errors) == ["R10.1"]
    assert "not nobody" in check.errors[0].message


def test_r10_1_two_players_going_out_is_refused():
    check = check_report(table(HandReport("Bob", went_out=True, cards="")), RULES)
    assert rules_of(check.errors) == ["R10.1"]
    assert "Ann and Bob" in check.errors[0].message


def test_r10_1_nobody_goes_out_in_a_void_game():
    check = check_report(table(void=True), RULES)
    assert rules_of(check.errors) == ["R10.1"]
    players = [HandReport(name) for name in ("Ann", "Bob", "Cy")]
    assert check_report(GameReport(1, tuple(players), void=True), RULES).ok


def test_r9_2_a_void_game_cannot_be_down_and_out():
    players = tuple(HandReport(name) for name in ("Ann", "Bob", "Cy"))
    check = check_report(GameReport(1, players, void=True, down_and_out=True), RULES)
    assert rules_of(check.errors) == ["R9.2"]


def test_r9_2_points_entered_in_a_void_game_are_warned_about():
    players = (
        HandReport("Ann"),
        HandReport("Bob", points=20),
        HandReport("Cy", failed_come_downs=1),
    )
    check = check_report(GameReport(1, players, void=True), RULES)
    assert check.ok
    assert rules_of(check.warnings) == ["R9.2", "R9.2"]


# R10.2


def test_r10_2_the_player_who_went_out_holds_no_cards():
    check = check_report(table(HandReport("Ann", went_out=True, cards="5H 6H")), RULES)
    assert rules_of(check.errors) == ["R10.2"]
    assert check.errors[0].player == "Ann"


def test_r10_2_the_player_who_went_out_has_no_card_points():
    check = check_report(table(HandReport("Ann", went_out=True, points=5)), RULES)
    assert rules_of(check.errors) == ["R10.2"]


@pytest.mark.parametrize(
    "empty", [HandReport("Ann", went_out=True), HandReport("Ann", went_out=True, points=0)]
)
def test_r10_2_the_player_who_went_out_may_be_entered_without_cards(empty):
    assert check_report(table(empty), RULES).ok


def test_r10_2_every_other_player_holds_a_card():
    check = check_report(table(HandReport("Bob", cards="")), RULES)
    assert rules_of(check.errors) == ["R10.2"]
    assert check.errors[0].player == "Bob"


def test_r8_2_a_player_who_did_not_go_out_needs_cards_or_points():
    check = check_report(table(HandReport("Bob")), RULES)
    assert rules_of(check.errors) == ["R8.2"]


# R10.3


def test_r10_3_unreadable_cards_are_refused_with_the_token_and_its_position():
    check = check_report(table(HandReport("Bob", cards="7H 8X 9H")), RULES)
    assert rules_of(check.errors) == ["R10.3"]
    assert 'card 2, "8X"' in check.errors[0].message
    assert "R11" in check.errors[0].message


def test_r10_3_six_jokers_across_the_hands_are_accepted():
    entry = table(HandReport("Bob", cards="JK JK JK 5H"), HandReport("Cy", cards="JK JK JK"))
    assert check_report(entry, RULES).ok


def test_r10_3_it_refuses_a_seventh_joker():
    entry = table(HandReport("Bob", cards="JK JK JK 5H"), HandReport("Cy", cards="JK JK JK JK"))
    check = check_report(entry, RULES)
    assert rules_of(check.errors) == ["R10.3"]
    assert check.errors[0].message == (
        "the hands hold 7 jokers (Bob 3, Cy 4), but the deck has only 6 (R10.3)"
    )


def test_r10_3_it_accepts_three_copies_of_a_card():
    entry = table(HandReport("Bob", cards="QS QS"), HandReport("Cy", cards="QS 2H"))
    assert check_report(entry, RULES).ok


def test_r10_3_it_refuses_a_fourth_copy_of_a_card():
    entry = table(HandReport("Bob", cards="QS QS"), HandReport("Cy", cards="QS qs 2H"))
    check = check_report(entry, RULES)
    assert rules_of(check.errors) == ["R10.3"]
    assert "4 copies of QS (Bob 2, Cy 2)" in check.errors[0].message


# R10.4


def test_r6_1_each_call_adds_two_cards_to_the_hand():
    first_game = RULES.game(1)
    assert hand_size(first_game, 0, RULES) == 9
    assert hand_size(first_game, 2, RULES) == 13
    assert hand_size(first_game, None, RULES) == 15  # R10.4: calls not entered, 3 assumed


@pytest.mark.parametrize(
    ("cards", "most"),
    [
        (0, 0),
        (1, 50),
        (6, 300),
        (7, 315),
        (12, 390),
        (15, 420),  # game 1 with 3 calls: 6 jokers, 6 black aces, 3 tens
        (22, 490),  # game 9 with 3 calls
        (60, 870),  # ... all 48 tens and court cards
        (61, 879),  # then the nines
        (162, 1404),  # the whole deck
        (500, 1404),
    ],
    ids=lambda value: f"R10.4-{value}",
)
def test_r10_4_the_most_a_hand_can_be_worth(cards, most):
    assert max_hand_points(cards, RULES) == most
    assert max_hand_points(cards, RULES, doubled=True) == 2 * most


def test_r10_4_points_above_what_the_hand_could_hold_are_refused():
    check = check_report(table(HandReport("Cy", points=421)), RULES)
    assert rules_of(check.errors) == ["R10.4"]
    assert check.errors[0].message == (
        "Cy's 421 points are more than 15 cards can be worth (calls not entered, so 3 assumed): "
        "at most 420 (R10.4)"
    )
    assert check_report(table(HandReport("Cy", points=420)), RULES).ok


def test_r10_4_the_bound_follows_the_calls_entered():
    nine_cards = table(HandReport("Cy", points=346, calls=0))  # 6 jokers and 3 black aces: 345
    assert rules_of(check_report(nine_cards, RULES).errors) == ["R10.4"]
    assert check_report(table(HandReport("Cy", points=345, calls=0)), RULES).ok


def test_r10_4_under_down_and_out_the_doubled_points_meet_the_doubled_bound():
    assert check_report(table(HandReport("Cy", points=420), down_and_out=True), RULES).ok
    check = check_report(table(HandReport("Cy", points=421), down_and_out=True), RULES)
    assert rules_of(check.errors) == ["R10.4"]
    assert "doubled for down and out to 842" in check.errors[0].message
    assert "at most 840" in check.errors[0].message


@pytest.mark.parametrize("points", [0, -5])
def test_r10_4_a_player_who_did_not_go_out_has_at_least_one_point(points):
    assert rules_of(check_report(table(HandReport("Cy", points=points)), RULES).errors) == ["R10.4"]


def test_r10_4_cards_and_points_both_given_for_a_hand_are_refused():
    check = check_report(table(HandReport("Cy", cards="5H", points=5)), RULES)
    assert rules_of(check.errors) == ["R10.4"]
    assert "both cards and points" in check.errors[0].message


def test_r10_4_points_are_whole_numbers():
    assert rules_of(check_report(table(HandReport("Cy", points=2.5)), RULES).errors) == ["R10.4"]


# R10.5


def test_r10_5_an_overcall_penalty_needs_more_than_three_calls():
    check = check_report(table(HandReport("Cy", points=12, calls=3, overcall_penalty=True)), RULES)
    assert rules_of(check.errors) == ["R10.5"]
    assert check_report(
        table(HandReport("Cy", points=12, calls=4, overcall_penalty=True)), RULES
    ).ok


def test_r10_5_an_overcall_penalty_needs_the_calls_entered():
    check = check_report(table(HandReport("Cy", points=12, overcall_penalty=True)), RULES)
    assert rules_of(check.errors) == ["R10.5"]
    assert "no calls entered" in check.errors[0].message


# R10.6 (warnings)

HAND_SIZES = [
    # game 1 deals 9 cards: a player who never came down holds 9 + 2 × calls.
    ("R10.6-never-came-down-no-call", 0, 9, True),
    ("R10.6-never-came-down-two-calls", 2, 13, True),
    ("R10.6-came-down-two-calls", 2, 4, True),
    ("R10.6-came-down-two-calls-one-left", 2, 1, True),
    ("R10.6-came-down-without-a-call-and-still-holding", 0, 5, False),
    ("R10.6-one-card-too-many-after-coming-down", 2, 5, False),
    ("R10.6-more-than-dealt-plus-calls", 1, 12, False),
]


@pytest.mark.parametrize(
    ("calls", "held", "fine"), [h[1:] for h in HAND_SIZES], ids=[h[0] for h in HAND_SIZES]
)
def test_r10_6_hand_sizes(calls, held, fine):
    low_cards = [card for card in NATURALS if card.rank <= 9][:held]
    check = check_report(
        table(HandReport("Bob", cards=format_cards(low_cards), calls=calls)), RULES
    )
    assert check.ok
    assert rules_of(check.warnings) == ([] if fine else ["R10.6"])


def test_r10_6_is_silent_when_calls_are_not_entered():
    assert check_report(table(HandReport("Bob", cards="2H 3H 4H 5H 6H")), RULES).warnings == ()


# R10.7 (warnings)


def test_r10_7_more_than_three_calls_without_an_overcall_penalty_is_warned_about():
    check = check_report(table(HandReport("Cy", points=12, calls=4)), RULES)
    assert check.ok
    assert rules_of(check.warnings) == ["R10.7"]
    assert check.warnings[0].player == "Cy"


# The entry as a whole.


@pytest.mark.parametrize("players", [3, 4, 5, 6], ids=lambda n: f"R1.1-R12.2-{n}-players")
def test_r1_1_tables_of_three_to_six_are_accepted(players):
    hands = [
        HandReport("P0", went_out=True),
        *(HandReport(f"P{i}", points=5) for i in range(1, players)),
    ]
    assert check_report(GameReport(1, tuple(hands)), RULES).ok


@pytest.mark.parametrize("players", [2, 7], ids=lambda n: f"R1.1-{n}-players")
def test_r1_1_tables_of_other_sizes_are_refused(players):
    hands = [
        HandReport("P0", went_out=True),
        *(HandReport(f"P{i}", points=5) for i in range(1, players)),
    ]
    assert "R1.1" in rules_of(check_report(GameReport(1, tuple(hands)), RULES).errors)


def test_it_refuses_one_player_entered_twice():
    check = check_report(table(HandReport("Bob", cards="7H"), HandReport("Bob", points=3)), RULES)
    assert "R10" in rules_of(check.errors)
    assert "Bob has 2 hands" in check.errors[0].message


def test_it_refuses_a_hand_without_a_player_name():
    check = check_report(table(HandReport(" ", points=3)), RULES)
    assert rules_of(check.errors) == ["R10"]


@pytest.mark.parametrize(
    ("hand", "rule"),
    [
        (HandReport("Cy", points=12, calls=-1), "R6.2"),
        (HandReport("Cy", points=12, failed_come_downs=-1), "R5.4"),
    ],
)
def test_it_refuses_negative_counts(hand, rule):
    assert rules_of(check_report(table(hand), RULES).errors) == [rule]


def test_r4_an_entry_for_an_unknown_game_is_refused():
    check = check_report(table(game=10), RULES)
    assert rules_of(check.errors) == ["R4"]


def test_every_problem_cites_its_rule_and_says_whose_hand():
    entry = table(
        HandReport("Bob", cards="", calls=-1),
        HandReport("Cy", points=999, overcall_penalty=True),
        HandReport("Di", cards="JK JK JK JK JK JK JK", calls=9),
    )
    check = check_report(entry, RULES)
    for problem in (*check.errors, *check.warnings):
        assert problem.rule in problem.message
    assert {problem.player for problem in check.errors} >= {"Bob", "Cy"}
    assert check.to_dict()["errors"][0].keys() == {"rule", "message", "player"}


# Laws.


@settings(**SETTINGS)
@given(shuffled_decks(), st.integers(1, 9), st.integers(0, 3))
def test_law_r10_4_no_hand_the_deck_can_deal_exceeds_the_bound(stock, game, calls):
    size = RULES.game(game).dealt + 2 * calls
    hand = stock[:size]
    assert hand_points(hand, RULES) <= max_hand_points(size, RULES)
    assert 2 * hand_points(hand, RULES) <= max_hand_points(size, RULES, doubled=True)


@settings(**SETTINGS)
@given(game_entries())
def test_law_any_table_dealt_from_one_deck_passes_the_checks(entry):
    assert check_report(entry, RULES).errors == ()


@settings(**SETTINGS)
@given(game_entries(), st.booleans())
def test_law_entering_points_instead_of_cards_changes_no_error(entry, down_and_out):
    as_points = [
        dataclasses.replace(hand, cards=None, points=hand_points_of(hand)) if hand.cards else hand
        for hand in entry.hands
    ]
    changed = dataclasses.replace(entry.with_hands(as_points), down_and_out=down_and_out)
    assert check_report(changed, RULES).errors == ()


def hand_points_of(hand: HandReport) -> int:
    return hand_points(parse_cards(hand.cards or ""), RULES)
