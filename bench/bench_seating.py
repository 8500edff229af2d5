"""Benchmark of seating (R12.2, issue 33): repeats beside the optimum, round by round beside the
whole plan, and seconds.

Run from the project root: `python bench/bench_seating.py [--seed S]`. Each case plans a whole
event with `tables.seating.plan_event`, then seats the same event one round at a time with
`tables.seating.seat` (each round following the previous round's design place, as the service
does), and prints per case: pairs met twice or more for the plan and round by round, the
optimum (the least possible: 0 where a design seats the field, from the design named), the
distance from it, and the planning time. A case is OK when the plan reaches its optimum (or its
target, for cases no design covers), round by round stays within `MARGIN` of the plan, and the
plan took under its time limit. The exit code is 0 either way, so a miss shows in the output
without failing a pipeline.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kalooki import ASAJ_2025
from tables.seating import MeetingHistory, plan_event, seat

SECONDS_LIMIT = 10.0
MARGIN = 2  # pairs met twice that round-by-round seating may add to the whole plan's


@dataclass(frozen=True)
class Case:
    """An event size, its optimum where mathematics knows it, and what the seating must reach."""

    players: int
    rounds: int
    table_size: int = 5
    optimum: int | None = None  # the least possible pairs met twice, where known
    why: str = ""  # where the optimum comes from
    max_pairs_met_twice: int | None = None  # a target where no optimum is known
    max_meetings: int | None = None
    seconds: float = SECONDS_LIMIT


CASES = [
    Case(25, 6, 5, 0, "affine plane AG(2, 5): everyone meets everyone once"),
    Case(40, 8, 5, 0, "resolvable transversal design RTD(5, 8) over GF(8)"),
    Case(32, 10, 4, 0, "social golfer 8-4-10: doubled planes of AG(4, 2)"),
    Case(15, 7, 3, 0, "Kirkman triple system of 15"),
    Case(21, 10, 3, 0, "Kirkman triple system of 21"),
    Case(100, 8, 5, 0, "RTD(5, 20) from a difference array over Z_20"),
    Case(16, 5, 4, 0, "affine plane AG(2, 4)"),
    Case(20, 2, 5, 4, "4 tables, then at most 4 new players a table: one repeat a table"),
    Case(43, 5, 5, 0, "RTD(5, 9) over GF(9), two players of one group left out"),
    Case(200, 8, 5, 0, "RTD(5, 40) over Z_40", seconds=2.0),
    Case(40, 6, max_pairs_met_twice=11),
    Case(40, 9, max_meetings=2),
]


def rules_for(case: Case):
    return dataclasses.replace(ASAJ_2025, table_size=case.table_size)


def run(seed: int = 1) -> list[dict[str, object]]:
    """Every case with `seed`; one result per case, with `ok` telling if it met its targets."""
    return [_run_case(case, seed) for case in CASES]


def _run_case(case: Case, seed: int) -> dict[str, object]:
    started = time.perf_counter()
    plan = plan_event(case.players, case.rounds, seed=seed, rules=rules_for(case))
    seconds = time.perf_counter() - started
    by_round = round_by_round(case, seed)
    target = case.optimum if case.optimum is not None else case.max_pairs_met_twice
    ok = (
        _within(plan.pairs_met_twice, target)
        and _within(plan.max_meetings, case.max_meetings)
        and by_round <= plan.pairs_met_twice + MARGIN
        and seconds < case.seconds
    )
    return {
        "players": case.players,
        "rounds": case.rounds,
        "table_size": case.table_size,
        "seed": seed,
        "pairs_met_twice": plan.pairs_met_twice,
        "round_by_round": by_round,
        "optimum": case.optimum,
        "target": target,
        "why": case.why,
        "max_meetings": plan.max_meetings,
        "design": plan.design,
        "seconds": round(seconds, 3),
        "seconds_limit": case.seconds,
        "ok": ok,
    }


def round_by_round(case: Case, seed: int) -> int:
    """Pairs met twice when the event is seated one round at a time, as the service does."""
    players = list(range(1000, 1000 + case.players))
    history, place = MeetingHistory(), None
    for number in range(case.rounds):
        seating = seat(
            players,
            history,
            seed=seed + number,
            rules=rules_for(case),
            design=place,
            rounds_left=case.rounds - number,
        )
        history, place = history.after(seating.tables), seating.design
    return history.repeats().pairs_met_twice


def _within(value: int, target: int | None) -> bool:
    return target is None or value <= target


def _line(result: dict[str, object]) -> str:
    optimum = result["optimum"]
    if optimum is not None:
        distance = int(result["pairs_met_twice"]) - int(optimum)
        against = f"optimum {optimum} (distance {distance})"
    elif result["target"] is not None:
        against = f"target ≤ {result['target']}"
    else:
        against = f"max_meetings {result['max_meetings']} (≤ 2)"
    design = f"  [{result['design']}]" if result["design"] else "  [no design: searched]"
    return (
        f"{result['players']:>4} players in {result['table_size']}s × "
        f"{result['rounds']:>2} rounds  pairs_met_twice {result['pairs_met_twice']:>2}, {against}; "
        f"round by round {result['round_by_round']}  "
        f"{result['seconds']:.3f} s (< {result['seconds_limit']:.0f} s)  "
        f"{'OK' if result['ok'] else 'MISS'}{design}"
    )


def _cpu_model() -> str:
    # platform.processor() is empty on most Linux machines; /proc/cpuinfo names the chip.
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    seed = parser.parse_args().seed
    print(
        f"seating benchmark, seed {seed}: {platform.platform()}, {_cpu_model()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    results = []
    for case in CASES:  # one line as each case finishes, rather than all at the end
        results.append(_run_case(case, seed))
        print(_line(results[-1]), flush=True)
    misses = sum(1 for result in results if not result["ok"])
    at_optimum = sum(1 for r in results if r["optimum"] is not None and r["ok"])
    known = sum(1 for r in results if r["optimum"] is not None)
    print(f"{at_optimum} of {known} cases with a known optimum reach it")
    print("all targets met" if not misses else f"MISS: {misses} case(s) missed their targets")


if __name__ == "__main__":
    main()
