"""Cards: ranks, suits and jokers, their notation (R11) and their penalty points (R2).

A **card** is either a **natural** card (a rank and a suit) or a **joker** (rank ``JOKER``, no
suit). The **deck** at a table is ``packs`` standard 52-card packs plus ``jokers`` jokers (R1.2: 3
packs and 6 jokers, 162 cards), so one natural card exists at most three times.

**Card text** is the R11 notation a scorekeeper types: rank then suit (``10H``, ``AS``, ``q♦``,
``T`` for ten), or ``JK`` / ``*`` / ``🃏`` for a joker; any case; cards separated by spaces and/or
commas. Suit-then-rank (``♥5``, as RULES.md itself writes cards) is read too: no token can mean two
different cards, because no rank letter is also a suit letter.

A card's **points** are what it costs the player holding it when someone goes out (R2). The values
come from the ruleset, so a tournament that counts cards differently needs no code change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING

from .problems import Problem, RulesError

if TYPE_CHECKING:
    from .ruleset import Ruleset


class Suit(IntEnum):
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4

    @property
    def letter(self) -> str:
        return self.name[0]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self - 1]

    @property
    def is_black(self) -> bool:
        return self in (Suit.CLUBS, Suit.SPADES)


class Rank(IntEnum):
    """Ranks by face value; an ace is 1 here, and a four may read it as 14 above the king (R3.4)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 14

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]


_RANK_LABELS = {rank: str(int(rank)) for rank in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.JOKER: "JK",
}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: Rank
    suit: Suit | None = None
    # Worked out once per card: scoring a table's hands hashes and prints each card many times.
    _text: str = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise ValueError(f"a joker has no suit and every other card has one, not {self!r}")
        text = "JK" if self.suit is None else f"{self.rank.label}{self.suit.letter}"
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_hash", hash((int(self.rank), int(self.suit or 0))))

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def symbol(self) -> str:
        """The card as people write it on paper: ``10♥``, ``A♠``, ``JK``."""
        return "JK" if self.suit is None else f"{self.rank.label}{self.suit.symbol}"

    def __str__(self) -> str:
        return self._text


JOKER = Card(Rank.JOKER)
NATURALS: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER
)


_NATURAL_BY_RANK_AND_SUIT = {(card.rank, card.suit): card for card in NATURALS}


def natural(rank: Rank, suit: Suit) -> Card:
    """The one shared ``Card`` for this rank and suit: look-ups by identity are the fastest."""
    return _NATURAL_BY_RANK_AND_SUIT[rank, suit]


class CardParseError(RulesError):
    """Card text with a token that is not a card (R11); ``token`` and ``position`` say which."""

    def __init__(self, token: str, position: int) -> None:
        message = (
            f'card {position}, "{token}", is not a card: write the rank then the suit, '
            f"like 10H, AS or 7♣, or JK for a joker (R11)"
        )
        super().__init__(Problem("R11", message))
        self.token = token
        self.position = position


def _reading_table() -> dict[str, Card]:
    ranks = {rank.label: rank for rank in Rank if rank is not Rank.JOKER} | {"T": Rank.TEN}
    suits = {suit.letter: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
    # Outline suit symbols are what some phone keyboards offer first.
    suits |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
    table = {word: JOKER for word in ("JK", "*", "🃏", "JOKER")}
    for rank_text, rank in ranks.items():
        for suit_text, suit in suits.items():
            table[rank_text + suit_text] = table[suit_text + rank_text] = natural(rank, suit)
    return table


# Built once: reading a token is then one dictionary look-up, and every card read is the same
# object, which keeps a scorekeeper's whole table of hands cheap to check and score.
_BY_TEXT = _reading_table()
_SEPARATORS = re.compile(r"[\s,]+")
_EMOJI_STYLE = "\ufe0f"  # phones append it to ♥ and ♦; it is not part of the card


def parse_cards(text: str) -> list[Card]:
    """Read R11 card text; raise ``CardParseError`` on the first token that is not a card."""
    tokens = [token for token in _SEPARATORS.split(text) if token]
    return [_read_token(token, position) for position, token in enumerate(tokens, start=1)]


def _read_token(token: str, position: int) -> Card:
    card = _BY_TEXT.get(token.upper().replace(_EMOJI_STYLE, ""))
    if card is None:
        raise CardParseError(token, position)
    return card


def parse_card(text: str) -> Card:
    """Read exactly one card, for the places that take a single card (tacking on, R7)."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise RulesError(Problem("R11", f'"{text}" should be exactly one card, not {len(cards)}'))
    return cards[0]


def as_cards(cards: str | Iterable[Card]) -> tuple[Card, ...]:
    """Cards given either as R11 text or as ``Card`` objects."""
    return tuple(parse_cards(cards)) if isinstance(cards, str) else tuple(cards)


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """R11 card text for ``cards``; ``parse_cards`` reads it back to the same list."""
    return " ".join(card.symbol if symbols else str(card) for card in cards)


def card_points(card: Card, ruleset: Ruleset) -> int:
    """What ``card`` costs its holder when someone goes out (R2)."""
    return ruleset.card_values.table[card]


def hand_points(cards: Iterable[Card], ruleset: Ruleset) -> int:
    """The sum of R2 values of the cards left in a hand (R8.2)."""
    return sum(map(ruleset.card_values.table.__getitem__, cards))


def deck(ruleset: Ruleset) -> tuple[Card, ...]:
    """Every card at one table: ``packs`` times each natural card plus the jokers (R1.2)."""
    return NATURALS * ruleset.packs + (JOKER,) * ruleset.jokers
