"""Entering, correcting, confirming and signing off a set on the table's page `/t/<token>/`,
as plain forms (no JavaScript).

The Spring Open seats Ann, Ben, Cy, Di and Ed at table 1. Ann keeps score on the table's link;
Ben checks her entries when the tournament asks for a second person's confirmation.
"""

import re
from typing import Any

import pytest
from django.test import Client

from games.kalooki import ASAJ_2025, hand_points, parse_cards
from scoring.models import Deal
from scoring.services import table_sign_off
from tables.models import Seat, Table, new_access_token
from tests.scoring.playing import play_set, published_round, tournament_with

pytestmark = pytest.mark.django_db

# Game 1 (9 cards, three threes): Ann goes out; the others hold these cards (R8.2).
GAME_1 = {"Ben": "KH 5C", "Cy": "JK AS 2D", "Di": "QH", "Ed": "AH 3S 4S"}


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5)).tables.all()
    return table


def seats(table: Table) -> dict[str, Seat]:
    found = table.seats.select_related("entry__player").order_by("position")
    return {seat.entry.player.name: seat for seat in found}


def link(table: Table, tail: str = "") -> str:
    return f"/t/{table.access_token}/{tail}"


def result(
    table: Table,
    number: int,
    out: str | None = "Ann",
    hands: dict[str, dict[str, Any]] | None = None,
    *,
    who: str = "Ann",
    action: str = "save",
    **game: Any,
) -> dict[str, Any]:
    """The result form's fields as a browser posts them; `hands` by player name."""
    seated = seats(table)
    data: dict[str, Any] = {"game": number, "who": seated[who].entry_id, "action": action}
    if out:
        data["went_out"] = seated[out].entry_id
    for name, fields in (hands or {}).items():
        for key, value in fields.items():
            data[f"p{seated[name].position}-{key}"] = value
    for key, value in game.items():
        data[key] = "on" if value is True else value
    return {key: value for key, value in data.items() if value is not False}


def cards(hands: dict[str, str]) -> dict[str, dict[str, Any]]:
    return {name: {"cards": text} for name, text in hands.items()}


def totals(game: Deal) -> dict[str, int]:
    return dict(game.results.values_list("entry__player__name", "points"))


def page(client: Client, table: Table, tail: str = "") -> str:
    response = client.get(link(table, tail))
    assert response.status_code == 200
    return response.content.decode()


def row(html: str, name: str) -> str:
    """The result form's fieldset of one player."""
    return re.search(rf'<fieldset[^>]*data-player="{name}".*?</fieldset>', html, re.S).group(0)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


# --- entering a game ------------------------------------------------------------------------------


def test_the_page_offers_the_current_game_with_a_row_per_seated_player(client, table) -> None:
    html = page(client, table)
    assert "Enter game 1" in html and "Save game 1" in html
    names = re.findall(r'<fieldset[^>]*data-player="(\w+)"', html)
    assert sorted(names) == ["Ann", "Ben", "Cy", "Di", "Ed"]
    assert names == list(seats(table))  # in seat order, clockwise
    assert "Who is entering?" in html and "Down and out" in html and "Void game" in html
    assert html.count('name="went_out"') == 5
    assert 'id="table-entry-config"' in html and "js/table-entry.js" in html


def test_a_game_entered_as_cards_is_scored_by_the_rules_r8_2(client, table) -> None:
    response = client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    assert response.status_code == 302 and response["Location"] == link(table) + "#now"
    game = table.deals.get()
    expected = {name: hand_points(parse_cards(text), ASAJ_2025) for name, text in GAME_1.items()}
    assert totals(game) == {"Ann": 0, **expected}
    assert expected == {"Ben": 15, "Cy": 67, "Di": 10, "Ed": 8}
    revision = game.revisions.get()
    assert revision.entered_via == "table 1 link · Ann"
    html = page(client, table)
    assert "Game 1 is saved." in html and "Now: game 2 of 9" in html


