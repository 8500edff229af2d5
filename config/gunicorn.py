"""gunicorn's settings for this project: `gunicorn -c config/gunicorn.py config.wsgi`.

Workers: one sync worker per CPU unless WEB_CONCURRENCY says otherwise. A result's request is
CPU-bound in Python and PostgreSQL, not waiting on the network: on a 2-CPU machine,
bench/bench_entry.py measured 50 phones flat out at about 104 results/s with 2 workers, 95 with
3, 86 with 4 and 79 with 6, the extra workers costing CPU time in switching between them.
"""

import os

workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
timeout = 60
graceful_timeout = 5
