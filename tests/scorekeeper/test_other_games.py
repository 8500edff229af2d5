"""The table API and the table's page for Hand and Foot and Parcellus: what to enter comes from
the game's fields, a body names each side's values (`sides`), problems say which side, partner
and field they are about, and reads cost the same queries however many deals were played."""

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Deal
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db


def phone_at(table) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    return client


def url(table, deal: int | None = None, action: str = "result") -> str:
    if deal is None:
        return f"/api/tables/{table.pk}" + (f"/{action}" if action != "result" else "")
    return f"/api/tables/{table.pk}/games/{deal}/{action}"


# --- Parcellus ----------------------------------------------------------------------------------


@pytest.fixture
def parcellus_table():
    tournament = game_tournament("parcellus", slug="pa")
    return table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy"]]))


def pa_body(*captures: tuple[int, int, bool], **extra) -> dict:
    """Seats 1 to 3: (cards, parcels, J♥) each."""
    sides = [
        {"seat": seat, "values": {"cards": c, "parcels": p, "jack_of_hearts": j}}
        for seat, (c, p, j) in enumerate(captures, start=1)
    ]
    return {"sides": sides, **extra}


FIRST = ((11, 3, True), (6, 2, False), (5, 1, False))  # 11 + 2 + 6 = 19, 6, 5 (PA4)
SECOND = ((10, 3, False), (8, 2, True), (4, 1, False))  # 16, 10, 4: Ann has 35 (PA5)


def test_the_table_shows_deal_1_with_the_games_fields(parcellus_table) -> None:
    body = phone_at(parcellus_table).get(url(parcellus_table)).json()
    assert body["game"] == "parcellus"
    assert [side["label"] for side in body["sides"]] == ["Ann", "Ben", "Cy"]
    current = body["current_game"]
    assert (current["number"], current["title"], current["dealt"]) == (1, "Deal 1", None)
    assert [field["name"] for field in current["fields"]] == ["cards", "parcels", "jack_of_hearts"]
    assert current["dealer"]["player"] == "Ann"  # the first dealer deals deal 1 (PA2.4)
    assert body["games_in_set"] is None and not body["match_over"]  # a match to 30


def test_a_match_entered_through_the_api_to_its_end(parcellus_table) -> None:
    phone, table = phone_at(parcellus_table), parcellus_table
    response = phone.put(url(table, 1), pa_body(*FIRST), format="json")
    assert response.status_code == 201, response.content
    scores = response.json()["scores"]
    assert [(s["player"], s["points"], s["running"]) for s in scores] == [
        ("Ann", 19, 19),
        ("Ben", 6, 6),
        ("Cy", 5, 5),
    ]
    assert scores[0]["values"] == {"cards": 11, "parcels": 3, "jack_of_hearts": True}
    assert scores[0]["detail"]["bonus"] == 6
    assert phone.put(url(table, 2), pa_body(*SECOND), format="json").status_code == 201
    body = phone.get(url(table)).json()
    assert body["match_over"] and body["current_game"] is None
    assert [total["total"] for total in body["totals"]] == [35, 16, 9]
    late = phone.put(url(table, 3), pa_body(*FIRST), format="json")
    assert late.status_code == 400 and late.json()["errors"][0]["rule"] == "PA6.5"  # over
    signed = phone.post(url(table, action="sign-off"), {"signer": "Ann"}, format="json")
    assert signed.status_code == 200 and signed.json()["signed_off"]


