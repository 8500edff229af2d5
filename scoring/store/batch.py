"""The PostgreSQL store's SQL: a result's rows as a few INSERTs, a table's deals as one read.

A result is a deal, one row per side and a revision. Each INSERT takes its rows as one
parameter, a JSON array that the database reads with the table's own column types; the rows of
the sides and the revision name the new deal by its sequence's `currval`, so the deal's INSERT
and theirs can go in one message (`scoring.store.postgresql` sends them). `table_deals_statement`
reads a table's deal attempts with their results as one JSON document built by the database,
where a prefetch takes two queries. The constraints refuse what they refuse, as for `save()`.
"""

import functools
import json
import operator
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import Field, JSONField, Model, QuerySet
from django.db.models.sql import DeleteQuery, UpdateQuery
from django.utils import timezone

from scoring.models import Deal, DealResult, ResultRevision
from scoring.store.prepared import leave_prefetched


def deal_insert_statements(
    deal: Deal, results: Sequence[DealResult], revision: ResultRevision
) -> list[tuple[str, list[Any]]]:
    """The INSERTs of `deal` (returning its id), its `results` and its `revision` (each unsaved,
    `deal` set on them, and on the deal as if prefetched): the rows of the sides and the
    revision name the deal by its sequence's `currval`, so they must run right after it."""
    for row in (*results, revision):
        row.deal = deal
    leave_prefetched(deal, "results", results)
    insert_deal, deal_params = _insert(Deal, [deal])
    statements = [(f"{insert_deal} RETURNING {connection.ops.quote_name('id')}", deal_params)]
    for rows in (results, [revision]):
        if rows:
            statements.append(_insert(type(rows[0]), rows, of_new_deal=True))
    return statements


def deal_inserted(
    deal: Deal, results: Sequence[DealResult], revision: ResultRevision, deal_id: int
) -> None:
    """The rows of `deal_insert_statements` as stored: `deal_id` set, each row read from the
    connection's database, the results left on the deal as a prefetch keyed by that id would."""
    deal.pk = deal_id
    for row in (deal, *results, revision):
        row._state.adding, row._state.db = False, connection.alias
    for row in (*results, revision):
        row.deal = deal  # its id, now known
    leave_prefetched(deal, "results", results)


def deal_replace_statements(
    deal: Deal,
    fields: Sequence[str],
    results: Sequence[DealResult],
    revision: ResultRevision,
) -> list[tuple[str, list[Any]]]:
    """The statements that store `deal`'s new version: its `fields` as they are now
    (`updated_at` now), its old results replaced by `results` (left on the deal as if
    prefetched), its current revisions superseded by `revision`."""
    superseded = ResultRevision.Status.SUPERSEDED
    for row in (*results, revision):
        row.deal = deal
    deal.updated_at = timezone.now()
    old_results = DealResult.objects.filter(deal=deal)
    current = ResultRevision.objects.filter(deal=deal).exclude(status=superseded)
    statements = [
        _sql(old_results, DeleteQuery, lambda query: None),
        _sql(current, UpdateQuery, lambda query: query.add_update_values({"status": superseded})),
        _sql(
            Deal.objects.filter(pk=deal.pk),
            UpdateQuery,
            lambda query: query.add_update_values({name: getattr(deal, name) for name in fields}),
        ),
    ]
    if results:
        statements.append(_insert(DealResult, results))
    statements.append(_insert(ResultRevision, [revision]))
    leave_prefetched(deal, "results", results)
    return statements


def stored(rows: Iterable[Model]) -> None:
    """Mark `rows` as Django marks saved rows: not adding, of the connection's database."""
    for row in rows:
        row._state.adding, row._state.db = False, connection.alias


def _sql(rows: QuerySet, kind: type, prepare: Callable[[Any], None]) -> tuple[str, list[Any]]:
    """The DELETE or UPDATE (`kind`) of `rows` as SQL text, `prepare`d with what it sets."""
    query = rows.query.chain(kind)
    prepare(query)
    sql, params = query.get_compiler(connection=connection).as_sql()
    return sql, list(params)


# The id of the deal inserted last in this session, as the rows of its sides and revision take it.
_NEW_DEAL = f"currval(pg_get_serial_sequence('{Deal._meta.db_table}', 'id'))"

