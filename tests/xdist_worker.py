"""Each pytest-xdist worker gets a Redis database of its own.

`make test` runs the suite on two workers. pytest-django already gives each worker its own test
database (test_<name>_gw0, _gw1); Redis has no such thing, and tests flush the cache and the
broker's queues between them. So before Django reads its settings, a worker moves REDIS_URL on
by its number: with db 1 given, gw0 keeps db 1, gw1 takes db 2, and so on.

Loaded with `-p tests.xdist_worker` (pyproject.toml), which pytest imports before any conftest
and before pytest-django reads the settings; a conftest would be too late.
"""

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # redis-server's default `databases`


def worker_number() -> int | None:
    """0 for gw0, 1 for gw1, ...; None outside a worker (a plain `pytest` run)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker.removeprefix("gw")) if worker.startswith("gw") else None


def worker_redis_url(url: str, worker: int) -> str:
    parts = urlsplit(url)
    given = int(parts.path.strip("/") or 0)
    database = given + worker
    if database >= REDIS_DATABASES:
        raise RuntimeError(f"REDIS_URL {url}: worker gw{worker} would need Redis db {database}")
    return urlunsplit(parts._replace(path=f"/{database}"))


def _move_redis_url() -> None:
    worker, url = worker_number(), os.environ.get("REDIS_URL", "")
    if worker is not None and url:
        os.environ["REDIS_URL"] = worker_redis_url(url, worker)


_move_redis_url()
