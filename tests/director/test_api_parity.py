"""API parity: every action a director takes on a page has an endpoint in the OpenAPI schema,
through the same service; and every endpoint refuses a field it does not know (`config.api`).

Alice directs the Open, ten players at two tables of five in round 1 (published). Her calls use
her API token, as a script's would.
"""

from typing import Any

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import spectacular_settings
from rest_framework import serializers
from rest_framework.test import APIClient

from config.api import Input
from scoring.models import ClockEvent, Deal, DirectorCall
from scoring.services import HandInput, result_record
from tests.scoring.playing import director_of, published_round, tables_of, tournament_with
from tests.test_permission_matrix import PAGE_CASES, url_patterns
from tournament.models import AuditEvent, Round, Tournament

pytestmark = pytest.mark.django_db

# Each director page that takes a POST, and the API endpoints (URL names) that do the same.
PARITY = {
    "director:tournament-new": ["tournaments"],
    "director:tournament-edit": ["tournament"],
    "director:tournament-status": ["tournament"],  # PATCH {"status": ...}
    "director:players": ["players-add", "teams-add"],
    "director:players-import": ["players-import"],
    "director:club-members": ["club-members-import"],
    "director:check-in-all": ["entries-check-in-all"],
    "director:check-in-window": ["check-in-window-open", "check-in-window-close"],
    "director:entry-action": [
        "entry-check-in",
        "entry-undo-check-in",
        "entry-withdraw",
        "entry-disqualify",
        "entry-reinstate",
    ],
    "director:team-edit": ["team-update"],
    "director:pairing-refuse": ["entry-refuse-pairing"],
    "director:rule-check": ["rules-meld", "rules-contract", "rules-tack-on", "rules-game"],
    "director:round-add": ["api-rounds"],
    "director:round-publish": ["api-round-publish"],
    "director:round-unpublish": ["api-round-unpublish"],
    "director:round-start": ["api-round-start"],
    "director:round-complete": ["api-round-complete"],
    "director:round-reopen": ["api-round-reopen"],
    "director:round-lock": ["api-round-lock"],
    "director:round-remove": ["api-round"],  # DELETE
    "director:round-seat": ["api-round-seat"],
    "director:seat-swap": ["api-round-swap"],
    "director:seat-move": ["api-round-move"],
    "director:seat-ruling": ["api-round-seat-change"],
    "director:table-link-reissue": ["api-table-link-reissue"],
    "director:round-clock": [
        "api-round-clock-start",
        "api-round-clock-pause",
        "api-round-clock-resume",
        "api-round-clock-extend",
    ],
    "director:table-clock": [
        "api-table-clock-pause",
        "api-table-clock-resume",
        "api-table-clock-extend",
    ],
    "director:call-answer": ["api-call-answer"],
    "director:round-time": ["api-round-time"],
    "director:table-time": ["api-table-time", "api-table-time-withdraw"],
    "director:director-table": ["api-table-result"],  # a paper score sheet's result
    "director:director-correct": ["api-table-result"],  # with the version it corrects
    "director:director-confirm": ["api-table-confirm"],
    "director:director-clear-flag": ["api-table-clear-flag"],
    "director:director-sign-off": ["api-table-sign-off"],
    "director:director-reseat": ["api-table-reseat"],
    "director:stages": ["api-stages"],
    "director:stage-cut": ["api-stage-cut"],
    "director:pin-add": ["api-pins"],
    "director:pin-remove": ["api-pin"],
    "director:rulings": ["api-rulings"],
    "director:ruling-reverse": ["api-ruling-reverse"],
    "director:entry-reinstate": ["entry-reinstate"],
}
# Pages the permission matrix leaves to a Hand and Foot tournament (its NOT_IN_MATRIX).
TEAM_AND_TIME_PAGES = {
    "director:team-edit",
    "director:pairing-refuse",
    "director:table-time",
    "director:round-time",
}


def schema_endpoints() -> list[tuple[str, str, type, Any]]:
    """(method, path, view class, request serializer) of every operation of the OpenAPI schema:
    the request as drf-spectacular describes it (None for an operation that takes no body)."""
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    found = []
    for path, path_regex, method, view in generator._get_paths_and_endpoints():
        view.request = spectacular_settings.GET_MOCK_REQUEST(method, path, view, None)
        schema = view.schema
        schema.method, schema.path, schema.path_regex = method, path, path_regex
        found.append((method, path, type(view), schema.get_request_serializer()))
    return found


def test_every_director_page_action_has_an_endpoint_in_the_schema() -> None:
    posts = {c.name for c in PAGE_CASES if c.method == "POST" and c.name.startswith("director:")}
    assert posts | TEAM_AND_TIME_PAGES == set(PARITY), "a page's action without its API"
    patterns = dict(url_patterns())
    in_schema = {view for _, _, view, _ in schema_endpoints()}
    for page, names in PARITY.items():
        for name in names:
            assert name in patterns, (page, name)
            assert patterns[name].callback.cls in in_schema, (page, name)


