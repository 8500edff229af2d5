"""Benchmark: a result write and a trivial request counted in CPU instructions (#18).

`bench_speed.py` times the write against a trivial request in CPU time, which a shared host's
other tenants move by a fifth or more from one minute to the next (a write, with the larger
working set, more than a trivial request). Counted in instructions under valgrind's callgrind,
the same two figures do not move: a change to the write path can be weighed to a percent.

The run builds bench_speed's 2,000-player tournament (its own database `kalooki_bench_instr`
and Redis database 14, or BENCH_DATABASE_URL / BENCH_REDIS_URL), then runs this file twice more
under callgrind, in parallel: one process makes WRITES result writes (game 4 at as many tables
of the round in play, through Django's whole stack, as bench_speed does), the other as many
trivial requests (`/healthz`); each counts only the instructions of its measured calls (the
calls run inside `itertools.accumulate` and `itertools.dropwhile`, whose C functions callgrind
toggles its count on). Prints instructions per write, per trivial request, and their ratio.
Exits 0 when valgrind or PostgreSQL is not there (the output says it was skipped). The last
line is for machines (prefix `bench_instructions:`). Run from the project root:
`python bench/bench_instructions.py` (about a minute).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ.setdefault(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_bench_instr"
)
os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")

WRITES = 20  # measured calls in each counted process (the count is exact: a few suffice)
WARM_UP = 10  # calls first, uncounted: the first request of a process loads the stack
COUNTED_IN = {"write": "accumulate_next", "trivial": "dropwhile_next"}


def main() -> int:
    if shutil.which("valgrind") is None:
        print("bench_instructions: skipped: valgrind is not installed")
        return 0
    from bench import bench_speed

    missing = bench_speed.setup_django()
    if missing:
        print(f"bench_instructions: skipped: {missing}")
        return 0
    from django.db import connections

    from bench.run import machine
    from scoring.planner import analyze

    print(f"machine: {machine()} · valgrind callgrind, PostgreSQL, Redis")
    bench_speed.build("speed-2000", 2000, 4, 3)
    analyze()
    connections.close_all()
    counts = _count_in_parallel()
    if not all(counts.values()):
        print("bench_instructions: skipped: callgrind counted nothing (Python without symbols?)")
        return 0
    write, trivial = counts["write"] / WRITES, counts["trivial"] / WRITES
    print(f"result write at 2,000 players: {write / 1e6:.2f} M instructions; trivial request "
          f"{trivial / 1e6:.2f} M; the write = {write / trivial:.2f} trivial requests in "
          f"instructions (not the aim's CPU time: a write runs fewer instructions per cycle, "
          f"bench_speed.py times it)")  # fmt: skip
    figures = {"write_minstr": round(write / 1e6, 3), "trivial_minstr": round(trivial / 1e6, 3)}
    figures["write_over_trivial"] = round(write / trivial, 2)
    print("bench_instructions: " + json.dumps(figures))
    return 0


def _count_in_parallel() -> dict[str, int]:
    """Each part's instructions, counted by callgrind in a process of its own."""
    with tempfile.TemporaryDirectory() as scratch:
        outputs = {part: Path(scratch) / f"{part}.callgrind" for part in COUNTED_IN}
        runs = {part: _counted_run(part, output) for part, output in outputs.items()}
        for part, run in runs.items():
            _, errors = run.communicate()
            if run.returncode != 0:
                raise SystemExit(f"the counted {part} process failed:\n{errors[-3000:]}")
        return {part: _total(output) for part, output in outputs.items()}


def _counted_run(part: str, output: Path) -> subprocess.Popen:
    valgrind = ["valgrind", "--tool=callgrind", "--collect-atstart=no"]
    valgrind += [f"--toggle-collect={COUNTED_IN[part]}", f"--callgrind-out-file={output}"]
    command = [*valgrind, sys.executable, __file__, "--counted", part]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    return subprocess.Popen(command, cwd=ROOT, **quiet)


def _total(output: Path) -> int:
    for line in output.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    return 0


# --- the counted process ------------------------------------------------------------------------


def counted(part: str) -> None:
    """Run `part`'s calls, the measured ones inside the C function callgrind counts in."""
    import django

    django.setup()
    from bench import bench_speed
    from tables.models import Table
    from tournament.models import Tournament

    browser = bench_speed.client()
    if part == "trivial":
        for _ in range(WARM_UP):
            browser.get("/healthz")
        calls = itertools.dropwhile(lambda _: (browser.get("/healthz"), True)[1], range(WRITES))
        for _ in calls:
            pass
        return
    round = Tournament.objects.get(slug="speed-2000").rounds.order_by("-number").first()
    tables = Table.objects.filter(round=round).order_by("number")[: WARM_UP + WRITES]
    # Each table's next game and link, read before the count starts (not part of a write).
    addresses = iter([(_result_url(table), f"Table {table.access_token}") for table in tables])
    body = json.dumps({"hands": bench_speed.hands(), "entered_by": "bench"})

    def write(*_: object) -> None:
        url, link = next(addresses)
        headers = {"Idempotency-Key": str(uuid.uuid4()), "Authorization": link}
        response = browser.put(url, body, "application/json", headers=headers)
        assert response.status_code == 201, response.content[:300]

    for _ in range(WARM_UP):
        write()
    for _ in itertools.accumulate(range(WRITES + 1), write):  # WRITES calls of `write`
        pass


def _result_url(table: Any) -> str:
    played = table.deals.filter(is_void=False).count()
    return f"/api/tables/{table.pk}/games/{played + 1}/result"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--counted"]:
        counted(sys.argv[2])
        sys.exit(0)
    sys.exit(main())
