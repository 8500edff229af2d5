"""The designs behind the seating (`tables.designs`): each construction checked from its rounds.

Every test counts the design again from its tables (not from `Design`'s own check): each point
seated once a round, every table of the design's size, and no pair meeting twice; where the
mathematics says every pair meets exactly once, that too.
"""

from collections import Counter
from itertools import combinations, product

import pytest

from tables import designs
from tables.designs import Design, DesignError


def meetings(design: Design) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for seating in design.rounds:
        for table in seating:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def assert_a_design(design: Design, points: int, size: int, rounds: int) -> None:
    assert (design.points, design.size, len(design.rounds)) == (points, size, rounds)
    for seating in design.rounds:
        assert sorted(p for table in seating for p in table) == list(range(points))
        assert {len(table) for table in seating} == {size}
    assert max(meetings(design).values()) == 1


def assert_everyone_meets_once(design: Design) -> None:
    assert len(meetings(design)) == design.points * (design.points - 1) // 2


# --- finite fields -----------------------------------------------------------------------------


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32])
def test_gf_q_is_a_field(q: int) -> None:
    field = designs.galois_field(q)
    elements = range(q)
    for a, b in product(elements, repeat=2):
        assert field.add[a][b] == field.add[b][a] and field.mul[a][b] == field.mul[b][a]
    for a in elements:
        assert field.add[a][0] == a and field.mul[a][1] == a and field.mul[a][0] == 0
        assert sorted(field.add[a]) == list(elements)  # every a has a negative
        if a:
            assert sorted(field.mul[a][1:]) == list(range(1, q))  # and an inverse
    for a, b, c in product(range(min(q, 8)), repeat=3):
        assert field.mul[a][field.add[b][c]] == field.add[field.mul[a][b]][field.mul[a][c]]


@pytest.mark.parametrize("q", [6, 10, 12, 15])
def test_there_is_no_field_of_a_number_that_is_not_a_prime_power(q: int) -> None:
    assert designs.prime_power(q) is None
    with pytest.raises(DesignError, match="not a prime power"):
        designs.galois_field(q)


# --- the constructions -------------------------------------------------------------------------


@pytest.mark.parametrize("q", [3, 4, 5])
def test_the_affine_plane_seats_q_squared_in_tables_of_q_everyone_meeting_once(q: int) -> None:
    plane = designs.affine_lines(q)
    assert_a_design(plane, q * q, q, q + 1)
    assert_everyone_meets_once(plane)


def test_affine_geometry_ag_3_3_seats_27_in_threes_for_13_rounds() -> None:
    space = designs.affine_lines(3, 3)
    assert_a_design(space, 27, 3, 13)
    assert_everyone_meets_once(space)


