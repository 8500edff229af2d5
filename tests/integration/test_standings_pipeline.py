"""The standings pipeline with the real parts: PostgreSQL, Redis and a Celery worker process.

The worker runs as a separate process against this test's database, as in production; results
are saved by the same services a scorekeeper's request uses, and committed.
"""

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from scoring.models import StandingsSnapshot
from tests.scoring.playing import play, published_round, tournament_with
from tournament.models import Tournament

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]
SECONDS = 15


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Worker:
    """A Celery worker process, started and stopped by the test."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "DEBUG": "1",
        }
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
        ]
        self.process = subprocess.Popen(command, env=env, cwd=settings.BASE_DIR)
        _until(lambda: app.control.ping(timeout=0.5), "the worker answers")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=SECONDS)
            self.process = None


def _until(condition, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < SECONDS:
        if condition():
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"waited {SECONDS} s for {what}")


@pytest.fixture
def worker() -> Iterator[Worker]:
    app.control.purge()  # tasks left over from other tests are not ours
    worker = Worker()
    yield worker
    worker.stop()


def _leader_total(tournament: Tournament) -> int | None:
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    return latest.data["players"][0]["total"] if latest and latest.data["players"] else None


def _games_counted(tournament: Tournament) -> int:
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    return sum(row["games_played"] for row in latest.data["players"]) if latest else 0


def test_a_saved_result_reaches_the_standings_through_the_worker(worker: Worker) -> None:
    worker.start()
    tournament = tournament_with(5)
    [table] = published_round(tournament).tables.all()
    play(table, 1)
    waited = _until(lambda: _games_counted(tournament) == 5, "the snapshot of game 1")
    assert waited < 2.0
    assert _leader_total(tournament) == 0


def test_entries_succeed_with_the_worker_stopped_and_standings_catch_up(worker: Worker) -> None:
    tournament = tournament_with(5)
    [table] = published_round(tournament).tables.all()
    for number in (1, 2, 3):
        started = time.perf_counter()
        play(table, number)
        assert time.perf_counter() - started < 1.0
    assert _games_counted(tournament) == 0  # nothing computed them yet
    worker.start()
    _until(lambda: _games_counted(tournament) == 15, "the standings to catch up")
