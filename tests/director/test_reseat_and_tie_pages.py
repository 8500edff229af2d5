"""The director's pages for re-seats and ties: "Re-seat this table" on the table page
(R12.4) and the order of a tie across the cut line on the Stages page (R12.3), each a form
that calls the same service as the API, showing a refusal's reason with nothing changed."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Ruling
from scoring.rounds import round_add, round_complete, round_publish
from tables.services import round_seat
from tests.scoring.playing import director_of, entry, play, published_round, tournament_with
from tests.scoring.stage_play import final_of, plan_stages, standings
from tournament.stage_services import StagePlan

pytestmark = pytest.mark.django_db


def client_of(tournament) -> Client:
    client = Client()
    client.force_login(director_of(tournament))
    return client


@pytest.fixture
def table():
    """Five players at one table of a published round; games 1 and 2 played."""
    round = published_round(tournament_with(5))
    table = round.tables.get()
    for number in (1, 2):
        play(table, number, winner=number, points=number * 4)
    return table


def seat_order(table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))


def reseat_url(table) -> str:
    round = table.round
    return reverse(
        "director:director-reseat", args=[round.tournament.slug, round.number, table.number]
    )


def reseat_post(order: list[int], games: dict[int, str], decision: str = "Swap back") -> dict:
    data = {f"reseat-seat_{n}": str(e) for n, e in enumerate(order, 1)}
    data |= {f"reseat-game_{n}": fate for n, fate in games.items()}
    return data | {"reseat-decision": decision, "reseat-reason": "Found after game 2."}


def test_the_table_page_offers_the_reseat_form_prefilled_with_todays_seats(table) -> None:
    client = client_of(table.round.tournament)
    url = reverse(
        "director:director-table",
        args=[table.round.tournament.slug, table.round.number, table.number],
    )
    html = client.get(url).content.decode()
    assert "Re-seat this table" in html
    first = seat_order(table)[0]
    assert f'<option value="{first}" selected>' in html
    assert 'name="reseat-game_1"' in html and 'name="reseat-game_2"' in html
    assert 'name="reseat-game_3"' not in html  # only the deals played


def test_reseat_keeps_one_game_replays_the_other_and_says_so(table) -> None:
    tournament = table.round.tournament
    ann, ben = entry(tournament, "Ann").pk, entry(tournament, "Ben").pk
    order = seat_order(table)
    new = [ben, ann, *order[2:]] if order[:2] == [ann, ben] else [order[1], order[0], *order[2:]]
    before = dict(table.deals.get(number=1).results.values_list("entry_id", "points"))

    response = client_of(tournament).post(
        reseat_url(table), reseat_post(new, {1: "keep", 2: "replay"}), follow=True
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "is re-seated" in html and "Kept as played: 1. To be replayed: 2." in html
    assert seat_order(table) == new
    after = dict(table.deals.get(number=1).results.values_list("entry_id", "points"))
    assert after[new[0]] == before[order[0]] and after[new[1]] == before[order[1]]
    assert table.deals.get(number=2).is_void
    ruling = Ruling.objects.get(table=table)
    assert ruling.kind == Ruling.Kind.SEATING_CHANGE and ruling.decision == "Swap back"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("stranger", "Select a valid choice"),
        ("same seats", "Nobody changes seat"),
        ("twice", "Give each of the 5 players"),
        ("no fate", "keep or replay each deal played"),
    ],
)
def test_a_refused_reseat_shows_its_reason_and_changes_nothing(table, change, words) -> None:
    order = seat_order(table)
    games = {1: "keep", 2: "replay"}
    new = [order[1], order[0], *order[2:]]
    if change == "same seats":
        new = order
    elif change == "twice":
        new = [order[0], *order[:4]]
    elif change == "no fate":
        games = {1: "keep"}
    data = reseat_post(new, games)
    if change == "stranger":
        data["reseat-seat_1"] = "999999"

    response = client_of(table.round.tournament).post(reseat_url(table), data)

    assert response.status_code == 200
    html = response.content.decode()
    assert "Nothing was changed" in html and words in html
    assert seat_order(table) == order
    assert not table.deals.filter(is_void=True).exists()
    assert not Ruling.objects.filter(table=table).exists()


def test_reseat_is_refused_once_the_round_is_complete(table) -> None:
    order = seat_order(table)
    table.round.status = "complete"
    table.round.save(update_fields=["status"])
    new = [order[1], order[0], *order[2:]]
    response = client_of(table.round.tournament).post(
        reseat_url(table), reseat_post(new, {1: "keep", 2: "keep"}), follow=True
    )
    assert "seats no longer change (R12.4)" in response.content.decode()
    assert seat_order(table) == order


@pytest.fixture
def tied():
    """Eight players, one qualifying round with places shared two by two; a final of 3, so
    two entries are level across the cut line."""
    tournament = tournament_with(8)
    plan_stages(tournament, StagePlan("qualifying", 1), final_of(3))
    round = round_add(tournament=tournament, by=None)
    round_seat(round=round, seed=3)
    round = round_publish(round=round, by=None)
    for table in round.tables.all():
        for number in range(1, 10):
            play(table, number, winner=number % 3)
    round_complete(round=round, by=None)
    order = standings(tournament)["players"]
    level = [row["entry"] for row in order if row["place"] == order[2]["place"]]
    above = [row["entry"] for row in order if row["place"] < order[2]["place"]]
    return tournament, level, above


def cut_url(tournament) -> str:
    return reverse("director:stage-cut", args=[tournament.slug, 2])


def test_a_tie_at_the_cut_lists_the_tied_and_the_directors_order_makes_the_cut(tied) -> None:
    tournament, level, above = tied
    client = client_of(tournament)

    refused = client.post(cut_url(tournament), {"seed": "5"})

    html = refused.content.decode()
    assert refused.status_code == 200 and "A tie across the cut line" in html
    assert "Nothing was done" in html and "level at place" in html
    for entry_id in level:
        assert f'name="place_{entry_id}"' in html
    assert 'name="seed" value="5"' in html
    assert not tournament.stages.get(number=2).entrants.exists()

    places = {f"place_{entry_id}": str(n) for n, entry_id in enumerate(reversed(level), 1)}
    made = client.post(cut_url(tournament), {"seed": "5", **places}, follow=True)

    assert "The cut to the final" in made.content.decode()
    final = tournament.rounds.get(number=2)
    through = set(final.seats.values_list("entry_id", flat=True))
    assert set(above) <= through and len(through) == 3
    assert level[-1] in through  # the play-off's winner goes through


@pytest.mark.parametrize(
    ("places", "words"),
    [
        (lambda level: {f"place_{e}": "1" for e in level}, "each once"),
        (lambda level: {f"place_{level[0]}": "first"}, "as a whole number"),
        (lambda level: {f"place_{e}": str(n) for n, e in enumerate(level[1:], 1)}, "level at"),
    ],
)
def test_a_bad_order_for_the_tie_is_refused_and_no_cut_is_made(tied, places, words) -> None:
    tournament, level, _ = tied
    response = client_of(tournament).post(cut_url(tournament), places(level), follow=True)
    html = response.content.decode()
    assert "Nothing was done" in html and words in html
    assert not tournament.stages.get(number=2).entrants.exists()
    assert not tournament.rounds.filter(number=2).exists()
