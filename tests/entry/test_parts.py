"""The table page in parts (`entry/parts.py`, `GET /t/<token>/parts`): what a phone is sent
after a save is what changed, not the page; and the page itself goes compressed, its styles
inline under the page's nonce (fewer bytes to every phone)."""

import gzip
import re

import pytest
from django.test import Client

from entry import parts
from tables.models import Table
from tests.scoring.playing import play, published_round, tournament_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Spring Open")).tables.all()
    return table


def keys(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-part="([^"]+)"[^>]*?data-key="([^"]+)"', html))


def held(html: str) -> str:
    return ".".join(key for key in keys(html).values() if key != "phone")


def test_every_part_of_the_page_carries_its_key(client: Client, table: Table) -> None:
    html = client.get(f"/t/{table.access_token}/").content.decode()
    found = keys(html)
    for name in ("page", "totals", "now", "enter", "results", "result-rows", "schedule"):
        assert name in found, name
    assert found["outbox"] == found["live"] == "phone"  # the phone's own: never sent
    assert found["enter"].startswith("f")  # the form's digest of its fields
    answer = client.get(f"/t/{table.access_token}/parts", {"have": held(html)}).json()
    assert answer["parts"] == []  # nothing changed: nothing sent
    assert answer["deal"] == {"game": 1, "attempt": 1, "title": "Game 1"}


def test_after_a_save_only_what_changed_is_sent_and_the_form_moves_on(
    client: Client, table: Table
) -> None:
    play(table, 1)  # the round is in play from its first result (its badge says so)
    html = client.get(f"/t/{table.access_token}/").content.decode()
    play(table, 2)
    response = client.get(f"/t/{table.access_token}/parts", {"have": held(html)})
    answer = response.json()
    sent = {name for name, _, _ in answer["parts"]}
    assert {"totals-row", "totals-caption", "now", "result-2-1", "results-total"} <= sent
    assert {"result-rows", "game-2-1"} <= sent
    assert any(name.startswith("seat-total-") for name in sent)  # a total that changed
    # The totals' table and the seats keep their markup: only the numbers in them are sent.
    unchanged = {"page", "head", "enter", "outbox", "live", "results", "result-1-1", "totals"}
    assert not sent & (unchanged | {"seats"}), sent
    assert answer["deal"]["game"] == 3 and answer["entry"] is None  # the same form, game 3
    rows = next(markup for name, _, markup in answer["parts"] if name == "result-rows")
    assert '<tr data-slot="result-1-1"></tr>' in rows  # a slot the phone fills from its own
    assert "Content-Security-Policy" not in response  # JSON, never drawn


def test_what_a_phone_says_it_holds_is_read_as_keys_only(client: Client, table: Table) -> None:
    assert parts.held("abcdEFGH.<script>.x" + "y" * 80 + "..f-1_2") == {"abcdEFGH", "f-1_2"}
    answer = client.get(f"/t/{table.access_token}/parts", {"have": "<b>,'; drop"}).json()
    assert {name for name, _, _ in answer["parts"]} >= {"page", "enter", "now"}  # all of it
    assert client.get("/t/not-a-table/parts").status_code == 404


def test_the_page_goes_compressed_with_its_styles_inline(client: Client, table: Table) -> None:
    response = client.get(f"/t/{table.access_token}/", headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) < 12_000  # about 40 KB of markup and styles
    html = gzip.decompress(response.content).decode()
    nonce = re.search(r"<style nonce=\"([^\"]+)\">", html)[1]
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    assert 'rel="stylesheet"' not in html  # drawn from this one answer
    links = response["Link"].split(", ")  # the scripts asked for with the headers, not after
    for script in ("live.js", "clock.js", "table-entry.js"):
        [link] = [link for link in links if f"/js/{script}>" in link]
        assert (
            link.endswith("; rel=preload; as=script")
            and f'src="{link[1 : link.index(">")]}"' in html
        )
    assert re.search(r'<script src="[^"]*table-entry\.js" defer>', html.split("</head>")[0])
