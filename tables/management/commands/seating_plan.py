"""`manage.py seating_plan`: seat a whole event in advance and print the plan as JSON.

    python manage.py seating_plan --players 40 --rounds 6 --seed 1 [--table-size 5]

prints one line, players numbered from 0 and each table in seat order:

    {"rounds": [[[0, 7, 12, 19, 33], ...], ...], "pairs_met_twice": 3, "max_meetings": 2,
     "seconds": 1.234}

The same arguments always give the same plan; `seconds` is the wall time of the planning alone.
"""

import dataclasses
import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kalooki import ASAJ_2025, RulesError, Ruleset
from tables.models import MAX_SEATS
from tables.seating import SeatingError, plan_event


class Command(BaseCommand):
    help = (
        "Plan the seating of every round of an event in advance (R12.1, R12.2), avoiding repeat "
        "meetings, and print it as JSON. Players are numbered from 0; the same seed gives the "
        "same plan."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="How many players (3+).")
        parser.add_argument("--rounds", type=int, required=True, help="How many rounds (1+).")
        parser.add_argument(
            "--seed",
            type=int,
            required=True,
            help="Seed of the random choices: same seed, same plan.",
        )
        parser.add_argument(
            "--table-size",
            type=int,
            default=ASAJ_2025.table_size,
            help=f"Usual players per table (R1.1; default {ASAJ_2025.table_size}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds, seed = options["players"], options["rounds"], options["seed"]
        ruleset = _ruleset(options["table_size"])
        if players < ruleset.min_table_size:
            raise CommandError(
                f"--players {players}: a plan needs at least {ruleset.min_table_size} players "
                "(one table, R12.1)."
            )
        if rounds < 1:
            raise CommandError(f"--rounds {rounds}: an event has at least one round (R12.1).")
        started = time.perf_counter()
        try:
            plan = plan_event(players, rounds, seed=seed, ruleset=ruleset)
        except SeatingError as error:
            raise CommandError(str(error)) from error
        seconds = round(time.perf_counter() - started, 3)
        self.stdout.write(json.dumps(plan.to_dict() | {"seconds": seconds}))


def _ruleset(table_size: int) -> Ruleset:
    """The ASAJ 2025 ruleset with another usual table size, within what a table can seat."""
    least, largest = ASAJ_2025.min_table_size, min(ASAJ_2025.max_table_size, MAX_SEATS)
    if not least <= table_size <= largest:
        raise CommandError(
            f"--table-size {table_size}: a table seats {least} to {largest} players (R1.1)."
        )
    try:
        return dataclasses.replace(ASAJ_2025, table_size=table_size)
    except RulesError as error:
        raise CommandError(f"--table-size {table_size}: {error}") from error
