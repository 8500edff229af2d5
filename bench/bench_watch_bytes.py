"""Benchmark: the bytes a watching phone's leaderboard update takes after one change (issue 29).

A published tournament of 10,000 players (`--players`; 2,000 tables, 3 games played at each) is
built; a phone watching the leaderboard asks for its page of rows (`?page=N`,
`hall.views.LEADERBOARD_PAGE_ROWS` rows) with the ETag it holds. One result is saved at the
leader's table and the standings refreshed; then the first, a middle and the last page are asked
for again. Printed: every row (what a phone downloaded after each change before: the page took
them all), and each page's answer after the change (a 200 with its rows when they changed, else
a 304), status line, headers and body as the server sends them, gzipped as browsers ask. Goal:
at most 10 KB. Requests go through Django's test client in this process (DEBUG off), on
PostgreSQL and Redis where they answer (BENCH_DATABASE_URL, BENCH_REDIS_URL, as
bench_leaderboard.py), else SQLite in a temporary folder. The last line is for machines.
Run: `python bench/bench_watch_bytes.py [--players N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_leaderboard as stack  # noqa: E402 (the path above first)

SLUG = "bench-watch"
GOAL = 10_000


def on_the_wire(response) -> int:
    status = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
    headers = sum(len(f"{name}: {value}\r\n") for name, value in response.headers.items())
    return len(status) + headers + 2 + len(response.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    players = parser.parse_args().players // 5 * 5
    scratch = Path(tempfile.mkdtemp(prefix="kalooki-bench-watch-"))
    try:
        run(scratch, players)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(scratch: Path, players: int) -> None:
    env = stack.environment(scratch) | {"ALLOWED_HOSTS": "testserver"}
    os.environ.update(env)
    import subprocess

    subprocess.run([sys.executable, "bin/createdb.py"], cwd=ROOT, env=os.environ, check=True)
    import django

    django.setup()
    from django.core.management import call_command

    from bench.bench_standings import build_tournament, delete_tournament
    from scoring.standings import standings_refresh
    from tournament.models import Tournament

    call_command("migrate", verbosity=0)
    for old in Tournament.objects.filter(slug=SLUG):
        delete_tournament(old)
    tournament = build_tournament(slug=SLUG, players=players, rounds=1, last_round_games=3)
    standings_refresh(tournament_id=tournament.pk)
    try:
        figures = measure(tournament, players)
    finally:
        delete_tournament(tournament)
        if "REDIS_URL" in env:
            stack.forget_own_keys()
    print("bench_watch_bytes: " + json.dumps(figures, sort_keys=True))


def measure(tournament, players: int) -> dict:
    from django.test import Client

    from hall.views import LEADERBOARD_PAGE_ROWS, forget_recent
    from scoring.services import HandInput, result_record
    from scoring.standings import standings_current, standings_refresh
    from tables.models import Seat

    client, base = Client(), f"/p/{SLUG}/leaderboard/rows"
    gzip = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
    pages = (1, (players // LEADERBOARD_PAGE_ROWS + 1) // 2, -(-players // LEADERBOARD_PAGE_ROWS))
    every = on_the_wire(client.get(base, **gzip))
    held = {n: client.get(f"{base}?page={n}", **gzip).headers["ETag"] for n in pages}
    leader = standings_current(tournament=tournament)["players"][0]["entry"]
    table = Seat.objects.get(entry_id=leader).table
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    hands = [HandInput(seats[0], went_out=True, cards="")]
    hands += [HandInput(entry, points=20 + i) for i, entry in enumerate(seats[1:])]
    result_record(table=table, number=4, hands=hands, via="bench")
    standings_refresh(tournament_id=tournament.pk)
    forget_recent()
    print(f"tournament: {players} players; one result saved at the leader's table")
    print(f"every row (each phone's update before): {every} B")
    figures: dict = {"players": players, "every_row_bytes": every}
    for number, etag in held.items():
        response = client.get(f"{base}?page={number}", HTTP_IF_NONE_MATCH=etag, **gzip)
        size = on_the_wire(response)
        verdict = "OK" if size <= GOAL else "MISS"
        print(f"page {number}: {response.status_code}, {size} B (goal <= {GOAL}: {verdict})")
        figures[f"page_{number}"] = {"status": response.status_code, "bytes": size}
    return figures


if __name__ == "__main__":
    main()
