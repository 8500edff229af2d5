"""Seating by the game's table plan (`Rules.table_plan`): a club's Kalooki at tables of four,
teams of partners two to a table (HF1.2), and a plan with byes at whole tables."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

import games
from games.kalooki import PRESETS
from tables.seating import (
    MeetingHistory,
    plan_event,
    seat_round,
    table_plan,
    table_sizes,
)
from tables.services import round_seat
from tests.factories import EntryFactory, RoundFactory, TournamentFactory
from tournament.models import Entry

KALOOKI = games.get("kalooki")
CLUB_FOUR = KALOOKI.rules(PRESETS["club-four"])


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (8, [4, 4]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (5, [5]),
        (3, [3]),
        (43, [4] * 10 + [3]),
    ],
)
def test_a_club_four_tournament_seats_tables_of_four_r12_2(players: int, sizes: list[int]) -> None:
    assert table_sizes(players, CLUB_FOUR) == sizes
    assert table_plan(players, CLUB_FOUR).byes == 0


def test_every_count_from_3_to_60_fits_the_club_tables() -> None:
    for players in range(3, 61):
        sizes = table_sizes(players, CLUB_FOUR)
        assert sum(sizes) == players and all(3 <= size <= 5 for size in sizes)


def test_the_default_is_asaj_2025_and_a_bare_ruleset_is_kalookis() -> None:
    assert table_sizes(43) == table_sizes(43, KALOOKI.rules(PRESETS["asaj-2025"]))
    assert table_sizes(12, PRESETS["club-four"]) == [4, 4, 4]


def test_a_round_is_seated_at_tables_of_four() -> None:
    players = list(range(1, 17))
    seating = seat_round(players, {}, seed=3, rules=CLUB_FOUR)
    assert [len(table) for table in seating] == [4, 4, 4, 4]
    assert sorted(p for table in seating for p in table) == players


def test_a_plan_in_advance_at_tables_of_four() -> None:
    plan = plan_event(16, 3, seed=1, rules=CLUB_FOUR, swaps=5000)
    assert all([len(table) for table in seating] == [4, 4, 4, 4] for seating in plan.rounds)


def test_teams_sit_two_to_a_table_and_do_not_meet_again_HF11_1() -> None:
    hand_and_foot = games.get("hand_and_foot")
    rules = hand_and_foot.rules(hand_and_foot.ruleset())
    assert table_sizes(8, rules) == [2, 2, 2, 2]
    first = seat_round(list(range(8)), {}, seed=1, rules=rules)
    second = seat_round(list(range(8)), MeetingHistory.from_rounds([first]), seed=2, rules=rules)
    met = {frozenset(table) for table in first}
    assert not met & {frozenset(table) for table in second}


def test_an_odd_number_of_teams_leaves_one_team_a_bye_HF11_1() -> None:
    hand_and_foot = games.get("hand_and_foot")
    rules = hand_and_foot.rules(hand_and_foot.ruleset())
    assert table_sizes(9, rules) == [2, 2, 2, 2] and table_plan(9, rules).byes == 1


def test_a_plan_with_byes_seats_whole_tables_pa7_1() -> None:
    parcellus = games.get("parcellus")
    rules = parcellus.rules(parcellus.ruleset())
    assert table_sizes(9, rules) == [3, 3, 3]
    assert table_sizes(10, rules) == [3, 3, 3]
    assert table_plan(11, rules).byes == 2


@pytest.mark.django_db
def test_the_service_seats_a_club_tournament_at_fours() -> None:
    club = TournamentFactory(ruleset=PRESETS["club-four"].to_dict())
    EntryFactory.create_batch(8, tournament=club, status=Entry.Status.CHECKED_IN)
    tables = round_seat(round=RoundFactory(tournament=club), seed=5)
    assert [table.seats.count() for table in tables] == [4, 4]


@pytest.mark.django_db
def test_the_plan_command_takes_a_preset_or_a_tournaments_rules() -> None:
    out = StringIO()
    call_command("seating_plan", "--players", "12", "--rounds", "2", "--seed", "1",
                 "--preset", "club-four", stdout=out)  # fmt: skip
    plan = json.loads(out.getvalue())
    assert all([len(table) for table in seating] == [4, 4, 4] for seating in plan["rounds"])
    TournamentFactory(slug="club-night", ruleset=PRESETS["club-four"].to_dict())
    out = StringIO()
    call_command("seating_plan", "--players", "10", "--rounds", "1", "--seed", "1",
                 "--tournament", "club-night", stdout=out)  # fmt: skip
    assert [len(table) for table in json.loads(out.getvalue())["rounds"][0]] == [4, 3, 3]
