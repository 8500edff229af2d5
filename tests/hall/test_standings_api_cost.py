"""What keeps the standings API cheap: the ETag is compared with the snapshot's head
before the standings are read, and a 200 is bytes prepared once per version.
"""

import json

import pytest
from django.test import Client

from scoring.standings import standings_current
from tests.hall.conftest import refreshed
from tests.scoring.playing import play
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

API = "/api/tournaments/open/standings"


def test_a_304_never_reads_the_standings(
    client: Client, tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshed(tournament)
    etag = client.get(API)["ETag"]

    def unread(**kwargs: object) -> None:
        raise AssertionError("the standings were read for a 304")

    monkeypatch.setattr("hall.selectors.standings_current", unread)
    monkeypatch.setattr("scoring.standings.standings_current", unread)
    assert client.get(API, headers={"If-None-Match": etag}).status_code == 304


def test_a_200_is_rendered_once_per_version(
    client: Client, tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshed(tournament)
    rendered = []
    real = __import__("hall.api", fromlist=["_json"])._json
    monkeypatch.setattr("hall.api._json", lambda data: rendered.append(1) or real(data))
    plain = [client.get(API, headers={"Accept-Encoding": "gzip, deflate"}) for _ in range(3)]
    assert len(rendered) == 1
    assert {response.content for response in plain} == {plain[0].content}
    assert "Content-Encoding" not in plain[0]  # API clients take the body as it is sent
    assert plain[0]["Content-Type"] == "application/json"
    assert json.loads(plain[0].content) == standings_current(tournament=tournament)


def test_a_new_version_is_rendered_again(client: Client, tournament: Tournament, table_one):
    old = client.get(API).json()
    play(table_one, 1)
    refreshed(tournament)
    new = client.get(API, headers={"If-None-Match": f'W/"{tournament.pk}.{old["version"]}"'})
    assert new.status_code == 200 and new.json()["version"] == old["version"] + 1


def test_the_crowd_s_shortcut_answers_the_api_and_its_refusals(
    client: Client, tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a session cookie the API is answered right after WhiteNoise, as the
    leaderboard is (`hall.middleware.LeaderboardShortcut`): the same body, the same JSON 404."""
    refreshed(tournament)
    reached = []
    monkeypatch.setattr(
        "django.contrib.sessions.middleware.SessionMiddleware.process_request",
        lambda self, request: reached.append(request.path),
    )
    assert client.get(API).json()["version"] >= 1
    missing = client.get("/api/tournaments/nowhere/standings")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert missing.json()["errors"] and reached == []  # no session was looked at
