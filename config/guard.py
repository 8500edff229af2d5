"""The request guard: what every request must pass before a view reads it, and what a request
gets when the database drops under it.

- A **NUL byte** in the path names no page: 404 (PostgreSQL cannot even compare it to a token).
- A **body over the limit** (`DATA_UPLOAD_MAX_MEMORY_SIZE`) is refused by its declared length
  with 413, before a byte of it is read.
- A **chunked body** (no Content-Length) is read here when the server has decoded the chunks and
  says so (`wsgi.input_terminated`, as gunicorn does), up to the limit; otherwise it is refused
  with 411, since Django would read it as empty.
- A **dropped database connection** during a request answers 503 with Retry-After: the request
  wrote nothing (its transaction was rolled back with the connection), so a retry, with the
  same Idempotency-Key for a result, stores it once.
- A **full disk** (the database's or this server's) answers 503 too, saying so: nothing was
  saved, and a retry stores it once when the director has made room.

Under /api/ every refusal is in the API's error shape (config/api.py); elsewhere it is plain text.
"""

import io
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api import problem

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 2


def refusal(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """The API's error shape under /api/, a short plain-text page elsewhere."""
    if request.path_info.startswith("/api/"):
        return JsonResponse({"errors": [problem(message)]}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _limit() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _too_big(size: int) -> str:
    return (
        f"The request body is {size} bytes, over this server's limit of {_limit()} bytes; "
        "send less (a result or a player list is a few kilobytes)."
    )


class RequestGuard:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self._refused(request) or self.get_response(request)

    def _refused(self, request: HttpRequest) -> HttpResponse | None:
        if "\x00" in request.path_info:
            return refusal(request, 404, "No page has an address with a NUL byte in it.")
        if request.headers.get("Transfer-Encoding", "").lower().strip() == "chunked":
            return self._read_chunked(request)
        size = _declared_length(request)
        if size is not None and size > _limit():
            return refusal(request, 413, _too_big(size))
        return None

    def _read_chunked(self, request: HttpRequest) -> HttpResponse | None:
        if not request.META.get("wsgi.input_terminated"):
            message = "A chunked request body cannot be read here: send it with a Content-Length."
            return refusal(request, 411, message)
        body = request.META["wsgi.input"].read(_limit() + 1)
        if len(body) > _limit():
            return refusal(request, 413, _too_big(len(body)))
        request.META["CONTENT_LENGTH"] = str(len(body))
        request._stream = LimitedStream(io.BytesIO(body), len(body))
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.warning(
            "database unavailable during %s %s: %s", request.method, request.path, exception
        )
        if disk_full(exception):  # the connection is sound: the database refused the write
            message = (
                "The server's disk is full; nothing was saved. The entry is kept on this phone: "
                "ask the director to make room on the server, then try again."
            )
        else:
            connection.close_if_unusable_or_obsolete()
            message = (
                "The database did not answer; nothing was saved. Please try again in a moment."
            )
        response = refusal(request, 503, message)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


# SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100) and an operating system's ENOSPC.
DISK_FULL = ("database or disk is full", "no space left on device", "disk full")


def disk_full(exception: BaseException) -> bool:
    """Whether the database refused a write because its disk is full."""
    cause = exception.__cause__
    if getattr(cause, "sqlstate", None) == "53100":
        return True
    return any(words in str(exception).lower() for words in DISK_FULL)


def _declared_length(request: HttpRequest) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
