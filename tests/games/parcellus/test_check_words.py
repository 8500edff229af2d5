"""The words of every check a Parcellus scorekeeper can meet (PA6.2 to PA6.7), in full: what is
wrong, with the numbers entered, the player, the field and the rule. A slip in a message (a
wrong number, a wrong rule) is a defect as a wrong score is. A deal is Ann's, Bo's and Cy's
(cards, parcels, the J♥ or not)."""

import pytest

from .helpers import RULES, entry

PARCELS = "the parcels captured add up to {}, not six: a deal has six parcels, one for each card of the common pile (PA6.2)"  # noqa: E501
FEWER = "{} captured {} in {} parcels: every parcel holds at least the card that started it (PA6.3)"
WORDS = [
    pytest.param(((5, 2), (4, 1), (9, 2)), ("PA6.2", "parcels", None, PARCELS.format(5)), id="5"),
    pytest.param(((0, 0), (0, 0), (0, 0)), ("PA6.2", "parcels", None, PARCELS.format(0)), id="0"),
    pytest.param(
        ((10, 2), (10, 2), (5, 2)),
        ("PA6.3", "cards", None, "25 cards captured in all, but the deck has only 24 (PA6.3)"),
        id="25-cards",
    ),
    pytest.param(
        ((1, 2), (5, 2), (5, 2)), ("PA6.3", "cards", 0, FEWER.format("Ann", "1 card", 2)), id="1"
    ),
    pytest.param(
        ((2, 3), (1, 1), (5, 2)), ("PA6.3", "cards", 0, FEWER.format("Ann", "2 cards", 3)), id="2"
    ),
    pytest.param(
        ((5, 3), (3, 0), (5, 3)),
        (
            "PA6.3",
            "cards",
            1,
            "Bo captured 3 cards but no parcel: cards are captured only in parcels (PA6.3)",
        ),
        id="no-parcel",
    ),
    pytest.param(
        ((5, 2), (5, 2), (25, 2)),
        ("PA6.1", "cards", 2, "the cards captured of Cy must be from 0 to 24, not 25 (PA6.1)"),
        id="more-than-the-deck",
    ),
    pytest.param(
        ((9, 3), (0, 0, "J♥"), (9, 3)),
        ("PA6.4", "jack_of_hearts", 1, "Bo is marked with the J♥ but captured no cards (PA6.4)"),
        id="jack-without-cards",
    ),
    pytest.param(
        ((8, 2), (8, 2), (8, 2)),
        (
            "PA6.4",
            "jack_of_hearts",
            None,
            "all 24 cards were captured, so someone captured the J♥: mark who (PA6.4)",
        ),
        id="no-jack",
    ),
    pytest.param(
        ((5, 2, "J♥"), (4, 1, "J♥"), (9, 3, "J♥")),
        (
            "PA6.4",
            "jack_of_hearts",
            None,
            "the J♥ is marked captured by Ann, Bo and Cy, but there is only one (PA6.4)",
        ),
        id="three-jacks",
    ),
]


@pytest.mark.parametrize(("rows", "expected"), WORDS)
def test_each_error_in_full(rows, expected):
    [problem] = RULES.evaluate(entry(*rows)).errors
    assert (problem.rule, problem.field, problem.side, problem.message) == expected
    side = expected[2]
    assert problem.player == (None if side is None else ("Ann", "Bo", "Cy")[side])


def test_each_warning_in_full_pa6_6_pa6_7():
    [common] = RULES.evaluate(entry((2, 2), (2, 2), (2, 2))).warnings
    assert (common.rule, common.field, common.message) == (
        "PA6.6",
        "cards",
        "only the six cards of the common pile were captured: nobody added a card all deal; "
        "check the cards captured (PA6.6)",
    )
    [every] = RULES.evaluate(entry((8, 2), (8, 2, "J♥"), (8, 2))).warnings
    assert (every.rule, every.field, every.message) == (
        "PA6.7",
        "cards",
        "all 24 cards were captured: every card of every hand was added to a parcel; check the "
        "cards captured (PA6.7)",
    )