def _inputs(serializer: serializers.Serializer) -> list[serializers.Serializer]:
    """The serializer and every serializer nested in it."""
    found = [serializer]
    for field in serializer.fields.values():
        child = getattr(field, "child", field)
        if isinstance(child, serializers.Serializer):
            found += _inputs(child)
    return found


def test_every_request_body_of_the_schema_refuses_an_unknown_field() -> None:
    writes = [e for e in schema_endpoints() if e[0] in ("POST", "PUT", "PATCH", "DELETE")]
    assert len(writes) > 40
    for method, path, _, declared in writes:
        if declared is None:
            continue  # a body-less endpoint: checked against `NoInput` (the matrix tries each)
        serializer = declared() if isinstance(declared, type) else declared
        for part in _inputs(serializer):
            assert isinstance(part, Input), f"{method} {path}: {type(part).__name__}"


# --- the tournament's status --------------------------------------------------------------------


@pytest.fixture
def open_() -> Tournament:
    return tournament_with(10, name="Open", slug="open")


@pytest.fixture
def alice(open_: Tournament) -> APIClient:
    client = APIClient()
    client.force_authenticate(director_of(open_))
    return client


def test_the_status_is_set_by_patch_as_on_the_overview_page(alice, open_) -> None:
    answer = alice.patch("/api/tournaments/open", {"status": "running"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "running"
    open_.refresh_from_db()
    assert open_.status == Tournament.Status.RUNNING
    assert AuditEvent.objects.filter(tournament=open_, action="tournament.status").exists()
    again = alice.patch("/api/tournaments/open", {"status": "running"}, format="json")
    assert again.status_code == 200  # already so: nothing to change


def test_a_status_refused_leaves_the_rest_of_the_patch_unsaved(alice, open_) -> None:
    published_round(open_)
    venue = open_.venue
    body = {"venue": "Mandeville", "status": "finished"}
    answer = alice.patch("/api/tournaments/open", body, format="json")
    assert answer.status_code == 400
    assert "Lock every round first" in answer.json()["errors"][0]["message"]
    open_.refresh_from_db()
    assert (open_.status, open_.venue) == (Tournament.Status.RUNNING, venue)


def test_a_status_it_does_not_have_is_a_400_naming_the_field(alice) -> None:
    answer = alice.patch("/api/tournaments/open", {"status": "over"}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "status"


@pytest.mark.parametrize(
    "body",
    [{"statuss": "finished"}, {"venue": "Mandeville", "finished": True}],
    ids=["misspelt", "beside-a-known-field"],
)
def test_a_field_the_patch_does_not_know_is_a_400_naming_it(alice, open_, body) -> None:
    venue = open_.venue
    answer = alice.patch("/api/tournaments/open", body, format="json")
    assert answer.status_code == 400
    [unknown] = [name for name in body if name != "venue"]
    [error] = answer.json()["errors"]
    assert error["field"] == unknown and f"There is no field '{unknown}' here" in error["message"]
    assert "status" in error["message"]  # the fields it does take, named
    open_.refresh_from_db()
    assert (open_.status, open_.venue) == (Tournament.Status.SETUP, venue)


# --- the control room ---------------------------------------------------------------------------


@pytest.fixture
def round_1(open_: Tournament) -> Round:
    return published_round(open_)


def base(round: Round) -> str:
    return f"/api/tournaments/{round.tournament.slug}/rounds/{round.number}"


def test_the_round_clock_is_started_paused_resumed_and_extended(alice, round_1) -> None:
    url = base(round_1) + "/clock"
    assert alice.get(url).json()["round"]["state"] == "not_started"
    started = alice.post(url + "/start", {"minutes": 100}, format="json")
    assert started.status_code == 200
    assert started.json()["round"] | {"elapsed_seconds": 0} == started.json()["round"]
    assert started.json()["round"]["allowed_seconds"] == 6000
    paused = alice.post(url + "/pause", {"reason": "Fire drill"}, format="json").json()
    assert paused["round"]["state"] == "paused"
    assert alice.post(url + "/resume").json()["round"]["state"] == "running"
    extended = alice.post(url + "/extend", {"minutes": 10}, format="json").json()
    assert extended["round"]["allowed_seconds"] == 6600
    assert ClockEvent.objects.filter(round=round_1).count() == 4


def test_a_clock_step_the_round_does_not_allow_is_a_409_saying_why(alice, round_1) -> None:
    url = base(round_1) + "/clock"
    refused = alice.post(url + "/pause", format="json")
    assert refused.status_code == 409
    assert "has not started: start it first" in refused.json()["errors"][0]["message"]
    too_long = alice.post(url + "/start", {"minutes": 601}, format="json")
    assert too_long.status_code == 400 and too_long.json()["errors"][0]["field"] == "minutes"
    assert not ClockEvent.objects.exists()


def test_a_table_that_started_late_is_extended_alone(alice, round_1) -> None:
    alice.post(base(round_1) + "/clock/start", format="json")
    answer = alice.post(
        base(round_1) + "/tables/2/clock/extend", {"minutes": 7, "reason": "Late"}, format="json"
    )
    assert answer.status_code == 200
    [table] = answer.json()["tables"]
    assert (table["table"], table["table_extra_minutes"]) == (2, 7)
    assert answer.json()["round"]["allowed_seconds"] == 120 * 60  # Kalooki: 120 (R4.1)
    assert alice.post(base(round_1) + "/tables/9/clock/pause").status_code == 404


def test_a_call_is_listed_then_answered_once(alice, round_1) -> None:
    table = tables_of(round_1)[0]
    call = DirectorCall.objects.create(table=table, called_via="table 1 link · Ann")
    [waiting] = alice.get(base(round_1) + "/calls").json()
    assert (waiting["id"], waiting["table"], waiting["called_via"]) == (
        call.pk,
        1,
        "table 1 link · Ann",
    )
    answered = alice.post(base(round_1) + f"/calls/{call.pk}/answer")
    assert answered.status_code == 200 and answered.json()["answered_by"] == "alice"
    again = alice.post(base(round_1) + f"/calls/{call.pk}/answer")
    assert again.status_code == 409 and "answered already" in again.json()["errors"][0]["message"]
    assert alice.get(base(round_1) + "/calls").json() == []


def _flagged(table) -> Deal:
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    hands = [HandInput(seats[0], went_out=True, cards="", calls=0)]
    hands += [HandInput(seats[1], cards="JK AS 2C", calls=0)]  # 3 cards, no call: R10.6
    hands += [HandInput(entry, points=9) for entry in seats[2:]]
    outcome = result_record(table=table, number=1, hands=hands, via="t", confirm_warnings=True)
    return outcome.deal if hasattr(outcome, "deal") else outcome


def test_a_flag_is_cleared_with_its_reason(alice, round_1) -> None:
    deal = _flagged(tables_of(round_1)[0])
    assert deal.is_flagged
    url = base(round_1) + "/tables/1/games/1/clear-flag"
    assert alice.post(url, {}, format="json").json()["errors"][0]["field"] == "reason"
    answer = alice.post(url, {"reason": "Counted again: right."}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {
        "table": 1,
        "game": 1,
        "version": 1,
        "flagged": False,
        "reason": "Counted again: right.",
    }
    deal.refresh_from_db()
    assert not deal.is_flagged
    again = alice.post(url, {"reason": "Twice."}, format="json")
    assert again.status_code == 409 and "not flagged" in again.json()["errors"][0]["message"]
    assert (
        alice.post(base(round_1) + "/tables/1/games/2/clear-flag", {"reason": "x"}).status_code
        == 404
    )


# --- endpoints outside the director's matrix ------------------------------------------------------


def test_the_table_api_refuses_a_field_it_does_not_know(alice, round_1) -> None:
    table = tables_of(round_1)[0]
    seats = list(table.seats.order_by("position").values_list("position", flat=True))
    sides = [{"seat": seats[0], "values": {"went_out": True, "cards": ""}}]
    sides += [{"seat": seat, "values": {"points": 12}} for seat in seats[1:]]
    url = f"/api/tables/{table.pk}/games/1/result"
    for body, field in [
        ({"sides": sides, "comment": "late"}, "comment"),
        ({"sides": [{**sides[0], "side": 1}, *sides[1:]]}, "sides.0.side"),
    ]:
        answer = alice.put(url, body, format="json")
        assert answer.status_code == 400, answer.content
        assert field in [error["field"] for error in answer.json()["errors"]]
    assert not table.deals.exists()
    assert alice.put(url, {"sides": sides}, format="json").status_code == 201
    sign = alice.post(
        f"/api/tables/{table.pk}/sign-off", {"signer": "Ann", "by": "x"}, format="json"
    )
    assert sign.status_code == 400 and sign.json()["errors"][0]["field"] == "by"


def test_the_rules_and_token_apis_refuse_a_field_they_do_not_know(client) -> None:
    meld = client.post(
        "/api/rules/meld", {"cards": "5H 5C 5D", "colour": "red"}, content_type="application/json"
    )
    assert meld.status_code == 400 and meld.json()["errors"][0]["field"] == "colour"
    token = client.post(
        reverse("api-token"),
        {"username": "x", "password": "y", "remember": True},
        content_type="application/json",
    )
    assert token.status_code == 400
    assert "remember" in [error["field"] for error in token.json()["errors"]]
