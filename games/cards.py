"""Cards as every game here writes them: ranks, suits and jokers, and their notation.

A **card** is either a **natural** card (a rank and a suit) or a **joker** (rank ``JOKER``, no
suit). **Card text** is what a scorekeeper types: rank then suit (``10H``, ``AS``, ``q♦``, ``T``
for ten), or ``JK`` / ``*`` / ``🃏`` for a joker; any case; cards separated by spaces and/or
commas. Suit-then-rank (``♥5``) is read too: no token can mean two different cards, because no
rank letter is also a suit letter. ``format_cards`` writes the one canonical spelling (``10H AS
JK``). A game cites its own notation rule in a parse error (Kalooki: R11).

What a card is worth, and how many of each a deck holds, is each game's own business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from games.base import Problem, RulesError


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
    """Ranks by face value; an ace is 1 here (a game may also read it as 14, above the king)."""

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
    """Card text with a token that is not a card; ``token`` and ``position`` say which, and
    ``rule`` is the notation rule of the game that read it (Kalooki: R11)."""

    def __init__(self, token: str, position: int, rule: str = "") -> None:
        message = (
            f'card {position}, "{token}", is not a card: write the rank then the suit, '
            f"like 10H, AS or 7♣, or JK for a joker"
        )
        super().__init__(Problem(rule, message))
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


def parse_cards(text: str, *, rule: str = "") -> list[Card]:
    """Read card text; raise ``CardParseError`` (citing ``rule``) on the first token that is not
    a card."""
    tokens = [token for token in _SEPARATORS.split(text) if token]
    return [_read_token(token, position, rule) for position, token in enumerate(tokens, start=1)]


def _read_token(token: str, position: int, rule: str) -> Card:
    card = _BY_TEXT.get(token.upper().replace(_EMOJI_STYLE, ""))
    if card is None:
        raise CardParseError(token, position, rule)
    return card


def parse_card(text: str, *, rule: str = "") -> Card:
    """Read exactly one card, for the places that take a single card."""
    cards = parse_cards(text, rule=rule)
    if len(cards) != 1:
        raise RulesError(Problem(rule, f'"{text}" should be exactly one card, not {len(cards)}'))
    return cards[0]


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Card text for ``cards`` in the one canonical spelling; ``parse_cards`` reads it back."""
    return " ".join(card.symbol if symbols else str(card) for card in cards)
