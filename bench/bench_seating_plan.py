"""Seating quality counted on plans made by `manage.py seating_plan` (issues 4 and 33).

Run from anywhere: `python bench/bench_seating_plan.py [--seed S]`. Each case of
`bench_seating.CASES` runs the command as a separate process, exactly as a director would, reads
its JSON and counts the plan again from its rounds (the command's own figures are not trusted):
every player seated once per round at tables of the usual size or one short (R12.2), pairs that
met twice or more beside the optimum, and the most meetings of any pair. A case is OK when it
reaches its optimum (or its target) and the command, start-up included, took under 10 seconds.
One line per case, then one JSON line for machines (prefix `bench_seating_plan:`). The exit
code is 0 either way, so a miss shows in the output without failing a pipeline.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECONDS_LIMIT = 10.0
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_seating import CASES, Case  # noqa: E402 - the same cases, through the command


def seating_plan(case: Case, seed: int) -> tuple[dict, float]:
    """The command's JSON and the wall time of the whole process."""
    command = [sys.executable, "manage.py", "seating_plan", "--seed", str(seed)]
    command += ["--players", str(case.players), "--rounds", str(case.rounds)]
    command += ["--table-size", str(case.table_size)]
    started = time.perf_counter()
    done = subprocess.run(
        command,
        cwd=ROOT,
        env=os.environ | {"DEBUG": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout), time.perf_counter() - started


def recount(players: int, size: int, rounds: list[list[list[int]]]) -> dict[str, object]:
    """Count the plan from its tables: seating problems, pairs met twice, most meetings."""
    problems = []
    meetings: Counter[tuple[int, int]] = Counter()
    for number, seating in enumerate(rounds, start=1):
        seated = sorted(player for table in seating for player in table)
        if seated != list(range(players)):
            problems.append(f"round {number} does not seat every player exactly once")
        if any(len(table) not in (size, size - 1) for table in seating):
            problems.append(
                f"round {number} has a table of other than {size} or {size - 1} players (R12.2)"
            )
        for table in seating:
            meetings.update(combinations(sorted(table), 2))
    return {
        "problems": problems,
        "pairs_met_twice": sum(1 for k in meetings.values() if k >= 2),
        "max_meetings": max(meetings.values(), default=0),
    }


def run_case(case: Case, seed: int) -> dict[str, object]:
    try:
        plan, wall = seating_plan(case, seed)
    except (subprocess.CalledProcessError, ValueError, KeyError) as error:
        return _failed(case, seed, error)
    counted = recount(case.players, case.table_size, plan["rounds"])
    target = case.optimum if case.optimum is not None else case.max_pairs_met_twice
    ok = (
        not counted["problems"]
        and len(plan["rounds"]) == case.rounds
        and _within(counted["pairs_met_twice"], target)
        and _within(counted["max_meetings"], case.max_meetings)
        and wall < SECONDS_LIMIT
    )
    return {
        "players": case.players,
        "rounds": case.rounds,
        "table_size": case.table_size,
        "seed": seed,
        "pairs_met_twice": counted["pairs_met_twice"],
        "pairs_met_twice_target": target,
        "optimum": case.optimum,
        "design": plan.get("design"),
        "max_meetings": counted["max_meetings"],
        "max_meetings_target": case.max_meetings,
        "problems": counted["problems"],
        "command_agrees": (plan["pairs_met_twice"], plan["max_meetings"])
        == (counted["pairs_met_twice"], counted["max_meetings"]),
        "planning_seconds": plan["seconds"],
        "wall_seconds": round(wall, 2),
        "ok": ok,
    }


def _failed(case: Case, seed: int, error: Exception) -> dict[str, object]:
    """A case whose command failed or printed something other than a plan: a MISS, not a crash."""
    detail = getattr(error, "stderr", "") or str(error)
    return {
        "players": case.players,
        "rounds": case.rounds,
        "table_size": case.table_size,
        "seed": seed,
        "pairs_met_twice": None,
        "pairs_met_twice_target": case.max_pairs_met_twice,
        "optimum": case.optimum,
        "design": None,
        "max_meetings": None,
        "max_meetings_target": case.max_meetings,
        "problems": [f"seating_plan failed: {detail.strip().splitlines()[-1:]}"],
        "command_agrees": False,
        "planning_seconds": None,
        "wall_seconds": None,
        "ok": False,
    }


def _within(value: object, target: int | None) -> bool:
    return target is None or (isinstance(value, int) and value <= target)


def _line(result: dict[str, object]) -> str:
    def target(key: str) -> str:
        return f" (≤ {result[key]})" if result[key] is not None else ""

    problems = "; ".join(map(str, result["problems"])) or "seated once per round"
    field = f"{result['players']:>4} in {result['table_size']}s × {result['rounds']:>2} rounds"
    if result["wall_seconds"] is None:
        return f"{field}  {problems}  MISS"
    agrees = "" if result["command_agrees"] else "  [the command's own counts differ!]"
    optimum = "" if result["optimum"] is None else f", optimum {result['optimum']}"
    return (
        f"{field}  "
        f"pairs_met_twice {result['pairs_met_twice']}{target('pairs_met_twice_target')}"
        f"{optimum}  "
        f"max_meetings {result['max_meetings']}{target('max_meetings_target')}  "
        f"planning {result['planning_seconds']:.2f} s, command {result['wall_seconds']:.2f} s "
        f"(< {SECONDS_LIMIT:.0f} s)  {problems}  {'OK' if result['ok'] else 'MISS'}{agrees}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    seed = parser.parse_args().seed
    print(f"seating plans made by `manage.py seating_plan`, seed {seed}, {os.cpu_count()} CPUs")
    results = []
    for case in CASES:  # one line as each case finishes
        results.append(run_case(case, seed))
        print(_line(results[-1]), flush=True)
    misses = sum(1 for result in results if not result["ok"])
    print("all targets met" if not misses else f"MISS: {misses} case(s) missed their targets")
    print("bench_seating_plan: " + json.dumps({"seed": seed, "cases": results}))


if __name__ == "__main__":
    main()
