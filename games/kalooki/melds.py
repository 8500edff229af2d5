"""Melds: threes and fours (R3), checked as laid on the table or looked for in a hand.

A **meld** is a three or a four. A **three** is 3 or more cards of one rank, any suits, duplicates
allowed (R3.1), holding at least two natural cards (R3.2). A **four** is a **run**: 4 or more
consecutive cards of one suit (R3.3). An ace in a four is **low** (below the 2) or **high** (above
the king) and only ever at an end (R3.4); a joker may stand for any missing card, but two jokers
are never side by side and no card appears twice (R3.5).

A card's **value** in a four is its place in the run: 1 for a low ace, 2 to 13 for 2 to king, 14
for a high ace. A joker **stands for** the card its place needs.

Every meld is also held to the deck (R1.2): no more copies of a card, nor jokers, than one deck
has. A three may be written without suits (``K K JK``, R11.3); a four needs every suit (R3.3).

Cards **as laid** are taken in the order given, as they lie on the table, so each joker stands for
the card at its place (a four may be given from either end; it is reported low to high). Otherwise
the cards are a **hand**, and the check looks for an arrangement that makes the meld, placing any
spare joker at the high end first, and reports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise

from games.base import gettext_noop

from .cards import JOKER, Card, Rank, Suit, as_cards, format_cards, natural
from .points import kind_name, most_copies, over_the_limit
from .problems import Problem, and_list
from .ruleset import FOUR, THREE, Ruleset

LOW_ACE = 1
HIGH_ACE = 14
BEYOND_THE_HIGH_ACE = gettext_noop(
    "a joker cannot stand beyond an ace: the ace ends the four, so K-A-JK is not a four and "
    "nothing, not even a joker, goes above a high ace"
)
BEYOND_AN_ACE = gettext_noop(
    "a joker cannot stand beyond an ace: an ace ends a four, so K-A-JK and JK-A-2-3 are not "
    "fours and nothing, not even a joker, goes past the ace"
)
BEYOND_THE_LOW_ACE = gettext_noop(
    "a joker cannot stand beyond an ace: the ace ends the four, so JK-A-2-3 is not a four and "
    "nothing, not even a joker, goes below a low ace"
)


@dataclass(frozen=True, slots=True)
class MeldCheck:
    valid: bool
    kind: str | None
    arrangement: tuple[str, ...]
    reasons: tuple[Problem, ...]
    cards: tuple[Card, ...] = ()
    stands_for: tuple[Card, ...] = ()  # a four's cards with each joker replaced by its card

    @property
    def suit(self) -> Suit | None:
        return self.stands_for[0].suit if self.stands_for else None

    @property
    def rank(self) -> Rank | None:
        """The rank of a three."""
        if self.kind != THREE:
            return None
        return next((card.rank for card in self.cards if not card.is_joker), None)

    @property
    def low(self) -> int:
        """The value of a four's low end (1 for a low ace)."""
        return int(self.stands_for[0].rank)

    @property
    def high(self) -> int:
        """The value of a four's high end (14 for a high ace)."""
        card = self.stands_for[-1]
        return HIGH_ACE if card.rank is Rank.ACE else int(card.rank)

    def to_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "kind": self.kind,
            "arrangement": list(self.arrangement),
            "reasons": [reason.to_dict() for reason in self.reasons],
        }


def check_meld(
    cards: str | Iterable[Card], ruleset: Ruleset, kind: str | None = None, *, as_laid: bool = False
) -> MeldCheck:
    """Is ``cards`` a three or a four (``kind``), or either when ``kind`` is None?"""
    if kind == THREE:
        return check_three(cards, ruleset, as_laid=as_laid)
    if kind == FOUR:
        return check_four(cards, ruleset, as_laid=as_laid)
    if kind is not None:
        raise ValueError(f"a meld is a {THREE!r} or a {FOUR!r}, not {kind!r}")
    cards = as_cards(cards)
    three = check_three(cards, ruleset, as_laid=as_laid)
    if three.valid:
        return three
    four = check_four(cards, ruleset, as_laid=as_laid)
    if four.valid:
        return four
    reasons = tuple(dict.fromkeys(three.reasons + four.reasons))  # the deck's limit only once
    return MeldCheck(False, None, (), reasons, cards)


