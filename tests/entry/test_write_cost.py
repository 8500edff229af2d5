"""A result write costs the same few database round trips at any table of any tournament.

Issue 18: at most five statements per write; it sends three (the link's table; the lock with
the seats and then the deals with their results, in one message; the result's rows with the
idempotency record, in one message), one transaction and no savepoint inside it, whether the
tournament has 10 players or 2,000 and whether the table has played one deal or eight. On
SQLite (no round trips: one process) the count is only held flat.
"""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.store.prepared import spelled_out
from tables.models import Table
from tests.scale import tournament_at_scale
from tests.scoring.playing import play, play_set

pytestmark = pytest.mark.django_db

TRANSACTION = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")
ROUND_TRIPS = 5  # the limit, on PostgreSQL
SENT = 3  # what a new result sends


def body(**extra: object) -> dict:
    hands = [{"seat": 1, "went_out": True, "cards": ""}]
    hands += [{"seat": seat, "points": 10 + seat} for seat in range(2, 6)]
    return {"hands": hands, "entered_by": "Marcia"} | extra


def write(table: Table, number: int, **extra: object) -> tuple[int, list[str]]:
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    with CaptureQueriesContext(connection) as queries:
        response = phone.put(
            f"/api/tables/{table.pk}/games/{number}/result",
            body(**extra),
            format="json",
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
    assert response.status_code in (200, 201), response.content
    return response.status_code, [query["sql"] for query in queries.captured_queries]


def statements(sqls: list[str]) -> list[str]:
    """The messages that are not the transaction's own markers, each spelled out: a statement
    prepared in the session by its text (`send_as_one`), its statements joined again."""
    return [";\n".join(spelled_out(sql)) for sql in sqls if not sql.startswith(TRANSACTION)]


def first_table(players: int, played: int) -> Table:
    tournament = tournament_at_scale(players, deals=3)
    table = Table.objects.get(round__tournament=tournament, number=1)
    play_set(table, played)
    return table


@pytest.mark.parametrize("players", [10, 2000])
@pytest.mark.parametrize("played", [1, 8])
def test_a_new_result_takes_the_same_statements_at_any_size(players: int, played: int) -> None:
    table = first_table(players, played)
    status, sqls = write(table, played + 1)
    assert status == 201
    done = statements(sqls)
    savepoints = [sql for sql in sqls if sql.startswith("SAVEPOINT")]
    assert len(savepoints) <= 1, "one transaction, no savepoint nested in it"
    if connection.vendor == "sqlite":
        assert len(done) == SQLITE_STATEMENTS, "\n".join(done)
        return
    assert len(done) == SENT <= ROUND_TRIPS, "\n".join(done)
    # The link's table is read once, with its round and tournament; the lock reads the table
    # and round fresh with the seats (the tournament as the link read it), the deals are read
    # after it in the same message, and the result's rows go in one message.
    assert sum('FROM "tables_table"' in sql for sql in done) == 1
    [held] = [sql for sql in done if "FOR NO KEY UPDATE" in sql]
    assert held.index("FOR NO KEY UPDATE") < held.index("FROM scoring_deal d WHERE")
    assert '"tournament_tournament"' not in held and '"tournament_round"' in held
    [rows] = [sql for sql in done if sql.startswith("INSERT")]
    assert rows.index('"scoring_resultrevision"') < rows.index('"scoring_idempotencyrecord"')


# SQLite saves the rows one by one and locks in two steps (no round trips: the count is flat).
SQLITE_STATEMENTS = 8


@pytest.mark.parametrize("players", [10, 2000])
def test_a_correction_takes_the_same_statements_at_any_size(players: int) -> None:
    table = first_table(players, 2)
    flat = []
    for number in (1, 2):
        version = table.deals.get(number=number).version
        status, sqls = write(table, number, version=version, reason="seat 2 miscounted")
        assert status == 200
        flat.append(len(statements(sqls)))
    assert flat[0] == flat[1]
    if connection.vendor == "postgresql":  # the old rows and the new ones in one message
        assert flat[0] <= ROUND_TRIPS


def test_the_answer_s_running_totals_match_a_fresh_read(client: APIClient) -> None:
    table = first_table(10, 3)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    answer = phone.put(f"/api/tables/{table.pk}/games/4/result", body(), format="json").json()
    fresh = phone.get(f"/api/tables/{table.pk}").json()["results"][-1]
    assert answer == fresh
    assert [score["running"] for score in answer["scores"]] == [0, 48, 52, 56, 60]


def test_a_void_attempt_and_its_replay_keep_their_answers() -> None:
    table = first_table(10, 0)
    play(table, 1)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    void = phone.put(
        f"/api/tables/{table.pk}/games/2/result", {"void": True, "hands": []}, format="json"
    )
    assert void.status_code == 201 and void.json()["void"] is True
    replay = phone.put(f"/api/tables/{table.pk}/games/2/result", body(), format="json").json()
    assert replay["attempt"] == 2
    assert [score["running"] for score in replay["scores"]] == [0, 24, 26, 28, 30]
