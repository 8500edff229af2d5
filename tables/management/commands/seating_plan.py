"""`manage.py seating_plan`: seat a whole event in advance and print the plan as JSON.

    python manage.py seating_plan --players 40 --rounds 6 --seed 1 [--table-size 5]
        [--preset club-four | --tournament spring-open]

prints one line, players numbered from 0 and each table in seat order:

    {"rounds": [[[0, 7, 12, 19, 33], ...], ...], "pairs_met_twice": 0, "max_meetings": 1,
     "design": "resolvable transversal design RTD(5, 8) over GF(8)", "seconds": 0.012}

`design` names the design the plan follows where one fits the field (null otherwise): then the
plan reaches the optimum (`tables.designs`).

Tables are sized by the game's table plan (`Rules.table_plan`): Kalooki under a preset (ASAJ 2025
by default, `--preset club-four` for tables of four), with `--table-size` changing the usual size,
or under a tournament's own stored rules (`--tournament SLUG`). The same arguments always give the
same plan; `seconds` is the wall time of the planning alone.
"""

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import games
from games.base import Rules, RulesetInvalid
from tables.models import MAX_SEATS
from tables.seating import DEFAULT_GAME, SeatingError, plan_event
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Plan the seating of every round of an event in advance (R12.1, R12.2), avoiding repeat "
        "meetings (by a design where one fits the field), and print it as JSON. Players are "
        "numbered from 0; the same seed gives the same plan."
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
            help="Usual players per table (R1.1; default: the preset's, 5 for ASAJ 2025).",
        )
        parser.add_argument(
            "--preset", default=None, help="A Kalooki preset (asaj-2025, club-four)."
        )
        parser.add_argument(
            "--tournament", metavar="SLUG", help="Plan by this tournament's own rules."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds, seed = options["players"], options["rounds"], options["seed"]
        rules = _rules(options)
        least = rules.shape().min_sides
        if players < least:
            raise CommandError(
                f"--players {players}: a plan needs at least {least} players (one table, R12.1)."
            )
        if rounds < 1:
            raise CommandError(f"--rounds {rounds}: an event has at least one round (R12.1).")
        started = time.perf_counter()
        try:
            plan = plan_event(players, rounds, seed=seed, rules=rules)
        except SeatingError as error:
            raise CommandError(str(error)) from error
        seconds = round(time.perf_counter() - started, 3)
        self.stdout.write(json.dumps(plan.to_dict() | {"seconds": seconds}))


def _rules(options: dict[str, Any]) -> Rules[Any]:
    if options["tournament"]:
        if options["preset"] or options["table_size"] is not None:
            raise CommandError(
                "--tournament plans by its own rules: leave out --preset and --table-size."
            )
        found = Tournament.objects.filter(slug=options["tournament"]).first()
        if found is None:
            raise CommandError(
                f"--tournament {options['tournament']}: there is no such tournament."
            )
        return found.rules()
    return _preset_rules(options["preset"], options["table_size"])


def _preset_rules(preset: str | None, table_size: int | None) -> Rules[Any]:
    """Kalooki under a preset, with another usual table size, within what a table can seat."""
    game = games.get(DEFAULT_GAME)
    asked: dict[str, Any] = {"preset": preset or game.default_preset}
    if table_size is not None:
        shape = _kalooki(game, asked).shape()
        least, largest = shape.min_sides, min(shape.max_sides, MAX_SEATS)
        if not least <= table_size <= largest:
            raise CommandError(
                f"--table-size {table_size}: a table seats {least} to {largest} players (R1.1)."
            )
        asked["table_size"] = table_size
    return _kalooki(game, asked)


def _kalooki(game: Any, asked: dict[str, Any]) -> Rules[Any]:
    try:
        return game.rules(game.ruleset(asked))
    except RulesetInvalid as invalid:
        flag = {"preset": "--preset", "table_size": "--table-size"}
        why = "; ".join(
            f"{flag.get(p.field or '', p.field)}: {p.message}" for p in invalid.problems
        )
        raise CommandError(why) from invalid
