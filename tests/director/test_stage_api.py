"""The director's API for stages: a 23-player Kalooki event, three qualifying rounds,
a cut to a final table of five with seats drawn, the final played, and the final standings with
the finalists first, read from the public standings API.

Alice directs the Open; Bob directs another tournament. The qualifying rounds' games are stored
by factories (the scorekeepers' API has its own tests); the stage steps and the final's
round steps go through the director's API.
"""

import pytest
from rest_framework.test import APIClient

from scoring.standings import standings_refresh
from tests.scoring.playing import director_of, play, tournament_with
from tests.scoring.stage_play import fill_qualifying
from tournament.models import AuditEvent, Round

pytestmark = pytest.mark.django_db

API = "/api/tournaments/open"
PLAN = {
    "stages": [
        {"kind": "qualifying", "rounds": 3},
        {"kind": "final", "rounds": 1, "size": 5, "scoring": "fresh", "seats": "drawn"},
    ]
}


@pytest.fixture(autouse=True)
def standings_read_fresh(monkeypatch) -> None:
    """Each public read sees the newest standings (a web process reuses them for 0.2 s)."""
    monkeypatch.setattr("config.caches.PUBLIC_RECENT.seconds", 0)


@pytest.fixture
def open_():
    return tournament_with(23, name="Open", slug="open", is_published=True)


@pytest.fixture
def alice(open_) -> APIClient:
    client = APIClient()
    client.force_authenticate(director_of(open_))
    return client


def public_standings(tournament) -> dict:
    """The public standings API's answer, once the standings task has run (it runs on commit,
    and a test's transaction never commits)."""
    standings_refresh(tournament_id=tournament.pk)
    return APIClient().get(f"/api/tournaments/{tournament.slug}/standings").json()


def refusal(response, status: int) -> str:
    assert response.status_code == status, response.content
    [error] = response.json()["errors"]
    return error["message"]


def test_the_whole_event_through_the_api(alice, open_) -> None:
    response = alice.put(f"{API}/stages", PLAN, format="json")
    assert response.status_code == 200, response.content
    final = response.json()[1]
    assert (final["first_round"], final["size"], final["entrants"]) == (4, 5, [])
    assert final["scoring_words"].startswith("Fresh")
    message = refusal(alice.post(f"{API}/stages/2/cut", {}, format="json"), 409)
    assert "waits for rounds 1 to 3" in message
    fill_qualifying(open_)
    qualifying = public_standings(open_)
    top = [row["entry"] for row in qualifying["players"][:5]]
    assert [row["place"] for row in qualifying["players"][:5]] == [1, 2, 3, 4, 5]

    response = alice.post(f"{API}/stages/2/cut", {"seed": 11}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["number"] == 4 and body["seating_mode"] == "random"
    [table] = body["tables"]
    assert sorted(seat["entry"] for seat in table["seats"]) == sorted(top)
    assert alice.get(f"{API}/stages").json()[1]["entrants"] == top  # by seed

    for step in ("publish", "start"):
        assert alice.post(f"{API}/rounds/4/{step}").status_code == 200
    final_table = Round.objects.get(tournament=open_, number=4).tables.get()
    for number in range(1, 10):
        play(final_table, number, winner=number % 5)
    assert alice.post(f"{API}/rounds/4/complete").status_code == 200

    standings = public_standings(open_)
    first = standings["players"][:5]
    assert sorted(row["entry"] for row in first) == sorted(top)
    assert [(row["place"], row["stage"]) for row in first] == [(n, 2) for n in range(1, 6)]
    finals = [row["rounds"]["4"] for row in first]
    assert finals == sorted(finals)  # fresh: the final alone orders them, lowest first (R12.3)
    assert standings["players"][5]["place"] == 6
    assert [stage["name"] for stage in standings["stages"]] == ["Qualifying", "Final table"]
    assert standings["stages"][1]["order"] == [row["entry"] for row in first]
    assert AuditEvent.objects.filter(tournament=open_, action="stage.cut").count() == 1


@pytest.mark.parametrize(
    ("final", "words"),
    [
        ({"size": 24}, "larger than the field (23 entered)"),
        ({"size": 7}, "a final table of 7 is not allowed"),
        ({"size": 5, "carry_percent": 0}, "carry_percent"),
    ],
    ids=["cut-larger-than-field", "table-too-big", "share-out-of-range"],
)
def test_a_plan_the_game_cannot_play_is_refused_and_nothing_changes(alice, open_, final, words):
    plan = {"stages": [PLAN["stages"][0], {"kind": "final", "rounds": 1, **final}]}
    assert words in str(alice.put(f"{API}/stages", plan, format="json").json())
    assert not open_.stages.exists()


def test_a_stage_begun_cannot_change_409(alice, open_) -> None:
    assert alice.put(f"{API}/stages", PLAN, format="json").status_code == 200
    assert alice.post(f"{API}/rounds").status_code == 201
    assert alice.post(f"{API}/rounds/1/seat", {"seed": 1}, format="json").status_code == 200
    assert alice.post(f"{API}/rounds/1/publish").status_code == 200
    changed = {"stages": [{"kind": "qualifying", "rounds": 4}, PLAN["stages"][1]]}
    message = refusal(alice.put(f"{API}/stages", changed, format="json"), 409)
    assert "its first round is published" in message
    assert open_.stages.get(number=1).rounds == 3


def test_an_unknown_field_and_another_directors_tournament_are_refused(alice, open_) -> None:
    bad = {"stages": [{"kind": "qualifying", "rounds": 3, "cut": 5}]}
    assert alice.put(f"{API}/stages", bad, format="json").status_code == 400
    bob = APIClient()
    bob.force_authenticate(director_of(tournament_with(3, slug="cup"), "bob"))
    assert bob.put(f"{API}/stages", PLAN, format="json").status_code == 404
    assert bob.post(f"{API}/stages/2/cut", {}, format="json").status_code == 404
    assert not open_.stages.exists()
