"""The store's contract (`scoring.store.base.Store`): both stores lock, read and write alike.

Each test runs against the ORM store and the PostgreSQL store (`store` fixture); what a lock
keeps others from doing is asked of PostgreSQL from another connection.
"""

import threading

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.forms.models import model_to_dict

from scoring.models import Deal, DealResult, IdempotencyRecord, ResultRevision
from scoring.store import ORM, POSTGRESQL
from scoring.store import store as chosen_store
from tables.models import Seat
from tests.factories import EntryFactory, TableFactory
from tournament.models import Round

pytestmark = pytest.mark.django_db


def seated_table(players: int = 3):
    table = TableFactory()
    for position in range(1, players + 1):
        entry = EntryFactory(tournament=table.round.tournament)
        Seat.objects.create(table=table, round=table.round, entry=entry, position=position)
    return table


def a_deal(table, number: int = 1) -> tuple[Deal, list[DealResult], ResultRevision]:
    deal = Deal(table=table, number=number, attempt=1, detail={"down_and_out": False})
    entries = [seat.entry for seat in table.seats.order_by("position")]
    results = [
        DealResult(entry=entry, side=side, points=5 * side, entered={"values": {}}, detail={})
        for side, entry in enumerate(entries)
    ]
    revision = ResultRevision(deal=deal, version=1, entry={"sides": []}, scores={})
    return deal, results, revision


def test_the_store_is_chosen_by_the_database_it_runs_on():
    assert chosen_store() is (POSTGRESQL if connection.vendor == "postgresql" else ORM)


def test_a_locked_table_comes_with_its_round_and_tournament(store, django_assert_num_queries):
    table = seated_table()
    with transaction.atomic():
        locked = store.lock_table(table.pk)
        with django_assert_num_queries(0):
            assert (locked.pk, locked.round.pk) == (table.pk, table.round_id)
            assert locked.round.tournament.pk == table.round.tournament_id


def test_a_table_is_locked_with_its_seats_in_order_and_its_deals(store, django_assert_num_queries):
    table = seated_table(3)
    deal, results, revision = a_deal(table)
    ORM.insert_deal(deal, results, revision)
    names = [seat.entry.player.name for seat in table.seats.order_by("position")]
    with transaction.atomic():
        locked, seats, deals = store.lock_table_with_seats(table.pk)
        with django_assert_num_queries(0):
            assert [seat.position for seat in seats] == [1, 2, 3]
            assert [seat.entry.player.name for seat in seats] == names
            assert all(seat.table is locked for seat in seats)
            assert list(locked.seats.all()) == seats  # left prefetched
            assert locked.round.tournament.pk == table.round.tournament_id
            assert [d.pk for d in deals] == [deal.pk]
            assert [r.points for r in deals[0].results.all()] == [0, 5, 10]


def test_a_tournament_given_to_the_lock_is_the_one_the_table_keeps(store):
    table = seated_table(2)
    tournament = table.round.tournament
    with transaction.atomic():
        locked, _seats, _deals = store.lock_table_with_seats(table.pk, tournament)
        assert locked.round.tournament is tournament


def test_a_table_without_seats_is_locked_all_the_same(store):
    table = TableFactory()
    with transaction.atomic():
        locked, seats, deals = store.lock_table_with_seats(table.pk)
    assert (locked.pk, seats, deals) == (table.pk, [], [])


def test_a_round_is_read_again_when_locked_and_none_when_gone(store):
    table = TableFactory()
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.IN_PLAY)
    with transaction.atomic():
        assert store.lock_round(table.round_id).status == Round.Status.IN_PLAY
        assert store.lock_round(-1) is None


def test_a_new_deal_is_stored_with_its_results_and_revision(store):
    table = seated_table(3)
    deal, results, revision = a_deal(table)
    store.insert_deal(deal, results, revision)
    assert deal.pk == Deal.objects.get(table=table).pk and not deal._state.adding
    assert [r.deal_id for r in (*results, revision)] == [deal.pk] * 4
    assert list(deal.results.all()) == results  # left as if prefetched
    assert [d.pk for d in store.table_deals(table.pk)] == [deal.pk]