def test_a_bad_deal_is_refused_naming_side_and_field_pa6(parcellus_table) -> None:
    phone, table = phone_at(parcellus_table), parcellus_table
    body = pa_body((11, 3, True), (6, 2, True), (5, 2, False))
    response = phone.put(url(table, 1), body, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {e["rule"] for e in errors} >= {"PA6.2", "PA6.4"}  # six parcels; one J♥
    assert all(e["rule"] in e["message"] for e in errors)
    assert not Deal.objects.exists()
    body = pa_body((11, 3, True), ("x", 2, False), (5, 1, False))
    wrong = phone.put(url(table, 1), body, format="json")
    assert wrong.status_code == 400
    error = wrong.json()["errors"][0]
    assert (error["side"], error["field"]) == (1, "cards")


def test_hostile_values_are_refused_before_the_game_sees_them(parcellus_table) -> None:
    phone, table = phone_at(parcellus_table), parcellus_table
    for values in ({"cards": 10**30}, {"cards": {"deep": [1]}}, {"x" * 60: 1}, {"c": "a\x00"}):
        body = {"sides": [{"seat": 1, "values": values}]}
        response = phone.put(url(table, 1), body, format="json")
        assert response.status_code == 400, (values, response.content)
    body = {"sides": [{"entry": 10**9, "values": {}}]}
    stranger = phone.put(url(table, 1), body, format="json")
    assert "not seated at Table 1 (PA1.1)" in str(stranger.json())
    body = {"sides": [{"seat": 1}], "hands": [{"seat": 1}]}
    both = phone.put(url(table, 1), body, format="json")
    assert both.status_code == 400 and "not both" in str(both.json())
    assert not Deal.objects.exists()


def test_a_correction_and_a_stale_version_pa(parcellus_table) -> None:
    phone, table = phone_at(parcellus_table), parcellus_table
    phone.put(url(table, 1), pa_body(*FIRST), format="json")
    fixed = pa_body((11, 3, False), (6, 2, True), (5, 1, False), version=1, reason="J♥ was Ben's")
    response = phone.put(url(table, 1), fixed, format="json")
    assert response.status_code == 200 and response.json()["version"] == 2
    assert [s["points"] for s in response.json()["scores"]] == [17, 8, 5]
    stale = phone.put(url(table, 1), pa_body(*FIRST, version=1), format="json")
    assert stale.status_code == 409
    assert [s["points"] for s in stale.json()["current"]["scores"]] == [17, 8, 5]


def test_reading_costs_the_same_queries_for_one_deal_or_many(
    parcellus_table, django_assert_num_queries
) -> None:
    phone, table = phone_at(parcellus_table), parcellus_table
    phone.put(url(table, 1), pa_body(*FIRST), format="json")
    with django_assert_num_queries(4):  # the link's table, its seats, deals and results
        phone.get(url(table))
    phone.put(url(table, 2), pa_body(*SECOND), format="json")
    with django_assert_num_queries(4):
        phone.get(url(table))


# --- Hand and Foot ------------------------------------------------------------------------------


@pytest.fixture
def hf_table():
    tournament = game_tournament("hand_and_foot", slug="hf")
    return table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]]))


OUT_TEAM = {
    "values": {"red_books": 2, "black_books": 2, "laid_down": 200},
    "members": [
        {"went_out": True, "hand": "", "foot_played": True},
        {"foot_played": True, "hand_points": 10},
    ],
}
OTHER_TEAM = {
    "values": {"red_books": 1, "black_books": 0, "laid_down": 150},
    "members": [
        {"hand_points": 20, "foot_points": 40},
        {"hand_points": 30, "foot_points": 40},
    ],
}


def test_a_team_is_named_by_either_partner_and_scored_hf6(hf_table) -> None:
    phone, table = phone_at(hf_table), hf_table
    body = phone.get(url(table)).json()
    assert [(s["label"], s["seats"]) for s in body["sides"]] == [
        ("Ann & Cy", [1, 3]),
        ("Ben & Di", [2, 4]),
    ]
    assert body["current_game"]["title"] == "Hand 1"
    scopes = {field["name"]: field["scope"] for field in body["current_game"]["fields"]}
    assert (scopes["red_books"], scopes["hand"]) == ("side", "member")
    sides = [{"seat": 3, **OUT_TEAM}, {"seat": 4, **OTHER_TEAM}]  # Cy's team, Di's team
    response = phone.put(url(table, 1), {"sides": sides}, format="json")
    assert response.status_code == 201, response.content
    scores = response.json()["scores"]
    # HF6: 2 × 500 + 2 × 300 + 200 − 10 + 100; 500 + 150 − (20 + 40 + 30 + 40)
    assert [(s["player"], s["points"]) for s in scores] == [("Ann & Cy", 1890), ("Ben & Di", 520)]
    totals = phone.get(url(table)).json()["totals"]
    assert [t["total"] for t in totals] == [1890, 520, 1890, 520]  # each seat its team's


