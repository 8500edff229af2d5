"""The production-like stack run for a test: the Procfile's processes under bin/supervise.py,
DEBUG off, on 127.0.0.1 only, with files and a SQLite database of the test's own.

Ports come from TEST_PORTS (a range, `8400-8499` unless set), the first free one of this pytest
worker's quarter of it: a test never takes a port another engineer's server uses, and two
workers never reach for the same one at once.
"""

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from tests.xdist_worker import worker_number

ROOT = Path(settings.BASE_DIR)
HOST = "127.0.0.1"
START_SECONDS = 60


def free_port() -> int:
    first, _, last = os.environ.get("TEST_PORTS", "8400-8499").partition("-")
    ports = range(int(first), int(last or first) + 1)
    quarter = max(len(ports) // 4, 1)
    start = ((worker_number() or 0) % 4) * quarter
    for port in [*ports[start : start + quarter], *ports]:
        with socket.socket() as probe:
            try:
                probe.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in TEST_PORTS {first}-{last}")


def gunicorn_command(scratch: Path, bind: str, *options: str) -> list[str]:
    """gunicorn serving the project on `bind`, its control socket in the test's own `scratch`.

    gunicorn's default control socket is one for the whole machine ($XDG_RUNTIME_DIR or
    ~/.gunicorn/gunicorn.ctl): a second server started takes it over, and the first one stopped
    removes it, whoever's it was. gunicorn removes its own when it stops."""
    control = scratch / f"gunicorn-{bind.rsplit(':', 1)[-1]}.ctl"
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    return [gunicorn, "config.wsgi", "--bind", bind, "--control-socket", str(control), *options]


def stack_env(scratch: Path, port: int, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    return env | {
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        "DEBUG": "0",
        "SECRET_KEY": "test-stack-" + "x" * 40,
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
        "WEB_CONCURRENCY": "2",
        "WEB_BIND": HOST,
        "WEB_PORT": str(port),
        "WEB_SOCKET": str(scratch / "web.sock"),
        "FRONT_DIR": str(scratch / "front"),
        "BEAT_SCHEDULE": str(scratch / "beat-schedule"),
        **more,
    }


def get(port: int, path: str, timeout: float = 5, host: str = HOST) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": HOST})
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@contextmanager
def supervised(procfile: Path, env: dict[str, str], port: int, *only: str) -> Iterator[Path]:
    """The processes of `procfile` (those named in `only`, else all) until /healthz answers
    on `port`; the supervisor's log, kept beside the stack's own files. Stopped whatever
    happened."""
    log = Path(env["FRONT_DIR"]).parent / f"{procfile.name}.log"
    command = [sys.executable, str(ROOT / "bin" / "supervise.py"), str(procfile)]
    if only:
        command += ["--only", ",".join(only)]
    with log.open("wb") as out:
        popen = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        _wait_for(port, popen, log)
        yield log
    finally:
        os.killpg(popen.pid, signal.SIGTERM)
        try:
            popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(popen.pid, signal.SIGKILL)
            popen.wait(timeout=10)


def _wait_for(port: int, popen: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert popen.poll() is None, log.read_text()[-3000:]
        try:
            if get(port, "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"nothing served /healthz on {port}:\n{log.read_text()[-3000:]}")
