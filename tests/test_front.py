"""The front of `make serve` and `make venue` (bin/front.py: nginx before gunicorn).

gunicorn's sync workers each serve one connection at a time: two phones that sent half a request
and left the Wi-Fi, or read a large answer slowly, held both workers and the whole hall waited
up to a minute. Behind the front, gunicorn only ever talks to nginx, which has read the request
whole and takes the answer at once. These tests start the Procfile's front and web (two
workers) as `make serve` does, on a port of 127.0.0.1, without nginx installed they skip (and
fail under CI=true: .ci/run installs it).
"""

import importlib.util
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import IN_CI
from tests.stack import HOST, ROOT, free_port, get, manage, stack_env, supervised

pytestmark = pytest.mark.slow
BIG_FILE = "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js.map"  # 3.9 MB


def _front_module():
    spec = importlib.util.spec_from_file_location("front", ROOT / "bin" / "front.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def nginx() -> None:
    checked = subprocess.run([sys.executable, str(ROOT / "bin" / "front.py"), "--check"],
                             capture_output=True, text=True)  # fmt: skip
    if checked.returncode:
        if IN_CI:
            pytest.fail(f"CI=true: {checked.stderr}", pytrace=False)
        pytest.skip(checked.stderr.splitlines()[0])


@pytest.fixture
def stack(nginx, tmp_path: Path):
    """The Procfile's front and web (gunicorn, two workers), as `make serve` runs them."""
    port = free_port()
    env = stack_env(tmp_path, port)
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")  # the big file, as make does
    with supervised(ROOT / "Procfile", env, port, "front", "web"):
        yield port


def _slow_connections(port: int, each: int) -> list[socket.socket]:
    """`each` connections of every slow kind: stalled halfway through a body, headers never
    finished, a body sent a byte at a time, a 3.9 MB answer never read."""
    put = f"PUT /api/tables/1/games/1/result HTTP/1.1\r\nHost: {HOST}\r\n"
    put += "Content-Type: application/json\r\n"
    starts = [
        put + "Content-Length: 2000\r\n\r\n" + '{"hands": [' + " " * 900,
        f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: a",
        put + "Content-Length: 100000\r\n\r\n{",
        f"GET {BIG_FILE} HTTP/1.1\r\nHost: {HOST}\r\n\r\n",
    ]
    opened = []
    for start in starts:
        for _ in range(each):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a slow reader's window
            sock.connect((HOST, port))
            sock.sendall(start.encode())
            opened.append(sock)
    return opened


def test_slow_and_stalled_phones_never_hold_the_workers(stack: int) -> None:
    slow = _slow_connections(stack, each=4)  # twice as many of each kind as there are workers
    try:
        time.sleep(1)
        for _ in range(3):
            started = time.monotonic()
            status, _, body = get(stack, "/healthz", timeout=10)
            assert (status, body) == (200, b'{"status": "ok"}')
            assert time.monotonic() - started < 2
    finally:
        for sock in slow:
            sock.close()


def test_the_front_answers_for_gunicorn_while_it_is_not_there(nginx, tmp_path: Path) -> None:
    """While gunicorn (re)starts, a phone is told the truth in the API's shape: try again."""
    port = free_port()
    env = stack_env(tmp_path, port)
    front = subprocess.Popen(
        [sys.executable, str(ROOT / "bin" / "front.py")], env=env, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(50):
            try:
                status, headers, body = get(port, "/api/tournaments")
                break
            except OSError:
                time.sleep(0.1)
        assert status == 503 and headers["Retry-After"] == "2"
        assert b'"errors"' in body and b"nothing was saved" in body
    finally:
        front.terminate()
        front.wait(timeout=10)


def test_an_address_given_is_the_only_one_listened_on(nginx, tmp_path: Path) -> None:
    """VENUE_ADDRESS=127.0.0.1 listens there alone: another address of this machine (here
    127.0.0.2, loopback too) finds nothing."""
    port = free_port()
    env = stack_env(tmp_path, port)  # WEB_BIND=127.0.0.1, as venue.py sets it when given
    with supervised(ROOT / "Procfile", env, port, "front", "web"):
        assert get(port, "/healthz")[0] == 200
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.2", port), timeout=2).close()


def test_the_venue_listens_on_every_interface_only_when_it_found_the_address() -> None:
    from tests.test_venue_address import venue

    module = venue()
    assert module.venue_env("127.0.0.1", given=True)["WEB_BIND"] == "127.0.0.1"
    assert module.venue_env("192.168.1.23")["WEB_BIND"] == "0.0.0.0"
    front = _front_module()
    assert front.listen_lines("127.0.0.1", "8400") == "        listen 127.0.0.1:8400;"
    assert "[::1]:8400" in front.listen_lines("::1", "8400")


def test_two_stacks_on_one_machine_have_control_sockets_of_their_own(nginx, tmp_path) -> None:
    """gunicorn's control socket lies beside each stack's own socket: a second stack started
    does not take over the first's, and stopping it does not remove the first's."""
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    port_one = free_port()
    with supervised(ROOT / "Procfile", stack_env(first, port_one), port_one, "front", "web"):
        port_two = free_port()
        with supervised(ROOT / "Procfile", stack_env(second, port_two), port_two, "front", "web"):
            assert (first / "web.sock.ctl").exists() and (second / "web.sock.ctl").exists()
        assert (first / "web.sock.ctl").exists()
        assert get(port_one, "/healthz")[0] == 200


def test_without_nginx_the_stack_says_what_to_install(monkeypatch, capsys) -> None:
    """`make serve` and `make venue` run `bin/front.py --check` first: without nginx they stop
    there, saying what to install on each system, rather than serve without a front."""
    front = _front_module()
    monkeypatch.setattr(front, "nginx", lambda: None)
    assert front.main(["bin/front.py", "--check"]) == 1
    said = capsys.readouterr().err
    assert "nginx is not installed" in said and "apt-get install nginx" in said
    assert "brew install nginx" in said and "`make run`" in said
    serve = (ROOT / "bin" / "serve").read_text()
    assert "bin/front.py --check" in serve
    assert '"bin/front.py", "--check"' in (ROOT / "bin" / "venue.py").read_text()