def test_a_partners_problem_names_the_partner_hf8(hf_table) -> None:
    phone, table = phone_at(hf_table), hf_table
    other = {
        **OTHER_TEAM,
        "members": [{"hand_points": 20, "foot_points": 5}, OTHER_TEAM["members"][1]],
    }
    sides = [{"seat": 1, **OUT_TEAM}, {"seat": 2, **other}]
    response = phone.put(url(table, 1), {"sides": sides}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["side"], error["member"], error["field"], error["rule"]) == (
        1,
        0,
        "foot_points",
        "HF8.5",
    )


def test_the_table_page_offers_each_partner_s_fields(client: Client, hf_table) -> None:
    page = client.get(f"/t/{hf_table.access_token}/").content.decode()
    assert "Enter hand 1" in page and "Save hand 1" in page
    assert 'name="s1-red_books"' in page and 'name="p3-hand"' in page  # team; Cy's own
    assert 'name="went_out" value=' in page  # who went out: one partner
    # the same phone page as Kalooki's: its script, and a card keypad for each partner's hand
    assert "table-entry.js" in page and 'aria-label="Keypad for Cy\'s cards"' in page
    config = page.split('id="table-entry-config"')[1].split("</script>")[0]
    assert '"field": "hand"' in config and '"scope": "member"' in config


def test_the_table_page_enters_a_hand_hf(client: Client, hf_table) -> None:
    seats = {s.position: s.entry_id for s in hf_table.seats.all()}
    form = {
        "game": "1",
        "attempt": "1",
        "who": str(seats[1]),
        "went_out": "1",  # the partner at seat 1 (HF5.2)
        "s1-red_books": "2",
        "s1-black_books": "2",
        "s1-laid_down": "200",
        "p1-hand": "",
        "p1-foot_played": "on",
        "p3-foot_played": "on",
        "p3-hand_points": "10",
        "s2-red_books": "1",
        "s2-black_books": "0",
        "s2-laid_down": "150",
        "p2-hand_points": "20",
        "p2-foot_points": "40",
        "p4-hand_points": "30",
        "p4-foot_points": "40",
        "action": "save",
    }
    response = client.post(f"/t/{hf_table.access_token}/", form)
    assert response.status_code == 302, response.content.decode()[-2000:]
    deal = Deal.objects.get()
    assert [r.points for r in deal.results.order_by("side")] == [1890, 520]
    page = client.get(f"/t/{hf_table.access_token}/").content.decode()
    assert "Hand 1 is saved." in page and "Now: hand 2 of 3" in page


# --- the page's checks see the deals before the one entered -------------------------------------


def hand_2_form(table, **changes: str) -> dict[str, str]:
    """Hand 2 as the page posts it: Ann went out; Ben's foot, not played, is not entered."""
    seats = {s.position: s.entry_id for s in table.seats.all()}
    form = {
        "game": "2",
        "attempt": "1",
        "who": str(seats[1]),
        "went_out": "1",
        "s1-red_books": "2",
        "s1-black_books": "2",
        "s1-laid_down": "300",
        "p1-hand": "",
        "p1-foot_played": "on",
        "p3-foot_played": "on",
        "p3-hand_points": "10",
        "s2-red_books": "1",
        "s2-black_books": "0",
        "s2-laid_down": "150",
        "p2-hand_points": "20",
        "p4-hand_points": "30",
        "p4-foot_points": "40",
    }
    return form | changes


