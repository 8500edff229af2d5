"""SQLite as a venue serves it: several processes writing at the same moment.

A transaction that reads first and writes after used to be refused with "database is locked"
when another process wrote meanwhile: SQLite cannot wait for the write lock a reader wants to
take (the two could wait for each other for ever), so it fails at once, whatever the busy
timeout. Transactions that take the write lock when they begin (`transaction_mode: IMMEDIATE`)
wait their turn instead, up to the busy timeout. Each check runs in processes of its own with the
project's settings on a SQLite file, as gunicorn's workers do.
"""

import subprocess
import sys
from pathlib import Path

from django.conf import settings

# Each process: read a counter, wait a little (as a result's checks do between the table's read
# and its write), write it back plus one, in one transaction; many times over.
WRITER = """
import os, sys, time
import django
django.setup()
from django.db import OperationalError, connection, transaction

refused = 0
for _ in range(int(sys.argv[1])):
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                n = cursor.fetchone()[0]
                time.sleep(float(sys.argv[2]))
                cursor.execute("UPDATE counter SET n = %s", [n + 1])
    except OperationalError as error:
        refused += 1
        print(error, file=sys.stderr)
print(refused)
"""


def _env(database: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{database}",
    }


def _counter(database: Path) -> int:
    import sqlite3

    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT n FROM counter").fetchone()[0]


def _writers(tmp_path: Path, processes: int, each: int, hold: float) -> tuple[list[int], int]:
    database = tmp_path / "venue.sqlite3"
    import sqlite3

    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE counter (n INTEGER)")
        conn.execute("INSERT INTO counter VALUES (0)")
    command = [sys.executable, "-c", WRITER, str(each), str(hold)]
    env = _env(database)
    running = [
        subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    refused = [int(p.communicate(timeout=120)[0].strip().splitlines()[-1]) for p in running]
    return refused, _counter(database)


def test_simultaneous_read_then_write_transactions_all_succeed_on_sqlite(tmp_path) -> None:
    refused, counter = _writers(tmp_path, processes=6, each=15, hold=0.002)
    assert refused == [0] * 6
    assert counter == 6 * 15  # each wrote what it read plus one: no update was lost


def test_a_writer_holding_the_lock_for_a_second_is_waited_for(tmp_path) -> None:
    """A burst's longest write (a director's CSV import, a big correction) is waited for."""
    refused, counter = _writers(tmp_path, processes=3, each=2, hold=0.5)
    assert refused == [0, 0, 0] and counter == 6


def test_the_sqlite_settings_take_the_write_lock_at_the_start() -> None:
    options = settings.SQLITE_OPTIONS
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 20
