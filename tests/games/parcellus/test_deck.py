"""The deck (PA1) and what may follow what in a parcel (PA3.2), with the director's parcel check."""

import pytest

from games.base import RulesError
from games.cards import parse_card
from games.parcellus.deck import DECK, JACK_OF_HEARTS, colour, follows

from .helpers import RULES, rules


def test_pa1_2_the_deck_is_9_to_ace_of_each_suit_each_card_once():
    assert len(DECK) == len(set(DECK)) == 24
    assert " ".join(str(card) for card in DECK[:6]) == "9C 10C JC QC KC AC"
    assert JACK_OF_HEARTS in DECK and str(JACK_OF_HEARTS) == "JH"


def test_pa1_3_hearts_and_diamonds_are_red_clubs_and_spades_black():
    assert [colour(parse_card(text)) for text in ("9H", "AD", "JC", "KS")] == [
        "red",
        "red",
        "black",
        "black",
    ]


@pytest.mark.parametrize(
    ("top", "card", "ok"),
    [
        pytest.param("JS", "QC", True, id="PA3.2-next-higher-other-suit-same-colour"),
        pytest.param("JS", "QS", True, id="PA3.2-next-higher-same-suit"),
        pytest.param("9H", "10D", True, id="PA3.2-nine-then-ten"),
        pytest.param("KD", "AH", True, id="PA3.2-king-then-ace"),
        pytest.param("AS", "9C", True, id="PA3.2-an-ace-may-be-followed-by-a-nine"),
        pytest.param("JS", "QH", False, id="PA3.2-not-the-other-colour"),
        pytest.param("JS", "KS", False, id="PA3.2-not-two-higher"),
        pytest.param("QS", "JS", False, id="PA3.2-not-lower"),
        pytest.param("JS", "JC", False, id="PA3.2-not-the-same-rank"),
        pytest.param("AS", "10C", False, id="PA3.2-an-ace-is-followed-only-by-a-nine"),
        pytest.param("8S", "9S", False, id="PA1.2-an-eight-is-not-in-the-deck"),
    ],
)
def test_pa3_2_a_card_follows_the_next_higher_of_the_same_colour(top, card, ok):
    assert follows(parse_card(card), parse_card(top)) is ok


def parcel(text):
    return RULES.check("parcel", {"cards": text})


def test_pa3_2_the_published_example_is_a_parcel_of_six_points():
    answer = parcel("J♠ Q♣ K♣ A♠ 9♣ 10♣")
    assert answer.valid and not answer.errors
    assert answer.detail == {"cards": "JS QC KC AS 9C 10C", "colour": "black", "points": 6}


def test_pa4_1_the_parcel_check_counts_the_jack_of_hearts_at_its_value():
    assert parcel("10d jh").detail["points"] == 4
    assert rules(jack_of_hearts=5).check("parcel", {"cards": "10D JH"}).detail["points"] == 6


@pytest.mark.parametrize(
    ("text", "rule", "says"),
    [
        pytest.param(
            "JS QH",
            "PA3.2",
            "card 2, Q♥, cannot follow J♠: only Q♣ or Q♠ can",
            id="PA3.2-wrong-colour",
        ),
        pytest.param("9H 10H QH", "PA3.2", "card 3, Q♥, cannot follow 10♥", id="PA3.2-a-gap"),
        pytest.param("9H 5H", "PA1.2", "5♥ is not a Parcellus card", id="PA1.2-a-five"),
        pytest.param("JK", "PA1.2", "JK is not a Parcellus card", id="PA1.2-a-joker"),
        pytest.param("9H 10D JH QD KH AD 9H", "PA1.2", "9♥ is twice", id="PA1.2-a-card-twice"),
        pytest.param("9H XY", "PA8.1", 'card 2, "XY", is not a card', id="PA8.1-unreadable"),
        pytest.param("", "PA3.1", "at least the card that started it", id="PA3.1-empty"),
    ],
)
def test_the_parcel_check_says_what_is_wrong_with_its_rule(text, rule, says):
    answer = parcel(text)
    assert not answer.valid and answer.errors[0].rule == rule
    assert says in answer.errors[0].message


@pytest.mark.parametrize("request_", [{}, {"cards": 7}, {"cards": ["9H"]}, "9H"])
def test_pa8_1_the_parcel_check_asks_for_card_text(request_):
    answer = RULES.check("parcel", request_)
    assert not answer.valid and answer.errors[0].rule == "PA8.1"


def test_the_parcel_check_is_the_only_dispute_tool():
    assert [tool.name for tool in RULES.tools()] == ["parcel"]
    with pytest.raises(RulesError):
        RULES.check("meld", {"cards": "9H"})
    assert RULES.check("parcel", {"cards": "9H 10D"}).to_dict()["valid"] is True
