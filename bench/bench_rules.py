"""Benchmark: CPU time of the rules engine checking and scoring one nine-game set, directly and
through the game protocol.

A **set** here is a realistic one for five players: most hands entered as cards, some as point
totals, calls, one down-and-out game, one failed come-down and one overcall. **One run** checks
(R10) and scores (R8) all nine games with ``evaluate``, as the result service does per game.
The figure is CPU time (``time.process_time``), the best of several batches of many runs each,
so another benchmark can divide an API round trip by it (``measure_engine_set_ms``).

**Through the protocol** is what the apps will call (``games.get("kalooki").rules(ruleset)``): the
same nine games as ``DealReport`` values (JSON, as a phone sends them), each read, checked and
scored by ``Rules.evaluate``, then the set's result by ``Rules.match_result``. Its ratio to the
direct engine call is the protocol's cost.

Run from the project root: ``python bench/bench_rules.py``. It needs no Django.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.base import DealReport, DealScore, Rules, SideReport
from games.kalooki import ASAJ_2025, GameReport, HandReport, evaluate, score_set

TARGET_MS = 1.0
PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed")


def nine_game_set() -> tuple[GameReport, ...]:
    """Nine games as a scorekeeper at a five-player table would enter them."""
    return (
        _game(1, "Ann", {"Bob": "JK AS 2C 7H", "Cy": "KD KD 9S", "Di": 40, "Ed": "5H 6H 7H 8H 9D"}),
        _game(2, "Bob", {"Ann": "QS QH 3C", "Cy": 25, "Di": "AH AD 4S 4C", "Ed": "10C JC"}),
        _game(3, "Cy", {"Ann": 62, "Bob": "2S 3S 4S JK", "Di": "8C 8D 8H", "Ed": "KS"}),
        _game(
            4,
            "Di",
            {"Ann": "9H 9D 10S JS QS KS", "Bob": "AC 2H", "Cy": "JK 3D 4D", "Ed": 33},
            down_and_out=True,
        ),
        _game(5, "Ed", {"Ann": "7S 7C", "Bob": 12, "Cy": "QC KC AC 2D 3D", "Di": "6S 6H 6D"}),
        _game(
            6,
            "Ann",
            {"Bob": "4H 5H 6H 7H", "Cy": "JD QD", "Di": 21, "Ed": "AS AS JK 10D"},
            calls={"Bob": 2, "Cy": 1, "Di": 0, "Ed": 2},
            failed={"Cy": 1},
        ),
        _game(7, "Bob", {"Ann": "3H 3S 3D 5C", "Cy": 18, "Di": "KH", "Ed": "2C 2D 9C 10C JC QC"}),
        _game(8, "Cy", {"Ann": 57, "Bob": "JK JK 8S", "Di": "4C 5C 6C", "Ed": "AD AH 7D"}),
        _game(
            9,
            "Di",
            {"Ann": "10H JH QH KH", "Bob": "6C 6D", "Cy": "2H 2S 5S 9S JK", "Ed": 44},
            calls={"Ed": 4},
            overcall={"Ed"},
        ),
    )


def _game(
    number: int,
    winner: str,
    left: dict[str, str | int],
    *,
    down_and_out: bool = False,
    calls: dict[str, int] | None = None,
    failed: dict[str, int] | None = None,
    overcall: set[str] | frozenset[str] = frozenset(),
) -> GameReport:
    calls, failed = calls or {}, failed or {}
    hands = []
    for player in PLAYERS:
        held = left.get(player)
        hands.append(
            HandReport(
                player=player,
                went_out=player == winner,
                cards="" if player == winner else held if isinstance(held, str) else None,
                points=held if isinstance(held, int) else None,
                calls=calls.get(player),
                failed_come_downs=failed.get(player, 0),
                overcall_penalty=player in overcall,
            )
        )
    return GameReport(number, tuple(hands), down_and_out=down_and_out)


def check_and_score(entries: tuple[GameReport, ...]) -> None:
    for entry in entries:
        check, score = evaluate(entry, ASAJ_2025)
        if score is None:
            raise AssertionError(f"game {entry.game} refused: {check.errors}")


def measure_engine_set_ms(*, batches: int = 7, runs: int = 300) -> float:
    """Best CPU milliseconds to check and score one nine-game set (best batch of ``batches``)."""
    return min(_batches_ms(batches, runs))


def _batches_ms(batches: int, runs: int) -> list[float]:
    """CPU milliseconds per set in each batch of ``runs`` runs."""
    entries = nine_game_set()
    check_and_score(entries)  # warm up, as a long-running server process is
    per_run = []
    for _ in range(batches):
        started = time.process_time()
        for _ in range(runs):
            check_and_score(entries)
        per_run.append((time.process_time() - started) / runs * 1000)
    return per_run


def as_deal_reports(entries: tuple[GameReport, ...]) -> tuple[DealReport, ...]:
    """The same games as the protocol's deal reports: plain JSON values per field."""
    return tuple(
        DealReport(
            entry.game,
            tuple(SideReport(hand.player, _side_values(hand)) for hand in entry.hands),
            {"down_and_out": entry.down_and_out, "void": entry.void},
        )
        for entry in entries
    )