def deck_problems(cards: Iterable[Card], ruleset: Ruleset, where: str) -> tuple[Problem, ...]:
    """More copies of a card, or more jokers, in ``where`` than one deck holds (R1.2)."""
    return tuple(
        Problem(
            "R1.2",
            gettext_noop(
                "{count} {kind} in {where}, but the deck has only {most}",
                count=count,
                kind=kind_name(card),
                where=where,
                most=most_copies(card, ruleset),
            ),
        )
        for card, count in sorted(over_the_limit(cards, ruleset).items())
    )


# Threes (R3.1, R3.2): order never matters, so "as laid" only decides the order reported.


def check_three(
    cards: str | Iterable[Card], ruleset: Ruleset, *, as_laid: bool = True
) -> MeldCheck:
    cards = as_cards(cards)
    reasons = _three_problems(cards, ruleset)
    if reasons:
        return _refused(THREE, cards, reasons)
    if not as_laid:
        cards = tuple(sorted(cards, key=lambda card: card.is_joker))
    return MeldCheck(True, THREE, _texts(cards), (), cards)


def _three_problems(cards: tuple[Card, ...], ruleset: Ruleset) -> tuple[Problem, ...]:
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    ranks = sorted({card.rank for card in naturals})
    problems = [*deck_problems(cards, ruleset, "one meld")]
    if len(cards) < 3:
        problems.append(
            Problem(
                "R3.1",
                gettext_noop("a three needs at least 3 cards, not {count}", count=len(cards)),
            )
        )
    if len(ranks) > 1:
        labels = and_list(rank.label for rank in ranks)
        problems.append(
            Problem("R3.1", gettext_noop("a three is of one rank, not {labels}", labels=labels))
        )
    if ruleset.natural_threes and jokers:
        text = gettext_noop(
            "under this ruleset a three is natural cards only, with no joker; {cards} has {jokers}",
            cards=format_cards(cards),
            jokers=jokers,
        )
        problems.append(Problem("R13.5", text))
    elif len(naturals) < ruleset.min_naturals_in_three:
        least = ruleset.min_naturals_in_three
        text = gettext_noop(
            "a three needs at least {least} natural cards besides its jokers; {cards} has {count}",
            least=least,
            cards=format_cards(cards),
            count=len(naturals),
        )
        problems.append(Problem("R3.2", text))
    if ruleset.max_jokers_in_three is not None and jokers > ruleset.max_jokers_in_three:
        most = ruleset.max_jokers_in_three
        problems.append(
            Problem(
                "R3.2",
                gettext_noop("this ruleset allows at most {most} jokers in a three", most=most),
            )
        )
    return tuple(problems)


# Fours (R3.3 to R3.5).


def check_four(cards: str | Iterable[Card], ruleset: Ruleset, *, as_laid: bool = True) -> MeldCheck:
    cards = as_cards(cards)
    reasons = _four_card_problems(cards, ruleset)
    if reasons:
        return _refused(FOUR, cards, reasons)
    if as_laid:
        return _four_as_laid(cards, ruleset)
    return _four_from_hand(cards, ruleset)


def _four_card_problems(cards: tuple[Card, ...], ruleset: Ruleset) -> tuple[Problem, ...]:
    """What is wrong with these cards in any order: too few, mixed suits, a card twice."""
    naturals = [card for card in cards if not card.is_joker]
    suits = sorted({card.suit for card in naturals if card.suit is not None})
    problems = [*deck_problems(cards, ruleset, "one meld")]
    unsuited = [str(card) for card in naturals if card.suit is None]
    if unsuited:
        if len(unsuited) == 1:
            text = gettext_noop(
                "a four is of one suit, so each card needs its suit: {cards} has none "
                "(R3.3, R11.3)",
                cards=unsuited[0],
            )
        else:
            text = gettext_noop(
                "a four is of one suit, so each card needs its suit: {cards} have none "
                "(R3.3, R11.3)",
                cards=and_list(unsuited),
            )
        problems.append(Problem("R3.3", text))
    if len(cards) < 4:
        problems.append(
            Problem(
                "R3.3", gettext_noop("a four needs at least 4 cards, not {count}", count=len(cards))
            )
        )
    if len(suits) > 1:
        names = and_list(suit.name.lower() for suit in suits)
        problems.append(
            Problem("R3.3", gettext_noop("a four is of one suit, not {names}", names=names))
        )
    for card, copies in Counter(naturals).items():
        if copies > _copies_allowed(card, ruleset):
            problems.append(Problem("R3.5", _twice_message(card, copies, ruleset)))
    return tuple(problems)


