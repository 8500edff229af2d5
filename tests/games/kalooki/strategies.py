"""Hypothesis strategies for the rules tests: cards, deals from a real deck, game reports, fours.

A **deal** takes cards from one shuffled 162-card deck (R1.2), so whatever it produces is a table
that could really happen. A **game report** made here is always valid (no R10 error): exactly one
player goes out, the others hold 1 to ``dealt + 2 × calls`` cards from the same deck, entered as
cards or as their point total, and an overcall penalty only with more than 3 calls.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.kalooki import (
    ASAJ_2025,
    JOKER,
    Card,
    GameReport,
    HandReport,
    Rank,
    Ruleset,
    Suit,
    deck,
    format_cards,
    hand_points,
)
from games.kalooki.cards import NATURALS, natural
from games.kalooki.melds import HIGH_ACE

SETTINGS = {"max_examples": 120, "deadline": None}

cards = st.sampled_from((*NATURALS, JOKER))
card_lists = st.lists(cards, max_size=25)


@st.composite
def laid_fours(draw: st.DrawFn) -> list[Card]:
    """A valid four as laid: a run of one suit with some places, never two side by side, jokers."""
    suit = draw(st.sampled_from(Suit))
    length = draw(st.integers(4, 14))
    start = draw(st.integers(1, HIGH_ACE - length + 1))
    values = range(start, start + length)
    run = [natural(Rank.ACE if value == HIGH_ACE else Rank(value), suit) for value in values]
    for place in sorted(draw(st.sets(st.integers(0, length - 1)))):
        # R1.2: one deck holds six jokers, so no four on the table holds more.
        if JOKER not in run[max(place - 1, 0) : place + 2] and run.count(JOKER) < 6:
            run[place] = JOKER
    return run


@st.composite
def shuffled_decks(draw: st.DrawFn, ruleset: Ruleset = ASAJ_2025) -> list[Card]:
    shuffler = draw(st.randoms(use_true_random=False))
    cards_of_deck = list(deck(ruleset))
    shuffler.shuffle(cards_of_deck)
    return cards_of_deck


@st.composite
def game_entries(
    draw: st.DrawFn, ruleset: Ruleset = ASAJ_2025, *, down_and_out: bool | None = None
) -> GameReport:
    spec = ruleset.game(draw(st.integers(1, len(ruleset.games))))
    players = draw(st.integers(ruleset.min_table_size, ruleset.max_table_size))
    winner = draw(st.integers(0, players - 1))
    stock = draw(shuffled_decks(ruleset))
    hands = tuple(
        _went_out_hand(draw, f"Player {seat}")
        if seat == winner
        else _holding_hand(draw, f"Player {seat}", spec.dealt, stock, ruleset)
        for seat in range(players)
    )
    if down_and_out is None:
        down_and_out = draw(st.booleans())
    return GameReport(spec.number, hands, down_and_out=down_and_out)


def _went_out_hand(draw: st.DrawFn, player: str) -> HandReport:
    return HandReport(
        player,
        went_out=True,
        cards=draw(st.sampled_from(["", None])),
        failed_come_downs=draw(st.integers(0, 1)),
    )


def _holding_hand(
    draw: st.DrawFn, player: str, dealt: int, stock: list[Card], ruleset: Ruleset
) -> HandReport:
    calls = draw(st.integers(0, ruleset.call_limit + 1))
    held = [stock.pop() for _ in range(draw(st.integers(1, dealt + 2 * calls)))]
    as_points = draw(st.booleans())
    return HandReport(
        player,
        cards=None if as_points else format_cards(held),
        points=hand_points(held, ruleset) if as_points else None,
        calls=draw(st.sampled_from([calls, None])) if calls <= ruleset.call_limit else calls,
        failed_come_downs=draw(st.integers(0, 2)),
        overcall_penalty=calls > ruleset.call_limit,
        adjustment=draw(st.integers(-20, 20)),
    )


def spellings(card: Card, chooser: random.Random) -> str:
    """One of the ways R11 lets a person write ``card``, in any case."""
    if card.is_joker:
        return chooser.choice(["JK", "jk", "Jk", "*", "🃏", "joker"])
    rank = card.rank.label
    if rank == "10":
        rank = chooser.choice(["10", "T", "t"])
    assert card.suit is not None
    suit = chooser.choice([card.suit.letter, card.suit.letter.lower(), card.suit.symbol])
    text = chooser.choice([rank + suit, suit + rank])
    return text.lower() if chooser.random() < 0.3 else text
