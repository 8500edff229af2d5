"""The director's teams pages (HF1.2): a team added with its two partners, a players file with a
team column, a team edited, a pairing refused with its note; names are text, never markup."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

import games
from tables.services import round_seat
from tests.factories import RoundFactory, StaffRoleFactory, TournamentFactory, team_entry
from tournament.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    game = games.get("hand_and_foot")
    return TournamentFactory(slug="club", game="hand_and_foot", ruleset=game.dump(game.ruleset()))


@pytest.fixture
def director(client: Client, club) -> Client:
    client.force_login(StaffRoleFactory(tournament=club, user__username="dana").user)
    return client


def test_the_teams_page_adds_a_team_with_both_partners(director: Client, club) -> None:
    page = director.get("/director/club/players").content.decode()
    assert "<h1>Teams</h1>" in page and "Add a team" in page and "(HF1.2)" in page
    form = {
        "team_name": "<b>Aces</b>",
        "partner_1_name": "Ann Lee",
        "partner_1_club": "Kingston",
        "partner_2_name": "Cy Moss",
    }
    response = director.post("/director/club/players", form, follow=True)
    page = response.content.decode()
    assert "Team &lt;b&gt;Aces&lt;/b&gt; is entered." in page and "<b>Aces</b>" not in page
    assert "Ann Lee (Kingston) &amp; Cy Moss" in page
    entry = Entry.objects.get()
    assert entry.partner_names() == "Ann Lee & Cy Moss"


def test_a_team_refused_by_the_service_shows_on_its_field(director: Client, club) -> None:
    form = {"team_name": "Aces", "partner_1_name": "Ann", "partner_2_name": "ann"}
    page = director.post("/director/club/players", form).content.decode()
    assert "cannot partner themselves: a team is two players (HF1.2)" in page
    assert not Entry.objects.exists()


def test_a_players_file_with_a_team_column_imports_teams(director: Client, club) -> None:
    text = "name,team\nAnn,Aces\nCy,Aces\nBo,Kings\n"
    page = director.post("/director/club/players/import", {"text": text}).content.decode()
    assert "Nothing was imported" in page
    assert '<td class="num">4</td><td>team “Kings” has one partner: a team is two (HF1.2)' in page
    text += "Di,Kings\n"
    response = director.post("/director/club/players/import", {"text": text}, follow=True)
    assert "Imported 2 teams." in response.content.decode()
    assert sorted(Entry.objects.values_list("team_name", flat=True)) == ["Aces", "Kings"]


def test_the_director_edits_a_team_and_refuses_a_pairing(director: Client, club) -> None:
    entry = team_entry(club, "Spouses", ("Ann Lee", "Al Lee"), status=Entry.Status.REGISTERED)
    edit = f"/director/club/players/{entry.pk}/team"
    assert 'value="Al Lee"' in director.get(edit).content.decode()
    refuse = f"/director/club/players/{entry.pk}/refuse-pairing"
    assert (
        "Spouses or close friends may not partner (HF1.2)" in director.get(refuse).content.decode()
    )
    response = director.post(refuse, {"note": "Married to each other"}, follow=True)
    page = response.content.decode()
    assert "The pairing of Spouses is refused (HF1.2)." in page
    assert "Pairing refused" in page and "Married to each other" in page
    form = {"team_name": "Lee & Moss", "partner_1_name": "Ann Lee", "partner_2_name": "Cy Moss"}
    director.post(edit, form)
    entry.refresh_from_db()
    assert (entry.team_name, entry.partner_names()) == ("Lee & Moss", "Ann Lee & Cy Moss")
    assert entry.status == Entry.Status.REFUSED  # reinstated by the director, next


def test_a_kalooki_tournament_keeps_its_players_page(client: Client) -> None:
    kalooki = TournamentFactory(slug="k")
    client.force_login(StaffRoleFactory(tournament=kalooki, user__username="kim").user)
    page = client.get("/director/k/players").content.decode()
    assert "Add a player" in page and "Add a team" not in page


@pytest.mark.parametrize("page", ["team", "refuse-pairing"])
def test_only_the_tournaments_directors_reach_a_teams_pages(client: Client, club, page) -> None:
    entry = team_entry(club, "Aces")
    path = f"/director/club/players/{entry.pk}/{page}"
    assert client.get(path).status_code == 302  # to sign in
    other = TournamentFactory(slug="other")
    client.force_login(StaffRoleFactory(tournament=other, user__username="bob").user)
    assert client.get(path).status_code == 404
    assert client.post(path, {"note": "x", "team_name": "Mine"}).status_code == 404
    entry.refresh_from_db()
    assert (entry.status, entry.team_name) == (Entry.Status.CHECKED_IN, "Aces")


def test_table_cards_and_score_sheets_are_shaped_for_teams(director: Client, club) -> None:
    for name in ("Aces", "Kings"):
        team_entry(club, name)
    round_seat(round=RoundFactory(tournament=club), seed=3)
    cards = director.get("/director/club/rounds/1/print/cards").content.decode()
    assert "Aces One" in cards and "Aces Two" in cards and "· Aces" in cards
    assert "Partners sit opposite: seats 1 and 3, seats 2 and 4;" in cards
    assert "at seats 1 &amp; 3" in cards and "at seats 2 &amp; 4" in cards
    sheets = director.get("/director/club/rounds/1/print/sheets").content.decode()
    assert sheets.count('class="box team-box"') == 2 * 3  # two teams, three hands (HF2.1)
    assert "Red books ____ × 500" in sheets and "Time called after hand" in sheets
    assert "meld 150" in sheets


def test_the_api_enters_a_team_lists_its_partners_and_refuses_its_pairing(club) -> None:
    api = APIClient()
    api.force_authenticate(StaffRoleFactory(tournament=club, user__username="dana").user)
    body = {"team_name": "Aces", "partners": [{"name": "Ann Lee"}, {"name": "Cy Moss"}]}
    created = api.post("/api/tournaments/club/teams", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["name"] == "Aces"
    assert [p["name"] for p in created.json()["partners"]] == ["Ann Lee", "Cy Moss"]
    alone = api.post("/api/tournaments/club/teams", {"partners": [{"name": "Bo"}]}, format="json")
    assert alone.status_code == 400 and "HF1.2" in alone.content.decode()
    entry = created.json()["id"]
    refused = api.post(f"/api/tournaments/club/entries/{entry}/refuse-pairing", {"note": "Wed"})
    assert refused.json()["status"] == "refused" and refused.json()["status_note"] == "Wed"
    (listed,) = api.get("/api/tournaments/club/entries").json()
    assert listed["team_name"] == "Aces" and len(listed["partners"]) == 2


def test_only_the_tournaments_directors_use_the_teams_api(club) -> None:
    entry = team_entry(club, "Aces")
    body = {"partners": [{"name": "Bo"}, {"name": "Di"}]}
    paths = [
        "/api/tournaments/club/teams",
        f"/api/tournaments/club/entries/{entry.pk}/refuse-pairing",
    ]
    api = APIClient()
    assert [api.post(path, body | {"note": "x"}, format="json").status_code for path in paths] == [
        403,
        403,
    ]
    bob = StaffRoleFactory(tournament=TournamentFactory(slug="cup"), user__username="bob").user
    api.force_authenticate(bob)
    assert [api.post(path, body | {"note": "x"}, format="json").status_code for path in paths] == [
        404,
        404,
    ]
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN and club.entries.count() == 1


def test_the_api_renames_a_team_and_corrects_its_partners_as_the_edit_page_does(club) -> None:
    entry = team_entry(club, "Aces")
    path = f"/api/tournaments/club/teams/{entry.pk}"
    body = {"team_name": "High Aces", "partners": [{"name": "Aces One"}, {"name": "Bo Hill"}]}
    api = APIClient()
    assert api.put(path, body, format="json").status_code == 403
    bob = StaffRoleFactory(tournament=TournamentFactory(slug="cup"), user__username="bob").user
    api.force_authenticate(bob)
    assert api.put(path, body, format="json").status_code == 404
    entry.refresh_from_db()
    assert entry.team_name == "Aces"
    api.force_authenticate(StaffRoleFactory(tournament=club, user__username="dana").user)
    answer = api.put(path, body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["name"] == "High Aces"
    assert [p["name"] for p in answer.json()["partners"]] == ["Aces One", "Bo Hill"]
    alone = api.put(path, {"partners": [{"name": "Bo"}]}, format="json")
    assert alone.status_code == 400 and "HF1.2" in alone.content.decode()
    late = api.put(path, {**body, "late": True}, format="json")
    assert late.status_code == 400 and late.json()["errors"][0]["field"] == "late"
