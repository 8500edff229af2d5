"""Test-wide fixtures and the rule for tests that need a real service.

A test marked `postgres` or `redis` needs that service. On a newcomer's machine (no DATABASE_URL /
REDIS_URL) it is skipped with a reason; under CI=true a missing service is a failure, never a skip.
"""

import contextlib
import os
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from tests.integration.private_redis import own_redis  # noqa: F401 (a fixture for every test)

IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing_service(marker: str) -> str | None:
    if marker == "postgres":
        engine = settings.DATABASES["default"]["ENGINE"]
        if not engine.endswith("postgresql"):
            return "needs PostgreSQL: set DATABASE_URL=postgres://... (it runs on SQLite now)"
    if marker == "redis":
        if not settings.REDIS_URL:
            return "needs Redis: set REDIS_URL=redis://... (Celery is eager now)"
        try:
            redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1).ping()
        except redis.RedisError as exc:
            return f"needs Redis at {settings.REDIS_URL}, which does not answer: {exc}"
    return None


NO_POSTGRES = "needs PostgreSQL"
LOCAL_POSTGRES = ("127.0.0.1", 5432)
_skipped_for_postgres: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Counts the tests skipped for want of PostgreSQL (reports from every xdist worker)."""
    if report.skipped and isinstance(report.longrepr, tuple) and NO_POSTGRES in report.longrepr[2]:
        _skipped_for_postgres.add(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """A run on SQLite says, last and in words, that the PostgreSQL tests (every lock and
    concurrency test) did not run, and how to run them. It never switches database by itself:
    the settings read DATABASE_URL once, and a test run that picked its database by what happens
    to answer would test different things on different machines under one command."""
    if not _skipped_for_postgres:
        return
    write = terminalreporter.write_line
    terminalreporter.section("PostgreSQL tests not run", sep="-", yellow=True, bold=True)
    write(
        f"{len(_skipped_for_postgres)} tests marked `postgres` were skipped: every lock and "
        "concurrency test. They need DATABASE_URL=postgres://..."
    )
    if _local_postgres_answers():
        write(
            "PostgreSQL answers at 127.0.0.1:5432: run them with `make test CI=true` (its "
            "database and Redis), or DATABASE_URL=postgres://postgres@127.0.0.1:5432/kalooki "
            "make test PYTEST_ARGS='-m postgres'."
        )


def _local_postgres_answers() -> bool:
    import socket

    with contextlib.suppress(OSError), socket.create_connection(LOCAL_POSTGRES, timeout=0.5):
        return True
    return False


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "redis"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _missing_service(marker)
        if reason and IN_CI:
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        if reason:
            pytest.skip(reason)


@pytest.fixture(autouse=True)
def _tasks_run_eagerly(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in the test's own process, with or without REDIS_URL; only the tests marked
    `celery_worker` send them to a real broker and worker."""
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture(autouse=True)
def _no_club_page_held() -> None:
    """Each test draws the club pages afresh: ids and slugs come again from test to test."""
    from hall.club_cache import forget_held

    forget_held()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Production-strength hashing costs ~0.3 s a login; tests check logic, not key stretching."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _redis_breaker_closed() -> Iterator[None]:
    """Each test starts with the Redis circuit breaker closed (it is per process)."""
    from config.breaker import redis_breaker

    redis_breaker.close()
    redis_breaker.trips = 0
    yield
    redis_breaker.close()


@pytest.fixture(autouse=True, scope="session")
def _answers_checked_against_drf() -> Iterator[None]:
    """Every answer a `Shape` makes in the suite is compared with the serializer's own."""
    from scorekeeper import shapes

    shapes.CHECKED = True
    yield
    shapes.CHECKED = False
