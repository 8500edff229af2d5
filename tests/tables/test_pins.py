"""Pinned seats: a player who cannot move keeps a chosen table (and perhaps a seat)
all event and the seating works around them; a pin the tables cannot honour is refused with
the reason, and nothing is changed."""

import json

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

from scoring.backup import SECTIONS, backup_parse, tournament_export, tournament_import
from scoring.rounds import round_publish
from tables.models import PinnedSeat, Seat, SeatingRecord
from tables.seating import MeetingHistory, Pin, SeatingError, check_pins, plan_event, seat
from tables.services import pin_remove, pin_seat, round_seat
from tests.factories import RoundFactory
from tests.scoring.playing import director_of, entry, tournament_with
from tournament.models import AuditEvent, Entry, Round

SIZES = [5, 5, 4]  # 14 players


# --- the rules of a pin -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({1: Pin(4)}, "player 1 is pinned to table 4, which does not exist: 14 players sit at 3"),
        ({1: Pin(0)}, "player 1 is pinned to table 0, which does not exist"),
        ({1: Pin(3, 5)}, "pinned to seat 5 of table 3, which seats 4: choose a seat from 1 to 4"),
        (
            {1: Pin(2, 1), 2: Pin(2, 1)},
            "player 1 and player 2 are both pinned to seat 1 of table 2",
        ),
        ({p: Pin(3) for p in range(5)}, r"Table 3 seats 4, and 5 players are pinned to it"),
    ],
)
def test_a_pin_the_tables_cannot_honour_is_refused_with_the_reason(pins, message) -> None:
    with pytest.raises(SeatingError, match=message):
        check_pins(pins, SIZES)


def test_pins_the_tables_can_honour_pass() -> None:
    check_pins({1: Pin(1, 1), 2: Pin(1, 2), 3: Pin(3), 4: Pin(3)}, SIZES)


def test_a_round_seats_pinned_players_at_their_tables_and_meets_nobody_again() -> None:
    players = list(range(100, 125))
    pins = {100: Pin(2), 101: Pin(4), 102: Pin(5, 3)}
    history = MeetingHistory.from_rounds([seat(players, {}, seed=1, pins=pins).tables])
    seating = seat(players, history, seed=2, pins=pins)
    assert 100 in seating.tables[1] and 101 in seating.tables[3] and 102 in seating.tables[4]
    assert history.after(seating.tables).repeats().pairs_met_twice == 0


def test_two_players_pinned_to_one_table_meet_every_round() -> None:
    """And at 25 players in fives that costs one more repeat: round 2's tables must each take
    one player of every round-1 table, and the pinned pair's old table has one player short."""
    players = list(range(100, 125))
    pins = {100: Pin(2), 101: Pin(2)}
    history = MeetingHistory.from_rounds([seat(players, {}, seed=1, pins=pins).tables])
    seating = seat(players, history, seed=2, pins=pins)
    assert {100, 101} <= set(seating.tables[1])
    assert history.after(seating.tables).repeats().pairs_met_twice == 2


@pytest.mark.parametrize(("players", "rounds"), [(25, 5), (40, 8), (43, 5)])
def test_a_plan_keeps_pinned_players_at_their_tables_at_the_optimum(players, rounds) -> None:
    """Pinned players take design points that never share a table: the design still holds."""
    pins = {0: Pin(1), 7: Pin(3), 11: Pin(5)}
    plan = plan_event(players, rounds, seed=3, pins=pins)
    for seating in plan.rounds:
        assert 0 in seating[0] and 7 in seating[2] and 11 in seating[4]
    assert plan.pairs_met_twice == 0 and plan.design is not None


def test_in_a_complete_affine_plane_pins_keep_their_tables_at_a_cost() -> None:
    """AG(2, 5) over six rounds meets every pair once, so players kept apart must meet others
    twice: the plan follows five rounds of the plane and searches the sixth."""
    pins = {0: Pin(1), 7: Pin(3), 11: Pin(5)}
    plan = plan_event(25, 6, seed=3, pins=pins)
    for seating in plan.rounds:
        assert 0 in seating[0] and 7 in seating[2] and 11 in seating[4]
    assert plan.max_meetings == 2


