"""Tacking on (R7): adding a card to a meld on the table, moving a joker, discarding.

**Tacking on** puts one card onto a meld on the table, one's own or another player's, and only
once one has laid one's contract (R7.1). Onto a **three**: a card of its rank, or a joker (R7.2).
Onto a **four**: the next card of its suit at its **low end** (before its lowest card) or its
**high end** (after its highest), or a joker at an end where it does not touch another joker (R7.2).

**Moving a joker** (R7.3): the holder of the real card a joker in a four stands for may put that
card in the joker's place; the joker then goes to the high end of the four. It cannot when the
high end already is an ace (the joker is **dead**) or another joker already stands at the high end.
There is no joker exchange: a joker never goes into a hand or to another meld, and a joker in a
three never moves at all (R3.6). Under the house rule of the **joker exchange** (R13.6) the joker
taken from one's **own** four goes into one's hand, to be reused; taken from another player's four
it moves to either end of that four, where it fits.

**Discarding** (R7.4): any card but a joker.

Melds are given **as laid** (see ``melds``): the cards in table order, a four reported low to high.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.base import gettext_noop

from .cards import JOKER, Card, Rank, Suit, as_cards, parse_card
from .melds import (
    BEYOND_THE_HIGH_ACE,
    BEYOND_THE_LOW_ACE,
    HIGH_ACE,
    LOW_ACE,
    MeldCheck,
    check_four,
    check_meld,
    check_three,
)
from .problems import Problem, and_list
from .ruleset import ASAJ_2025, FOUR, THREE, Ruleset

LOW = "low"
HIGH = "high"


@dataclass(frozen=True, slots=True)
class TackCheck:
    valid: bool
    reasons: tuple[Problem, ...]
    meld_after: tuple[Card, ...] = ()
    end: str | None = None  # where the card went on a four
    kind: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "meld_after": [str(card) for card in self.meld_after],
            "end": self.end,
            "kind": self.kind,
        }


@dataclass(frozen=True, slots=True)
class JokerMove:
    valid: bool
    reasons: tuple[Problem, ...]
    meld_after: tuple[Card, ...] = ()
    joker_from: int | None = None  # place (0-based) of the real card in meld_after
    joker_to: int | None = None  # place of the joker in meld_after: an end; None in a hand
    to_hand: bool = False  # R13.6: taken from one's own four into one's hand

    def to_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "meld_after": [str(card) for card in self.meld_after],
            "joker_from": self.joker_from,
            "joker_to": self.joker_to,
            "to_hand": self.to_hand,
        }


def check_tack_on(
    card: Card | str,
    meld_cards: str | Iterable[Card],
    ruleset: Ruleset,
    *,
    kind: str | None = None,
    end: str | None = None,
    has_come_down: bool = True,
) -> TackCheck:
    """May ``card`` go onto this meld (at ``end`` of a four, or either end, high first)?"""
    if end not in (None, LOW, HIGH):
        raise ValueError(f"end is {LOW!r} or {HIGH!r}, not {end!r}")
    card = parse_card(card) if isinstance(card, str) else card
    if not has_come_down:
        return _no_tack(
            Problem("R7.1", gettext_noop("only a player who has laid their contract may tack on"))
        )
    meld = check_meld(meld_cards, ruleset, kind, as_laid=True)
    if not meld.valid:
        text = gettext_noop("cards can only be tacked onto a valid three or four")
        return _no_tack(Problem("R7.1", text), *meld.reasons)
    if meld.kind == THREE:
        return _onto_three(card, meld, ruleset)
    return _onto_four(card, meld, ruleset, (end,) if end else (HIGH, LOW))


def _onto_three(card: Card, meld: MeldCheck, ruleset: Ruleset) -> TackCheck:
    rank = meld.rank
    if not card.is_joker and rank is not None and card.rank is not rank:
        label = rank.label
        return _no_tack(
            Problem(
                "R7.1",
                gettext_noop(
                    "only a {label} or a joker goes onto a three of rank {label}", label=label
                ),
            )
        )
    after = check_three((*meld.cards, card), ruleset)
    if not after.valid:
        return _no_tack(*after.reasons)
    return TackCheck(True, (), after.cards, None, THREE)


def _onto_four(card: Card, meld: MeldCheck, ruleset: Ruleset, ends: tuple[str, ...]) -> TackCheck:
    refusals: dict[str, Problem] = {}
    for end in ends:
        laid = (*meld.cards, card) if end == HIGH else (card, *meld.cards)
        after = check_four(laid, ruleset)
        if after.valid:
            return TackCheck(True, (), after.cards, end, FOUR)
        refusals[end] = _end_refusal(card, meld, end, after.reasons)
    if card.is_joker:
        return _no_tack(*refusals.values())
    return _no_tack(_natural_refusal(card, meld, refusals))


def _end_refusal(card: Card, meld: MeldCheck, end: str, reasons: tuple[Problem, ...]) -> Problem:
    """Why ``card`` cannot go at this ``end``, said about the end rather than the whole run."""
    edge_card = meld.cards[-1] if end == HIGH else meld.cards[0]
    closed = meld.high == HIGH_ACE if end == HIGH else meld.low == LOW_ACE
    if closed and card.is_joker:
        return Problem("R3.4", BEYOND_THE_HIGH_ACE if end == HIGH else BEYOND_THE_LOW_ACE)
    if closed:
        if end == HIGH:
            text = gettext_noop("nothing goes above the high ace at the high end of this four")
        else:
            text = gettext_noop("nothing goes below the low ace at the low end of this four")
        return Problem("R3.4", text)
    if card.is_joker and edge_card.is_joker:
        return Problem(
            "R7.2",
            gettext_noop(
                "a joker at the {end} end would touch the joker already there", end=_end_word(end)
            ),
        )
    return reasons[0]


def _natural_refusal(card: Card, meld: MeldCheck, refusals: dict[str, Problem]) -> Problem:
    if card.suit != meld.suit:
        suit = _SUIT_WORDS[meld.suit] if meld.suit else gettext_noop("one suit")
        return Problem(
            "R7.1",
            gettext_noop(
                "this four is in {suit}, so {card} cannot go onto it", suit=suit, card=card
            ),
        )
    wanted = _wanted(meld, tuple(refusals))
    for end, wanted_card in wanted.items():
        if card == wanted_card:  # the right card, refused for another reason
            return refusals[end]
    if not wanted:
        return next(iter(refusals.values()))
    places = and_list((_place(c, end) for end, c in wanted.items()), "or")
    return Problem(
        "R7.1",
        gettext_noop(
            "{card} does not continue this four: it takes {places}, or a joker",
            card=card,
            places=places,
        ),
    )


_SUIT_WORDS = {
    Suit.CLUBS: gettext_noop("clubs"),
    Suit.DIAMONDS: gettext_noop("diamonds"),
    Suit.HEARTS: gettext_noop("hearts"),
    Suit.SPADES: gettext_noop("spades"),
}


def _place(card: Card, end: str) -> str:
    return gettext_noop("{card} at the {end} end", card=str(card), end=_end_word(end))


def _end_word(end: str) -> str:
    return gettext_noop("high") if end == HIGH else gettext_noop("low")


def _wanted(meld: MeldCheck, ends: tuple[str, ...]) -> dict[str, Card]:
    """The natural card that would continue the four at each of these ends that is open."""
    suit = meld.suit
    wanted = {}
    if suit is not None and LOW in ends and meld.low > LOW_ACE:
        wanted[LOW] = Card(Rank(meld.low - 1), suit)
    if suit is not None and HIGH in ends and meld.high < HIGH_ACE:
        wanted[HIGH] = Card(Rank.ACE if meld.high == Rank.KING else Rank(meld.high + 1), suit)
    return wanted


def _no_tack(*reasons: Problem) -> TackCheck:
    return TackCheck(False, tuple(reasons))


def replace_joker(
    meld_cards: str | Iterable[Card],
    real_card: Card | str,
    ruleset: Ruleset = ASAJ_2025,
    *,
    has_come_down: bool = True,
    own: bool = False,
    end: str | None = None,
) -> JokerMove:
    """Put ``real_card`` in place of the joker standing for it. The joker goes to the high end
    (R7.3); under the joker exchange (R13.6) into the hand from one's ``own`` four, or to
    ``end`` (either, high first) of another's."""
    if end not in (None, LOW, HIGH):
        raise ValueError(f"end is {LOW!r} or {HIGH!r}, not {end!r}")
    real_card = parse_card(real_card) if isinstance(real_card, str) else real_card
    meld = check_meld(as_cards(meld_cards), ruleset, as_laid=True)
    refusal = _joker_move_refusal(meld, real_card, has_come_down)
    if refusal is not None:
        return JokerMove(False, (refusal,))
    place = _joker_place(meld, real_card)
    assert place is not None  # a refusal otherwise
    swapped = (*meld.cards[:place], real_card, *meld.cards[place + 1 :])
    if ruleset.joker_exchange and own:
        return _joker_to_hand(swapped, place, ruleset)
    if not ruleset.joker_exchange and end == LOW:
        return JokerMove(False, (Problem("R7.3", NO_EXCHANGE),))
    return _joker_to_an_end(meld, swapped, place, (end,) if end else (HIGH, LOW), ruleset)