# The kinds of column whose value Django prepares (`get_db_prep_save`) as a JSON number, text or
# boolean: a value already of that type is written as it is. A moment is written as its ISO
# text, a JSON column's value as it is.
_INTEGERS = {"IntegerField", "PositiveIntegerField", "PositiveSmallIntegerField"}
_INTEGERS |= {"SmallIntegerField", "BigIntegerField", "AutoField", "BigAutoField"}
_PLAIN = {"CharField": str, "TextField": str, "SlugField": str, "BooleanField": bool}
_PLAIN |= dict.fromkeys(_INTEGERS, int)
_MOMENTS = {"DateTimeField": datetime, "DateField": date}


def row_insert_statement(obj: Model) -> tuple[str, list[Any]]:
    """The INSERT `save(force_insert=True)` would send for `obj`, without reading its id back."""
    return _insert(type(obj), [obj])


def _insert(
    model: type[Model], objs: Sequence[Model], of_new_deal: bool = False
) -> tuple[str, list[Any]]:
    """The INSERT Django would send for `objs` (auto_now and defaults applied), its rows sent
    as one parameter, a JSON array of one object per row that the database reads with the
    table's own column types (`jsonb_populate_recordset`); `of_new_deal`: each row's deal is
    the one inserted before it. One parameter per table spares quoting each value; the text is
    the same for every write of a model, so psycopg keeps its parsed form."""
    columns = _json_columns(model, of_new_deal)
    rows = [{column: form(value(obj)) for value, column, form in columns} for obj in objs]
    return _insert_text(model, of_new_deal), [json.dumps(rows)]


@functools.cache
def _insert_fields(model: type[Model]) -> tuple[Field, ...]:
    return tuple(f for f in model._meta.concrete_fields if not f.primary_key and not f.generated)


Read = Callable[[Any], Any]


@functools.cache
def _json_columns(model: type[Model], of_new_deal: bool) -> tuple[tuple[Read, str, Read], ...]:
    """Each inserted column's value of a model (`pre_save`), name, and JSON form of a value."""
    return tuple(
        (_saved_value(field), field.column, _json_form(model, field))
        for field in _insert_fields(model)
        if not (of_new_deal and field.attname == "deal_id")
    )


def _saved_value(field: Field) -> Read:
    """The value `save()` stores (`pre_save`: auto_now set), read as an attribute where the
    field's `pre_save` does only that."""
    if type(field).pre_save is Field.pre_save:
        return operator.attrgetter(field.attname)
    return functools.partial(field.pre_save, add=True)


def _json_form(model: type[Model], field: Field) -> Read:
    """How a value of `field` is written into the JSON of the rows, as Django would send it."""
    kind = field.get_internal_type()
    if kind == "ForeignKey":
        kind = field.target_field.get_internal_type()
    if kind == "JSONField" and _json_as_django_sends_it(field):
        return _as_is  # Django sends `json.dumps(value)`
    if kind in _PLAIN and _stock(field):
        return functools.partial(_plain, _PLAIN[kind], field)
    if kind in _MOMENTS and _stock(field):
        return functools.partial(_iso, field, _MOMENTS[kind])
    raise TypeError(f"{model.__name__}.{field.name}: no JSON form for a {kind}")


def _stock(field: Field) -> bool:
    """A field of Django's own class, which prepares a value as its kind does."""
    return type(field).__module__.startswith("django.db.models.fields")


def _json_as_django_sends_it(field: Field) -> bool:
    """A JSON column whose value Django sends as `json.dumps` writes it: no encoder, and no
    preparation of the field's own (a subclass may read it its own way)."""
    kind = type(field)
    prepares = (kind.get_prep_value, kind.get_db_prep_value, kind.get_db_prep_save)
    django = (JSONField.get_prep_value, JSONField.get_db_prep_value, JSONField.get_db_prep_save)
    return isinstance(field, JSONField) and field.encoder is None and prepares == django


def _as_is(value: Any) -> Any:
    return value


def _plain(kind: type, field: Field, value: Any) -> Any:
    """`value` as Django prepares it for `field`: as it is if it is of the column's `kind`."""
    if value is None or type(value) is kind:
        return value
    return field.get_db_prep_save(value, connection)


def _iso(field: Field, kind: type, value: Any) -> str | None:
    """A moment or a day as its ISO text: as it is if it is of the column's `kind` (a moment
    with its zone), else as Django prepares it first (a day in a moment's column is midnight in
    the project's zone; a moment in a day's column, its day there)."""
    if value is None:
        return None
    if type(value) is not kind or (kind is datetime and value.tzinfo is None):
        value = field.get_db_prep_save(value, connection)
    return value.isoformat()


