"""The director's control room: the table page, the round clock, calls and missing results.

Alice directs the Open: ten players at two tables of five in round 1, published. Results are
entered through the real services (tests/scoring/playing.py) and through the pages, as the
director would from a paper score sheet.
"""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.caches import forget_process_caches
from scoring.clock import (
    ClockError,
    clock_extend,
    clock_of,
    clock_pause,
    clock_resume,
    clock_start,
    round_clocks,
)
from scoring.control import (
    ControlError,
    deal_flag_clear,
    director_call,
    director_call_answer,
    missing_results,
)
from scoring.models import ClockEvent, Deal, DirectorCall, ResultRevision
from scoring.selectors import round_progress
from scoring.services import HandInput, result_record
from scoring.standings import standings_refresh
from tests.scoring.playing import (
    director_of,
    play,
    play_set,
    published_round,
    tables_of,
    tournament_with,
)
from tournament.models import AuditEvent, Round, Tournament

pytestmark = pytest.mark.django_db

T0 = timezone.make_aware(datetime.datetime(2026, 11, 21, 10, 0))


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    cache.clear()
    forget_process_caches()


@pytest.fixture
def open_() -> Tournament:
    tournament = tournament_with(10, name="Open", slug="open")
    published_round(tournament)
    return tournament


@pytest.fixture
def round_(open_) -> Round:
    return open_.rounds.get()


@pytest.fixture
def alice(open_) -> Client:
    client = Client()
    client.force_login(director_of(open_, "alice"))
    return client


def table_url(number: int, rest: str = "") -> str:
    return f"/director/open/rounds/1/tables/{number}/{rest}"


def flagged_game(table) -> Deal:
    """Game 1 saved over a warning: three cards left after no call (R10.6)."""
    seats = list(table.seats.order_by("position"))
    hands = [HandInput(seats[0].entry_id, went_out=True, cards="", calls=0)]
    hands += [HandInput(seats[1].entry_id, cards="JK AS 2C", calls=0)]
    hands += [HandInput(seat.entry_id, points=9) for seat in seats[2:]]
    return result_record(table=table, number=1, hands=hands, via="test", confirm_warnings=True)


# --- the clock --------------------------------------------------------------------------------


def event(kind: str, minute: float, minutes: int = 0, table_id: int | None = None) -> ClockEvent:
    return ClockEvent(kind=kind, minutes=minutes, at=at(minute), table_id=table_id)


class TestTheClockTold:
    def test_it_counts_down_while_it_runs(self) -> None:
        clock = clock_of([event("start", 0, 120)], at(30))
        assert clock.state == "running" and clock.left_seconds == 90 * 60
        assert clock.left_words == "1:30:00 left" and clock.fraction_elapsed == 0.25

    def test_a_pause_stops_it_and_an_extension_adds_to_it(self) -> None:
        events = [event("start", 0, 60), event("pause", 10), event("resume", 25)]
        events.append(event("extend", 30, 15))
        clock = clock_of(events, at(40))
        assert clock.elapsed_seconds == 25 * 60 and clock.allowed_seconds == 75 * 60
        assert clock_of(events[:2], at(40)).state == "paused"

    def test_a_table_that_started_late_has_its_own_minutes(self) -> None:
        events = [event("start", 0, 60), event("extend", 5, 10, table_id=7)]
        table, round = clock_of(events, at(65)), clock_of(events[:1], at(65))
        assert round.state == "over" and round.overtime_seconds == 5 * 60
        assert table.state == "running" and table.left_seconds == 5 * 60
        assert table.table_extra_minutes == 10

    def test_a_table_paused_alone_stops_only_its_own_clock(self) -> None:
        events = [event("start", 0, 60), event("pause", 10, table_id=7), event("resume", 20, 0, 7)]
        assert clock_of(events, at(30)).elapsed_seconds == 20 * 60

    def test_before_the_start_it_is_not_started(self) -> None:
        assert clock_of([], at(0)).state == "not_started"


