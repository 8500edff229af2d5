"""Test-wide fixtures and the rule for tests that need a real service.

A test marked `postgres` or `redis` needs that service. On a newcomer's machine (no DATABASE_URL /
REDIS_URL) it is skipped with a reason; under CI=true a missing service is a failure, never a skip.
"""

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
    from entry import shapes

    shapes.CHECKED = True
    yield
    shapes.CHECKED = False