@functools.lru_cache(maxsize=64)
def _insert_text(model: type[Model], of_new_deal: bool) -> str:
    """The INSERT of `model`'s rows from a JSON array, in the array's order."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = [quote(field.column) for field in _insert_fields(model)]
    values = [
        _NEW_DEAL if of_new_deal and field.attname == "deal_id" else f"r.{name}"
        for field, name in zip(_insert_fields(model), names, strict=True)
    ]
    return (
        f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(values)} "
        f"FROM jsonb_populate_recordset(NULL::{table}, %s::jsonb) WITH ORDINALITY AS r "
        "ORDER BY r.ordinality"
    )


# --- reading ------------------------------------------------------------------------------------

# How a column's value reads from the JSON document the database builds (`table_deals`): as it is
# (numbers, texts, JSON), a true or false, or a moment (ISO text).
_AS_IS = {"AutoField", "BigAutoField", "ForeignKey", "CharField", "TextField", "JSONField"}
_AS_IS |= {"IntegerField", "PositiveIntegerField", "PositiveSmallIntegerField"}


def _moment(text: str | None) -> datetime | None:
    """A timestamp's ISO text as Django reads the column: aware, in the connection's zone."""
    if text is None:
        return None
    value = datetime.fromisoformat(text)
    zone = connection.timezone
    if value.tzinfo is None or zone is None:
        return value.replace(tzinfo=zone)
    return value if value.tzinfo is zone else value.astimezone(zone)


def _readers(model: type[Model]) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
    """Each column that needs reading from JSON, by position: a moment or a boolean."""
    readers = []
    for position, field in enumerate(model._meta.concrete_fields):
        kind = field.get_internal_type()
        if kind == "DateTimeField":
            readers.append((position, _moment))
        elif kind == "BooleanField" and not field.null:
            readers.append((position, bool))
        elif kind not in _AS_IS or getattr(field, "decoder", None) is not None:
            raise TypeError(f"{model.__name__}.{field.name}: no JSON reading for a {kind}")
    return tuple(readers)


_DEAL_READERS, _RESULT_READERS = _readers(Deal), _readers(DealResult)
_DEAL_NAMES = tuple(field.attname for field in Deal._meta.concrete_fields)
_RESULT_NAMES = tuple(field.attname for field in DealResult._meta.concrete_fields)
_RESULT_DEAL = DealResult._meta.get_field("deal")


def _json_items(model: type[Model], alias: str) -> str:
    """The model's columns, in field order, as JSON array items."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


@functools.cache
def _table_deals_sql() -> str:
    """One row, one column: the table's deal attempts in order, each an array of its columns in
    field order and then the array of its results (each the same), in side order."""
    deals, results = Deal._meta.db_table, DealResult._meta.db_table
    deal_columns = _json_items(Deal, "d")
    result_columns = _json_items(DealResult, "r")
    of_deal = (
        f"(SELECT COALESCE(jsonb_agg(jsonb_build_array({result_columns}) ORDER BY r.side), "
        f"'[]'::jsonb) FROM {results} r WHERE r.deal_id = d.id)"
    )
    return (
        f"SELECT COALESCE(jsonb_agg(jsonb_build_array({deal_columns}, {of_deal}) "
        f"ORDER BY d.number, d.attempt), '[]'::jsonb) FROM {deals} d WHERE d.table_id = %s"
    )


def table_deals_statement(table_id: int) -> tuple[str, list[Any]]:
    """The SQL and parameters of the read of a table's deal attempts with their results, as
    one JSON document the database builds; `table_deals_read` reads its one value."""
    return _table_deals_sql(), [table_id]


def table_deals_read(document: str | list[Any]) -> list[Deal]:
    """The deals of `table_deals`' one value, each with its results as if prefetched."""
    found, alias = [], connection.alias
    for values in json.loads(document) if isinstance(document, str) else document:
        rows = values.pop()
        deal = _model(Deal, _DEAL_NAMES, _DEAL_READERS, values, alias)
        results = [_model(DealResult, _RESULT_NAMES, _RESULT_READERS, r, alias) for r in rows]
        for result in results:
            _RESULT_DEAL.set_cached_value(result, deal)
        leave_prefetched(deal, "results", results)
        found.append(deal)
    return found


def _model(
    model: type[Model],
    names: tuple[str, ...],
    readers: tuple[tuple[int, Callable[[Any], Any]], ...],
    values: list[Any],
    alias: str,
) -> Any:
    for position, read in readers:
        values[position] = read(values[position])
    return model.from_db(alias, names, values)
