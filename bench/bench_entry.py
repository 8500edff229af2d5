"""Benchmark: 50 tables entering their results at once through gunicorn and PostgreSQL.

Issue 5's target: with 50 concurrent clients submitting results to different tables, p99 latency
under 300 ms on this machine, and no errors. The run:

1. recreates the PostgreSQL database `kalooki_bench` (or BENCH_DATABASE_URL) and migrates it;
2. sets up, through the services a director uses, a tournament per scenario of tables (the trivial
   baseline needs none), round 1 published:
   50 tables of five (250 players) for each 50-table scenario;
3. starts gunicorn as config/gunicorn.py sets it up (a sync worker per CPU), DEBUG off, on a
   free port of 127.0.0.1, and one Celery worker for the standings refreshes; a warm-up
   tournament of its own then enters its first four games flat out (five phones per worker),
   not counted, so that no worker's first result (its rules read and compiled, its answers'
   plans made) falls inside a scenario of two seconds;
4. runs the scenarios: each client is a thread with its own table's link in
   `Authorization: Table <token>`; all are released together, and each PUTs its table's nine
   games in order (a realistic set with cards, calls, a down-and-out and an overcall,
   bench_rules.nine_game_set), each with an Idempotency-Key, expecting a 201 every time:
   - one table: a single phone, the base latency of one result;
   - 50 tables at once: nine waves; in each, all 50 phones send their game at the same
     moment (50 concurrent submissions), and the next wave starts when all are answered;
   - 50 tables flat out: every phone sends its next game the moment the last is answered, so
     the server is saturated and latency is mostly queueing;
   - 50 spectators flat out: 50 clients send 40 trivial requests each (GET /healthz, one probe
     of the database) without pause: the baseline against which a result's cost is judged;
   - 50 tables brisk: every phone pauses 0.3 to 0.9 s before each game, about 65 results/s in
     all, two thirds of what this machine serves flat out;
   - 50 tables at play speed: every phone pauses 1 to 3 s before each game;
5. prints per scenario: requests, errors, p50/p99 latency, results per second and the verdict
   "p99 < 300 ms: OK/MISS"; then, issue 18's measure of a result's cost, the trivial requests
   per second flat out over the results per second flat out (aim <= 8) and its verdict; then a
   JSON line. gunicorn and the worker are stopped whatever happened (a scenario gives up waiting
   after RUN_LIMIT_SECONDS).

Standings refreshes run as in production: queued through Redis (a database of the bench's own,
BENCH_REDIS_URL) to one Celery worker, which shares this machine's CPUs with gunicorn and
PostgreSQL. Without Redis they run eagerly inside the web workers (the embedded default), which
is much slower, and the output says so. Run from anywhere: `python bench/bench_entry.py`, or
`python bench/bench_entry.py "flat out"` for the scenarios whose names contain those words.
Each scenario also prints the CPU milliseconds per result used by each kind of process.
Exits 0 when PostgreSQL is not there (the output says it was skipped); a MISS does not fail it.
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_bench"
)
# A Redis database of the bench's own: the broker of its Celery worker and the web's cache.
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
TABLES = 50
WORKERS = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)  # as config/gunicorn.py
P99_TARGET_MS = 300.0
TRIVIAL_REQUESTS = 40  # per spectator, in the trivial baseline: 2,000 in all
WRITE_TARGET = 8.0  # issue 18: a result costs at most 8 trivial requests (their rates' ratio)
HOST = "127.0.0.1"
SERVER_START_SECONDS = 60
REQUEST_TIMEOUT_SECONDS = 30
RUN_LIMIT_SECONDS = 300  # a scenario stops waiting for its clients after this
WARM_UP_PHONES_PER_WORKER = 5
WARM_UP_GAMES = 4
WARM_UP_SETTLE_SECONDS = 2.0  # the standings refreshes the warm-up queued are done by then
PLAY_PAUSE_SECONDS = (1.0, 3.0)
BRISK_PAUSE_SECONDS = (0.3, 0.9)  # ~65 results/s from 50 tables: well below saturation
PYTHON = sys.executable
BIN = Path(PYTHON).parent


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    system = f"{platform.system()} {platform.release()}"
    return f"{system} · {cpu} · {os.cpu_count()} CPUs · Python {platform.python_version()}"


def server_env(redis_url: str | None) -> dict[str, str]:
    """Production-like settings on plain HTTP at 127.0.0.1, against the bench database."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    return (
        env
        | ({"REDIS_URL": redis_url} if redis_url else {})
        | {
            "DATABASE_URL": DATABASE_URL,
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "LOG_LEVEL": "WARNING",
        }
    )


