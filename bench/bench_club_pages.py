"""Benchmark: a club's public pages (the season's table, the rating list, a member's page)
through gunicorn, against a static file, and their queries.

A club of 2,000 members plays 200 events of 40 players (3 rounds each, tables of five), written
as bench_ratings.py writes them; its ratings are computed by the real recompute, and one season
holds every event (its table computed by the real season service, best 8 count): every member is
in the table (2,000 lines, 8,000 results) and on the rating list, the most these pages carry at
this size. The member's page shown is that of the member with the most matches rated.

Then, against gunicorn (4 sync workers, DEBUG off, on 127.0.0.1, `config.wsgi`):
1. the queries each page runs for a visitor and the time it takes, as a fresh web process draws
   it (counted in this process; they must not grow with the club: tests/test_query_counts.py);
2. requests per second of each page and of a static file served by the same gunicorn through
   WhiteNoise (`/static/css/site.css`), with the same concurrent clients for the same time, each
   asked for as a browser asks (Accept-Encoding: gzip), best of 5 interleaved runs; the ratio
   page / static file is the figure (aim >= 0.5 for every page, issue 32).

Services as bench_leaderboard.py: PostgreSQL (BENCH_DATABASE_URL) and Redis (BENCH_REDIS_URL,
the cache) when they answer, else SQLite and the local-memory cache. The bench deletes the club
it made, refuses a Redis database that holds keys already, and deletes only its own keys. Load
comes from `wrk` when installed, else from Python threads. Run from the project root:
`python bench/bench_club_pages.py [--members N] [--events E] [--seconds S] [--clients N]`
(BENCH_PORT: its port, else a free one). The last line is for machines (prefix
`bench_club_pages:`). A missed aim exits 0; a server that does not start exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_leaderboard as stack  # noqa: E402 (the path above first)

HOST = stack.HOST
SLUG = "bench-club-pages"
BEST_OF = 8
RPS_AIM = 0.5
ROUNDS = 5  # load tests of each kind, interleaved; the best counts
READY_SECONDS = 90  # gunicorn's start on a loaded machine


def pages(club: str, season: str, member: int) -> dict[str, str]:
    """The pages measured, by name: what a visitor opens."""
    return {
        "season": f"/c/{club}/seasons/{season}",
        "ratings": f"/c/{club}/ratings/kalooki",
        "member": f"/c/{club}/members/{member}",
    }


# --- the club ----------------------------------------------------------------------------------


def setup_club(members: int, events: int) -> tuple[object, dict[str, str]]:
    """The club, its ratings and its season; the pages to measure."""
    from django.db.models import Count

    from bench.bench_ratings import build_club
    from clubs.models import Club
    from seasons.models import RatingChange, Season
    from seasons.ratings import ratings_recompute
    from seasons.services import season_refresh

    for old in Club.objects.filter(slug=SLUG):  # a run that was killed
        forget_club(old)
    club, nights = build_club(SLUG, members, events)
    ratings_recompute(club=club, game="kalooki")
    season = Season.objects.create(club=club, name="Season", slug="season", game="kalooki",
                                   best_of=BEST_OF)  # fmt: skip
    season.tournaments.set(nights)
    season_refresh(season_id=season.pk)
    busiest = (
        RatingChange.objects.filter(club=club)
        .values("member")
        .annotate(n=Count("pk"))
        .order_by("-n", "member")[0]["member"]
    )
    return club, pages(club.slug, season.slug, busiest)


def forget_club(club) -> None:
    from bench.bench_ratings import delete_club

    delete_club(club)
    club.delete()  # its members, seasons and their tables with it


def drawn(paths: dict[str, str]) -> dict[str, tuple[int, float]]:
    """Each page's queries and time for a visitor, as a fresh web process draws it."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from hall.club_cache import forget_held

    visitor = Client(SERVER_NAME=HOST)
    visitor.get(stack.STATIC)  # the first request sets the site up: not a page's cost
    found = {}
    for name, path in paths.items():
        forget_held()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = visitor.get(path)
            took = time.perf_counter() - started
        assert response.status_code == 200, f"{path} answered {response.status_code}"
        found[name] = (len(captured), took)
    return found


# --- requests per second -----------------------------------------------------------------------


