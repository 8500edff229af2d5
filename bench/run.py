"""Run every benchmark under bench/ (files named bench_*.py), one after another.

Each prints its own figures (counts and ratios); this prints the machine they ran on first.
Usage: python bench/run.py [name ...]   e.g. python bench/run.py rules seating table
(bench_table.py: taps per game and page height per game on the table's phone page, #13;
bench_ratings.py: a club's ratings recomputed and updated; bench_club_pages.py: the season,
rating and member pages through gunicorn against a static file, issue 32)
"""

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    system = f"{platform.system()} {platform.release()}"
    return f"{system} · {cpu} · {os.cpu_count()} CPUs · Python {platform.python_version()}"


def main(names: list[str]) -> int:
    print(f"machine: {machine()}")
    scripts = sorted(BENCH_DIR.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names]
    failed = 0
    for script in scripts:
        print(f"\n== {script.stem}")
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=BENCH_DIR.parent)
        print(f"   ({time.perf_counter() - started:.1f} s wall, exit {code})")
        failed += code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
