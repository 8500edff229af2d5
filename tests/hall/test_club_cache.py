"""A club's pages held by the web process (hall/club_cache.py), on the autumn league: a visitor
without a session is answered from memory, and every change the pages show shows at once.

Alice directs the club; Member 05 played the first night; a visitor reads the pages in
English, another in French.
"""

import gzip

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Member
from clubs.pages import club_pages_version
from clubs.services import member_add
from scoring.members import member_erase
from seasons.ratings import ratings_recompute
from seasons.services import season_refresh
from tests.seasons.test_seasons import alice, autumn, league  # noqa: F401  (fixtures)
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


def pages(club, season, member: Member) -> list[str]:
    return [
        reverse("hall:season", args=[club.slug, season.slug]),
        reverse("hall:ratings", args=[club.slug, "kalooki"]),
        reverse("hall:member", args=[club.slug, member.pk]),
    ]


def test_a_visitor_without_a_session_is_answered_the_held_page_without_a_query(
    autumn,  # noqa: F811
    django_assert_num_queries,
) -> None:
    club, season, _nights = autumn
    season_page, ratings_page, member_page = pages(club, season, Member.objects.get(number="M5"))
    visitor = Client()
    drawn = {path: visitor.get(path).content for path in (season_page, ratings_page, member_page)}
    for path in (season_page, ratings_page):
        with django_assert_num_queries(0):
            again = visitor.get(path, headers={"Accept-Encoding": "gzip"})
        assert again["Content-Encoding"] == "gzip"
        assert gzip.decompress(again.content) == drawn[path]
    with django_assert_num_queries(0):  # the seat it shows was read within SEAT_SECONDS
        assert visitor.get(member_page).content == drawn[member_page]


def test_an_erased_member_leaves_every_held_page_at_once(autumn, alice) -> None:  # noqa: F811
    club, season, _nights = autumn
    member = Member.objects.get(number="M5")
    visitor = Client()
    for path in pages(club, season, member):
        assert "Member 05" in visitor.get(path).content.decode()
    member_erase(member=member, by=alice)
    for path in pages(club, season, member):
        assert "Member 05" not in visitor.get(path).content.decode()


def test_the_version_moves_on_with_each_write_the_pages_show(autumn, alice) -> None:  # noqa: F811
    club, season, _nights = autumn
    first = club_pages_version(club.slug)
    assert club_pages_version(club.slug) == first  # asked again: the same
    season_refresh(season_id=season.pk)  # nothing new: nothing written
    assert club_pages_version(club.slug) == first
    ratings_recompute(club=club, game="kalooki")
    second = club_pages_version(club.slug)
    assert second != first
    member_add(club=club, by=alice, name="Newcomer")
    assert club_pages_version(club.slug) not in (first, second)


def test_a_member_seated_now_shows_on_the_held_page_after_seat_seconds(
    autumn,  # noqa: F811
    monkeypatch,
) -> None:
    club, _season, nights = autumn
    monkeypatch.setattr("hall.club_cache.SEAT_SECONDS", 0)  # each request compares the seat
    member = Member.objects.get(number="M20")  # plays the third night
    path = reverse("hall:member", args=[club.slug, member.pk])
    visitor = Client()
    assert "Playing now" not in visitor.get(path).content.decode()
    assert "Playing now" not in visitor.get(path).content.decode()  # held: the same seat
    Tournament.objects.filter(pk=nights[2].pk).update(status="running")
    Round.objects.filter(tournament=nights[2]).update(status="in_play")
    assert f"Playing now: {nights[2].name}, round 1" in visitor.get(path).content.decode()


def test_a_signed_in_director_and_a_query_string_go_the_whole_way(autumn, alice) -> None:  # noqa: F811
    club, season, _nights = autumn
    path = reverse("hall:season", args=[club.slug, season.slug])
    assert "Sign out" not in Client().get(path).content.decode()
    director = Client()
    director.force_login(alice)
    assert "Sign out alice" in director.get(path).content.decode()
    projector = Client().get(path + "?projector=1").content.decode()
    assert "season-table" not in projector and "Member" in projector


def test_each_language_is_held_apart(autumn) -> None:  # noqa: F811
    club, season, _nights = autumn
    path = reverse("hall:season", args=[club.slug, season.slug])
    english = Client().get(path, headers={"Accept-Language": "en-GB"})
    french = Client().get(path, headers={"Accept-Language": "fr"})
    assert "Large print" in english.content.decode() and english["Content-Language"] == "en-gb"
    assert "Grands caractères" in french.content.decode() and french["Content-Language"] == "fr"
    again = Client().get(path, headers={"Accept-Language": "en-GB"})
    assert "Large print" in again.content.decode()
