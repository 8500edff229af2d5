"""The Parcellus deck (PA1) and what may follow what in a parcel (PA3.2), in the shared notation.

The **deck** is the 24 cards from 9 to ace of each suit (PA1.2). A card's **colour** is red
(hearts, diamonds) or black (clubs, spades) (PA1.3). A card's **step** is its place in the
parcel order 9, 10, J, Q, K, A (0 to 5). A card **follows** another when it is one step higher
and of the same colour, an ace being followed by a nine (PA3.2). A **parcel** is a run of cards
so built from the card that started it, so it is all of one colour.
"""

from __future__ import annotations

from itertools import pairwise

from games.base import Problem, gettext_noop
from games.cards import Card, CardParseError, Rank, Suit, natural, parse_cards

ORDER: tuple[Rank, ...] = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
DECK: tuple[Card, ...] = tuple(natural(rank, suit) for suit in Suit for rank in ORDER)
DECK_SIZE = len(DECK)  # 24 (PA1.2)
HAND = 6  # cards dealt to each player and to the common pile (PA2.1)
PARCELS = 6  # one parcel for each card of the common pile (PA3.7)
PASSED = 3  # cards each player passes (PA2.2)
COLOUR_SIZE = DECK_SIZE // 2  # a parcel is of one colour, so it holds at most 12 cards (PA3.2)
JACK_OF_HEARTS = natural(Rank.JACK, Suit.HEARTS)

_STEP_OF = {card: ORDER.index(card.rank) for card in DECK}


def colour(card: Card) -> str:
    """ "red" or "black" (PA1.3)."""
    return "black" if card.suit is not None and card.suit.is_black else "red"


def follows(card: Card, top: Card) -> bool:
    """Whether ``card`` may be added to a parcel whose top card is ``top`` (PA3.2)."""
    if card not in _STEP_OF or top not in _STEP_OF or colour(card) != colour(top):
        return False
    return _STEP_OF[card] == (_STEP_OF[top] + 1) % len(ORDER)


def read_parcel(text: str) -> tuple[tuple[Card, ...], tuple[Problem, ...]]:
    """The cards of a parcel written as card text (PA8.1) and every reason it is not a legal
    parcel: a card outside the deck or seen twice (PA1.2), a card that does not follow the one
    before it (PA3.2)."""
    try:
        cards = tuple(parse_cards(text, rule="PA8.1"))
    except CardParseError as error:
        return (), (error.problem,)
    if not cards:
        return (), (
            Problem("PA3.1", gettext_noop("a parcel holds at least the card that started it")),
        )
    return cards, _deck_problems(cards) or _run_problems(cards)


def _deck_problems(cards: tuple[Card, ...]) -> tuple[Problem, ...]:
    outside = [card.symbol for card in dict.fromkeys(cards) if card not in _STEP_OF]
    problems = [
        Problem(
            "PA1.2",
            gettext_noop(
                "{symbol} is not a Parcellus card: the deck is 9 to ace of each suit", symbol=symbol
            ),
        )
        for symbol in outside
    ]
    twice = [card.symbol for card in dict.fromkeys(cards) if cards.count(card) > 1]
    if twice:
        problems.append(
            Problem(
                "PA1.2",
                gettext_noop("each card exists once, but {names} is twice", names=", ".join(twice)),
            )
        )
    return tuple(problems)


def _run_problems(cards: tuple[Card, ...]) -> tuple[Problem, ...]:
    return tuple(
        Problem("PA3.2", _not_following(card, top, position))
        for position, (top, card) in enumerate(pairwise(cards), start=2)
        if not follows(card, top)
    )


def _not_following(card: Card, top: Card, position: int) -> str:
    wanted = " or ".join(
        other.symbol for other in DECK if colour(other) == colour(top) and follows(other, top)
    )
    return f"card {position}, {card.symbol}, cannot follow {top.symbol}: only {wanted} can"
