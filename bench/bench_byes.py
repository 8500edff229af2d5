"""Benchmark of round-by-round seating with byes (Parcellus, tables of three, PA7.1).

Run from the project root: `python bench/bench_byes.py [--seeds N]`. Each case seats a field round
after round as the director's "Seat players" does (`seat_round_with_byes`: the byes first, to the
fewest byes so far, then the lowest standing; here a fixed standing), over N seeds, and prints
counts and ratios: how many events had a pair meet twice, the most pairs met twice in one event,
whether anyone sat out twice while another never did (should be 0), and the seconds per round.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from tables.seating import MeetingHistory, seat_round_with_byes

CASES = [(10, 3), (10, 4), (31, 5), (100, 6)]  # (players, rounds)


def event(players: int, rounds: int, seed: int, rules) -> tuple[int, bool]:
    """Pairs met twice at the end, and whether the byes were unfair at any round."""
    field = list(range(players))
    standing = field[::-1]  # a fixed order, worst last, so the bye rule has something to read
    history, byes = MeetingHistory(), {}
    unfair = False
    for number in range(1, rounds + 1):
        seating = seat_round_with_byes(
            field, history, seed=seed * 100 + number, rules=rules, byes_so_far=byes,
            standing=standing,
        )  # fmt: skip
        history = history.after(seating.tables)
        for player in seating.byes:
            byes[player] = byes.get(player, 0) + 1
        counts = [byes.get(player, 0) for player in field]
        unfair = unfair or max(counts) - min(counts) > 1
    return history.repeats().pairs_met_twice, unfair


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    game = games.get("parcellus")
    rules = game.rules(game.ruleset())
    print(f"bench_byes: {args.seeds} seeds per case, {os.cpu_count()} CPUs")
    print("players rounds byes/round events_with_repeat max_pairs_met_twice unfair s/round")
    for players, rounds in CASES:
        start = time.perf_counter()
        results = [event(players, rounds, seed, rules) for seed in range(args.seeds)]
        per_round = (time.perf_counter() - start) / (args.seeds * rounds)
        repeated = sum(1 for pairs, _ in results if pairs)
        worst = max(pairs for pairs, _ in results)
        unfair = sum(1 for _, bad in results if bad)
        print(
            f"{players:7} {rounds:6} {players % 3:10} {repeated:>8}/{args.seeds:<10} "
            f"{worst:19} {unfair:6} {per_round:7.3f}"
        )


if __name__ == "__main__":
    main()
