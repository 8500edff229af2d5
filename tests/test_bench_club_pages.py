"""bench/bench_club_pages.py measures what it says (issue 32): its club has a season table of
every member who played, a rating for each, and pages that answer; and it deletes every row it
made."""

import pytest

import bench.bench_club_pages as bench
from clubs.models import Club, Member
from scoring.models import StandingsSnapshot
from seasons.models import Rating, RatingChange, SeasonTable
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


def test_its_club_answers_every_page_and_leaves_nothing_behind(settings) -> None:
    settings.ALLOWED_HOSTS = [bench.HOST]
    club, paths = bench.setup_club(members=45, events=2)
    played = Player.objects.filter(tournament__club=club).values("member").distinct().count()
    table = SeasonTable.objects.get(season__club=club)
    assert len(table.rows) == played and len(table.events) == 2
    assert Rating.objects.filter(club=club).count() == played
    assert paths["member"].endswith(f"/members/{max_rated(club)}")
    drawn = bench.drawn(paths)
    assert set(drawn) == {"season", "ratings", "member"}
    assert all(queries <= 6 for queries, _seconds in drawn.values())
    bench.forget_club(club)
    assert not Club.objects.filter(slug=bench.SLUG).exists()
    assert not Member.objects.filter(club=club.pk).exists()
    assert not Tournament.objects.filter(slug__startswith=bench.SLUG).exists()
    assert not StandingsSnapshot.objects.filter(tournament__slug__startswith=bench.SLUG).exists()
    assert not RatingChange.objects.filter(club=club.pk).exists()


def max_rated(club: Club) -> int:
    """The member with the most matches rated (the lowest id of those level)."""
    games = Rating.objects.filter(club=club).order_by("-games", "member").first()
    return games.member_id
