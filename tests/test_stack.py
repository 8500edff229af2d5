"""The servers tests and benches start keep to themselves and leave nothing behind.

gunicorn's default control socket is one path for the whole machine (~/.gunicorn/gunicorn.ctl
without XDG_RUNTIME_DIR): two test servers, or a test's and another engineer's, took it over
from each other and removed it when they stopped. Each server a test starts has its own, in the
test's own directory (`tests.stack.gunicorn_command`), or lies beside its own socket
(config/gunicorn.py, as the Procfile runs it).
"""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.stack import HOST, ROOT, free_port, get, gunicorn_command

GUNICORN_STARTED = re.compile(r"""(["'])(?:[\w./]*/)?gunicorn\1""")  # its path, as a string
OWN_CONTROL_SOCKET = ("gunicorn_command(", "--control-socket", "config/gunicorn.py")


def _answers(port: int) -> bool:
    try:
        return get(port, "/healthz")[0] in (200, 503)  # an empty database answers too
    except OSError:
        return False


@pytest.mark.slow
def test_a_test_gunicorn_keeps_its_control_socket_to_itself_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    port, db = free_port(), tmp_path / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    server = subprocess.Popen(
        gunicorn_command(tmp_path, f"{HOST}:{port}", "--workers", "1"),
        cwd=ROOT, env=env | {"HOME": str(home), "DEBUG": "1", "DATABASE_URL": f"sqlite:///{db}"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not _answers(port):
            assert time.monotonic() < deadline, "gunicorn did not answer"
            time.sleep(0.2)
        assert [p.name for p in tmp_path.glob("*.ctl")] == [f"gunicorn-{port}.ctl"]
        assert list(home.iterdir()) == []  # nothing in the machine-wide place
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert list(tmp_path.glob("*.ctl")) == []  # gunicorn removed its own on stopping
    with pytest.raises(ProcessLookupError):  # no worker outlived its master
        os.killpg(server.pid, 0)


def test_every_gunicorn_a_test_or_bench_starts_has_a_control_socket_of_its_own() -> None:
    files = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/*.py")]
    starting = [
        f for f in files if f.name != "test_stack.py" and GUNICORN_STARTED.search(f.read_text())
    ]
    assert starting, "the search finds the servers the tests start"
    shared = [
        str(f.relative_to(ROOT))
        for f in starting
        if not any(marker in f.read_text() for marker in OWN_CONTROL_SOCKET)
    ]
    assert shared == []
