"""`PreparedRead`: a query compiled once per process reads what its queryset reads (#18)."""

import pytest
from django.db import transaction
from django.db.models import F

from scoring.models import Deal
from scoring.store.prepared import PreparedRead
from tables.models import Seat, Table
from tests.factories import DealFactory, SeatFactory, TableFactory

pytestmark = pytest.mark.django_db


def seats_of(table_id: int):
    return (
        Seat.objects.select_related("table__round__tournament", "entry__player")
        .filter(table_id=table_id)
        .order_by("position")
    )


def test_it_reads_the_models_and_related_rows_its_queryset_reads(django_assert_num_queries):
    seat = SeatFactory(position=2)
    SeatFactory(table=seat.table, position=1)
    SeatFactory(position=1)  # another table's seat
    read = PreparedRead(seats_of)
    with django_assert_num_queries(1):
        found = read(seat.table_id)
        names = [(s.position, s.entry.player.name, s.table.round.tournament.slug) for s in found]
    assert names == [
        (s.position, s.entry.player.name, s.table.round.tournament.slug)
        for s in seats_of(seat.table_id)
    ]
    assert [s.position for s in found] == [1, 2]
    assert all(s._state.adding is False for s in found)


def test_it_compiles_once_and_binds_each_calls_arguments():
    first, second = TableFactory(), TableFactory()
    built = []

    def tables(table_id: int):
        built.append(table_id)
        return Table.objects.filter(pk=table_id)

    read = PreparedRead(tables)
    assert [t.pk for t in read(first.pk)] == [first.pk]
    assert [t.pk for t in read(second.pk)] == [second.pk]
    assert read(0) == []
    assert len(built) == 1  # compiled with a stand-in, not with either id


def test_text_arguments_and_more_than_one_argument():
    table = TableFactory()
    read = PreparedRead(
        lambda token, round_id: Table.objects.filter(access_token=token, round_id=round_id),
        str,
        int,
    )
    assert [t.pk for t in read(table.access_token, table.round_id)] == [table.pk]
    assert read(table.access_token, table.round_id + 1) == []
    assert read("' OR 1=1 --", table.round_id) == []  # a parameter, never SQL text


def deals_labelled(table_id: int):
    return Deal.objects.filter(table_id=table_id).annotate(twice=F("number") * 2)


def test_annotations_reach_the_models_converted():
    deal = DealFactory(number=3)
    read = PreparedRead(deals_labelled)
    [found] = read(deal.table_id)
    assert found.twice == 6
    assert found.detail == {"down_and_out": False}  # the JSON column decoded


def test_a_lock_is_compiled_inside_the_callers_transaction():
    seat = SeatFactory()
    read = PreparedRead(lambda table_id: seats_of(table_id).select_for_update(of=("self",)))
    with transaction.atomic():
        assert [s.pk for s in read(seat.table_id)] == [seat.pk]


def test_the_sql_text_may_be_rewritten_once():
    table = TableFactory()
    read = PreparedRead(
        lambda table_id: Table.objects.filter(pk=table_id),
        rewrite=lambda sql: sql.replace("SELECT", "SELECT /* prepared */", 1),
    )
    assert [t.pk for t in read(table.pk)] == [table.pk]


@pytest.mark.parametrize(
    "build",
    [
        lambda table_id: Table.objects.all(),  # the argument never reaches the SQL
        lambda table_id: Table.objects.filter(pk=table_id).values("pk"),
        lambda table_id: Table.objects.filter(pk=table_id).prefetch_related("seats"),
    ],
    ids=["unused argument", "values", "prefetch"],
)
def test_a_query_it_cannot_read_faithfully_is_refused(build):
    with pytest.raises(ValueError):
        PreparedRead(build)(1)


def test_a_shared_relation_is_one_object_every_row_holds(django_assert_num_queries):
    seat = SeatFactory(position=1)
    SeatFactory(table=seat.table, position=2)
    read = PreparedRead(seats_of, shared=["table"])
    with django_assert_num_queries(1):
        first, second = read(seat.table_id)
        assert first.table is second.table
        assert second.table.round.tournament.slug == seat.table.round.tournament.slug
        assert first.entry is not second.entry  # not shared: each seat's own
    with pytest.raises(ValueError):
        PreparedRead(seats_of, shared=["round"])(seat.table_id)  # not read with the seats


def test_a_shared_relations_columns_are_converted_once_and_the_others_on_every_row(monkeypatch):
    """The shared row's JSON (the tournament's ruleset) is decoded from the first row only;
    every seat's own columns are still converted (`from_db_value` on each row)."""
    from django.db.models import JSONField

    seat = SeatFactory(position=1)
    for position in (2, 3):
        SeatFactory(table=seat.table, position=position)
    decoded = []
    from_db_value = JSONField.from_db_value

    def counted(self, value, expression, connection):
        decoded.append(self.model.__name__)
        return from_db_value(self, value, expression, connection)

    monkeypatch.setattr(JSONField, "from_db_value", counted)
    read = PreparedRead(seats_of, shared=["table"])
    read(seat.table_id)  # compiled: its converters are the patched ones
    decoded.clear()
    seats = read(seat.table_id)
    assert decoded.count("Tournament") == 1
    assert all(isinstance(s.table.round.tournament.ruleset, dict) for s in seats)
    assert [type(s.entry.player.created_at).__name__ for s in seats] == ["datetime"] * 3
