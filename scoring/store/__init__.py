"""The result write's store: how the domain services lock, read and insert rows.

The services (`scoring.services`, `scoring.rulings`, `scoring.planner`, `scoring.backup`) ask
`store()` and never which database they are on. Two stores keep one contract
(`scoring.store.base.Store`, tested against both in `tests/scoring/store/`):

- `OrmStore` (`orm.py`): Django's ORM as written, for SQLite (one process, one writer).
- `PostgresStore` (`postgresql.py`): the same rows in fewer round trips and less CPU: a lock
  read with the seats and deals in one message, statements prepared once per session
  (`prepared.py`), a result's rows sent as one message of JSON INSERTs (`batch.py`).
"""

from django.db import connection

from scoring.store.base import Store
from scoring.store.orm import OrmStore
from scoring.store.postgresql import PostgresStore

ORM, POSTGRESQL = OrmStore(), PostgresStore()


def store() -> Store:
    """The store of the connection's database: PostgreSQL's own, else the ORM's."""
    return POSTGRESQL if connection.vendor == "postgresql" else ORM


__all__ = ["ORM", "POSTGRESQL", "OrmStore", "PostgresStore", "Store", "store"]
