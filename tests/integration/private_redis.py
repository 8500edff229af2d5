"""A redis-server of a test's own, on a free port: to kill (-9) and freeze (SIGSTOP) at will,
never the machine's own Redis. Tests using it skip without the redis-server binary (and fail
under CI=true)."""

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

IN_CI = os.environ.get("CI", "").lower() == "true"


def need_redis_server() -> None:
    if shutil.which("redis-server") is None:
        reason = "needs the redis-server binary to run a private Redis (apt-get install redis)"
        if IN_CI:
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.popen: subprocess.Popen | None = None

    def start(self) -> "OwnRedis":
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.popen = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 20
        while not self.answers():
            assert time.monotonic() < deadline, "the private Redis did not start"
            time.sleep(0.05)
        return self

    def answers(self) -> bool:
        try:
            client = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
            return bool(client.ping())
        except redis.RedisError:
            return False

    def freeze(self) -> None:
        assert self.popen is not None
        os.kill(self.popen.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.popen is not None
        os.kill(self.popen.pid, signal.SIGCONT)

    def kill(self) -> None:
        if self.popen is not None:
            os.kill(self.popen.pid, signal.SIGCONT)
            self.popen.kill()
            self.popen.wait(timeout=10)
            self.popen = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    need_redis_server()
    server = OwnRedis(tmp_path).start()
    try:
        yield server
    finally:
        server.kill()
