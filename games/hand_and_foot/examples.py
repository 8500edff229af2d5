"""Plausible entries of a hand, for demos, benchmarks and tests: played from a real deck.

An example **plays** a hand's end from one shuffled deck (HF1.1): the team that goes out (or no
one, a draw-pile end one time in five) makes the books going out needs and maybe one more of each,
the other team a few books or none; a team that has books or melds lays down at least the meld
minimum (HF3.5). Every card a team lays down, and every card left in a hand or a foot not played,
is taken from the same deck, so an example always passes the checks of HF8 (a draw-pile end
still gets HF8.8's warning). Hands and feet are entered as cards, or now and then as points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import DealReport, SideReport
from games.cards import JOKER, NATURALS, Card, format_cards

from .books import BLACK_NATURALS, BOOK
from .deck import BOOK_KINDS, STACK, Kind, kind_of
from .ruleset import Ruleset

MELD = 3  # HF3.2: the smallest meld


class Table:
    """The deck of one example hand, cards taken from it as the hand is played out."""

    def __init__(self, ruleset: Ruleset, rng: random.Random) -> None:
        self.ruleset = ruleset
        self.rng = rng
        packs = [card for card in NATURALS for _ in range(ruleset.decks)]
        self.stock = packs + [JOKER] * ruleset.jokers
        rng.shuffle(self.stock)

    def take(self, kinds: Mapping[Kind, int]) -> list[Card] | None:
        """Cards of the given kinds from the deck, or None (and nothing taken) if it lacks them."""
        found = {
            kind: [c for c in self.stock if kind_of(c) is kind][:n] for kind, n in kinds.items()
        }
        if any(len(found[kind]) < n for kind, n in kinds.items()):
            return None
        cards = [card for group in found.values() for card in group]
        for card in cards:
            self.stock.remove(card)
        return cards

    def deal(self, count: int, *, red_threes: bool = True) -> list[Card]:
        """The next ``count`` cards; without red threes for a hand, as players lay them aside
        when they can (a red three left in hand costs HF6.4's penalty)."""
        kept = [c for c in self.stock if red_threes or kind_of(c) is not Kind.RED_THREE][:count]
        for card in kept:
            self.stock.remove(card)
        return kept

    def value(self, cards: list[Card]) -> int:
        values = self.ruleset.card_values
        return sum(values[kind] for kind in map(kind_of, cards) if kind is not None)


def example_report(ruleset: Ruleset, number: int, rng: random.Random) -> DealReport:
    table = Table(ruleset, rng)
    out = None if rng.random() < 0.2 else (rng.randrange(2), rng.randrange(2))
    laid = [_lay_down(table, number, out is not None and out[0] == side) for side in (0, 1)]
    sides = tuple(
        SideReport(
            label=f"Team {side + 1}",
            values={"red_books": red, "black_books": black, "laid_down": points},
            members=tuple(_player(table, out == (side, member), points > 0) for member in (0, 1)),
        )
        for side, (red, black, points) in enumerate(laid)
    )
    return DealReport(number, sides)


def _lay_down(table: Table, number: int, going_out: bool) -> tuple[int, int, int]:
    """A team's books and the points of everything it laid down."""
    rules, rng = table.ruleset, table.rng
    if going_out:
        red = rules.red_books_to_go_out + rng.randint(0, 1)
        black = rules.black_books_to_go_out + rng.randint(0, 1)
    else:
        red, black = rng.choice(((0, 0), (0, 0), (1, 0), (0, 1), (1, 1), (2, 1)))
    made = {
        colour: _books(table, colour, count) for colour, count in (("red", red), ("black", black))
    }
    laid = [card for books in made.values() for book in books for card in book]
    if laid or going_out or rng.random() < 0.5:
        laid += _melds(table, rules.meld(number) - table.value(laid))
    return len(made["red"]), len(made["black"]), table.value(laid)


def _books(table: Table, colour: str, count: int) -> list[list[Card]]:
    """The cards of each book of one colour the deck still has the cards for."""
    books = (_book(table, colour) for _ in range(count))
    return [book for book in books if book]


def _book(table: Table, colour: str) -> list[Card] | None:
    kinds = list(BOOK_KINDS)
    table.rng.shuffle(kinds)
    for kind in kinds:
        naturals = BOOK if colour == "red" else BLACK_NATURALS + 1
        wanted = {kind: naturals} | ({} if colour == "red" else _wilds(table, BOOK - naturals))
        cards = table.take(wanted)
        if cards:
            return cards
    return None


def _wilds(table: Table, count: int) -> dict[Kind, int]:
    jokers = min(count, sum(1 for card in table.stock if card is JOKER), table.rng.randint(0, 1))
    return {Kind.JOKER: jokers, Kind.TWO: count - jokers} if jokers else {Kind.TWO: count}


def _melds(table: Table, short: int) -> list[Card]:
    """Melds of three naturals, dearest first, until the team reaches its meld minimum."""
    laid: list[Card] = []
    kinds = sorted(BOOK_KINDS, key=lambda kind: -table.ruleset.card_values[kind])
    while short > 0 or not laid:
        cards = next(filter(None, (table.take({kind: MELD}) for kind in kinds)), None)
        if cards is None:
            break
        laid += cards
        short -= table.value(cards)
    return laid


def _player(table: Table, went_out: bool, melded: bool) -> dict[str, Any]:
    rng = table.rng
    if went_out:
        return {"went_out": True, "hand": "", "foot_played": True}
    player: dict[str, Any] = {"foot_played": melded and rng.random() < 0.7}
    _enter(table, player, "hand", table.deal(rng.randint(1, 9), red_threes=rng.random() < 0.1))
    if not player["foot_played"]:
        _enter(table, player, "foot", table.deal(STACK))
    if rng.random() < 0.15:
        player["dealt_26"] = True
    if not melded and rng.random() < 0.1:
        player["failed_melds"] = 1
    return player


def _enter(table: Table, player: dict[str, Any], name: str, cards: list[Card]) -> None:
    """A hand or foot as cards, or one time in four as points (with its red threes counted)."""
    if table.rng.random() < 0.75:
        player[name] = format_cards(cards)
        return
    kinds = [kind_of(card) for card in cards]
    player[f"{name}_points"] = table.value([c for c in cards if kind_of(c) is not Kind.RED_THREE])
    threes = kinds.count(Kind.RED_THREE)
    if threes:
        player["red_threes"] = player.get("red_threes", 0) + threes