def _copies_allowed(card: Card, ruleset: Ruleset) -> int:
    # R3.4 Interpretation: A-2-...-K-A is one four, so its ace may be there once low, once high.
    return 2 if card.rank is Rank.ACE and ruleset.aces_at_both_ends else 1


def _twice_message(card: Card, copies: int, ruleset: Ruleset) -> str:
    times = "twice" if copies == 2 else f"{copies} times"
    if card.rank is Rank.ACE and ruleset.aces_at_both_ends:
        return f"{card} appears {times}; a four holds an ace at most once at each end"
    return f"{card} appears {times}; a card cannot appear twice in one four"


def _four_as_laid(
    cards: tuple[Card, ...], ruleset: Ruleset, *, either_way: bool = True
) -> MeldCheck:
    reasons = _laid_order_problems(cards)
    if reasons:
        return _refused(FOUR, cards, reasons)
    start, reasons = _run_start(cards)
    if reasons and either_way:
        # The same run read from its high end is the same four.
        start_back, reasons_back = _run_start(cards[::-1])
        if not reasons_back:
            cards, start, reasons = cards[::-1], start_back, ()
    reasons = reasons or _range_problems(start, cards, ruleset)
    if reasons:
        return _refused(FOUR, cards, reasons)
    suit = next(card.suit for card in cards if card.suit is not None)
    stands_for = tuple(_card_at(start + place, suit) for place in range(len(cards)))
    return MeldCheck(True, FOUR, _texts(cards), (), cards, stands_for)


def _laid_order_problems(cards: tuple[Card, ...]) -> tuple[Problem, ...]:
    problems = []
    if any(a.is_joker and b.is_joker for a, b in pairwise(cards)):
        problems.append(Problem("R3.5", gettext_noop("two jokers side by side in a four")))
    inner = [place for place, card in enumerate(cards[1:-1], start=1) if card.rank is Rank.ACE]
    if inner and _only_jokers_beyond(cards, inner[0]):
        problems.append(Problem("R3.4", BEYOND_AN_ACE))
    elif inner:
        text = gettext_noop(
            "an ace can only be at an end of a four (A-2-3-4 or J-Q-K-A), never inside it"
        )
        problems.append(Problem("R3.4", text))
    return tuple(problems)


def _only_jokers_beyond(cards: tuple[Card, ...], place: int) -> bool:
    """Whether only jokers lie on one side of the ace at ``place`` (K-A-JK, JK-A-2-3)."""
    return all(c.is_joker for c in cards[place + 1 :]) or all(c.is_joker for c in cards[:place])


def _run_start(cards: tuple[Card, ...]) -> tuple[int, tuple[Problem, ...]]:
    """The value the run starts at, if every natural card sits at its place in one run."""
    start, anchor = 0, None
    for place, card in enumerate(cards):
        if card.is_joker:
            continue
        # Inner aces are refused before this, so an ace's place says whether it is low or high.
        value = (LOW_ACE if place == 0 else HIGH_ACE) if card.rank is Rank.ACE else int(card.rank)
        if anchor is not None and value - place != start:
            return 0, (
                Problem(
                    "R3.3",
                    gettext_noop(
                        "{anchor} then {card} is not a run of consecutive cards",
                        anchor=anchor,
                        card=card,
                    ),
                ),
            )
        start, anchor = value - place, card
    return start, ()


def _range_problems(start: int, cards: tuple[Card, ...], ruleset: Ruleset) -> tuple[Problem, ...]:
    high = start + len(cards) - 1
    if start < LOW_ACE:
        if cards[0].is_joker:
            return (Problem("R3.4", BEYOND_THE_LOW_ACE),)
        return (
            Problem(
                "R3.4",
                gettext_noop("a four starts at the ace at the lowest; nothing stands below it"),
            ),
        )
    if high > HIGH_ACE:
        if cards[-1].is_joker:
            return (Problem("R3.4", BEYOND_THE_HIGH_ACE),)
        return (
            Problem(
                "R3.4",
                gettext_noop("a four ends at the ace at the highest; nothing stands above it"),
            ),
        )
    if start == LOW_ACE and high == HIGH_ACE and not ruleset.aces_at_both_ends:
        return (
            Problem("R3.4", gettext_noop("this ruleset allows an ace at one end of a four only")),
        )
    return ()


