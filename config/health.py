"""/healthz: the state of every dependency, answered even when one of them is down.

Staff see each dependency's state, timing and error text; anyone else (a load balancer, the
public) sees only the overall state, since error text names internal hosts and ports.

The page is 200 whenever this web process can serve (the database answers); Redis or the Celery
workers being away is reported, never turned into a 500, because score entry keeps working
without them (DESIGN.md: tasks never make a score entry fail).
"""

import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app

WORKER_PING_SECONDS = 0.5


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"status": "ok", "vendor": connection.vendor}


def _cache() -> dict[str, Any]:
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    cache.set("healthz", "ok", timeout=10)
    if cache.get("healthz") != "ok":
        return {"status": "error", "backend": backend, "error": "value written was not read back"}
    return {"status": "ok", "backend": backend}


def _broker() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"status": "eager", "detail": "REDIS_URL unset: tasks run in the web process"}
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=settings.REDIS_TIMEOUT_SECONDS,
        socket_timeout=settings.REDIS_TIMEOUT_SECONDS,
    )
    client.ping()
    return {"status": "ok"}


def _workers() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"status": "eager", "count": 0}
    replies = celery_app.control.ping(timeout=WORKER_PING_SECONDS)
    names = sorted(name for reply in replies for name in reply)
    return {"status": "ok" if names else "none", "count": len(names), "workers": names}


def _probe(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        state = check()
    except Exception as exc:  # a health page reports every failure instead of raising it
        state = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
    state["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return state


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    if not request.user.is_staff:
        serving = _probe(_database)["status"] == "ok"
        return JsonResponse(
            {"status": "ok" if serving else "error"}, status=200 if serving else 503
        )
    checks = {"database": _database, "cache": _cache, "broker": _broker}
    report = {name: _probe(check) for name, check in checks.items()}
    # Asking workers needs the broker; skip the slow ping when the broker is known to be down.
    broker_down = report["broker"]["status"] == "error"
    report["workers"] = {"status": "unknown", "count": 0} if broker_down else _probe(_workers)
    serving = report["database"]["status"] == "ok"
    body = {"status": "ok" if serving else "error", "checks": report}
    return JsonResponse(body, status=200 if serving else 503)
