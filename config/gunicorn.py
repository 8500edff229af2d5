"""gunicorn's settings for this project: `gunicorn -c config/gunicorn.py config.wsgi`.

Workers: one sync worker per usable CPU (at most 16) unless WEB_CONCURRENCY says otherwise. A
result's request is CPU-bound in Python and PostgreSQL, not waiting on the network: on a 2-CPU
machine, bench/bench_entry.py measured 50 phones flat out at about 104 results/s with 2 workers,
95 with 3, 86 with 4 and 79 with 6, the extra workers costing CPU time in switching between
them.

Behind the front (bin/front.py, nginx), gunicorn listens on a Unix socket in var/run/ and only
ever talks to nginx, which has read each request whole and buffers each answer. Each stack's
control socket (gunicornc) lies beside its listening socket, named after it: two stacks on one
machine never share one (gunicorn's default, in the home directory, was taken over by the
second stack started and removed by the first one stopped).
"""

import os
import re
from pathlib import Path
from typing import Any

MAX_WORKERS = 16  # a big host is not a reason for dozens of processes, each with its connection


def usable_cpus() -> int:
    """The CPUs this process may run on: a container's share, not the host's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 2


workers = int(os.environ.get("WEB_CONCURRENCY") or min(usable_cpus(), MAX_WORKERS))
timeout = 60
graceful_timeout = 5
# The client's address comes from the front (X-Forwarded-For): gunicorn's peer is nginx.
access_log_format = '%({x-forwarded-for}i)s "%(r)s" %(s)s %(b)s %(M)sms'

RUN_DIR = Path(__file__).resolve().parent.parent / "var" / "run"


def control_socket_for(binds: list[str]) -> str:
    """The control socket of a gunicorn listening on `binds`: beside its Unix socket, or in
    var/run/ named after its address and port."""
    first = binds[0] if binds else "default"
    if first.startswith("unix:"):
        return first.removeprefix("unix:") + ".ctl"
    return str(RUN_DIR / f"gunicorn-{re.sub(r'[^0-9A-Za-z.-]+', '-', first)}.ctl")


def on_starting(server: Any) -> None:
    path = Path(control_socket_for(list(server.cfg.bind)))
    path.parent.mkdir(parents=True, exist_ok=True)
    server.cfg.set("control_socket", str(path))
