"""Benchmark of event seating plans (R12.2): repeats and seconds against the targets.

Run from the project root: `python bench/bench_seating.py [--seed S]`. Each case plans a whole
event with `tables.seating.plan_event` and prints OK or MISS per case; the exit code is 0 either
way, so a miss shows in the output without failing a pipeline.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.seating import plan_event

SECONDS_LIMIT = 10.0


@dataclass(frozen=True)
class Case:
    """An event size and what a good seater achieves on it."""

    players: int
    rounds: int
    max_pairs_met_twice: int | None = None
    max_meetings: int | None = None


CASES = [
    Case(players=40, rounds=6, max_pairs_met_twice=11),
    Case(players=100, rounds=8, max_pairs_met_twice=1),
    Case(players=43, rounds=5, max_pairs_met_twice=0),
    Case(players=40, rounds=9, max_meetings=2),
]


def run(seed: int = 1) -> list[dict[str, object]]:
    """Plan every case with `seed`; one result per case, with `ok` telling if it met its targets."""
    return [_run_case(case, seed) for case in CASES]


def _run_case(case: Case, seed: int) -> dict[str, object]:
    started = time.perf_counter()
    plan = plan_event(case.players, case.rounds, seed=seed)
    seconds = time.perf_counter() - started
    ok = (
        _within(plan.pairs_met_twice, case.max_pairs_met_twice)
        and _within(plan.max_meetings, case.max_meetings)
        and seconds < SECONDS_LIMIT
    )
    return {
        "players": case.players,
        "rounds": case.rounds,
        "seed": seed,
        "pairs_met_twice": plan.pairs_met_twice,
        "pairs_met_twice_target": case.max_pairs_met_twice,
        "max_meetings": plan.max_meetings,
        "max_meetings_target": case.max_meetings,
        "seconds": round(seconds, 2),
        "ok": ok,
    }


def _within(value: int, target: int | None) -> bool:
    return target is None or value <= target


def _line(result: dict[str, object]) -> str:
    def target(key: str) -> str:
        return f" (≤ {result[key]})" if result[key] is not None else ""

    return (
        f"{result['players']:>4} players × {result['rounds']} rounds  "
        f"pairs_met_twice {result['pairs_met_twice']}{target('pairs_met_twice_target')}  "
        f"max_meetings {result['max_meetings']}{target('max_meetings_target')}  "
        f"{result['seconds']:.2f} s (< {SECONDS_LIMIT:.0f} s)  "
        f"{'OK' if result['ok'] else 'MISS'}"
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
    print("all targets met" if not misses else f"MISS: {misses} case(s) missed their targets")


if __name__ == "__main__":
    main()