def test_forty_in_fives_for_eight_rounds_over_gf_8() -> None:
    rtd = designs.transversal(5, 8)
    assert_a_design(rtd, 40, 5, 8)
    met = meetings(rtd)
    for a, b in combinations(range(40), 2):  # groups of eight never meet, all others once
        assert met[frozenset((a, b))] == (0 if a // 8 == b // 8 else 1)


def test_a_hundred_in_fives_for_eight_rounds_over_z_20() -> None:
    rtd = designs.transversal(5, 20, 8)
    assert rtd is not None and "Z_20" in rtd.name
    assert_a_design(rtd, 100, 5, 8)


@pytest.mark.parametrize(("size", "groups"), [(4, 6), (5, 6), (5, 12), (6, 10), (5, 40)])
def test_difference_arrays_seat_fields_that_are_not_prime_powers(size: int, groups: int) -> None:
    rtd = designs.transversal(size, groups, 5)
    assert rtd is not None
    assert_a_design(rtd, size * groups, size, len(rtd.rounds))
    assert len(rtd.rounds) == 5


def test_more_players_to_a_table_than_groups_have_no_transversal_design() -> None:
    assert designs.transversal(5, 4) is None  # 20 in fives: two rounds already repeat


def test_kirkmans_fifteen_schoolgirls_walk_seven_days_meeting_once() -> None:
    kts = designs.kirkman(15)
    assert kts is not None
    assert_a_design(kts, 15, 3, 7)
    assert_everyone_meets_once(kts)


def test_twenty_one_in_threes_for_ten_rounds_everyone_meeting_once() -> None:
    kts = designs.kirkman(21)
    assert kts is not None
    assert_a_design(kts, 21, 3, 10)
    assert_everyone_meets_once(kts)


@pytest.mark.parametrize("points", [9, 27])
def test_one_rotational_kirkman_systems(points: int) -> None:
    kts = designs.one_rotational(points)
    assert kts is not None
    assert_a_design(kts, points, 3, (points - 1) // 2)
    assert_everyone_meets_once(kts)


def test_thirty_two_in_fours_for_ten_rounds_the_social_golfers_8_4_10() -> None:
    flats = designs.doubled_flats()
    assert_a_design(flats, 32, 4, 10)
    met = meetings(flats)
    never = [pair for pair in combinations(range(32), 2) if not met[frozenset(pair)]]
    assert never == [(2 * p, 2 * p + 1) for p in range(16)]  # the two copies of a vector


def test_a_round_robin_of_eight_sides() -> None:
    robin = designs.round_robin(8)
    assert robin is not None
    assert_a_design(robin, 8, 2, 7)
    assert_everyone_meets_once(robin)


def test_a_design_with_a_repeat_is_refused() -> None:
    with pytest.raises(DesignError, match=r"points \[0, 1\] meet twice"):
        Design("bad", "bad", 4, 2, (((0, 1), (2, 3)), ((0, 1), (2, 3))))


def test_a_design_seating_a_point_twice_is_refused() -> None:
    with pytest.raises(DesignError, match="round 1 does not seat every point once"):
        Design("bad", "bad", 4, 2, (((0, 1), (1, 3)),))


# --- choosing and following a design -----------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "size", "rounds", "name"),
    [
        (25, 5, 6, "affine plane AG(2, 5)"),
        (40, 5, 8, "RTD(5, 8) over GF(8)"),
        (32, 4, 10, "doubled planes of AG(4, 2)"),
        (15, 3, 7, "Kirkman triple system of 15"),
        (21, 3, 10, "Kirkman triple system of 21"),
        (100, 5, 8, "RTD(5, 20) over Z_20"),
        (16, 4, 5, "affine plane AG(2, 4)"),
    ],
)
def test_the_design_for_a_field_covers_its_rounds(points, size, rounds, name) -> None:
    design = designs.design_for(points, size, rounds)
    assert design is not None and name in design.name
    assert len(design.rounds) >= rounds


def test_no_design_fits_twenty_in_fives() -> None:
    assert designs.design_for(20, 5, 2) is None


@pytest.mark.parametrize(
    "design",
    [
        designs.affine_lines(5),
        designs.transversal(5, 20, 8),
        designs.kirkman(21),
        designs.doubled_flats(),
        designs.round_robin(6),
    ],
    ids=lambda design: design.key,
)
def test_a_design_is_made_again_from_its_key(design: Design) -> None:
    assert designs.design_by_key(design.key) == design


@pytest.mark.parametrize("key", ["", "ag", "ag:x:5", "ag:2:6", "rtd:9:4", "nope:1", "flats:33"])
def test_a_key_that_names_no_design_gives_none(key: str) -> None:
    assert designs.design_by_key(key) is None


def test_points_apart_in_a_transversal_design_are_a_group() -> None:
    rtd = designs.transversal(5, 8)
    assert designs.independent_points(rtd, 8, 4) == [0, 1, 2, 3]


def test_in_the_whole_affine_plane_no_two_points_are_apart() -> None:
    plane = designs.affine_lines(5)
    assert designs.independent_points(plane, 6, 3) == [0]
    assert len(designs.independent_points(plane, 5, 3)) == 3  # one direction left unplayed
