"""What the table's phone page stands on, without a browser: the live check of the
form for every game, the service worker that keeps the page offline, the manifest that installs
it, and the compact lines the form is drawn as.

The Spring Open seats Ann, Ben, Cy, Di and Ed at table 1 (Kalooki); a Parcellus table seats Ann,
Ben and Cy; a Hand and Foot table seats Ann and Cy against Ben and Di.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from scoring.models import Deal
from tables.models import Seat, Table
from tests.entry.test_other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import published_round, tournament_with

pytestmark = pytest.mark.django_db

GAME_1 = {"Ben": "KH 5C", "Cy": "JK AS 2D", "Di": "QH", "Ed": "AH 3S 4S"}  # Ann went out


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5)).tables.all()
    return table


def seats(table: Table) -> dict[str, Seat]:
    found = table.seats.select_related("entry__player").order_by("position")
    return {seat.entry.player.name: seat for seat in found}


def form(table: Table, out: str | None, fields: dict[str, dict[str, Any]], **deal: Any) -> dict:
    """The entry form as the page's script sends it to the live check."""
    seated = seats(table)
    data: dict[str, Any] = {"game": 1, **deal}
    if out:
        data["went_out"] = seated[out].entry_id
    for name, values in fields.items():
        for key, value in values.items():
            data[f"p{seated[name].position}-{key}"] = value
    return data


def check(client: Client, table: Table, data: dict, token: str | None = None) -> Any:
    return client.post(f"/t/{token or table.access_token}/check", data)


# --- the live check -----------------------------------------------------------------------------


def test_the_live_check_scores_each_side_as_it_will_be_saved_r8_2(client, table) -> None:
    answer = check(client, table, form(table, "Ann", {n: {"cards": c} for n, c in GAME_1.items()}))
    assert answer.status_code == 200 and answer["Cache-Control"].startswith("max-age=0")
    body = answer.json()
    assert body["scored"] is True and body["errors"] == []
    points = {row["prefix"]: row["points"] for row in body["rows"]}
    cy = seats(table)["Cy"].position
    assert points[f"p{cy}"] == 67  # JK 50 + AS 15 + 2
    assert any("= 50 + 15 + 2 = 67 (R8.2)" in r for r in body["rows"][cy - 1]["reasons"])
    assert not Deal.objects.exists()  # a check saves nothing


def test_the_live_check_puts_each_problem_on_its_line_and_field_r11(client, table) -> None:
    hands = {n: {"cards": c} for n, c in GAME_1.items()} | {"Di": {"cards": "QH XQ"}}
    body = check(client, table, form(table, "Ann", hands)).json()
    di = f"p{seats(table)['Di'].position}"
    [problem] = [p for p in body["errors"] if p["prefix"] == di]
    assert problem["field"] == "cards" and problem["rule"] == "R11"
    assert "XQ" in problem["message"] and body["scored"] is False


def test_the_live_check_needs_no_name_and_reads_a_bad_number_as_a_problem(client, table) -> None:
    data = form(table, "Ann", {"Ben": {"points": "lots"}})
    body = check(client, table, data).json()
    ben = seats(table)["Ben"].position
    assert [e["input"] for e in body["errors"]] == [f"p{ben}-points"]
    assert "whole number" in body["errors"][0]["message"]


def test_the_live_check_of_a_correction_reads_the_correction_form(client, table) -> None:
    data = form(table, "Ann", {n: {"cards": c} for n, c in GAME_1.items()}, base_version=1)
    response = client.post(f"/t/{table.access_token}/check?correcting=1", data)
    assert response.json()["scored"] is True


def test_the_live_check_is_the_tables_own(client, table) -> None:
    assert check(client, table, {}, token="not-a-table").status_code == 404
    assert client.get(f"/t/{table.access_token}/check").status_code == 405


