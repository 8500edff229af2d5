"""The PostgreSQL store: the store's contract in as few round trips and as little CPU as pays.

- The lock of a result reads the seats (locking the round in share mode, then the table's row)
  and the table's deals in one message (`prepared.send_as_one`), the seats' query compiled once
  per process (`prepared.PreparedRead`) and each statement prepared once per session.
- A result's rows go as one message of INSERTs that each take their rows as one JSON parameter
  (`batch`); inside `batched()` they wait and go with the block's later inserts (the API's
  idempotency record), in the caller's transaction. A read on the connection meanwhile sends
  them first, so it sees them.
"""

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Model, QuerySet

from scoring.models import Deal, DealResult, ResultRevision, StandingsSnapshot
from scoring.store import batch
from scoring.store.prepared import PreparedRead, leave_prefetched, send_as_one
from tables.models import Seat, Table
from tournament.models import Entry, Player, Round, Tournament

# The tables a result write reads, whose statistics `analyze` refreshes (and the snapshots').
ANALYZED = (Tournament, Player, Entry, Round, Table, Seat, Deal, DealResult, ResultRevision)

Statement = tuple[str, list[Any]]


@dataclass
class _Write:
    """Statements waiting to be sent; `done` is told the first one's value (or None)."""

    statements: list[Statement]
    done: Callable[[Any], None]
    returns: bool = False


@dataclass
class _Waiting(threading.local):
    writes: list[_Write] | None = None
    sending: bool = field(default=False)


