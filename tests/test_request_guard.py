"""Hostile requests get a clear 4xx in the API's error shape, never a 500 (findings 8,
10 and 12): JSON nested 1,000 levels deep, bodies over the size limit, a NUL byte in a table
link, a chunked body, and a database connection dropped under a request."""

import json

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Deal
from tests.scoring.playing import director_of, published_round, tables_of, tournament_with

pytestmark = pytest.mark.django_db


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def one_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    [error] = response.json()["errors"]
    assert set(error) == {"rule", "field", "message"}
    return error


@pytest.fixture
def open_():
    return tournament_with(5, name="Open", slug="open")


@pytest.fixture
def table(open_):
    return tables_of(published_round(open_))[0]


class TestDeepJson:
    def test_the_anonymous_rules_api_answers_400(self, client: Client) -> None:
        body = '{"cards": ' + deep(1000) + "}"
        response = client.post("/api/rules/meld", body, content_type="application/json")
        assert "nested" in one_error(response, 400)["message"]

    def test_a_table_link_answers_400(self, table) -> None:
        phone = APIClient()
        phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
        body = '{"hands": ' + deep(1000) + "}"
        response = phone.put(
            f"/api/tables/{table.pk}/games/1/result", body, content_type="application/json"
        )
        one_error(response, 400)
        assert not Deal.objects.exists()

    def test_a_director_endpoint_answers_400(self, open_) -> None:
        director = APIClient()
        director.force_authenticate(director_of(open_))
        body = '{"name": ' + deep(1000) + "}"
        response = director.post(
            "/api/tournaments/open/players", body, content_type="application/json"
        )
        one_error(response, 400)

    def test_modest_nesting_is_still_read(self, client: Client) -> None:
        body = json.dumps({"cards": "5H 5C 5D", "kind": "three"})
        response = client.post("/api/rules/meld", body, content_type="application/json")
        assert response.status_code == 200


class TestBodySize:
    def test_a_body_over_the_limit_answers_413_with_the_reason(self, client: Client) -> None:
        body = b'{"cards": "' + b"5H " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 3 + 10) + b'"}'
        response = client.post("/api/rules/meld", body, content_type="application/json")
        error = one_error(response, 413)
        assert "bytes" in error["message"] and "limit" in error["message"]

    def test_a_page_gets_a_413_too(self, client: Client) -> None:
        body = b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
        response = client.post("/accounts/login/", body, content_type="text/plain")
        assert response.status_code == 413


class TestChunked:
    def test_a_chunked_body_the_server_did_not_decode_answers_411(self, client: Client) -> None:
        response = client.generic(
            "POST",
            "/api/rules/meld",
            b"",
            content_type="application/json",
            HTTP_TRANSFER_ENCODING="chunked",
        )
        assert "Content-Length" in one_error(response, 411)["message"]


class TestNulInPath:
    def test_a_table_link_with_a_nul_byte_is_a_404(self, client: Client, table) -> None:
        assert client.get("/t/abc%00def/").status_code == 404

    def test_an_api_address_with_a_nul_byte_is_a_json_404(self, client: Client, table) -> None:
        one_error(client.get(f"/api/tables/{table.pk}%00"), 404)


# --- a dropped database connection -----------------------------------------------------------


def result_body() -> dict:
    others = [{"seat": seat, "points": 10 + seat} for seat in range(2, 6)]
    return {"hands": [{"seat": 1, "went_out": True, "cards": ""}, *others]}


def terminate_own_backend() -> None:
    """What a database restart does to this connection: the server ends it."""
    pid = connection.connection.info.backend_pid
    db = connection.settings_dict
    dsn = f"host={db['HOST']} port={db['PORT']} user={db['USER']} dbname={db['NAME']}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_dropped_database_connection_is_a_json_503_and_the_retry_stores_once(table) -> None:
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    url = f"/api/tables/{table.pk}/games/1/result"
    dropped = []

    def drop_once(execute, sql, params, many, context):
        if not dropped and "scoring_deal" in sql:
            dropped.append(sql)
            terminate_own_backend()
        return execute(sql, params, many, context)

    connection.ensure_connection()
    with connection.execute_wrapper(drop_once):
        failed = phone.put(url, result_body(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert dropped
    error = one_error(failed, 503)
    assert "try again" in error["message"]
    assert int(failed["Retry-After"]) >= 1
    connection.close()
    retried = phone.put(url, result_body(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = phone.put(url, result_body(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert (retried.status_code, again.status_code) == (201, 201), retried.content
    assert Deal.objects.filter(table=table).count() == 1


def _answers(port: int) -> bool:
    from tests.stack import get

    try:
        return get(port, "/api/games")[0] == 200
    except OSError:
        return False


@pytest.mark.slow
def test_gunicorn_hands_a_chunked_body_over_and_it_is_read(tmp_path) -> None:
    """Behind gunicorn, which decodes chunks (wsgi.input_terminated), the body is read."""
    import http.client
    import subprocess
    import time

    from tests.stack import free_port, gunicorn_command

    port = free_port()
    server = subprocess.Popen(
        gunicorn_command(tmp_path, f"127.0.0.1:{port}", "--workers", "1"),
        cwd=settings.BASE_DIR,
        env={**__import__("os").environ, "DEBUG": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60  # a worker boots slowly on a busy machine
        while not _answers(port):
            assert time.monotonic() < deadline, "gunicorn did not answer"
            time.sleep(0.2)
        body = json.dumps({"cards": "5H 5C 5D", "kind": "three"}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request(
            "POST",
            "/api/rules/meld",
            body=iter([body[:10], body[10:]]),
            headers={"Content-Type": "application/json"},
            encode_chunked=True,
        )
        answer = conn.getresponse()
        assert answer.status == 200
        assert json.loads(answer.read())["valid"] is True
    finally:
        server.terminate()
        server.wait(timeout=20)


# --- a full disk -----------------------------------------------------------------------------


def full_disk(execute, sql, params, many, context):
    """The database's refusal of a write on a full disk, as each database words it."""
    if not sql.lstrip().upper().startswith(("INSERT", "UPDATE", "PREPARE", "EXECUTE")):
        return execute(sql, params, many, context)
    from django.db import OperationalError

    if connection.vendor == "sqlite":
        raise OperationalError("database or disk is full")
    refused = OperationalError('could not extend file "base/16384/2619": No space left on device')
    raise refused from psycopg.errors.DiskFull("could not extend file")


def test_a_full_disk_is_a_503_that_says_so_and_saves_nothing(table) -> None:
    """The phone is told the truth (the server's disk is full, nothing was saved), not that the
    database did not answer; the retry stores the result once."""
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    url = f"/api/tables/{table.pk}/games/1/result"
    with connection.execute_wrapper(full_disk):
        full = phone.put(url, result_body(), format="json", HTTP_IDEMPOTENCY_KEY="k-full")
    error = one_error(full, 503)
    assert "disk is full" in error["message"] and "nothing was saved" in error["message"]
    assert int(full["Retry-After"]) >= 1
    assert not Deal.objects.exists()
    retried = phone.put(url, result_body(), format="json", HTTP_IDEMPOTENCY_KEY="k-full")
    assert retried.status_code == 201
