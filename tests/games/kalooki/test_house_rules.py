"""House rules (R13): each switch changes how a game scores or checks, and a ruleset that cannot be
played is refused setting by setting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import RulesetInvalid
from games.kalooki import ASAJ_2025, CLUB_FOUR, GAME
from games.kalooki.cards import JOKER, NATURALS
from games.kalooki.checks import least_hand_points

from .protocol_helpers import OUT, deal, points, rules, rules_of

ASAJ = rules()


# R13.1 players per table


def test_r13_1_the_table_size_sets_the_plan():
    assert ASAJ.table_plan(20).sizes == (5, 5, 5, 5)
    assert rules(table_size=4, max_table_size=5).table_plan(20).sizes == (4, 4, 4, 4, 4)
    assert ASAJ.table_plan(20).byes == 0


def test_r13_1_the_club_preset_seats_four_and_refuses_six_hands():
    club = rules(preset="club-four")
    assert club.shape().sides == 4
    six = deal(1, OUT, *[{"points": 5}] * 5)
    assert "R1.1" in rules_of(club.evaluate(six).errors)
    assert ASAJ.evaluate(six).ok


# R13.2 packs and jokers


def test_r13_2_a_third_copy_of_a_card_is_refused_with_two_packs():
    entry = deal(1, OUT, {"cards": "QS QS"}, {"cards": "QS 2H"}, {"cards": "5D"})
    assert ASAJ.evaluate(entry).ok
    refused = rules(preset="club-four").evaluate(entry)
    assert rules_of(refused.errors) == ["R10.3"]
    assert "3 copies of QS (Bob 2, Cy 1), but the deck has only 2" in refused.errors[0].message


def test_r13_2_a_fifth_joker_is_refused_with_four_jokers():
    entry = deal(1, OUT, {"cards": "JK JK JK"}, {"cards": "JK JK 2H"}, {"cards": "5D"})
    assert ASAJ.evaluate(entry).ok
    assert rules_of(rules(jokers=4).evaluate(entry).errors) == ["R10.3"]


def test_r13_2_max_copies_follows_packs_unless_set():
    assert GAME.ruleset({"packs": 2}).max_copies == 2
    assert GAME.ruleset({"packs": 4, "max_copies": 3}).max_copies == 3


# R13.3 card values


def test_r13_3_card_values_change_the_score():
    entry = deal(1, OUT, {"cards": "JK AS"}, {"cards": "KD"})
    assert points(ASAJ.evaluate(entry)) == [0, 65, 10]
    cheap = rules(card_values={"joker": 25, "king": 5})
    assert points(cheap.evaluate(entry)) == [0, 40, 5]


# R13.4 the schedule


SEVEN_GAMES = [
    {"number": n, "dealt": dealt, "contract": contract}
    for n, (dealt, contract) in enumerate(
        [
            (9, "333"),
            (10, "334"),
            (11, "344"),
            (12, "444"),
            (12, "3333"),
            (13, "3334"),
            (14, "3344"),
        ],
        start=1,
    )
]


def test_r13_4_a_seven_game_set_ends_after_game_seven():
    seven = rules(games=SEVEN_GAMES)
    assert seven.schedule().deals == 7 and seven.schedule().words == "a set of seven games"
    played = [seven.evaluate(deal(n, OUT, {"points": 5}, {"points": 6})).score for n in range(1, 8)]
    assert seven.next_deal(played[:6]) == 7
    assert seven.next_deal(played) is None and seven.match_over(played)
    assert ASAJ.next_deal(played) == 8


def test_r13_4_the_deal_spec_follows_the_schedule():
    game_3 = rules(games=[*SEVEN_GAMES[:2], {"number": 3, "dealt": 13, "contract": "344"}]).deal(3)
    assert (game_3.title, game_3.summary) == ("Game 3", "13 cards: one three and two fours")
    assert game_3.facts == {"dealt": 13, "contract": "344"} and game_3.dealer_step == 2


# R13.5 naturals in a three


def test_r13_5_one_natural_makes_a_three_when_the_ruleset_says_so():
    request = {"cards": "9H JK JK", "kind": "three"}
    assert ASAJ.check("meld", request).valid is False
    assert rules(min_naturals_in_three=1).check("meld", request).valid is True


NATURAL_THREES = rules(preset="club-four", min_naturals_in_three=3)


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        pytest.param("KS KH KD", True, id="R13.5-three-naturals"),
        pytest.param("KS KH KD KC", True, id="R13.5-four-naturals"),
        pytest.param("KS KH KD JK", False, id="R13.5-three-naturals-and-a-joker"),
        pytest.param("KS KH JK", False, id="R13.5-two-naturals-and-a-joker"),
    ],
)
def test_r13_5_three_naturals_means_no_joker_in_a_three(cards, valid):
    answer = NATURAL_THREES.check("meld", {"cards": cards, "kind": "three"})
    assert answer.valid is valid
    if not valid:
        assert rules_of(answer.errors) == ["R13.5"]
        assert "no joker" in answer.errors[0].message


def test_r13_5_three_naturals_means_no_joker_tacked_onto_a_three():
    tack = {"card": "JK", "meld": "KS KH KD", "kind": "three", "has_come_down": True}
    assert ASAJ.check("tack-on", tack).valid is True  # R7.2
    refused = NATURAL_THREES.check("tack-on", tack)
    assert refused.valid is False and rules_of(refused.errors) == ["R13.5"]


def test_r13_5_the_words_say_what_three_naturals_means():
    assert "no joker in a three" in " ".join(NATURAL_THREES.describe())
    assert "at least 2 natural cards" in " ".join(ASAJ.describe())


# R13.6 joker exchange


def test_r13_6_without_exchange_the_joker_moves_to_the_high_end():
    move = {"card": "6H", "meld": "4H 5H JK 7H", "replaces_joker": True, "own_meld": True}
    answer = ASAJ.check("tack-on", move).to_dict()
    assert answer["valid"] and answer["meld_after"] == ["4H", "5H", "6H", "7H", "JK"]
    assert answer["to_hand"] is False


def test_r13_6_with_exchange_the_joker_from_ones_own_four_goes_to_the_hand():
    move = {"card": "6H", "meld": "4H 5H JK 7H", "replaces_joker": True, "own_meld": True}
    answer = rules(joker_exchange=True).check("tack-on", move).to_dict()
    assert answer["valid"] and answer["to_hand"] is True
    assert answer["meld_after"] == ["4H", "5H", "6H", "7H"] and answer["joker_to"] is None


def test_r13_6_with_exchange_the_joker_in_anothers_four_may_go_to_the_low_end():
    move = {"card": "6H", "meld": "4H 5H JK 7H", "replaces_joker": True, "end": "low"}
    refused = ASAJ.check("tack-on", move)
    assert rules_of(refused.errors) == ["R7.3"] and "R13.6" in refused.errors[0].message
    answer = rules(joker_exchange=True).check("tack-on", move).to_dict()
    assert answer["valid"] and answer["meld_after"] == ["JK", "4H", "5H", "6H", "7H"]
    assert (answer["joker_to"], answer["joker_from"]) == (0, 3)


def test_r13_6_a_joker_cannot_be_exchanged_beyond_an_ace():
    move = {"card": "2H", "meld": "AH JK 3H 4H", "replaces_joker": True, "end": "low"}
    answer = rules(joker_exchange=True).check("tack-on", move)
    assert not answer.valid and "already an ace" in answer.errors[0].message


# R13.7 calls


def test_r13_7_the_call_limit_moves_the_overcall():
    four_calls = deal(1, OUT, {"cards": "5H", "calls": 4}, {"points": 5})
    assert rules_of(ASAJ.evaluate(four_calls).warnings) == ["R10.7"]
    assert rules(call_limit=4).evaluate(four_calls).warnings == ()
    overcalled = deal(1, OUT, {"points": 9, "calls": 4, "overcall_penalty": True}, {"points": 5})
    assert points(ASAJ.evaluate(overcalled)) == [0, 59, 5]
    assert rules_of(rules(call_limit=4).evaluate(overcalled).errors) == ["R10.5"]


def test_r13_7_assumed_calls_follow_the_call_limit():
    assert GAME.ruleset({"call_limit": 1}).assumed_calls_when_unknown == 1
    # 11 cards (9 dealt + 2 × 1 call) are worth at most 300 + 90 + 15 = ... so 400 is too many
    entry = deal(1, OUT, {"points": 400}, {"points": 5})
    assert ASAJ.evaluate(entry).ok
    assert rules_of(rules(call_limit=1).evaluate(entry).errors) == ["R10.4"]


def test_r13_7_calls_after_coming_down_are_described_and_change_no_check():
    after = rules(calls_after_coming_down=True)
    assert "also after coming down" in " ".join(after.describe())
    assert "also after coming down" in after.fields(1)[5].help
    entry = deal(3, OUT, {"cards": "5H 6H 7H", "calls": 2}, {"cards": "KD", "calls": 0})
    assert ASAJ.evaluate(entry) == after.evaluate(entry)  # R13.7 Interpretation


# R13.8 penalties and doubling


def test_r13_8_penalty_amounts_change_the_score():
    entry = deal(1, OUT, {"points": 5, "failed_come_downs": 2}, {"points": 7})
    assert points(ASAJ.evaluate(entry)) == [0, 105, 7]
    assert points(rules(failed_come_down_penalty=25).evaluate(entry)) == [0, 55, 7]
    overcall = deal(1, OUT, {"points": 5, "calls": 4, "overcall_penalty": True}, {"points": 7})
    assert points(rules(overcall_penalty=100).evaluate(overcall)) == [0, 105, 7]


def test_r13_8_down_and_out_may_double_nothing():
    entry = deal(
        1, OUT, {"cards": "KD 5H"}, {"points": 7, "failed_come_downs": 1}, down_and_out=True
    )
    assert points(ASAJ.evaluate(entry)) == [0, 30, 64]
    plain = rules(double_on_down_and_out=False).evaluate(entry)
    assert points(plain) == [0, 15, 57]
    assert any("R13.8" in reason for reason in plain.score.sides[1].reasons)


def test_r13_8_penalties_may_double_too():
    entry = deal(1, OUT, {"points": 7, "failed_come_downs": 1}, {"points": 1}, down_and_out=True)
    assert points(ASAJ.evaluate(entry)) == [0, 64, 2]
    assert points(rules(double_penalties_on_down_and_out=True).evaluate(entry)) == [0, 114, 2]


# R13.9 the 18-card challenge

CHALLENGE = rules(card_challenge=True)
NINETEEN = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S 3S 4S 5S 6S 7S 8S"  # 19 cards, 119 points


def test_r13_9_the_challenged_player_who_held_more_scores_cards_plus_50():
    entry = deal(9, OUT, {"cards": NINETEEN, "calls": 3, "challenge": "challenged"}, {"points": 9})
    result = CHALLENGE.evaluate(entry)
    assert points(result) == [0, 119 + 50, 9]
    assert any("R13.9" in reason for reason in result.score.sides[1].reasons)


def test_r13_9_a_wrong_challenger_scores_their_cards_plus_50():
    entry = deal(9, OUT, {"cards": "KD 5H", "challenge": "challenger"}, {"points": 9})
    assert points(CHALLENGE.evaluate(entry)) == [0, 15 + 50, 9]


def test_r13_9_a_challenge_loser_is_not_doubled_by_down_and_out():
    entry = deal(
        9, OUT, {"cards": "KD 5H", "challenge": "challenger"}, {"points": 9}, down_and_out=True
    )
    assert points(CHALLENGE.evaluate(entry)) == [0, 65, 18]


def test_r13_9_a_challenged_loser_with_18_cards_or_fewer_is_refused():
    entry = deal(9, OUT, {"cards": "KD 5H", "challenge": "challenged"}, {"points": 9})
    refused = CHALLENGE.evaluate(entry)
    assert rules_of(refused.errors) == ["R13.9"]
    assert (refused.errors[0].side, refused.errors[0].field) == (1, "challenge")


CLUB_DECK_19_CHEAPEST = 4 * 1 + 8 * 2 + 7 * 3  # four red aces, eight twos, seven threes: 41


@pytest.mark.parametrize(
    ("entered", "refused"),
    [
        pytest.param(30, True, id="R13.9-30-points-for-19-cards"),
        pytest.param(CLUB_DECK_19_CHEAPEST - 1, True, id="R13.9-one-short-of-the-least"),
        pytest.param(CLUB_DECK_19_CHEAPEST, False, id="R13.9-the-least-19-cards-count"),
    ],
)
def test_r13_9_a_challenged_loser_entered_as_points_held_more_than_18_cards(entered, refused):
    club = rules(preset="club-four")
    entry = deal(9, OUT, {"points": entered, "challenge": "challenged"}, {"points": 9})
    errors = club.evaluate(entry).errors
    assert rules_of(errors) == (["R13.9"] if refused else [])
    if refused:
        assert (errors[0].side, errors[0].field) == (1, "points")
        assert f"19 cards count at least {CLUB_DECK_19_CHEAPEST}" in errors[0].message


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 40))
def test_r13_9_no_cards_of_the_deck_count_less_than_the_least(random, count):
    deck = [*NATURALS * CLUB_FOUR.packs, *[JOKER] * CLUB_FOUR.jokers]
    held = random.sample(deck, count)
    assert sum(CLUB_FOUR.card_values.table[card] for card in held) >= least_hand_points(
        count, CLUB_FOUR
    )


def test_r13_9_a_challenger_who_lost_may_hold_a_few_cheap_cards():
    entry = deal(9, OUT, {"points": 1, "challenge": "challenger"}, {"points": 9})
    assert rules(preset="club-four").evaluate(entry).ok


def test_r13_9_the_player_who_went_out_did_not_lose_a_challenge():
    entry = deal(9, {**OUT, "challenge": "challenger"}, {"points": 9}, {"points": 4})
    assert rules_of(CHALLENGE.evaluate(entry).errors) == ["R13.9"]


def test_r13_9_without_the_house_rule_there_is_no_challenge_field():
    entry = deal(9, OUT, {"cards": "KD 5H", "challenge": "challenger"}, {"points": 9})
    refused = ASAJ.evaluate(entry)
    assert [(p.rule, p.field) for p in refused.errors] == [("R10", "challenge")]
    assert "challenge" not in {f.name for f in ASAJ.fields(9)}
    assert "challenge" in {f.name for f in CHALLENGE.fields(9)}


def test_r13_9_a_losers_cards_count_against_the_deck_on_their_own():
    # Three QS in the loser's hand went under the discard pile and one came back (R9.1).
    entry = deal(9, OUT, {"cards": "QS QS QS", "challenge": "challenger"}, {"cards": "QS"})
    assert CHALLENGE.evaluate(entry).ok


def test_r13_9_limit_and_penalty_are_settings():
    tight = rules(card_challenge=True, challenge_limit=2, challenge_penalty=20)
    entry = deal(9, OUT, {"cards": "KD 5H 5C", "challenge": "challenged"}, {"points": 9})
    assert points(tight.evaluate(entry)) == [0, 20 + 20, 9]


# R12.3 tie-breaks are a setting too


def test_r12_3_the_tie_break_chain_orders_level_players():
    from games.base import StandingLine

    lines = [
        StandingLine("a", ({"total": 100, "games_won": 1, "down_and_outs": 0},)),
        StandingLine("b", ({"total": 100, "games_won": 0, "down_and_outs": 2},)),
    ]
    assert [p.key for p in ASAJ.rank(lines)] == ["a", "b"]
    assert [p.key for p in rules(tie_breaks=["down_and_outs"]).rank(lines)] == ["b", "a"]
    shared = rules(tie_breaks=[]).rank(lines)
    assert [p.place for p in shared] == [1, 1] and shared[0].shared


# Rulesets that cannot be played, refused setting by setting (R13).


REFUSED = [
    ("contract-needs-more-cards", {"games": [{"number": 1, "dealt": 8, "contract": "333"}]},
     "games", "R13.4"),
    ("games-out-of-order", {"games": [{"number": 2, "dealt": 9, "contract": "333"}]}, "games",
     "R4"),
    ("no-games", {"games": []}, "games", "R13.4"),
    ("bad-contract-digit", {"games": [{"number": 1, "dealt": 9, "contract": "335"}]}, "games",
     "R13.4"),
    ("table-of-2", {"table_size": 2}, "table_size", "R13.1"),
    ("least-above-usual", {"min_table_size": 6}, "min_table_size", "R1.1"),
    ("most-below-usual", {"max_table_size": 4}, "max_table_size", "R1.1"),
    ("negative-card-value", {"card_values": {"king": -1}}, "card_values.king", "R13.3"),
    ("unknown-card", {"card_values": {"emperor": 5}}, "card_values", "R13.3"),
    ("text-for-a-number", {"call_limit": "3"}, "call_limit", "R13.7"),
    ("bool-for-a-number", {"packs": True}, "packs", "R13.2"),
    ("number-for-a-switch", {"joker_exchange": 1}, "joker_exchange", "R13.6"),
    ("huge-penalty", {"overcall_penalty": 10**12}, "overcall_penalty", "R13.8"),
    ("deck-too-small", {"packs": 1, "jokers": 0}, "packs", "R13.4"),
    ("copies-above-packs", {"max_copies": 4}, "max_copies", "R1.2"),
    ("unknown-tie-break", {"tie_breaks": ["coin_toss"]}, "tie_breaks", "R12.3"),
    ("unknown-setting", {"jokers_are_wild": True}, "jokers_are_wild", "R13"),
    ("unknown-preset", {"preset": "poker"}, "preset", "R13.10"),
    ("challenge-limit-zero", {"challenge_limit": 0}, "challenge_limit", "R13.9"),
    ("naturals-zero", {"min_naturals_in_three": 0}, "min_naturals_in_three", "R13.5"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("request_data", "field", "rule"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_r13_a_ruleset_that_cannot_be_played_is_refused_naming_the_setting(
    request_data, field, rule
):
    with pytest.raises(RulesetInvalid) as refused:
        GAME.ruleset(request_data)
    found = {(problem.field, problem.rule) for problem in refused.value.problems}
    assert (field, rule) in found
    assert all(problem.rule in problem.message for problem in refused.value.problems)


def test_r13_every_bad_setting_is_named_at_once():
    with pytest.raises(RulesetInvalid) as refused:
        GAME.ruleset({"table_size": 2, "card_values": {"joker": -5, "two": "x"}, "packs": 9})
    fields = {problem.field for problem in refused.value.problems}
    assert fields == {"table_size", "card_values.joker", "card_values.two", "packs"}


def test_r13_stored_data_that_cannot_be_played_is_refused_too():
    stored = GAME.dump(ASAJ_2025) | {"table_size": 2, "colour_of_the_table": "green"}
    with pytest.raises(RulesetInvalid) as refused:
        GAME.load(stored)
    assert {p.field for p in refused.value.problems} == {"colour_of_the_table"}


def test_r13_stored_data_without_a_newer_setting_takes_its_default():
    stored = GAME.dump(ASAJ_2025)
    for newer in ("joker_exchange", "card_challenge", "preset", "double_on_down_and_out"):
        del stored[newer]
    assert GAME.load(stored) == ASAJ_2025


# R13.10 presets


def test_r13_10_the_asaj_preset_is_the_default_and_today_s_rules():
    assert GAME.ruleset() is ASAJ_2025 or GAME.ruleset() == ASAJ_2025
    assert GAME.changes(ASAJ_2025) == {"preset": "asaj-2025"}


def test_r13_10_the_club_preset_is_four_at_a_table_with_two_packs_and_four_jokers():
    club = GAME.ruleset({"preset": "club-four"})
    assert club == CLUB_FOUR
    assert (club.table_size, club.packs, club.jokers, club.max_copies) == (4, 2, 4, 2)
    assert club.card_challenge is True
    assert GAME.changes(club) == {"preset": "club-four"}


def test_r13_10_changes_name_only_what_differs_from_the_preset():
    house = GAME.ruleset({"preset": "club-four", "card_values": {"joker": 25}, "call_limit": 2})
    assert GAME.changes(house) == {
        "preset": "club-four",
        "card_values": {"joker": 25},
        "call_limit": 2,
        "assumed_calls_when_unknown": 2,
    }
    assert GAME.ruleset(GAME.changes(house)) == house


def test_r13_the_ruleset_in_words_says_every_house_rule():
    words = " ".join(rules(preset="club-four", joker_exchange=True).describe())
    for phrase in (
        "4 players at a table",
        "2 packs and 4 jokers",
        "Joker exchange",
        "18-card challenge is played",
        "doubles the other players' card points",
    ):
        assert phrase in words  # fmt: skip
    assert "No 18-card challenge" in " ".join(ASAJ.describe())
