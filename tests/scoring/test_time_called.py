"""Time called (HF2.2): the director or the scorekeeper ends a Hand and Foot game after the hands
played; no hand is entered after, the table can sign off, and the standings count the game as
decided on the hands played (HF10.1)."""

import pytest
from rest_framework.test import APIClient

from scoring.models import Deal
from scoring.services import ResultRefused, table_sign_off
from scoring.standings import standings_compute
from scoring.time_called import (
    TimeCallError,
    round_time_call,
    table_time_call,
    table_time_uncall,
)
from tests.factories import StaffRoleFactory, UserFactory
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.test_other_games import EXPECTED, HANDS, enter_hf

pytestmark = pytest.mark.django_db


@pytest.fixture
def hf():
    tournament = game_tournament("hand_and_foot")
    round = seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"], ["Eve", "Flo", "Gus", "Hal"]])
    return tournament, round


def test_a_game_ended_by_time_is_decided_on_the_hands_played_hf2_2(hf) -> None:
    tournament, round = hf
    table = table_of(round)
    for number in (1, 2):
        enter_hf(tournament, table, number, HANDS[number - 1])
    with pytest.raises(ResultRefused, match="sign off when the game is finished"):
        table_sign_off(table=table, by=None, via="table link", signer="Ann")
    table = table_time_call(table=table, by=None, via="table link · Ann")
    assert table.time_called and table.time_called_by == "table link · Ann"
    assert "time called after 2 of 3 hands (by table link · Ann) (HF2.2)" in (
        tournament.audit.get(action="time.call").summary
    )
    with pytest.raises(ResultRefused, match=r"time was called at Table 1 after 2 of 3 hands"):
        enter_hf(tournament, table, 3, HANDS[2])
    table_sign_off(table=table, by=None, via="table link", signer="Ann")
    # Time is up at the other table too: no table plays on, so the round counts every hand
    # played (while one plays on, it counts the hands every table has played).
    table_time_call(table=round.tables.get(number=2), by=None, via="director")
    rows = {r["player"]: r for r in standings_compute(tournament=tournament)["players"]}
    ac, bd = rows["Ann & Cy"], rows["Ben & Di"]
    assert (ac["total"], bd["total"]) == (
        EXPECTED[0][0] + EXPECTED[1][0],
        EXPECTED[0][1] + EXPECTED[1][1],
    )
    winner = ac if ac["total"] > bd["total"] else bd
    assert winner["stats"]["games_won"] == 1 and winner["games_played"] == 2


def test_the_director_calls_time_at_every_table_still_playing(hf) -> None:
    tournament, round = hf
    dana = UserFactory(username="dana")
    called = round_time_call(round=round, by=dana, via="director dana")
    assert [t.number for t in called] == [1, 2]
    event = tournament.audit.get(action="time.call_round")
    assert event.summary == "Round 1: time called at 2 tables (HF2.2)" and event.actor == dana
    with pytest.raises(TimeCallError, match=r"Time was already called at Table 1 \(HF2.2\)"):
        table_time_call(table=table_of(round), by=dana, via="director dana")


def test_a_mistaken_call_is_withdrawn_with_a_reason_and_play_goes_on(hf) -> None:
    tournament, round = hf
    table = table_time_call(table=table_of(round), by=None, via="table link · Ben")
    with pytest.raises(TimeCallError, match="Say why"):
        table_time_uncall(table=table, by=None, reason=" ")
    table = table_time_uncall(table=table, by=None, reason="Pressed by mistake")
    assert not table.time_called
    enter_hf(tournament, table, 1, HANDS[0])
    assert Deal.objects.get().status == Deal.Status.CONFIRMED
    assert "withdrawn: Pressed by mistake" in tournament.audit.get(action="time.uncall").summary


def test_a_game_not_played_against_the_clock_has_no_time_to_call() -> None:
    tournament = game_tournament("parcellus")
    round = seated_by_hand(tournament, [["Ann", "Ben", "Cy"]])
    with pytest.raises(TimeCallError, match="Parcellus is not played against the clock"):
        table_time_call(table=table_of(round), by=None, via="x")
    assert not tournament.audit.filter(action__startswith="time").exists()


