"""/healthz: the state of every dependency, answered even when one of them is down.

Staff see each dependency's state, timing and error text; anyone else (a load balancer, the
public) sees only the overall state, since error text names internal hosts and ports.

The page is 200 whenever this web process can serve: the database answers and the disk of its
files (`var/`: SQLite, the shared cache and task queue, the front's buffers) has room to save
what it is sent (`DISK_MIN_FREE_MB`); a full disk is a 503, since no result could be stored.
Redis or the Celery workers being away is reported, never turned into a 500, because score entry
keeps working without them (DESIGN.md: tasks never make a score entry fail).
"""

import shutil
import time
from collections.abc import Callable
from pathlib import Path
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


def _disk() -> dict[str, Any]:
    """Room left where this server writes: its `var/` and a SQLite database's folder."""
    folders = {Path(settings.VAR_DIR)}
    if connection.vendor == "sqlite":
        folders.add(Path(connection.settings_dict["NAME"]).resolve().parent)
    free = min(shutil.disk_usage(folder).free for folder in folders if folder.exists())
    free_mb = free // 2**20
    if free_mb < settings.DISK_MIN_FREE_MB:
        return {"status": "error", "free_mb": free_mb, "error": "the disk is full"}
    return {"status": "ok", "free_mb": free_mb}


def _broker() -> dict[str, Any]:
    if settings.SHARED_DIR:
        return {"status": "ok", "detail": "tasks queue in files (SHARED_DIR)"}
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
    if settings.CELERY_TASK_ALWAYS_EAGER:
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
        serving = all(_probe(check)["status"] == "ok" for check in (_database, _disk))
        return JsonResponse(
            {"status": "ok" if serving else "error"}, status=200 if serving else 503
        )
    checks = {"database": _database, "disk": _disk, "cache": _cache, "broker": _broker}
    report = {name: _probe(check) for name, check in checks.items()}
    # Asking workers needs the broker; skip the slow ping when the broker is known to be down.
    broker_down = report["broker"]["status"] == "error"
    report["workers"] = {"status": "unknown", "count": 0} if broker_down else _probe(_workers)
    serving = report["database"]["status"] == report["disk"]["status"] == "ok"
    body = {"status": "ok" if serving else "error", "checks": report}
    return JsonResponse(body, status=200 if serving else 503)
