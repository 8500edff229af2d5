"""What books the deck allows at a table (HF4.3) and the least their cards are worth (HF8.6).

A **red book** is seven naturals of one book kind; a **black book** seven cards of one book kind
with four to six naturals and one to three wild cards (HF4.1). Books hold more than seven cards
only by adding naturals (HF4.2), so seven is the least. The **supply** is how many cards of each
kind may be in books: the deck less the cards written in the players' hands and feet.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from .deck import BOOK_KINDS, WILD_KINDS, Kind

BOOK = 7  # HF4.1
BLACK_NATURALS = 4  # HF4.1: a black book holds at least four naturals...
BLACK_WILDS = 3  # ... and at most three wild cards


def books_fit(supply: Mapping[Kind, int], red: int, black: int) -> bool:
    """Whether ``red`` red and ``black`` black books can all be made from the supply (HF4.3)."""
    if red < 0 or black < 0:
        return False
    naturals = tuple(sorted(supply[kind] for kind in BOOK_KINDS))
    need = _fewest_wilds(naturals, red, black)
    return need is not None and need <= sum(supply[kind] for kind in WILD_KINDS)


def most_books(supply: Mapping[Kind, int], *, black: bool) -> int:
    """The most red (or black) books the supply makes, with no book of the other colour."""
    count = 0
    while books_fit(supply, 0 if black else count + 1, count + 1 if black else 0):
        count += 1
    return count


@lru_cache(maxsize=4096)
def _fewest_wilds(naturals: tuple[int, ...], red: int, black: int) -> int | None:
    """The fewest wild cards the books need, rank by rank (``naturals``: each rank's supply);
    None when the naturals cannot make them at all."""
    best = {(0, 0): 0}
    for supply in naturals:
        best = _add_rank(best, supply, red, black)
    return best.get((red, black))


def _add_rank(
    best: dict[tuple[int, int], int], supply: int, red: int, black: int
) -> dict[tuple[int, int], int]:
    step: dict[tuple[int, int], int] = {}
    for (reds, blacks), wilds in best.items():
        for more_red, more_black, more_wilds in _rank_options(supply):
            key = (reds + more_red, blacks + more_black)
            if key[0] <= red and key[1] <= black and wilds + more_wilds < step.get(key, 1 << 30):
                step[key] = wilds + more_wilds
    return step


@lru_cache(maxsize=64)
def _rank_options(supply: int) -> tuple[tuple[int, int, int], ...]:
    """Books one rank can make from ``supply`` naturals: (red, black, wild cards needed), black
    books taking up to six naturals each so that they need as few wild cards as can be."""
    options = []
    for red in range(supply // BOOK + 1):
        left = supply - BOOK * red
        for black in range(left // BLACK_NATURALS + 1):
            naturals = min((BOOK - 1) * black, left)
            options.append((red, black, BOOK * black - naturals))
    return tuple(options)


def least_worth(
    supply: Mapping[Kind, int], values: Mapping[Kind, int], red: int, black: int
) -> int | None:
    """The least that one team's books' own cards can count (HF8.6); None if the supply cannot
    hold them. A lower bound: it takes the cheapest cards of any book kinds, not of one rank."""
    naturals = sorted(v for kind in BOOK_KINDS for v in [values[kind]] * supply[kind])
    wilds = sorted(v for kind in WILD_KINDS for v in [values[kind]] * supply[kind])
    needed = BOOK * red + BLACK_NATURALS * black
    if needed > len(naturals) or black > len(wilds):
        return None
    # Each black book's last two cards may be naturals or wild cards, whichever are cheaper.
    either = sorted(naturals[needed:] + wilds[black:])[: (BOOK - BLACK_NATURALS - 1) * black]
    if len(either) < (BOOK - BLACK_NATURALS - 1) * black:
        return None
    return sum(naturals[:needed]) + sum(wilds[:black]) + sum(either)
