#!/usr/bin/env python3
"""Runs the processes of a Procfile and keeps each one running: the supervisor of `make serve`
and `make venue`.

Each line `name: command` of the Procfile is a **process**, started with /bin/sh (so
`${WEB_PORT:-8000}` works) in a process group of its own. Its output is printed line by line,
prefixed with the time and its name. When a process dies, whatever the cause (it exited, it
crashed, it was killed), only that one is started again, after a pause that doubles from 1 s
up to 30 s while it keeps dying and starts at 1 s again once it has run for 30 s. The others
never notice. (honcho, used before, stops every process when one exits: a Celery worker that
died with its broker took gunicorn down with it.)

SIGTERM or SIGINT (Ctrl-C) stops them all: SIGTERM to each group, SIGKILL after 10 s. Should the
supervisor itself die without that chance (SIGKILL, the out-of-memory killer), each process gets
SIGTERM from the kernel (Linux's parent-death signal, set by util-linux's `setpriv`), so no
orphan keeps serving on its port after the supervisor is gone.

    python bin/supervise.py [Procfile] [--only web,worker]
"""

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

FIRST_PAUSE = 1.0
MAX_PAUSE = 30.0
STABLE_AFTER = 30.0  # a run this long resets the pause
STOP_GRACE = 10.0
POLL = 0.2
# Linux: SIGTERM to a process when the supervisor dies (PR_SET_PDEATHSIG); elsewhere, nothing.
ON_SUPERVISOR_DEATH = ["setpriv", "--pdeathsig", "TERM", "--"] if shutil.which("setpriv") else []


def say(name: str, text: str) -> None:
    sys.stdout.write(f"{time.strftime('%H:%M:%S')} {name:<8} | {text}\n")
    sys.stdout.flush()


@dataclass
class Process:
    name: str
    command: str
    popen: subprocess.Popen | None = None
    started: float = 0.0
    pause: float = FIRST_PAUSE
    restart_at: float | None = None
    starts: int = 0
    readers: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        self.popen = subprocess.Popen(
            [*ON_SUPERVISOR_DEATH, "/bin/sh", "-c", f"exec {self.command}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own group: a signal reaches its children too
        )
        self.started, self.restart_at = time.monotonic(), None
        self.starts += 1
        say(self.name, f"started (pid {self.popen.pid})")
        reader = threading.Thread(target=self._relay, args=(self.popen,), daemon=True)
        reader.start()

    def _relay(self, popen: subprocess.Popen) -> None:
        assert popen.stdout is not None
        for line in iter(popen.stdout.readline, b""):
            say(self.name, line.decode(errors="replace").rstrip())

    def check(self) -> None:
        """Notice a death and schedule the restart; restart when its pause is over."""
        now = time.monotonic()
        if self.popen is not None and self.popen.poll() is not None:
            self._died(now)
        if self.popen is None and self.restart_at is not None and now >= self.restart_at:
            self.start()

    def _died(self, now: float) -> None:
        assert self.popen is not None
        code = self.popen.returncode
        ran = now - self.started
        self.pause = FIRST_PAUSE if ran >= STABLE_AFTER else min(self.pause * 2, MAX_PAUSE)
        self.popen, self.restart_at = None, now + self.pause
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        say(self.name, f"{how} after {ran:.1f} s; starting it again in {self.pause:.0f} s")

    def signal(self, signum: int) -> None:
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signum)

    def wait(self, deadline: float) -> bool:
        if self.popen is None:
            return True
        try:
            self.popen.wait(timeout=max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            return False
        return True


def read_procfile(path: Path, only: set[str] | None) -> list[Process]:
    processes = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, command = line.partition(":")
        if not colon or not name.strip() or not command.strip():
            sys.exit(f"{path}, line {number}: expected `name: command`, found {line!r}")
        if only is None or name.strip() in only:
            processes.append(Process(name.strip(), command.strip()))
    if not processes:
        sys.exit(f"{path}: no process to run")
    return processes


def stop_all(processes: list[Process]) -> None:
    for process in processes:
        process.signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    for process in processes:
        if not process.wait(deadline):
            say(process.name, "did not stop in time: killed")
            process.signal(signal.SIGKILL)
            process.wait(time.monotonic() + STOP_GRACE)


def supervise(processes: list[Process]) -> None:
    # The signals asked to stop, noted by a handler that takes no lock: one that set a
    # threading.Event could block forever on the lock of the Event being waited on in the loop
    # below (Python runs the handler in that same thread), and SIGTERM was then never obeyed.
    asked: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda signum, _frame: asked.append(signum))
    for process in processes:
        process.start()
    while not asked:
        time.sleep(POLL)
        for process in processes:
            process.check()
    say("supervise", "stopping every process")
    stop_all(processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("procfile", nargs="?", default="Procfile")
    parser.add_argument("--only", help="comma-separated names of the processes to run")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    supervise(read_procfile(Path(args.procfile), only))


if __name__ == "__main__":
    main()
