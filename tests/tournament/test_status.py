"""A tournament's status: setting up → running → finished, set by its director (and to running
by its first published round), refused with the reason where the step makes no sense, and shown
on every public page."""

import pytest
from django.core.cache import cache
from django.test import Client

from config.caches import forget_process_caches
from scoring.rounds import RoundError, round_complete, round_lock, round_publish
from tests.scoring.playing import director_of, play_set, seated_round, tables_of, tournament_with
from tournament.models import AuditEvent, Tournament
from tournament.services import TournamentError, tournament_status_set

pytestmark = pytest.mark.django_db

SETUP, RUNNING, FINISHED = "setup", "running", "finished"


@pytest.fixture
def open_(db) -> Tournament:
    """The Open: five players checked in, nothing seated yet; Alice directs it."""
    tournament = tournament_with(5, name="Open", slug="open", is_published=True)
    director_of(tournament, "alice")
    return tournament


def _played_and_locked(tournament: Tournament) -> None:
    round = round_publish(round=seated_round(tournament), by=None)
    [table] = tables_of(round)
    play_set(table)
    round_lock(round=round_complete(round=round, by=None), by=None)


def _status(tournament: Tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


class TestTheSteps:
    def test_a_new_tournament_is_setting_up_and_its_director_sets_it_running(self, open_):
        assert open_.status == SETUP
        tournament_status_set(tournament=open_, to=RUNNING, by=None)
        assert _status(open_) == RUNNING
        event = AuditEvent.objects.get(action="tournament.status")
        assert event.summary == "Status: Setting up → Running"

    def test_publishing_the_first_round_sets_it_running_once(self, open_) -> None:
        round_publish(round=seated_round(open_), by=None)
        assert _status(open_) == RUNNING
        assert AuditEvent.objects.filter(action="tournament.status").count() == 1

    def test_it_finishes_once_every_round_is_locked(self, open_) -> None:
        _played_and_locked(open_)
        tournament_status_set(tournament=open_, to=FINISHED, by=None)
        assert _status(open_) == FINISHED

    def test_a_finished_tournament_reopens(self, open_) -> None:
        _played_and_locked(open_)
        tournament_status_set(tournament=open_, to=FINISHED, by=None)
        tournament_status_set(tournament=open_, to=RUNNING, by=None)
        assert _status(open_) == RUNNING

    def test_it_goes_back_to_setting_up_while_no_round_is_published(self, open_) -> None:
        tournament_status_set(tournament=open_, to=RUNNING, by=None)
        seated_round(open_)  # a draft
        tournament_status_set(tournament=open_, to=SETUP, by=None)
        assert _status(open_) == SETUP


class TestRefusals:
    def test_it_cannot_finish_with_a_round_not_locked(self, open_) -> None:
        round_publish(round=seated_round(open_), by=None)
        with pytest.raises(TournamentError, match=r"round 1 is published\. Lock every round"):
            tournament_status_set(tournament=open_, to=FINISHED, by=None)
        assert _status(open_) == RUNNING

    def test_it_cannot_finish_before_it_ran(self, open_) -> None:
        with pytest.raises(TournamentError, match="finishes after it has run"):
            tournament_status_set(tournament=open_, to=FINISHED, by=None)

    def test_it_cannot_finish_with_no_round(self, open_) -> None:
        tournament_status_set(tournament=open_, to=RUNNING, by=None)
        with pytest.raises(TournamentError, match="no round yet"):
            tournament_status_set(tournament=open_, to=FINISHED, by=None)

    def test_it_cannot_run_without_players(self) -> None:
        empty = tournament_with(0, slug="empty")
        with pytest.raises(TournamentError, match="no player registered or checked in"):
            tournament_status_set(tournament=empty, to=RUNNING, by=None)

    def test_it_cannot_go_back_to_setting_up_once_a_round_is_published(self, open_) -> None:
        round_publish(round=seated_round(open_), by=None)
        with pytest.raises(TournamentError, match="Round 1 is published already"):
            tournament_status_set(tournament=open_, to=SETUP, by=None)

    @pytest.mark.parametrize("to", [SETUP, "paused", ""])
    def test_the_same_status_or_an_unknown_one_is_refused(self, open_, to: str) -> None:
        with pytest.raises(TournamentError, match=r"already setting up|no tournament status"):
            tournament_status_set(tournament=open_, to=to, by=None)
        assert not AuditEvent.objects.filter(action="tournament.status").exists()

    def test_a_finished_tournament_publishes_no_round(self, open_) -> None:
        _played_and_locked(open_)
        tournament_status_set(tournament=open_, to=FINISHED, by=None)
        Tournament.objects.filter(pk=open_.pk).update(rounds_planned=2)
        draft = seated_round(open_, number=2)
        with pytest.raises(RoundError, match="is finished: set it running again"):
            round_publish(round=draft, by=None)


class TestThePages:
    def test_the_hub_offers_the_steps_and_the_director_takes_one(self, open_) -> None:
        alice = Client()
        alice.force_login(open_.staff.get().user)
        hub = alice.get("/director/open/").content.decode()
        assert 'name="to" value="running"' in hub and "Set running" in hub
        response = alice.post("/director/open/status", {"to": RUNNING, "confirm": "on"})
        assert response.status_code == 302 and _status(open_) == RUNNING
        hub = alice.get("/director/open/").content.decode()
        assert "Open is running" in hub and 'value="finished"' in hub

    def test_without_the_ticked_box_nothing_changes(self, open_) -> None:
        alice = Client()
        alice.force_login(open_.staff.get().user)
        alice.post("/director/open/status", {"to": RUNNING})
        assert _status(open_) == SETUP

    def test_a_refusal_is_shown_with_its_reason(self, open_) -> None:
        alice = Client()
        alice.force_login(open_.staff.get().user)
        page = alice.post("/director/open/status", {"to": FINISHED, "confirm": "on"}, follow=True)
        assert "finishes after it has run" in page.content.decode()

    @pytest.mark.parametrize(
        "page",
        ["/p/open/", "/p/open/leaderboard", "/p/open/projector", "/p/open/seating",
         "/p/open/seating/projector"],
    )  # fmt: skip
    def test_every_public_page_shows_the_status(self, client: Client, open_, page: str) -> None:
        round_publish(round=seated_round(open_), by=None)
        cache.clear()
        forget_process_caches()
        html = client.get(page).content.decode()
        assert "data-tournament-status" in html and ">Running<" in html