class PostgresStore:
    name = "postgresql"

    def __init__(self) -> None:
        self._waiting = _Waiting()

    def lock_table(self, table_id: int) -> Table:
        self.lock_round_of_table(table_id)
        tables = Table.objects.select_for_update(of=("self",), no_key=True)
        return tables.select_related("round__tournament").get(pk=table_id)

    def lock_round_of_table(self, table_id: int) -> None:
        """`FOR SHARE` on the table's round, before its status is read."""
        rounds, tables = Round._meta.db_table, Table._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT r.id FROM {rounds} r JOIN {tables} t ON t.round_id = r.id "
                "WHERE t.id = %s FOR SHARE OF r",
                [table_id],
            )

    def lock_table_with_seats(
        self, table_id: int, tournament: Tournament | None = None
    ) -> tuple[Table, list[Seat], list[Deal]]:
        """One message of two statements: the seats, locking the round (share) and then the
        table's row as `lock_table` does in two, and the deals, read under that lock."""
        read = _SEATS_LOCKED if tournament is None else _SEATS_LOCKED_TOURNAMENT_KNOWN
        with connection.cursor() as cursor:
            send_as_one(cursor, [read.statement(table_id), batch.table_deals_statement(table_id)])
            seats = read.read(cursor.fetchall())
            cursor.nextset()
            deals = batch.table_deals_read(cursor.fetchone()[0])
        if not seats:  # no seat to read: the table is locked now, its deals read under the lock
            table = self.lock_table(table_id)
            return table, [], self.table_deals(table_id)
        table = seats[0].table  # one object, which every seat holds
        leave_prefetched(table, "seats", seats)
        if tournament is not None:
            Round.tournament.field.set_cached_value(table.round, tournament)
        return table, seats, deals

    def lock_round(self, round_id: int) -> Round | None:
        sql = f"SELECT * FROM {Round._meta.db_table} WHERE id = %s FOR SHARE"
        return next(iter(Round.objects.raw(sql, [round_id])), None)

    def table_deals(self, table_id: int) -> list[Deal]:
        with connection.cursor() as cursor:
            send_as_one(cursor, [batch.table_deals_statement(table_id)])
            return batch.table_deals_read(cursor.fetchone()[0])

    def insert_deal(
        self, deal: Deal, results: Sequence[DealResult], revision: ResultRevision
    ) -> None:
        statements = batch.deal_insert_statements(deal, results, revision)
        inserted = lambda deal_id: batch.deal_inserted(deal, results, revision, deal_id)  # noqa: E731
        self._write(_Write(statements, inserted, returns=True))

    def replace_deal(
        self,
        deal: Deal,
        fields: Sequence[str],
        results: Sequence[DealResult],
        revision: ResultRevision,
    ) -> None:
        statements = batch.deal_replace_statements(deal, fields, results, revision)
        self._write(_Write(statements, lambda _: batch.stored([*results, revision])))

    def insert_row(self, row: Model) -> None:
        self._write(_Write([batch.row_insert_statement(row)], lambda _: batch.stored([row])))

    @contextlib.contextmanager
    def batched(self) -> Iterator[None]:
        waiting = self._waiting
        if waiting.writes is not None:  # inside another block: that one sends
            yield
            return
        waiting.writes = []
        try:
            with connection.execute_wrapper(self._send_waiting_first):
                yield
                self._send(waiting.writes)
        finally:
            waiting.writes = None

    def analyze(self) -> None:
        """`ANALYZE` the tables a result write and a recompute read: right after a bulk load a
        table that was empty still looks empty, and a read of one tournament's results becomes
        a scan of every tournament's."""
        models = (*ANALYZED, StandingsSnapshot)
        names = ", ".join(connection.ops.quote_name(model._meta.db_table) for model in models)
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {names}")

    @contextlib.contextmanager
    def statements_bounded(self, seconds: int) -> Iterator[None]:
        """`statement_timeout`, and no JIT compilation (a statement of 300,000 values took
        over 50 minutes to compile, and ignored a cancel meanwhile)."""
        with connection.cursor() as cursor:
            cursor.execute("SET statement_timeout = %s", [f"{seconds}s"])
            cursor.execute("SET jit = off")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET statement_timeout")
                cursor.execute("RESET jit")

    def _write(self, write: _Write) -> None:
        writes = self._waiting.writes
        if writes is None:
            self._send([write])
        else:
            writes.append(write)

    def _send(self, writes: list[_Write]) -> None:
        """The writes' statements in one message, in order; each told its value."""
        if not writes:
            return
        self._waiting.writes = [] if self._waiting.writes is not None else None
        statements = [statement for write in writes for statement in write.statements]
        values = []
        with connection.cursor() as cursor:
            self._waiting.sending = True
            try:
                send_as_one(cursor, statements)
            finally:
                self._waiting.sending = False
            for index, write in enumerate(writes):
                if index:
                    for _ in writes[index - 1].statements:
                        cursor.nextset()
                values.append(cursor.fetchone()[0] if write.returns else None)
        for write, value in zip(writes, values, strict=True):
            write.done(value)

    def _send_waiting_first(
        self, execute: Any, sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        """A statement run inside `batched()` while writes wait: the writes go first."""
        waiting = self._waiting
        if waiting.writes and not waiting.sending:
            self._send(waiting.writes)
        return execute(sql, params, many, context)


# The lock clause Django writes for `of=(round, table)`, and the one a result takes: the round
# in share mode first, then the table's row (see `lock_table`).
_BOTH_LOCKED = f'FOR NO KEY UPDATE OF "{Round._meta.db_table}", "{Table._meta.db_table}"'
_ROUND_THEN_TABLE = (
    f'FOR SHARE OF "{Round._meta.db_table}" FOR NO KEY UPDATE OF "{Table._meta.db_table}"'
)


def _seats_with_table(table_id: int, tournament: bool = True) -> QuerySet[Seat]:
    """The table's seats and players, the round (share) and the table's row locked; with the
    round's tournament unless the caller has it."""
    table = "table__round__tournament" if tournament else "table__round"
    seats = Seat.objects.select_related(table, "entry__player")
    seats = seats.filter(table_id=table_id).order_by("position")
    return seats.select_for_update(of=("table__round", "table"), no_key=True)


def _round_then_table(sql: str) -> str:
    return sql.replace(_BOTH_LOCKED, _ROUND_THEN_TABLE)


def _locked_read(build: Callable[[int], QuerySet[Seat]]) -> PreparedRead:
    return PreparedRead(build, rewrite=_round_then_table, shared=["table"])


_SEATS_LOCKED = _locked_read(_seats_with_table)
_SEATS_LOCKED_TOURNAMENT_KNOWN = _locked_read(lambda pk: _seats_with_table(pk, tournament=False))