def _side_values(hand: HandReport) -> dict[str, object]:
    values = {
        "went_out": hand.went_out,
        "cards": hand.cards,
        "points": hand.points,
        "calls": hand.calls,
        "failed_come_downs": hand.failed_come_downs,
        "overcall_penalty": hand.overcall_penalty,
    }
    return {name: value for name, value in values.items() if value is not None}


def protocol_set(rules: Rules[Any], deals: tuple[DealReport, ...]) -> list[DealScore]:
    """Evaluate every deal of the set through the protocol and take the set's result."""
    played: list[DealScore] = []
    for deal in deals:
        evaluation = rules.evaluate(deal, played)
        if evaluation.score is None:
            raise AssertionError(f"game {deal.number} refused: {evaluation.errors}")
        played.append(evaluation.score)
    rules.match_result(played)
    return played


def _protocol_batches_ms(batches: int, runs: int) -> list[float]:
    rules = games.get("kalooki").rules(ASAJ_2025)
    deals = as_deal_reports(nine_game_set())
    protocol_set(rules, deals)
    per_run = []
    for _ in range(batches):
        started = time.process_time()
        for _ in range(runs):
            protocol_set(rules, deals)
        per_run.append((time.process_time() - started) / runs * 1000)
    return per_run


def _cpu_name() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.processor() or "unknown CPU"
    names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return names[0] if names else platform.processor() or "unknown CPU"


def main() -> None:
    entries = nine_game_set()
    totals = {line.player: line.total for line in score_set(entries, ASAJ_2025).players}
    batches = _batches_ms(7, 300)
    best, median = min(batches), statistics.median(batches)
    verdict = "OK" if best < TARGET_MS else "TOO SLOW"
    print(f"machine: {platform.platform()}, {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, {_cpu_name()}")  # fmt: skip
    print(f"set totals: {totals}")
    print(
        f"rules: score+check one 9-game set, 5 players: {best:.2f} ms CPU "
        f"(median of batches {median:.2f} ms; target < {TARGET_MS:g} ms) -> {verdict}"
    )
    protocol = _protocol_batches_ms(7, 300)
    p_best, p_median = min(protocol), statistics.median(protocol)
    rules = games.get("kalooki").rules(ASAJ_2025)
    results = rules.match_result(protocol_set(rules, as_deal_reports(entries)))
    same = [r.total for r in results] == list(totals.values())
    p_verdict = "OK" if p_best < TARGET_MS else "TOO SLOW"
    print(
        f"protocol: evaluate 9 deals + match result, 5 players: {p_best:.2f} ms CPU per set "
        f"(median of batches {p_median:.2f} ms; target < {TARGET_MS:g} ms) -> {p_verdict}; "
        f"{p_best / best:.2f}x the direct engine call; 7 batches x 300 sets; "
        f"same totals as the engine: {same}"
    )
    if best >= TARGET_MS or p_best >= TARGET_MS or not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
