"""A deal played out by the rules (PA2, PA3), for example entries, demos and tests.

Seats are numbered 0, 1, 2 clockwise; the player to the **left** of seat ``s`` is ``s + 1``. A
deal is dealt from a shuffled 24-card deck, each player passes three cards to the left or to the
right (PA2.2, PA2.3), and the six cards of the common pile start six parcels in turn (PA3). The
players are simple: each adds a card when she can, with a given **eagerness** (a chance from 0 to
1), and otherwise passes (PA3.3). What the deal gives is what a scorekeeper would enter: each
player's cards and parcels captured, and who captured the J♥.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import Card

from .deck import DECK, HAND, JACK_OF_HEARTS, PASSED, follows

SEATS = 3  # PA1.1
LEFT = 1
RIGHT = -1


@dataclass(frozen=True, slots=True)
class DealPlayed:
    """A deal's outcome: the parcels in the order captured, each with the seat that took it."""

    parcels: tuple[tuple[int, tuple[Card, ...]], ...]

    def cards(self, seat: int) -> int:
        return sum(len(cards) for taker, cards in self.parcels if taker == seat)

    def parcel_count(self, seat: int) -> int:
        return sum(1 for taker, _ in self.parcels if taker == seat)

    @property
    def jack_of_hearts(self) -> int | None:
        """The seat that captured the J♥; None if it stayed in a hand (PA3.7)."""
        return next((taker for taker, cards in self.parcels if JACK_OF_HEARTS in cards), None)


def pass_direction(number: int) -> int:
    """LEFT in deals 1, 3, 5, ...; RIGHT in deals 2, 4, 6, ... (PA2.3)."""
    return LEFT if number % 2 else RIGHT


def dealer_step(number: int) -> int:
    """Seats to the left of the first dealer that deal ``number``'s dealer sits (PA2.4)."""
    return (number - 1) % SEATS


def play_deal(
    rng: random.Random, *, dealer: int = 0, direction: int = LEFT, eagerness: float = 0.75
) -> DealPlayed:
    """Deal, pass and play one deal (PA2, PA3)."""
    hands, common = deal_hands(rng)
    return play_parcels(common, pass_cards(hands, direction, rng), dealer, rng, eagerness)


def deal_hands(rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Six cards to each player and six to the common pile, from a shuffled deck (PA2.1)."""
    cards = list(DECK)
    rng.shuffle(cards)
    hands = [cards[HAND * seat : HAND * (seat + 1)] for seat in range(SEATS)]
    return hands, cards[HAND * SEATS :]


def pass_cards(hands: list[list[Card]], direction: int, rng: random.Random) -> list[list[Card]]:
    """Every player chooses three cards before seeing what she gets (PA2.2) and passes them
    to her neighbour in ``direction`` (PA2.3)."""
    given = [rng.sample(hand, PASSED) for hand in hands]
    kept = [
        [card for card in hand if card not in gift] for hand, gift in zip(hands, given, strict=True)
    ]
    return [kept[seat] + given[(seat - direction) % SEATS] for seat in range(SEATS)]


def play_parcels(
    common: list[Card],
    hands: list[list[Card]],
    dealer: int,
    rng: random.Random,
    eagerness: float = 0.75,
) -> DealPlayed:
    """The dealer turns up the first card; whoever captures a parcel turns up the next (PA3.1,
    PA3.6), until the common pile is spent (PA3.7). ``hands`` are played from."""
    parcels = []
    turner = dealer
    for first in common:
        turner, parcel = play_parcel(first, turner, hands, rng, eagerness)
        parcels.append((turner, parcel))
    return DealPlayed(tuple(parcels))


def play_parcel(
    first: Card, turner: int, hands: list[list[Card]], rng: random.Random, eagerness: float
) -> tuple[int, tuple[Card, ...]]:
    """Play on one turned-up card, from the turner's left, until three players in a row pass;
    the last to add takes it, the player who turned it up when nobody added (PA3.1 to PA3.5)."""
    parcel, taker, seat, passes = [first], turner, (turner + 1) % SEATS, 0
    while passes < SEATS:
        playable = [card for card in hands[seat] if follows(card, parcel[-1])]
        if playable and rng.random() < eagerness:
            card = rng.choice(playable)
            hands[seat].remove(card)
            parcel.append(card)
            taker, passes = seat, 0
        else:
            passes += 1
        seat = (seat + 1) % SEATS
    return taker, tuple(parcel)
