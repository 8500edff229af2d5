"""Cards in Kalooki: the R11 notation, on the shared ``games.cards``.

The deck at a table is ``packs`` standard 52-card packs plus ``jokers`` jokers (R1.2: 3 packs and
6 jokers, 162 cards), so one natural card exists at most three times. **Card text** is the R11
notation (see ``games.cards``); a token that is not a card is refused citing R11.

Kalooki reads **suitless** cards too (R11.3, R11.4): a bare rank (``K``, ``10``) where the suit
does not matter for scoring, and an ace by its colour (``AB`` black, ``AR`` red), since only an
ace's colour changes its points (R2). What cards cost, and the deck itself, come from the ruleset:
see ``points``.
"""

from __future__ import annotations

from collections.abc import Iterable

from games import cards as notation
from games.cards import (
    JOKER,
    NATURALS,
    Card,
    CardParseError,
    Colour,
    Rank,
    Suit,
    format_cards,
    natural,
    suitless,
)

__all__ = [
    "JOKER",
    "NATURALS",
    "Card",
    "CardParseError",
    "Colour",
    "Rank",
    "Suit",
    "as_cards",
    "format_cards",
    "natural",
    "parse_card",
    "parse_cards",
    "suitless",
]

NOTATION = "R11"


def parse_cards(text: str) -> list[Card]:
    """Read R11 card text; raise ``CardParseError`` on the first token that is not a card."""
    return notation.parse_cards(text, rule=NOTATION, suitless=True)


def parse_card(text: str) -> Card:
    """Read exactly one card, for the places that take a single card (tacking on, R7)."""
    return notation.parse_card(text, rule=NOTATION, suitless=True)


def as_cards(cards: str | Iterable[Card]) -> tuple[Card, ...]:
    """Cards given either as R11 text or as ``Card`` objects."""
    return tuple(parse_cards(cards)) if isinstance(cards, str) else tuple(cards)
