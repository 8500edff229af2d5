"""`send_as_one`: statements prepared once per database session and run by name (#18).

The result write's statements are sent as `EXECUTE name(...)` once the session has prepared them;
what they read and write, their locks and their refusals are those of the same text sent as it
is. These tests need PostgreSQL (SQLite has no PREPARE; there the statements go as text).
"""

import pytest
from django.db import IntegrityError, NotSupportedError, ProgrammingError, connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring.store import prepared
from scoring.store.prepared import PreparedRead, send_as_one, session_statements, spelled_out
from tables.models import Table
from tests.factories import TableFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # connections closed

ANSWER = "SELECT %s::int + 1"


def sent(statements: list[tuple[str, list]]) -> tuple[list[tuple], str]:
    """The first statement's rows and the message as the database got it."""
    with CaptureQueriesContext(connection) as queries, connection.cursor() as cursor:
        send_as_one(cursor, statements)
        rows = cursor.fetchall()
    [message] = [query["sql"] for query in queries.captured_queries]
    return rows, message


@pytest.fixture
def new_session():
    """A connection of its own: no statement prepared in it yet."""
    connection.close()
    connection.ensure_connection()
    assert session_statements() == {}
    return connection


def test_the_first_message_prepares_a_statement_and_the_next_ones_run_it_by_name(new_session):
    first, prepare = sent([(ANSWER, [1])])
    again, execute = sent([(ANSWER, [41])])
    name = session_statements()[ANSWER]
    assert (first, again) == ([(2,)], [(42,)])
    assert prepare.startswith(f"PREPARE {name} AS SELECT $1::int + 1;\n")
    assert execute == f"EXECUTE {name}(41)"
    assert spelled_out(execute) == spelled_out(prepare) == [ANSWER]


def test_the_cursor_is_left_on_the_first_statement_s_answer_then_the_next(new_session):
    other = "SELECT %s::text || '%%'"
    with connection.cursor() as cursor:
        send_as_one(cursor, [(ANSWER, [1]), (other, ["50"])])
        assert cursor.fetchall() == [(2,)]
        assert cursor.nextset()
        assert cursor.fetchall() == [("50%",)]  # a `%%` in the text is a `%`, prepared too
        assert not cursor.nextset()


def test_a_new_connection_prepares_again(new_session):
    sent([(ANSWER, [1])])
    connection.close()
    rows, message = sent([(ANSWER, [2])])
    assert rows == [(3,)] and message.startswith("PREPARE ")


def test_a_rolled_back_transaction_keeps_what_it_prepared(new_session):
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        sent([(ANSWER, [1])])
        raise ZeroDivisionError
    rows, message = sent([(ANSWER, [5])])
    assert rows == [(6,)] and message.startswith("EXECUTE ")


def test_a_failed_message_prepares_its_statements_again_under_new_names(new_session):
    """The PREPARE ran and the statement after it failed: the name is taken in the session, and
    another one is used, not `already exists` for ever after."""
    table = TableFactory()
    duplicate = "INSERT INTO tables_table (round_id, number, access_token) VALUES (%s, %s, %s)"
    values = [table.round_id, table.number + 1, table.access_token]  # refused (NOT NULL, unique)
    with pytest.raises(IntegrityError), transaction.atomic():
        sent([(ANSWER, [1]), (duplicate, values)])
    assert ANSWER not in session_statements()
    rows, message = sent([(ANSWER, [7])])
    assert rows == [(8,)] and message.startswith("PREPARE ")


def test_a_statement_the_database_refuses_to_prepare_is_not_kept(new_session):
    with pytest.raises(Exception, match="no_such_table"), transaction.atomic():
        sent([("SELECT * FROM no_such_table WHERE id = %s", [1])])
    assert session_statements() == {}


def test_hostile_text_is_a_literal_argument_not_sql(new_session):
    table = TableFactory()
    read = PreparedRead(lambda token: Table.objects.filter(access_token=token), str)
    assert read(table.access_token) == [table]
    for token in ("x'); DROP TABLE tables_table; --", "\\'; SELECT 1; --", "%s %% $1 ;\n"):
        assert read(token) == []
        assert read(table.access_token) == [table]  # by name, after the hostile call
    assert Table.objects.count() == 1


def test_past_the_session_s_limit_statements_go_as_text(new_session, monkeypatch):
    monkeypatch.setattr(prepared, "SESSION_STATEMENTS_MAX", 1)
    sent([(ANSWER, [1])])
    rows, message = sent([("SELECT %s::int * 2", [4])])
    assert rows == [(8,)] and message == "SELECT 4::int * 2"
    assert list(session_statements()) == [ANSWER]


def test_the_result_write_runs_its_statements_by_name(new_session):
    """Every statement of a second result on the same connection is run by name."""
    from tests.entry.test_write_cost import first_table, write

    table = first_table(10, 1)
    write(table, 2)
    status, messages = write(table, 3)
    assert status == 201
    sent_by_name = [m for m in messages if m.startswith("EXECUTE ")]
    assert len(sent_by_name) == 3, messages
    assert all("PREPARE" not in message for message in messages)


def test_a_statement_the_session_lost_is_prepared_again(new_session):
    """DEALLOCATE (or DISCARD ALL) empties the session: the EXECUTE that finds no statement fails,
    and the next message prepares every statement again."""
    sent([(ANSWER, [1])])
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    with pytest.raises(ProgrammingError, match="does not exist"), transaction.atomic():
        sent([(ANSWER, [2])])
    assert session_statements() == {}
    rows, message = sent([(ANSWER, [3])])
    assert rows == [(4,)] and message.startswith("PREPARE ")


@pytest.fixture
def scratch_table():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE kalooki_scratch (id int PRIMARY KEY, name varchar(20))")
        cursor.execute("INSERT INTO kalooki_scratch VALUES (1, 'Ann')")
    yield "kalooki_scratch"
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS kalooki_scratch")


def test_a_migration_that_changes_a_read_s_columns_costs_one_refused_read(
    new_session, scratch_table
):
    """A column's type changed while the session kept a plan that returns it (a migration run
    while the web served): the database refuses that plan once, and the next message prepares
    every statement again with the table as it is now."""
    read = "SELECT id, name FROM kalooki_scratch WHERE id = %s"
    assert sent([(read, [1])])[0] == [(1, "Ann")]
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE kalooki_scratch ALTER name TYPE varchar(40)")
    with pytest.raises(NotSupportedError, match="result type"), transaction.atomic():
        sent([(read, [1])])
    rows, message = sent([(read, [1])])
    assert rows == [(1, "Ann")] and message.startswith("PREPARE ")


def test_an_execute_of_an_unknown_name_is_not_spelled_out(new_session):
    with pytest.raises(ValueError, match="kalooki_0"):
        spelled_out("EXECUTE kalooki_0(1)")