def test_points_may_be_entered_instead_of_cards(client, table) -> None:
    hands = {"Ben": {"points": 23}, "Cy": {"cards": "KH"}, "Di": {"points": 4}, "Ed": {"points": 9}}
    client.post(link(table), result(table, 1, hands=hands))
    assert totals(table.deals.get()) == {"Ann": 0, "Ben": 23, "Cy": 10, "Di": 4, "Ed": 9}


def test_penalties_add_to_the_score_r5_4_r6_3(client, table) -> None:
    hands = cards(GAME_1)
    hands["Ben"] |= {"failed_come_downs": 1, "calls": 4, "overcall_penalty": "on"}
    hands["Ann"] = {"failed_come_downs": 1}  # who went out can still carry a penalty (R8.5)
    client.post(link(table), result(table, 1, hands=hands, confirm_warnings=True))
    scores = totals(table.deals.get())
    assert scores["Ben"] == 15 + 50 + 50 and scores["Ann"] == 50


def test_the_page_remembers_who_is_entering(client, table) -> None:
    client.post(link(table), result(table, 1, hands=cards(GAME_1), who="Di"))
    html = page(client, table)
    assert f'<option value="{seats(table)["Di"].entry_id}" selected>Di</option>' in html


def test_a_result_needs_the_name_of_who_is_entering(client, table) -> None:
    data = result(table, 1, hands=cards(GAME_1))
    del data["who"]
    response = client.post(link(table), data)
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not table.deals.exists()


# --- preview, errors and warnings -----------------------------------------------------------------


def test_preview_scores_every_player_and_saves_nothing(client, table) -> None:
    response = client.post(link(table), result(table, 1, hands=cards(GAME_1), action="preview"))
    html = response.content.decode()
    assert response.status_code == 200 and not table.deals.exists()
    assert "Preview</strong> (not saved yet)" in html
    assert "Ann 0, " in text(html) or "Ann 0." in text(html)
    cy = text(row(html, "Cy"))
    assert "67" in cy and "cards JK AS 2D = 50 + 15 + 2 = 67 (R8.2)" in cy
    assert 'value="JK AS 2D"' in row(html, "Cy")  # the form keeps what was typed


def test_an_unreadable_card_is_shown_next_to_its_field_with_the_rule_r11(client, table) -> None:
    hands = cards(GAME_1 | {"Di": "QH XQ"})
    response = client.post(link(table), result(table, 1, hands=hands))
    assert response.status_code == 200 and not table.deals.exists()
    di = row(response.content.decode(), "Di")
    assert re.search(r'<div class="field field-cards has-problem">', di)  # the field is marked
    note = re.search(r'<p class="note[^"]*" data-note[^>]*>.*?</p>', di, re.S).group(0)
    assert "card 2, &quot;XQ&quot;, is not a card" in note and "R11" in note  # on its line
    assert "Not saved" in response.content.decode()


def test_a_game_without_one_player_out_is_refused_r10_1(client, table) -> None:
    response = client.post(link(table), result(table, 1, out=None, hands=cards(GAME_1)))
    html = response.content.decode()
    game_problems = re.search(r'<ul class="errors game-problems"[^>]*>(.*?)</ul>', html, re.S)
    assert "exactly one player goes out" in game_problems.group(1) and "R10.1" in html
    assert not table.deals.exists()


def test_points_beyond_what_the_hand_can_hold_are_refused_r10_4(client, table) -> None:
    hands = cards(GAME_1) | {"Ben": {"points": 900, "calls": 0}}
    response = client.post(link(table), result(table, 1, hands=hands))
    ben = text(row(response.content.decode(), "Ben"))
    assert "R10.4" in ben and "at most" in ben
    assert not table.deals.exists()


