"""Idempotency keys: a retried write returns the first answer instead of writing twice.

A phone that loses its connection mid-submit cannot know whether the result was stored. Sent with
an `Idempotency-Key` header (any string of up to 120 visible characters, a fresh one per intended
write; a UUID is ideal), a write's successful answer is stored under that key, in the same
transaction as the write, and a retry with the same key and the same request gets that answer
again (status and body, with `Idempotent-Replayed: true`) without writing anything.

Terms
- fingerprint: the SHA-256 of the request's method, path and body. The same key with another
  fingerprint is a client's mistake and is refused with 422: the key already answered something
  else.
- Only successful answers are stored. A refusal (400, 409) wrote nothing, so sending the request
  again is safe already, and a scorekeeper who fixes a refused entry may keep the key.
- A write is not preceded by a look-up of its key: retries are rare and every write would pay
  for it. A retry's write fails instead, and the stored answer is looked up then. Either the
  write is refused (the result it sends is stored already: a conflict, R4.1) or it succeeds and
  its record collides with the first one's on the unique (table, key) constraint, which undoes
  the write with its transaction. The same holds for two requests with the same key at once:
  the table's lock (taken by every result service) serves them one after the other.
"""

import hashlib
from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.http.request import RawPostDataException
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.models import IdempotencyRecord
from scoring.services import ResultConflict, ResultRefused
from scoring.store import store
from tables.models import Table

HEADER = "Idempotency-Key"
MAX_KEY = 120
REPLAYED = "Idempotent-Replayed"


class KeyReused(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = format_lazy(
        gettext_lazy(
            "This {header} already answered a different request. Send a new key for a new "
            "result; the same key only with the very same request, to retry it."
        ),
        header=HEADER,
    )
    default_code = "idempotency_key_reused"


def idempotent(request: Request, table: Table, write: Callable[[], Response]) -> Response:
    """`write()`'s answer, stored under the request's key; a retry gets the stored answer.
    `write` runs in a transaction, which also inserts the answer's record once `write` returns
    (in the store's `batched()`: on PostgreSQL the result's rows and the record go together)."""
    key = request_key(request)
    if key is None:
        with transaction.atomic(), store().batched():  # one transaction, with a key or without
            return write()
    fingerprint = request_fingerprint(request)
    try:
        with transaction.atomic(), store().batched():
            response = write()
            if status.is_success(response.status_code):
                store().insert_row(_record(table, key, fingerprint, response))
        return response
    except (IntegrityError, ResultConflict, ResultRefused, exceptions.ValidationError):
        # Did a request with this key succeed before? Then this one is its retry.
        stored = replay(table, key, fingerprint)
        if stored is None:
            raise
        return stored


def _record(table: Table, key: str, fingerprint: str, response: Response) -> IdempotencyRecord:
    return IdempotencyRecord(
        table=table,
        key=key,
        fingerprint=fingerprint,
        status_code=response.status_code,
        response=response.data,
    )


def request_key(request: Request) -> str | None:
    """The request's idempotency key, None without one; 400 for a key that cannot be one."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not key or len(key) > MAX_KEY or not all("!" <= char <= "~" for char in key):
        raise exceptions.ValidationError(
            {
                HEADER: gettext(
                    "An {header} is 1 to {most} visible ASCII characters (a UUID is "
                    "ideal); this one is not."
                ).format(header=HEADER, most=MAX_KEY)
            }
        )
    return key


def request_fingerprint(request: Request) -> str:
    """SHA-256 of the method, path and body: read before the body is parsed."""
    try:
        body = request.body
    except RawPostDataException:
        # A form body that CSRF checking streamed already; the API reads JSON only and will
        # refuse it (415), so nothing is ever stored under this fingerprint.
        body = b""
    digest = hashlib.sha256()
    for part in (request.method.encode(), request.path.encode(), body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def replay(table: Table, key: str, fingerprint: str) -> Response | None:
    """The stored answer to this key, None if it has none; 422 if it answered another request."""
    record = IdempotencyRecord.objects.filter(table=table, key=key).order_by().first()
    if record is None:
        return None
    if record.fingerprint != fingerprint:
        raise KeyReused()
    return Response(record.response, status=record.status_code, headers={REPLAYED: "true"})
