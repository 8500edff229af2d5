"""Seating a round by a mode through the service, the round page and the API: the
mode is chosen when seating, stored with the round like its seed, shown in words, and a round
that avoids repeats follows the previous round's design."""

import pytest
from rest_framework.test import APIClient

from scoring.rounds import round_publish
from tables.models import Seat, SeatingRecord
from tables.seating import SeatingError
from tables.selectors import seat_duties_before
from tables.services import round_seat
from tests.factories import RoundFactory
from tests.scoring.playing import director_of, tournament_with
from tournament.models import AuditEvent, Round

pytestmark = pytest.mark.django_db


def seat_round(tournament, number: int, **options) -> Round:
    round = RoundFactory(tournament=tournament, number=number)
    round_seat(round=round, seed=number, **options)
    return Round.objects.select_related("tournament").get(pk=round.pk)


def tables(round: Round) -> list[list[int]]:
    seats = Seat.objects.filter(round=round).order_by("table__number", "position")
    found: dict[int, list[int]] = {}
    for table, entry in seats.values_list("table__number", "entry_id"):
        found.setdefault(table, []).append(entry)
    return list(found.values())


def test_the_mode_and_what_it_read_are_stored_with_the_round() -> None:
    open_ = tournament_with(10)
    standing = list(open_.entries.order_by("-id").values_list("id", flat=True))
    round = seat_round(open_, 1, mode="standings", standing=standing)
    record = SeatingRecord.objects.get(round=round)
    assert (record.mode, record.standing) == ("standings", standing)
    assert record.mode_words.startswith("By standings")
    assert AuditEvent.objects.get(action="round.seat").detail["mode"] == "standings"


def test_the_same_seed_and_mode_give_the_same_tables() -> None:
    open_ = tournament_with(23)
    round = seat_round(open_, 1, mode="random")
    first = tables(round)
    round_seat(round=round, seed=1, mode="random")
    assert tables(round) == first


def test_a_round_that_avoids_repeats_follows_the_previous_rounds_design() -> None:
    open_ = tournament_with(25, rounds_planned=6)
    met: set[frozenset[int]] = set()
    for number in range(1, 7):
        round = seat_round(open_, number)
        place = SeatingRecord.objects.get(round=round).design
        assert (place["key"], place["round"]) == ("ag:2:5", number - 1)
        for table in tables(round):
            pairs = {frozenset((a, b)) for a in table for b in table if a < b}
            assert not pairs & met
            met |= pairs
        round_publish(round=round, by=None)
    assert len(met) == 25 * 24 // 2  # the affine plane: everyone met everyone once


def test_a_round_by_standings_stops_following_the_design() -> None:
    open_ = tournament_with(25, rounds_planned=3)
    round_publish(round=seat_round(open_, 1), by=None)
    second = seat_round(open_, 2, mode="standings", standing=[])
    assert SeatingRecord.objects.get(round=second).design == {}
    round_publish(round=second, by=None)
    third = seat_round(open_, 3)
    assert SeatingRecord.objects.get(round=third).design == {}  # met before: searched instead


def test_seating_by_rating_without_ratings_is_refused_and_changes_nothing() -> None:
    open_ = tournament_with(10)
    round = seat_round(open_, 1)
    before = tables(round)
    with pytest.raises(SeatingError, match="needs the players' ratings"):
        round_seat(round=round, seed=9, mode="rating_balanced")
    assert tables(round) == before
    assert SeatingRecord.objects.get(round=round).mode == "avoid_repeats"


def test_over_the_rounds_nobody_is_always_the_first_dealer_r4_3() -> None:
    open_ = tournament_with(5, rounds_planned=5)
    for number in range(1, 6):
        round_publish(round=seat_round(open_, number), by=None)
    duties = seat_duties_before(RoundFactory(tournament=open_, number=6))
    assert [duty.first_deals for duty in duties.values()] == [1] * 5
    assert [duty.first_plays for duty in duties.values()] == [1] * 5


# --- the round page and the API -----------------------------------------------------------------


def test_the_round_page_offers_the_modes_and_shows_the_one_used(client) -> None:
    open_ = tournament_with(10)
    client.force_login(director_of(open_))
    client.post(f"/director/{open_.slug}/rounds/add")
    page = client.get(f"/director/{open_.slug}/rounds/1/").content.decode()
    assert 'value="avoid_repeats"' in page and 'value="standings"' in page
    assert 'value="random"' in page and "rating" not in page.split('id="pinned-seats"')[0]
    page = client.post(
        f"/director/{open_.slug}/rounds/1/seat", {"mode": "random", "seed": 3}, follow=True
    ).content.decode()
    assert "Seated by: <strong>Random draw: tables drawn at random" in page


def test_the_round_page_refuses_a_mode_it_does_not_offer(client) -> None:
    open_ = tournament_with(10)
    client.force_login(director_of(open_))
    client.post(f"/director/{open_.slug}/rounds/add")
    page = client.post(
        f"/director/{open_.slug}/rounds/1/seat", {"mode": "rating_balanced"}, follow=True
    ).content.decode()
    assert "Select a valid choice" in page
    assert not Seat.objects.exists()


def test_the_api_seats_by_a_mode_and_says_it_in_words() -> None:
    open_ = tournament_with(25, rounds_planned=6)
    api = APIClient()
    api.force_authenticate(director_of(open_))
    base = f"/api/tournaments/{open_.slug}/rounds"
    body = api.post(base).json()
    assert (body["seating_mode"], body["seating_words"]) == (None, "Not seated yet.")
    body = api.post(f"{base}/1/seat", {"seed": 4}, format="json").json()
    assert body["seating_mode"] == "avoid_repeats"
    assert body["seating_words"] == (
        "Avoid repeats: everyone meets new opponents where possible; following round 1 of 6 of "
        "the affine plane AG(2, 5)."
    )
    body = api.post(f"{base}/1/seat", {"mode": "standings"}, format="json").json()
    assert body["seating_mode"] == "standings"


def test_the_api_refuses_seating_by_rating_until_ratings_exist() -> None:
    open_ = tournament_with(10)
    api = APIClient()
    api.force_authenticate(director_of(open_))
    base = f"/api/tournaments/{open_.slug}/rounds"
    api.post(base)
    response = api.post(f"{base}/1/seat", {"mode": "rating_balanced"}, format="json")
    assert response.status_code == 400
    assert "rating_balanced" in response.content.decode()
    assert not Seat.objects.exists()


def test_a_stage_seats_only_the_entries_it_names() -> None:
    open_ = tournament_with(12)
    finalists = list(open_.entries.order_by("id").values_list("id", flat=True)[:5])
    round = seat_round(open_, 1, entries=finalists)
    assert sorted(entry for table in tables(round) for entry in table) == finalists


def test_ratings_given_by_the_caller_seat_balanced_tables_and_are_stored() -> None:
    open_ = tournament_with(10)
    ids = list(open_.entries.order_by("id").values_list("id", flat=True))
    ratings = {entry: 1000 + 100 * i for i, entry in enumerate(ids)}
    round = seat_round(open_, 1, mode="rating_balanced", ratings=ratings)
    strengths = sorted(sum(ratings[e] for e in table) for table in tables(round))
    assert strengths[-1] - strengths[0] <= 100
    assert SeatingRecord.objects.get(round=round).ratings == {str(e): r for e, r in ratings.items()}
