"""The result write's reads of the games are index-driven whatever the planner's statistics
say (#18).

The write's statements are prepared once per session (`send_as_one`), and PostgreSQL may keep a
generic plan for them: one plan for every table, made from the statistics of the moment. Right
after a bulk load a table that was empty still looks empty (or has no statistics at all), which
is when a read of one table's rows could become a scan of every tournament's. Each statement is
explained as the write runs it (EXECUTE, generic and custom plans), with the statistics of a
2,000-player tournament and with none. With statistics, each table that grows with the players
is read through an index; without, each that grows with the tables and games still is.
"""

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from entry.access import _TABLE_OF_LINK
from scoring.models import Deal, DealResult
from scoring.store import postgresql
from scoring.store.batch import table_deals_statement
from scoring.store.postgresql import ANALYZED
from scoring.store.prepared import _numbered
from tables.models import Seat, Table
from tests.scale import tournament_at_scale
from tournament.models import Entry, Player

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

SCANS = {"Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan"}
BY_INDEX = {"Index Scan", "Index Only Scan", "Bitmap Heap Scan"}
# The tables that grow with the players of every tournament, and among them those that grow with
# every table and game played (the scan "of every hand of every tournament"). A
# tournament's and its rounds' rows are few, and a scan of them may be the cheaper read.
GROWING = {model._meta.db_table for model in (Player, Entry, Table, Seat, Deal, DealResult)}
PLAYED = {model._meta.db_table for model in (Table, Seat, Deal, DealResult)}


def _superuser() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        return cursor.fetchone()[0]


def _scans(node: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(table, how it is read) for each scan of a table in a JSON plan, sub-plans included."""
    if node.get("Node Type") in SCANS:
        yield node["Relation Name"], node["Node Type"]
    for child in node.get("Plans", []):
        yield from _scans(child)


def _plans(statements: dict[str, tuple[str, list[Any]]]) -> dict[tuple[str, str], set]:
    """Each statement's scans, as the write runs it: prepared, generic plan and custom plan."""
    found = {}
    with connection.cursor() as cursor:
        for name, (sql, params) in statements.items():
            cursor.execute(f"PREPARE plan_{name} AS {_numbered(sql)}")
            for mode in ("force_generic_plan", "force_custom_plan"):
                cursor.execute(f"SET LOCAL plan_cache_mode = {mode}")
                arguments = ", ".join(["%s"] * len(params))
                cursor.execute(f"EXPLAIN (FORMAT JSON) EXECUTE plan_{name}({arguments})", params)
                [[plan]] = cursor.fetchall()
                plan = json.loads(plan) if isinstance(plan, str) else plan
                found[name, mode] = set(_scans(plan[0]["Plan"]))
            cursor.execute(f"DEALLOCATE plan_{name}")
    return found


def _forget_statistics() -> None:
    """The planner's view of a database just bulk-loaded: no statistics, no known size (undone
    with the test's transaction)."""
    tables = [model._meta.db_table for model in ANALYZED]
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM pg_statistic WHERE starelid = ANY(%s::regclass[])", [tables])
        cursor.execute(
            "UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE oid = ANY(%s::regclass[])",
            [tables],
        )


def test_the_write_reads_through_indexes_with_statistics_and_without() -> None:
    if not _superuser():
        pytest.skip("needs a PostgreSQL superuser, to set the planner's statistics aside")
    tournament = tournament_at_scale(2000, deals=3)
    table = Table.objects.get(round__tournament=tournament, number=7)
    statements = {
        "link": _TABLE_OF_LINK.statement(table.access_token),
        "seats": postgresql._SEATS_LOCKED_TOURNAMENT_KNOWN.statement(table.pk),
        "deals": table_deals_statement(table.pk),
    }
    analyzed = _plans(statements)
    _forget_statistics()
    unknown = _plans(statements)
    for key, scans in analyzed.items():  # with statistics: every growing table by an index
        assert _read_by_index(scans, GROWING), (key, scans)
    for key, scans in unknown.items():
        # Without any, the tables of the games still are. The 2,000 entries may be joined by a
        # scan of them (a hash join, the planner's guess for so small a table), which
        # `scoring.planner.analyze` after a bulk load or import sets right.
        assert _read_by_index(scans, PLAYED), (key, scans)
        assert {t for t, _ in scans} == {t for t, _ in analyzed[key]}, key


def _read_by_index(scans: set[tuple[str, str]], tables: set[str]) -> bool:
    among = [how for table, how in scans if table in tables]
    return bool(among) and all(how in BY_INDEX for how in among)
