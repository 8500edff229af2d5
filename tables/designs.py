"""Designs: seatings of whole events in which no two players meet twice, built from mathematics.

Plain Python, no Django: `tables.seating` starts its search from the design that fits a field.

Terms
- point: a player of a design, numbered 0..players-1.
- design: rounds of tables of one size in which every point sits once a round and no two points
  share a table twice (the social golfer problem's "no pair plays together twice"; CSPLib
  prob010). A design of n points in tables of k for r rounds is the problem's instance
  (n/k)-k-r. Every construction here is checked by `Design.__post_init__`.
- resolvable: a design whose blocks split into rounds (parallel classes) that each seat every
  point once, which is what a round of a tournament needs.
- GF(q): the finite field of q = p^m elements (p prime), the arithmetic of the constructions.

The constructions
- Affine geometry AG(n, q) (`affine_lines`): the points are the vectors of GF(q)^n, the tables
  the lines, a round the lines of one direction. n = 2 is the affine plane: q² players in tables
  of q for q + 1 rounds, everyone meeting everyone exactly once (16 in fours, 25 in fives, 9 in
  threes); AG(3, 3) seats 27 in threes for 13 rounds.
- Resolvable transversal design RTD(k, g) (`transversal`): k groups of g players; each table
  takes one player of each group, and players of one group never meet. Over GF(g) (g a prime
  power, k <= g) the table of round m and number b is {(i, b + m·e_i)}: g rounds, every pair of
  groups meeting once (40 in fives for 8 rounds over GF(8)). Otherwise the rounds come from a
  difference array over the integers mod g: a row a_t per round, the table of round t and number
  b being {(i, b + a_t[i])}; no pair meets twice exactly when, for every two groups i and j, the
  differences a_t[j] - a_t[i] differ from round to round (100 in fives for 8 rounds over Z_20).
- Kirkman triple system (`kirkman`): v points in tables of three, every pair meeting once over
  (v - 1)/2 rounds (Kirkman's schoolgirls: 15 in threes for 7 rounds; 21 in threes for 10).
  Built from a symmetry: 15 and 21 as points (x, level) with x in Z_7, adding 1 to x turning one
  base round into the next (and, for 21, three rounds that it leaves unchanged); 9 and 27
  1-rotationally over Z_(v-1) and a fixed point ∞ (a larger v where the search finds a base
  round within its budget: 33 needs more than it has). The base rounds are found by a short
  exhaustive search over the pair conditions (every orbit of pairs held by one table).
- Doubled flats (`doubled_flats`): 32 in fours for 10 rounds, the instance 8-4-10 of the social
  golfer problem. The 2-flats (planes) of AG(4, 2) in the ten directions of two disjoint spreads
  of PG(3, 2) cover every difference of GF(2)^4 twice; each point is doubled into two players,
  and each flat into two tables that lift its four points complementarily. Two players meet at
  most once exactly when the lifts solve a linear system over GF(2) (one equation per pair of
  points), which Gaussian elimination solves.
- Round robin (`round_robin`): tables of two (teams of Hand and Foot, HF11.1), the circle method:
  n - 1 rounds in which every two sides meet once.

`design_for(points, size, rounds)` names the best design of `points` players in tables of `size`
for `rounds` rounds (the most of them without a repeat, then the fewest rounds beyond);
`independent_points` lists players of a design who never share a table, so that a field a few
players short of a design drops them and keeps its tables at most one short with no repeat.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# A search that finds nothing within this many steps gives up: the seating then starts from a
# smaller design or from the greedy start, never from a long wait.
_SEARCH_STEPS = 40_000


class DesignError(ValueError):
    """A construction asked for parameters it does not cover, or produced a faulty design."""


@dataclass(frozen=True)
class Design:
    """Rounds of tables of `size` points in which no two points sit together twice."""

    name: str  # what it is, in words: "affine plane AG(2, 5)"
    key: str  # a short stable name, stored with a round that follows the design: "ag:2:5"
    points: int
    size: int
    rounds: tuple[tuple[tuple[int, ...], ...], ...]

    def __post_init__(self) -> None:
        _check(self)

    def pairs(self, rounds: int | None = None) -> set[frozenset[int]]:
        """The pairs of points that share a table in the first `rounds` rounds (all by default)."""
        met: set[frozenset[int]] = set()
        for seating in self.rounds[:rounds]:
            for table in seating:
                met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
        return met


def _check(design: Design) -> None:
    """Refuse a design that seats a point twice in a round, has a table of the wrong size, or
    lets two points meet twice: the constructions are mathematics, but a typo is not."""
    met: set[frozenset[int]] = set()
    everyone = list(range(design.points))
    for number, seating in enumerate(design.rounds, start=1):
        if sorted(point for table in seating for point in table) != everyone:
            raise DesignError(f"{design.name}: round {number} does not seat every point once")
        for table in seating:
            if len(table) != design.size:
                raise DesignError(f"{design.name}: round {number} has a table of {len(table)}")
            for pair in itertools.combinations(table, 2):
                key = frozenset(pair)
                if key in met:
                    raise DesignError(f"{design.name}: points {sorted(key)} meet twice")
                met.add(key)


def _design(name: str, key: str, size: int, rounds: Iterable[Iterable[Iterable[int]]]) -> Design:
    frozen = tuple(tuple(tuple(table) for table in seating) for seating in rounds)
    points = sum(len(table) for table in frozen[0]) if frozen else 0
    return Design(name, key, points, size, frozen)


# --- finite fields -----------------------------------------------------------------------------


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, m) when q = p^m for a prime p, else None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)  # the least divisor is prime
    m, rest = 0, q
    while rest % p == 0:
        rest //= p
        m += 1
    return (p, m) if rest == 1 else None


@dataclass(frozen=True)
class Field:
    """GF(q): elements 0..q-1, each the base-p digits of a polynomial's coefficients (so that 0
    and 1 are the field's zero and one, and for a prime q the arithmetic is mod q)."""

    order: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]

    def neg(self, x: int) -> int:
        return self.add[x].index(0)