class TestTheDirectorsClockSteps:
    def test_start_pause_resume_extend_each_kept_and_audited(self, round_) -> None:
        clock_start(round=round_, minutes=90, by=None)
        clock_pause(round=round_, by=None, reason="fire alarm")
        clock_resume(round=round_, by=None)
        clock_extend(round=round_, minutes=10, by=None, reason="the alarm")
        kinds = list(ClockEvent.objects.values_list("kind", flat=True))
        assert kinds == ["start", "pause", "resume", "extend"]
        summaries = list(
            AuditEvent.objects.filter(action__startswith="clock.").values_list("summary", flat=True)
        )
        assert "Round 1: clock paused (fire alarm)" in summaries
        assert round_clocks(round_id=round_.pk).round.allowed_seconds == 100 * 60

    @pytest.mark.parametrize(
        ("steps", "message"),
        [
            (["pause"], "has not started"),
            (["start", "start"], "running already"),
            (["start", "resume"], "is not paused"),
            (["start", "pause", "pause"], "paused already"),
        ],
    )
    def test_a_step_that_makes_no_sense_is_refused(self, round_, steps, message) -> None:
        calls = {
            "start": lambda: clock_start(round=round_, minutes=60, by=None),
            "pause": lambda: clock_pause(round=round_, by=None),
            "resume": lambda: clock_resume(round=round_, by=None),
        }
        with pytest.raises(ClockError, match=message):
            for step in steps:
                calls[step]()

    @pytest.mark.parametrize("minutes", [0, -5, 601])
    def test_the_minutes_must_make_sense(self, round_, minutes: int) -> None:
        with pytest.raises(ClockError, match="between 1 and 600"):
            clock_start(round=round_, minutes=minutes, by=None)
        assert not ClockEvent.objects.exists()

    def test_a_locked_round_has_no_clock(self, round_) -> None:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.LOCKED)
        with pytest.raises(ClockError, match="locked"):
            clock_start(round=round_, minutes=60, by=None)

    def test_the_clock_survives_a_restart_it_is_read_from_the_database(self, round_) -> None:
        clock_start(round=round_, minutes=60, by=None)
        cache.clear()
        assert round_clocks(round_id=round_.pk).round.state == "running"

    def test_the_dashboard_starts_and_extends_it_and_a_table_is_extended_alone(
        self, alice, round_
    ) -> None:
        alice.post("/director/open/rounds/1/clock", {"action": "start", "minutes": "100"})
        alice.post(table_url(2, "clock"), {"action": "extend", "minutes": "7", "reason": "late"})
        clocks = round_clocks(round_id=round_.pk)
        table_2 = round_.tables.get(number=2)
        assert clocks.round.allowed_seconds == 100 * 60
        assert clocks.of(table_2.pk).allowed_seconds == 107 * 60
        dashboard = alice.get("/director/open/rounds/1/dashboard").content.decode()
        assert "+7 min" in dashboard and 'data-state="running"' in dashboard

    def test_a_bad_clock_form_changes_nothing_and_says_why(self, alice) -> None:
        page = alice.post(
            "/director/open/rounds/1/clock", {"action": "extend", "minutes": "lots"}, follow=True
        )
        assert "unchanged" in page.content.decode() and not ClockEvent.objects.exists()


# --- calls for the director ---------------------------------------------------------------------


class TestCalls:
    def test_the_table_link_calls_and_the_dashboard_shows_the_wait(self, alice, round_) -> None:
        table = round_.tables.get(number=2)
        phone = Client()
        response = phone.post(f"/t/{table.access_token}/call")
        assert response.status_code == 302 and DirectorCall.objects.count() == 1
        assert "The director is called" in phone.get(f"/t/{table.access_token}/").content.decode()
        DirectorCall.objects.update(called_at=timezone.now() - datetime.timedelta(minutes=3))
        live = alice.get("/director/open/rounds/1/dashboard?partial=1").content.decode()
        assert 'data-call="2"' in live and "waiting <strong>3 min" in live

    def test_pressing_again_while_waiting_is_the_same_call(self, round_) -> None:
        table = round_.tables.get(number=1)
        first = director_call(table=table, via="table 1 link")
        again = director_call(table=table, via="table 1 link · Ann")
        assert first.created and not again.created and again.call.pk == first.call.pk

    def test_an_answered_call_leaves_the_dashboard_and_a_new_one_can_follow(
        self, alice, round_
    ) -> None:
        table = round_.tables.get(number=1)
        call = director_call(table=table, via="table 1 link").call
        alice.post(f"/director/open/rounds/1/calls/{call.pk}/answer")
        live = alice.get("/director/open/rounds/1/dashboard?partial=1").content.decode()
        assert 'data-call="1"' not in live and "No table is calling" in live
        assert director_call(table=table, via="table 1 link").created

    def test_a_call_is_answered_once(self, round_, open_) -> None:
        call = director_call(table=round_.tables.get(number=1), via="x").call
        alice = open_.staff.get().user if open_.staff.exists() else director_of(open_, "alice")
        director_call_answer(call=call, by=alice)
        with pytest.raises(ControlError, match="answered already by alice"):
            director_call_answer(call=call, by=alice)

    def test_calls_are_stored_and_survive_a_restart(self, round_) -> None:
        director_call(table=round_.tables.get(number=1), via="x")
        cache.clear()
        assert DirectorCall.objects.filter(answered_at__isnull=True).count() == 1

    def test_a_draft_rounds_table_cannot_call(self, round_) -> None:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.LOCKED)
        with pytest.raises(ControlError, match="find the director in the hall"):
            director_call(table=round_.tables.get(number=1), via="x")

    def test_the_live_part_is_a_304_while_nothing_changed(self, client, round_) -> None:
        token = round_.tables.get(number=1).access_token
        first = client.get(f"/t/{token}/live")
        assert first.status_code == 200 and "Call the director" in first.content.decode()
        same = client.get(f"/t/{token}/live", headers={"If-None-Match": first["ETag"]})
        assert same.status_code == 304
        client.post(f"/t/{token}/call")
        changed = client.get(f"/t/{token}/live", headers={"If-None-Match": first["ETag"]})
        assert changed.status_code == 200 and "The director is called" in changed.content.decode()

    def test_an_unknown_link_has_no_live_part(self, client) -> None:
        assert client.get("/t/nope/live").status_code == 404
        assert client.post("/t/nope/call").status_code == 404