def test_a_warning_must_be_confirmed_and_the_game_is_flagged_r10_6(client, table) -> None:
    # Ben has 2 calls, so 13 cards if he never came down, or at most 4 if he did: 6 is suspect.
    hands = cards(GAME_1) | {"Ben": {"cards": "2H 3H 4H 5H 6H 7H", "calls": 2}}
    response = client.post(link(table), result(table, 1, hands=hands))
    html = response.content.decode()
    assert response.status_code == 200 and not table.deals.exists()
    box = re.search(r"<div class=\"confirm-box\" data-warnings-box>(.*?)</div>", html, re.S)
    assert box, "the warnings box is shown"
    assert "Ben holds 6 cards with 2 calls" in text(box.group(1)) and "R10.6" in box.group(1)
    assert "Confirm anyway" in box.group(1)
    assert "Ben 27" in text(html)  # the preview still scores it

    response = client.post(link(table), result(table, 1, hands=hands, confirm_warnings=True))
    assert response.status_code == 302
    game = table.deals.get()
    assert game.is_flagged and game.warnings[0]["rule"] == "R10.6"
    assert "flagged for the director" in page(client, table)


def test_more_than_three_calls_without_the_penalty_is_a_warning_r10_7(client, table) -> None:
    hands = cards(GAME_1) | {"Di": {"points": 10, "calls": 4}}
    response = client.post(link(table), result(table, 1, hands=hands))
    assert "R10.7" in response.content.decode() and not table.deals.exists()


# --- void games and down-and-outs -----------------------------------------------------------------


def test_a_void_game_scores_nothing_and_the_same_dealer_deals_it_again_r9_2(client, table) -> None:
    before = text(re.search(r'<section class="now".*?</section>', page(client, table), re.S)[0])
    dealer = re.search(r"(\w+) deals", before).group(1)
    response = client.post(link(table), result(table, 1, out=None, void=True))
    assert response.status_code == 302
    game = table.deals.get()
    assert game.is_void and not game.results.exists()
    html = page(client, table)
    assert "Game 1 is recorded as void (R9.2)" in html
    now = text(re.search(r'<section class="now".*?</section>', html, re.S)[0])
    assert "Now: game 1 of 9, attempt 2" in now and f"{dealer} deals" in now
    assert "void (R9.2)" in html and "Enter game 1" in html


def test_down_and_out_doubles_card_points_but_not_penalties_r8_3_r8_4(client, table) -> None:
    hands = cards(GAME_1)
    hands["Di"] |= {"failed_come_downs": 1}
    client.post(link(table), result(table, 1, hands=hands, down_and_out=True))
    game = table.deals.get()
    assert game.down_and_out
    assert totals(game) == {"Ann": 0, "Ben": 30, "Cy": 134, "Di": 20 + 50, "Ed": 16}


# --- corrections ----------------------------------------------------------------------------------


def test_correct_opens_the_form_filled_with_the_stored_entry(client, table) -> None:
    hands = cards(GAME_1) | {"Ben": {"points": 15, "calls": 1}}
    client.post(link(table), result(table, 1, hands=hands))
    assert f'href="{link(table, "deals/1/correct")}"' in page(client, table)
    html = page(client, table, "games/1/correct")
    assert "Correct game 1" in html and "Save correction" in html
    assert 'name="base_version" value="1"' in html
    assert 'value="JK AS 2D"' in row(html, "Cy")
    ben = row(html, "Ben")
    assert re.search(r'name="p\d-points" value="15"', ben) and re.search(r'-calls" value="1"', ben)
    ann = row(html, "Ann")
    assert "checked" in re.search(r'<input type="radio" name="went_out"[^>]*>', ann).group(0)
    assert "Void game" not in html  # the table does not void a scored game (R9.2)


