"""Cards in Kalooki: the R11 notation and the R2 penalty points, on the shared ``games.cards``.

The deck at a table is ``packs`` standard 52-card packs plus ``jokers`` jokers (R1.2: 3 packs and
6 jokers, 162 cards), so one natural card exists at most three times. **Card text** is the R11
notation (see ``games.cards``); a token that is not a card is refused citing R11.

A card's **points** are what it costs the player holding it when someone goes out (R2). The values
come from the ruleset, so a tournament that counts cards differently needs no code change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from games import cards as notation
from games.cards import (
    JOKER,
    NATURALS,
    Card,
    CardParseError,
    Rank,
    Suit,
    format_cards,
    natural,
)

if TYPE_CHECKING:
    from .ruleset import Ruleset

__all__ = [
    "JOKER",
    "NATURALS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "as_cards",
    "card_points",
    "deck",
    "format_cards",
    "hand_points",
    "natural",
    "parse_card",
    "parse_cards",
]

NOTATION = "R11"


def parse_cards(text: str) -> list[Card]:
    """Read R11 card text; raise ``CardParseError`` on the first token that is not a card."""
    return notation.parse_cards(text, rule=NOTATION)


def parse_card(text: str) -> Card:
    """Read exactly one card, for the places that take a single card (tacking on, R7)."""
    return notation.parse_card(text, rule=NOTATION)


def as_cards(cards: str | Iterable[Card]) -> tuple[Card, ...]:
    """Cards given either as R11 text or as ``Card`` objects."""
    return tuple(parse_cards(cards)) if isinstance(cards, str) else tuple(cards)


def card_points(card: Card, ruleset: Ruleset) -> int:
    """What ``card`` costs its holder when someone goes out (R2)."""
    return ruleset.card_values.table[card]


def hand_points(cards: Iterable[Card], ruleset: Ruleset) -> int:
    """The sum of R2 values of the cards left in a hand (R8.2)."""
    return sum(map(ruleset.card_values.table.__getitem__, cards))


def deck(ruleset: Ruleset) -> tuple[Card, ...]:
    """Every card at one table: ``packs`` times each natural card plus the jokers (R1.2)."""
    return NATURALS * ruleset.packs + (JOKER,) * ruleset.jokers
