"""Benchmark: how soon the hall's pages show a saved result, with watching phones polling.

A published tournament (2,000 players unless told: 400 tables of five, round 1 in play with
`GAMES_PLAYED` games at every table) is served by gunicorn (4 sync workers, DEBUG off, on
127.0.0.1) with a Celery worker, on PostgreSQL and Redis where they answer (BENCH_DATABASE_URL,
BENCH_REDIS_URL, as bench_leaderboard.py; without Redis there is no worker and the bench says
"skipped"). Then `--watchers` phones (500 unless told) watch the public pages as their scripts
do, each on its own schedule:
- the leaderboard and the projector: the rows every second (`hall.views.REFRESH_SECONDS`), with
  If-None-Match (a 304 while nothing changed);
- the home, player and table pages: the page's pulse every second (`PULSE_SECONDS`), and the
  live part (`?live=1`) when the pulse changed (and every `LIVE_SECONDS`, as live.js does).
`--saves` results (12) are saved one after another through the scoring service, at the tables
the player and table watchers look at, `SPACING` seconds apart (play speed); each watcher of a
page that shows the result times it from the commit until its page shows it. Printed per page:
save → visible p50, p95 and the worst, the count of watchers and of sightings; the aim is p95
<= 2 s at 2,000 players. Also printed: the requests per second the watchers made, and the bytes a
watching phone's leaderboard update takes after one change (headers and gzipped body; aim
<= 10 KB, the first page of the leaderboard's rows, `LEADERBOARD_PAGE_ROWS`).

The seating board shows no result (who sits where): it follows the same pulse as the home page.
Figures measured on a shared, loaded machine are noisy: compare runs, not single numbers.
Run: `python bench/bench_hall.py [--players N] [--watchers N] [--saves N]` (BENCH_PORT: its
port). The last line is for machines (prefix `bench_hall:`). Every process it starts is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_leaderboard as stack  # noqa: E402 (the path above first)

HOST = stack.HOST
SLUG = "bench-hall"
GAMES_PLAYED = 3
SPACING = 1.5  # seconds between two saves
SETTLE = 5.0  # seconds for every watcher to start (within 3 s) before the first save
GIVE_UP = 8.0  # a sighting later than this counts as this (and the run says so)
AIM = 2.0
READY_SECONDS = 90  # for gunicorn and the worker to answer, on a loaded machine
SHARE = {"leaderboard": 0.4, "projector": 0.1, "home": 0.1, "player": 0.2, "table": 0.2}


@dataclass
class Save:
    table: int
    entries: list[int]
    games: int
    page: int = 1  # the leaderboard's page that shows its second player
    at: float = 0.0  # when it was committed (perf_counter)


@dataclass
class Watch:
    page: str
    path: str
    pulse: str | None  # the pulse's path; None: the path itself is asked every second
    table: int | None = None  # the table (or the player's table) it shows
    entry: int | None = None
    board_page: int | None = None  # the leaderboard's page it shows
    etag: str = ""
    pulse_etag: str = ""
    seen: dict[int, float] = field(default_factory=dict)  # save index -> seconds to visible


async def http_get(path: str, port: int, headers: dict[str, str]) -> tuple[int, dict, bytes, int]:
    """One GET on a new connection (gunicorn's sync workers close each): status, headers,
    body, and the bytes of the whole response as received."""
    reader, writer = await asyncio.open_connection(HOST, port)
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", "Accept-Encoding: gzip", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, body, len(raw)


def decoded(headers: dict, body: bytes) -> str:
    import gzip

    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    if headers.get("transfer-encoding") == "chunked":
        body = dechunked(body)
    return body.decode()


def dechunked(body: bytes) -> bytes:
    out, rest = b"", body
    while rest:
        size, _, rest = rest.partition(b"\r\n")
        length = int(size, 16)
        if not length:
            break
        out, rest = out + rest[:length], rest[length + 2 :]
    return out


def shows(watch: Watch, html: str, save: Save) -> bool:
    """Whether the page's text shows the saved result."""
    if watch.page in ("leaderboard", "projector"):
        found = re.search(
            rf'<tr id="entry-{save.entries[1]}".*?class="num games">(\d+)<', html, re.S
        )
        return bool(found) and int(found.group(1)) >= save.games
    if watch.page == "home":
        found = re.search(rf'>Table {save.table}</a> <span class="muted small">(\d+)', html)
        return bool(found) and int(found.group(1)) >= save.games
    if watch.page == "player":
        found = re.search(r"</dt><dd>(\d+) played</dd>", html)
        return bool(found) and int(found.group(1)) >= save.games
    found = re.search(r"<p class=\"muted\">(\d+) of \d+ games? scored", html)
    return bool(found) and int(found.group(1)) >= save.games


async def follow(watch: Watch, port: int, saves: list[Save], until: float, counts: dict) -> None:
    """One phone: asks as its page's script does until `until`, noting when it saw each save."""
    loop_every, live_every = 1.0, 10.0
    await asyncio.sleep(hash(watch.path + str(id(watch))) % 3000 / 1000)  # spread the phones
    last_part = 0.0
    while time.perf_counter() < until:
        started = time.perf_counter()
        try:
            if watch.pulse is None:
                await fetch(watch, watch.path, port, saves, counts)
            else:
                status, headers, _, _ = await http_get(
                    watch.pulse,
                    port,
                    {"If-None-Match": watch.pulse_etag} if watch.pulse_etag else {},
                )
                counts["requests"] += 1
                changed = status == 200 and headers.get("etag", "") != watch.pulse_etag
                watch.pulse_etag = headers.get("etag", watch.pulse_etag)
                if changed or started - last_part >= live_every:
                    last_part = started
                    await fetch(watch, watch.path + "?live=1", port, saves, counts)
        except OSError:
            counts["errors"] += 1
        await asyncio.sleep(max(0.0, loop_every - (time.perf_counter() - started)))


async def fetch(watch: Watch, path: str, port: int, saves: list[Save], counts: dict) -> None:
    headers = {"If-None-Match": watch.etag} if watch.etag else {}
    status, found, body, size = await http_get(path, port, headers)
    counts["requests"] += 1
    if status != 200:
        return
    watch.etag = found.get("etag", "")
    html = decoded(found, body)
    now = time.perf_counter()
    if watch.page == "leaderboard" and any(s.at for s in saves):
        counts["update_bytes"].append(size)
    for index, save in enumerate(saves):
        if (
            save.at
            and index not in watch.seen
            and relevant(watch, save)
            and shows(watch, html, save)
        ):
            watch.seen[index] = now - save.at


def relevant(watch: Watch, save: Save) -> bool:
    if watch.page == "leaderboard":
        return watch.board_page == save.page
    if watch.page in ("player", "table"):
        return watch.table == save.table
    return True


def watchers(count: int, saves: list[Save]) -> list[Watch]:
    """`count` phones, shared among the pages (`SHARE`); the player and table pages are those of
    the tables where the results are saved."""
    base = f"/p/{SLUG}"
    found: list[Watch] = []
    for page, share in SHARE.items():
        for index in range(max(1, round(count * share))):
            save = saves[index % len(saves)]
            if page == "leaderboard":
                rows = f"{base}/leaderboard/rows?page={save.page}"
                found.append(Watch(page, rows, None, board_page=save.page))
            elif page == "projector":
                found.append(Watch(page, f"{base}/leaderboard/rows", None))
            elif page == "home":
                found.append(Watch(page, f"{base}/", f"{base}/pulse"))
            elif page == "player":
                entry = save.entries[1]
                path = f"{base}/players/{entry}"
                found.append(Watch(page, path, f"{path}/pulse", save.table, entry))
            else:
                path = f"{base}/tables/1/{save.table}"
                found.append(Watch(page, path, f"{path}/pulse", save.table))
    return found[:count] if len(found) > count else found


# --- the tournament and the saves ---------------------------------------------------------------


def setup(players: int, saves: int) -> tuple[object, list[Save]]:
    from bench.bench_standings import build_tournament, delete_tournament
    from scoring.standings import standings_refresh
    from tables.models import Table
    from tournament.models import Tournament

    for old in Tournament.objects.filter(slug=SLUG):
        delete_tournament(old)
    tournament = build_tournament(
        slug=SLUG, players=players, rounds=1, last_round_games=GAMES_PLAYED
    )
    standings = standings_refresh(tournament_id=tournament.pk).data
    order = {row["entry"]: index for index, row in enumerate(standings["players"])}
    tables = Table.objects.filter(round__tournament=tournament).order_by("number")
    step = max(1, tables.count() // saves)
    chosen = [t for i, t in enumerate(tables) if i % step == 0][:saves]
    from hall.views import LEADERBOARD_PAGE_ROWS

    saves = []
    for table in chosen:
        entries = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        page = order[entries[1]] // LEADERBOARD_PAGE_ROWS + 1
        saves.append(Save(table.number, entries, GAMES_PLAYED + 1, page))
    return tournament, saves


async def play(tournament, saves: list[Save]) -> None:
    """The saves, `SPACING` apart, each through the scoring service (one transaction)."""
    from asgiref.sync import sync_to_async

    await asyncio.sleep(SETTLE)
    for save in saves:
        await sync_to_async(record, thread_sensitive=True)(tournament, save)
        await asyncio.sleep(SPACING)


def record(tournament, save: Save) -> None:
    from scoring.services import HandInput, result_record
    from tables.models import Table

    table = Table.objects.get(round__tournament=tournament, number=save.table)
    hands = [HandInput(save.entries[0], went_out=True, cards="")]
    hands += [HandInput(entry, points=20 + i) for i, entry in enumerate(save.entries[1:])]
    result_record(table=table, number=save.games, hands=hands, via="bench")
    save.at = time.perf_counter()


async def probe(port: int, saves: list[Save], until: float, counts: dict) -> None:
    """The standings pipeline alone (commit, Celery, recompute, cache): the tournament's pulse
    asked every 50 ms; its first change after each save is when any page may show it."""
    etag, seen = "", counts["pipeline"]
    while time.perf_counter() < until:
        try:
            _, headers, _, _ = await http_get(f"/p/{SLUG}/pulse", port, {})
        except OSError:
            await asyncio.sleep(0.05)
            continue
        now = time.perf_counter()
        if headers.get("etag", "") != etag:
            etag = headers.get("etag", "")
            latest = max((i for i, save in enumerate(saves) if save.at), default=None)
            if latest is not None and latest not in seen:
                seen[latest] = now - saves[latest].at
        await asyncio.sleep(0.05)


async def watch_and_play(port: int, tournament, saves: list[Save], phones: list[Watch]) -> dict:
    counts: dict = {"requests": 0, "errors": 0, "update_bytes": [], "pipeline": {}}
    until = time.perf_counter() + SETTLE + len(saves) * SPACING + GIVE_UP
    started = time.perf_counter()
    await asyncio.gather(
        play(tournament, saves),
        probe(port, saves, until, counts),
        *(follow(w, port, saves, until, counts) for w in phones),
    )
    counts["seconds"] = time.perf_counter() - started
    return counts


def percentile(values: list[float], share: float) -> float:
    return stack.percentile(values, share) if values else float("nan")


def report(phones: list[Watch], saves: list[Save], counts: dict, players: int, env: dict) -> dict:
    from bench.run import machine

    database = "postgresql" if env["DATABASE_URL"].startswith("postgres") else "sqlite"
    print(f"machine: {machine()} (shared and loaded: figures are noisy)")
    print(
        f"stack: gunicorn -w 4 (sync), a Celery worker, DEBUG=0, {database}, Redis; "
        f"{players} players, {players // 5} tables, {GAMES_PLAYED} games played; {len(phones)} "
        f"watching phones; {len(saves)} saves {SPACING:g} s apart"
    )
    figures: dict = {"players": players, "watchers": len(phones), "saves": len(saves)}
    pipeline = list(counts["pipeline"].values())
    print(
        f"{'standings':12} save -> new snapshot p50 {percentile(pipeline, 0.5):.2f} s, p95 "
        f"{percentile(pipeline, 0.95):.2f} s (the pipeline alone: any page waits for it, then "
        "for its next poll, 1 s apart)"
    )
    figures["standings"] = {"p50": percentile(pipeline, 0.5), "p95": percentile(pipeline, 0.95)}
    worst_p95 = 0.0
    for page in SHARE:
        mine = [w for w in phones if w.page == page]
        wanted = sum(1 for w in mine for s in saves if relevant(w, s))
        seen = [min(t, GIVE_UP) for w in mine for t in w.seen.values()]
        missed = wanted - len(seen)
        seen += [GIVE_UP] * missed
        p50, p95 = percentile(seen, 0.5), percentile(seen, 0.95)
        worst_p95 = max(worst_p95, p95)
        print(
            f"{page:12} save -> visible p50 {p50:.2f} s, p95 {p95:.2f} s, worst {max(seen):.2f} s "
            f"({len(mine)} watchers, {wanted} sightings{f', {missed} missed' if missed else ''})"
        )
        figures[page] = {"p50": round(p50, 3), "p95": round(p95, 3), "watchers": len(mine)}
    rate = counts["requests"] / counts["seconds"]
    print(
        f"watchers' requests: {counts['requests']} in {counts['seconds']:.1f} s ({rate:.0f}/s), "
        f"{counts['errors']} errors"
    )
    updates = counts["update_bytes"]
    if updates:
        print(
            "a watching phone's leaderboard update after a change: median "
            f"{statistics_median(updates) / 1024:.1f} KiB, "
            f"max {max(updates) / 1024:.1f} KiB on the wire (aim <= 10 KB)"
        )
        figures["update_bytes_max"] = max(updates)
    verdict = "OK" if worst_p95 <= AIM else "MISS"
    print(f"aim: every page's p95 <= {AIM:g} s: {verdict}")
    figures["verdict"] = verdict
    return figures


def statistics_median(values: list[int]) -> float:
    import statistics

    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--saves", type=int, default=12)
    args = parser.parse_args()
    players = args.players - args.players % 5
    scratch = Path(tempfile.mkdtemp(prefix="kalooki-bench-hall-"))
    try:
        run(scratch, players, args.watchers, args.saves)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(scratch: Path, players: int, count: int, saves_count: int) -> None:
    env = {**os.environ, **stack.environment(scratch)}
    os.environ.update(env)
    if "REDIS_URL" not in env:
        print("bench_hall: skipped (no Redis: without a broker there is no Celery worker)")
        return
    if stack.redis_keys():
        raise SystemExit(
            f"bench_hall: Redis {stack.REDIS} holds keys already: set BENCH_REDIS_URL to an "
            "empty one."
        )
    import subprocess

    subprocess.run([sys.executable, "bin/createdb.py"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.bench_standings import delete_tournament

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    tournament, saves = setup(players, saves_count)
    phones = watchers(count, saves)
    port = int(os.environ.get("BENCH_PORT") or stack.free_port())
    gunicorn = [
        str(ROOT / ".venv/bin/gunicorn"),
        "config.wsgi",
        "-w",
        "4",
        "-b",
        f"{HOST}:{port}",
        "--log-level",
        "warning",
        "--control-socket",  # its own, not the machine's one default (tests/test_stack.py)
        str(scratch / "gunicorn.ctl"),
    ]
    worker = [
        str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "-c", "2", "-l", "WARNING",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    from config.celery import app as celery

    try:
        with (
            stack.process(gunicorn, env, scratch / "gunicorn.log") as web,
            stack.process(worker, env, scratch / "celery.log"),
        ):
            stack.wait_until(
                lambda: stack.answers(port, f"/p/{SLUG}/leaderboard") or web.poll() is not None,
                "gunicorn",
                READY_SECONDS,
                scratch / "gunicorn.log",
            )
            stack.wait_until(
                lambda: bool(celery.control.ping(timeout=0.5)),
                "the Celery worker",
                READY_SECONDS,
            )
            connection.close()
            counts = asyncio.run(watch_and_play(port, tournament, saves, phones))
    finally:
        connection.close()
        delete_tournament(tournament)
        stack.forget_own_keys()
    figures = report(phones, saves, counts, players, env)
    print("bench_hall: " + json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
