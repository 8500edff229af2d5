"""Parallel requests to the table API on a real PostgreSQL: one result per game, nothing lost.

Twenty phones are twenty threads, each with its own client and its own database connection,
released together by a barrier so that their requests really overlap. The table's row lock and
the database's constraints decide who wins; every loser is told why and shown the stored result,
and nobody gets a 500.
"""

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from scoring import rounds, services
from scoring.models import Deal, IdempotencyRecord, ResultRevision
from scoring.services import HandInput, result_submit
from tables.models import Table
from tests.scoring.playing import play, published_round, tables_of, tournament_with
from tournament.models import Round, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PHONES = 20


def in_parallel(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released at the same moment; their answers, in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait(timeout=30)
            return call()
        finally:
            connection.close()  # each thread's own connection

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def phone(table: Table) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    return client


def hands(points: int = 10) -> list[dict]:
    return [{"seat": 1, "went_out": True, "cards": ""}] + [
        {"seat": seat, "points": points + seat} for seat in range(2, 6)
    ]


def put(table: Table, number: int = 1, key: str | None = None, **body: Any) -> Callable:
    body.setdefault("hands", hands())
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}

    def call() -> tuple[int, dict]:
        response = phone(table).put(
            f"/api/tables/{table.pk}/games/{number}/result", body, format="json", **headers
        )
        replayed = response.get("Idempotent-Replayed") == "true"
        return response.status_code, response.json() | ({"replayed": True} if replayed else {})

    return call


def statuses(answers: list[tuple[int, dict]]) -> list[int]:
    return sorted(status for status, _ in answers)


@pytest.fixture
def table() -> Table:
    tournament = tournament_with(5, name="Open", slug="open")
    return tables_of(published_round(tournament))[0]


def test_twenty_phones_enter_the_same_game_one_result_is_stored(table: Table) -> None:
    answers = in_parallel([put(table, hands=hands(points=10 + n)) for n in range(PHONES)])
    assert statuses(answers) == [201] + [409] * (PHONES - 1)
    [(_, stored)] = [(status, body) for status, body in answers if status == 201]
    for status, body in answers:
        if status == 409:
            assert "saved meanwhile" in body["errors"][0]["message"]
            assert body["current"]["scores"] == stored["scores"]  # shown the stored one
    assert (Deal.objects.count(), ResultRevision.objects.count()) == (1, 1)


def test_twenty_phones_at_twenty_tables_all_store_their_result() -> None:
    tournament = tournament_with(5 * PHONES, name="Open", slug="open")
    tables = tables_of(published_round(tournament))
    assert len(tables) == PHONES
    answers = in_parallel([put(table) for table in tables])
    assert statuses(answers) == [201] * PHONES
    assert Deal.objects.filter(number=1, version=1).count() == PHONES
    assert ResultRevision.objects.count() == PHONES


def test_twenty_corrections_of_one_version_only_one_is_kept(table: Table) -> None:
    assert put(table)()[0] == 201
    answers = in_parallel([put(table, version=1, hands=hands(20 + n)) for n in range(PHONES)])
    assert statuses(answers) == [200] + [409] * (PHONES - 1)
    game = Deal.objects.get()
    assert game.version == 2
    for status, body in answers:
        if status == 409:
            assert body["current"]["version"] == 2
    assert list(game.revisions.order_by("version").values_list("status", flat=True)) == [
        "superseded",
        "confirmed",
    ]


def test_twenty_confirmations_one_confirmed_version(table: Table) -> None:
    Tournament.objects.update(requires_confirmation=True)
    seats = list(table.seats.order_by("position"))
    ann = [HandInput(seats[0].entry_id, went_out=True, cards="")]
    others = [HandInput(seat.entry_id, points=20) for seat in seats[1:]]
    result_submit(table=table, number=1, hands=ann + others, via="table 1 link · Ann")

    def confirm(n: int) -> Callable:
        def call() -> tuple[int, dict]:
            response = phone(table).post(
                f"/api/tables/{table.pk}/games/1/confirm",
                {"confirmed_by": f"Player {n}"},
                format="json",
            )
            return response.status_code, response.json()

        return call

    answers = in_parallel([confirm(n) for n in range(PHONES)])
    assert statuses(answers) == [200] + [409] * (PHONES - 1)
    assert all(
        "already confirmed" in body["errors"][0]["message"]
        for status, body in answers
        if status == 409
    )
    assert ResultRevision.objects.filter(status="confirmed").count() == 1
    assert Deal.objects.get().status == "confirmed"