def _four_from_hand(cards: tuple[Card, ...], ruleset: Ruleset) -> MeldCheck:
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    if not naturals:
        return _refused(
            FOUR, cards, (Problem("R3.5", gettext_noop("jokers alone would stand side by side")),)
        )
    suit = naturals[0].suit
    assert suit is not None
    tried: tuple[Problem, ...] = ()
    for values in _ace_readings(naturals):
        for run in _runs(values, jokers):
            laid = tuple(JOKER if value is None else _card_at(value, suit) for value in run)
            check = _four_as_laid(laid, ruleset, either_way=False)
            if check.valid:
                return check
            tried = tried or check.reasons
    return _refused(FOUR, cards, _hand_problems(naturals, jokers, suit, tried))


def _ace_readings(naturals: list[Card]) -> list[list[int]]:
    """The natural cards' values, sorted, for each way of reading their aces (low first)."""
    values = sorted(int(card.rank) for card in naturals if card.rank is not Rank.ACE)
    aces = len(naturals) - len(values)
    if aces == 0:
        return [values]
    if aces == 1:
        return [[LOW_ACE, *values], [*values, HIGH_ACE]]
    return [[LOW_ACE, *values, HIGH_ACE]]


def _runs(values: list[int], jokers: int) -> Iterator[list[int | None]]:
    """Runs the values make with the jokers (None), spare jokers at the high end first."""
    if any(b - a > 2 for a, b in pairwise(values)):
        return
    core: list[int | None] = [values[0]]
    for a, b in pairwise(values):
        core += [None, b] if b - a == 2 else [b]
    spare = jokers - core.count(None)
    if spare == 0:
        yield core
    elif spare == 1:
        yield [*core, None]
        yield [None, *core]
    elif spare == 2:
        yield [None, *core, None]


def _hand_problems(
    naturals: list[Card], jokers: int, suit: Suit, tried: tuple[Problem, ...]
) -> tuple[Problem, ...]:
    """Why no arrangement of these cards is a four, for the most hopeful reading of the aces."""
    if _turns_the_corner(naturals, jokers):
        text = gettext_noop(
            "an ace can only be at an end of a four: a run does not go from K through A to 2, "
            "so K-A-2-3 is not a four"
        )
        return (Problem("R3.4", text),)
    values = min(_ace_readings(naturals), key=lambda reading: reading[-1] - reading[0])
    missing = [_card_at(v, suit) for v in range(values[0], values[-1]) if v not in values]
    named = and_list(str(card) for card in missing)
    if len(missing) > jokers:
        text = gettext_noop(
            "not a run: {named} missing, and {jokers} to stand in",
            named=named,
            jokers=_jokers(jokers),
        )
        return (Problem("R3.3", text),)
    if any(b - a > 2 for a, b in pairwise(values)):
        return (
            Problem(
                "R3.5",
                gettext_noop("jokers standing for {named} would be side by side", named=named),
            ),
        )
    if tried:
        return tried
    return (
        Problem(
            "R3.5",
            gettext_noop(
                "{jokers} are too many for this run: two would touch", jokers=_jokers(jokers)
            ),
        ),
    )


def _turns_the_corner(naturals: list[Card], jokers: int) -> bool:
    """Would these cards make a run if it could go on from K through A to 2 (R3.4 forbids)?"""
    if not any(card.rank is Rank.ACE for card in naturals):
        return False
    values = [int(card.rank) for card in naturals if card.rank is not Rank.ACE]
    for pivot in range(2, 14):
        turned = sorted([HIGH_ACE, *(v + 13 if v < pivot else v for v in values)])
        inside = turned[0] < HIGH_ACE < turned[-1]
        if inside and _fills(turned, jokers):
            return True
    return False


def _fills(values: list[int], jokers: int) -> bool:
    gaps = [b - a for a, b in pairwise(values)]
    return all(1 <= gap <= 2 for gap in gaps) and gaps.count(2) <= jokers


def _card_at(value: int, suit: Suit) -> Card:
    return natural(Rank.ACE if value == HIGH_ACE else Rank(value), suit)


def _jokers(count: int) -> str:
    if count in (0, 1):
        return gettext_noop("no joker") if count == 0 else gettext_noop("1 joker")
    return gettext_noop("{count} jokers", count=count)


def _texts(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def _refused(kind: str, cards: tuple[Card, ...], reasons: tuple[Problem, ...]) -> MeldCheck:
    return MeldCheck(False, kind, _texts(cards), reasons, cards)