def test_a_correction_saves_a_new_version_and_the_history_says_what_changed(client, table):
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    corrected = cards(GAME_1 | {"Cy": "JK AS 3D"})
    data = result(table, 1, hands=corrected, base_version=1, reason="Cy's 2 was a 3", who="Di")
    response = client.post(link(table, "games/1/correct"), data)
    assert response.status_code == 302 and response["Location"].endswith("#game-1")
    game = table.deals.get()
    assert game.version == 2 and totals(game)["Cy"] == 68
    html = page(client, table)
    assert "Game 1 is corrected: this is version 2." in html
    history = text(
        re.search(r'<details class="game-detail" id="game-1"[^>]*>.*?</details>', html, re.S)[0]
    )
    assert "Version 1 · Superseded · table 1 link · Ann" in history
    assert "Version 2 · Confirmed · table 1 link · Di" in history
    assert "Why: Cy's 2 was a 3" in history
    assert "Cy: cards JK AS 2D → JK AS 3D, score 67 → 68" in history


def test_a_correction_needs_a_reason(client, table) -> None:
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    data = result(table, 1, hands=cards(GAME_1 | {"Di": "KH"}), base_version=1)
    response = client.post(link(table, "games/1/correct"), data)
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert table.deals.get().version == 1


def test_a_correction_preview_saves_nothing(client, table) -> None:
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    data = result(table, 1, hands=cards(GAME_1 | {"Di": "KH KD"}), base_version=1, reason="x")
    response = client.post(link(table, "games/1/correct"), data | {"action": "preview"})
    assert "Di 20" in text(response.content.decode())
    assert table.deals.get().version == 1


def test_a_correction_of_an_old_version_shows_the_stored_result(client, table) -> None:
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    first = result(table, 1, hands=cards(GAME_1 | {"Di": "KH"}), base_version=1, reason="Di")
    client.post(link(table, "games/1/correct"), first)
    late = result(table, 1, hands=cards(GAME_1 | {"Di": "2C"}), base_version=1, reason="no, 2")
    response = client.post(link(table, "games/1/correct"), late)
    html = response.content.decode()
    assert "Someone else saved game 1 first" in html
    stored = text(re.search(r'<section class="stored".*?</section>', html, re.S)[0])
    assert "Stored result of game 1" in stored and "Di KH 10" in stored
    assert totals(table.deals.get())["Di"] == 10


def test_two_phones_entering_the_same_game_store_one_result(client, table) -> None:
    other_phone = Client()
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    response = other_phone.post(
        link(table), result(table, 1, hands=cards(GAME_1 | {"Ben": "JK"}), who="Ed")
    )
    html = response.content.decode()
    assert "Someone else saved game 1 first" in html and "Ben KH 5C 15" in text(html)
    assert table.deals.count() == 1 and totals(table.deals.get())["Ben"] == 15


def test_the_same_result_sent_twice_is_saved_once(client, table) -> None:
    """A double tap on Save, or a retry after the connection dropped mid-submit."""
    data = result(table, 1, hands=cards(GAME_1), attempt=1)
    client.post(link(table), data)
    assert "Game 1 is saved." in page(client, table)  # the first answer, which the phone missed
    response = client.post(link(table), data, follow=True)
    html = response.content.decode()
    assert "Game 1 is saved." in html and "Someone else" not in html
    assert table.deals.count() == 1 and table.deals.get().version == 1


def test_a_result_for_an_attempt_voided_meanwhile_is_not_saved_r9_2(client, table) -> None:
    other_phone = Client()
    other_phone.post(link(table), result(table, 1, out=None, void=True, who="Ed", attempt=1))
    response = client.post(link(table), result(table, 1, hands=cards(GAME_1), attempt=1))
    html = response.content.decode()
    assert "Someone else saved game 1 first" in html
    stored = text(re.search(r'<section class="stored".*?</section>', html, re.S)[0])
    assert "Void (R9.2)" in stored
    assert list(table.deals.values_list("attempt", "is_void")) == [(1, True)]
    assert "Enter game 1" in html and 'name="attempt" value="2"' in html


def test_a_game_not_yet_played_has_nothing_to_correct(client, table) -> None:
    assert client.get(link(table, "games/1/correct")).status_code == 404


# --- second-person confirmation -------------------------------------------------------------------


