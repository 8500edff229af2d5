"""The ORM store: the store's contract written as plain Django queries and saves.

It is what SQLite runs (one process, one writer at a time: no round trip to save, no row lock
to take) and the reference the PostgreSQL store is tested against. On a database with row
locks the table's row is locked (`select_for_update`); the ORM has no share lock, so the round
is not locked (the PostgreSQL store locks it).
"""

import contextlib
import time
from collections.abc import Iterator, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model, Prefetch, QuerySet

from scoring.models import Deal, DealResult, ResultRevision
from scoring.store.prepared import leave_prefetched
from tables.models import Seat, Table
from tournament.models import Round, Tournament


class OrmStore:
    name = "orm"

    def lock_table(self, table_id: int) -> Table:
        tables = Table.objects.select_for_update(of=("self",), no_key=True)
        return tables.select_related("round__tournament").get(pk=table_id)

    def lock_table_with_seats(
        self, table_id: int, tournament: Tournament | None = None
    ) -> tuple[Table, list[Seat], list[Deal]]:
        """The seats with their table, locked, in one query (the table alone when it has no
        seat), then the deals."""
        seats = list(_seats_locked(table_id, tournament is None))
        table = seats[0].table if seats else self.lock_table(table_id)
        for seat in seats:
            Seat.table.field.set_cached_value(seat, table)  # one object, which every seat holds
        leave_prefetched(table, "seats", seats)
        if tournament is not None:
            Round.tournament.field.set_cached_value(table.round, tournament)
        return table, seats, self.table_deals(table_id)

    def lock_round(self, round_id: int) -> Round | None:
        return Round.objects.filter(pk=round_id).first()

    def table_deals(self, table_id: int) -> list[Deal]:
        results = Prefetch("results", queryset=DealResult.objects.order_by("side"))
        deals = Deal.objects.filter(table_id=table_id).order_by("number", "attempt")
        return list(deals.prefetch_related(results))

    def insert_deal(
        self, deal: Deal, results: Sequence[DealResult], revision: ResultRevision
    ) -> None:
        deal.save(force_insert=True)
        for row in (*results, revision):
            row.deal = deal
        DealResult.objects.bulk_create(results)
        revision.save(force_insert=True)
        leave_prefetched(deal, "results", list(results))

    def replace_deal(
        self,
        deal: Deal,
        fields: Sequence[str],
        results: Sequence[DealResult],
        revision: ResultRevision,
    ) -> None:
        superseded = ResultRevision.Status.SUPERSEDED
        for row in (*results, revision):
            row.deal = deal
        DealResult.objects.filter(deal=deal).delete()
        deal.revisions.exclude(status=superseded).update(status=superseded)
        deal.save(update_fields=fields)
        DealResult.objects.bulk_create(results)
        revision.save(force_insert=True)
        leave_prefetched(deal, "results", list(results))

    def insert_row(self, row: Model) -> None:
        row.save(force_insert=True)

    @contextlib.contextmanager
    def batched(self) -> Iterator[None]:
        yield  # each write goes at once: in one process there is no round trip to save

    def analyze(self) -> None:
        """Nothing: SQLite's planner keeps no statistics that a bulk load leaves stale."""

    @contextlib.contextmanager
    def statements_bounded(self, seconds: int) -> Iterator[None]:
        """A driver with a progress handler (SQLite's) interrupts a statement past its time;
        on another the block runs unbounded."""
        connection.ensure_connection()
        raw = connection.connection
        if not hasattr(raw, "set_progress_handler"):
            yield
            return
        started = [time.monotonic()]

        def note(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            started[0] = time.monotonic()
            return execute(sql, params, many, context)

        def overdue() -> int:
            return int(time.monotonic() - started[0] > seconds)

        raw.set_progress_handler(overdue, 100_000)
        try:
            with connection.execute_wrapper(note):
                yield
        finally:
            raw.set_progress_handler(None, 0)


def _seats_locked(table_id: int, tournament: bool) -> QuerySet[Seat]:
    """The table's seats and players in seat order, with the table's row locked."""
    table = "table__round__tournament" if tournament else "table__round"
    seats = Seat.objects.select_related(table, "entry__player").filter(table_id=table_id)
    return seats.order_by("position").select_for_update(of=("table",), no_key=True)
