"""Seasons and ratings: the Half Way Tree club's autumn league of three Kalooki nights.

Alice directs the club. Members 1-15 play night 1, members 10-24 night 2, members 16-30 night 3
(overlapping fields of 15: three tables of five). The season counts the best 2 nights.
"""

import pytest
from django.db import transaction

from scoring.models import StandingsSnapshot
from scoring.rulings import ruling_record
from scoring.standings import standings_refresh
from seasons.models import Rating, RatingChange, SeasonTable
from seasons.points import MemberSeason, event_points, season_rows
from seasons.ratings import ratings_recompute, ratings_refresh
from seasons.services import season_add_event, season_create, season_refresh
from seasons.tasks import refresh_event
from tests.factories import UserFactory
from tests.seasons.nights import club_of, expected_points, expected_ratings, night

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def league(django_db_setup, django_db_blocker):
    """The club, its season (best 2) and three nights, each refreshed as a worker would: built
    once for the module; each test runs in a transaction rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        alice = UserFactory(username="alice")
        club = club_of(alice)
        season = season_create(club=club, by=alice, name="Autumn league", game="kalooki",
                               best_of=2)  # fmt: skip
        nights = []
        for day, numbers in ((6, range(1, 16)), (13, range(10, 25)), (20, range(16, 31))):
            nights.append(night(club, alice, day, numbers))
            season_add_event(season=season, tournament=nights[-1], by=alice)
            standings_refresh(tournament_id=nights[-1].pk)  # what the worker does after the
            refresh_event(nights[-1].pk)  # commit, which never comes inside this transaction
        yield alice, (club, season, nights)
        transaction.set_rollback(True)


@pytest.fixture
def alice(league):
    return league[0]


@pytest.fixture
def autumn(league):
    for tournament in league[1][2]:
        tournament.refresh_from_db()
    return league[1]


def latest(tournament):
    return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version")[0].data


def test_the_scale_is_one_point_per_entry_behind_and_one_for_playing() -> None:
    assert [event_points(place, 15) for place in (1, 2, 15)] == [15, 14, 1]


def test_best_n_counts_and_level_members_share_a_place() -> None:
    ann = MemberSeason(1, "Ann", [(1, 1, 15), (2, 9, 7), (3, 2, 14)])
    ben = MemberSeason(2, "Ben", [(1, 2, 14), (2, 1, 15)])
    cy = MemberSeason(3, "Cy", [(1, 2, 14), (3, 1, 15)])
    rows = season_rows([cy, ben, ann], best_of=2)
    assert [(r["member"], r["place"], r["points"]) for r in rows] == [
        (1, 1, 29),
        (2, 2, 29),
        (3, 2, 29),
    ]  # fmt: skip  Ann ahead on every event's points (36); Ben and Cy level on all four
    assert [r["counted"] for r in rows[0]["results"]] == [True, False, True]


def test_the_season_table_follows_the_points_scale(autumn) -> None:
    _club, season, nights = autumn
    points: dict[int, list[int]] = {}
    for tournament in nights:
        for member, p in expected_points(tournament, latest(tournament)).items():
            points.setdefault(member, []).append(p)
    best_two = {member: sum(sorted(p, reverse=True)[:2]) for member, p in points.items()}
    table = SeasonTable.objects.get(season=season)
    assert {row["member"]: row["points"] for row in table.rows} == best_two
    assert len(table.rows) == 30 and [e["field"] for e in table.events] == [15, 15, 15]
    assert [row["points"] for row in table.rows] == sorted(best_two.values(), reverse=True)


def test_the_ratings_are_openskills_plackett_luce_from_each_table(autumn) -> None:
    club, _season, nights = autumn
    expected = expected_ratings(nights)
    found = {r.member_id: (r.display, r.games) for r in Rating.objects.filter(club=club)}
    assert found.keys() == expected.keys()
    for member, (display, games) in expected.items():
        assert found[member][0] == pytest.approx(display, abs=1e-3)
        assert found[member][1] == games


def test_a_recompute_from_scratch_gives_identical_numbers(autumn) -> None:
    club, _season, _nights = autumn
    before = list(RatingChange.objects.order_by("seq", "member").values_list(
        "member", "seq", "mu", "sigma"))  # fmt: skip
    ratings_recompute(club=club, game="kalooki")
    after = list(RatingChange.objects.order_by("seq", "member").values_list(
        "member", "seq", "mu", "sigma"))  # fmt: skip
    assert before == after and len(before) == 45


def test_a_refresh_with_nothing_new_writes_nothing(autumn) -> None:
    club, season, _nights = autumn
    ids = set(RatingChange.objects.values_list("pk", flat=True))
    version = SeasonTable.objects.get(season=season).version
    ratings_refresh(club_id=club.pk, game="kalooki")
    season_refresh(season_id=season.pk)
    assert set(RatingChange.objects.values_list("pk", flat=True)) == ids
    assert SeasonTable.objects.get(season=season).version == version


def test_a_ruling_on_the_last_night_moves_the_table_and_ratings_after_it_only(
    autumn, alice, django_capture_on_commit_callbacks
) -> None:
    club, season, nights = autumn
    first_two = list(RatingChange.objects.filter(seq__lte=6).order_by("seq", "member")
                     .values_list("member", "mu", "sigma"))  # fmt: skip
    winner = latest(nights[2])["tables"][0]["sides"][0]["entries"][0]
    rows_before = SeasonTable.objects.get(season=season).rows
    with django_capture_on_commit_callbacks(execute=True):
        ruling_record(tournament=nights[2], by=alice, kind="penalty_points",
                      entry=nights[2].entries.get(pk=winner), points=500,
                      decision="Showed a card to the table (R12.4).")  # fmt: skip
        standings_refresh(tournament_id=nights[2].pk)
    assert SeasonTable.objects.get(season=season).rows != rows_before
    assert list(RatingChange.objects.filter(seq__lte=6).order_by("seq", "member")
                .values_list("member", "mu", "sigma")) == first_two  # fmt: skip
    moved = RatingChange.objects.get(seq__gt=6, member__players__entries=winner)
    assert moved.place == 5  # last at the table now
    assert {r.member_id: r.games for r in Rating.objects.filter(club=club)} == {
        m: g for m, (_d, g) in expected_ratings(nights).items()
    }


def test_another_clubs_event_or_game_cannot_join(autumn, alice) -> None:
    from clubs.services import ClubError, club_create
    from tests.factories import TournamentFactory

    _club, season, _nights = autumn
    other = TournamentFactory(club=club_create(name="Kingston", by=None))
    with pytest.raises(ClubError, match="is not an event of Half Way Tree"):
        season_add_event(season=season, tournament=other, by=alice)
    parcellus = TournamentFactory(club=season.club, game="parcellus")
    with pytest.raises(ClubError, match="plays Parcellus"):
        season_add_event(season=season, tournament=parcellus, by=alice)
    assert season.tournaments.count() == 3


def test_the_task_is_safe_to_run_twice(autumn) -> None:
    club, season, nights = autumn
    refresh_event(nights[0].pk)
    refresh_event(nights[0].pk)
    assert SeasonTable.objects.get(season=season).version >= 1
    assert Rating.objects.filter(club=club).count() == 30


def test_round_1_of_the_next_night_seats_by_rating(autumn, alice) -> None:
    """Seating by rating (balanced) reads the members' ratings once they exist."""
    from rest_framework.test import APIClient

    from tables.models import SeatingRecord
    from tournament.services import entries_check_in_all, players_import_csv, tournament_create

    club, _season, _nights = autumn
    import datetime

    day = datetime.date(2026, 10, 27)
    fourth = tournament_create(by=alice, name="Night 27", starts_on=day, ends_on=day, club=club)
    rows = "\n".join(f"Member {n:02},M{n}" for n in range(1, 11))
    players_import_csv(tournament=fourth, by=alice, text=f"name,number\n{rows}\n")
    entries_check_in_all(tournament=fourth, by=alice)
    api = APIClient()
    api.force_authenticate(alice)
    base = f"/api/tournaments/{fourth.slug}/rounds"
    api.post(base)
    body = api.post(f"{base}/1/seat", {"mode": "rating_balanced"}, format="json").json()
    assert body["seating_mode"] == "rating_balanced"
    record = SeatingRecord.objects.get(round__tournament=fourth)
    ratings = {r.member_id: r.display for r in Rating.objects.filter(club=club)}
    by_entry = {e.pk: ratings[e.player.member_id] for e in fourth.entries.select_related("player")}
    assert {int(k): v for k, v in record.ratings.items()} == pytest.approx(by_entry)


