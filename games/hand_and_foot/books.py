"""What books the deck allows at a table (HF4.3) and the least their cards are worth (HF8.6).

A **red book** is seven naturals of one book kind; a **black book** seven cards of one book kind
with four to six naturals and one to three wild cards (HF4.1). Books hold more than seven cards
only by adding naturals (HF4.2), so seven is the least. The **supply** is how many cards of each
kind may be in books: the deck less the cards written in the players' hands and feet.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import accumulate

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
    hold them. Each book is seven cards of **one** rank (HF4.1), so the books are placed rank by
    rank: a rank's supply makes only so many books, however cheap its cards."""
    ranks = tuple(sorted((values[kind], supply[kind]) for kind in BOOK_KINDS))
    return _least_worth(ranks, _wild_values(supply, values), red, black)


def worth_within(
    supply: Mapping[Kind, int], values: Mapping[Kind, int], red: int, black: int, points: int
) -> bool:
    """Whether the books can be made of cards counting at most ``points`` (HF8.6): at once when
    placing them on the cheapest ranks first does it, else by ``least_worth``."""
    ranks = sorted((values[kind], supply[kind]) for kind in BOOK_KINDS)
    placed = _placed_cheapest_first(ranks, _wild_values(supply, values), red, black)
    if placed is not None and placed <= points:
        return True
    least = least_worth(supply, values, red, black)
    return least is not None and least <= points


def _wild_values(supply: Mapping[Kind, int], values: Mapping[Kind, int]) -> tuple[int, ...]:
    return tuple(sorted(v for kind in WILD_KINDS for v in [values[kind]] * supply[kind]))


def _placed_cheapest_first(
    ranks: list[tuple[int, int]], wilds: tuple[int, ...], red: int, black: int
) -> int | None:
    """What the books count when each takes the cheapest rank that still has room: red books
    first, then black books with as many naturals as they hold (a way to make them, so at
    least their least worth); None when that way does not place them all."""
    naturals, wild_count = 0, 0
    left = [supply for _, supply in ranks]
    for index, (value, _) in enumerate(ranks):
        books = min(red, left[index] // BOOK)
        red, left[index] = red - books, left[index] - BOOK * books
        naturals += value * BOOK * books
    for index, (value, _) in enumerate(ranks):
        books = min(black, left[index] // BLACK_NATURALS)
        held = min((BOOK - 1) * books, left[index])
        black, naturals, wild_count = (
            black - books,
            naturals + value * held,
            wild_count + BOOK * books - held,
        )
    if red or black or wild_count > len(wilds):
        return None
    return naturals + sum(wilds[:wild_count])


@lru_cache(maxsize=4096)
def _least_worth(
    ranks: tuple[tuple[int, int], ...], wilds: tuple[int, ...], red: int, black: int
) -> int | None:
    """``least_worth`` over ``ranks`` (each rank's card value and supply) and the wild cards'
    values, cheapest first. Rank by rank, each count of red and black books placed so far keeps
    the ways of placing them that no other way beats in both wild cards used and naturals' worth;
    the wild cards used are the cheapest, so the fewer the better."""
    most_wilds = min(len(wilds), BLACK_WILDS * black)
    best: dict[tuple[int, int], list[tuple[int, int]]] = {(0, 0): [(0, 0)]}
    for value, supply in ranks:
        cheaper_wild = bool(wilds) and wilds[0] < value
        step: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for (reds, blacks), ways in best.items():
            for more_red, more_black, naturals, more_wilds in _rank_uses(
                supply, red - reds, black - blacks, cheaper_wild
            ):
                placed = step.setdefault((reds + more_red, blacks + more_black), [])
                placed += [
                    (used + more_wilds, worth + value * naturals)
                    for used, worth in ways
                    if used + more_wilds <= most_wilds
                ]
        best = {key: _unbeaten(ways) for key, ways in step.items() if ways}
    totals = list(accumulate(wilds, initial=0))
    found = [worth + totals[used] for used, worth in best.get((red, black), [])]
    return min(found, default=None)


@lru_cache(maxsize=1024)
def _rank_uses(
    supply: int, red: int, black: int, cheaper_wild: bool
) -> tuple[tuple[int, int, int, int], ...]:
    """The books one rank can make from ``supply`` naturals, at most ``red`` and ``black`` of
    them: (red, black, naturals used, wild cards used). A black book holds four to six naturals
    (HF4.1); it holds fewer than it can only when a wild card is cheaper than one of them."""
    uses = []
    for reds in range(min(supply // BOOK, red) + 1):
        left = supply - BOOK * reds
        for blacks in range(min(left // BLACK_NATURALS, black) + 1):
            most = min((BOOK - 1) * blacks, left)
            least = BLACK_NATURALS * blacks if cheaper_wild else most
            uses += [
                (reds, blacks, BOOK * reds + held, BOOK * blacks - held)
                for held in range(least, most + 1)
            ]
    return tuple(uses)


def _unbeaten(ways: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (wild cards used, naturals' worth) pairs that no other pair beats in both."""
    kept: list[tuple[int, int]] = []
    for used, worth in sorted(ways):
        if not kept or worth < kept[-1][1]:
            kept.append((used, worth))
    return kept
