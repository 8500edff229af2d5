"""Who may read and write a table through the table API: the permission matrix.

The Open has two tables in round 1. Alice directs the Open; Bob directs the Cup, another
tournament. Sam keeps score at table 1 (signed in with an API token), Tess at table 2. Table 1's
link is held by its players; table 2's link by the players next door; the Cup's table has a link
of its own. Rita is signed in and has nothing to do with the Open. Table 1's link was reissued
once: the old one must not open anything.

Expected: the link, the scorekeeper and the director of table 1 may read and write it; the Open's
own people at another table are told no (403); anyone else learns nothing (404); a revoked link is
refused as a credential (401). A refused write changes nothing.
"""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorekeeper.access import table_access
from scoring.models import Deal
from scoring.services import HandInput, result_submit
from tables.models import Table
from tables.services import table_link_reissue
from tests.factories import UserFactory
from tests.scoring.playing import director_of, play_set, published_round, tables_of, tournament_with
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@dataclass
class Open:
    tournament: Tournament
    table: Table  # table 1, the one every request is about
    next_door: Table  # table 2
    cup_table: Table  # the Cup's only table
    revoked_token: str  # table 1's first link, reissued since


@pytest.fixture
def open_() -> Open:
    tournament = tournament_with(10, name="Open", slug="open", requires_confirmation=True)
    table, next_door = tables_of(published_round(tournament))
    cup = tournament_with(5, name="Cup", slug="cup")
    [cup_table] = tables_of(published_round(cup))
    revoked = table.access_token
    table = table_link_reissue(table=table, by=None)
    director_of(tournament, "alice")
    director_of(cup, "bob")
    table.scorekeepers.add(UserFactory(username="sam"))
    next_door.scorekeepers.add(UserFactory(username="tess"))
    UserFactory(username="rita")
    return Open(tournament, Table.objects.get(pk=table.pk), next_door, cup_table, revoked)


def _link(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def _session(username: str) -> APIClient:
    client = APIClient()
    client.force_login(UserFactory(username=username))
    return client


def _api_token(username: str) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=UserFactory(username=username))
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


ACTORS: dict[str, Callable[[Open], APIClient]] = {
    "anonymous": lambda o: APIClient(),
    "table link": lambda o: _link(o.table.access_token),
    "other table's link": lambda o: _link(o.next_door.access_token),
    "revoked link": lambda o: _link(o.revoked_token),
    "other tournament's link": lambda o: _link(o.cup_table.access_token),
    "scorekeeper of the table": lambda o: _api_token("sam"),
    "scorekeeper of another table": lambda o: _api_token("tess"),
    "director": lambda o: _session("alice"),
    "director of another tournament": lambda o: _session("bob"),
    "signed in, no role": lambda o: _session("rita"),
}
ALLOWED = {"table link", "scorekeeper of the table", "director"}
TOLD_NO = {"other table's link", "scorekeeper of another table"}
REVOKED = {"revoked link"}


def expected(actor: str, success: int) -> int:
    if actor in ALLOWED:
        return success
    if actor in TOLD_NO:
        return 403
    return 401 if actor in REVOKED else 404


def _hands(table: Table) -> list[dict]:
    seats = table.seats.order_by("position")
    return [
        {"seat": seat.position, "went_out": True, "cards": ""}
        if seat.position == 1
        else {"seat": seat.position, "points": 10 + seat.position}
        for seat in seats
    ]


def _enter_game_1(table: Table) -> Deal:
    """Game 1, entered on the link by Ann; it waits for someone else to confirm it."""
    hands = [
        HandInput(seat.entry_id, went_out=True, cards="")
        if seat.position == 1
        else HandInput(seat.entry_id, points=20)
        for seat in table.seats.order_by("position")
    ]
    return result_submit(table=table, number=1, hands=hands, via="table 1 link · Ann").deal


def _finish_the_set(o: Open) -> None:
    Tournament.objects.filter(pk=o.tournament.pk).update(requires_confirmation=False)
    play_set(o.table)


def _get(client: APIClient, o: Open) -> int:
    return client.get(f"/api/tables/{o.table.pk}").status_code


def _put(client: APIClient, o: Open) -> int:
    body = {"entered_by": "Ben", "hands": _hands(o.table)}
    response = client.put(f"/api/tables/{o.table.pk}/games/1/result", body, format="json")
    if response.status_code != 201:
        assert not Deal.objects.filter(table=o.table).exists()
    return response.status_code


