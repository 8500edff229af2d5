"""Benchmark: what each of the PostgreSQL store's speed tricks is worth to a result write.

A result write (`PUT /api/tables/{id}/games/{n}/result` with an Idempotency-Key, through the whole
middleware stack, DEBUG off) is timed as in `bench_speed.py`: the CPU of this process per write
over the CPU of a trivial request (`/healthz`), in blocks taken in turn. Here every variant is
timed in turn, round after round, each with one trick switched off (or the whole ORM store), so
that the host's drift touches them alike; each figure is the median of its blocks' ratios, and
the statements per write are counted on a write of each variant (messages sent to PostgreSQL).

Run from the project root: `python bench/bench_store.py` (its own database
`kalooki_bench_store` and Redis database 13, or BENCH_DATABASE_URL / BENCH_REDIS_URL). Exits 0
when PostgreSQL is not there. The last line is for machines (prefix `bench_store:`).
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 2000  # 400 tables: one write each
ROUNDS_OF_BLOCKS = 4  # every variant timed once per round
BLOCK, TRIVIAL_BLOCK = 9, 30  # writes, then trivial requests, per variant and round

Switch = Callable[[], contextlib.AbstractContextManager[None]]


@contextlib.contextmanager
def _patched(owner: object, name: str, value: object, reconnect: bool = False) -> Iterator[None]:
    """`owner.name` set to `value` in the block (a new database session around it, if asked)."""
    from django.db import connection

    own = vars(owner)  # a class's own attribute as stored (not bound), or none of its own
    had, before = name in own, own.get(name)
    setattr(owner, name, value)
    if reconnect:
        connection.close()
    try:
        yield
    finally:
        if had:
            setattr(owner, name, before)
        else:
            delattr(owner, name)
        if reconnect:
            connection.close()


def all_tricks() -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


def orm_store() -> contextlib.AbstractContextManager[None]:
    """The ORM store on PostgreSQL: none of the store's tricks (the rest of the stack's kept)."""
    import scoring.store

    return _patched(scoring.store, "POSTGRESQL", scoring.store.ORM)


def no_prepared_statements() -> contextlib.AbstractContextManager[None]:
    """Each statement sent as text, parsed and planned by the database every time."""
    from scoring.store import prepared

    return _patched(prepared, "SESSION_STATEMENTS_MAX", 0, reconnect=True)


def no_compile_once() -> contextlib.AbstractContextManager[None]:
    """`PreparedRead` compiles its queryset at every call, as Django does."""
    from scoring.store.prepared import PreparedRead

    compiled_once = PreparedRead.statement

    def statement(self, *args):  # type: ignore[no-untyped-def]
        self._compiled.clear()
        return compiled_once(self, *args)

    return _patched(PreparedRead, "statement", statement)


def no_json_rows() -> contextlib.AbstractContextManager[None]:
    """A result's rows saved by Django (`save`, `bulk_create`), one statement each."""
    from scoring.store import ORM, POSTGRESQL

    stack = contextlib.ExitStack()
    for name in ("insert_deal", "replace_deal", "insert_row"):
        stack.enter_context(_patched(POSTGRESQL, name, getattr(ORM, name)))
    return stack


def no_json_deals_read() -> contextlib.AbstractContextManager[None]:
    """The table's deals read by a prefetch (two queries) after the lock, in its own message."""
    from scoring.store import ORM, POSTGRESQL, postgresql

    def lock_table_with_seats(table_id, tournament=None):  # type: ignore[no-untyped-def]
        from scoring.store.prepared import leave_prefetched

        read = postgresql._SEATS_LOCKED if tournament is None else (
            postgresql._SEATS_LOCKED_TOURNAMENT_KNOWN
        )  # fmt: skip
        seats = read(table_id)
        table = seats[0].table
        leave_prefetched(table, "seats", seats)
        if tournament is not None:
            type(table.round).tournament.field.set_cached_value(table.round, tournament)
        return table, seats, ORM.table_deals(table_id)

    return _patched(POSTGRESQL, "lock_table_with_seats", lock_table_with_seats)


def no_one_message_for_the_record() -> contextlib.AbstractContextManager[None]:
    """The idempotency record sent in a message of its own, after the result's rows."""
    from scoring.store import POSTGRESQL

    return _patched(POSTGRESQL, "batched", contextlib.nullcontext)


