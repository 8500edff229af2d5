"""The store's contract is one: each test here runs against both stores.

The ORM store runs on any database; the PostgreSQL store needs PostgreSQL (marked `postgres`:
skipped with its reason on SQLite, a failure under CI=true)."""

import pytest

from scoring.store import ORM, POSTGRESQL, Store


@pytest.fixture(
    params=["orm", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def store(request: pytest.FixtureRequest) -> Store:
    return {"orm": ORM, "postgresql": POSTGRESQL}[request.param]
