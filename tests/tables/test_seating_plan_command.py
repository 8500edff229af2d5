"""`manage.py seating_plan`: a whole event seated in advance, printed as JSON (R12.1, R12.2)."""

import json
from collections import Counter
from io import StringIO
from itertools import combinations

import pytest
from django.core.management import CommandError, call_command


def _plan(*args: str) -> dict:
    out = StringIO()
    call_command("seating_plan", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_prints_the_plan_as_json_with_players_numbered_from_0() -> None:
    plan = _plan("--players", "13", "--rounds", "3", "--seed", "5")
    assert list(plan) == ["rounds", "pairs_met_twice", "max_meetings", "design", "seconds"]
    assert len(plan["rounds"]) == 3
    for seating in plan["rounds"]:
        assert sorted(p for table in seating for p in table) == list(range(13))
        assert [len(table) for table in seating] == [5, 4, 4]  # R12.2
    assert isinstance(plan["seconds"], float) and plan["seconds"] == round(plan["seconds"], 3)


def test_its_counts_agree_with_the_plan() -> None:
    plan = _plan("--players", "13", "--rounds", "4", "--seed", "2")
    meetings = Counter(
        pair
        for seating in plan["rounds"]
        for table in seating
        for pair in combinations(sorted(table), 2)
    )
    assert plan["pairs_met_twice"] == sum(1 for k in meetings.values() if k >= 2)
    assert plan["max_meetings"] == max(meetings.values())


def test_the_same_seed_gives_the_same_plan() -> None:
    args = ("--players", "23", "--rounds", "3", "--seed", "11")
    first, second = _plan(*args), _plan(*args)
    assert first["rounds"] == second["rounds"]
    assert _plan("--players", "23", "--rounds", "3", "--seed", "12")["rounds"] != first["rounds"]


def test_the_table_size_can_be_changed() -> None:
    plan = _plan("--players", "12", "--rounds", "1", "--seed", "1", "--table-size", "4")
    assert [len(table) for table in plan["rounds"][0]] == [4, 4, 4]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "2", "--rounds", "3"], "--players 2: a plan needs at least 3 players"),
        (["--players", "10", "--rounds", "0"], "--rounds 0: an event has at least one round"),
        (["--players", "10", "--rounds", "2", "--table-size", "7"], "seats 3 to 6 players"),
    ],
)
def test_it_refuses_bad_arguments_with_a_clear_message(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("seating_plan", *args, "--seed", "1", stdout=StringIO())


def test_it_needs_every_argument_that_makes_a_plan_reproducible() -> None:
    with pytest.raises(CommandError, match="--seed"):
        call_command("seating_plan", "--players", "10", "--rounds", "2", stdout=StringIO())


def test_it_names_the_design_a_plan_follows() -> None:
    plan = _plan("--players", "32", "--rounds", "10", "--seed", "1", "--table-size", "4")
    assert plan["design"].startswith("doubled planes of AG(4, 2)")
    assert (plan["pairs_met_twice"], plan["max_meetings"]) == (0, 1)
    assert _plan("--players", "13", "--rounds", "2", "--seed", "1")["design"] is None
