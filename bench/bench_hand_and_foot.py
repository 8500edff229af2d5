"""Benchmark: CPU time of the Hand and Foot engine checking and scoring games, as the result
service would, hand by hand.

A **game** is three hands played out from one shuffled deck (``example_report``): books, points
laid down, hands and feet written as cards or as points. **Cold** runs clear the engine's caches
first (the book feasibility of HF4.3 and the least worth of HF8.6 are cached per deck supply,
and each real entry with card text has its own supply), so they are what a server sees; **warm**
runs repeat the same entries. The **heaviest hand** has 22 books at the table, the most the check
of HF4.3 has to place; the **tightest hand** lays down exactly the least its team's 22 books can
count, so HF8.6 places them rank by rank. Figures are CPU time (``time.process_time``), the best
of several batches.

Run from the project root: ``python bench/bench_hand_and_foot.py``. It needs no Django.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import DealReport, DealScore, SideReport
from games.hand_and_foot import GAME
from games.hand_and_foot import books as hf_books

GAMES = 40
TARGET_MS = 5.0  # a whole game of three hands, cold
TIGHTEST_LEAST = 1260  # 11 red and 11 black books of one team, two fives held
RULES = GAME.rules(GAME.ruleset())


def example_games() -> list[list[DealReport]]:
    rng = random.Random(2025)
    return [[RULES.example_report(n, 2, rng) for n in (1, 2, 3)] for _ in range(GAMES)]


def play(game: list[DealReport]) -> list[DealScore]:
    scores: list[DealScore] = []
    for entry in game:
        evaluation = RULES.evaluate(entry, scores)
        if evaluation.score is None:
            raise AssertionError(f"hand {entry.number} refused: {evaluation.errors}")
        scores.append(evaluation.score)
    RULES.match_result(scores)
    return scores


def heaviest_hand() -> DealReport:
    """22 books at the table (11 red, 11 black) and a draw-pile end: the most placing to do."""
    player = {"hand": "5S 6S 7S", "foot_played": True}
    team = {"red_books": 6, "black_books": 5, "laid_down": 900}
    other = {"red_books": 5, "black_books": 6, "laid_down": 900}
    return DealReport(
        1, (SideReport("A", team, (player, player)), SideReport("B", other, (player, player)))
    )


def tightest_hand() -> DealReport:
    """One team's 11 red and 11 black books laid down at the least their cards count (HF8.6):
    no quick placement settles it, so the books are placed rank by rank."""
    player = {"hand": "5S", "foot_played": True}
    team = {"red_books": 11, "black_books": 11, "laid_down": TIGHTEST_LEAST}
    other = {"red_books": 0, "black_books": 0, "laid_down": 0}
    quiet = {"hand": "5S", "foot_played": False, "foot_points": 65}
    return DealReport(
        1, (SideReport("A", team, (player, player)), SideReport("B", other, (quiet, quiet)))
    )


def cold(run: Callable[[], object]) -> Callable[[], object]:
    def cleared() -> object:
        hf_books._fewest_wilds.cache_clear()
        hf_books._least_worth.cache_clear()
        return run()

    return cleared


def best_ms(run: Callable[[], object], repeats: int, batches: int = 7) -> tuple[float, float]:
    """Best and median CPU milliseconds per call over ``batches`` batches of ``repeats`` calls."""
    run()
    per_call = []
    for _ in range(batches):
        started = time.process_time()
        for _ in range(repeats):
            run()
        per_call.append((time.process_time() - started) / repeats * 1000)
    return min(per_call), statistics.median(per_call)


def main() -> None:
    games = example_games()
    every_game = [play(game) for game in games]
    hands = sum(len(game) for game in every_game)

    def all_games() -> None:
        for game in games:
            play(game)

    warm, _ = best_ms(all_games, 5)
    cold_ms, cold_median = best_ms(cold(all_games), 5)
    heavy = heaviest_hand()
    evaluation = RULES.evaluate(heavy)
    assert evaluation.ok, evaluation.errors
    heavy_cold, _ = best_ms(cold(lambda: RULES.evaluate(heavy)), 20)
    per_game = cold_ms / GAMES
    verdict = "OK" if per_game < TARGET_MS else "TOO SLOW"
    print(f"hand and foot: {GAMES} games, {hands} hands, each checked (HF8) and scored (HF6)")
    print(
        f"  cold: {per_game:.2f} ms CPU per game of three hands, {cold_ms / hands:.2f} ms per "
        f"hand (median batch {cold_median / GAMES:.2f} ms per game; target < {TARGET_MS:g} ms) "
        f"-> {verdict}"
    )
    print(
        f"  warm: {warm / GAMES:.2f} ms per game ({cold_ms / warm:.1f}x faster than cold: the "
        "book check's cache)"
    )
    print(f"  heaviest hand (22 books at the table), cold: {heavy_cold:.2f} ms CPU")
    tight = tightest_hand()
    assert RULES.evaluate(tight).ok, RULES.evaluate(tight).errors
    tight_cold, _ = best_ms(cold(lambda: RULES.evaluate(tight)), 5)
    print(f"  tightest hand (one team's 22 books at their least, HF8.6), cold: {tight_cold:.2f} ms")
    if per_game >= TARGET_MS:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