def test_a_plan_refuses_a_pin_at_a_table_that_does_not_exist() -> None:
    with pytest.raises(SeatingError, match="pinned to table 6, which does not exist"):
        plan_event(25, 3, seed=1, pins={0: Pin(6)})


# --- the services -------------------------------------------------------------------------------


@pytest.mark.django_db
class TestPinSeat:
    @pytest.fixture
    def open_(self):
        return tournament_with(14)

    def test_a_pinned_player_sits_at_the_table_every_round(self, open_) -> None:
        ann = entry(open_, "Ann")
        pin_seat(tournament=open_, entry=ann, table=2, position=1, reason="Wheelchair", by=None)
        for number in (1, 2):
            round = RoundFactory(tournament=open_, number=number)
            round_seat(round=round, seed=number)
            seat = Seat.objects.select_related("table").get(round=round, entry=ann)
            assert (seat.table.number, seat.position) == (2, 1)
            assert SeatingRecord.objects.get(round=round).pins == {str(ann.pk): [2, 1]}
            round_publish(round=Round.objects.get(pk=round.pk), by=None)
        assert AuditEvent.objects.filter(action="seat.pin", summary__contains="Wheelchair")

    @pytest.mark.parametrize(
        ("table", "position", "message"),
        [
            (4, None, "Ann is pinned to table 4, which does not exist: 14 players sit at 3"),
            (3, 5, "Ann is pinned to seat 5 of table 3, which seats 4"),
        ],
    )
    def test_a_table_or_seat_that_does_not_exist_is_refused(
        self, open_, table, position, message
    ) -> None:
        with pytest.raises(SeatingError, match=message):
            pin_seat(
                tournament=open_, entry=entry(open_, "Ann"), table=table, position=position, by=None
            )
        assert not PinnedSeat.objects.exists()

    def test_two_players_pinned_to_one_seat_are_refused_and_the_first_pin_stays(
        self, open_
    ) -> None:
        pin_seat(tournament=open_, entry=entry(open_, "Ann"), table=1, position=2, by=None)
        with pytest.raises(SeatingError, match="Ann and Ben are both pinned to seat 2 of table 1"):
            pin_seat(tournament=open_, entry=entry(open_, "Ben"), table=1, position=2, by=None)
        assert list(PinnedSeat.objects.values_list("entry__player__name", "position")) == [
            ("Ann", 2)
        ]

    def test_the_database_refuses_a_second_player_in_a_pinned_seat(self, open_) -> None:
        pin_seat(tournament=open_, entry=entry(open_, "Ann"), table=1, position=2, by=None)
        with pytest.raises(IntegrityError):
            PinnedSeat.objects.create(
                tournament=open_, entry=entry(open_, "Ben"), table=1, position=2
            )

    def test_more_players_pinned_to_a_table_than_it_seats_are_refused(self, open_) -> None:
        for name in ("Ann", "Ben", "Cy", "Di"):
            pin_seat(tournament=open_, entry=entry(open_, name), table=3, by=None)
        with pytest.raises(SeatingError, match=r"Table 3 seats 4, and 5 players are pinned to it"):
            pin_seat(tournament=open_, entry=entry(open_, "Ed"), table=3, by=None)
        assert PinnedSeat.objects.count() == 4

    def test_a_withdrawn_player_is_not_pinned(self, open_) -> None:
        ann = entry(open_, "Ann")
        Entry.objects.filter(pk=ann.pk).update(status=Entry.Status.WITHDRAWN)
        ann.refresh_from_db()
        with pytest.raises(SeatingError, match="Ann is not playing"):
            pin_seat(tournament=open_, entry=ann, table=1, by=None)

    def test_a_pin_that_no_longer_fits_the_field_refuses_the_seating_and_keeps_the_old(
        self, open_
    ) -> None:
        pin_seat(tournament=open_, entry=entry(open_, "Ann"), table=3, by=None)
        round = RoundFactory(tournament=open_)
        round_seat(round=round, seed=1)
        before = list(Seat.objects.filter(round=round).values_list("entry_id", "table__number"))
        Entry.objects.filter(player__name__in=["Ben", "Cy", "Di", "Ed"]).update(
            status=Entry.Status.WITHDRAWN
        )
        with pytest.raises(SeatingError, match="Ann is pinned to table 3, which does not exist"):
            round_seat(round=round, seed=2)
        after = list(Seat.objects.filter(round=round).values_list("entry_id", "table__number"))
        assert after == before

    def test_a_pin_is_removed_with_the_audit_log_saying_so(self, open_) -> None:
        ann = entry(open_, "Ann")
        pin_seat(tournament=open_, entry=ann, table=1, by=None)
        pin_remove(tournament=open_, entry=ann, by=None)
        assert not PinnedSeat.objects.exists()
        assert AuditEvent.objects.filter(action="seat.unpin").count() == 1
        with pytest.raises(SeatingError, match="Ann has no pinned seat"):
            pin_remove(tournament=open_, entry=ann, by=None)

    def test_pins_and_seating_records_go_into_the_backup_and_come_back(self, open_) -> None:
        pin_seat(tournament=open_, entry=entry(open_, "Ann"), table=2, position=3, by=None)
        round_seat(round=RoundFactory(tournament=open_), seed=5, mode="standings")
        text = tournament_export(tournament=open_)
        document = json.loads(text)
        assert [row["table"] for row in document["pins"]] == [2]
        assert [row["mode"] for row in document["seating_records"]] == ["standings"]
        for section in reversed(SECTIONS):  # the tournament goes, as on another server
            section.model.objects.filter(**{section.path or "tournament": open_}).delete()
        open_.delete()
        imported = tournament_import(document=backup_parse(text))
        pin = PinnedSeat.objects.get(tournament=imported.tournament)
        assert (pin.entry.player.name, pin.table, pin.position) == ("Ann", 2, 3)
        assert SeatingRecord.objects.get(round__tournament=imported.tournament).mode == "standings"


