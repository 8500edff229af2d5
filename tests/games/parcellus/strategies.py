"""Hypothesis strategies: deals that obey every PA6 check, and matches of them.

A **deal** here is three rows ``(cards, parcels, jack)``: parcels adding up to six, each player
with at least one card a parcel and at most twelve, no cards without a parcel, 24 cards at most
in all, and the J♥ with at most one player who has cards (someone, when all 24 were captured).
"""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from games.parcellus.reports import Capture

SPLITS = [split for split in itertools.product(range(7), repeat=3) if sum(split) == 6]


@st.composite
def captures(draw: st.DrawFn) -> tuple[Capture, ...]:
    parcels = draw(st.sampled_from(SPLITS))
    room = 24 - 6  # cards beyond the one that starts each parcel
    cards = []
    for count in parcels:
        extra = draw(st.integers(0, min(room, 11 * count)))
        room -= extra
        cards.append(count + extra)
    holders = [seat for seat, count in enumerate(cards) if count]
    jack = draw(st.sampled_from(holders if sum(cards) == 24 else [None, *holders]))
    return tuple(
        Capture(count, split, seat == jack)
        for seat, (count, split) in enumerate(zip(cards, parcels, strict=True))
    )


def rows(deal: tuple[Capture, ...]) -> tuple[tuple[object, ...], ...]:
    """A deal as the rows of ``helpers.entry``."""
    return tuple(
        (capture.cards, capture.parcels, *(["J♥"] if capture.jack_of_hearts else []))
        for capture in deal
    )