def test_the_live_check_scores_a_parcellus_deal_pa4(client) -> None:
    pa = table_of(seated_by_hand(game_tournament("parcellus", slug="pa"), [["Ann", "Ben", "Cy"]]))
    data = {"game": 1, "p1-cards": 11, "p1-parcels": 3, "went_out": seats(pa)["Ann"].entry_id}
    data |= {"p2-cards": 6, "p2-parcels": 2, "p3-cards": 5, "p3-parcels": 1}
    body = check(client, pa, data).json()
    assert body["errors"] == [] and [r["points"] for r in body["rows"]] == [19, 6, 5]


# --- the page's lines ---------------------------------------------------------------------------


def lines(html: str) -> dict[str, str]:
    line = r'(<fieldset class="hand line[^"]*"[^>]*data-player="([^"]+)".*?</fieldset>)'
    found = re.findall(line, html, re.S)
    return {name: text for text, name in found}


def test_a_kalooki_line_shows_went_out_and_points_the_rest_behind_more(client, table) -> None:
    html = client.get(f"/t/{table.access_token}/").content.decode()
    ann = lines(html)["Ann"]
    main, more = ann.split('<div class="more-fields"')
    assert 'name="went_out"' in main and re.search(r'name="p\d-points"', main)
    assert 'aria-label="Keypad for Ann\'s cards"' in main
    for name in ("cards", "calls", "failed_come_downs", "overcall_penalty"):
        assert re.search(rf'name="p\d-{name}"', more), name
    assert 'data-note id="note-p' in main  # the line's reserved note
    assert html.count('class="cell') == 5  # the bar: a score per side


def test_a_parcellus_line_shows_its_counts_and_who_took_the_jack(client) -> None:
    pa = table_of(seated_by_hand(game_tournament("parcellus", slug="pa"), [["Ann", "Ben", "Cy"]]))
    html = client.get(f"/t/{pa.access_token}/").content.decode()
    ann = lines(html)["Ann"]
    assert 'name="p1-cards"' in ann and 'name="p1-parcels"' in ann and "mains-2" in ann


def test_a_hand_and_foot_team_has_a_line_and_one_per_partner(client) -> None:
    hf = table_of(
        seated_by_hand(game_tournament("hand_and_foot", slug="hf"), [["Ann", "Ben", "Cy", "Di"]])
    )
    html = client.get(f"/t/{hf.access_token}/").content.decode()
    found = lines(html)
    assert 'name="s1-red_books"' in found["Ann &amp; Cy"]
    assert 'name="p1-hand_points"' in found["Ann"] and 'name="went_out"' in found["Ann"]
    assert "member" in re.search(r'<fieldset class="([^"]*)"[^>]*data-player="Cy"', html)[1]


def test_a_players_name_is_text_on_the_page_never_markup(client, table) -> None:
    seat = seats(table)["Ann"]
    seat.entry.player.name = '<script>alert("x")</script>'
    seat.entry.player.save()
    html = client.get(f"/t/{table.access_token}/").content.decode()
    assert '<script>alert("x")</script>' not in html
    config = re.search(r'id="table-entry-config"[^>]*>(.*?)</script>', html, re.S)[1]
    assert "<script>" not in config  # json_script escapes < in the config


# --- offline and installable --------------------------------------------------------------------


