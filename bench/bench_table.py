"""Benchmark: how many taps a deal takes on the table's phone page, and how tall the page is,
for every game (#13, issue 29).

The targets, on a 390×844 touch phone: Kalooki, at most 8 taps plus the digits for a game
entered as points, at most one tap per card plus 4 for a game tapped on the card keypad; Hand
and Foot, at most 12 taps plus the digits for a typical hand of two teams; and for every game
Save, the deal's scores, the totals and every line on one screen.

The runs are the browser tests that enter each game the fewest taps the page allows (Chromium
through Playwright, a live server, SQLite): a whole Kalooki set
(tests/e2e/test_table_phone.py), a typical Hand and Foot hand and a Parcellus deal
(tests/e2e/test_phone_day.py). Each counts every tap and digit and measures the page. This
prints, per game and deal: its kind, taps, digits, cards, the budget and whether it was met,
the height of the entry screen (the lines and the bar) and of the whole page, in pixels and in
screens of 844 px. Exits 0 when Chromium is not installed (the output says it was skipped).

Run from anywhere: `python bench/bench_table.py` (or `python bench/run.py table`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import browser_figures, chromium_missing  # noqa: E402 (the path above first)

TESTS = [
    "tests/e2e/test_table_phone.py"
    "::test_a_whole_set_on_a_390_by_844_touch_phone_one_screen_per_game",
    "tests/e2e/test_phone_day.py::test_a_hand_and_foot_hand_on_one_screen_in_twelve_taps",
    "tests/e2e/test_phone_day.py::test_a_parcellus_deal_counted_in_taps",
]
SCREEN = 844
POINTS_BUDGET = 8
KEYPAD_OVERHEAD = 4
HAND_BUDGET = 12  # Hand and Foot: a typical hand of two teams


def budget(figure: dict) -> str:
    taps = figure["taps"]
    if figure["kind"] == "points":
        return f"≤ {POINTS_BUDGET}: {'OK' if taps <= POINTS_BUDGET else 'MISS'}"
    if figure["kind"] == "keypad":
        most = figure["cards"] + KEYPAD_OVERHEAD
        return f"≤ {most}: {'OK' if taps <= most else 'MISS'}"
    if figure["kind"] == "hand":
        return f"≤ {HAND_BUDGET}: {'OK' if taps <= HAND_BUDGET else 'MISS'}"
    return "–"


def main() -> int:
    if chromium_missing():
        return 0
    figures = browser_figures(TESTS, "TABLE_BENCH_FIGURES")
    if figures is None:
        print("the browser run failed: no figures")
        return 1
    print(f"{'play':<13} {'deal':>4} {'kind':<10} {'taps':>4} {'digits':>6} {'cards':>5}  "
          f"{'budget':<10} {'entry px':>8} {'page px':>7} {'screens':>7}")  # fmt: skip
    for f in figures:
        entry = f.get("entry_height")
        page = f.get("page_height")
        screens = f"{page / SCREEN:.2f}" if page else "–"
        print(f"{f.get('play', 'kalooki'):<13} {f['game']:>4} {f['kind']:<10} {f['taps']:>4} "
              f"{f['digits']:>6} {f.get('cards', 0):>5}  {budget(f):<10} {entry or '–':>8} "
              f"{page or '–':>7} {screens:>7}")  # fmt: skip
    keypad = [f for f in figures if f["kind"] == "keypad"]
    points = [f for f in figures if f["kind"] == "points"]
    hands = [f for f in figures if f["kind"] == "hand"]
    deals = [f for f in figures if f["kind"] == "deal"]
    if keypad:
        over = [f["taps"] - f["cards"] for f in keypad]
        print(f"kalooki keypad games: taps beyond one a card {over} (budget {KEYPAD_OVERHEAD})")
    if points:
        print(f"kalooki points games: taps {[f['taps'] for f in points]} (budget {POINTS_BUDGET})")
    for f in hands:
        print(
            f"hand and foot: {f['taps']} taps + {f['digits']} digits a typical hand "
            f"(budget {HAND_BUDGET} taps), {f['entry_height']} px of {SCREEN}"
        )
    for f in deals:
        print(
            f"parcellus: {f['taps']} taps + {f['digits']} digits a deal, "
            f"{f['entry_height']} px of {SCREEN}"
        )
    tallest = max((f["entry_height"] for f in figures if f.get("entry_height")), default=0)
    print(f"entry screen: at most {tallest} px of {SCREEN} ({tallest / SCREEN:.2f} screens)")
    print(json.dumps({"figures": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
