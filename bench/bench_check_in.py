"""Benchmark: how many taps a player's self check-in takes after the QR code, and how soon each
phone's own page shows the seat once the round is published (issue 34).

The targets, on a 390×844 touch phone: at most 3 taps from the check-in page the QR code opens
to being checked in (a letter when the list is long, the name, "Yes, check me in"); every phone's
"my page" shows its table and seat within 2 s of the director publishing the round, by itself.

The run is the browser test of twelve players checking themselves in
(tests/e2e/test_players_phones.py: Chromium through Playwright, a live server, SQLite), which
counts each phone's taps and times each phone's seat. This prints, per player, the taps and the
seconds, and the budgets met or missed. Exits 0 when Chromium is not installed (the output says
it was skipped).

Run from anywhere: `python bench/bench_check_in.py` (or `python bench/run.py check_in`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import browser_figures, chromium_missing  # noqa: E402 (the path above first)

TEST = "tests/e2e/test_players_phones.py::test_twelve_phones_check_in_are_seated_and_see_their_seat"
TAPS_BUDGET = 3
SEAT_SECONDS = 2.0


def main() -> int:
    if chromium_missing():
        return 0
    # The test's own SQLite database, and tasks run eagerly in its process.
    figures = browser_figures([TEST], "CHECK_IN_BENCH_FIGURES", eager_tasks=True)
    if figures is None:
        print("the browser run failed: no figures")
        return 1
    taps, shown = figures["taps"], figures["seat_shown_seconds"]
    print(f"{'player':<20} {'taps':>4} {'seat shown after':>17}")
    for name in taps:
        print(f"{name:<20} {taps[name]:>4} {shown[name]:>16.2f}s")
    most, slowest = max(taps.values()), max(shown.values())
    print(f"check-in: at most {most} taps after the QR code "
          f"(budget {TAPS_BUDGET}: {'OK' if most <= TAPS_BUDGET else 'MISS'})")  # fmt: skip
    print(f"my page: every seat shown within {slowest:.2f} s of publishing "
          f"(budget {SEAT_SECONDS} s: {'OK' if slowest <= SEAT_SECONDS else 'MISS'})")  # fmt: skip
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