def test_the_same_idempotency_key_in_parallel_writes_once(table: Table) -> None:
    answers = in_parallel([put(table, key="one-result") for _ in range(PHONES)])
    assert statuses(answers) == [201] * PHONES
    replays = [body.pop("replayed", False) for _, body in answers]
    assert replays.count(True) == PHONES - 1  # the first answer, replayed to the others
    assert all(body == answers[0][1] for _, body in answers)  # identical answers
    assert (Deal.objects.count(), ResultRevision.objects.count()) == (1, 1)
    assert IdempotencyRecord.objects.count() == 1


# --- what a result's lock holds, and what it leaves free --------------------------------------


@contextmanager
def in_flight(call: Callable[[], Any]) -> Iterator[None]:
    """Another connection makes `call` in a transaction and keeps it open, its locks held, until
    the block ends; then it commits."""
    done, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                call()
                done.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert done.wait(timeout=10), "the call in flight did not finish"
        yield
    finally:
        release.set()
        holder.join(timeout=30)


def result_in_flight(table: Table) -> AbstractContextManager[None]:
    """Another connection takes `table`'s lock as a result service does, and holds it (its
    transaction open) until the block ends."""
    return in_flight(lambda: services._lock(table))


def waiting_for_a_lock() -> int:
    """Backends of this database waiting for a row lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def round_in_play(players: int) -> Round:
    """Round 1 in play. (The first result of a published round puts it in play, holding the
    round's row until it is saved: the other tables wait for that one result only.)"""
    return rounds.round_start(
        round=published_round(tournament_with(players, name="Open", slug="open")), by=None
    )


def test_a_result_in_flight_does_not_hold_up_the_other_tables_of_its_round() -> None:
    round = round_in_play(10)
    first, second = tables_of(round)
    with result_in_flight(first), ThreadPoolExecutor(max_workers=1) as pool:
        answer = pool.submit(in_parallel, [put(second)])
        assert statuses(answer.result(timeout=10)) == [201]  # not queued behind table 1


def step_waits_for(call: Callable[[], Any], round: Round) -> None:
    """`call` (a result being saved) is made on another connection and held in flight; a round
    step (locking the round, R12.4) started then must wait for it, a backend waiting on a lock,
    and go on once the result's transaction ends. Bounded: 10 seconds at each wait."""
    with ThreadPoolExecutor(max_workers=1) as pool, in_flight(call):
        step = pool.submit(in_parallel, [lambda: rounds.round_lock(round=round, by=None)])
        deadline = time.monotonic() + 10
        while not waiting_for_a_lock() and not step.done() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not step.done(), "the round step did not wait for the result in flight"
        assert waiting_for_a_lock() == 1
    with pytest.raises(rounds.RoundError, match="Complete round 1 before locking it"):
        step.result(timeout=10)  # it went on once the result's transaction ended


def test_a_round_step_waits_for_a_result_saved_through_the_service() -> None:
    """The whole write, as the pages and the table API make it (`result_record`: the round's row
    in share mode and the table's, then the deals, in one message on PostgreSQL)."""
    round = round_in_play(5)
    [table] = tables_of(round)
    step_waits_for(lambda: play(table, 1), round)


def test_a_round_step_waits_for_a_result_saved_through_the_table_api() -> None:
    round = round_in_play(5)
    [table] = tables_of(round)
    step_waits_for(lambda: put(table)(), round)


def test_a_round_step_waits_for_the_result_in_flight() -> None:
    """The round's row is held in share mode by a result being saved: a director's round step
    (here locking the round, R12.4) waits for it instead of changing the round under it."""
    round = round_in_play(5)
    [table] = tables_of(round)
    with ThreadPoolExecutor(max_workers=1) as pool, result_in_flight(table):
        step = pool.submit(in_parallel, [lambda: rounds.round_lock(round=round, by=None)])
        deadline = time.monotonic() + 10
        while not waiting_for_a_lock() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiting_for_a_lock() == 1 and not step.done()
    with pytest.raises(rounds.RoundError, match="Complete round 1 before locking it"):
        step.result(timeout=10)  # it went on once the result's transaction ended
