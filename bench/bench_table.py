"""Benchmark: how many taps a game takes on the table's page, and how tall the page is (#13).

Issue 13's targets, on a 390×844 touch phone: at most 8 taps plus the digits for a game entered
as points; at most one tap per card plus 4 for a game tapped on the card keypad; Save, the
game's scores, the set's totals and every seat's line on one screen.

The run is the browser test that enters a whole Kalooki set the fewest taps the page allows
(tests/e2e/test_table_phone.py: Chromium through Playwright, a live server, SQLite): it counts
every tap and digit and measures the page before each game. This prints, per game: its kind,
taps, digits, cards, the budget and whether it was met, the height of the entry screen (the
seats' lines and the bar) and of the whole page, in pixels and in screens of 844 px. Exits 0
when Chromium is not installed (the output says it was skipped).

Run from anywhere: `python bench/bench_table.py` (or `python bench/run.py table`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = (
    "tests/e2e/test_table_phone.py"
    "::test_a_whole_set_on_a_390_by_844_touch_phone_one_screen_per_game"
)
SCREEN = 844
POINTS_BUDGET = 8
KEYPAD_OVERHEAD = 4


def run() -> list[dict] | None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        env = dict(os.environ, TABLE_BENCH_FIGURES=str(out), DEBUG="1")
        env.pop("DATABASE_URL", None)  # the test's own SQLite database
        done = subprocess.run(
            [sys.executable, "-m", "pytest", TEST, "-q", "-p", "no:cacheprovider"],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )  # fmt: skip
        if not out.exists():
            print(done.stdout[-3000:], done.stderr[-2000:])
            return None
        return json.loads(out.read_text())


def budget(figure: dict) -> str:
    if figure["kind"] == "points":
        return f"≤ {POINTS_BUDGET}: {'OK' if figure['taps'] <= POINTS_BUDGET else 'MISS'}"
    if figure["kind"] == "keypad":
        most = figure["cards"] + KEYPAD_OVERHEAD
        return f"≤ {most}: {'OK' if figure['taps'] <= most else 'MISS'}"
    return "–"


def main() -> int:
    if not Path("/usr/bin/chromium").exists():
        print("skipped: needs Chromium at /usr/bin/chromium")
        return 0
    figures = run()
    if figures is None:
        print("the browser run failed: no figures")
        return 1
    print(f"{'game':>4} {'kind':<10} {'taps':>4} {'digits':>6} {'cards':>5}  {'budget':<10}"
          f" {'entry px':>8} {'page px':>7} {'screens':>7}")  # fmt: skip
    for f in figures:
        entry = f.get("entry_height")
        page = f.get("page_height")
        screens = f"{page / SCREEN:.2f}" if page else "–"
        print(f"{f['game']:>4} {f['kind']:<10} {f['taps']:>4} {f['digits']:>6} "
              f"{f.get('cards', 0):>5}  {budget(f):<10} {entry or '–':>8} {page or '–':>7} "
              f"{screens:>7}")  # fmt: skip
    keypad = [f for f in figures if f["kind"] == "keypad"]
    points = [f for f in figures if f["kind"] == "points"]
    if keypad:
        over = [f["taps"] - f["cards"] for f in keypad]
        print(f"keypad games: taps beyond one a card {over} (budget {KEYPAD_OVERHEAD})")
    if points:
        print(f"points games: taps {[f['taps'] for f in points]} (budget {POINTS_BUDGET})")
    tallest = max((f["entry_height"] for f in figures if f.get("entry_height")), default=0)
    print(f"entry screen: at most {tallest} px of {SCREEN} ({tallest / SCREEN:.2f} screens)")
    print(json.dumps({"figures": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
