"""Dispute checks a director can run at a Hand and Foot table.

``book``: are these cards a red or a black book (HF4.1)? ``meld``: do these melds, separated by
``/``, make an opening meld of hand N (HF3.1, HF3.2)? ``count``: what do these cards count, laid
down or left in hand (HF6, HF7)? Each takes card text (HF9) and answers with its errors, citing
the rule, and the numbers behind them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from games.base import Problem, RulesError, Tool, ToolAnswer, gettext_noop
from games.cards import parse_cards

from .books import BLACK_WILDS, BOOK
from .deck import Kind, kind_of
from .entry import MOST_TEXT
from .ruleset import Ruleset

MELD = 3  # HF3.2 Interpretation: the smallest meld
TOOLS = (
    Tool("book", "Book", "Whether cards make a red or a black book (HF4.1), and what it scores."),
    Tool(
        "meld",
        "Opening meld",
        "Whether melds, separated by '/', make the opening meld of a hand (HF3.1, HF3.2).",
    ),
    Tool("count", "Count", "What cards count, laid down or left in hand (HF6, HF7)."),
)
_MELD_SEPARATOR = re.compile(r"[/|;\n]")


def check(tool: str, request: Mapping[str, Any], ruleset: Ruleset) -> ToolAnswer:
    handler = _HANDLERS.get(tool) if isinstance(tool, str) else None
    if handler is None:
        raise RulesError(
            Problem("", gettext_noop("Hand and Foot has no check called {tool}", tool=repr(tool)))
        )
    if not isinstance(request, Mapping):
        return ToolAnswer(
            False, (Problem("HF9", gettext_noop("a check takes an object with its cards")),)
        )
    try:
        return handler(request, ruleset)
    except RulesError as error:
        return ToolAnswer(False, (error.problem,))


def _kinds(text: Any) -> list[Kind]:
    """The kinds of the cards written in ``text``; a ``RulesError`` (HF9) if it does not read."""
    if not isinstance(text, str) or len(text) > MOST_TEXT:
        raise RulesError(
            Problem(
                "HF9", gettext_noop("the cards are card text, like 'KS KH 2C JK'"), field="cards"
            )
        )
    try:
        cards = parse_cards(text, rule="HF9")
    except RulesError as error:
        raise RulesError(Problem("HF9", error.problem.message, field="cards")) from error
    kinds = [kind_of(card) for card in cards]
    if None in kinds:
        raise RulesError(
            Problem("HF9", gettext_noop("write a three with its colour: 3H red, 3S black"))
        )
    return [kind for kind in kinds if kind is not None]


def _book(request: Mapping[str, Any], ruleset: Ruleset) -> ToolAnswer:
    kinds = _kinds(request.get("cards"))
    errors = _book_errors(kinds)
    if errors:
        return ToolAnswer(False, tuple(errors), {"cards": len(kinds)})
    red = not any(kind.is_wild for kind in kinds)
    detail = {
        "colour": "red" if red else "black",
        "rank": next(kind.value for kind in kinds if not kind.is_wild),
        "cards": len(kinds),
        "points": sum(ruleset.card_values[kind] for kind in kinds),
        "bonus": ruleset.red_book_points if red else ruleset.black_book_points,
    }
    return ToolAnswer(True, (), detail)


def _book_errors(kinds: list[Kind]) -> list[Problem]:
    if len(kinds) < BOOK:
        return [
            Problem(
                "HF4.1",
                gettext_noop("a book is seven cards or more, not {count}", count=len(kinds)),
            )
        ]
    return _meld_errors(kinds, "a book")


def _meld_errors(kinds: list[Kind], what: str) -> list[Problem]:
    naturals = {kind for kind in kinds if not kind.is_wild}
    wilds = sum(kind.is_wild for kind in kinds)
    if not naturals:
        return [Problem("HF4.1", gettext_noop("{what} is never made of wild cards", what=what))]
    if any(kind.is_threes for kind in naturals):
        return [
            Problem(
                "HF3.4",
                gettext_noop(
                    "threes are never melded: {what} is of a rank from four to ace", what=what
                ),
            )
        ]
    if len(naturals) > 1:
        return [
            Problem(
                "HF4.1",
                gettext_noop(
                    "{what} is of one rank, not of {count}", what=what, count=len(naturals)
                ),
            )
        ]
    if wilds >= len(kinds) - wilds:
        return [
            Problem(
                "HF3.2", gettext_noop("{what} holds more natural cards than wild cards", what=what)
            )
        ]
    if wilds > BLACK_WILDS:
        return [
            Problem(
                "HF4.1",
                gettext_noop(
                    "{what} holds at most {black_wilds} wild cards, not {wilds}",
                    what=what,
                    black_wilds=BLACK_WILDS,
                    wilds=wilds,
                ),
            )
        ]
    return []


def _meld(request: Mapping[str, Any], ruleset: Ruleset) -> ToolAnswer:
    number = request.get("hand", 1)
    if type(number) is not int or not 1 <= number <= ruleset.hands:
        problem = Problem(
            "HF2.1",
            gettext_noop(
                "there is no hand {number}: hands 1 to {hands}",
                number=repr(number),
                hands=ruleset.hands,
            ),
        )
        return ToolAnswer(False, (problem,))
    text = request.get("cards")
    parts = _MELD_SEPARATOR.split(text) if isinstance(text, str) else [text]
    melds = [_kinds(part) for part in parts if not isinstance(part, str) or part.strip()]
    errors = [p for index, meld in enumerate(melds) for p in _one_meld(meld, index + 1)]
    points = sum(ruleset.card_values[kind] for meld in melds for kind in meld)
    minimum = ruleset.meld(number)
    if points < minimum:
        message = gettext_noop(
            "the melds count {points}, less than hand {number}'s minimum of {minimum}",
            points=points,
            number=number,
            minimum=minimum,
        )
        errors.append(Problem("HF3.1", message))
    detail = {"points": points, "minimum": minimum, "melds": len(melds)}
    return ToolAnswer(not errors, tuple(errors), detail)


def _one_meld(kinds: list[Kind], number: int) -> list[Problem]:
    if len(kinds) < MELD:
        return [
            Problem(
                "HF3.2",
                gettext_noop(
                    "meld {number} has {count} cards; a meld has three or more",
                    number=number,
                    count=len(kinds),
                ),
            )
        ]
    return _meld_errors(kinds, f"meld {number}")


def _count(request: Mapping[str, Any], ruleset: Ruleset) -> ToolAnswer:
    kinds = _kinds(request.get("cards"))
    in_hand = request.get("in_hand", True)
    if not isinstance(in_hand, bool):
        return ToolAnswer(False, (Problem("HF6.3", gettext_noop("in_hand is true or false")),))
    threes = kinds.count(Kind.RED_THREE)
    if in_hand:
        points = -ruleset.deck.hand_value(kinds) - threes * ruleset.red_three_penalty
    else:
        points = sum(ruleset.card_values[kind] for kind in kinds)
    return ToolAnswer(True, (), {"points": points, "cards": len(kinds), "red_threes": threes})


_HANDLERS: dict[str, Callable[[Mapping[str, Any], Ruleset], ToolAnswer]] = {
    "book": _book,
    "meld": _meld,
    "count": _count,
}
