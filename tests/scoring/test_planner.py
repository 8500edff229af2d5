"""Planner statistics after a bulk load (issue 18): `scoring.planner.analyze`."""

import pytest
from django.db import connection

from scoring.demo import demo_load
from scoring.models import DealResult
from scoring.planner import analyze

pytestmark = pytest.mark.django_db


def estimated_rows(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        return cursor.fetchone()[0]


@pytest.mark.postgres
def test_the_demo_leaves_the_planner_knowing_its_rows() -> None:
    demo_load(accounts=False)  # analyzes once loaded
    assert estimated_rows(DealResult._meta.db_table) == DealResult.objects.count() > 0


def test_analyze_is_harmless_on_sqlite_and_postgresql() -> None:
    analyze()
    analyze()
