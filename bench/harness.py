"""What the benchmarks share: Django set up on the database a run was given, else on a
throwaway SQLite file; and a browser test run for the figures it writes.

Not a benchmark itself (bench/run.py runs the files named bench_*.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The shortest of `runs` timings of `work`, in seconds."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def setup_django(database_url: str | None) -> None:
    """Settings for a run: DEBUG (no secret needed) and the database the caller chose."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    import django

    django.setup()


@contextmanager
def django_database(name: str) -> Iterator[None]:
    """Django set up on DATABASE_URL when it is set, else on a throwaway SQLite file `name`,
    deleted on the way out."""
    if os.environ.get("DATABASE_URL"):
        setup_django(None)
        yield
        return
    with tempfile.TemporaryDirectory(prefix="kalooki-bench-") as folder:
        setup_django(f"sqlite:///{Path(folder) / name}")
        yield


def chromium_missing() -> bool:
    """Whether the browser tests cannot run here (said so when they cannot)."""
    if CHROMIUM.exists():
        return False
    print(f"skipped: needs Chromium at {CHROMIUM}")
    return True


def browser_figures(tests: list[str], variable: str, eager_tasks: bool = False) -> Any | None:
    """Run the browser `tests` (Chromium through Playwright, a live server, each test's own
    SQLite database; with `eager_tasks`, no Redis either: tasks run in the test's process) with
    `variable` naming the file they write their figures to; the figures, or None (what pytest
    said is printed) when the run failed."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        env = dict(os.environ, DEBUG="1")
        env[variable] = str(out)
        for name in ("DATABASE_URL", "REDIS_URL", "CI") if eager_tasks else ("DATABASE_URL",):
            env.pop(name, None)
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *tests, "-q", "-p", "no:cacheprovider"],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )  # fmt: skip
        if not out.exists() or done.returncode != 0:
            print(done.stdout[-3000:], done.stderr[-2000:])
            return None
        return json.loads(out.read_text())
