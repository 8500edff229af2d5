"""bench/bench_leaderboard.py takes its database and Redis from the environment and empties
nothing it did not make: it used a fixed database and flushed Redis db 9, whoever's."""

import importlib

import pytest
import redis

from tests.integration.private_redis import own_redis  # noqa: F401 (a fixture)


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_elsewhere")
    monkeypatch.setenv("BENCH_REDIS_URL", "redis://127.0.0.1:6399/5")
    import bench.bench_leaderboard as module

    return importlib.reload(module)


def test_its_database_and_redis_come_from_the_environment(bench) -> None:
    assert bench.POSTGRES == "postgres://postgres@127.0.0.1:5432/kalooki_elsewhere"
    assert bench.REDIS == "redis://127.0.0.1:6399/5"


def test_it_deletes_only_the_keys_its_own_processes_made(bench, own_redis, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(bench, "REDIS", own_redis.url)
    client = redis.Redis.from_url(own_redis.url)
    client.set("someone:else", 1)
    assert bench.redis_keys() == 1  # a database in use: the run refuses it (not flushed)
    client.set("kalooki:1:standings:3", 1)
    client.lpush("celery", "a task")
    client.set("_kombu.binding.celery", 1)
    bench.forget_own_keys()
    assert client.keys("*") == [b"someone:else"]
