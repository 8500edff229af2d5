"""Byes (PA7.1, HF11.1): who sits out when the game's table plan leaves players over, kept as
`tables.Bye`, moved by hand in a draft, shown on the round page and in the round API."""

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

import games
from scoring.rounds import round_publish
from tables.models import Bye, Seat
from tables.seating import (
    MeetingHistory,
    SeatingError,
    choose_byes,
    plan_event,
    seat_round_with_byes,
)
from tables.services import SeatingClosed, round_seat, seat_swap
from tests.factories import RoundFactory
from tests.scoring.other_games import game_tournament
from tests.scoring.playing import NAMES, director_of
from tournament.models import Entry, Round

PARCELLUS = games.get("parcellus")
RULES = PARCELLUS.rules(PARCELLUS.ruleset())


def test_the_byes_go_to_the_fewest_byes_then_the_lowest_standing() -> None:
    players = [1, 2, 3, 4, 5]
    standing = [5, 4, 3, 2, 1]  # player 1 is last
    assert choose_byes(players, 1, standing=standing) == [1]
    assert choose_byes(players, 1, byes_so_far={1: 1}, standing=standing) == [2]
    assert choose_byes(players, 2, byes_so_far={1: 1, 2: 1}, standing=standing) == [3, 4]
    assert choose_byes(players, 0, standing=standing) == []


def test_a_player_without_a_place_yet_counts_as_below_everyone() -> None:
    assert choose_byes([1, 2, 3, 4], 1, standing=[1, 2, 3]) == [4]


def test_level_players_are_drawn_by_the_seed() -> None:
    drawn = {choose_byes(list(range(10)), 1, seed=seed)[0] for seed in range(40)}
    assert len(drawn) > 3
    assert choose_byes(list(range(10)), 1, seed=5) == choose_byes(list(range(10)), 1, seed=5)


def test_ten_parcellus_players_sit_at_three_tables_and_one_sits_out_pa7_1() -> None:
    seating = seat_round_with_byes(list(range(10)), {}, seed=3, rules=RULES, standing=[])
    assert [len(table) for table in seating.tables] == [3, 3, 3]
    assert len(seating.byes) == 1
    seated = sorted(p for table in seating.tables for p in table)
    assert sorted(seated + seating.byes) == list(range(10))


def test_nobody_sits_out_twice_while_another_has_not_sat_out() -> None:
    byes_so_far: dict[int, int] = {}
    for round in range(10):
        seating = seat_round_with_byes(
            list(range(10)), {}, seed=round, rules=RULES, byes_so_far=byes_so_far
        )
        [bye] = seating.byes
        byes_so_far[bye] = byes_so_far.get(bye, 0) + 1
    assert byes_so_far == dict.fromkeys(range(10), 1)


def test_a_plan_in_advance_refuses_byes_with_what_to_do() -> None:
    with pytest.raises(SeatingError, match="10 players leave 1 without a table each round"):
        plan_event(10, 2, seed=1, rules=RULES)


# --- the services ------------------------------------------------------------------------------


@pytest.fixture
def ten():
    tournament = game_tournament("parcellus", rounds_planned=3)
    for name in NAMES[:10]:
        tournament.entries.create(
            player=tournament.players.create(name=name, club="Mona"),
            status=Entry.Status.CHECKED_IN,
        )
    return tournament


def seated(tournament, number: int, **options) -> Round:
    round = RoundFactory(tournament=tournament, number=number)
    round_seat(round=round, seed=number, **options)
    return Round.objects.select_related("tournament").get(pk=round.pk)


@pytest.mark.django_db
def test_the_service_stores_the_bye_and_the_next_round_gives_it_to_another(ten) -> None:
    first = seated(ten, 1)
    assert first.tables.count() == 3 and first.seats.count() == 9
    [bye_one] = Bye.objects.filter(round=first)
    round_publish(round=first, by=None)
    second = seated(ten, 2)
    [bye_two] = Bye.objects.filter(round=second)
    assert bye_two.entry_id != bye_one.entry_id
    assert not Seat.objects.filter(round=second, entry_id=bye_two.entry_id).exists()


@pytest.mark.django_db
def test_the_lowest_standing_without_a_bye_sits_out(ten) -> None:
    entries = list(ten.entries.order_by("player__name").values_list("pk", flat=True))
    round = seated(ten, 1, standing=entries[::-1])  # the first by name is last
    assert Bye.objects.get(round=round).entry_id == entries[0]


@pytest.mark.django_db
def test_seating_again_replaces_the_byes(ten) -> None:
    round = seated(ten, 1)
    round_seat(round=round, seed=99)
    assert Bye.objects.filter(round=round).count() == 1


@pytest.mark.django_db
def test_a_player_has_at_most_one_bye_a_round(ten) -> None:
    round = seated(ten, 1)
    bye = Bye.objects.get(round=round)
    with pytest.raises(IntegrityError):
        Bye.objects.create(round=round, entry_id=bye.entry_id)


