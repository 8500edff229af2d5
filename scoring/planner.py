"""Planner statistics after a bulk load: the same query plans as a database in use.

PostgreSQL chooses a plan from its statistics of each table, which autovacuum keeps up to date
only after a while (or never, where it is off). Right after a bulk load (the demo, a tournament
import, a benchmark's set-up) a table that was empty still looks empty, and a read of one
tournament's results becomes a scan of every tournament's. `analyze()` refreshes the statistics
of the tables results and standings read; elsewhere (SQLite) it does nothing.
"""

from django.db import connection

from scoring.models import Deal, DealResult, ResultRevision, StandingsSnapshot
from tables.models import Seat, Table
from tournament.models import Entry, Player, Round, Tournament

ANALYZED = (Tournament, Player, Entry, Round, Table, Seat, Deal, DealResult, ResultRevision)


def analyze() -> None:
    """`ANALYZE` the tables a result write and a recompute read (PostgreSQL only)."""
    if connection.vendor != "postgresql":
        return
    names = ", ".join(
        connection.ops.quote_name(model._meta.db_table) for model in (*ANALYZED, StandingsSnapshot)
    )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {names}")
