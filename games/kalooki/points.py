"""What cards cost and how many a deck holds, under a ruleset (R1.2, R2).

A card's **points** are what it costs the player holding it when someone goes out (R2). The values
come from the ruleset, so a tournament that counts cards differently needs no code change. The
**deck** at a table is ``packs`` times every natural card plus the ruleset's jokers (R1.2).

A **deck limit** is how many copies of a card one deck can hold: ``max_copies`` of a card with its
suit, twice that of a rank in one colour (``AB``), four times that of a bare rank (``K``), and
``jokers`` jokers (R1.2, R11.5). Cards whose suit is unknown count against their rank and colour.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .cards import JOKER, NATURALS, Card, Rank, suitless
from .problems import gettext_noop
from .ruleset import Ruleset


def card_points(card: Card, ruleset: Ruleset) -> int:
    """What ``card`` costs its holder when someone goes out (R2)."""
    return ruleset.card_values.table[card]


def hand_points(cards: Iterable[Card], ruleset: Ruleset) -> int:
    """The sum of R2 values of the cards left in a hand (R8.2)."""
    return sum(map(ruleset.card_values.table.__getitem__, cards))


def deck(ruleset: Ruleset) -> tuple[Card, ...]:
    """Every card at one table: ``packs`` times each natural card plus the jokers (R1.2)."""
    return NATURALS * ruleset.packs + (JOKER,) * ruleset.jokers


def most_copies(card: Card, ruleset: Ruleset) -> int:
    """How many cards of this kind one deck holds (R1.2): by suit, by colour, or by rank."""
    if card.is_joker:
        return ruleset.jokers
    if card.suit is not None:
        return ruleset.max_copies
    return ruleset.max_copies * (2 if card.colour is not None else 4)


def over_the_limit(cards: Iterable[Card], ruleset: Ruleset) -> dict[Card, int]:
    """Each kind of card that ``cards`` hold more of than one deck can, with its count.

    A suited card counts against itself, its colour and its rank; a card known by colour against
    its colour and rank; a bare rank against its rank. The kinds are reported as written: ``QS``,
    ``QB`` (black queens), ``Q`` (queens of any suit).
    """
    held = Counter(cards)
    if not any(card.suitless for card in held):
        # Suited cards within their own limit stay within their colour's and rank's too.
        return {card: n for card, n in held.items() if n > most_copies(card, ruleset)}
    counts: Counter[Card] = Counter()
    for card, times in held.items():
        for kind in _kinds(card):
            counts[kind] += times
    return {kind: n for kind, n in counts.items() if n > most_copies(kind, ruleset)}


def _kinds(card: Card) -> tuple[Card, ...]:
    if card.is_joker:
        return (card,)
    wider = (suitless(card.rank, card.colour),) if card.suit is not None else ()
    bare = (suitless(card.rank),) if card.colour is not None else ()
    return (card, *wider, *bare)


def kind_name(card: Card) -> str:
    """The kind of card in words, plural: "jokers", "copies of QS", "black aces", "kings"."""
    if card.is_joker:
        return gettext_noop("jokers")
    if card.suit is not None:
        return gettext_noop("copies of {card}", card=str(card))
    name = _RANK_NAMES[card.rank]
    if card.colour is None:
        return name
    if card.colour.name.lower() == "black":
        return gettext_noop("black {rank}", rank=name)
    return gettext_noop("red {rank}", rank=name)


_RANK_NAMES = {
    Rank.ACE: gettext_noop("aces"),
    Rank.KING: gettext_noop("kings"),
    Rank.QUEEN: gettext_noop("queens"),
    Rank.JACK: gettext_noop("jacks"),
    Rank.TEN: gettext_noop("tens"),
    Rank.NINE: gettext_noop("nines"),
    Rank.EIGHT: gettext_noop("eights"),
    Rank.SEVEN: gettext_noop("sevens"),
    Rank.SIX: gettext_noop("sixes"),
    Rank.FIVE: gettext_noop("fives"),
    Rank.FOUR: gettext_noop("fours"),
    Rank.THREE: gettext_noop("threes"),
    Rank.TWO: gettext_noop("twos"),
}
