"""The tournament API: who may call what, each endpoint, and refusals in the one error shape."""

import json

import pytest
from django.contrib.auth.models import Permission
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import EntryFactory, RoundFactory
from tests.tournament.conftest import count_queries
from tournament.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db
Status = Entry.Status


def as_user(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def ann(spring) -> Entry:
    return EntryFactory(
        tournament=spring,
        status=Status.REGISTERED,
        player__name="Ann Clarke",
        player__club="Half Way Tree",
    )


# (method, path, body) of every endpoint that names the Spring Open.
SPRING = [
    ("get", "/api/tournaments/spring-open", None),
    ("patch", "/api/tournaments/spring-open", {"venue": "Mandeville"}),
    ("get", "/api/tournaments/spring-open/entries", None),
    ("post", "/api/tournaments/spring-open/entries/check-in-all", None),
    ("post", "/api/tournaments/spring-open/players", {"name": "Desmond Brown"}),
    ("post", "/api/tournaments/spring-open/players/import", {"csv": "name\nDesmond Brown\n"}),
    ("post", "/api/tournaments/spring-open/entries/{ann}/check-in", None),
    ("post", "/api/tournaments/spring-open/entries/{ann}/withdraw", None),
    ("post", "/api/tournaments/spring-open/entries/{ann}/disqualify", {"reason": "Marked cards"}),
]
MINE = [("get", "/api/tournaments", None), ("post", "/api/tournaments", {"name": "x"})]


def call(client: APIClient, method: str, path: str, body, ann: Entry):
    return getattr(client, method)(path.format(ann=ann.pk), body, format="json")


@pytest.mark.parametrize(("method", "path", "body"), SPRING + MINE)
def test_anonymous_callers_are_refused(ann, method, path, body) -> None:
    response = call(as_user(), method, path, body, ann)
    assert response.status_code in (401, 403)
    assert response.json()["errors"][0]["message"]


@pytest.mark.parametrize(("method", "path", "body"), SPRING + MINE)
def test_a_scorekeeper_is_refused(kim, ann, method, path, body) -> None:
    response = call(as_user(kim), method, path, body, ann)
    assert response.status_code == 403
    assert response.json() == {
        "errors": [
            {"rule": None, "field": None, "message": "Only a tournament director may do this."}
        ]
    }


@pytest.mark.parametrize(("method", "path", "body"), SPRING)
def test_another_director_finds_no_such_tournament(bob, ann, method, path, body) -> None:
    assert call(as_user(bob), method, path, body, ann).status_code == 404
    ann.refresh_from_db()
    assert ann.status == Status.REGISTERED and ann.tournament.venue == "Half Way Tree"


@pytest.mark.parametrize(("method", "path", "body"), SPRING)
def test_the_director_may_call_each_endpoint(dana, ann, method, path, body) -> None:
    assert call(as_user(dana), method, path, body, ann).status_code in (200, 201)


def test_a_director_token_works_without_a_session(dana, spring) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=dana).key}")
    assert client.get("/api/tournaments/spring-open").status_code == 200


# Tournaments


def test_the_list_holds_only_my_tournaments_with_their_counts(dana, bob, ann) -> None:
    mine = as_user(dana).get("/api/tournaments").json()
    assert [t["slug"] for t in mine] == ["spring-open"]
    assert mine[0]["entries"] == {
        "registered": 1,
        "checked_in": 0,
        "withdrawn": 0,
        "disqualified": 0,
    }


def test_the_list_runs_the_same_queries_for_one_or_ten_tournaments(dana) -> None:
    client = as_user(dana)

    def queries_with(how_many: int) -> int:
        for index in range(how_many):
            client.post("/api/tournaments", NEW | {"name": f"Cup {index}"}, format="json")
        return count_queries(lambda: client.get("/api/tournaments"))

    assert queries_with(1) == queries_with(10)


def test_one_tournament_shows_its_game_and_ruleset_as_a_request_and_in_words(dana, spring) -> None:
    answer = as_user(dana).get("/api/tournaments/spring-open").json()
    assert (answer["game"], answer["game_name"]) == ("kalooki", "Kalooki")
    ruleset = answer["ruleset"]
    assert ruleset["request"] == {"preset": "asaj-2025"} and ruleset["changed"] == []
    assert (ruleset["preset"], ruleset["name"]) == ("asaj-2025", "ASAJ Kalooki Tournament 2025")
    assert (ruleset["table_size"], ruleset["min_table_size"], ruleset["max_table_size"]) == (
        5,
        3,
        6,
    )
    assert (
        "3 packs and 6 jokers: 162 cards; one card exists at most 3 times (R1.2)."
        in ruleset["words"]
    )
    assert ruleset["frozen_because"] is None
    assert (answer["starts_on"], answer["rounds_planned"]) == ("2026-04-18", 4)