def no_stored_model() -> contextlib.AbstractContextManager[None]:
    """Models read from rows by Django's constructor (`Model.from_db`)."""
    from django.db import models

    from tournament.stored import StoredModel

    return _patched(StoredModel, "from_db", classmethod(models.Model.from_db.__func__))


def no_compiled_timestamps() -> contextlib.AbstractContextManager[None]:
    """Timestamps parsed by Django's own loader (psycopg's pure-Python parser)."""
    from config.postgresql import base

    return _patched(base, "_psycopg", None, reconnect=True)


def no_shapes() -> contextlib.AbstractContextManager[None]:
    """The API's body checked and its answer made by DRF's serializers, made per request."""
    import entry.api

    class Plain:
        def __init__(self, serializer_class) -> None:  # type: ignore[no-untyped-def]
            self.serializer_class = serializer_class

        def validated(self, data):  # type: ignore[no-untyped-def]
            serializer = self.serializer_class(data=data)
            serializer.is_valid(raise_exception=True)
            return serializer.validated_data

        def answer(self, instance):  # type: ignore[no-untyped-def]
            return self.serializer_class(instance).data

    return _patched(entry.api, "shape", Plain)


VARIANTS: dict[str, Switch] = {
    "all tricks (the PostgreSQL store)": all_tricks,
    "the ORM store instead": orm_store,
    "no statements prepared per session": no_prepared_statements,
    "no read compiled once (PreparedRead)": no_compile_once,
    "no JSON INSERTs (Django's saves)": no_json_rows,
    "no JSON read of the deals (a prefetch)": no_json_deals_read,
    "the idempotency record in its own message": no_one_message_for_the_record,
    "no StoredModel (Django's constructor)": no_stored_model,
    "no compiled timestamp parser": no_compiled_timestamps,
    "no shapes (DRF's serializers)": no_shapes,
}


def setup() -> str | None:
    os.environ.setdefault(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_bench_store"
    )
    os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    from bench import bench_speed

    return bench_speed.setup_django()


def main() -> int:
    missing = setup()
    if missing:
        print(f"bench_store: skipped: {missing}")
        return 0
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.bench_speed import _cpu, build, client, hands, statements
    from bench.run import machine
    from scoring.planner import analyze
    from tables.models import Table

    print(f"machine: {machine()} · PostgreSQL")
    started = time.perf_counter()
    tournament = build("store-2000", PLAYERS, 1, 1)
    analyze()
    print(f"set-up: {PLAYERS:,} players, {time.perf_counter() - started:.0f} s")
    tables = iter(Table.objects.filter(round__tournament=tournament).order_by("number"))
    phone, browser = client(), client()
    phone.get("/healthz")
    browser.get("/healthz")
    body = json.dumps({"hands": hands(), "entered_by": "bench"})

    def write() -> None:
        table = next(tables)
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        headers["Authorization"] = f"Table {table.access_token}"
        url = f"/api/tables/{table.pk}/games/2/result"
        response = phone.put(url, body, "application/json", headers=headers)
        assert response.status_code == 201, response.content[:300]

    ratios: dict[str, list[float]] = {name: [] for name in VARIANTS}
    counts: dict[str, int] = {}
    for _ in range(ROUNDS_OF_BLOCKS):
        for name, switch in VARIANTS.items():
            with switch():
                browser.get("/healthz")  # a new session, if the variant asks for one
                if name not in counts:
                    with CaptureQueriesContext(connection) as queries:
                        write()  # also the variant's first call: compiled, prepared
                    counts[name] = len(statements(queries.captured_queries))
                per_write = _cpu(lambda: [write() for _ in range(BLOCK)]) / BLOCK
                trivial = _cpu(lambda: [browser.get("/healthz") for _ in range(TRIVIAL_BLOCK)])
                ratios[name].append(per_write / (trivial / TRIVIAL_BLOCK))
    base = statistics.median(ratios["all tricks (the PostgreSQL store)"])
    figures = {}
    print("a result write, in trivial requests (median of blocks); statements sent per write:")
    for name, found in ratios.items():
        ratio = statistics.median(found)
        figures[name] = {"write_over_trivial": round(ratio, 2), "statements": counts[name]}
        print(f"  {name:45} {ratio:5.2f}  ({ratio - base:+.2f})  {counts[name]} statements")
    print("bench_store: " + json.dumps(figures))
    from django.core.cache import cache

    cache.clear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
