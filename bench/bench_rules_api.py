"""Benchmark: the rules API's cost over calling the rules engine directly.

The same realistic nine-game set as bench_rules.py is posted game by game to `POST /api/rules/game`
through Django's whole stack (middleware, DRF parsing and validation, the engine, JSON rendering)
with the test client, in this process; no network. The figure is CPU time per set, and its ratio
to the engine alone (`measure_engine_set_ms`) is the API's overhead.

Run from the project root: `python bench/bench_rules_api.py` (DEBUG=1 is set for the settings).
"""

import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django

django.setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.bench_rules import measure_engine_set_ms, nine_game_set  # noqa: E402

RUNS = 40


def game_bodies() -> list[bytes]:
    """Each game of the set as the JSON a client would send."""
    bodies = []
    for entry in nine_game_set():
        hands = [asdict(hand) for hand in entry.hands]
        for hand in hands:
            hand.pop("adjustment")
        body = {
            "game": entry.game,
            "down_and_out": entry.down_and_out,
            "void": entry.void,
            "hands": hands,
        }
        bodies.append(json.dumps(body).encode())
    return bodies


def measure_api_set_ms(client: Client, bodies: list[bytes]) -> float:
    """Best CPU time of posting all nine games, over several batches."""
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for _ in range(RUNS):
            for body in bodies:
                response = client.post("/api/rules/game", body, content_type="application/json")
                assert response.status_code == 200, response.content
        best = min(best, (time.process_time() - started) * 1000 / RUNS)
    return best


def main() -> None:
    setup_test_environment()  # lets the test client use 'testserver' as its host
    client, bodies = Client(), game_bodies()
    api_ms = measure_api_set_ms(client, bodies)
    engine_ms = measure_engine_set_ms()
    print(
        f"rules API: 9 games posted to /api/rules/game: {api_ms:.2f} ms CPU per set "
        f"({api_ms / len(bodies):.3f} ms per request)"
    )
    print(f"rules engine alone, same set: {engine_ms:.2f} ms CPU")
    print(f"API overhead ratio (API / engine): {api_ms / engine_ms:.1f}x")


if __name__ == "__main__":
    main()