@pytest.fixture
def confirming_table() -> Table:
    [table] = published_round(tournament_with(5, requires_confirmation=True)).tables.all()
    return table


def confirm(client: Client, table: Table, number: int, who: str, version: int = 1) -> str:
    data = {"who": seats(table)[who].entry_id, "version": version}
    response = client.post(link(table, f"games/{number}/confirm"), data, follow=True)
    return response.content.decode()


def test_a_pending_result_is_confirmed_by_someone_else(client, confirming_table) -> None:
    table = confirming_table
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    html = page(client, table)
    assert "It counts once another player at the table confirms it." in html
    pending = re.search(r'<section class="pending".*?</section>', html, re.S)[0]
    assert "Confirm game 1" in pending and "entered by table 1 link · Ann" in pending

    refused = confirm(client, table, 1, "Ann")
    assert "Game 1 is not confirmed: Game 1 was entered by table 1 link · Ann" in text(refused)
    assert table.deals.get().status == Deal.Status.PENDING

    html = confirm(client, table, 1, "Ben")
    assert "Game 1 is confirmed by Ben." in html and 'class="pending"' not in html
    game = table.deals.get()
    assert game.status == Deal.Status.CONFIRMED
    assert game.revisions.get().confirmed_via == "table 1 link · Ben"


def test_a_correction_made_meanwhile_must_be_seen_before_confirming(client, confirming_table):
    table = confirming_table
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    fix = result(table, 1, hands=cards(GAME_1 | {"Di": "KH"}), base_version=1, reason="Di")
    client.post(link(table, "games/1/correct"), fix)
    html = confirm(client, table, 1, "Ben", version=1)
    assert "Game 1 was corrected since you saw it (you had version 1, it is now version 2)" in html
    assert table.deals.get().status == Deal.Status.PENDING


def test_confirming_needs_a_name(client, confirming_table) -> None:
    table = confirming_table
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    response = client.post(link(table, "games/1/confirm"), {"version": 1}, follow=True)
    assert "choose your name first" in response.content.decode()
    assert table.deals.get().status == Deal.Status.PENDING


# --- signing off ----------------------------------------------------------------------------------


def test_a_finished_set_is_signed_off_and_the_page_turns_read_only(client, table) -> None:
    play_set(table, games=8)
    assert 'id="sign-off"' not in page(client, table)
    client.post(link(table), result(table, 9, hands={n: {"points": 5} for n in GAME_1}))
    html = page(client, table)
    sign_off = re.search(r'<section class="sign-off".*?</section>', html, re.S)[0]
    assert "Sign off the set" in sign_off and "Set total" in sign_off
    assert "Enter game" not in html

    response = client.post(link(table, "sign-off"), {"who": seats(table)["Cy"].entry_id})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.is_signed_off() and table.signed_off_by.startswith("Cy (table 1 link · Cy)")
    html = page(client, table)
    assert "The set is signed off by Cy" in html and "This page is read-only now" in html
    assert "Correct game" not in html and '<form method="post" class="result-form"' not in html

    response = client.get(link(table, "games/9/correct"), follow=True)
    assert "signed its set off" in response.content.decode()
    response = client.post(link(table, "games/9/correct"), result(table, 9, base_version=1))
    assert response.status_code == 302 and table.deals.get(number=9).version == 1


def test_a_set_with_an_unconfirmed_game_cannot_be_signed_off(client, confirming_table) -> None:
    table = confirming_table
    play_set(table)
    html = page(client, table)
    assert "must be confirmed before the set can be signed off" in html
    assert "Sign off the set</button>" not in html
    response = client.post(link(table, "sign-off"), {"who": seats(table)["Ann"].entry_id})
    assert response.status_code == 302 and not Table.objects.get(pk=table.pk).is_signed_off()


def test_nothing_is_entered_once_the_set_is_signed_off(client, table) -> None:
    play_set(table)
    table_sign_off(table=table, by=None, via="table 1 link · Ann", signer="Ann")
    response = client.post(link(table), result(table, 9, hands=cards(GAME_1)), follow=True)
    assert "signed its set off" in response.content.decode()


