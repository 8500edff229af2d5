"""The PostgreSQL backend (config/postgresql): Django's, with timestamps parsed by psycopg's
compiled loader. The values read must be Django's, to the microsecond and time zone."""

import datetime as dt

import pytest
from django.db import DataError, connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.adapt import Transformer
from psycopg.pq import Format

from config.postgresql.base import compiled_tz_loader
from tournament.models import Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

TEXTS = [
    b"2026-11-24 09:30:00+00",
    b"2026-11-24 09:30:00.000001+00",
    b"1999-12-31 23:59:59.999999+00",
    b"2026-03-29 01:00:00+00",  # a summer-time change elsewhere: nothing here
    b"0001-01-01 00:00:00+00",
    b"9999-12-31 23:59:59.999999+00",
]


def _django_loader(zone: dt.tzinfo | None) -> type[BaseTzLoader]:
    class Loader(BaseTzLoader):
        timezone = zone

    return Loader


@pytest.mark.parametrize("zone", [dt.UTC, None, dt.timezone(dt.timedelta(hours=-5))])
def test_the_compiled_loader_reads_what_djangos_reads(zone: dt.tzinfo | None) -> None:
    connection.ensure_connection()
    ours = compiled_tz_loader(zone)(1184, connection.connection)
    djangos = _django_loader(zone)(1184, connection.connection)
    for text in TEXTS:
        assert ours.load(text) == djangos.load(text), text
        assert ours.load(text).tzinfo is djangos.load(text).tzinfo, text


def test_the_connection_reads_timestamps_with_the_compiled_loader() -> None:
    with connection.cursor() as cursor:
        loader = Transformer(cursor.cursor).get_loader(1184, Format.TEXT)
    assert type(loader).__name__ == "CompiledTzLoader"
    assert loader.timezone is connection.timezone  # Django's per-cursor check finds it agrees


def test_a_stored_timestamp_reads_back_as_saved() -> None:
    moment = dt.datetime(2026, 11, 24, 9, 30, 15, 123456, tzinfo=dt.UTC)
    tournament = Tournament.objects.create(
        name="Tz", slug="tz", starts_on=moment.date(), ends_on=moment.date()
    )
    Tournament.objects.filter(pk=tournament.pk).update(created_at=moment)
    read = Tournament.objects.get(pk=tournament.pk).created_at
    assert read == moment
    assert read.tzinfo is dt.UTC


def test_an_infinite_timestamp_is_refused_as_django_refuses_it() -> None:
    with connection.cursor() as cursor, pytest.raises(DataError):
        cursor.execute("SELECT 'infinity'::timestamptz")
        cursor.fetchone()
