"""A circuit breaker for Redis, shared by the cache and the broker publish of this process.

Redis is an optimisation here: score entry and the public pages work without it (the database
holds every fact). So once a call to Redis fails (refused, or no answer within the socket
timeout, as when Redis is frozen), the breaker **opens**: for `OPEN_SECONDS` every cache read
is a miss, every cache write and every task publish is skipped, at no cost. Then it lets the next
call through as a **probe**: a success closes it, a failure opens it again. A request therefore
waits on an unreachable or frozen Redis for at most one socket timeout, however many cache calls
and publishes it makes, and however many requests the process serves meanwhile.

State is per process (each gunicorn worker probes for itself): no shared store to ask, which is
the point when the shared store is the thing that is down. When a probe finds Redis back, the
breaker calls its `on_recover` callbacks (the standings ask for a reconcile: the refreshes
skipped meanwhile are redone at once).
"""

import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
T = TypeVar("T")
OPEN_SECONDS = 5.0


class Breaker:
    def __init__(
        self,
        name: str,
        errors: tuple[type[BaseException], ...],
        open_seconds: float = OPEN_SECONDS,
    ) -> None:
        self.name = name
        self.errors = errors  # what counts as the service failing (other errors propagate)
        self.open_s = open_seconds
        self.open_until = 0.0  # time.monotonic() before which calls are skipped
        self.trips = 0  # how many times it has opened: for tests and the health page
        self.tripped = False  # failed since the last success: the next success is a recovery
        self.on_recover: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def is_open(self) -> bool:
        return time.monotonic() < self.open_until

    def trip(self, error: BaseException) -> None:
        with self._lock:
            if not self.is_open():
                self.trips += 1
                log.warning("%s unavailable (%s): skipped for %s s", self.name, error, self.open_s)
            self.open_until = time.monotonic() + self.open_s
            self.tripped = True

    def close(self) -> None:
        self.open_until = 0.0
        self.tripped = False

    def _recovered(self) -> None:
        self.tripped = False
        log.warning("%s is back", self.name)
        for callback in self.on_recover:
            self.call(callback, None)

    def call(self, action: Callable[[], T], fallback: T) -> T:
        """`action()`, or `fallback` when the breaker is open or the action fails."""
        if self.is_open():
            return fallback
        try:
            result = action()
        except self.errors as error:
            self.trip(error)
            return fallback
        if self.tripped:
            self._recovered()
        return result


# Redis as the cache and as the broker: a socket error, a timeout, a refused connection.
redis_breaker = Breaker("Redis", errors=(RedisError, BrokerError, OSError))