def test_a_new_night_rates_only_its_tables_and_keeps_the_history_before(
    autumn, alice, django_capture_on_commit_callbacks
) -> None:
    club, _season, nights = autumn
    before = dict(RatingChange.objects.values_list("pk", "seq"))
    with django_capture_on_commit_callbacks(execute=True):
        fourth = night(club, alice, 27, range(1, 6))  # one table of five
    after = dict(RatingChange.objects.values_list("pk", "seq"))
    assert {pk: seq for pk, seq in after.items() if pk in before} == before  # not rewritten
    assert sorted(set(after.values()) - set(before.values())) == [10]  # the one new match
    expected = expected_ratings([*nights, fourth])
    for rating in Rating.objects.filter(club=club):
        assert rating.display == pytest.approx(expected[rating.member_id][0], abs=1e-3)


def test_a_hand_and_foot_table_rates_each_team_as_a_team() -> None:
    """HF1.2: a side is a team of two partners; openskill rates the two teams of the table."""
    from types import SimpleNamespace

    from openskill.models import PlackettLuce

    from seasons.ratings import Book, _matches

    rows = [{"table": 1, "sides": [{"entries": [7], "place": 2}, {"entries": [8], "place": 1}]}]
    [match] = _matches(99, rows, {7: (1, 2), 8: (3, 4)})
    assert match.sides == (((1, 2), 2), ((3, 4), 1))
    book = Book({}, [], 0)
    book.rate(match, SimpleNamespace(pk=1), "hand_and_foot")
    model = PlackettLuce()
    teams = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                       ranks=[2, 1])  # fmt: skip
    expected = {1: teams[0][0], 2: teams[0][1], 3: teams[1][0], 4: teams[1][1]}
    for member, rating in expected.items():
        assert book.ratings[member][:2] == pytest.approx((rating.mu, rating.sigma))
