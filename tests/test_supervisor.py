"""The supervisor of `make serve` and `make venue` (bin/supervise.py): one
process's death never stops the others, and the dead one is started again."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow
SUPERVISE = Path(settings.BASE_DIR) / "bin" / "supervise.py"

# Each process appends its pid to a file named after it when it starts, so the test sees every
# (re)start; then it sleeps, or exits with 3.
PROCESS = """
import os, sys, time
name, then = sys.argv[1], sys.argv[2]
with open(os.path.join(os.path.dirname(__file__), name), "a") as pids:
    pids.write(f"{os.getpid()}\\n")
sys.exit(3) if then == "exit" else time.sleep(600)
"""


def pids(directory: Path, name: str) -> list[int]:
    path = directory / name
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def until(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def supervisor(tmp_path: Path):
    procfile = tmp_path / "Procfile"
    (tmp_path / "process.py").write_text(PROCESS)
    run = f"{sys.executable} {tmp_path / 'process.py'}"
    lines = [f"steady: {run} steady sleep", f"dies: {run} dies exit"]
    procfile.write_text("\n".join(lines) + "\n")
    log = (tmp_path / "supervise.log").open("wb")
    popen = subprocess.Popen(
        [sys.executable, str(SUPERVISE), str(procfile)], stdout=log, stderr=subprocess.STDOUT
    )
    try:
        yield popen, tmp_path
    finally:
        if popen.poll() is None:
            popen.send_signal(signal.SIGTERM)
            popen.wait(timeout=30)
        for pid in pids(tmp_path, "steady"):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_process_that_exits_is_started_again_and_the_others_keep_running(supervisor) -> None:
    popen, directory = supervisor
    until(lambda: len(pids(directory, "dies")) >= 3)  # exited, started again, and again
    assert len(pids(directory, "steady")) == 1
    assert alive(pids(directory, "steady")[0])
    assert popen.poll() is None
    log = (directory / "supervise.log").read_text()
    assert "exited with code 3" in log and "starting it again in" in log


def test_a_process_killed_with_sigkill_is_started_again(supervisor) -> None:
    _, directory = supervisor
    until(lambda: pids(directory, "steady"))
    [first] = pids(directory, "steady")
    os.kill(first, signal.SIGKILL)
    until(lambda: len(pids(directory, "steady")) == 2)
    assert alive(pids(directory, "steady")[1])
    assert "was killed by signal 9" in (directory / "supervise.log").read_text()


def test_sigterm_stops_every_process(supervisor) -> None:
    popen, directory = supervisor
    until(lambda: pids(directory, "steady"))
    popen.send_signal(signal.SIGTERM)
    assert popen.wait(timeout=30) == 0
    assert not alive(pids(directory, "steady")[-1])


def ended(pid: int) -> bool:
    """Exited: gone, or a zombie its new parent has not reaped yet (an orphan's is init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


@pytest.mark.skipif(
    not shutil.which("setpriv") or not Path("/proc").is_dir(),
    reason="needs Linux and util-linux's setpriv (the parent-death signal)",
)
def test_a_supervisor_killed_with_sigkill_leaves_no_process_running(supervisor) -> None:
    """Killed without the chance to stop them (kill -9, the out-of-memory killer), the
    supervisor still leaves no orphan holding its port: the kernel sends each one SIGTERM."""
    popen, directory = supervisor
    until(lambda: pids(directory, "steady"))
    [steady] = pids(directory, "steady")
    popen.kill()
    popen.wait(timeout=10)
    until(lambda: ended(steady), seconds=10)


def test_make_serve_runs_the_procfile_under_this_supervisor() -> None:
    serve = (Path(settings.BASE_DIR) / "bin" / "serve").read_text()
    assert "bin/supervise.py" in serve and "honcho" not in serve
