"""The checks of a hand's entry (HF8): each error refuses the entry, each warning asks to confirm.

Every case changes one thing in the standard hand of ``builders`` and names the rule it breaks.
"""

import pytest

from .builders import evaluate, out, rules, rules_of, table

# (case id, changes to the standard hand, rule, field, side, member)
ERRORS = [
    # HF5: going out
    ("HF5.2-two-players-out", {"cy": out()}, "HF5.2", "went_out", None, None),
    ("HF5.1-out-without-two-red-books", {"a": {"red_books": 1}}, "HF5.1", "red_books", 0, None),
    ("HF5.1-out-without-two-black-books", {"a": {"black_books": 1}}, "HF5.1", "red_books", 0, None),
    ("HF5.3-out-holding-cards", {"ann": {"hand": "5S"}}, "HF5.3", "hand", 0, 0),
    ("HF5.3-out-holding-points", {"ann": {"hand": None, "hand_points": 10}}, "HF5.3", "hand", 0, 0),
    (
        "HF5.3-out-with-a-red-three",
        {"ann": {"red_threes": 1, "hand": None, "hand_points": 0}},
        "HF5.3",
        "hand",
        0,
        0,
    ),
    ("HF5.3-out-without-the-foot", {"ann": {"foot_played": False}}, "HF5.3", "foot_played", 0, 0),
    # HF8.2: what is entered for a player
    ("HF8.2-nothing-left-in-hand-entered", {"bea": {"hand": None}}, "HF8.2", "hand", 0, 1),
    (
        "HF8.2-unplayed-foot-without-its-count",
        {"bea": {"foot_played": False}},
        "HF8.2",
        "foot",
        0,
        1,
    ),
    ("HF8.2-a-played-foot-entered", {"bea": {"foot_points": 50}}, "HF8.2", "foot", 0, 1),
    (
        "HF2.3-a-foot-of-12-cards",
        {"bea": {"foot_played": False, "foot": "5S " * 12}},
        "HF2.3",
        "foot",
        0,
        1,
    ),
    ("HF8.2-cards-and-points-disagree", {"bea": {"hand_points": 20}}, "HF8.2", "hand_points", 0, 1),
    (
        "HF8.2-red-threes-entered-beside-cards",
        {"bea": {"red_threes": 1}},
        "HF8.2",
        "red_threes",
        0,
        1,
    ),
    # HF8.5: points are made of cards
    (
        "HF8.5-hand-points-not-a-multiple-of-5",
        {"cy": {"hand": None, "hand_points": 57}},
        "HF8.5",
        "hand_points",
        1,
        0,
    ),
    (
        "HF8.5-foot-points-not-a-multiple-of-5",
        {"di": {"foot_points": 101}},
        "HF8.5",
        "foot_points",
        1,
        1,
    ),
    ("HF8.5-a-foot-of-13-cards-worth-0", {"di": {"foot_points": 0}}, "HF8.5", "foot_points", 1, 1),
    (
        "HF8.5-a-foot-of-500-with-two-red-threes",
        {"bea": {"foot_played": False, "foot_points": 500, "red_threes": 2}},
        "HF8.5",
        "foot_points",
        0,
        1,
    ),
    (
        "HF8.5-laid-down-not-a-multiple-of-5",
        {"b": {"laid_down": 203}},
        "HF8.5",
        "laid_down",
        1,
        None,
    ),
    # HF8.6, HF3.5, HF5.4: points laid down
    (
        "HF3.5-laid-down-below-the-meld-minimum",
        {"b": {"laid_down": 85, "red_books": 0}},
        "HF3.5",
        "laid_down",
        1,
        None,
    ),
    ("HF5.4-a-book-but-nothing-laid-down", {"b": {"laid_down": 0}}, "HF5.4", "laid_down", 1, None),
    (
        "HF5.4-a-played-foot-but-nothing-laid-down",
        {"b": {"laid_down": 0, "red_books": 0}},
        "HF5.4",
        "laid_down",
        1,
        None,
    ),
    ("HF8.6-less-than-the-books-cards", {"a": {"laid_down": 165}}, "HF8.6", "laid_down", 0, None),
    (
        "HF8.6-twelve-red-books-take-six-ranks",
        {"a": {"red_books": 12, "black_books": 2, "laid_down": 575}},
        "HF8.6",
        "laid_down",
        0,
        None,
    ),
    # HF8.3: the deck's limits
    (
        "HF8.3-nine-jokers-at-the-table",
        {"bea": {"hand": "JK " * 5}, "cy": {"hand": "JK " * 4}},
        "HF8.3",
        "hand",
        None,
        None,
    ),
    (
        "HF8.3-nine-red-threes",
        {"bea": {"hand": "3H " * 5}, "cy": {"hand": "3D " * 4}},
        "HF8.3",
        "red_threes",
        None,
        None,
    ),
    (
        "HF8.3-red-threes-entered-past-the-deck",
        {"di": {"red_threes": 5}, "cy": {"hand": "3H 3H 3D 3D"}},
        "HF8.3",
        "red_threes",
        None,
        None,
    ),
    (
        "HF8.3-seventeen-aces",
        {"bea": {"hand": "AS " * 9}, "cy": {"hand": "AH " * 8}},
        "HF8.3",
        "hand",
        None,
        None,
    ),
    (
        "HF4.3-twenty-three-red-books",
        {"a": {"red_books": 12, "laid_down": 2000}, "b": {"red_books": 11, "laid_down": 0}},
        "HF4.3",
        "red_books",
        None,
        None,
    ),
    (
        "HF4.3-books-need-the-cards-in-hand",
        {"a": {"black_books": 12, "laid_down": 2000}, "bea": {"hand": "2S " * 13}},
        "HF4.3",
        "red_books",
        None,
        None,
    ),
    (
        "HF8.3-more-points-than-the-deck",
        {"a": {"laid_down": 1500}, "b": {"laid_down": 700}},
        "HF8.3",
        "laid_down",
        None,
        None,
    ),
    # HF8.7: failed melds
    (
        "HF8.7-more-failed-melds-than-draws",
        {"cy": {"failed_melds": 30}, "di": {"failed_melds": 27}},
        "HF8.7",
        "failed_melds",
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("changes", "rule", "field", "side", "member"),
    [case[1:] for case in ERRORS],
    ids=[case[0] for case in ERRORS],
)
def test_hf8_an_entry_that_breaks_a_rule_is_refused(changes, rule, field, side, member):
    evaluation = evaluate(table(**changes))
    assert not evaluation.ok and evaluation.score is None
    problem = next((p for p in evaluation.errors if p.rule == rule), None)
    assert problem is not None, [str(p) for p in evaluation.errors]
    assert (problem.field, problem.side, problem.member) == (field, side, member)
    assert problem.message.endswith(f"({rule})")


def test_the_standard_hand_has_no_problem():
    evaluation = evaluate(table())
    assert evaluation.ok and evaluation.warnings == ()


# --- warnings -----------------------------------------------------------------------------------


def test_hf8_8_no_one_out_is_a_draw_pile_end_to_confirm():
    evaluation = evaluate(table(ann={"went_out": None, "hand": "5S"}))
    assert evaluation.ok
    assert rules_of(evaluation.warnings) == ["HF8.8"]
    assert "draw-pile end" in evaluation.warnings[0].message


def test_hf8_9_a_player_not_out_with_an_empty_hand_is_doubtful():
    evaluation = evaluate(table(bea={"hand": ""}))
    assert evaluation.ok
    assert [(w.rule, w.side, w.member) for w in evaluation.warnings] == [("HF8.9", 0, 1)]


def test_hf8_9_an_empty_hand_entered_as_points_is_no_warning():
    # Zero points may be black threes: a hand held, worth nothing.
    assert evaluate(table(bea={"hand": None, "hand_points": 0})).warnings == ()


def test_hf8_10_more_than_two_failed_melds_is_doubtful():
    evaluation = evaluate(table(cy={"failed_melds": 3}))
    assert evaluation.ok and rules_of(evaluation.warnings) == ["HF8.10"]
    assert evaluate(table(cy={"failed_melds": 2})).warnings == ()


# --- what is allowed ----------------------------------------------------------------------------


def test_hf3_5_a_team_that_laid_down_nothing_is_fine():
    entry = table(b={"red_books": 0, "laid_down": 0}, cy={"foot_played": False, "foot_points": 90})
    assert evaluate(entry).ok


def test_hf8_6_the_least_two_red_and_two_black_books_can_count_is_allowed():
    # 22 naturals at 5, two twos at 20 and four more fives: 110 + 40 + 20.
    assert evaluate(table(a={"laid_down": 170})).ok
    assert rules_of(evaluate(table(a={"laid_down": 165})).errors) == ["HF8.6"]


def test_hf3_5_the_meld_minimum_is_the_hands():
    entry = table(number=3, b={"red_books": 0, "laid_down": 145})
    assert rules_of(evaluate(entry).errors) == ["HF3.5"]
    assert evaluate(table(number=3, b={"red_books": 0, "laid_down": 150})).ok


def test_hf8_2_cards_and_points_that_agree_are_fine():
    assert evaluate(table(bea={"hand": "KS 5H", "hand_points": 15})).ok


@pytest.mark.parametrize(
    ("player", "changes"),
    [
        # Eight jokers and three aces or twos: the most eleven cards count.
        pytest.param("bea", {"foot_played": False, "foot_points": 460, "red_threes": 2}, id="460"),
        # Di's hand is points too: her red threes may be in her hand, and 13 cards make 500.
        pytest.param("di", {"foot_points": 500, "red_threes": 2}, id="threes-maybe-in-hand"),
        pytest.param("di", {"foot_points": 500}, id="500-of-13-cards"),
    ],
)
def test_hf8_5_a_foot_counts_at_most_what_its_cards_can(player, changes):
    assert evaluate(table(**{player: changes})).ok


def test_hf8_5_a_foot_of_black_threes_and_red_threes_may_count_0():
    entry = table(di={"foot_points": 0, "red_threes": 5})
    assert evaluate(entry).ok


def test_hf4_3_the_deck_holds_22_red_books_at_a_table():
    # Two red books of each of the 11 ranks four to ace: 154 of their 176 naturals.
    ann = {"went_out": None, "hand": "5S"}
    entry = table(
        a={"red_books": 12, "black_books": 0, "laid_down": 1000},
        b={"red_books": 10, "laid_down": 900},
        ann=ann,
    )
    assert "HF4.3" not in rules_of(evaluate(entry).errors)
    more = table(
        a={"red_books": 12, "black_books": 1, "laid_down": 1000},
        b={"red_books": 10, "laid_down": 900},
        ann=ann,
    )
    assert "HF4.3" in rules_of(evaluate(more).errors)


def test_hf1_3_suits_do_not_count_only_kinds():
    # Five aces of spades: any suit may be written for any card but a three.
    assert evaluate(table(bea={"hand": "AS AS AS AS AS"})).ok


def test_hf8_3_the_limits_follow_the_decks_and_jokers_of_the_ruleset():
    five_decks = rules(decks=5, jokers=10).ruleset
    entry = table(bea={"hand": "JK " * 5}, cy={"hand": "JK " * 5})
    assert evaluate(entry, five_decks).ok
    assert "HF8.3" in rules_of(evaluate(entry).errors)


def test_hf5_1_the_books_to_go_out_follow_the_ruleset():
    easier = rules(red_books_to_go_out=1, black_books_to_go_out=0).ruleset
    entry = table(a={"red_books": 1, "black_books": 0, "laid_down": 300})
    assert evaluate(entry, easier).ok
    assert rules_of(evaluate(entry).errors) == ["HF5.1"]


def test_each_problem_names_the_player_it_is_about():
    evaluation = evaluate(table(cy={"hand": None}))
    assert [(p.player, p.field) for p in evaluation.errors] == [("Cy", "hand")]
    assert "Cy did not go out" in evaluation.errors[0].message
