"""Benchmark: the venue's own stack, started as `make venue` and `make serve` start it (issue 30).

Two stacks, each run by bin/supervise.py from the Procfile (nginx in front of gunicorn's sync
workers, a Celery worker and Celery beat), DEBUG off, on 127.0.0.1 only:

- **venue**: the embedded default of `make venue`: SQLite, the cache and the task queue in files
  (SHARED_DIR), no Redis;
- **serve**: PostgreSQL (BENCH_DATABASE_URL, recreated) and Redis (BENCH_REDIS_URL).

For each stack, a tournament of 50 tables of five per scenario (round 1 published), set up
through the director's services, and these scenarios, each phone a thread PUTting its table's
nine games in order, each with an Idempotency-Key, expecting a 201 every time:

- **at once**: nine waves; in each, all 50 phones save their game at the same moment. Every
  save must be stored: a refusal (503 "database is locked" on SQLite) counts as a failure.
- **play speed**: the 50 phones pause 1 to 3 s before each game, while 200 phones watch the
  leaderboard as its page does (a conditional GET of its rows every 10 s, each phone starting at
  a moment of its own): p99 of a save and of a poll, and the CPU milliseconds per result that
  each kind of process used (all of this machine's PostgreSQL and Redis processes included).
- **slow clients**: K connections (64, or --slow K) of each kind, opened before the phones and
  opened again whenever the server drops one: slow headers (a byte a second, never finished),
  slow body (a byte a second of a result's body), slow reader (a 3.9 MB file read a kilobyte a
  second), stalled (half a body, then nothing, as a phone that left the Wi-Fi); beside them, 50
  phones save their nine games 1 to 3 s apart. Aim: p99 of a save under 1 s, none failed.
- **flat out**: the 50 phones send each game as soon as the last is answered: results per
  second and p99, issue 18's figure (there: gunicorn alone, bench_entry.py).

`--front none` serves gunicorn alone on the port, as both stacks did before issue 30;
`--front waitress` serves waitress (a pure-Python server that buffers by design) instead of nginx
and gunicorn, when it is installed. Each phone's request gives up after 10 s (a failure);
each scenario after RUN_LIMIT_SECONDS. The stack is stopped whatever happened.

    python bench/bench_venue.py [--stack venue|serve] [--front nginx|none|waitress]
                                [--slow K] [scenario words ...]

BENCH_PORT sets the port (else a free one of 127.0.0.1). Exits 0 when PostgreSQL or Redis is not
there for the serve stack (the output says it was skipped); a MISS does not fail it.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import random
import secrets
import shutil
import signal
import socket
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
os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_bench")

from bench import bench_entry as entry_bench  # noqa: E402 (the path above first)

HOST = "127.0.0.1"
PYTHON = sys.executable
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
TABLES = 50
WATCHERS = 200
WATCH_EVERY_SECONDS = 10.0  # hall/views.py: REFRESH_SECONDS
SLOW_EACH = 64
SLOW_TICK_SECONDS = 1.0
SLOW_SETTLE_SECONDS = 3.0  # the slow connections are open before the phones start
PHONE_TIMEOUT_SECONDS = 10.0
RUN_LIMIT_SECONDS = 180.0
START_SECONDS = 90.0
SAVE_AIM_MS = 1000.0
BIG_FILE = "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js.map"  # 3.9 MB
PLAY, FLAT = (1.0, 3.0), (0.0, 0.0)


# --- the stack -----------------------------------------------------------------------------------


def stack_env(stack: str, scratch: Path, port: int) -> dict[str, str]:
    """The environment `make venue` (stack "venue") or `make serve` ("serve") gives the
    Procfile's processes, pointed at the bench's own database, files and port."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "SHARED_DIR", "DJANGO_SETTINGS_MODULE", "CI")
    }
    env |= {
        "PATH": f"{Path(PYTHON).parent}:{os.environ.get('PATH', '')}",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "LOG_LEVEL": "WARNING",
        "WEB_BIND": HOST,
        "WEB_PORT": str(port),
        "WEB_SOCKET": str(scratch / "web.sock"),
        "FRONT_DIR": str(scratch / "front"),
        "BEAT_SCHEDULE": str(scratch / "beat-schedule"),
    }
    if stack == "venue":
        env |= {
            "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
            "SHARED_DIR": str(scratch / "shared"),
        }
    else:
        env |= {"DATABASE_URL": entry_bench.DATABASE_URL, "REDIS_URL": REDIS_URL}
    return env


