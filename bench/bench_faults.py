"""Fault benchmark: a burst of result entries while Redis is healthy, killed, or frozen.

Issue #17's figures: a burst of 200 entries from 10 phones, with 10 spectators polling the public
leaderboard, on the production-like stack: gunicorn (config/gunicorn.py), a Celery worker and
Celery beat as the Procfile runs them, PostgreSQL (the database `kalooki_bench_faults`, or
BENCH_FAULTS_DATABASE_URL, recreated), and a redis-server this bench starts on a free port of
its own, so that it can kill (-9) and freeze (SIGSTOP) it. For each scenario:

1. a tournament of 20 tables of five, round 1 published, set up through the director's
   services; a fresh Redis, gunicorn, a worker and beat;
2. 10 spectators start polling `/p/<slug>/leaderboard` without pause;
3. the fault: none, Redis killed (-9), or Redis frozen (SIGSTOP), just before the burst;
4. the burst: each phone keeps two tables, enters their nine games each and corrects the last
   game of each (20 entries a phone, 200 in all), each answered before the next is sent;
5. Redis is given back (started again, empty, on the same port; or SIGCONT) once the burst
   is over, and the clock starts;
6. printed: entries stored (answered 201/200 and found in the database), p50/p99 entry latency,
   pages served to the spectators, and the seconds from Redis's return (from the burst's end
   when healthy) until the stored standings count every game.

Aim: all stored; p99 under 1 s killed or frozen; standings converged within 10 s of Redis
returning. Run alone: `python bench/bench_faults.py [healthy|killed|frozen ...]`. Exits 0 with
a note when PostgreSQL or the redis-server binary is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault(
    "BENCH_DATABASE_URL",
    os.environ.get(
        "BENCH_FAULTS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_bench_faults"
    ),
)

from bench import bench_entry as stack  # noqa: E402 (the path above first)

PHONES = 10
TABLES_PER_PHONE = 2
SPECTATORS = 10
CONVERGE_LIMIT_SECONDS = 120
P99_AIM_SECONDS = 1.0
CONVERGE_AIM_SECONDS = 10.0
SCENARIOS = ("healthy", "killed", "frozen")


# --- a Redis of the bench's own ------------------------------------------------------------------


class OwnRedis:
    def __init__(self, directory: str) -> None:
        self.directory, self.port = directory, stack.free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.popen: subprocess.Popen | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", self.directory]
        self.popen = subprocess.Popen(command, stdout=subprocess.DEVNULL, start_new_session=True)
        import redis

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(self.url, socket_timeout=1).ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError("the bench's Redis did not start")

    def kill(self) -> None:
        if self.popen is not None:
            self.popen.send_signal(signal.SIGCONT)
            self.popen.kill()
            self.popen.wait(timeout=10)
            self.popen = None

    def freeze(self) -> None:
        assert self.popen is not None
        self.popen.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.popen is not None
        self.popen.send_signal(signal.SIGCONT)


# --- the hall ------------------------------------------------------------------------------------


@dataclass
class Phone:
    """One phone keeping two tables: their nine games each, then a correction of game 9."""

    port: int
    tables: list[stack.BenchTable]
    bodies: list[bytes]
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def entries(self) -> list[tuple[stack.BenchTable, int, bytes]]:
        games = [(t, n, body) for t in self.tables for n, body in enumerate(self.bodies, 1)]
        return games + [(t, 9, self.correction()) for t in self.tables]

    def correction(self) -> bytes:
        body = json.loads(self.bodies[8])
        body.update(version=1, reason="Seat 2's cards were miscounted")
        body["hands"][1]["cards"] = body["hands"][1].get("cards", "") + " 2C"
        body["hands"][1].pop("points", None)
        return json.dumps(body).encode()

    def play(self, start: threading.Barrier) -> None:
        start.wait(timeout=60)
        for table, number, body in self.entries():
            headers = {
                "Authorization": f"Table {table.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": str(uuid.uuid4()),
            }
            path = f"/api/tables/{table.id}/games/{number}/result"
            started = time.perf_counter()
            try:
                status, answer = stack.request(self.port, "PUT", path, body, headers)
            except OSError as exc:
                status, answer = 0, str(exc).encode()
            self.latencies.append(time.perf_counter() - started)
            if status not in (200, 201):
                self.errors.append(f"table {table.id} game {number}: {status} {answer[:160]!r}")


class Spectators:
    def __init__(self, port: int, slug: str) -> None:
        self.port, self.path = port, f"/p/{slug}/leaderboard"
        self.stop, self.served, self.failed = threading.Event(), 0, 0
        self.threads = [threading.Thread(target=self.poll, daemon=True) for _ in range(SPECTATORS)]

    def poll(self) -> None:
        while not self.stop.is_set():
            try:
                status, _ = stack.request(self.port, "GET", self.path)
            except OSError:
                status = 0
            if status == 200:
                self.served += 1
            else:
                self.failed += 1

    def __enter__(self) -> Spectators:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)


# --- one scenario --------------------------------------------------------------------------------


@dataclass
class Outcome:
    scenario: str
    entries: int
    answered: int
    stored: int
    p50: float
    p99: float
    pages: int
    page_errors: int
    converged: float | None
    errors: list[str]


def start_processes(env: dict[str, str], port: int, workdir: str) -> list[subprocess.Popen]:
    web = stack.start_gunicorn(env, port)
    worker = stack.start_celery_worker(env)
    beat = subprocess.Popen(
        [str(stack.BIN / "celery"), "-A", "config", "beat", "--loglevel", "ERROR",
         "--schedule", f"{workdir}/beat-schedule"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    stack.wait_until_serving(port, web)
    return [web, worker, beat]


def hands_counted(slug: str) -> int:
    from scoring.models import StandingsSnapshot

    latest = StandingsSnapshot.objects.filter(tournament__slug=slug).order_by("-version").first()
    return sum(row["games_played"] for row in latest.data["players"]) if latest else 0


def revisions_stored(slug: str) -> int:
    from scoring.models import ResultRevision

    return ResultRevision.objects.filter(deal__table__round__tournament__slug=slug).count()


def converge_seconds(slug: str, hands: int) -> float | None:
    from django.db import connection

    started = time.monotonic()
    while time.monotonic() - started < CONVERGE_LIMIT_SECONDS:
        connection.close()  # a fresh read each time
        if hands_counted(slug) == hands:
            return time.monotonic() - started
        time.sleep(0.2)
    return None


def scenario_run(name: str, bodies: list[bytes]) -> Outcome:
    slug_name = f"Faults {name} {uuid.uuid4().hex[:6]}"
    tables = stack.set_up_tournament(slug_name, PHONES * TABLES_PER_PHONE)
    from tournament.models import Tournament

    tournament = Tournament.objects.get(name=slug_name)
    Tournament.objects.filter(pk=tournament.pk).update(is_published=True)
    with tempfile.TemporaryDirectory() as workdir:
        redis_ = OwnRedis(workdir)
        redis_.start()
        env = stack.server_env(redis_.url)
        port = stack.free_port()
        processes = start_processes(env, port, workdir)
        try:
            return burst(name, tournament.slug, tables, bodies, port, redis_)
        finally:
            for process in reversed(processes):
                stack.stop(process)
            redis_.kill()


def burst(
    name: str, slug: str, tables: list, bodies: list[bytes], port: int, redis_: OwnRedis
) -> Outcome:
    stack.warm_up(port, tables)
    phones = [
        Phone(port, tables[i * TABLES_PER_PHONE : (i + 1) * TABLES_PER_PHONE], bodies)
        for i in range(PHONES)
    ]
    start = threading.Barrier(PHONES + 1)
    threads = [threading.Thread(target=p.play, args=(start,), daemon=True) for p in phones]
    with Spectators(port, slug) as hall:
        time.sleep(1)  # the hall is watching
        {"killed": redis_.kill, "frozen": redis_.freeze}.get(name, lambda: None)()
        for thread in threads:
            thread.start()
        start.wait(timeout=60)
        for thread in threads:
            thread.join(timeout=stack.RUN_LIMIT_SECONDS)
        {"killed": redis_.start, "frozen": redis_.thaw}.get(name, lambda: None)()
        converged = converge_seconds(slug, len(tables) * 9 * 5)
    latencies = sorted(seconds for phone in phones for seconds in phone.latencies)
    errors = [error for phone in phones for error in phone.errors]
    return Outcome(
        scenario=name,
        entries=sum(len(phone.entries()) for phone in phones),
        answered=len(latencies) - len(errors),
        stored=revisions_stored(slug),
        p50=stack.percentile(latencies, 0.50),
        p99=stack.percentile(latencies, 0.99),
        pages=hall.served,
        page_errors=hall.failed,
        converged=converged,
        errors=errors[:5],
    )


def report(outcome: Outcome) -> None:
    fault = outcome.scenario != "healthy"
    converged = f"{outcome.converged:.1f} s" if outcome.converged is not None else "never"
    since = "after Redis returned" if fault else "after the burst"
    verdicts = [
        "all stored" if outcome.stored == outcome.entries else "LOST ENTRIES",
        f"p99 < 1 s: {'OK' if outcome.p99 < P99_AIM_SECONDS else 'MISS'}" if fault else "",
        "converged < 10 s: "
        + ("OK" if (outcome.converged or 1e9) < CONVERGE_AIM_SECONDS else "MISS"),
    ]
    print(
        f"Redis {outcome.scenario:<7}: {outcome.stored}/{outcome.entries} entries stored "
        f"({outcome.answered} answered 2xx) · p50 {outcome.p50 * 1000:.0f} ms · "
        f"p99 {outcome.p99 * 1000:.0f} ms · {outcome.pages} leaderboard pages served "
        f"({outcome.page_errors} failed) · standings converged {converged} {since} · "
        + " · ".join(v for v in verdicts if v)
    )
    for error in outcome.errors:
        print(f"    {error}")
    print(json.dumps({"bench": "faults", **outcome.__dict__}))


def missing() -> str | None:
    if shutil.which("redis-server") is None:
        return "the redis-server binary is not installed (apt-get install redis)"
    return stack.postgres_missing()


def main(names: list[str]) -> int:
    reason = missing()
    if reason:
        print(f"skipped: {reason}")
        return 0
    print(f"machine: {stack.machine()}")
    print(
        f"{PHONES} phones × {TABLES_PER_PHONE} tables × (9 games + 1 correction) = "
        f"{PHONES * TABLES_PER_PHONE * 10} entries; {SPECTATORS} spectators polling; "
        f"gunicorn {stack.WORKERS} workers, 1 Celery worker, beat"
    )
    env = stack.server_env(None)
    stack.recreate_database(env)
    stack.django_setup()
    bodies = stack.game_bodies()
    for name in names or SCENARIOS:
        report(scenario_run(name, bodies))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