# --- the director's table page -----------------------------------------------------------------


class TestTheTablePage:
    def test_it_shows_every_version_the_warnings_and_the_link(self, alice, round_) -> None:
        table = round_.tables.get(number=1)
        flagged_game(table)
        page = alice.get(table_url(1)).content.decode()
        assert "Flagged" in page and "Clear the flag" in page and "R10" in page
        assert "Every version (1)" in page and "Issued" in page
        assert "Enter game 2 from the paper score sheet" in page

    def test_the_director_clears_a_flag_with_a_reason_kept_in_history_and_audit(
        self, alice, round_
    ) -> None:
        game = flagged_game(round_.tables.get(number=1))
        response = alice.post(table_url(1, "games/1/clear-flag"), {"reason": "Counted again."})
        assert response.status_code == 302
        game.refresh_from_db()
        revision = ResultRevision.objects.get(deal=game)
        assert not game.is_flagged and revision.review_reason == "Counted again."
        assert revision.reviewed_by.username == "alice"
        audit = AuditEvent.objects.get(action="game.flag_clear")
        assert "flag cleared: Counted again." in audit.summary and audit.detail["warnings"]
        page = alice.get(table_url(1)).content.decode()
        assert "Flag cleared by alice" in page and "Counted again." in page

    def test_a_flag_is_not_cleared_without_a_reason(self, alice, round_) -> None:
        game = flagged_game(round_.tables.get(number=1))
        alice.post(table_url(1, "games/1/clear-flag"), {"reason": "  "})
        game.refresh_from_db()
        assert game.is_flagged
        with pytest.raises(ControlError, match="Say why"):
            deal_flag_clear(deal=game, by=None, reason="")

    def test_the_director_enters_a_game_from_the_paper_sheet(self, alice, round_) -> None:
        table = round_.tables.get(number=1)
        seats = list(table.seats.order_by("position"))
        body = {"game": "1", "attempt": "1", "action": "save", "went_out": seats[0].entry_id}
        for seat in seats:
            body[f"p{seat.position}-points"] = "" if seat.position == 1 else "12"
        response = alice.post(table_url(1), body)
        assert response.status_code == 302, response.content.decode()[:2000]
        revision = ResultRevision.objects.get(deal__table=table)
        assert revision.entered_by.username == "alice"
        assert revision.entered_via == "director alice · paper score sheet"

    def test_the_director_corrects_a_game_as_a_new_version(self, alice, round_) -> None:
        table = round_.tables.get(number=1)
        play(table, 1)
        seats = list(table.seats.order_by("position"))
        body = {"base_version": "1", "action": "save", "went_out": seats[0].entry_id}
        body["reason"] = "The sheet says 20 for seat 2."
        for seat in seats:
            body[f"p{seat.position}-points"] = {1: "", 2: "20"}.get(seat.position, "11")
        response = alice.post(table_url(1, "games/1/correct"), body)
        assert response.status_code == 302, response.content.decode()[:3000]
        assert list(ResultRevision.objects.values_list("version", "status")) == [
            (1, "superseded"),
            (2, "confirmed"),
        ]

    def test_the_director_confirms_a_pending_result(self, alice, open_, round_) -> None:
        Tournament.objects.filter(pk=open_.pk).update(requires_confirmation=True)
        table = round_.tables.get(number=1)
        play(table, 1)
        alice.post(table_url(1, "games/1/confirm"), {"version": "1"})
        assert Deal.objects.get(table=table).status == Deal.Status.CONFIRMED

    def test_the_director_signs_the_set_off(self, alice, round_) -> None:
        table = round_.tables.get(number=1)
        play_set(table)
        alice.post(table_url(1, "sign-off"), {"signer": "Ann"})
        table.refresh_from_db()
        assert table.signed_off_by == "Ann (director alice)"
        dashboard = alice.get("/director/open/rounds/1/dashboard").content.decode()
        assert "✓" in dashboard

    def test_a_reissued_link_comes_back_to_the_table_page(self, alice, round_) -> None:
        old = round_.tables.get(number=1).access_token
        response = alice.post(
            "/director/open/rounds/1/tables/1/reissue-link", {"confirm": "on", "back": "table"}
        )
        assert response["Location"] == table_url(1)
        assert round_.tables.get(number=1).access_token != old

    def test_another_rounds_or_tournaments_table_is_a_404(self, alice, round_) -> None:
        assert alice.get(table_url(9)).status_code == 404
        assert alice.get("/director/open/rounds/2/tables/1/").status_code == 404

    @pytest.mark.parametrize("games", [1, 9])
    def test_the_page_reads_a_fixed_number_of_queries(self, alice, round_, games) -> None:
        play_set(round_.tables.get(number=1), games=games)
        with CaptureQueriesContext(connection) as queries:
            assert alice.get(table_url(1)).status_code == 200
        # session, user, tournament, round, table; the table page's 5; reviews; table
        # numbers; clock events; open call
        assert len(queries) == 14, [q["sql"] for q in queries]


