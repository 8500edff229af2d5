"""The checks a deal's entry must pass once its values are read (PA6.2 to PA6.7).

**Errors** are what cannot happen in a deal played by the rules: parcels that do not add up to
six (PA6.2); more cards captured than the deck holds, a player with fewer cards than parcels, with
cards but no parcel, or with more than a parcel's 12 cards a parcel (PA6.3); the J♥ captured twice,
by a player with no cards, or by nobody when every card was captured (PA6.4). **Warnings** are
what can happen but rarely does, so that a slip of the pen is confirmed (PA6.6, PA6.7).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Problem, and_list, gettext_noop

from .deck import COLOUR_SIZE, DECK_SIZE, HAND, PARCELS
from .entries import CARDS, JACK, PARCELS_FIELD, Capture


def errors(captures: Sequence[Capture], labels: Sequence[str]) -> list[Problem]:
    """Every rule the captures break, each naming its field and, where it has one, its player."""
    problems = _parcel_count(captures) + _card_count(captures)
    for side, (capture, label) in enumerate(zip(captures, labels, strict=True)):
        problems += _player_cards(capture, side, label)
    return problems + _jack(captures, labels)


def warnings(captures: Sequence[Capture]) -> list[Problem]:
    """What is possible but doubtful: confirmed by the scorekeeper, flagged for the director."""
    total = sum(capture.cards for capture in captures)
    if total == HAND:
        text = gettext_noop(
            "only the six cards of the common pile were captured: nobody added a card all "
            "deal; check the cards captured"
        )
        return [Problem("PA6.6", text, field=CARDS)]
    if total == DECK_SIZE:
        text = gettext_noop(
            "all 24 cards were captured: every card of every hand was added to a parcel; "
            "check the cards captured"
        )
        return [Problem("PA6.7", text, field=CARDS)]
    return []


def _parcel_count(captures: Sequence[Capture]) -> list[Problem]:
    parcels = sum(capture.parcels for capture in captures)
    if parcels == PARCELS:
        return []
    text = gettext_noop(
        "the parcels captured add up to {parcels}, not six: a deal has six parcels, "
        "one for each card of the common pile",
        parcels=parcels,
    )
    return [Problem("PA6.2", text, field=PARCELS_FIELD)]


def _card_count(captures: Sequence[Capture]) -> list[Problem]:
    cards = sum(capture.cards for capture in captures)
    if cards <= DECK_SIZE:
        return []
    text = gettext_noop("{cards} cards captured in all, but the deck has only 24", cards=cards)
    return [Problem("PA6.3", text, field=CARDS)]


def _player_cards(capture: Capture, side: int, label: str) -> list[Problem]:
    cards, parcels = capture.cards, capture.parcels
    if parcels == 0 and cards > 0:
        text = gettext_noop(
            "{label} captured {cards} cards but no parcel: cards are captured only in parcels",
            label=label,
            cards=cards,
        )
    elif cards < parcels:
        text = gettext_noop(
            "{label} captured {cards} in {parcels} parcels: every parcel holds at least "
            "the card that started it",
            label=label,
            cards=_cards(cards),
            parcels=parcels,
        )
    elif cards > COLOUR_SIZE * parcels:
        text = gettext_noop(
            "{label} captured {cards} cards in {parcels}: a parcel is of one colour, so it "
            "holds at most {colour_size} cards",
            label=label,
            cards=cards,
            parcels=_parcels(parcels),
            colour_size=COLOUR_SIZE,
        )
    else:
        return []
    return [Problem("PA6.3", text, player=label, field=CARDS, side=side)]


def _jack(captures: Sequence[Capture], labels: Sequence[str]) -> list[Problem]:
    holders = [side for side, capture in enumerate(captures) if capture.jack_of_hearts]
    if len(holders) > 1:
        names = and_list(labels[side] for side in holders)
        text = gettext_noop(
            "the J♥ is marked captured by {names}, but there is only one", names=names
        )
        return [Problem("PA6.4", text, field=JACK)]
    if holders and captures[holders[0]].cards == 0:
        label = labels[holders[0]]
        text = gettext_noop("{label} is marked with the J♥ but captured no cards", label=label)
        return [Problem("PA6.4", text, player=label, field=JACK, side=holders[0])]
    if not holders and sum(capture.cards for capture in captures) == DECK_SIZE:
        text = gettext_noop("all 24 cards were captured, so someone captured the J♥: mark who")
        return [Problem("PA6.4", text, field=JACK)]
    return []


def _cards(count: int) -> str:
    return gettext_noop("1 card") if count == 1 else gettext_noop("{count} cards", count=count)


def _parcels(count: int) -> str:
    if count == 1:
        return gettext_noop("1 parcel")
    return gettext_noop("{count} parcels", count=count)