def procfile(front: str, scratch: Path, port: int) -> Path:
    """The Procfile as it is (nginx), or with gunicorn alone or waitress on the port instead."""
    lines = (ROOT / "Procfile").read_text().splitlines()
    if front != "nginx":
        lines = [line for line in lines if not line.startswith(("front:", "web:"))]
        if front == "none":
            web = f"gunicorn -c config/gunicorn.py config.wsgi --bind {HOST}:{port} "
            web += "--access-logfile -"
        else:
            web = f"{PYTHON} -m waitress --listen={HOST}:{port} --threads=8 --channel-timeout=10 "
            web += "--connection-limit=1000 config.wsgi:application"
        lines.append(f"web: {web}")
    path = scratch / "Procfile"
    path.write_text("\n".join(lines) + "\n")
    return path


def prepare_database(stack: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    if stack == "serve":
        entry_bench.recreate_database(env)
    else:
        migrate = [PYTHON, "manage.py", "migrate", "--noinput", "--verbosity", "0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True)
    static = [PYTHON, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"]
    subprocess.run(static, cwd=ROOT, env=env, check=True)
    return time.perf_counter() - started


def django_setup(env: dict[str, str]) -> None:
    """This process sets the tournaments up in the stack's database, tasks eager."""
    os.environ["DATABASE_URL"] = env["DATABASE_URL"]
    os.environ["DEBUG"] = "1"
    for name in ("REDIS_URL", "SHARED_DIR"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def start(procfile_path: Path, env: dict[str, str], log: Path, port: int) -> subprocess.Popen:
    command = [PYTHON, "bin/supervise.py", str(procfile_path)]
    with log.open("wb") as out:
        supervisor = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if supervisor.poll() is not None:
            raise RuntimeError(f"the supervisor exited: {log.read_text()[-2000:]}")
        try:
            if entry_bench.request(port, "GET", "/healthz")[0] == 200:
                return supervisor
        except OSError:
            pass
        time.sleep(0.3)
    stop(supervisor)
    raise RuntimeError(f"the stack did not serve /healthz: {log.read_text()[-2000:]}")


def stop(supervisor: subprocess.Popen) -> None:
    if supervisor.poll() is None:
        os.killpg(supervisor.pid, signal.SIGTERM)
        try:
            supervisor.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(supervisor.pid, signal.SIGKILL)
            supervisor.wait(timeout=10)


# --- phones and watchers -------------------------------------------------------------------------


def call(port: int, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, port, timeout=PHONE_TIMEOUT_SECONDS)
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        return answer.status, dict(answer.getheaders())
    finally:
        conn.close()


@dataclass
class Timings:
    saves_ms: list[float] = field(default_factory=list)
    polls_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stored: int = 0  # saves answered 201
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, ms: float | None, failure: str | None = None) -> None:
        with self.lock:
            if ms is not None:
                (self.saves_ms if kind == "save" else self.polls_ms).append(ms)
            if failure:
                self.failures.append(failure)
            elif kind == "save":
                self.stored += 1


def phone(
    port: int, table, bodies, pauses: tuple[float, float], timings: Timings, wave, go
) -> None:
    rng = random.Random(table.id)
    headers = {"Authorization": f"Table {table.token}", "Content-Type": "application/json"}
    go.wait()
    for number, body in enumerate(bodies, start=1):
        time.sleep(rng.uniform(*pauses))
        if wave is not None:
            try:
                wave.wait(timeout=PHONE_TIMEOUT_SECONDS * 3)
            except threading.BrokenBarrierError:
                return
        path = f"/api/tables/{table.id}/games/{number}/result"
        sent = {**headers, "Idempotency-Key": str(uuid.uuid4())}
        started = time.perf_counter()
        try:
            status, _ = call(port, "PUT", path, body, sent)
        except OSError as exc:
            timings.add("save", None, f"table {table.id} game {number}: {exc}")
            status = None
        else:
            ms = (time.perf_counter() - started) * 1000
            failure = None if status == 201 else f"table {table.id} game {number}: {status}"
            timings.add("save", ms, failure)
        if status != 201:
            if wave is not None:
                wave.abort()
            return


def watcher(port: int, path: str, timings: Timings, done: threading.Event, seed: int) -> None:
    """A phone showing the leaderboard: its rows again every WATCH_EVERY_SECONDS, with the ETag
    it holds (a 304 while nothing changed)."""
    etag = None
    rng = random.Random(seed)
    if done.wait(rng.uniform(0, WATCH_EVERY_SECONDS)):
        return
    while not done.is_set():
        started = time.perf_counter()
        try:
            status, headers = call(port, "GET", path, None, {"If-None-Match": etag} if etag else {})
        except OSError as exc:
            timings.add("poll", None, f"poll: {exc}")
        else:
            failure = None if status in (200, 304) else f"poll: {status}"
            timings.add("poll", (time.perf_counter() - started) * 1000, failure)
            etag = headers.get("ETag", etag)
        done.wait(WATCH_EVERY_SECONDS)


# --- slow clients --------------------------------------------------------------------------------


@dataclass
class Slow:
    kind: str
    sock: socket.socket | None = None
    step: int = 0


class SlowCrowd:
    """K connections of each slow kind on one thread, each opened again when the server drops
    it; `opened` counts the openings."""

    KINDS = ("slow headers", "slow body", "slow reader", "stalled")

    def __init__(self, port: int, each: int, table_id: int) -> None:
        self.port, self.table_id = port, table_id
        self.clients = [Slow(kind) for kind in self.KINDS for _ in range(each)]
        self.opened = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for client in self.clients:
                try:
                    self._step(client)
                except OSError:
                    self._close(client)
            self.done.wait(SLOW_TICK_SECONDS)
        for client in self.clients:
            self._close(client)

    def _open(self, client: Slow) -> None:
        sock = socket.socket()
        if client.kind == "slow reader":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(2)
        sock.connect((HOST, self.port))
        sock.settimeout(0)
        client.sock, client.step = sock, 0
        self.opened += 1
        head = self._head(client.kind)
        sock.send(head)

    def _head(self, kind: str) -> bytes:
        put = f"PUT /api/tables/{self.table_id}/games/1/result HTTP/1.1\r\nHost: {HOST}\r\n"
        put += "Content-Type: application/json\r\nAuthorization: Table slow\r\n"
        if kind == "slow headers":
            return f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n".encode()
        if kind == "slow reader":
            return f"GET {BIG_FILE} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
        if kind == "slow body":
            return (put + "Content-Length: 100000\r\n\r\n").encode()
        return (put + "Content-Length: 2000\r\n\r\n" + '{"hands": [' + " " * 989).encode()

    def _step(self, client: Slow) -> None:
        if client.sock is None:
            self._open(client)
            return
        client.step += 1
        if client.kind == "slow reader":
            if client.sock.recv(1024) == b"":
                self._close(client)
            return
        if self._dropped(client.sock):
            self._close(client)
        elif client.kind == "slow headers":
            client.sock.send(b"X-Slow: a\r\n"[client.step % 11 : client.step % 11 + 1])
        elif client.kind == "slow body":
            client.sock.send(b" ")

    @staticmethod
    def _dropped(sock: socket.socket) -> bool:
        """The server answered (a refusal, a timeout) or closed the connection."""
        try:
            return len(sock.recv(4096, socket.MSG_DONTWAIT)) >= 0
        except BlockingIOError:
            return False

    @staticmethod
    def _close(client: Slow) -> None:
        if client.sock is not None:
            client.sock.close()
        client.sock = None


# --- scenarios -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    name: str
    what: str
    pauses: tuple[float, float]
    waves: bool = False
    watchers: int = 0
    slow: bool = False


SCENARIOS = [
    Scenario("at once", "nine waves of 50 saves at the same moment", FLAT, waves=True),
    Scenario(
        "play speed",
        f"50 phones 1-3 s apart, {WATCHERS} phones watching the leaderboard",
        PLAY,
        watchers=WATCHERS,
    ),
    Scenario(
        "slow clients",
        "K slow connections of each kind beside 50 phones 1-3 s apart",
        PLAY,
        slow=True,
    ),
    Scenario("flat out", "50 phones, each game as soon as the last is answered", FLAT),
]


def run(scenario: Scenario, port: int, tables, bodies, slug: str, slow_each: int, cpu) -> dict:
    timings = Timings()
    go = threading.Barrier(len(tables) + 1)
    wave = threading.Barrier(len(tables)) if scenario.waves else None
    phones = [
        threading.Thread(
            target=phone, args=(port, t, bodies, scenario.pauses, timings, wave, go), daemon=True
        )
        for t in tables
    ]
    done = threading.Event()
    rows = f"/p/{slug}/leaderboard/rows"
    watchers = [
        threading.Thread(target=watcher, args=(port, rows, timings, done, n), daemon=True)
        for n in range(scenario.watchers)
    ]
    crowd = SlowCrowd(port, slow_each, tables[0].id) if scenario.slow else None
    if crowd is not None:
        threading.Thread(target=crowd.run, daemon=True).start()
        time.sleep(SLOW_SETTLE_SECONDS)
    for thread in [*phones, *watchers]:
        thread.start()
    cpu_before = cpu()
    go.wait()
    started = time.perf_counter()
    for thread in phones:
        thread.join(timeout=max(0.0, started + RUN_LIMIT_SECONDS - time.perf_counter()))
    wall = time.perf_counter() - started
    used = {k: v - cpu_before.get(k, 0.0) for k, v in cpu().items()}
    done.set()
    if crowd is not None:
        crowd.done.set()
    return figures(scenario, timings, wall, used, len(tables) * len(bodies), crowd)


def figures(scenario, timings: Timings, wall, cpu, expected: int, crowd) -> dict:
    saves, stored = timings.saves_ms, timings.stored
    out = {
        "scenario": scenario.name,
        "stored": stored,
        "expected": expected,
        "failures": len(timings.failures),
        "save_p50_ms": round(entry_bench.percentile(saves, 0.5), 1) if saves else None,
        "save_p99_ms": round(entry_bench.percentile(saves, 0.99), 1) if saves else None,
        "results_per_second": round(stored / wall, 1),
    }
    if timings.polls_ms:
        out["polls"] = len(timings.polls_ms)
        out["poll_p99_ms"] = round(entry_bench.percentile(timings.polls_ms, 0.99), 1)
    if cpu and stored:
        out["cpu_ms_per_result"] = {k: round(1000 * v / stored, 2) for k, v in sorted(cpu.items())}
        out["cpu_ms_per_result_total"] = round(1000 * sum(cpu.values()) / stored, 1)
    if crowd is not None:
        out["slow_connections"] = len(crowd.clients)
        out["slow_openings"] = crowd.opened
        ok = not timings.failures and stored == expected
        out["aim"] = "OK" if ok and out["save_p99_ms"] < SAVE_AIM_MS else "MISS"
    elif scenario.name == "at once":
        out["refusals"] = len(timings.failures)
    print_figures(scenario, out, timings.failures)
    return out


def print_figures(scenario: Scenario, out: dict, failures: list[str]) -> None:
    print(f"\n-- {scenario.name}: {scenario.what}", flush=True)
    print(f"   saves stored: {out['stored']} of {out['expected']}, failures: {out['failures']}")
    for failure in failures[:3]:
        print(f"   failure: {failure}")
    print(
        f"   save p50 {out['save_p50_ms']} ms, p99 {out['save_p99_ms']} ms; "
        f"{out['results_per_second']} results/s"
    )
    if "polls" in out:
        print(f"   polls: {out['polls']}, p99 {out['poll_p99_ms']} ms")
    if "cpu_ms_per_result" in out:
        shares = ", ".join(f"{k} {v}" for k, v in out["cpu_ms_per_result"].items())
        print(f"   CPU ms per result: {out['cpu_ms_per_result_total']} ({shares})")
    if "aim" in out:
        print(
            f"   {out['slow_connections']} slow connections ({out['slow_openings']} openings); "
            f"aim p99 < {SAVE_AIM_MS:.0f} ms and nothing failed: {out['aim']}"
        )
    sys.stdout.flush()


KINDS = {
    "nginx": "front",
    "-m waitress": "web",
    "gunicorn": "web",
    "celery": "worker",
    "supervise.py": "supervisor",
}


def cpu_seconds(supervisor: int, database: str, redis_port: str) -> dict[str, float]:
    """CPU seconds used so far by the stack's own processes (the supervisor and every process
    under it), by kind, with the PostgreSQL backends serving its database, its Redis and this
    bench; Linux only."""
    stats: dict[int, tuple[int, float, str]] = {}  # pid: (parent, CPU seconds, command line)
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            command = command.replace("\x00", " ")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        # its own time, and its children's that have ended (a gunicorn or Celery worker
        # replaced): counted once, since an ended process is no longer listed itself
        ticks = sum(int(tick) for tick in fields[11:15])
        stats[int(pid)] = (int(fields[1]), ticks / os.sysconf("SC_CLK_TCK"), command)
    ours = _descendants(supervisor, stats)
    used: dict[str, float] = {}
    for pid, (_, seconds, command) in stats.items():
        kind = _kind(pid, pid in ours, command, database, redis_port)
        if kind:
            used[kind] = used.get(kind, 0.0) + seconds
    return used


def _descendants(root: int, stats: dict[int, tuple[int, float, str]]) -> set[int]:
    found, grew = {root}, True
    while grew:
        more = {pid for pid, (parent, _, _) in stats.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found


def _kind(pid: int, ours: bool, command: str, database: str, port: str) -> str | None:
    if pid == os.getpid():
        return "bench"
    if ours:
        return next((kind for word, kind in KINDS.items() if word in command), "other")
    if command.startswith("postgres:") and f" {database} " in command:
        return "postgres"
    if "redis-server" in command and port and f":{port}" in command:
        return "redis"
    return None


# --- one stack -----------------------------------------------------------------------------------


def missing(stack: str, front: str) -> str | None:
    if front == "nginx" and subprocess.run([PYTHON, "bin/front.py", "--check"], cwd=ROOT,
                                           capture_output=True).returncode:  # fmt: skip
        return "nginx is not installed (bin/front.py --check says what to install)"
    if front == "waitress" and importlib.util.find_spec("waitress") is None:
        return "waitress is not installed (pip install waitress)"
    if stack == "serve":
        return entry_bench.postgres_missing() or _redis_missing()
    return None


def _redis_missing() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        return f"Redis at {REDIS_URL} does not answer ({exc})"
    return None


def one_stack(stack: str, front: str, slow_each: int, names: list[str]) -> list[dict]:
    scenarios = [s for s in SCENARIOS if not names or any(n in s.name for n in names)]
    why = missing(stack, front)
    if why:
        print(f"\n== {stack}: skipped: {why}")
        return []
    port = int(os.environ.get("BENCH_PORT") or entry_bench.free_port())
    scratch = Path(tempfile.mkdtemp(prefix=f"bench-venue-{stack}-"))
    env = stack_env(stack, scratch, port)
    print(f"\n== {stack} ({'SQLite, files' if stack == 'venue' else 'PostgreSQL + Redis'}), "
          f"front: {front}, {HOST}:{port}")  # fmt: skip
    print(f"   database made in {prepare_database(stack, env):.1f} s")
    django_setup(env)
    tables = [entry_bench.set_up_tournament(f"Bench {s.name}", TABLES) for s in scenarios]
    warm = entry_bench.set_up_tournament("Bench warm-up", 10)
    slugs = _slugs([f"Bench {s.name}" for s in scenarios])
    bodies = entry_bench.game_bodies()
    supervisor = start(procfile(front, scratch, port), env, scratch / "stack.log", port)
    results = []
    database = env["DATABASE_URL"].rsplit("/", 1)[-1]
    redis_port = env.get("REDIS_URL", "").rsplit(":", 1)[-1].split("/")[0]
    cpu = lambda: cpu_seconds(supervisor.pid, database, redis_port)  # noqa: E731
    try:
        entry_bench.warm_up(port, warm, bodies)
        for scenario, its_tables, slug in zip(scenarios, tables, slugs, strict=True):
            figures_ = run(scenario, port, its_tables, bodies, slug, slow_each, cpu)
            results.append({"stack": stack, "front": front, **figures_})
    finally:
        stop(supervisor)
        shutil.rmtree(scratch, ignore_errors=True)
    return results


def _slugs(names: list[str]) -> list[str]:
    """The tournaments' addresses, published: the watchers read their public leaderboard."""
    from tournament.models import Tournament

    Tournament.objects.filter(name__in=names).update(is_published=True)
    return [Tournament.objects.get(name=name).slug for name in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=("venue", "serve"), action="append")
    parser.add_argument("--front", choices=("nginx", "none", "waitress"), default="nginx")
    parser.add_argument("--slow", type=int, default=SLOW_EACH, help="slow connections per kind")
    parser.add_argument("scenarios", nargs="*", help="words of the scenarios' names")
    args = parser.parse_args()
    print(f"machine: {entry_bench.machine()}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    stacks = args.stack or ["venue", "serve"]
    if len(stacks) > 1:  # each stack in a process of its own: Django sets up one database
        for stack in stacks:
            command = [PYTHON, __file__, "--stack", stack, "--front", args.front]
            subprocess.run([*command, "--slow", str(args.slow), *args.scenarios], check=False)
        return 0
    results = one_stack(stacks[0], args.front, args.slow, args.scenarios)
    print("\nbench_venue: " + json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