def test_a_refused_hand_after_hand_1_names_its_own_problem_hf8_2(client: Client, hf_table) -> None:
    table = hf_table
    sides = [{"seat": 1, **OUT_TEAM}, {"seat": 2, **OTHER_TEAM}]
    assert phone_at(table).put(url(table, 1), {"sides": sides}, format="json").status_code == 201
    checked = client.post(f"/t/{table.access_token}/check", hand_2_form(table)).json()
    rules = [error["rule"] for error in checked["errors"]]
    assert "HF2.1" not in rules and "HF8.2" in rules, checked["errors"]
    missing = next(e for e in checked["errors"] if e["rule"] == "HF8.2")
    assert missing["prefix"] == "p2"  # Ben's line: his foot
    for action in ("preview", "save"):
        page = client.post(f"/t/{table.access_token}/", hand_2_form(table, action=action))
        text = page.content.decode()
        assert page.status_code == 200 and "HF8.2" in text, action
        assert "comes before hand" not in text, action
    assert Deal.objects.filter(table=table).count() == 1


def test_a_refused_deal_after_deal_1_names_no_bogus_turn_pa6_5(
    client: Client, parcellus_table
) -> None:
    table = parcellus_table
    assert phone_at(table).put(url(table, 1), pa_body(*FIRST), format="json").status_code == 201
    seats = {s.position: s.entry_id for s in table.seats.all()}
    form = {"game": "2", "attempt": "1", "who": str(seats[1])}
    for seat, (cards, parcels, jack) in enumerate(((10, 3, False), (8, 2, True), (4, 2, False)), 1):
        form |= {f"p{seat}-cards": str(cards), f"p{seat}-parcels": str(parcels)}
        form |= {f"p{seat}-jack_of_hearts": "on"} if jack else {}
    checked = client.post(f"/t/{table.access_token}/check", form).json()
    rules = {error["rule"] for error in checked["errors"]}
    assert "PA6.5" not in rules and "PA6.2" in rules, checked["errors"]  # seven parcels
    page = client.post(f"/t/{table.access_token}/", form | {"action": "preview"})
    assert "PA6.2" in page.content.decode() and "is the next deal" not in page.content.decode()


# --- a correction opens with the stored result's one-of-the-table flag ---------------------------


def marked_radio(html: str) -> str:
    """The value of the checked radio of the form's one-of-the-table flag (went_out)."""
    checked = [tag for tag in re.findall(r'<input type="radio" name="went_out"[^>]*>', html)
               if "checked" in tag]  # fmt: skip
    assert len(checked) == 1, checked
    return re.search(r'value="(\d+)"', checked[0]).group(1)


def test_a_parcellus_correction_opens_with_the_j_hearts_taker_marked_pa6_4(
    client: Client, parcellus_table
) -> None:
    """The J♥'s taker is kept when another field is corrected: without it the 24 cards were
    refused (PA6.4) or the J♥'s 3 points moved silently."""
    table = parcellus_table
    phone_at(table).put(url(table, 1), pa_body(*FIRST), format="json")
    html = client.get(f"/t/{table.access_token}/games/1/correct").content.decode()
    ann = table.seats.get(position=1).entry_id
    assert marked_radio(html) == str(ann)


def test_a_hand_and_foot_correction_opens_with_the_partner_who_went_out_marked_hf5_3(
    client: Client, hf_table
) -> None:
    table = hf_table
    sides = [{"seat": 1, **OUT_TEAM}, {"seat": 2, **OTHER_TEAM}]  # Ann went out
    assert phone_at(table).put(url(table, 1), {"sides": sides}, format="json").status_code == 201
    html = client.get(f"/t/{table.access_token}/games/1/correct").content.decode()
    assert marked_radio(html) == "1"  # a partner's flag names the seat (HF1.2)