def _confirm(client: APIClient, o: Open) -> int:
    game = _enter_game_1(o.table)
    url = f"/api/tables/{o.table.pk}/games/1/confirm"
    response = client.post(url, {"confirmed_by": "Cy"}, format="json")
    game.refresh_from_db()
    assert (game.status == Deal.Status.CONFIRMED) == (response.status_code == 200)
    return response.status_code


def _sign_off(client: APIClient, o: Open) -> int:
    _finish_the_set(o)
    response = client.post(f"/api/tables/{o.table.pk}/sign-off", {"signer": "Di"}, format="json")
    o.table.refresh_from_db()
    assert o.table.is_signed_off() == (response.status_code == 200)
    return response.status_code


OPERATIONS = {
    "GET table": (_get, 200),
    "PUT result": (_put, 201),
    "confirm": (_confirm, 200),
    "sign off": (_sign_off, 200),
}


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("actor", ACTORS)
def test_permission_matrix(open_: Open, actor: str, operation: str) -> None:
    call, success = OPERATIONS[operation]
    assert call(ACTORS[actor](open_), open_) == expected(actor, success)


def test_a_refusal_does_not_say_whether_the_table_exists(open_: Open) -> None:
    client = _session("bob")
    missing = client.get("/api/tables/999999").json()
    theirs = client.get(f"/api/tables/{open_.table.pk}").json()
    assert (
        missing
        == theirs
        == {"errors": [{"rule": None, "field": None, "message": "No table of yours has this id."}]}
    )


def test_a_revoked_link_is_told_to_ask_for_the_new_one(open_: Open) -> None:
    response = _link(open_.revoked_token).get(f"/api/tables/{open_.table.pk}")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Table"
    assert "reissued" in response.json()["errors"][0]["message"]


def test_a_reissued_link_stops_working_at_once(open_: Open) -> None:
    client = _link(open_.table.access_token)
    assert client.get(f"/api/tables/{open_.table.pk}").status_code == 200
    table_link_reissue(table=open_.table, by=None)
    assert client.get(f"/api/tables/{open_.table.pk}").status_code == 401


@pytest.mark.parametrize("header", ["Table", "Table a b", "table \xe9t\xe9"])
def test_a_malformed_link_header_is_a_401(open_: Open, header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    assert client.get(f"/api/tables/{open_.table.pk}").status_code == 401


def test_a_session_write_needs_its_csrf_token(open_: Open) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(UserFactory(username="alice"))
    body = {"hands": _hands(open_.table)}
    response = client.put(f"/api/tables/{open_.table.pk}/games/1/result", body, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"][0]["message"]


def test_a_link_needs_no_csrf_token(open_: Open) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Table {open_.table.access_token}")
    body = {"entered_by": "Ann", "hands": _hands(open_.table)}
    response = client.put(f"/api/tables/{open_.table.pk}/games/1/result", body, format="json")
    assert response.status_code == 201


class TestViaLabels:
    """Who acted, as a result's history records it."""

    def test_a_link_user_is_the_table_link_and_their_name(self, open_: Open, rf) -> None:
        request = rf.get("/")
        request.auth = open_.table
        access = table_access(request, open_.table)
        assert access.via("  Marcia   Campbell ") == "table 1 link · Marcia Campbell"
        assert access.via("") == "table 1 link"
        assert access.user is None and access.can_write

    def test_a_signed_in_user_is_their_role_and_username(self, open_: Open, rf) -> None:
        request = rf.get("/")
        request.user = UserFactory(username="sam")
        access = table_access(request, open_.table)
        assert access.via("Anyone") == "scorekeeper sam"
        request.user = UserFactory(username="alice")
        assert table_access(request, open_.table).via_label == "director alice"

    def test_a_page_may_pass_the_token_from_its_path(self, open_: Open, rf) -> None:
        request = rf.get("/")
        request.user = UserFactory(username="rita")
        assert table_access(request, open_.table, link_token=open_.table.access_token).can_read
        assert not table_access(request, open_.table, link_token=open_.revoked_token).can_read

    def test_the_entry_and_confirmation_record_who_acted(self, open_: Open) -> None:
        table = open_.table
        body = {"entered_by": "Ann", "hands": _hands(table)}
        _link(table.access_token).put(f"/api/tables/{table.pk}/games/1/result", body, format="json")
        _api_token("sam").post(f"/api/tables/{table.pk}/games/1/confirm", {}, format="json")
        revision = Deal.objects.get(table=table).revisions.get()
        assert revision.entered_via == "table 1 link · Ann"
        assert (revision.confirmed_via, revision.confirmed_by.username) == (
            "scorekeeper sam",
            "sam",
        )
