"""Cards as every game here writes them: ranks, suits and jokers, and their notation.

A **card** is either a **natural** card (a rank and a suit) or a **joker** (rank ``JOKER``, no
suit). **Card text** is what a scorekeeper types: rank then suit (``10H``, ``AS``, ``q♦``, ``T``
for ten), or ``JK`` / ``*`` / ``🃏`` for a joker; any case; cards separated by spaces and/or
commas. Suit-then-rank (``♥5``) is read too: no token can mean two different cards, because no
rank letter is also a suit letter. ``format_cards`` writes the one canonical spelling (``10H AS
JK``). A game cites its own notation rule in a parse error (Kalooki: R11).

A game whose scoring does not need every suit may let its reader take **suitless** cards
(``parse_cards(..., suitless=True)``): a **bare rank** (``K``, ``10``, ``T``), suit unknown, or a
rank and its **colour** (``AB``: a black ace, ``AR``: a red ace), suit unknown. ``B`` and ``R`` are
neither ranks nor suits, so no such token can be taken for another card. A suitless card keeps
exactly what was written: its canonical spelling never invents a suit (``K``, ``AB``).

What a card is worth, and how many of each a deck holds, is each game's own business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from games.base import Problem, RulesError, gettext_noop


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


class Colour(IntEnum):
    BLACK = 1
    RED = 2

    @property
    def letter(self) -> str:
        return self.name[0]


@dataclass(frozen=True, eq=True, slots=True)
class Card:
    """A card. ``suitless`` marks a natural card written without its suit (its ``colour`` may
    still be known); a card with a suit always knows its colour."""

    rank: Rank
    suit: Suit | None = None
    colour: Colour | None = None
    suitless: bool = False
    # Worked out once per card: scoring a table's hands hashes and prints each card many times.
    _text: str = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)
    _key: tuple[int, int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None and not self.suitless):
            raise ValueError(f"a joker has no suit and every other card has one, not {self!r}")
        if self.suit is not None:
            self._set_colour_of_suit(self.suit)
        elif self.rank is Rank.JOKER and self.colour is not None:
            raise ValueError("a joker has no colour")
        text = self._spelling()
        object.__setattr__(self, "_text", text)
        key = (int(self.rank), int(self.suit or 0), int(self.colour or 0))
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def _set_colour_of_suit(self, suit: Suit) -> None:
        if self.suitless:
            raise ValueError(f"a card with a suit is not suitless: {self!r}")
        colour = Colour.BLACK if suit.is_black else Colour.RED
        if self.colour not in (None, colour):
            raise ValueError(f"{self.rank.label}{suit.letter} is {colour.name.lower()}")
        object.__setattr__(self, "colour", colour)

    def _spelling(self) -> str:
        if self.rank is Rank.JOKER:
            return "JK"
        if self.suit is not None:
            return f"{self.rank.label}{self.suit.letter}"
        return self.rank.label + (self.colour.letter if self.colour else "")

    def __hash__(self) -> int:
        return self._hash

    # Ordered by rank, then suit, then colour: a suitless card sorts before its suited ones.
    def __lt__(self, other: Card) -> bool:
        return self._key < other._key

    def __le__(self, other: Card) -> bool:
        return self._key <= other._key

    def __gt__(self, other: Card) -> bool:
        return self._key > other._key

    def __ge__(self, other: Card) -> bool:
        return self._key >= other._key

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def is_suitless(self) -> bool:
        """A natural card whose suit was not written (``K``, ``AB``)."""
        return self.suitless

    @property
    def symbol(self) -> str:
        """The card as people write it on paper: ``10♥``, ``A♠``, ``JK`` (suitless: as typed)."""
        return f"{self.rank.label}{self.suit.symbol}" if self.suit is not None else self._text

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


# Suitless cards: each rank alone, and each rank with each colour.
BARE: tuple[Card, ...] = tuple(Card(rank, suitless=True) for rank in Rank if rank is not Rank.JOKER)
COLOURED: tuple[Card, ...] = tuple(
    Card(rank, colour=colour, suitless=True)
    for colour in Colour
    for rank in Rank
    if rank is not Rank.JOKER
)
_SUITLESS = {(card.rank, card.colour): card for card in BARE + COLOURED}


def suitless(rank: Rank, colour: Colour | None = None) -> Card:
    """The one shared suitless ``Card`` of this rank (and colour, when known)."""
    return _SUITLESS[rank, colour]


class CardParseError(RulesError):
    """Card text with a token that is not a card; ``token`` and ``position`` say which, and
    ``rule`` is the notation rule of the game that read it (Kalooki: R11)."""

    def __init__(
        self, token: str, position: int, rule: str = "", *, suitless: bool = False
    ) -> None:
        message = gettext_noop(
            'card {position}, "{token}", is not a card: write the rank then the suit, like '
            "10H, AS or 7♣, or JK for a joker",
            position=position,
            token=token,
        )
        if suitless:
            message += ", or the rank alone (K) where the suit does not matter, AB or AR for a "
            message += "black or red ace"
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


def _suitless_table(ranks: dict[str, Rank]) -> dict[str, Card]:
    table = {}
    for rank_text, rank in ranks.items():
        table[rank_text] = suitless(rank)
        for colour in Colour:
            table[rank_text + colour.letter] = suitless(rank, colour)
    return table


# Built once: reading a token is then one dictionary look-up, and every card read is the same
# object, which keeps a scorekeeper's whole table of hands cheap to check and score.
_BY_TEXT = _reading_table()
_RANK_TEXTS = {rank.label: rank for rank in Rank if rank is not Rank.JOKER} | {"T": Rank.TEN}
_BY_TEXT_SUITLESS = _BY_TEXT | _suitless_table(_RANK_TEXTS)
_SEPARATORS = re.compile(r"[\s,]+")
_EMOJI_STYLE = "\ufe0f"  # phones append it to ♥ and ♦; it is not part of the card


def parse_cards(text: str, *, rule: str = "", suitless: bool = False) -> list[Card]:
    """Read card text; raise ``CardParseError`` (citing ``rule``) on the first token that is not
    a card. ``suitless`` also reads bare ranks and rank-and-colour tokens (``K``, ``AB``)."""
    table = _BY_TEXT_SUITLESS if suitless else _BY_TEXT
    cards = []
    for token in _SEPARATORS.split(text):
        if not token:
            continue
        card = table.get(token.upper().replace(_EMOJI_STYLE, ""))
        if card is None:
            raise CardParseError(token, len(cards) + 1, rule, suitless=suitless)
        cards.append(card)
    return cards


def parse_card(text: str, *, rule: str = "", suitless: bool = False) -> Card:
    """Read exactly one card, for the places that take a single card."""
    cards = parse_cards(text, rule=rule, suitless=suitless)
    if len(cards) != 1:
        raise RulesError(
            Problem(
                rule,
                gettext_noop(
                    '"{text}" should be exactly one card, not {count}', text=text, count=len(cards)
                ),
            )
        )
    return cards[0]


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Card text for ``cards`` in the one canonical spelling; ``parse_cards`` reads it back."""
    if symbols:
        return " ".join([card.symbol for card in cards])
    return " ".join([card._text for card in cards])  # str(card), without a call per card
