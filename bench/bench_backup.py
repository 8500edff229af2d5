"""Benchmark: what a backup costs to load, at the size limits and past them (issue 30).

A backup of one tournament with N players and their entries (the sections that grew without
bound in issue 30: 20,000 players took 8.7 s to load, 60,000 over 200 s, 300,000 held
PostgreSQL's JIT compiler for 50 minutes) is written as `tournament_export` writes it, then:

- loaded with `tournament_import` at 1,000 and 10,000 players (the limit of a section,
  `scoring.backup.ROW_LIMITS`): the seconds to read, check and write it, and per 1,000 rows;
- refused at 300,000 players (a 30 MB file, within the size limit): the seconds from the bytes
  to the refusal, and its message.

On SQLite (a file of its own) and on PostgreSQL (BENCH_DATABASE_URL, recreated) when it answers.
Run: `python bench/bench_backup.py`. The last line is for machines (prefix `bench_backup:`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kalooki_bench_backup"
)
SIZES = (1_000, 10_000)
REFUSED = 300_000


def template() -> dict:
    """A real export of a tournament of two players, made through the director's services;
    the tournament is deleted again."""
    import datetime

    from django.contrib.auth import get_user_model

    from scoring.backup import tournament_export
    from tournament.services import players_import_csv, tournament_create

    director, _ = get_user_model().objects.get_or_create(username="bench-backup")
    day = datetime.date(2026, 11, 21)
    tournament = tournament_create(
        by=director, name="Bench backup", starts_on=day, ends_on=day, venue="Hall"
    )
    players_import_csv(tournament=tournament, by=director, text="name\nAnn\nBen\n")
    exported = json.loads(tournament_export(tournament=tournament))
    _delete_all()
    return exported


def document(model: dict, players: int) -> bytes:
    """`model` with `players` players and their entries (ids from 1), as export writes them."""
    player, entry = model["players"][0], model["entries"][0]
    data = {**model, "audit": []}
    data["players"] = [
        {**player, "id": n, "name": f"Player {n:06d}"} for n in range(1, players + 1)
    ]
    data["entries"] = [{**entry, "id": n, "player": n} for n in range(1, players + 1)]
    return json.dumps(data).encode()


def _delete_all() -> None:
    from tournament.models import AuditEvent, Entry, Player, Tournament

    for model in (AuditEvent, Entry, Player, Tournament):
        model.objects.all().delete()


def one_database(url: str) -> list[dict]:
    os.environ.update({"DATABASE_URL": url, "DEBUG": "1"})
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.backup import BackupRefused, backup_parse, tournament_import

    call_command("migrate", verbosity=0)
    vendor = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    figures = []
    model = template()
    for players in SIZES:
        text = document(model, players)
        started = time.perf_counter()
        tournament_import(document=backup_parse(text))
        took = time.perf_counter() - started
        figures.append({"database": vendor, "players": players, "seconds": round(took, 2)})
        print(f"{vendor}: {players:,} players ({len(text) / 1e6:.1f} MB) loaded in {took:.2f} s "
              f"({1000 * took / players / 2:.2f} s per 1,000 rows)", flush=True)  # fmt: skip
        _delete_all()
    text = document(model, REFUSED)
    started = time.perf_counter()
    try:
        tournament_import(document=backup_parse(text))
    except BackupRefused as refusal:
        took = time.perf_counter() - started
        print(f"{vendor}: {REFUSED:,} players ({len(text) / 1e6:.1f} MB) refused in {took:.2f} s: "
              f"{refusal}")  # fmt: skip
        figures.append({"database": vendor, "players": REFUSED, "refused_seconds": round(took, 2)})
    return figures


def main() -> int:
    if len(sys.argv) > 1:  # one database, in a process of its own
        print("bench_backup: " + json.dumps(one_database(sys.argv[1])))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-backup-") as scratch:
        urls = [f"sqlite:///{Path(scratch) / 'db.sqlite3'}"]
        env = {**os.environ, "DATABASE_URL": DATABASE_URL}
        made = subprocess.run([sys.executable, "bin/createdb.py"], cwd=ROOT, env=env)
        if made.returncode == 0:
            urls.append(DATABASE_URL)
        else:
            print("bench_backup: PostgreSQL skipped: it does not answer")
        for url in urls:
            subprocess.run([sys.executable, __file__, url], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