# --- the database and the tournament ------------------------------------------------------------


def postgres_missing() -> str | None:
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(DATABASE_URL)
    try:
        psycopg.connect(
            dbname="postgres", host=config["HOST"], port=config["PORT"], user=config["USER"],
            connect_timeout=3,
        ).close()  # fmt: skip
    except psycopg.OperationalError as exc:
        return f"PostgreSQL at {config['HOST']}:{config['PORT']} does not answer ({exc})"
    return None


def redis_missing() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        return f"Redis at {REDIS_URL} does not answer ({exc})"
    return None


def recreate_database(env: dict[str, str]) -> float:
    """Drop and create the bench database, then migrate it; the seconds it took."""
    import dj_database_url
    import psycopg
    from psycopg import sql

    started = time.perf_counter()
    config = dj_database_url.parse(DATABASE_URL)
    admin = {"host": config["HOST"], "port": config["PORT"], "user": config["USER"]}
    with psycopg.connect(dbname="postgres", autocommit=True, **admin) as conn:
        name = sql.Identifier(config["NAME"])
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
    subprocess.run([PYTHON, "bin/createdb.py"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return time.perf_counter() - started


@dataclass(frozen=True)
class BenchTable:
    id: int
    token: str


def django_setup() -> None:
    """This process talks to the bench database directly, to set tournaments up."""
    os.environ.update({"DATABASE_URL": DATABASE_URL, "DEBUG": "1"})
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def set_up_tournament(name: str, tables: int) -> list[BenchTable]:
    """`tables` tables of five, round 1 published: through the director's services."""
    import datetime

    from django.contrib.auth import get_user_model

    from scoring.rounds import round_add, round_publish
    from tables.services import round_seat
    from tournament.services import entries_check_in_all, players_import_csv, tournament_create

    director, _ = get_user_model().objects.get_or_create(username="bench-director")
    day = datetime.date(2026, 11, 21)
    tournament = tournament_create(
        by=director, name=name, starts_on=day, ends_on=day, venue="127.0.0.1"
    )
    players = "\n".join(f"Player {n:03d},Club {n % 12}" for n in range(1, tables * 5 + 1))
    players_import_csv(tournament=tournament, by=director, text="name,club\n" + players)
    entries_check_in_all(tournament=tournament, by=director)
    round = round_add(tournament=tournament, by=director)
    seated = round_seat(round=round, by=director, seed=2025)
    round_publish(round=round, by=director)
    assert len(seated) == tables and all(table.seats.count() == 5 for table in seated)
    return [BenchTable(table.pk, table.access_token) for table in seated]


def game_bodies() -> list[bytes]:
    """The nine games as a phone sends them: players by seat (Ann in seat 1, ..., Ed in 5)."""
    from bench.bench_rules import nine_game_set

    bodies = []
    for entry in nine_game_set():
        hands = []
        for seat, hand in enumerate(entry.hands, start=1):
            line = {key: value for key, value in asdict(hand).items() if value is not None}
            line.pop("adjustment", None)
            line.pop("player")
            hands.append({"seat": seat, **line})
        body = {
            "down_and_out": entry.down_and_out,
            "hands": hands,
            "confirm_warnings": True,
            "entered_by": "Bench scorekeeper",
        }
        bodies.append(json.dumps(body).encode())
    return bodies


# --- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_gunicorn(env: dict[str, str], port: int) -> subprocess.Popen:
    command = [str(BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi", "--preload"]
    command += ["--bind", f"{HOST}:{port}", "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def start_celery_worker(env: dict[str, str]) -> subprocess.Popen:
    """The standings refreshes run here, as in production (Procfile), not in the web workers."""
    command = [str(BIN / "celery"), "--quiet", "-A", "config", "worker", "--concurrency", "1"]
    command += ["--loglevel", "ERROR", "--without-gossip", "--without-mingle"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)


def wait_until_serving(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode} before serving")
        try:
            status, _ = request(port, "GET", "/healthz")
            if status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not serve /healthz within {SERVER_START_SECONDS} s")


def stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)


def request(
    port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, bytes]:
    """One request on a new connection (gunicorn's sync workers close after each answer)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_SECONDS)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


# --- the clients ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    name: str
    tables: int
    pause_seconds: tuple[float, float]  # before each game, drawn uniformly; (0, 0): flat out
    what: str
    waves: bool = False  # every phone sends game n at the same moment, once all answered n - 1
    trivial: bool = False  # each client GETs /healthz TRIVIAL_REQUESTS times instead: a baseline

    def requests(self, games: int) -> int:
        """The requests each client makes."""
        return TRIVIAL_REQUESTS if self.trivial else games


@dataclass
class Client:
    """One table's phone: its nine games in order, each answer's latency and status."""

    table: BenchTable
    pause_seconds: tuple[float, float]
    wave: threading.Barrier | None = None  # shared by the phones of a scenario in waves
    trivial: bool = False  # a spectator's trivial requests, not a table's games
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def play_set(self, port: int, bodies: list[bytes], start: threading.Barrier) -> None:
        pauses = random.Random(self.table.id)
        headers = {
            "Authorization": f"Table {self.table.token}",
            "Content-Type": "application/json",
        }
        start.wait(timeout=60)
        if self.trivial:
            self.look_on(port)
            return
        for number, body in enumerate(bodies, start=1):
            time.sleep(pauses.uniform(*self.pause_seconds))
            if not self.next_wave():
                self.errors.append(f"table {self.table.id} game {number}: another phone failed")
                return
            path = f"/api/tables/{self.table.id}/games/{number}/result"
            headers["Idempotency-Key"] = str(uuid.uuid4())
            what = f"table {self.table.id} game {number}"
            if not self.timed(port, "PUT", path, 201, what, body, headers):
                self.give_up()
                return

    def look_on(self, port: int) -> None:
        """TRIVIAL_REQUESTS of the trivial view, one after the other, each expecting a 200."""
        for _ in range(TRIVIAL_REQUESTS):
            if not self.timed(port, "GET", "/healthz", 200, "/healthz"):
                return

    def timed(
        self, port: int, method: str, path: str, expected: int, what: str, *sent: object
    ) -> bool:
        """One request, its latency kept if answered; False (the error kept) unless `expected`."""
        started = time.perf_counter()
        try:
            status, answer = request(port, method, path, *sent)
        except OSError as exc:
            self.errors.append(f"{what}: {exc}")
            return False
        self.latencies_ms.append((time.perf_counter() - started) * 1000)
        if status != expected:
            self.errors.append(f"{what}: {status} {answer[:200]}")
        return status == expected

    def next_wave(self) -> bool:
        """In waves, wait for every phone to be ready for the next game; False if one failed."""
        if self.wave is None:
            return True
        try:
            self.wave.wait(timeout=REQUEST_TIMEOUT_SECONDS * 2)
        except threading.BrokenBarrierError:
            return False
        return True

    def give_up(self) -> None:
        """Release the other phones of a wave when this one cannot go on."""
        if self.wave is not None:
            self.wave.abort()


def warm_up(port: int, tables: list[BenchTable], bodies: list[bytes]) -> None:
    """Each worker's first requests pay for its database connection and its first result (the
    rules read and compiled, the answers' plans made), which a server that has run for a while
    paid long ago: a tournament of its own enters its first games flat out, not counted."""
    scenario = Scenario("warm-up", len(tables), (0, 0), "not counted")
    clients, _, _ = run(scenario, port, tables, bodies[:WARM_UP_GAMES])
    errors = [error for client in clients for error in client.errors]
    if errors:
        raise RuntimeError(f"the warm-up failed: {errors[0]}")
    time.sleep(WARM_UP_SETTLE_SECONDS)  # not counted in the first scenario's CPU either


def run(
    scenario: Scenario, port: int, tables: list[BenchTable], bodies: list[bytes]
) -> tuple[list[Client], float, dict[str, float]]:
    """Every table's client in its own thread, released together; the clients, the wall time
    and the CPU seconds each kind of process used meanwhile."""
    wave = threading.Barrier(len(tables)) if scenario.waves else None
    clients = [Client(table, scenario.pause_seconds, wave, scenario.trivial) for table in tables]
    start = threading.Barrier(len(clients) + 1)
    threads = [
        threading.Thread(target=client.play_set, args=(port, bodies, start), daemon=True)
        for client in clients
    ]
    for thread in threads:
        thread.start()
    start.wait(timeout=60)
    cpu_before = cpu_seconds()
    started = time.perf_counter()
    deadline = started + RUN_LIMIT_SECONDS
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.perf_counter()))
    wall = time.perf_counter() - started
    cpu = {kind: used - cpu_before.get(kind, 0.0) for kind, used in cpu_seconds().items()}
    return clients, wall, cpu


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by this machine's processes, by kind: the web workers, the Celery
    worker, PostgreSQL, Redis and this bench's own clients. Linux only; elsewhere, empty."""
    kinds = {"gunicorn": "web", "celery": "worker", "postgres": "postgres", "redis": "redis"}
    used: dict[str, float] = {}
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime + stime
        kind = "bench" if int(pid) == os.getpid() else None
        kind = kind or next((k for word, k in kinds.items() if word in command), None)
        if kind:
            used[kind] = used.get(kind, 0.0) + ticks / os.sysconf("SC_CLK_TCK")
    return used


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def report(
    scenario: Scenario, clients: list[Client], wall: float, cpu: dict[str, float], games: int
) -> dict:
    latencies = [ms for client in clients for ms in client.latencies_ms]
    errors = [error for client in clients for error in client.errors]
    expected = len(clients) * scenario.requests(games)
    p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
    complete = not errors and len(latencies) == expected
    verdict = "OK" if p99 < P99_TARGET_MS and complete else "MISS"
    print(f"\n-- {scenario.name}: {scenario.what}")
    print(f"   requests: {len(latencies)} answered of {expected}, errors: {len(errors)}")
    for error in errors[:5]:
        print(f"   error: {error}")
    print(
        f"   latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms, mean {statistics.fmean(latencies):.1f} "
        f"ms, max {max(latencies):.1f} ms"
    )
    what = "requests" if scenario.trivial else "results"
    print(f"   {what} per second: {len(latencies) / wall:.1f} ({wall:.2f} s wall)")
    if cpu and latencies:
        per_result = {kind: 1000 * used / len(latencies) for kind, used in sorted(cpu.items())}
        shares = ", ".join(f"{kind} {ms:.1f}" for kind, ms in per_result.items())
        print(f"   CPU ms per {what[:-1]}: {sum(per_result.values()):.1f} ({shares})")
    if scenario.tables < TABLES or scenario.trivial:
        verdict = "(not judged: a baseline)"
    print(f"   p99 < {P99_TARGET_MS:.0f} ms: {verdict}")
    return {
        "scenario": scenario.name,
        "requests": len(latencies),
        "errors": len(errors),
        "p50_ms": round(p50, 1),
        "p99_ms": round(p99, 1),
        "results_per_second": round(len(latencies) / wall, 1),
        "verdict": verdict,
    }


def write_cost(figures: list[dict]) -> None:
    """The issue's measure of a result's cost: the trivial requests served per second flat out
    over the results stored per second flat out, in the same run."""
    rate = {figure["scenario"]: figure["results_per_second"] for figure in figures}
    results, trivial = rate.get(FLAT_OUT), rate.get(SPECTATORS)
    if results and trivial:
        cost = trivial / results
        figures.append({"scenario": "a result in trivial requests", "ratio": round(cost, 2)})
        print(
            f"\n-- a result costs {cost:.2f} trivial requests ({trivial:.0f} trivial requests/s "
            f"over {results:.0f} results/s, flat out; aim <= {WRITE_TARGET:g}): "
            f"{'OK' if cost <= WRITE_TARGET else 'MISS'}"
        )


# A result's cost is the ratio of these two scenarios' rates (`write_cost`).
FLAT_OUT, SPECTATORS = "50 tables flat out", "50 spectators flat out"
SCENARIOS = [
    Scenario("one table", 1, (0, 0), "a single phone entering its nine games: the base latency"),
    Scenario(
        "50 tables at once",
        TABLES,
        (0, 0),
        f"{TABLES} phones send each game at the same moment: nine waves of {TABLES} requests",
        waves=True,
    ),
    Scenario(
        FLAT_OUT,
        TABLES,
        (0, 0),
        f"{TABLES} phones at once, each sending its next game as soon as the last is answered",
    ),
    Scenario(
        SPECTATORS,
        TABLES,
        (0, 0),
        f"{TABLES} clients at once, each sending {TRIVIAL_REQUESTS} trivial requests (GET "
        "/healthz: one probe of the database) without pause: the baseline of a result's cost",
        trivial=True,
    ),
    Scenario(
        "50 tables brisk",
        TABLES,
        BRISK_PAUSE_SECONDS,
        f"{TABLES} phones at once, each pausing {BRISK_PAUSE_SECONDS[0]:g} to "
        f"{BRISK_PAUSE_SECONDS[1]:g} s before each game (a ten-minute game, sped up ~1000 times)",
    ),
    Scenario(
        "50 tables at play speed",
        TABLES,
        PLAY_PAUSE_SECONDS,
        f"{TABLES} phones at once, each pausing {PLAY_PAUSE_SECONDS[0]:g} to "
        f"{PLAY_PAUSE_SECONDS[1]:g} s before each game (a ten-minute game, sped up ~300 times)",
    ),
]


def main(names: list[str]) -> int:
    """Runs every scenario, or those whose names contain one of `names` ("flat out")."""
    scenarios = [s for s in SCENARIOS if not names or any(n in s.name for n in names)]
    print(f"machine: {machine()}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    missing = postgres_missing()
    if missing:
        print(f"bench_entry: skipped: {missing}")
        return 0
    no_redis = redis_missing()
    env = server_env(None if no_redis else REDIS_URL)
    print(f"database: {DATABASE_URL} recreated and migrated in {recreate_database(env):.1f} s")
    if no_redis:
        print(f"standings: refreshed in the web workers (eager Celery): {no_redis}")
    else:
        print(f"standings: refreshed by one Celery worker through {REDIS_URL}")
    started = time.perf_counter()
    django_setup()
    tables = [
        [BenchTable(0, "")] * s.tables
        if s.trivial
        else set_up_tournament(f"Bench {s.name}", s.tables)
        for s in scenarios
    ]  # a trivial baseline's clients use no table
    warm_up_tables = set_up_tournament("Bench warm-up", WORKERS * WARM_UP_PHONES_PER_WORKER)
    bodies = game_bodies()
    took = time.perf_counter() - started
    set_up = sum(s.tables for s in scenarios if not s.trivial) + len(warm_up_tables)
    print(f"set-up: {set_up} tables of five (a warm-up tournament's included) in {took:.1f} s")
    print(f"server: gunicorn, {WORKERS} sync workers, DEBUG off, PostgreSQL, 127.0.0.1")
    port = free_port()
    processes = [] if no_redis else [start_celery_worker(env)]
    figures = []
    try:
        processes.append(start_gunicorn(env, port))
        wait_until_serving(port, processes[-1])
        warm_up(port, warm_up_tables, bodies)
        for scenario, its_tables in zip(scenarios, tables, strict=True):
            clients, wall, cpu = run(scenario, port, its_tables, bodies)
            figures.append(report(scenario, clients, wall, cpu, len(bodies)))
    finally:
        for process in reversed(processes):
            stop(process)
    write_cost(figures)
    print("\nbench_entry: " + json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