@functools.cache
def galois_field(q: int) -> Field:
    """GF(q) by a primitive polynomial: x generates every nonzero element, so its powers give
    the multiplication (exponents add) and the base-p digits the addition."""
    found = prime_power(q)
    if found is None:
        raise DesignError(f"There is no field of {q} elements: {q} is not a prime power.")
    p, m = found
    add = tuple(tuple(_add_digits(a, b, p, m) for b in range(q)) for a in range(q))
    powers = _powers_of_x(p, m)
    log = {element: exponent for exponent, element in enumerate(powers)}
    mul = tuple(
        tuple(0 if 0 in (a, b) else powers[(log[a] + log[b]) % (q - 1)] for b in range(q))
        for a in range(q)
    )
    return Field(q, add, mul)


def _add_digits(a: int, b: int, p: int, m: int) -> int:
    total, place = 0, 1
    for _ in range(m):
        total += ((a // place + b // place) % p) * place
        place *= p
    return total


def _powers_of_x(p: int, m: int) -> list[int]:
    """1, x, x², ... modulo the first monic polynomial of degree m over GF(p) of which x is a
    primitive element (its powers reach all p^m - 1 nonzero elements)."""
    q = p**m
    if m == 1:
        root = next(g for g in range(1, p) if len({pow(g, e, p) for e in range(p - 1)}) == p - 1)
        return [pow(root, e, p) for e in range(p - 1)]
    for low in range(1, q):  # the coefficients of x^0..x^(m-1); a zero constant is reducible
        coefficients = [(low // p**i) % p for i in range(m)]
        powers, element = [], [1] + [0] * (m - 1)
        for _ in range(q - 1):
            powers.append(sum(c * p**i for i, c in enumerate(element)))
            element = _times_x(element, coefficients, p)
        if len(set(powers)) == q - 1:
            return powers
    raise DesignError(f"No primitive polynomial of degree {m} over GF({p}).")  # pragma: no cover


def _times_x(element: list[int], coefficients: list[int], p: int) -> list[int]:
    """element · x modulo x^m + coefficients (so x^m = -coefficients)."""
    top = element[-1]
    shifted = [0, *element[:-1]]
    return [(s - top * c) % p for s, c in zip(shifted, coefficients, strict=True)]


# --- affine geometry ---------------------------------------------------------------------------


@functools.cache
def affine_lines(q: int, dimension: int = 2) -> Design:
    """The lines of AG(dimension, q): q^dimension points, tables of q, one round per direction."""
    field = galois_field(q)
    points = q**dimension
    vectors = [_digits(x, q, dimension) for x in range(points)]
    rounds = []
    for direction in _directions(q, dimension):
        seen: set[int] = set()
        seating = []
        for x in range(points):
            if x in seen:
                continue
            line = [_vector_index(_along(field, vectors[x], direction, t), q) for t in range(q)]
            seen.update(line)
            seating.append(line)
        rounds.append(seating)
    name = "affine plane" if dimension == 2 else "affine geometry"
    return _design(f"{name} AG({dimension}, {q})", f"ag:{dimension}:{q}", q, rounds)


def _digits(x: int, base: int, count: int) -> list[int]:
    return [(x // base**i) % base for i in range(count)]


def _vector_index(vector: Sequence[int], q: int) -> int:
    return sum(v * q**i for i, v in enumerate(vector))


def _directions(q: int, dimension: int) -> list[list[int]]:
    """One vector of each 1-dimensional subspace: its last nonzero coordinate is 1."""
    found = []
    for x in range(1, q**dimension):
        vector = _digits(x, q, dimension)
        if [v for v in vector if v][-1] == 1:
            found.append(vector)
    return found


def _along(field: Field, point: Sequence[int], direction: Sequence[int], t: int) -> list[int]:
    return [field.add[p][field.mul[t][d]] for p, d in zip(point, direction, strict=True)]


# --- transversal designs -----------------------------------------------------------------------


@functools.cache
def transversal(size: int, groups: int, rounds: int | None = None) -> Design | None:
    """RTD(size, groups): `size` groups of `groups` points, tables taking one point of each group.

    Over GF(groups) when it is a field (and size <= groups): all `groups` rounds. Otherwise a
    difference array over the integers mod `groups` for as many rounds (up to `rounds`, at most
    `groups`) as a short search finds; None when not even two rounds can be found, as when
    size > groups (a second round would need `size` different differences mod `groups`).
    """
    if size < 2 or size > groups:
        return None  # two rounds already need `size` different differences mod `groups`
    if prime_power(groups):
        field = galois_field(groups)
        rows = [[field.mul[m][i] for i in range(size)] for m in range(groups)]
        add = field.add
        name = f"resolvable transversal design RTD({size}, {groups}) over GF({groups})"
        key = f"rtd:{size}:{groups}"
    else:
        rows = _difference_array(size, groups, min(rounds or groups, groups))
        if len(rows) < 2:
            return None
        add = tuple(tuple((a + b) % groups for b in range(groups)) for a in range(groups))
        name = f"resolvable transversal design RTD({size}, {groups}) over Z_{groups}"
        key = f"rtdz:{size}:{groups}:{len(rows)}"
    seatings = [
        [[i * groups + add[b][row[i]] for i in range(size)] for b in range(groups)] for row in rows
    ]
    return _design(name, key, size, seatings)


def _difference_array(size: int, groups: int, rounds: int) -> list[list[int]]:
    """Rows a_0..a_(r-1) over Z_groups, a_t[0] = 0, such that for every two columns i < j the
    differences a_t[j] - a_t[i] are distinct over t: the rows of the most rounds (at most
    `rounds`) found column by column, each column by a depth-first search, within a step budget.
    """
    for count in range(rounds, 1, -1):
        columns = _columns(size, groups, count)
        if columns is not None:
            return [[column[t] for column in columns] for t in range(count)]
    return []


def _columns(size: int, groups: int, count: int) -> list[list[int]] | None:
    columns: list[list[int]] = [[0] * count]
    steps = [0]
    while len(columns) < size:
        column = _next_column(columns, groups, count, steps)
        if column is None:
            return None
        columns.append(column)
    return columns


def _next_column(
    columns: list[list[int]], groups: int, count: int, steps: list[int]
) -> list[int] | None:
    """A column whose difference from every earlier column takes distinct values."""
    used: list[set[int]] = [set() for _ in columns]
    column: list[int] = []

    def extend() -> bool:
        steps[0] += 1
        if steps[0] > _SEARCH_STEPS:
            return False
        t = len(column)
        if t == count:
            return True
        for value in range(groups):
            differences = [(value - other[t]) % groups for other in columns]
            if any(d in seen for d, seen in zip(differences, used, strict=True)):
                continue
            for d, seen in zip(differences, used, strict=True):
                seen.add(d)
            column.append(value)
            if extend():
                return True
            column.pop()
            for d, seen in zip(differences, used, strict=True):
                seen.discard(d)
        return False

    return column if extend() else None


# --- Kirkman triple systems --------------------------------------------------------------------


@functools.cache
def kirkman(points: int) -> Design | None:
    """A Kirkman triple system: `points` players in tables of three, every pair meeting exactly
    once over (points - 1)/2 rounds; None when none is built here for that number.

    15 and 21 are cyclic over Z_7 (see `_cyclic_kirkman`); 9, 27 and 33 are 1-rotational
    (`one_rotational`); AG(2, 3) and AG(3, 3) seat 9 and 27 as well.
    """
    if points == 15:
        return _cyclic_kirkman(7, levels=2, fixed=1, invariant=0)
    if points == 21:
        return _cyclic_kirkman(7, levels=3, fixed=0, invariant=3)
    return one_rotational(points)


def _cyclic_kirkman(n: int, *, levels: int, fixed: int, invariant: int) -> Design | None:
    """Points (x, i) = i·n + x for x in Z_n and `levels` levels i, and `fixed` points after them
    (at most one level's worth); adding 1 to every x (τ) is a symmetry. So is μ: (x, i) ->
    (2x, i + 1) when there are three levels (2 has order 3 mod 7), which τ and μ together make a
    group that cuts the search short. A pair's orbit under τ is its class: the two levels and the
    difference of the x's (up to sign within one level), or a fixed point and a level.

    `invariant` rounds are left as they are by τ, each the n tables {(x, 0), (x + a, 1),
    (x + b, 2)}: μ turns one of them into the others. A base round, left as it is by μ, turned
    by τ into n rounds gives the rest. Every pair meets once when each class is held by exactly
    one table pair: a short search finds (a, b) and the base round's tables."""
    finite = levels * n
    turn = _turn(n, levels, fixed)
    for a, b in itertools.product(range(n), repeat=2) if invariant else [(0, 0)]:
        shapes = _invariant_rounds(n, a, b, turn) if invariant else []
        if invariant and (shapes is None or len(shapes) != invariant):
            continue
        used = {
            _pair_class(p, q, n, finite)
            for seating in shapes or []
            for table in seating[:1]
            for p, q in itertools.combinations(table, 2)
        }
        if len(used) != 3 * invariant:
            continue
        base = _symmetric_base_round(n, finite + fixed, finite, used, turn)
        if base is None:
            continue
        rounds = [*(shapes or [])]
        for t in range(n):
            rounds.append([[_shift(p, t, n, finite) for p in table] for table in base])
        points = finite + fixed
        name = f"Kirkman triple system of {points}, cyclic over Z_{n}"
        try:
            return _design(name, f"kts:{points}", 3, rounds)
        except DesignError:  # pragma: no cover - the class conditions are the proof
            return None
    return None


def _shift(point: int, t: int, n: int, finite: int) -> int:
    """τ^t: add t to the point's x (fixed points stay)."""
    return point if point >= finite else (point // n) * n + (point % n + t) % n


def _turn(n: int, levels: int, fixed: int) -> list[int] | None:
    """μ as a permutation of the points, where it is a symmetry (three levels, n = 7)."""
    if levels != 3 or n != 7 or fixed:
        return None
    return [((i + 1) % 3) * n + (2 * x) % n for i in range(3) for x in range(n)]


def _invariant_rounds(n: int, a: int, b: int, turn: list[int] | None) -> list[list[list[int]]]:
    """The round {(x, 0), (x + a, 1), (x + b, 2)} and its images under μ."""
    first = [[x, n + (x + a) % n, 2 * n + (x + b) % n] for x in range(n)]
    rounds = [first]
    while turn is not None:
        image = [sorted(turn[p] for p in table) for table in rounds[-1]]
        if sorted(map(sorted, image)) == sorted(map(sorted, first)):
            break
        rounds.append(image)
    return rounds


def _pair_class(a: int, b: int, n: int, finite: int) -> tuple[int, ...]:
    if a > b:
        a, b = b, a
    if b >= finite:
        return (-1, b - finite, a // n)
    (i, x), (j, y) = divmod(a, n), divmod(b, n)
    d = (y - x) % n
    return (i, j, min(d, n - d) if i == j else d)


def _symmetric_base_round(
    n: int, points: int, finite: int, used: set[tuple[int, ...]], turn: list[int] | None
) -> list[list[int]] | None:
    """Tables of three covering every point once, each pair's class new and distinct, chosen a
    μ-orbit of tables at a time (a single table where there is no μ)."""
    free = set(range(points))
    tables: list[list[int]] = []
    steps = [0]

    def orbit(table: list[int]) -> list[list[int]]:
        copies = [table]
        while turn is not None:
            image = sorted(turn[p] for p in copies[-1])
            if image == sorted(table):
                break
            copies.append(image)
        return copies

    def fill() -> bool:
        if not free:
            return True
        first = min(free)
        for rest in itertools.combinations(sorted(free - {first}), 2):
            steps[0] += 1
            if steps[0] > _SEARCH_STEPS:
                return False
            copies = orbit([first, *rest])
            seats = [p for copy in copies for p in copy]
            if len(set(seats)) != len(seats) or not free.issuperset(seats):
                continue
            classes = [
                _pair_class(p, q, n, finite)
                for copy in copies
                for p, q in itertools.combinations(copy, 2)
            ]
            if len(set(classes)) != len(classes) or used.intersection(classes):
                continue
            free.difference_update(seats)
            used.update(classes)
            tables.extend(copies)
            if fill():
                return True
            del tables[-len(copies) :]
            used.difference_update(classes)
            free.update(seats)
        return False

    return tables if fill() else None


@functools.cache
def one_rotational(points: int) -> Design | None:
    """A Kirkman triple system 1-rotational over Z_(points-1) with a fixed point ∞: one base
    round, unchanged by adding (points-1)/2, turned into every other round by adding 1, 2, ...
    to every finite point. None when `points` is not 3 mod 6 or the search finds no base round
    within its budget."""
    if points % 6 != 3 or points < 9:
        return None
    modulus = points - 1
    rounds = modulus // 2
    base = _base_round(modulus, rounds)
    if base is None:
        return None
    infinity = modulus
    seatings = [
        [[infinity if p == infinity else (p + t) % modulus for p in table] for table in base]
        for t in range(rounds)
    ]
    name = f"Kirkman triple system of {points}, 1-rotational over Z_{modulus}"
    try:
        return _design(name, f"rot:{points}", 3, seatings)
    except DesignError:  # pragma: no cover - the difference conditions are the proof
        return None


def _base_round(modulus: int, half: int) -> list[list[int]] | None:
    """The base round: ∞ with 0 and `half`, then triples T and T + half filling the rest, each
    difference class ±d (d from 1 to half - 1) held by exactly one triple: the developed rounds
    then meet every pair once (the class `half` is the table of ∞'s alone)."""
    taken = {0, half}
    used = {half}
    tables: list[list[int]] = [[modulus, 0, half]]
    steps = [0]

    def fill() -> bool:
        free = [x for x in range(modulus) if x not in taken]
        if not free:
            return True
        first = free[0]
        for rest in itertools.combinations(free[1:], 2):
            steps[0] += 1
            if steps[0] > _SEARCH_STEPS:
                return False
            table = [first, *rest]
            copy = [(x + half) % modulus for x in table]
            classes = {_difference(a, b, modulus) for a, b in itertools.combinations(table, 2)}
            if len(classes) < 3 or classes & used or set(copy) & (taken | set(table)):
                continue
            taken.update(table + copy)
            used.update(classes)
            tables.extend([table, copy])
            if fill():
                return True
            del tables[-2:]
            used.difference_update(classes)
            taken.difference_update(table + copy)
        return False

    return tables if fill() else None


def _difference(a: int, b: int, modulus: int) -> int:
    d = (b - a) % modulus
    return min(d, modulus - d)


# --- 32 in fours for ten rounds ----------------------------------------------------------------


@functools.cache
def doubled_flats() -> Design:
    """32 points in tables of four for ten rounds, no pair meeting twice (the 8-4-10 instance).

    Point 2p + c is copy c (0 or 1) of the vector p of GF(2)^4; the two copies of a vector never
    meet. A round is one plane direction W (a 2-dimensional subspace): each coset C of W (four
    vectors) seats two tables, {2p + f(p)} and {2p + 1 - f(p)} for p in C, where f is the lift
    x[r, p] of each vector in round r. The ten directions are two disjoint spreads of PG(3, 2), so
    every difference d = p + q (nonzero) lies in exactly two of them, r1 and r2; the pair of
    vectors {p, q} then meets in those two rounds only, copies agreeing (c_p = c_q) in a round
    where the lifts of p and q agree and differing where they differ. Each of the four pairs of
    copies meets exactly once when the lifts agree in one of the two rounds and differ in the
    other: x[r1, p] + x[r1, q] + x[r2, p] + x[r2, q] = 1 over GF(2), one equation per pair.
    """
    spreads = _disjoint_spreads()
    directions = [direction for spread in spreads for direction in spread]
    rounds_of: dict[int, list[int]] = {d: [] for d in range(1, 16)}
    for r, direction in enumerate(directions):
        for d in direction:
            rounds_of[d].append(r)
    equations = []
    for p, q in itertools.combinations(range(16), 2):
        r1, r2 = rounds_of[p ^ q]
        equations.append(([(r1, p), (r1, q), (r2, p), (r2, q)], 1))
    lift = _solve_gf2(equations, [(r, p) for r in range(len(directions)) for p in range(16)])
    if lift is None:  # pragma: no cover - the first two disjoint spreads are solvable
        raise DesignError("doubled flats: the lifts have no solution")
    rounds = []
    for r, direction in enumerate(directions):
        seating = []
        for coset in _cosets(direction):
            seating.append([2 * p + lift[r, p] for p in coset])
            seating.append([2 * p + 1 - lift[r, p] for p in coset])
        rounds.append(seating)
    name = "doubled planes of AG(4, 2) over two disjoint spreads of PG(3, 2)"
    return _design(name, "flats:32", 4, rounds)


def _lines_of_pg32() -> list[frozenset[int]]:
    """The 35 lines of PG(3, 2): the nonzero vectors of each 2-dimensional subspace of GF(2)^4."""
    lines = {frozenset((a, b, a ^ b)) for a in range(1, 16) for b in range(a + 1, 16)}
    return sorted(lines, key=sorted)


def _disjoint_spreads() -> tuple[list[frozenset[int]], list[frozenset[int]]]:
    """The first two spreads of PG(3, 2) (five lines partitioning the 15 points) with no line in
    common, in a fixed order."""
    lines = _lines_of_pg32()
    spreads: list[list[frozenset[int]]] = []

    def extend(covered: frozenset[int], chosen: list[frozenset[int]]) -> None:
        if len(chosen) == 5:
            spreads.append(chosen)
            return
        first = min(set(range(1, 16)) - covered)
        for line in lines:
            if first in line and not line & covered:
                extend(covered | line, [*chosen, line])

    extend(frozenset(), [])
    for one, other in itertools.combinations(spreads, 2):
        if not set(one) & set(other):
            return one, other
    raise DesignError("PG(3, 2) has no two disjoint spreads")  # pragma: no cover


def _cosets(direction: frozenset[int]) -> list[list[int]]:
    subspace = [0, *sorted(direction)]
    seen: set[int] = set()
    cosets = []
    for x in range(16):
        if x not in seen:
            coset = [x ^ w for w in subspace]
            seen.update(coset)
            cosets.append(coset)
    return cosets


def _solve_gf2(
    equations: list[tuple[list[tuple[int, int]], int]], unknowns: list[tuple[int, int]]
) -> dict[tuple[int, int], int] | None:
    """Gaussian elimination over GF(2): each equation is a set of unknowns whose sum is its
    right-hand side; free unknowns are 0. None when the system is inconsistent."""
    column = {unknown: i for i, unknown in enumerate(unknowns)}
    pivots: dict[int, tuple[int, int]] = {}  # pivot column -> (row bits, right-hand side)
    for terms, rhs in equations:
        bits = 0
        for unknown in terms:
            bits ^= 1 << column[unknown]
        for pivot, (pivot_bits, pivot_rhs) in pivots.items():
            if bits >> pivot & 1:
                bits, rhs = bits ^ pivot_bits, rhs ^ pivot_rhs
        if not bits:
            if rhs:
                return None
            continue
        lead = bits.bit_length() - 1
        for pivot, (pivot_bits, pivot_rhs) in list(pivots.items()):
            if pivot_bits >> lead & 1:
                pivots[pivot] = (pivot_bits ^ bits, pivot_rhs ^ rhs)
        pivots[lead] = (bits, rhs)
    value = [0] * len(unknowns)
    for pivot, (_bits, rhs) in pivots.items():
        value[pivot] = rhs  # reduced: every other unknown in the row is free, hence 0
    return {unknown: value[i] for unknown, i in column.items()}


# --- round robin -------------------------------------------------------------------------------


@functools.cache
def round_robin(sides: int) -> Design | None:
    """Tables of two, every two sides meeting once over sides - 1 rounds (the circle method:
    side `sides - 1` stays put, the others turn one place a round)."""
    if sides < 2 or sides % 2:
        return None
    fixed, turning = sides - 1, sides - 1
    rounds = []
    for r in range(turning):
        seating = [[fixed, r]]
        for i in range(1, sides // 2):
            seating.append([(r + i) % turning, (r - i) % turning])
        rounds.append(seating)
    return _design(f"round robin of {sides}", f"rr:{sides}", 2, rounds)


# --- choosing a design -------------------------------------------------------------------------


def designs_of(points: int, size: int, rounds: int) -> list[Design]:
    """Every construction here of exactly `points` points in tables of `size`."""
    if size < 2 or points % size:
        return []
    groups = points // size
    found: list[Design | None] = []
    if size == 2:
        found.append(round_robin(points))
    found.append(transversal(size, groups, rounds))
    dimension = _power_of(size, points)
    if dimension and dimension >= 2 and prime_power(size):
        found.append(affine_lines(size, dimension))
    if size == 3:
        found.append(kirkman(points))
    if (points, size) == (32, 4):
        found.append(doubled_flats())
    return [design for design in found if design is not None]


def _power_of(base: int, value: int) -> int | None:
    """n when value = base^n, else None."""
    n, power = 0, 1
    while power < value:
        power *= base
        n += 1
    return n if power == value else None


def design_for(points: int, size: int, rounds: int) -> Design | None:
    """The design of `points` in tables of `size` that covers the most of `rounds` rounds without
    a repeat; among those covering as many, the one with fewest rounds (the closest fit)."""
    designs = designs_of(points, size, rounds)
    if not designs:
        return None
    return max(designs, key=lambda d: (min(len(d.rounds), rounds), -len(d.rounds)))


def design_by_key(key: str) -> Design | None:
    """The design a round stored by its key, made again (constructions are deterministic)."""
    kind, *numbers = key.split(":")
    try:
        values = [int(n) for n in numbers]
        if kind == "ag" and len(values) == 2:
            return affine_lines(values[1], values[0])
        if kind in ("rtd", "rtdz") and len(values) >= 2:
            return transversal(values[0], values[1], values[2] if len(values) > 2 else None)
        if kind in ("kts", "rot") and len(values) == 1:
            return kirkman(values[0])
        if kind == "flats" and values == [32]:
            return doubled_flats()
        if kind == "rr" and len(values) == 1:
            return round_robin(values[0])
    except (DesignError, ValueError):
        return None
    return None


def independent_points(design: Design, rounds: int, count: int) -> list[int]:
    """Up to `count` points no two of which share a table in the first `rounds` rounds, taken in
    order (for a transversal design: points of one group). Dropping them leaves every table at
    most one short and adds no meeting."""
    met = design.pairs(rounds)
    chosen: list[int] = []
    for point in range(design.points):
        if len(chosen) == count:
            break
        if all(frozenset((point, other)) not in met for other in chosen):
            chosen.append(point)
    return chosen
