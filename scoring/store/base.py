"""The store's contract: what the result services need of the database, and nothing more.

A lock lasts until the caller's transaction ends. Rows given to an insert are unsaved models;
on return (or, inside `batched()`, when the block ends) each is stored, its id set, as
`save(force_insert=True)` leaves it. Results are left on their deal as a prefetch of `results`
would leave them, so the services never read them again.
"""

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from django.db.models import Model

from scoring.models import Deal, DealResult, ResultRevision
from tables.models import Seat, Table
from tournament.models import Round, Tournament


class Store(Protocol):
    name: str

    def lock_table(self, table_id: int) -> Table:
        """The table's row locked, with its round and tournament; its round locked in share
        mode first (where the database has share locks), so a round step waits for it."""
        ...

    def lock_table_with_seats(
        self, table_id: int, tournament: Tournament | None = None
    ) -> tuple[Table, list[Seat], list[Deal]]:
        """`lock_table`, with the table's seats and players in seat order (left prefetched on
        the table) and its deal attempts with their results (`table_deals`). With the table's
        `tournament`, the store need not read it."""
        ...

    def lock_round(self, round_id: int) -> Round | None:
        """The round's row read again, locked in share mode; None if it is gone."""
        ...

    def table_deals(self, table_id: int) -> list[Deal]:
        """The table's deal attempts in order, their results in side order, as prefetched."""
        ...

    def insert_deal(
        self, deal: Deal, results: Sequence[DealResult], revision: ResultRevision
    ) -> None:
        """Insert a new deal with its results and first revision."""
        ...

    def replace_deal(
        self,
        deal: Deal,
        fields: Sequence[str],
        results: Sequence[DealResult],
        revision: ResultRevision,
    ) -> None:
        """Store `deal`'s new version: its `fields` (`updated_at` now), its old results
        replaced by `results`, its current revisions superseded by `revision`."""
        ...

    def insert_row(self, row: Model) -> None:
        """Insert one row, as `save(force_insert=True)` would (its id is not read back)."""
        ...

    def batched(self) -> AbstractContextManager[None]:
        """The inserts made in the block, sent together when it ends (a store without round
        trips to save writes each at once). A read inside the block sees them."""
        ...

    def analyze(self) -> None:
        """Refresh the planner's statistics after a bulk load (where there is a planner)."""
        ...

    def statements_bounded(self, seconds: int) -> AbstractContextManager[None]:
        """Each statement inside the block stopped after `seconds`."""
        ...