NO_EXCHANGE = (
    "a moved joker goes to the high end of its four only; moving it to the low end is the joker "
    "exchange of R13.6, which this ruleset does not allow"
)


def _joker_to_hand(swapped: tuple[Card, ...], place: int, ruleset: Ruleset) -> JokerMove:
    after = check_four(swapped, ruleset)
    if not after.valid:
        return JokerMove(False, after.reasons)
    return JokerMove(True, (), after.cards, place, None, to_hand=True)


def _joker_to_an_end(
    meld: MeldCheck, swapped: tuple[Card, ...], place: int, ends: tuple[str, ...], ruleset: Ruleset
) -> JokerMove:
    # Without the exchange (R7.3) only the high end is tried; the low end is R13.6's.
    ends = ends if ruleset.joker_exchange else (HIGH,)
    refusals: list[Problem] = []
    for end in ends:
        refusal = _end_closed(meld, place, end)
        laid = (*swapped, JOKER) if end == HIGH else (JOKER, *swapped)
        after = None if refusal else check_four(laid, ruleset)
        if after is not None and after.valid:
            shift = 0 if end == HIGH else 1
            joker_to = len(after.cards) - 1 if end == HIGH else 0
            return JokerMove(True, (), after.cards, place + shift, joker_to)
        refusals += [refusal] if refusal else list(after.reasons if after else ())
    return JokerMove(False, tuple(refusals))


