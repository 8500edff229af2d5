"""Re-seat and replay: Ann and Ben sat in each other's seats for three games. The
director re-seats the table, keeps games 1 and 3 (their seats swapped in the record) and has
game 2 replayed; the standings and the history show it."""

import pytest
from rest_framework.test import APIClient

from scoring.models import Deal, ResultRevision, Ruling
from scoring.reseat import table_reseat
from scoring.rulings import RulingError
from scoring.standings import standings_compute
from tests.scoring.playing import director_of, entry, play, published_round, tournament_with
from tournament.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """Five players at one table; games 1 to 3 played with Ann at seat 1 and Ben at seat 2."""
    tournament = tournament_with(5)
    round = published_round(tournament)
    table = round.tables.get()
    for number in (1, 2, 3):
        play(table, number, winner=number % 5, points=number * 3)
    return table


def seat_order(table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))


def points(table, number: int) -> dict[int, int]:
    deal = table.deals.get(number=number, is_void=False)
    return dict(deal.results.values_list("entry_id", "points"))


def totals(tournament) -> dict[int, int]:
    return {
        row["entry"]: row["total"] for row in standings_compute(tournament=tournament)["players"]
    }


def test_a_kept_game_follows_the_seats_and_a_replayed_game_is_dealt_again(table) -> None:
    tournament = table.round.tournament
    ann, ben = entry(tournament, "Ann").pk, entry(tournament, "Ben").pk
    order = seat_order(table)
    assert order[:2] == [ann, ben]
    game_1, game_3 = points(table, 1), points(table, 3)
    new_order = [ben, ann, *order[2:]]

    ruling = table_reseat(
        table=table,
        seats=new_order,
        games={1: "keep", 2: "replay", 3: "keep"},
        decision="Ann and Ben swap seats; game 2 is replayed",
        reason="Found in each other's seats after game 3.",
        by=None,
    )

    assert seat_order(table) == new_order
    # Kept: the seat's result goes to the player who sits there now.
    assert points(table, 1)[ben] == game_1[ann] and points(table, 1)[ann] == game_1[ben]
    assert points(table, 3)[ben] == game_3[ann]
    # Replayed: a void attempt that scores nothing; the game asks for game 2 again.
    assert table.deals.get(number=2).is_void
    play(table, 2, winner=0, points=1)
    assert table.deals.filter(number=2).count() == 2
    replayed = points(table, 2)
    # The standings: every player's total is their kept games plus the replay.
    expected = {e: points(table, 1)[e] + replayed[e] + points(table, 3)[e] for e in order}
    assert totals(tournament) == expected
    # The history: the kept game's first version superseded, the new one says why.
    revisions = list(table.deals.get(number=1).revisions.order_by("version"))
    assert [r.status for r in revisions] == ["superseded", "confirmed"]
    assert "Re-seated by ruling" in revisions[1].reason and "kept as played" in revisions[1].reason
    assert revisions[1].entry["sides"][0]["entry"] == ben
    void = Deal.objects.get(table=table, number=2, attempt=1)
    assert "to be replayed" in void.revisions.get(version=2).reason
    assert ruling.kind == Ruling.Kind.SEATING_CHANGE and ruling.table_id == table.pk
    audit = AuditEvent.objects.get(tournament=tournament, action="table.reseat")
    assert audit.detail["kept"] == [1, 3] and audit.detail["replayed"] == [2]
    assert audit.detail["before"] == order and audit.detail["after"] == new_order


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"games": {1: "keep", 2: "keep"}}, "Choose to keep or replay game 3"),
        ({"games": {1: "keep", 2: "keep", 3: "keep", 4: "keep"}}, "game 4 was not"),
        ({"games": {1: "keep", 2: "keep", 3: "burn"}}, "'keep' or 'replay'"),
        ({"seats": "same"}, "Nobody changes seat"),
        ({"seats": "short"}, "Give each of the 5 players"),
        ({"decision": " "}, "Say what was decided"),
    ],
    ids=[
        "a-game-without-fate",
        "a-game-not-played",
        "an-unknown-fate",
        "no-change",
        "a-player-missing",
        "no-decision",
    ],
)
def test_a_reseat_it_cannot_do_is_refused_and_nothing_changes(table, change, words) -> None:
    order = seat_order(table)
    seats = {"same": order, "short": order[1:]}.get(
        change.get("seats"), [*order[1::-1], *order[2:]]
    )
    kwargs = {"games": {1: "keep", 2: "keep", 3: "keep"}, "decision": "Swap", **change}
    kwargs["seats"] = seats
    before = [(r.deal_id, r.version, r.status) for r in ResultRevision.objects.all()]
    with pytest.raises(RulingError, match=words):
        table_reseat(table=table, by=None, **kwargs)
    assert seat_order(table) == order
    assert [(r.deal_id, r.version, r.status) for r in ResultRevision.objects.all()] == before
    assert not Ruling.objects.exists()


def test_the_api_reseats_keeps_and_replays_and_refuses_a_bad_body(table) -> None:
    tournament = table.round.tournament
    client = APIClient()
    client.force_authenticate(director_of(tournament))
    url = f"/api/tournaments/{tournament.slug}/rounds/1/tables/1/reseat"
    order = seat_order(table)
    swapped = [order[1], order[0], *order[2:]]
    bad = {"seats": swapped, "games": {"one": "keep"}, "decision": "Swap"}
    assert client.post(url, bad, format="json").status_code == 400
    body = {"seats": swapped, "games": {"1": "keep", "2": "replay"}, "decision": "Swap"}
    response = client.post(url, body, format="json")
    assert response.status_code == 400  # game 3 has no fate
    assert "game 3" in response.json()["errors"][0]["message"]
    body["games"]["3"] = "keep"
    response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["kind"] == "seating_change"
    assert seat_order(table) == swapped and table.deals.get(number=2).is_void
