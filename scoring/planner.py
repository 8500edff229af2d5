"""Planner statistics after a bulk load: the same query plans as a database in use.

Right after a bulk load (the demo, a tournament import, a benchmark's set-up) a table that was
empty still looks empty to PostgreSQL's planner, and a read of one tournament's results becomes
a scan of every tournament's. `analyze()` asks the store to refresh them (`scoring.store`).
"""

from scoring.store import store


def analyze() -> None:
    """Refresh the statistics of the tables results and standings read (PostgreSQL only)."""
    store().analyze()
