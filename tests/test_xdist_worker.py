"""Each pytest-xdist worker's own Redis db (tests/xdist_worker.py): two workers flushing one
Redis db would wipe each other's cache and queues mid-test."""

import pytest

from tests.xdist_worker import worker_number, worker_redis_url


def test_the_first_worker_keeps_the_db_it_was_given_and_the_next_ones_take_the_dbs_after_it():
    assert worker_redis_url("redis://127.0.0.1:6379/1", 0) == "redis://127.0.0.1:6379/1"
    assert worker_redis_url("redis://127.0.0.1:6379/1", 1) == "redis://127.0.0.1:6379/2"
    assert worker_redis_url("redis://127.0.0.1:6379", 3) == "redis://127.0.0.1:6379/3"


def test_the_password_and_options_of_the_url_are_kept():
    url = "rediss://:secret@cache.example:6380/4?ssl_cert_reqs=none"
    assert worker_redis_url(url, 2) == "rediss://:secret@cache.example:6380/6?ssl_cert_reqs=none"


def test_a_worker_beyond_redis_sixteen_dbs_is_refused_rather_than_sharing_one():
    with pytest.raises(RuntimeError, match="gw5 would need Redis db 16"):
        worker_redis_url("redis://127.0.0.1:6379/11", 5)


def test_the_worker_number_comes_from_xdist_and_is_none_outside_it(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert worker_number() == 1
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert worker_number() is None