def measure_rates(port: int, paths: dict[str, str], clients: int, seconds: float) -> dict:
    kinds = {**paths, "static": stack.STATIC}
    figures: dict = {"bytes": {}, "gzip_bytes": {}}
    for name, path in kinds.items():
        status, _headers, body = stack.get(port, path)
        assert status == 200, f"{path} answered {status}"
        figures["bytes"][name] = len(body)
        stack.rate(port, path, clients, 1, stack.BROWSER)  # every worker draws it once
        figures["gzip_bytes"][name] = len(stack.get(port, path, stack.BROWSER)[2])
    # Interleaved rounds, best of each: other work on the machine slows some runs, never
    # speeds one up, and interleaving spreads it over every kind alike.
    for _ in range(ROUNDS):
        for name, path in kinds.items():
            found = stack.rate(port, path, clients, seconds, stack.BROWSER)
            best = figures.get(name)
            figures[name] = found if best is None or found["rps"] > best["rps"] else best
            figures[name]["bad"] = found["bad"] + (best["bad"] if best else 0)
    return figures


# --- the run -----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=2, help="each load test's length")
    parser.add_argument("--clients", type=int, default=8, help="concurrent connections")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="kalooki-bench-club-"))
    try:
        run(scratch, args.members, args.events, args.clients, args.seconds)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(scratch: Path, members: int, events: int, clients: int, seconds: float) -> None:
    env = stack.prepare(scratch, "bench_club_pages")
    from django.db import connection

    from bench.run import machine

    started = time.perf_counter()
    club, paths = setup_club(members, events)
    built = time.perf_counter() - started
    port = int(os.environ.get("BENCH_PORT") or stack.free_port())
    gunicorn = stack.gunicorn_command("config.wsgi", port, scratch)
    try:
        counts = drawn(paths)
        connection.close()  # idle through the load tests
        with stack.process(gunicorn, env, scratch / "gunicorn.log") as web:
            stack.wait_until(
                lambda: stack.answers(port, stack.STATIC) or web.poll() is not None,
                "gunicorn",
                READY_SECONDS,
                scratch / "gunicorn.log",
            )
            if web.poll() is not None:
                raise SystemExit((scratch / "gunicorn.log").read_text()[-2000:])
            rates = measure_rates(port, paths, clients, seconds)
    finally:
        connection.close()
        forget_club(club)
        if "REDIS_URL" in env:
            stack.forget_own_keys()
    report(members, events, built, counts, rates, clients, seconds, env, machine())


def report(
    members: int,
    events: int,
    built: float,
    counts: dict[str, tuple[int, float]],
    rates: dict,
    clients: int,
    seconds: float,
    env: dict[str, str],
    machine: str,
) -> None:
    database, cache, tool = stack.services(env)
    static = rates["static"]["rps"]
    print(f"machine: {machine}")
    print(
        f"stack: gunicorn config.wsgi -w 4 (sync), DEBUG=0, {database}, cache {cache}; load: "
        f"{tool}, {clients} connections, best of {ROUNDS} interleaved runs of {seconds:g} s, "
        "Accept-Encoding: gzip as browsers send"
    )
    print(
        f"club: {members} members, {events} events of 40 (3 rounds each), one season of every "
        f"event (best {BEST_OF}), ratings recomputed; built in {built:.1f} s"
    )
    print(f"static file {stack.STATIC} (WhiteNoise): {static:.0f} requests/s")
    figures: dict = {"database": database, "cache": cache, "clients": clients, "members": members,
                     "events": events, "static_rps": round(static, 1)}  # fmt: skip
    bad = rates["static"]["bad"]
    for name in counts:
        rps = rates[name]["rps"]
        ratio = rps / static if static else 0.0
        verdict = "OK" if ratio >= RPS_AIM else "MISS"
        size = rates["bytes"][name] / 1024
        zipped = rates["gzip_bytes"][name] / 1024
        queries, took = counts[name]
        print(
            f"{name} page ({size:.0f} KiB, {zipped:.0f} KiB gzipped): drawn with {queries} "
            f"queries in {took * 1000:.0f} ms; held: {rps:.0f} requests/s, ratio to the static "
            f"file {ratio:.2f} (aim >= {RPS_AIM}) {verdict}"
        )
        figures |= {f"{name}_queries": queries, f"{name}_drawn_ms": round(took * 1000, 1),
                    f"{name}_rps": round(rps, 1), f"{name}_ratio": round(ratio, 3)}  # fmt: skip
        bad += rates[name]["bad"]
    if bad:
        print(f"WARNING: {bad} responses were not 2xx/3xx")
    figures["bad_responses"] = bad
    print("bench_club_pages: " + json.dumps(figures))


if __name__ == "__main__":
    main()
