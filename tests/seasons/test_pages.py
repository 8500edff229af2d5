"""The season, ratings and member pages and their API, on the autumn league of three nights.

Members' names show as each chose: Member 01 shows only "Member 01"'s first name and initial
once she asks for it, and a hidden member is never named on a public page or in the API.
"""

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Member
from seasons.models import Rating, SeasonTable
from tests.seasons.test_seasons import alice, autumn, league  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_the_season_page_lists_every_member_by_points(autumn) -> None:  # noqa: F811
    club, season, _nights = autumn
    page = Client().get(reverse("hall:season", args=[club.slug, season.slug])).content.decode()
    table = SeasonTable.objects.get(season=season)
    top = Member.objects.get(pk=table.rows[0]["member"])
    assert top.name in page and f">{table.rows[0]['points']}<" in page
    assert page.count("data-member=") == 30


def test_hidden_and_initial_names_are_kept_off_public_pages(autumn) -> None:  # noqa: F811
    club, season, _nights = autumn
    Member.objects.filter(number="M1").update(public_name="hidden", contact="m1@example.org")
    Member.objects.filter(number="M2").update(public_name="initial")
    client = Client()
    pages = [
        client.get(reverse("hall:season", args=[club.slug, season.slug])),
        client.get(reverse("hall:season", args=[club.slug, season.slug]) + "?projector=1"),
        client.get(reverse("hall:season-csv", args=[club.slug, season.slug])),
        client.get(reverse("hall:api-season", args=[club.slug, season.slug])),
        client.get(reverse("hall:ratings", args=[club.slug, "kalooki"])),
        client.get(reverse("hall:api-ratings", args=[club.slug, "kalooki"])),
    ]
    for response in pages:
        text = response.content.decode()
        assert response.status_code == 200
        assert "Member 01" not in text and "m1@example.org" not in text
        assert "Member 02" not in text
    assert "Member 02" not in pages[0].content.decode()


def test_the_ratings_api_matches_the_stored_ratings(autumn) -> None:  # noqa: F811
    club, _season, _nights = autumn
    lines = Client().get(reverse("hall:api-ratings", args=[club.slug, "kalooki"])).json()
    best = Rating.objects.filter(club=club).order_by("-display").first()
    assert lines[0]["member"] == best.member_id
    assert lines[0]["display"] == round(best.display, 2)
    assert all(line["provisional"] for line in lines)  # at most 2 matches each, under 5


def test_the_member_page_shows_events_rating_and_its_chart(autumn) -> None:  # noqa: F811
    club, _season, _nights = autumn
    member = Member.objects.get(number="M12")  # played nights 1 and 2
    response = Client().get(reverse("hall:member", args=[club.slug, member.pk]))
    page = response.content.decode()
    rating = Rating.objects.get(member=member)
    assert f"{rating.display:.2f}" in page and "<polyline" in page
    assert page.count("data-points") == 2
    history = Client().get(reverse("hall:api-member-history", args=[club.slug, member.pk]))
    assert [e["name"] for e in history.json()["events"]] == ["Night 13", "Night 6"]
    assert len(history.json()["history"]["kalooki"]) == 2


def test_the_season_json_is_the_documented_federation_shape(autumn) -> None:  # noqa: F811
    club, season, _nights = autumn
    body = Client().get(reverse("hall:api-season", args=[club.slug, season.slug])).json()
    assert set(body) == {"club", "season", "scale", "events", "table"}
    assert body["season"]["best_of"] == 2 and len(body["events"]) == 3
    assert set(body["table"][0]) == {
        "place",
        "member",
        "name",
        "points",
        "all_points",
        "wins",
        "events",
        "results",
    }


def test_the_schema_describes_the_club_and_season_endpoints(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for operation in (
        "clubs_list",
        "club_members_import",
        "club_member_merge",
        "club_member_erase",
        "season_table",
        "club_ratings",
        "member_history",
    ):
        assert operation in schema
