"""gunicorn's settings for this project: `gunicorn -c config/gunicorn.py config.wsgi`.

Workers: one sync worker per usable CPU (at most 16) unless WEB_CONCURRENCY says otherwise. A
result's request is CPU-bound in Python and PostgreSQL, not waiting on the network: on a 2-CPU
machine, bench/bench_entry.py measured 50 phones flat out at about 104 results/s with 2 workers,
95 with 3, 86 with 4 and 79 with 6, the extra workers costing CPU time in switching between
them.
"""

import os

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