# --- the round page and the API -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_round_page_pins_a_player_and_refuses_a_table_that_does_not_exist(client) -> None:
    open_ = tournament_with(14)
    client.force_login(director_of(open_))
    RoundFactory(tournament=open_)
    ann = entry(open_, "Ann")
    url = f"/director/{open_.slug}/rounds/1/pins"
    page = client.post(url, {"entry": ann.pk, "table": 7}, follow=True).content.decode()
    assert "Nothing was pinned: Ann is pinned to table 7, which does not exist" in page
    page = client.post(url, {"entry": ann.pk, "table": 2, "position": 1, "reason": "Wheelchair"},
                       follow=True).content.decode()  # fmt: skip
    assert "Ann keeps table 2, seat 1 from the next seating on." in page
    assert 'id="pinned-seats"' in page and "Wheelchair" in page
    page = client.post(f"{url}/{ann.pk}/remove", follow=True).content.decode()
    assert "Ann may move again from the next seating on." in page
    assert "Nobody is pinned." in page


@pytest.mark.django_db
def test_the_api_lists_sets_refuses_and_removes_pins() -> None:
    open_ = tournament_with(14)
    api = APIClient()
    api.force_authenticate(director_of(open_))
    base = f"/api/tournaments/{open_.slug}/pins"
    ann, ben = entry(open_, "Ann"), entry(open_, "Ben")
    response = api.post(base, {"entry": ann.pk, "table": 1, "seat": 1}, format="json")
    assert response.status_code == 201, response.content
    assert response.json() == [
        {"entry": ann.pk, "player": "Ann", "table": 1, "seat": 1, "reason": "",
         "place": "table 1, seat 1"}
    ]  # fmt: skip
    refused = api.post(base, {"entry": ben.pk, "table": 1, "seat": 1}, format="json")
    assert refused.status_code == 400
    assert (
        "Ann and Ben are both pinned to seat 1 of table 1" in refused.json()["errors"][0]["message"]
    )
    refused = api.post(base, {"entry": ben.pk, "table": 9}, format="json")
    assert refused.status_code == 400 and "does not exist" in refused.content.decode()
    assert [line["player"] for line in api.get(base).json()] == ["Ann"]
    assert api.delete(f"{base}/{ann.pk}").status_code == 204
    assert api.get(base).json() == []
    assert api.delete(f"{base}/{ann.pk}").status_code == 404  # no pin to remove


@pytest.mark.django_db
def test_another_directors_pins_are_hidden() -> None:
    open_ = tournament_with(5)
    other = tournament_with(5)
    api = APIClient()
    api.force_authenticate(director_of(other, "bob"))
    assert api.get(f"/api/tournaments/{open_.slug}/pins").status_code == 404
