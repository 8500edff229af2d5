"""Django's Redis cache behind the Redis circuit breaker (config/breaker.py).

Every operation that reaches Redis goes through `redis_breaker`: while it is open, a read is a
miss, `add` reports the key as taken (so nothing waits on a burst mark nobody can clear), and
writes and deletes are skipped. A cache may forget; its callers treat a miss as "read the
database".
"""

from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from config.breaker import redis_breaker


def _guarded(name: str, fallback: Any) -> Callable[..., Any]:
    """RedisCache's method `name`, returning `fallback` while Redis is away."""
    method = getattr(RedisCache, name)

    def guarded(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        return redis_breaker.call(lambda: method(self, *args, **kwargs), fallback)

    guarded.__name__ = name
    return guarded


class ReusedClientCache(RedisCacheClient):
    """Django's Redis cache client, one `redis.Redis` per connection pool: Django makes a new
    one for every operation, which costs more than the command (redis-py's client is
    thread-safe and takes its connections from the pool)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[Any, Any] = {}  # pool -> its client

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients.setdefault(pool, self._client(connection_pool=pool))
        return client


class BreakerRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientCache

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return redis_breaker.call(lambda: RedisCache.get(self, key, default, version), default)

    get_many = _guarded("get_many", {})
    set = _guarded("set", None)
    add = _guarded("add", False)
    delete = _guarded("delete", False)
    delete_many = _guarded("delete_many", None)
    touch = _guarded("touch", False)
    has_key = _guarded("has_key", False)
    set_many = _guarded("set_many", [])
    incr = _guarded("incr", 0)  # a flood counter (config/throttle.py) counts nothing meanwhile