def _end_closed(meld: MeldCheck, place: int, end: str) -> Problem | None:
    """Why the moved joker cannot go to this ``end`` of the four (R7.3, R13.6), if it cannot."""
    last = len(meld.cards) - 1
    edge, edge_place = (meld.cards[-1], last) if end == HIGH else (meld.cards[0], 0)
    if edge.is_joker and place != edge_place:
        return Problem(
            "R7.3",
            gettext_noop(
                "a joker already stands at the {end} end, so this joker cannot move",
                end=_end_word(end),
            ),
        )
    if (meld.high == HIGH_ACE) if end == HIGH else (meld.low == LOW_ACE):
        text = gettext_noop(
            "the {end} end of this four is already an ace: the joker is dead and cannot move",
            end=_end_word(end),
        )
        return Problem("R7.3", text) if end == HIGH else Problem("R13.6", text)
    return None


def _joker_move_refusal(meld: MeldCheck, real_card: Card, has_come_down: bool) -> Problem | None:
    if not has_come_down:
        return Problem(
            "R7.1", gettext_noop("only a player who has laid their contract may move a joker")
        )
    if not meld.valid:
        return Problem("R7.3", gettext_noop("a joker can only be moved within a valid four"))
    if meld.kind == THREE:
        return Problem("R3.6", gettext_noop("a joker in a three can never be moved"))
    if real_card.is_joker:
        return Problem(
            "R7.3", gettext_noop("only the real card a joker stands for can take its place")
        )
    if _joker_place(meld, real_card) is None:
        return Problem(
            "R7.3",
            gettext_noop("no joker in this four stands for {real_card}", real_card=real_card),
        )
    return None


def _joker_place(meld: MeldCheck, real_card: Card) -> int | None:
    places = zip(meld.cards, meld.stands_for, strict=True)
    return next((i for i, (c, s) in enumerate(places) if c.is_joker and s == real_card), None)


def check_discard(card: Card | str) -> Problem | None:
    """Any card may be discarded, even one just drawn, except a joker (R7.4)."""
    card = parse_card(card) if isinstance(card, str) else card
    return Problem("R7.4", gettext_noop("a joker cannot be discarded")) if card.is_joker else None
