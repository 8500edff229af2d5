"""`send_as_one`: statements prepared once per database session and run by name (#18).

The result write's statements are sent as `EXECUTE name(...)` once the session has prepared them;
what they read and write, their locks and their refusals are those of the same text sent as it
is. These tests need PostgreSQL (SQLite has no PREPARE; there the statements go as text).
"""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import prepared
from scoring.prepared import PreparedRead, send_as_one, spelled_out
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
    assert connection.session_statements == {}
    return connection


def test_the_first_message_prepares_a_statement_and_the_next_ones_run_it_by_name(new_session):
    first, prepare = sent([(ANSWER, [1])])
    again, execute = sent([(ANSWER, [41])])
    name = connection.session_statements[ANSWER]
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
    values = [table.round_id, table.number + 1, table.access_token]  # the token is unique
    with pytest.raises(IntegrityError), transaction.atomic():
        sent([(ANSWER, [1]), (duplicate, values)])
    assert ANSWER not in connection.session_statements
    rows, message = sent([(ANSWER, [7])])
    assert rows == [(8,)] and message.startswith("PREPARE ")


def test_a_statement_the_database_refuses_to_prepare_is_not_kept(new_session):
    with pytest.raises(Exception, match="no_such_table"), transaction.atomic():
        sent([("SELECT * FROM no_such_table WHERE id = %s", [1])])
    assert connection.session_statements == {}


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
    assert list(connection.session_statements) == [ANSWER]


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