# --- the pages ----------------------------------------------------------------------------------


def test_the_scorekeeper_records_time_called_on_the_table_page(client, hf) -> None:
    tournament, round = hf
    table = table_of(round)
    enter_hf(tournament, table, 1, HANDS[0])
    link = f"/t/{table.access_token}/"
    page = client.get(link).content.decode()
    assert "Time is called</button>" in page and "(HF2.2)" in page
    response = client.post(link + "time", follow=True)
    page = response.content.decode()
    assert "Time is called: the game ends with the hands entered (HF2.2)." in page
    assert "<strong>Time was called</strong>" in page and "Sign off the game" in page
    table.refresh_from_db()
    assert table.time_called and table.time_called_by.startswith("table")


def test_the_director_calls_time_from_the_dashboard_and_a_table_page(client, hf) -> None:
    tournament, round = hf
    director = UserFactory(username="dana")
    StaffRoleFactory(tournament=tournament, user=director)
    client.force_login(director)
    base = f"/director/{tournament.slug}/rounds/1/"
    assert "Call time at every table" in client.get(base + "dashboard").content.decode()
    page = client.post(base + "tables/1/time", {"action": "call"}, follow=True).content.decode()
    assert "Time is called at table 1" in page and "Withdraw the time call" in page
    page = client.post(base + "time", follow=True).content.decode()
    assert "Time is called at tables 2 (HF2.2)." in page
    form = {"action": "withdraw", "reason": "Wrong table"}
    page = client.post(base + "tables/1/time", form, follow=True).content.decode()
    assert "Table 1 plays on: the time call is withdrawn." in page
    assert [t.time_called for t in round.tables.order_by("number")] == [False, True]


def test_only_the_tournaments_directors_call_time_and_a_link_only_at_its_table(client, hf) -> None:
    tournament, round = hf
    base = f"/director/{tournament.slug}/rounds/1/"
    assert client.post(base + "time").status_code == 302  # to sign in
    other = game_tournament("hand_and_foot")
    client.force_login(StaffRoleFactory(tournament=other, user__username="bob").user)
    assert client.post(base + "time").status_code == 404
    assert client.post(base + "tables/1/time", {"action": "call"}).status_code == 404
    assert client.post("/t/not-a-token/time").status_code == 404
    assert not round.tables.filter(time_called_at__isnull=False).exists()


def test_the_api_calls_time_as_the_pages_do_and_only_for_the_tournaments_directors(hf) -> None:
    tournament, round = hf
    base = f"/api/tournaments/{tournament.slug}/rounds/1"
    anonymous, bob, dana = APIClient(), APIClient(), APIClient()
    other = game_tournament("hand_and_foot")
    bob.force_authenticate(StaffRoleFactory(tournament=other, user__username="bob").user)
    dana.force_authenticate(StaffRoleFactory(tournament=tournament, user__username="dana").user)
    for path in ("/time", "/tables/1/time", "/tables/1/time/withdraw"):
        body = {"reason": "x"} if path.endswith("withdraw") else {}
        assert anonymous.post(base + path, body, format="json").status_code == 403
        assert bob.post(base + path, body, format="json").status_code == 404
    assert not round.tables.filter(time_called_at__isnull=False).exists()
    called = dana.post(base + "/tables/1/time", format="json")
    assert called.status_code == 200 and called.json()["time_called_by"] == "director dana"
    again = dana.post(base + "/tables/1/time", format="json")
    assert again.status_code == 409 and "(HF2.2)" in again.json()["errors"][0]["message"]
    assert dana.post(base + "/time", format="json").json() == {"tables": [2]}
    no_reason = dana.post(base + "/tables/1/time/withdraw", {}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["field"] == "reason"
    body = {"reason": "Wrong table"}
    withdrawn = dana.post(base + "/tables/1/time/withdraw", body, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["time_called_at"] is None
    assert [t.time_called for t in round.tables.order_by("number")] == [False, True]