# --- missing results ---------------------------------------------------------------------------


class TestMissingResults:
    def _missing(self, round_, now) -> list[int]:
        tables = round_progress(round=round_)
        clocks = round_clocks(round_id=round_.pk, now=now)
        lines = missing_results(tables=tables, clocks=clocks, since=round_.published_at, now=now)
        return [line.table.number for line in lines]

    def test_a_table_behind_the_others_and_the_clock_is_missing(self, round_) -> None:
        one, _two = tables_of(round_)
        ClockEvent.objects.create(round=round_, kind="start", minutes=90, at=timezone.now())
        play_set(one, games=5)
        later = timezone.now() + datetime.timedelta(minutes=50)  # the clock pace: 5 games
        assert self._missing(round_, later) == [2]

    def test_longest_silent_first(self) -> None:
        tournament = tournament_with(15, slug="big")
        round_ = published_round(tournament)
        one, two, three = tables_of(round_)
        play_set(one, games=4)
        play(two, 1)
        play(three, 1)
        Deal.objects.filter(table=three).update(
            updated_at=timezone.now() - datetime.timedelta(hours=1)
        )
        assert self._missing(round_, timezone.now()) == [3, 2]

    def test_nobody_is_missing_when_every_table_keeps_the_pace(self, round_) -> None:
        for table in tables_of(round_):
            play_set(table, games=2)
        assert self._missing(round_, timezone.now()) == []

    def test_the_dashboard_lists_them_with_the_silence(self, alice, round_) -> None:
        one, _two = tables_of(round_)
        play_set(one, games=3)
        live = alice.get("/director/open/rounds/1/dashboard?partial=1").content.decode()
        assert re.search(r'data-missing="2">.*?Table 2</a>:\s*0 of 9 games, 3 behind', live, re.S)

    @pytest.mark.parametrize("players", [10, 40])
    def test_the_dashboard_reads_the_same_queries_for_2_or_8_tables(self, client, players) -> None:
        tournament = tournament_with(players, slug="field")
        round_ = published_round(tournament)
        for table in tables_of(round_):
            play(table, 1)
            director_call(table=table, via="x")
        standings_refresh(tournament_id=tournament.pk)
        client.force_login(director_of(tournament))
        with CaptureQueriesContext(connection) as queries:
            client.get("/director/field/rounds/1/dashboard?partial=1")
        assert len(queries) == 10  # the deals' results too: the game says whose match is over
