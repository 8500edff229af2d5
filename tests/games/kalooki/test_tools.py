"""Dispute tools through the protocol (R3 to R7): meld, contract and tack-on, each held to the
deck (R1.2) and the tournament's ruleset, each citing R11 for a bad card token."""

from __future__ import annotations

import pytest

from .protocol_helpers import rules, rules_of

ASAJ = rules()
CLUB = rules(preset="club-four")


# R1.2 in every check


DECK_LIMITS = [
    ("R1.2-meld-fourth-copy", "meld", {"cards": "5H 5H 5H 5H"}, ASAJ),
    ("R1.2-meld-third-copy-two-packs", "meld", {"cards": "5H 5H 5H"}, CLUB),
    ("R1.2-meld-seventh-joker", "meld", {"cards": "KS KH JK JK JK JK JK JK JK"}, ASAJ),
    ("R1.2-meld-fifth-joker-club", "meld", {"cards": "KS KH JK JK JK JK JK"}, CLUB),
    ("R1.2-meld-thirteenth-king", "meld", {"cards": "K K K K K K K K K K K K K"}, ASAJ),
    ("R1.2-meld-seventh-black-ace", "meld", {"cards": "AS AS AC AC AB AB AB"}, ASAJ),
    (
        "R1.2-contract-across-groups",
        "contract",
        {"game": 1, "groups": ["5H 5H 5C", "5H 5H 5D", "KS KH KD"]},
        ASAJ,
    ),
    ("R1.2-tack-on-fourth-copy", "tack-on", {"card": "5H", "meld": "5H 5H 5H"}, ASAJ),
]


@pytest.mark.parametrize(
    ("tool", "request_data", "rules_"),
    [d[1:] for d in DECK_LIMITS],
    ids=[d[0] for d in DECK_LIMITS],
)
def test_r1_2_every_check_enforces_the_decks_limits(tool, request_data, rules_):
    answer = rules_.check(tool, request_data)
    assert answer.valid is False
    assert "R1.2" in rules_of(answer.errors)
    assert "but the deck has only" in next(e.message for e in answer.errors if e.rule == "R1.2")


def test_r1_2_a_limit_the_deck_allows_is_accepted():
    assert ASAJ.check("meld", {"cards": "5H 5H 5H 5C"}).valid
    assert ASAJ.check("meld", {"cards": "K K K K K K K K K K K K"}).valid


# R11: a bad card token cites R11 in every check


BAD_TOKENS = [
    ("meld", {"cards": "5H ZZ 7H"}, "cards"),
    ("contract", {"game": 1, "groups": ["5H 5C 5D", "KS ZZ KD", "2S 2C 2D"]}, "groups.1"),
    ("tack-on", {"card": "ZZ", "meld": "5H 5C 5D"}, "card"),
    ("tack-on", {"card": "5S", "meld": "5H ZZ 5D"}, "meld"),
]


@pytest.mark.parametrize(("tool", "request_data", "field"), BAD_TOKENS)
def test_r11_a_bad_card_token_cites_r11_in_every_check(tool, request_data, field):
    answer = ASAJ.check(tool, request_data)
    assert not answer.valid
    assert [(e.rule, e.field) for e in answer.errors] == [("R11", field)]
    assert '"ZZ"' in answer.errors[0].message


def test_r11_a_bad_card_token_in_an_entry_cites_r11_too():
    from .protocol_helpers import OUT, deal

    refused = ASAJ.evaluate(deal(1, OUT, {"cards": "7H 8X"}, {"points": 5}))
    assert [(e.rule, e.field, e.side) for e in refused.errors] == [("R11", "cards", 1)]
    assert 'card 2, "8X"' in refused.errors[0].message


# A four as laid, and a joker beyond an ace (R3.4)


def test_r3_4_a_four_is_checked_in_the_order_laid_by_default():
    assert ASAJ.check("meld", {"cards": "5H JK 7H 8H"}).to_dict()["arrangement"][1] == "JK"
    laid_out_of_order = {"cards": "8H 5H 7H JK", "kind": "four"}
    assert ASAJ.check("meld", laid_out_of_order).valid is False
    assert ASAJ.check("meld", {**laid_out_of_order, "as_laid": False}).valid is True