@pytest.mark.django_db
def test_the_director_gives_the_bye_to_a_seated_player_in_a_draft(ten) -> None:
    round = seated(ten, 1)
    bye = Bye.objects.select_related("entry__player").get(round=round)
    seat = Seat.objects.select_related("entry__player", "table").filter(round=round).first()
    swapped, _ = seat_swap(round=round, entry_a=bye.entry, entry_b=seat.entry, by=None)
    assert (swapped.entry_id, swapped.table_id, swapped.position) == (
        bye.entry_id, seat.table_id, seat.position,
    )  # fmt: skip
    assert swapped.is_first_dealer == seat.is_first_dealer
    assert Bye.objects.get(round=round).entry_id == seat.entry_id
    assert ten.audit.filter(action="bye.swap").exists()


@pytest.mark.django_db
def test_two_players_with_a_bye_cannot_swap(ten) -> None:
    ten.entries.create(player=ten.players.create(name="Kit"), status=Entry.Status.CHECKED_IN)
    round = seated(ten, 1)  # 11 players: two byes
    a, b = (bye.entry for bye in Bye.objects.select_related("entry__player").filter(round=round))
    with pytest.raises(SeatingError, match="both have a bye in round 1"):
        seat_swap(round=round, entry_a=a, entry_b=b, by=None)


@pytest.mark.django_db
def test_after_publishing_a_bye_moves_only_by_a_ruling(ten) -> None:
    round = round_publish(round=seated(ten, 1), by=None)
    bye = Bye.objects.select_related("entry__player").get(round=round)
    seat = Seat.objects.select_related("entry__player").filter(round=round).first()
    with pytest.raises(SeatingClosed, match="a change now is a ruling"):
        seat_swap(round=round, entry_a=bye.entry, entry_b=seat.entry, by=None)


# --- pages and API ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_round_page_shows_the_bye_and_the_bye_rule_in_words(ten, client) -> None:
    director = director_of(ten)
    client.force_login(director)
    client.post(f"/director/{ten.slug}/rounds/add")
    response = client.post(f"/director/{ten.slug}/rounds/1/seat", {"seed": 4}, follow=True)
    page = response.content.decode()
    assert "Seated 9 players at 3 tables, 1 with a bye" in page
    bye = Bye.objects.select_related("entry__player").get(round__tournament=ten)
    assert 'id="byes"' in page and bye.entry.player.name in page
    assert "A bye counts as the player&#x27;s average match so far" in page  # PA7.2
    assert "PA7.2" in page


@pytest.mark.django_db
def test_the_round_api_lists_the_byes_and_moves_one(ten) -> None:
    api = APIClient()
    api.force_authenticate(director_of(ten))
    base = f"/api/tournaments/{ten.slug}/rounds"
    assert api.post(base).status_code == 201
    body = api.post(f"{base}/1/seat", {"seed": 7}, format="json").json()
    [bye] = body["byes"]
    assert set(bye) == {"entry", "player", "club"} and "PA7.2" in body["bye_rule"]
    seated_entry = body["tables"][0]["seats"][0]["entry"]
    body = api.post(f"{base}/1/swap", {"entries": [bye["entry"], seated_entry]}, format="json")
    assert body.status_code == 200, body.content
    assert [b["entry"] for b in body.json()["byes"]] == [seated_entry]
    assert body.json()["tables"][0]["seats"][0]["entry"] == bye["entry"]


@pytest.mark.parametrize("seed", range(0, 50, 10))
def test_ten_players_over_three_rounds_meet_new_opponents_and_sit_out_once_each(seed) -> None:
    """Tables of three avoid repeat meetings round after round (PA7.1), with a different
    player sitting out each round."""
    history, byes_so_far = MeetingHistory(), {}
    for round in range(seed + 1, seed + 4):
        seating = seat_round_with_byes(
            list(range(10)), history, seed=round, rules=RULES, byes_so_far=byes_so_far
        )
        history = history.after(seating.tables)
        for player in seating.byes:
            byes_so_far[player] = byes_so_far.get(player, 0) + 1
    assert history.repeats().pairs_met_twice == 0
    assert sorted(byes_so_far.values()) == [1, 1, 1]


@pytest.mark.django_db
def test_a_round_whose_bye_has_withdrawn_is_not_published(ten) -> None:
    from scoring.rounds import RoundError

    round = seated(ten, 1)
    bye = Bye.objects.select_related("entry__player").get(round=round)
    Entry.objects.filter(pk=bye.entry_id).update(status=Entry.Status.WITHDRAWN)
    with pytest.raises(RoundError, match=f"{bye.entry.player.name} is withdrawn but has a bye"):
        round_publish(round=round, by=None)


@pytest.mark.django_db
def test_the_round_pages_swap_form_moves_the_bye(ten, client) -> None:
    client.force_login(director_of(ten))
    round = seated(ten, 1)
    bye = Bye.objects.get(round=round)
    seat = Seat.objects.filter(round=round).order_by("table__number", "position").first()
    form = {"entry_a": seat.entry_id, "entry_b": bye.entry_id}
    page = client.post(f"/director/{ten.slug}/rounds/1/swap", form, follow=True)
    assert "Seats changed." in page.content.decode()
    assert Bye.objects.get(round=round).entry_id == seat.entry_id
    assert Seat.objects.get(table=seat.table, position=seat.position).entry_id == bye.entry_id
