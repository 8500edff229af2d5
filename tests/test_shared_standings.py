"""One truth on the embedded default: every web process of `make venue`
without Redis serves the same standings within a second of a save.

Each gunicorn worker used to keep the standings in a cache of its own memory for a day, and to
recompute them inside the request that saved a result: after a save, the process that saved
showed the new standings and the other the old ones, for hours. With SHARED_DIR (as venue mode
sets it) the cache is files every process reads, and the recompute is queued through files to a
Celery worker. Here two web processes (gunicorn, one worker each, on ports of their own) and the
Procfile's Celery worker run on one SQLite file; a result is saved through the first, and both
are asked for the leaderboard.
"""

import http.client
import json
import time
from pathlib import Path

import pytest

from tests.stack import (
    HOST,
    ROOT,
    free_port,
    get,
    gunicorn_command,
    manage,
    stack_env,
    supervised,
)

pytestmark = pytest.mark.slow
SETUP = """
import datetime
from django.contrib.auth import get_user_model
from scoring.rounds import round_add, round_publish
from tables.services import round_seat
from tournament.models import Tournament
from tournament.services import entries_check_in_all, players_import_csv, tournament_create

director = get_user_model().objects.create_user("one-truth")
day = datetime.date.today()
cup = tournament_create(by=director, name="One Truth Cup", starts_on=day, ends_on=day, venue="Hall")
players_import_csv(tournament=cup, by=director, text="name\\nAnn\\nBen\\nCy\\nDi\\nEd\\n")
entries_check_in_all(tournament=cup, by=director)
round_ = round_add(tournament=cup, by=director)
[table] = round_seat(round=round_, by=director, seed=1)
round_publish(round=round_, by=director)
Tournament.objects.filter(pk=cup.pk).update(is_published=True)
print(cup.slug, table.pk, table.access_token)
"""
RESULT = {
    "hands": [{"seat": 1, "went_out": True, "cards": ""}]
    + [{"seat": seat, "points": 10 + seat} for seat in range(2, 6)],
    "confirm_warnings": True,
}


def _save(port: int, table: int, token: str, number: int) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        headers = {"Authorization": f"Table {token}", "Content-Type": "application/json"}
        path = f"/api/tables/{table}/games/{number}/result"
        conn.request("PUT", path, body=json.dumps(RESULT), headers=headers)
        answer = conn.getresponse()
        assert answer.status == 201, answer.read()[:500]
    finally:
        conn.close()


def _version(port: int, slug: str) -> str:
    status, headers, _ = get(port, f"/p/{slug}/leaderboard")
    assert status == 200
    return headers["ETag"]


@pytest.fixture
def two_web_processes(tmp_path: Path):
    """Two web processes and a Celery worker on one SQLite file, as venue mode runs them."""
    one, two = free_port(), None
    env = stack_env(tmp_path, one, SHARED_DIR=str(tmp_path / "shared"))
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    set_up = manage(env | {"DEBUG": "1", "SHARED_DIR": ""}, "shell", "-c", SETUP)
    slug, table, token = set_up.split()[-3:]
    with (tmp_path / "first").open("w"):  # keeps `one` taken while the second port is found
        pass

    def web(port: int) -> str:
        return " ".join(gunicorn_command(tmp_path, f"{HOST}:{port}", "--workers", "1"))

    procfile = tmp_path / "Procfile"
    worker = next(line for line in (ROOT / "Procfile").read_text().splitlines()
                  if line.startswith("worker:"))  # fmt: skip
    with supervised(_procfile(procfile, [f"web1: {web(one)}", worker]), env, one):
        two = free_port()
        with supervised(_procfile(tmp_path / "Procfile2", [f"web2: {web(two)}"]), env, two):
            yield (one, two), slug, int(table), token


def _procfile(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_every_web_process_serves_the_same_standings_within_a_second_of_a_save(
    two_web_processes,
) -> None:
    (one, two), slug, table, token = two_web_processes
    before = {_version(one, slug), _version(two, slug)}
    assert len(before) == 1
    for number in (1, 2):
        _save(one, table, token, number)
        saved = time.monotonic()
        while True:
            seen = {_version(one, slug), _version(two, slug)}
            if len(seen) == 1 and seen != before:
                break
            assert time.monotonic() - saved < 1.0, f"after game {number}: {seen}"
            time.sleep(0.05)
        before = seen
    for _ in range(10):  # and it stays so: no process falls back on an older one
        assert {_version(one, slug), _version(two, slug)} == before