@pytest.mark.parametrize("cards", ["QH KH AH JK", "JK AH 2H 3H", "JH QH KH AH JK"])
def test_r3_4_a_joker_beyond_an_ace_is_refused_saying_so(cards):
    answer = ASAJ.check("meld", {"cards": cards, "kind": "four"})
    assert not answer.valid
    assert any("joker cannot stand beyond an ace" in e.message for e in answer.errors)


def test_r3_4_a_joker_tacked_on_beyond_the_high_ace_is_refused_saying_so():
    answer = ASAJ.check("tack-on", {"card": "JK", "meld": "JH QH KH AH", "end": "high"})
    assert rules_of(answer.errors) == ["R3.4"]
    assert "joker cannot stand beyond an ace" in answer.errors[0].message


# Tacking on (R7.1, R7.2) and the joker move (R7.3)


def test_r7_1_a_card_continues_a_four_at_the_end_asked():
    request = {"card": "8H", "meld": "4H 5H 6H 7H", "kind": "four", "end": "high"}
    answer = ASAJ.check("tack-on", request).to_dict()
    assert answer["valid"] and answer["meld_after"][-1] == "8H" and answer["end"] == "high"
    assert not ASAJ.check("tack-on", {**request, "end": "low"}).valid


def test_r7_1_a_three_run_is_no_meld_to_tack_onto():
    answer = ASAJ.check("tack-on", {"card": "7H", "meld": "4H 5H 6H", "kind": "four"})
    assert not answer.valid and "R3.3" in rules_of(answer.errors)


def test_r7_1_only_a_player_who_came_down_tacks_on():
    answer = ASAJ.check("tack-on", {"card": "5S", "meld": "5H 5C 5D", "has_come_down": False})
    assert rules_of(answer.errors) == ["R7.1"]


def test_r7_1_a_bare_rank_goes_onto_a_three_but_not_onto_a_four():
    assert ASAJ.check("tack-on", {"card": "5", "meld": "5H 5C 5D"}).valid
    assert not ASAJ.check("tack-on", {"card": "8", "meld": "4H 5H 6H 7H"}).valid


def test_r7_3_the_joker_move_is_refused_when_the_high_end_is_an_ace():
    move = {"card": "QH", "meld": "10H JH JK KH AH", "replaces_joker": True}
    answer = ASAJ.check("tack-on", move)
    assert rules_of(answer.errors) == ["R7.3"] and "dead" in answer.errors[0].message


def test_r3_6_a_joker_in_a_three_never_moves():
    move = {"card": "5S", "meld": "5H 5C JK", "replaces_joker": True}
    assert rules_of(ASAJ.check("tack-on", move).errors) == ["R3.6"]


# Requests from anyone


HOSTILE = [
    ("meld", None),
    ("meld", []),
    ("meld", {"cards": 5}),
    ("meld", {"cards": "5H " * 500}),
    ("meld", {"cards": "5H 5C 5D", "kind": "run"}),
    ("meld", {"cards": "5H 5C 5D", "as_laid": "yes"}),
    ("contract", {"game": "3", "groups": ["5H 5C 5D"]}),
    ("contract", {"game": 99, "groups": ["5H 5C 5D"]}),
    ("contract", {"game": 1, "groups": "5H 5C 5D"}),
    ("contract", {"game": 1, "groups": [5]}),
    ("contract", {"game": 1, "groups": ["5H"] * 13}),
    ("tack-on", {"card": "5H 6H", "meld": "5C 5D 5S"}),
    ("tack-on", {"card": "5H", "meld": "5C 5D 5S", "end": "middle"}),
    ("tack-on", {"card": "5H", "meld": "5C 5D 5S", "replaces_joker": 1}),
    ("tack-on", {"card": "5H", "meld": "5C 5D 5S", "extra": True}),
]


@pytest.mark.parametrize(("tool", "request_data"), HOSTILE)
def test_a_bad_request_is_an_answer_never_an_exception(tool, request_data):
    answer = ASAJ.check(tool, request_data).to_dict()
    assert answer["valid"] is False and answer["errors"]


def test_the_ruleset_key_of_a_request_is_the_callers_and_ignored():
    assert ASAJ.check("meld", {"cards": "5H 5C 5D", "ruleset": "asaj-2025"}).valid
