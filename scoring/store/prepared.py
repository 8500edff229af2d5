"""ORM queries compiled once per process, and statements prepared once per database session.

Django compiles a queryset's SQL on every evaluation; for the reads of every result write (the
table of a link, the seats under the table's lock) the compile costs more CPU than the database
spends answering. A `PreparedRead` builds its queryset once, with stand-in values for what
changes from call to call, keeps the SQL text and the compiler, and on each call sends that text
with the call's values and builds the models as Django's own iterable does (`from_db`, the
converters of each column, `select_related` objects attached). What the queryset says is what
runs: the SQL is Django's own, compiled per database connection.

`send_as_one` sends several statements in one message; on PostgreSQL each is prepared once per
session (SQL `PREPARE`, in the same message as its first use) and run by name (`EXECUTE`) ever
after, so the database parses and plans it once.
"""

import itertools
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

# The stand-in of the k-th argument: an int no id ever takes, or a text no token ever holds.
STAND_IN = -7_340_033


def _stand_in(kind: type, index: int) -> Any:
    return STAND_IN - index if kind is int else f"stand-in {index} {STAND_IN}"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, int], ...]  # (position in params, argument index)
    compiler: Any
    model: type[Model]
    init_list: tuple[str, ...]
    start: int
    end: int
    populators: tuple[Any, ...]
    shared: tuple[Any, ...]  # populators of related rows that every row holds the same of
    annotations: tuple[tuple[str, int], ...]  # (attribute, position in the row)
    converters: dict[int, Any]  # each column's converters from database values, by position
    own_converters: dict[int, Any]  # those of the columns that are not the shared rows'

    def bound(self, values: Sequence[Any]) -> list[Any]:
        params = list(self.params)
        for position, index in self.slots:
            params[position] = values[index]
        return params

    def models(self, rows: list[tuple[Any, ...]], db: str) -> list[Model]:
        found: list[Model] = []
        if self.converters:  # the shared rows' columns are read from the first row only
            rows = [
                *self.compiler.apply_converters(rows[:1], self.converters),
                *self.compiler.apply_converters(rows[1:], self.own_converters),
            ]
        for row in rows:
            obj = self.model.from_db(db, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for populator in self.shared:
                if found:  # the first row's object, not another copy of it
                    populator.local_setter(obj, populator.local_getter(found[0]))
                else:
                    populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            found.append(obj)
        return found


class PreparedRead:
    """`build(*args)` compiled once per database connection, run with each call's `args`.

    `build` takes arguments of the `kinds` given (int or str) and returns a queryset of models
    (no `values()`, no prefetch); each argument must reach the SQL as one
    parameter of its own. `rewrite` may change the compiled SQL text (a lock clause Django
    cannot write). A select-for-update queryset is compiled on its first call, inside the
    caller's transaction, as Django requires. `shared` names `select_related` relations that
    are the same row for every row read (the table of a table's seats): read into one object
    (its columns converted from the first row only), which every model read holds."""

    def __init__(
        self,
        build: Callable[..., QuerySet],
        *kinds: type,
        rewrite: Callable[[str], str] = str,
        shared: Sequence[str] = (),
    ) -> None:
        self.build, self.kinds, self.rewrite = build, kinds or (int,), rewrite
        self.shared = set(shared)
        # Per connection alias; two threads compiling at once store equal answers.
        self._compiled: dict[str, _Compiled] = {}

    def __call__(self, *args: Any) -> list[Model]:
        with connection.cursor() as cursor:
            send_as_one(cursor, [self.statement(*args)])
            return self.read(cursor.fetchall())

    def statement(self, *args: Any) -> tuple[str, list[Any]]:
        """The SQL and parameters of a call, for a caller that sends it with other statements
        in one message; `read` then makes the models of the rows it answered."""
        compiled = self._compiled.get(connection.alias) or self._compile()
        return compiled.sql, compiled.bound(args)

    def read(self, rows: list[tuple[Any, ...]]) -> list[Model]:
        return self._compiled[connection.alias].models(rows, connection.alias)

    def _compile(self) -> _Compiled:
        stand_ins = [_stand_in(kind, index) for index, kind in enumerate(self.kinds)]
        queryset = self.build(*stand_ins)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        slots = tuple(
            (position, stand_ins.index(value))
            for position, value in enumerate(params)
            if type(value) in (int, str) and value in stand_ins
        )
        if sorted(index for _, index in slots) != list(range(len(self.kinds))):
            raise ValueError(f"Each argument of {self.build} must be one parameter of its SQL.")
        klass_info, select = compiler.klass_info, compiler.select
        if queryset._prefetch_related_lookups or queryset._fields is not None:
            raise ValueError(f"{self.build} must read models (no values(), no prefetch).")
        populators = _populators(klass_info, select)
        if not self.shared <= {populator.field_name for populator in populators}:
            raise ValueError(f"{self.build}: {self.shared} must be among its select_related.")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        converters = compiler.get_converters([column[0] for column in select])
        shared_columns = {
            column
            for related in klass_info.get("related_klass_infos", [])
            if related["field"].name in self.shared
            for column in _subtree_columns(related)
        }
        compiled = _Compiled(
            sql=self.rewrite(sql),
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            model=klass_info["model"],
            init_list=tuple(column[0].target.attname for column in select[start:end]),
            start=start,
            end=end,
            populators=tuple(p for p in populators if p.field_name not in self.shared),
            shared=tuple(p for p in populators if p.field_name in self.shared),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
            converters=converters,
            own_converters={
                position: converter
                for position, converter in converters.items()
                if position not in shared_columns
            },
        )
        self._compiled[connection.alias] = compiled
        return compiled


def _populators(klass_info: dict[str, Any], select: Any) -> list[Any]:
    """Django's populators of the `select_related` objects, each named by its relation, with
    a getter of the object it sets."""
    populators = get_related_populators(klass_info, select, connection.alias)
    for populator, related in zip(
        populators, klass_info.get("related_klass_infos", []), strict=True
    ):
        populator.field_name = related["field"].name
        populator.local_getter = related["field"].get_cached_value
    return populators


def _subtree_columns(klass_info: dict[str, Any]) -> list[int]:
    """The positions in the row of a `select_related` object's columns and its own related
    objects'."""
    nested = klass_info.get("related_klass_infos", [])
    return [
        *klass_info["select_fields"],
        *(c for related in nested for c in _subtree_columns(related)),
    ]


def leave_prefetched(obj: Model, relation: str, rows: list[Model]) -> None:
    """Leave `rows` on `obj` as a prefetch of its reverse `relation` would: `obj.<relation>
    .all()` reads them. The queryset left is the one the related manager makes, its filter on
    `obj` deferred until something chains onto it, as the manager defers it: making the manager
    and filtering at once cost ten times as much."""
    field = obj._meta.get_field(relation).field  # the foreign key on the related model
    cached = QuerySet(field.model, using=obj._state.db, hints={"instance": obj})
    cached._deferred_filter = (False, (), {field.name: obj})
    cached._known_related_objects = {field: {obj.pk: obj}}
    cached._result_cache, cached._prefetch_done = rows, True
    obj.__dict__.setdefault("_prefetched_objects_cache", {})[relation] = cached


def prefetched(obj: Model, relation: str) -> list[Model] | None:
    """The rows a prefetch (or `leave_prefetched`) left on `obj` for `relation`, None if none:
    read without the related manager, which an object not yet stored cannot have."""
    cached = obj.__dict__.get("_prefetched_objects_cache", {}).get(relation)
    return None if cached is None else list(cached)


# --- statements prepared once per database session ----------------------------------------------

SESSION_STATEMENTS_MAX = 64  # per session; a statement beyond them is sent as text
_names = itertools.count(1)  # unique in the process, so in each session it opens
_PLACEHOLDER = re.compile(r"%%|%s")
# The statements prepared in each database session, by their SQL text, kept with the driver's
# connection (one session, whether Django opened it or took it from a pool) and gone with it.
_SESSIONS: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
# What the database answers when the session no longer holds a statement as it was prepared:
# no such name (a DEALLOCATE, DISCARD), its plan's columns changed (a migration since), or a
# name already taken. Every statement of the session is then prepared again, under new names.
_STALE = {"26000", "0A000", "42P05"}


def send_as_one(cursor: Any, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Send `statements` (each its SQL text with `%s` placeholders, and its parameters) to the
    database in one message, and leave `cursor` on the first one's answer (`cursor.nextset()`
    moves to the next).

    On PostgreSQL each statement is prepared once per session: the first message that runs it
    starts with `PREPARE name AS <its text>`, and every message runs it as `EXECUTE name(<its
    parameters>)`. The parameters are bound on the client as literals, as for a statement sent
    as text; the database then casts each to the type it found for its placeholder (by
    assignment: callers pass values of their columns' own types, as Django does). A prepared
    statement outlives a rolled-back transaction. A message that fails forgets the statements it
    was preparing (whether or not the database had prepared them: they are prepared again under
    new names), and the session's every statement when the database no longer has one as it was
    prepared (`_STALE`). A session is the driver's connection: a pooler that hands a connection's
    statements to another server session (pgbouncer in transaction mode) is not supported.
    Elsewhere (SQLite) the statements go as text."""
    prepared = _session(cursor)
    preparing, texts, params = [], [], []
    for sql, values in statements:
        name = _name(prepared, sql, preparing) if prepared is not None else None
        texts.append(sql if name is None else _execute(name, len(values)))
        params.extend(values)
    heads = [f"PREPARE {prepared[sql]} AS {_numbered(sql)}" for sql in preparing]
    try:
        cursor.execute(";\n".join([*heads, *texts]), params)
    except BaseException as error:
        _forget(prepared, preparing, error)
        raise
    for _ in heads:
        cursor.nextset()


def session_statements(db: Any = connection) -> dict[str, str]:
    """The statements prepared in the session of `db`'s current connection: name by SQL text
    (none off PostgreSQL)."""
    if db.vendor != "postgresql" or db.connection is None:
        return {}
    return dict(_SESSIONS.get(db.connection) or {})


def _session(cursor: Any) -> dict[str, str] | None:
    """The statements prepared in the session of `cursor`'s connection; None off PostgreSQL."""
    if cursor.db.vendor != "postgresql":
        return None
    return _SESSIONS.setdefault(cursor.cursor.connection, {})


def _forget(prepared: dict[str, str] | None, preparing: list[str], error: BaseException) -> None:
    if prepared is None:
        return
    state = getattr(error, "sqlstate", None) or getattr(error.__cause__, "sqlstate", None)
    if state in _STALE:
        prepared.clear()
        return
    for sql in preparing:
        del prepared[sql]


def _name(prepared: dict[str, str], sql: str, preparing: list[str]) -> str | None:
    """The session's name for `sql`; a new one (`sql` added to `preparing`) while the session
    holds fewer than SESSION_STATEMENTS_MAX, else None: sent as text."""
    name = prepared.get(sql)
    if name is None and len(prepared) < SESSION_STATEMENTS_MAX:
        name = prepared[sql] = f"kalooki_{next(_names)}"
        preparing.append(sql)
    return name


def _execute(name: str, count: int) -> str:
    return f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"


def _numbered(sql: str) -> str:
    """`sql` with its placeholders numbered as PREPARE takes them (`$1`, `$2`, ...); a `%%`
    stays, for the message's own binding to make it `%`."""
    number = itertools.count(1)
    return _PLACEHOLDER.sub(lambda m: m[0] if m[0] == "%%" else f"${next(number)}", sql)


def spelled_out(message: str) -> list[str]:
    """The statements of a message `send_as_one` sent on this thread's connection, as the texts
    they run: an EXECUTE as its statement's text (placeholders left in, arguments left out), a
    PREPARE left out. For tests and logs; the message's literals must not hold the separator
    (`;` and a new line). An EXECUTE of a name the session does not know raises ValueError."""
    names = {name: sql for sql, name in session_statements().items()}
    spelled = []
    for part in message.split(";\n"):
        words = part.split(maxsplit=2)
        if words[:1] == ["PREPARE"] and words[1] in names:
            continue
        if words[:1] == ["EXECUTE"]:
            name = words[1].partition("(")[0]
            if name not in names:
                raise ValueError(f"{name}: no statement of this session has this name")
            part = names[name]
        spelled.append(part)
    return spelled