NEW = {"name": "Summer Slam", "starts_on": "2026-07-04", "ends_on": "2026-07-05"}


def test_a_director_creates_a_tournament_and_directs_it(dana) -> None:
    response = as_user(dana).post("/api/tournaments", NEW | {"rounds_planned": 5}, format="json")
    assert response.status_code == 201
    assert (response.json()["slug"], response.json()["rounds_planned"]) == ("summer-slam", 5)
    assert as_user(dana).get("/api/tournaments/summer-slam").status_code == 200


def test_an_account_with_the_add_permission_creates_its_first(stranger) -> None:
    assert as_user(stranger).post("/api/tournaments", NEW, format="json").status_code == 403
    stranger.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    stranger = type(stranger).objects.get(pk=stranger.pk)  # forget the cached permissions
    assert as_user(stranger).get("/api/tournaments").json() == []
    assert as_user(stranger).post("/api/tournaments", NEW, format="json").status_code == 201


def test_a_refused_set_up_comes_back_in_the_one_error_shape(dana) -> None:
    response = as_user(dana).post(
        "/api/tournaments", NEW | {"ends_on": "2026-07-01"}, format="json"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "ends_on" and "cannot end (01 Jul 2026)" in error["message"]


def test_malformed_input_names_its_field(dana) -> None:
    response = as_user(dana).post("/api/tournaments", {"name": "x"}, format="json")
    assert {e["field"] for e in response.json()["errors"]} == {"starts_on"}  # a last day may wait
    response = as_user(dana).post(
        "/api/tournaments", {"name": "x", "starts_on": "x", "ends_on": "y"}, format="json"
    )
    assert {e["field"] for e in response.json()["errors"]} == {"starts_on", "ends_on"}


def test_a_director_changes_only_what_is_sent(dana, spring) -> None:
    response = as_user(dana).patch(
        "/api/tournaments/spring-open", {"venue": "Mandeville"}, format="json"
    )
    assert response.status_code == 200 and response.json()["venue"] == "Mandeville"
    spring.refresh_from_db()
    assert (spring.slug, spring.rounds_planned, spring.venue) == ("spring-open", 4, "Mandeville")


def test_the_slug_is_fixed_so_a_change_of_it_is_refused_and_nothing_changes(dana, spring) -> None:
    response = as_user(dana).patch(
        "/api/tournaments/spring-open", {"venue": "Mandeville", "slug": "moved"}, format="json"
    )
    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == ["slug"]
    spring.refresh_from_db()
    assert (spring.slug, spring.venue) == ("spring-open", "Half Way Tree")


def test_fewer_rounds_than_exist_is_refused_with_the_field(dana, spring) -> None:
    RoundFactory(tournament=spring, number=2)
    response = as_user(dana).patch(
        "/api/tournaments/spring-open", {"rounds_planned": 1}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "rounds_planned"


def test_the_ruleset_cannot_change_once_a_round_is_published(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1, status=Round.Status.PUBLISHED)
    response = as_user(dana).patch(
        "/api/tournaments/spring-open", {"ruleset": "club-four"}, format="json"
    )
    assert response.status_code == 409
    [error] = response.json()["errors"]
    assert error["field"] == "ruleset" and "round 1 has been published" in error["message"]


# Players and entries


def test_entries_are_listed_by_name_and_filtered(dana, spring, ann) -> None:
    EntryFactory(tournament=spring, status=Status.WITHDRAWN, player__name="Desmond Brown")
    client = as_user(dana)
    everyone = client.get("/api/tournaments/spring-open/entries").json()
    assert [(e["name"], e["status"]) for e in everyone] == [
        ("Ann Clarke", "registered"),
        ("Desmond Brown", "withdrawn"),
    ]
    assert everyone[0]["club"] == "Half Way Tree" and everyone[0]["id"] == ann.pk
    withdrawn = client.get("/api/tournaments/spring-open/entries?status=withdrawn").json()
    assert [e["name"] for e in withdrawn] == ["Desmond Brown"]
    found = client.get("/api/tournaments/spring-open/entries?search=ann").json()
    assert [e["name"] for e in found] == ["Ann Clarke"]
    bad = client.get("/api/tournaments/spring-open/entries?status=asleep")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "status"


def test_the_entries_list_runs_the_same_queries_for_5_or_50_entries(dana, spring) -> None:
    client = as_user(dana)

    def queries_with(how_many: int) -> int:
        spring.entries.all().delete()
        for index in range(how_many):
            EntryFactory(tournament=spring, status=Status.values[index % 4])
        response = client.get("/api/tournaments/spring-open/entries")
        assert len(response.json()) == how_many
        return count_queries(lambda: client.get("/api/tournaments/spring-open/entries"))

    few, many = queries_with(5), queries_with(50)
    assert few == many <= 6


def test_a_director_adds_a_player(dana, spring) -> None:
    response = as_user(dana).post(
        "/api/tournaments/spring-open/players",
        {"name": "Desmond Brown", "club": "Mandeville", "email": "des@example.com"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json() | {"name": "Desmond Brown", "status": "registered"} == response.json()
    assert spring.audit.get().action == "player.add"


def test_a_duplicate_player_is_refused(dana, ann) -> None:
    response = as_user(dana).post(
        "/api/tournaments/spring-open/players",
        {"name": "Ann Clarke", "club": "Half Way Tree"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "rule": None,
            "field": "name",
            "message": "Ann Clarke (Half Way Tree) is already entered in this tournament "
            "(registered)",
        }
    ]


def test_a_late_entry_after_round_1(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1)
    client = as_user(dana)
    refused = client.post("/api/tournaments/spring-open/players", {"name": "Zoe"}, format="json")
    assert refused.json()["errors"][0]["field"] == "late"
    late = client.post(
        "/api/tournaments/spring-open/players", {"name": "Zoe", "late": True}, format="json"
    )
    assert late.status_code == 201 and late.json()["is_late_entry"] is True


def test_a_clean_csv_enters_every_player(dana, spring) -> None:
    csv = "name;club\r\nAnn Clarke;Half Way Tree\r\nDesmond Brown;Mandeville\r\n"
    response = as_user(dana).post(
        "/api/tournaments/spring-open/players/import", {"csv": csv}, format="json"
    )
    assert response.status_code == 201
    assert [e["name"] for e in response.json()] == ["Ann Clarke", "Desmond Brown"]


def test_a_bad_csv_lists_every_bad_row_with_its_line(dana, spring, ann) -> None:
    csv = "name,club,email\nZoe Reid,,zoe@\n,Mandeville,\nAnn Clarke,Half Way Tree,\n"
    response = as_user(dana).post(
        "/api/tournaments/spring-open/players/import", {"csv": csv}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "errors": [
            {
                "rule": None,
                "field": "csv",
                "line": 2,
                "message": "Line 2: “zoe@” is not an email address",
            },
            {"rule": None, "field": "csv", "line": 3, "message": "Line 3: the name is missing"},
            {
                "rule": None,
                "field": "csv",
                "line": 4,
                "message": "Line 4: Ann Clarke (Half Way Tree) is already entered in this "
                "tournament (registered)",
            },
        ]
    }
    assert spring.entries.count() == 1


@pytest.mark.parametrize(
    ("action", "body", "before", "after"),
    [
        ("check-in", None, Status.REGISTERED, Status.CHECKED_IN),
        ("undo-check-in", None, Status.CHECKED_IN, Status.REGISTERED),
        ("withdraw", None, Status.CHECKED_IN, Status.WITHDRAWN),
        ("reinstate", None, Status.WITHDRAWN, Status.REGISTERED),
    ],
)
def test_a_director_changes_an_entry(dana, ann, action, body, before, after) -> None:
    Entry.objects.filter(pk=ann.pk).update(status=before)
    response = as_user(dana).post(
        f"/api/tournaments/spring-open/entries/{ann.pk}/{action}", body, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == after
    event = ann.tournament.audit.get()
    assert (event.actor, event.detail["to"]) == (dana, after)


def test_a_change_the_status_does_not_allow_is_a_409_with_the_reason(dana, ann) -> None:
    Entry.objects.filter(pk=ann.pk).update(status=Status.WITHDRAWN)
    response = as_user(dana).post(f"/api/tournaments/spring-open/entries/{ann.pk}/check-in")
    assert response.status_code == 409  # the state is in the way, not the request
    assert response.json()["errors"][0]["message"].startswith("Ann Clarke has withdrawn")


def test_a_disqualification_is_recorded_as_a_ruling(dana, ann) -> None:
    """R12.4: the same ruling the rulings page records, with the reason as its decision."""
    Entry.objects.filter(pk=ann.pk).update(status=Status.WITHDRAWN)
    response = as_user(dana).post(
        f"/api/tournaments/spring-open/entries/{ann.pk}/disqualify",
        {"reason": "Marked cards"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["status"] == Status.DISQUALIFIED
    ruling = ann.tournament.rulings.get()
    assert (ruling.kind, ruling.entry, ruling.decision) == ("disqualification", ann, "Marked cards")
    assert ruling.decided_by == dana
    actions = set(ann.tournament.audit.values_list("action", flat=True))
    assert {"entry.disqualify", "ruling.record"} <= actions


def test_a_disqualification_needs_a_reason(dana, ann) -> None:
    response = as_user(dana).post(f"/api/tournaments/spring-open/entries/{ann.pk}/disqualify")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "reason"


REINSTATE = "/api/tournaments/spring-open/entries/{}/reinstate"


def disqualified(dana, ann) -> None:
    """Dana disqualifies Ann through the API: a ruling (R12.4)."""
    as_user(dana).post(
        f"/api/tournaments/spring-open/entries/{ann.pk}/disqualify",
        {"reason": "Marked cards"},
        format="json",
    )


def test_reinstating_a_disqualified_player_reverses_the_ruling(dana, ann) -> None:
    """R12.4: the disqualification stays on record, reversed by a ruling that says who and why;
    the player's status, the rulings and the standings agree."""
    disqualified(dana, ann)
    response = as_user(dana).post(
        REINSTATE.format(ann.pk), {"reason": "The deck was the venue's."}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == Status.REGISTERED
    disqualification, reversal = ann.tournament.rulings.order_by("pk")
    assert reversal.reverses == disqualification
    assert (reversal.kind, reversal.reason, reversal.decided_by) == (
        "disqualification",
        "The deck was the venue's.",
        dana,
    )
    assert ann.tournament.audit.get(action="entry.reinstate").detail["ruling"] == reversal.pk


def test_reinstating_a_disqualified_player_needs_a_reason(dana, ann) -> None:
    disqualified(dana, ann)
    response = as_user(dana).post(REINSTATE.format(ann.pk))
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "reason" and "reverses the ruling" in error["message"]
    ann.refresh_from_db()
    assert ann.status == Status.DISQUALIFIED
    assert ann.tournament.rulings.count() == 1  # the disqualification, standing


def test_a_player_disqualified_without_a_ruling_is_reinstated_with_the_reason_logged(
    dana, ann
) -> None:
    """Before disqualifications were rulings, none was recorded: there is nothing to reverse."""
    Entry.objects.filter(pk=ann.pk).update(status=Status.DISQUALIFIED)
    response = as_user(dana).post(REINSTATE.format(ann.pk), {"reason": "Cleared."}, format="json")
    assert response.status_code == 200 and response.json()["status"] == Status.REGISTERED
    assert not ann.tournament.rulings.exists()
    assert ann.tournament.audit.get(action="entry.reinstate").detail["reason"] == "Cleared."


def test_reinstating_a_player_still_in_is_a_409_with_the_reason(dana, ann) -> None:
    response = as_user(dana).post(REINSTATE.format(ann.pk))
    assert response.status_code == 409  # the state is in the way, not the request
    assert "still in the tournament (registered)" in response.json()["errors"][0]["message"]


def test_an_entry_of_another_tournament_is_not_found(dana, bob) -> None:
    theirs = EntryFactory(tournament=Tournament.objects.get(slug="autumn-cup"))
    response = as_user(dana).post(f"/api/tournaments/spring-open/entries/{theirs.pk}/check-in")
    assert response.status_code == 404


def test_check_in_all_returns_the_entries(dana, spring, ann) -> None:
    response = as_user(dana).post("/api/tournaments/spring-open/entries/check-in-all")
    assert [e["status"] for e in response.json()] == ["checked_in"]


def test_the_tournament_api_is_in_the_openapi_schema(client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    paths = json.loads(response.content)["paths"]
    assert {
        "/api/tournaments",
        "/api/tournaments/{slug}",
        "/api/tournaments/{slug}/entries",
        "/api/tournaments/{slug}/players",
        "/api/tournaments/{slug}/players/import",
        "/api/tournaments/{slug}/entries/{entry_id}/check-in",
        "/api/tournaments/{slug}/entries/{entry_id}/undo-check-in",
        "/api/tournaments/{slug}/entries/{entry_id}/withdraw",
        "/api/tournaments/{slug}/entries/{entry_id}/disqualify",
        "/api/tournaments/{slug}/entries/{entry_id}/reinstate",
    } <= set(paths)
    assert {"get", "patch"} <= set(paths["/api/tournaments/{slug}"])
    assert {"get", "post"} <= set(paths["/api/tournaments"])