def test_the_service_worker_covers_every_table_page_and_keeps_its_assets(client) -> None:
    response = client.get("/t/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/t/" and response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    assert '"/static/js/table-entry.js"' in source and '"/static/css/table-link.css"' in source
    assert "__ASSETS__" not in source and re.search(r'"table-[0-9a-f]{12}"', source)


def test_the_manifest_opens_its_own_table(client, table) -> None:
    response = client.get(f"/t/{table.access_token}/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    body = response.json()
    assert body["start_url"] == body["scope"] == f"/t/{table.access_token}/"
    assert body["short_name"] == "Table 1" and body["display"] == "standalone"
    assert client.get("/t/nope/manifest.webmanifest").status_code == 404


def test_the_page_links_its_manifest_and_loads_no_inline_script(client, table) -> None:
    html = client.get(f"/t/{table.access_token}/").content.decode()
    assert f'href="/t/{table.access_token}/manifest.webmanifest"' in html
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html)
    assert scripts == [' id="table-entry-config" type="application/json"']  # data, not code


def test_each_partner_goes_out_by_a_radio_of_their_own(client: Client) -> None:
    """Partners share their team's entry (HF1.2), so each partner's "went out" sends the
    partner's seat (`ResultForm.out_key`): choosing Cy never marks Ann out too (HF5.2)."""
    tournament = game_tournament("hand_and_foot", slug="hf-out", is_published=True)
    table = table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]]))
    html = client.get(f"/t/{table.access_token}/").content.decode()
    values = re.findall(r'<input type="radio" name="went_out" value="(\d+)"', html)
    assert sorted(values) == ["1", "2", "3", "4"]  # one a partner, by seat
    assert '"outs": [1, 3]' in html and '"outs": [2, 4]' in html  # the outbox's side rows
    assert all(f'"seat": {seat}, "out": {seat}}}' in html for seat in (1, 2, 3, 4))


# --- Hand and Foot on one screen; every box labelled; problems marked on their field ----------


def hand_and_foot_table() -> Table:
    tournament = game_tournament("hand_and_foot", slug="hf-one", is_published=True)
    return table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]]))


def test_a_partner_line_holds_hand_foot_played_and_foot_each_labelled(client) -> None:
    hf = hand_and_foot_table()
    found = lines(client.get(f"/t/{hf.access_token}/").content.decode())
    ann, more = found["Ann"].split('<div class="more-fields"')
    for name in ("hand_points", "foot_played", "foot_points"):  # no "More" for a typical hand
        assert f'name="p1-{name}"' in ann, name
    assert 'name="p1-foot_points"' not in more and 'name="p1-red_threes"' in more
    assert "stacked" in re.search(r'<fieldset class="([^"]*)"[^>]*data-player="Ann"', ann)[1]
    team = found["Ann &amp; Cy"]
    for label in ("Red books", "Black books", "Laid down"):  # shown on the box, not only read
        assert re.search(rf'<label for="id_s1-\w+"><span aria-hidden="true">{label}</span>', team)
    assert 'class="sr-only">Points laid down</span>' in team  # and its whole name for readers
    assert "Foot played</span></label>" in ann


def test_the_partner_who_went_out_is_taken_as_having_played_the_foot_hf5_3(client) -> None:
    hf = hand_and_foot_table()
    ids = {seat.position: seat.entry_id for seat in hf.seats.all()}
    data = {"game": 1, "who": ids[1], "went_out": 1, "p1-hand": ""}  # Ann out; foot not ticked
    data |= {"s1-red_books": 2, "s1-black_books": 2, "s1-laid_down": 200}
    data |= {"p3-hand_points": 10, "p3-foot_played": "on", "s2-red_books": 1}
    data |= {"s2-laid_down": 150, "p2-hand_points": 20, "p2-foot_points": 40}
    data |= {"p4-hand_points": 30, "p4-foot_points": 40}
    body = check(client, hf, data).json()
    assert body["errors"] == [] and body["scored"], body["errors"]
    assert [row["points"] for row in body["rows"]] == [1890, 520]


def test_a_problem_marks_its_field_as_invalid_with_its_message(client, table) -> None:
    seated = seats(table)
    others = {"Ben": {"points": 999}} | {name: {"points": 5} for name in ("Cy", "Di", "Ed")}
    data = form(table, "Ann", others) | {"who": seated["Ann"].entry_id, "action": "preview"}
    html = client.post(f"/t/{table.access_token}/", data).content.decode()
    ben, note = lines(html)["Ben"], f"note-p{seated['Ben'].position}"
    box = re.search(r'<div class="field main box field-points has-problem">.*?</div>', ben, re.S)
    assert box, ben
    assert 'aria-invalid="true"' in box[0] and f'aria-describedby="{note}"' in box[0]
    assert "R10.4" in re.search(rf'<p class="note small" data-note id="{note}">(.*?)</p>', ben)[1]
