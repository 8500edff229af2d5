"""The Redis circuit breaker: a frozen or killed Redis costs a request at
most one socket timeout, then is skipped until a probe finds it back."""

import pytest
import redis

from config.breaker import redis_breaker
from config.cache import BreakerRedisCache

pytestmark = pytest.mark.slow
TIMEOUT = 0.3


@pytest.fixture
def cache(own_redis) -> BreakerRedisCache:
    options = {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT}
    return BreakerRedisCache(own_redis.url, {"OPTIONS": options, "KEY_PREFIX": "t"})


@pytest.fixture
def commands(monkeypatch) -> list[str]:
    """Every command sent to any Redis from this process."""
    sent: list[str] = []
    execute = redis.Redis.execute_command

    def counting(self, *args, **options):
        sent.append(str(args[0]))
        return execute(self, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counting)
    return sent


@pytest.mark.parametrize("fault", ["freeze", "kill"])
def test_after_one_failure_redis_is_not_asked_again_while_the_breaker_is_open(
    cache, own_redis, commands, fault: str
) -> None:
    cache.set("leaderboard", "v1")
    assert cache.get("leaderboard") == "v1"
    getattr(own_redis, fault)()
    commands.clear()
    results = [cache.get("leaderboard", "miss") for _ in range(20)]
    results += [cache.add("pending", 1), cache.set("x", 1), cache.delete("x")]
    assert results == ["miss"] * 20 + [False, None, False]
    assert len(commands) == 1  # the one call that found Redis gone; the rest skipped
    assert redis_breaker.trips == 1


def test_a_probe_after_the_open_period_finds_redis_back(cache, own_redis, monkeypatch) -> None:
    monkeypatch.setattr(redis_breaker, "open_s", 0.2)
    cache.set("k", "v")
    own_redis.freeze()
    assert cache.get("k", "miss") == "miss"
    assert redis_breaker.is_open()
    own_redis.thaw()
    import time

    time.sleep(0.3)
    assert cache.get("k") == "v"  # the probe went through and closed the breaker
    assert not redis_breaker.is_open()


def test_a_broker_publish_is_skipped_while_the_breaker_is_open(commands, monkeypatch) -> None:
    """No worker would hear of the change: the web process refreshes the standings itself."""
    from scoring.standings_queue import _queue, refresh_here

    asked: list[int] = []
    monkeypatch.setattr(refresh_here, "ask", asked.append)
    redis_breaker.trip(ConnectionError("Redis gone"))
    _queue(1)  # neither the burst mark nor the publish is tried
    assert commands == []
    assert asked == [1]


def test_a_change_that_finds_redis_gone_is_refreshed_here(cache, own_redis, monkeypatch) -> None:
    from scoring import standings_queue

    asked: list[int] = []
    monkeypatch.setattr(standings_queue, "cache", cache)
    monkeypatch.setattr(standings_queue.refresh_here, "ask", asked.append)
    own_redis.kill()
    standings_queue._queue(7)  # the burst mark is the call that finds Redis gone
    assert redis_breaker.is_open() and asked == [7]


def test_refreshes_here_gather_a_burst_into_one_a_window(monkeypatch) -> None:
    """A burst of changes while Redis is away costs one refresh a window, off the request."""
    import threading
    import time

    from scoring import standings, standings_queue

    refreshed: list[int] = []
    done = threading.Event()

    def refresh(*, tournament_id: int) -> None:
        refreshed.append(tournament_id)
        if len(refreshed) == 2:
            done.set()

    monkeypatch.setattr(standings, "standings_refresh", refresh)
    here = standings_queue.RefreshHere()
    started = time.monotonic()
    for _ in range(20):
        here.ask(3)
        time.sleep(0.02)
    assert done.wait(5)
    time.sleep(standings_queue.WINDOW_SECONDS * 2)
    assert refreshed == [3, 3]  # the first at once, the rest of the burst at its window's end
    assert time.monotonic() - started < 5


def test_when_a_probe_finds_redis_back_the_standings_reconcile_is_asked_for(
    cache, own_redis, monkeypatch
) -> None:
    import scoring.standings_queue  # registers its callback  # noqa: F401

    asked = []
    monkeypatch.setattr(redis_breaker, "open_s", 0.1)
    monkeypatch.setattr(
        "scoring.tasks.reconcile_standings.apply_async", lambda *a, **k: asked.append(1)
    )
    own_redis.freeze()
    cache.get("k")
    own_redis.thaw()
    import time

    time.sleep(0.2)
    cache.get("k")
    cache.get("k")
    assert asked == [1]  # once, on the recovery


def test_one_redis_client_serves_every_operation(cache, commands) -> None:
    """Django makes a client per operation; the cache keeps one per pool."""
    cache.set("leaderboard", "v1")
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is client
    assert cache.get("leaderboard") == "v1" and cache.add("leaderboard", "v2") is False
    assert commands == ["SET", "GET", "SET"]
