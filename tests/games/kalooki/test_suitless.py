"""Cards without invented suits (R11.3 to R11.5): bare ranks, aces by colour, the canonical
spelling that keeps what was known, deck limits by rank and colour, and the keypad."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import BARE, COLOURED, Colour, Rank, suitless
from games.cards import parse_cards as shared_parse
from games.kalooki import ASAJ_2025, CardParseError, format_cards, hand_points, parse_cards

from .protocol_helpers import OUT, deal, points, rules, rules_of
from .strategies import SETTINGS, cards

ASAJ = rules()

SPELLINGS = [
    ("R11.3-bare-king", "K", "K", 10),
    ("R11.3-bare-ten", "10", "10", 10),
    ("R11.3-t-for-ten", "t", "10", 10),
    ("R11.3-bare-seven", "7", "7", 7),
    ("R11.4-black-ace", "AB", "AB", 15),
    ("R11.4-red-ace", "ar", "AR", 1),
    ("R11.4-king-by-colour", "KR", "KR", 10),
]


@pytest.mark.parametrize(
    ("text", "canonical", "value"), [s[1:] for s in SPELLINGS], ids=[s[0] for s in SPELLINGS]
)
def test_r11_a_suitless_card_reads_keeps_its_spelling_and_has_its_value(text, canonical, value):
    [card] = parse_cards(text)
    assert str(card) == canonical and card.suit is None
    assert hand_points([card], ASAJ_2025) == value


def test_r11_3_the_shared_notation_reads_suitless_cards_only_when_asked():
    with pytest.raises(CardParseError):
        shared_parse("K")
    assert str(shared_parse("K", suitless=True)[0]) == "K"


def test_r11_4_a_bare_ace_has_no_value_where_the_colours_differ():
    refused = ASAJ.evaluate(deal(1, OUT, {"cards": "K A"}, {"points": 4}))
    assert [(e.rule, e.field, e.side) for e in refused.errors] == [("R11.4", "cards", 1)]
    assert "AB or AR" in refused.errors[0].message
    same_aces = rules(card_values={"black_ace": 5, "red_ace": 5})
    assert points(same_aces.evaluate(deal(1, OUT, {"cards": "K A"}, {"points": 4}))) == [0, 15, 4]


def test_r11_5_the_canonical_entry_keeps_exactly_what_was_known():
    evaluation = ASAJ.evaluate(deal(1, OUT, {"cards": "k ab 10h t"}, {"cards": "♥5 jk"}))
    assert evaluation.entry.sides[1].values["cards"] == "K AB 10H 10"
    assert evaluation.entry.sides[2].values["cards"] == "5H JK"
    assert points(evaluation) == [0, 45, 55]


def test_r11_5_deck_limits_count_suitless_cards_against_rank_and_colour():
    black_aces = deal(1, OUT, {"cards": "AS AS AC AC"}, {"cards": "AB AB"})
    assert ASAJ.evaluate(black_aces).ok
    seventh = deal(1, OUT, {"cards": "AS AS AC AC AB"}, {"cards": "AB AB"})
    refused = ASAJ.evaluate(seventh)
    assert rules_of(refused.errors) == ["R10.3"]
    assert "7 black aces (Bob 5, Cy 2), but the deck has only 6" in refused.errors[0].message
    kings = deal(1, OUT, {"cards": "K K K K K KH KH"}, {"cards": "KB KB KB KR KR KS"})
    assert "13 kings" in ASAJ.evaluate(kings).errors[0].message


def test_r11_4_colour_letters_are_no_suit_and_no_rank():
    for token in ("B", "R", "BA", "AX", "ABC"):
        with pytest.raises(CardParseError):
            parse_cards(token)


@settings(**SETTINGS)
@given(st.lists(st.sampled_from((*BARE, *COLOURED)) | cards, max_size=20))
def test_r11_5_format_then_parse_gives_back_the_same_cards_suitless_too(hand):
    assert parse_cards(format_cards(hand)) == hand


def test_suitless_cards_sort_with_their_rank():
    assert format_cards(sorted(parse_cards("KH K 2 AB JK AS"))) == "AB AS 2 K KH JK"
    assert suitless(Rank.ACE, Colour.BLACK) < suitless(Rank.TWO)


def test_the_keypad_has_one_key_per_value_class_with_the_rulesets_points():
    keys = {key.token: key.points for key in ASAJ.keypad()}
    assert list(keys) == ["JK", "AB", "AR", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
                          "3", "2"]  # fmt: skip
    assert (keys["JK"], keys["AB"], keys["AR"], keys["K"], keys["2"]) == (50, 15, 1, 10, 2)
    same_aces = rules(card_values={"black_ace": 5, "red_ace": 5, "joker": 25})
    keys = {key.token: key.points for key in same_aces.keypad()}
    assert "AB" not in keys and keys["A"] == 5 and keys["JK"] == 25
    cards_field = next(f for f in ASAJ.fields(1) if f.name == "cards")
    assert cards_field.keypad == ASAJ.keypad()
    assert cards_field.to_dict()["keypad"][1] == {"token": "AB", "label": "black A", "points": 15}


def test_every_keypad_token_reads_as_a_card_with_the_keys_points():
    for key in ASAJ.keypad():
        assert hand_points(parse_cards(key.token), ASAJ_2025) == key.points
