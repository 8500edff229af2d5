"""A deal's paths say `deals/{n}`; the older `games/{n}` (Kalooki's word) answers the same.

The table API, the phone's pages and the director's pages moved to `deals/{n}`; the old paths
stay, so that a tool written against them, a bookmark, and a result a phone queued in its outbox
before the upgrade (sent again to the path it was first sent to, with its Idempotency-Key) all
keep working. The schema marks the old API paths deprecated.
"""

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Deal
from tables.models import Table
from tests.scoring.playing import director_of, published_round, tables_of, tournament_with
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

HANDS = [{"seat": 1, "went_out": True, "cards": ""}] + [
    {"seat": seat, "points": 10 + seat} for seat in range(2, 6)
]


@pytest.fixture
def open_() -> Tournament:
    return tournament_with(10, name="Open", slug="open")


@pytest.fixture
def table(open_) -> Table:
    return tables_of(published_round(open_))[0]


@pytest.fixture
def phone(table) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    return client


def undone(call: Any) -> Any:
    """What `call` answers, with everything it wrote rolled back: two paths, one starting point."""
    with transaction.atomic():
        answer = call()
        transaction.set_rollback(True)
    return answer


def stamped(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer without its timestamp: each write is at its own instant."""
    return {name: value for name, value in answer.items() if name != "updated_at"}


def page(response: Any) -> str:
    """A page without what differs on every request: the CSP nonce and the CSRF token."""
    html = response.content.decode()
    html = re.sub(r'nonce="[^"]*"', 'nonce=""', html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "csrf", html)


def both(phone: APIClient, table: Table, tail: str, method: str, body: dict) -> list[Any]:
    send = getattr(phone, method)
    return [
        undone(lambda word=word: send(f"/api/tables/{table.pk}/{word}/{tail}", body, format="json"))
        for word in ("deals", "games")
    ]


def test_a_result_put_to_either_path_gets_the_same_answer(phone, table) -> None:
    new, old = both(phone, table, "1/result", "put", {"entered_by": "Ann", "hands": HANDS})
    assert (new.status_code, old.status_code) == (201, 201)
    assert stamped(new.json()) == stamped(old.json())


def test_a_refusal_is_the_same_on_either_path_r12_1(phone, table) -> None:
    new, old = both(phone, table, "1/result", "put", {"entered_by": "Ann", "hands": HANDS[:3]})
    assert (new.status_code, old.status_code) == (400, 400)
    assert new.json() == old.json()


def test_a_confirmation_is_the_same_on_either_path(open_, phone, table) -> None:
    Tournament.objects.filter(pk=open_.pk).update(requires_confirmation=True)
    put = phone.put(
        f"/api/tables/{table.pk}/deals/1/result",
        {"entered_by": "Ann", "hands": HANDS},
        format="json",
    )
    assert put.status_code == 201
    new, old = both(phone, table, "1/confirm", "post", {"confirmed_by": "Ben", "version": 1})
    assert new.status_code == old.status_code == 200
    assert new.json()["status"] == "confirmed"
    assert stamped(new.json()) == stamped(old.json())


def test_a_write_queued_on_the_old_path_replays_once_after_the_upgrade(phone, table) -> None:
    """The outbox sends a result again to the URL it first used, with the same key."""
    url = f"/api/tables/{table.pk}/games/3/result"
    body = {"entered_by": "Ann", "hands": HANDS}
    phone.put(f"/api/tables/{table.pk}/deals/1/result", body, format="json")
    phone.put(f"/api/tables/{table.pk}/deals/2/result", body, format="json")
    first = phone.put(url, body, format="json", HTTP_IDEMPOTENCY_KEY="queued-3")
    again = phone.put(url, body, format="json", HTTP_IDEMPOTENCY_KEY="queued-3")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert Deal.objects.filter(table=table, number=3).count() == 1


def test_the_phone_page_links_the_new_path_and_the_old_one_answers_the_same(table) -> None:
    phone = Client()
    writer = APIClient()
    writer.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    body = {"entered_by": "Ann", "hands": HANDS}
    writer.put(f"/api/tables/{table.pk}/deals/1/result", body, format="json")
    link = f"/t/{table.access_token}/"
    html = phone.get(link).content.decode()
    assert f'href="{link}deals/1/correct"' in html and "games/1/correct" not in html
    new, old = (phone.get(f"{link}{word}/1/correct") for word in ("deals", "games"))
    assert (new.status_code, old.status_code) == (200, 200)
    assert page(new) == page(old)


def test_the_directors_correct_page_answers_on_both_paths(open_, table, phone) -> None:
    body = {"entered_by": "Ann", "hands": HANDS}
    phone.put(f"/api/tables/{table.pk}/deals/1/result", body, format="json")
    director = Client()
    director.force_login(director_of(open_, "alice"))
    base = f"/director/open/rounds/1/tables/{table.number}/"
    new, old = (director.get(f"{base}{word}/1/correct") for word in ("deals", "games"))
    assert (new.status_code, old.status_code) == (200, 200)
    assert page(new) == page(old)


def test_the_schema_lists_both_paths_and_marks_the_old_ones_deprecated(client) -> None:
    paths = client.get("/api/schema/?format=json").json()["paths"]
    table = "/api/tables/{id}/"
    flag = "/api/tournaments/{slug}/rounds/{number}/tables/{table}/"
    operations = [
        (table, "{number}/result", "put"),
        (table, "{number}/confirm", "post"),
        (flag, "{game}/clear-flag", "post"),
    ]
    for base, tail, method in operations:
        new = paths[f"{base}deals/{tail}"][method]
        old = paths[f"{base}games/{tail}"][method]
        assert not new.get("deprecated") and old["deprecated"] is True
        assert old["responses"] == new["responses"]
        assert old["requestBody"] == new["requestBody"]
