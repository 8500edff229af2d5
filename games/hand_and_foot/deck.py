"""The deck of Hand and Foot (HF1) and what its cards are worth (HF7).

A card's **kind** is all this game asks of it (HF1.3): its rank, except that a three is a **red
three** or a **black three**. **Book kinds** are the natural kinds books are made of, four to ace
(HF3.4); **wild** kinds are the joker and the two (HF1.4). A **deck** is ``decks`` standard packs
plus ``jokers`` jokers: with four packs, 16 cards of each rank from four to ace, 16 twos, 8 red
threes, 8 black threes. A deck's **worth** is the sum of the values of all its cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from math import gcd

from games.cards import Card, Rank

STACK = 13  # HF2.3: a hand and a foot are 13 cards each
DEALT = 2 * STACK  # HF6.6: a player deals exactly 26 cards for the bonus
TABLE_PLAYERS = 4  # HF1.2: two teams of two
PACK_SUITS = 4  # a standard pack holds four of each rank


class Kind(StrEnum):
    JOKER = "joker"
    TWO = "two"
    ACE = "ace"
    KING = "king"
    QUEEN = "queen"
    JACK = "jack"
    TEN = "ten"
    NINE = "nine"
    EIGHT = "eight"
    SEVEN = "seven"
    SIX = "six"
    FIVE = "five"
    FOUR = "four"
    BLACK_THREE = "black_three"
    RED_THREE = "red_three"

    @property
    def is_wild(self) -> bool:
        return self in (Kind.JOKER, Kind.TWO)

    @property
    def is_threes(self) -> bool:
        return self in (Kind.BLACK_THREE, Kind.RED_THREE)


WILD_KINDS = (Kind.JOKER, Kind.TWO)
BOOK_KINDS = tuple(kind for kind in Kind if not kind.is_wild and not kind.is_threes)
_KIND_BY_RANK = {
    Rank.TWO: Kind.TWO,
    Rank.ACE: Kind.ACE,
    Rank.KING: Kind.KING,
    Rank.QUEEN: Kind.QUEEN,
    Rank.JACK: Kind.JACK,
    Rank.TEN: Kind.TEN,
    Rank.NINE: Kind.NINE,
    Rank.EIGHT: Kind.EIGHT,
    Rank.SEVEN: Kind.SEVEN,
    Rank.SIX: Kind.SIX,
    Rank.FIVE: Kind.FIVE,
    Rank.FOUR: Kind.FOUR,
}


def kind_of(card: Card) -> Kind | None:
    """The card's kind; None for a three written without its colour (HF9 needs one)."""
    if card.rank is Rank.JOKER:
        return Kind.JOKER
    if card.rank is not Rank.THREE:
        return _KIND_BY_RANK[card.rank]
    if card.suit is None:
        return None
    return Kind.BLACK_THREE if card.suit.is_black else Kind.RED_THREE


@dataclass(frozen=True)
class Deck:
    """How many cards of each kind the deck holds and what each is worth (HF1.1, HF7)."""

    counts: Mapping[Kind, int]
    values: Mapping[Kind, int]

    @classmethod
    def of(cls, decks: int, jokers: int, values: Mapping[Kind, int]) -> Deck:
        counts = {kind: PACK_SUITS * decks for kind in Kind} | {Kind.JOKER: jokers}
        counts |= {Kind.RED_THREE: 2 * decks, Kind.BLACK_THREE: 2 * decks}
        return cls(counts, dict(values))

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    @cached_property
    def worth(self) -> int:
        return sum(self.counts[kind] * self.values[kind] for kind in Kind)

    @property
    def wilds(self) -> int:
        return sum(self.counts[kind] for kind in WILD_KINDS)

    @property
    def draw_turns(self) -> int:
        """Turns of drawing two cards the draw pile holds after the deal (HF8.7)."""
        return max(0, self.size - TABLE_PLAYERS * DEALT) // 2

    @cached_property
    def unit(self) -> int:
        """The greatest common divisor of the card values: every count is a multiple (HF8.5)."""
        return gcd(*self.values.values())

    @cached_property
    def hand_unit(self) -> int:
        """The same, for cards left in hand, where a red three counts its penalty (HF6.4)."""
        return gcd(*(value for kind, value in self.values.items() if kind is not Kind.RED_THREE))

    def hand_value(self, kinds: Iterable[Kind]) -> int:
        """What cards left in hand count, red threes aside (their penalty is HF6.4's)."""
        return sum(self.values[kind] for kind in kinds if kind is not Kind.RED_THREE)

    def cheapest(self, cards: int) -> int:
        """The least that ``cards`` cards of the deck, red threes aside, count in hand (HF8.5)."""
        return sum(self._values_in_hand[:cards])

    def dearest(self, cards: int) -> int:
        """The most that ``cards`` cards of the deck count in hand."""
        return sum(self._values_in_hand[::-1][:cards])

    @cached_property
    def _values_in_hand(self) -> list[int]:
        kinds = [kind for kind in Kind if kind is not Kind.RED_THREE]
        return sorted(v for kind in kinds for v in [self.values[kind]] * self.counts[kind])