def test_a_draft_round_takes_no_result(client) -> None:
    tournament = tournament_with(5)
    [table] = published_round(tournament).tables.all()
    table.round.status = "draft"
    table.round.save()
    html = page(client, table)
    assert "Enter game" not in html and "This seating is a draft" in html
    response = client.post(link(table), result(table, 1, hands=cards(GAME_1)), follow=True)
    assert "results can be entered once it is published" in response.content.decode()
    assert not table.deals.exists()


# --- the link is the key to its own table, and only while it is current ---------------------------


def test_a_reissued_link_stops_working_at_once(client, table) -> None:
    old = table.access_token
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))
    table.access_token = new_access_token()
    table.save()
    stale = f"/t/{old}/"
    assert client.get(stale).status_code == 404
    assert client.post(stale, result(table, 2, hands=cards(GAME_1))).status_code == 404
    assert client.get(stale + "games/1/correct").status_code == 404
    assert client.post(stale + "games/1/confirm", {"who": 1, "version": 1}).status_code == 404
    assert client.post(stale + "sign-off", {"who": 1}).status_code == 404
    assert table.deals.count() == 1


@pytest.fixture
def two_tables() -> tuple[Table, Table]:
    round = published_round(tournament_with(10, requires_confirmation=True))
    first, second = round.tables.order_by("number")
    return first, second


def test_another_tables_link_cannot_write_this_tables_game(client, two_tables) -> None:
    mine, theirs = two_tables
    me = _first(mine)
    client.post(link(mine), result(mine, 1, out=me, hands=_points(mine), who=me))
    assert mine.deals.count() == 1
    # Their link with my players: the rows belong to their seats, so my players are not choices.
    data = result(mine, 2, out=me, hands=_points(mine), who=me)
    response = client.post(link(theirs), data)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not theirs.deals.exists() and mine.deals.count() == 1
    # My game 1 cannot be corrected or confirmed through their link.
    assert client.get(link(theirs, "games/1/correct")).status_code == 404
    fix = result(mine, 1, out=me, hands=_points(mine, 7), who=me, base_version=1, reason="x")
    assert client.post(link(theirs, "games/1/correct"), fix).status_code == 404
    other = seats(theirs)[_first(theirs)].entry_id
    data = {"who": other, "version": 1}
    assert client.post(link(theirs, "games/1/confirm"), data).status_code == 404
    game = mine.deals.get()
    assert game.version == 1 and game.status == Deal.Status.PENDING


def _first(table: Table) -> str:
    return next(iter(seats(table)))


def _points(table: Table, points: int = 5) -> dict[str, dict[str, Any]]:
    return {name: {"points": points} for name in list(seats(table))[1:]}


# --- reading it -----------------------------------------------------------------------------------


def test_the_page_reads_a_fixed_number_of_queries(client, table, django_assert_num_queries):
    client.post(link(table), result(table, 1, hands=cards(GAME_1)))  # the phone has a session
    # the session, then the table, seats, games, hands and versions (`table_page_get`), then
    # the round's clock events and the table's open call (`table_live_get`)
    with django_assert_num_queries(8):
        client.get(link(table))
    play_set(table, games=8)
    with django_assert_num_queries(8):
        client.get(link(table))


def test_the_live_check_is_the_pages_own_and_the_keypad_has_the_card_values(client, table):
    html = page(client, table)
    config = re.search(r'<script id="table-entry-config" [^>]*>(.*?)</script>', html, re.S)[1]
    assert f'"check": "/t/{table.access_token}/check"' in config  # every game, every ruleset
    assert f'"result": "/api/tables/{table.pk}/deals/{{n}}/result"' in config  # the outbox's
    assert '{"token": "JK", "label": "JK", "points": 50}' in config
    assert '{"token": "AB", "label": "black A", "points": 15}' in config  # no suit invented
    assert '"packs": 3' in config