def test_a_new_version_replaces_the_results_and_supersedes_the_revisions(store):
    table = seated_table(3)
    deal, results, revision = a_deal(table)
    store.insert_deal(deal, results, revision)
    deal.version, deal.detail = 2, {"down_and_out": True}
    entries = [r.entry_id for r in results]
    new_results = [
        DealResult(entry_id=entry_id, side=side, points=7, entered={}, detail={})
        for side, entry_id in enumerate(entries)
    ]
    new_revision = ResultRevision(deal=deal, version=2, entry={}, scores={}, reason="miscounted")
    store.replace_deal(deal, ("version", "detail", "updated_at"), new_results, new_revision)
    stored = Deal.objects.get(pk=deal.pk)
    assert (stored.version, stored.detail) == (2, {"down_and_out": True})
    assert sorted(DealResult.objects.filter(deal=deal).values_list("points", flat=True)) == [7] * 3
    statuses = dict(ResultRevision.objects.filter(deal=deal).values_list("version", "status"))
    assert statuses == {1: ResultRevision.Status.SUPERSEDED, 2: new_revision.status}
    assert list(deal.results.all()) == new_results and not new_revision._state.adding


def test_writes_in_a_batch_are_stored_when_it_ends_and_seen_by_a_read_inside_it(store):
    table = seated_table(2)
    deal, results, revision = a_deal(table)
    record = IdempotencyRecord(table=table, key="k", fingerprint="f", status_code=201, response={})
    with transaction.atomic():
        with store.batched():
            store.insert_deal(deal, results, revision)
            store.insert_row(record)
            assert DealResult.objects.filter(deal__table=table).count() == 2  # a read sees them
        assert deal.pk is not None and not record._state.adding
        assert model_to_dict(IdempotencyRecord.objects.get(key="k"))["table"] == table.pk


def test_a_batch_whose_block_fails_stores_nothing(store):
    table = seated_table(2)
    deal, results, revision = a_deal(table)
    with pytest.raises(ZeroDivisionError), transaction.atomic(), store.batched():
        store.insert_deal(deal, results, revision)
        1 / 0  # noqa: B018
    assert not Deal.objects.filter(table=table).exists()


def test_a_refusal_at_the_end_of_a_batch_is_raised_and_undoes_the_transaction(store):
    table = seated_table(2)
    first = IdempotencyRecord(table=table, key="k", fingerprint="f", status_code=201, response={})
    store.insert_row(first)
    deal, results, revision = a_deal(table)
    again = IdempotencyRecord(table=table, key="k", fingerprint="g", status_code=201, response={})
    with pytest.raises(IntegrityError), transaction.atomic(), store.batched():
        store.insert_deal(deal, results, revision)
        store.insert_row(again)
    assert not Deal.objects.filter(table=table).exists()
    assert IdempotencyRecord.objects.filter(table=table).count() == 1


def test_statements_run_inside_their_bound_and_analyze_is_harmless(store):
    with store.statements_bounded(30), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    store.analyze()


def _blocked(sql: str, params: list) -> bool:
    """Another connection asks for a lock at once (NOWAIT): True if it is refused."""
    refused: list[bool] = []

    def ask() -> None:
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("SET lock_timeout = '100ms'")
                try:
                    cursor.execute(sql, params)
                    refused.append(False)
                except Exception:
                    refused.append(True)
        finally:
            other.close()

    thread = threading.Thread(target=ask)
    thread.start()
    thread.join(timeout=10)
    return refused == [True]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("read", ["lock_table", "lock_table_with_seats"])
def test_a_locked_table_is_locked_for_others_until_the_transaction_ends(store, read):
    table = seated_table(2)
    tables = f"SELECT id FROM {table._meta.db_table} WHERE id = %s FOR UPDATE NOWAIT"
    with transaction.atomic():
        getattr(store, read)(table.pk)
        assert _blocked(tables, [table.pk])
    assert not _blocked(tables, [table.pk])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_postgresql_store_locks_the_round_in_share_mode_first():
    """A round step (`FOR UPDATE` on the round) waits for a result in flight (R12.4); another
    result (share) does not."""
    table = seated_table(2)
    rounds = f"SELECT id FROM {Round._meta.db_table} WHERE id = %s"
    with transaction.atomic():
        POSTGRESQL.lock_table_with_seats(table.pk)
        assert _blocked(f"{rounds} FOR UPDATE NOWAIT", [table.round_id])
        assert not _blocked(f"{rounds} FOR SHARE NOWAIT", [table.round_id])
    with transaction.atomic():
        POSTGRESQL.lock_round(table.round_id)
        assert _blocked(f"{rounds} FOR UPDATE NOWAIT", [table.round_id])
