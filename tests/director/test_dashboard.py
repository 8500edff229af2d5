"""The director's round page, dashboard and rulings page, and the selectors behind them.

Alice directs the Open; Bob directs the Cup; Sam keeps score at the Open. Only Alice may see or
change the Open's rounds and rulings. The dashboard's standings are the public leaderboard's:
the same snapshot (scoring/standings.py), refreshed a moment after each change.
"""

import re
from datetime import datetime, timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.caches import forget_process_caches
from director.round_views import STANDINGS_PER_PAGE
from scoring.models import Deal, Ruling, StandingsSnapshot
from scoring.rounds import round_publish
from scoring.rulings import ruling_record, ruling_reverse
from scoring.selectors import Standing, round_progress, standings_for_director
from scoring.services import result_record
from scoring.standings import standings_refresh
from scoring.standings_queue import standings_changed
from tables.models import Table
from tests.factories import EntryFactory, StaffRoleFactory
from tests.scoring.playing import (
    director_of,
    penalty_ruling,
    play,
    play_set,
    published_round,
    rounds_over,
    seated_round,
    tables_of,
    tournament_with,
)
from tournament.models import Entry, Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db

Kind = Ruling.Kind


@pytest.fixture(autouse=True)
def _nothing_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cached standings outlive a test's database, and the public pages remember what they
    read for a moment: start afresh, and read the cache at every request."""
    cache.clear()
    forget_process_caches()
    monkeypatch.setattr("config.caches.PUBLIC_RECENT.seconds", 0)


def standings(tournament: Tournament) -> tuple[Standing, ...]:
    """The dashboard's standings once the refresh queued by the last change has run."""
    standings_refresh(tournament_id=tournament.pk)
    return standings_for_director(tournament=tournament).lines


def by_name(tournament: Tournament) -> dict[str, Standing]:
    return {line.player: line for line in standings(tournament)}


def shown_now(tournament: Tournament, name: str) -> Standing:
    """The dashboard's line of `name` as it is, with no refresh run first."""
    lines = standings_for_director(tournament=tournament).lines
    return next(line for line in lines if line.player == name)


def seat_names(round: Round, table: int) -> list[str]:
    seats = round.seats.filter(table__number=table).select_related("entry__player")
    return [seat.entry.player.name for seat in seats.order_by("position")]


def names_at(table: Table) -> list[str]:
    return seat_names(table.round, table.number)


def player(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.get(player__name=name)


@pytest.fixture
def five() -> Tournament:
    """Five players at one table, round 1 published; two rounds planned."""
    tournament = tournament_with(5, rounds_planned=2)
    published_round(tournament)
    return tournament


@pytest.fixture
def table(five: Tournament) -> Table:
    return tables_of(five.rounds.get())[0]


# --- round_progress ---------------------------------------------------------------------------


class TestRoundProgress:
    def test_each_table_shows_its_seats_first_dealer_and_games(self) -> None:
        round = published_round(tournament_with(10))
        first, second = tables_of(round)
        play_set(first, games=6)
        result_record(table=second, number=1, void=True, via="test")  # R9.2: not a game played
        Deal.objects.filter(table=first, number=2).update(is_flagged=True)
        one, two = round_progress(round=round)
        assert (one.number, one.games_scored, one.games_in_set) == (1, 6, 9)
        assert (two.games_scored, two.last_entry_at is not None) == (0, True)
        assert (one.flagged, one.pending) == (1, 0)
        assert [seat.position for seat in one.seats] == [1, 2, 3, 4, 5]
        assert one.first_dealer is not None and one.first_dealer.player in seat_names(round, 1)

    def test_results_awaiting_confirmation_are_counted(self) -> None:
        round = published_round(tournament_with(5, requires_confirmation=True))
        play_set(tables_of(round)[0], games=2)
        [table] = round_progress(round=round)
        assert table.pending == 2

    @pytest.mark.parametrize("players", [5, 20])
    def test_it_runs_three_queries_however_many_tables(
        self, players, django_assert_num_queries
    ) -> None:
        round = published_round(tournament_with(players))
        for table in tables_of(round):
            play_set(table, games=2)
        # Tables, seats, and the scored deals' results: the game says whose match is over.
        with django_assert_num_queries(3):
            tables = round_progress(round=round)
        assert sum(len(table.seats) for table in tables) == players


# --- standings_for_director ---------------------------------------------------------------------


class TestStandings:
    def test_totals_add_the_scored_games_and_the_rulings(self, five, table) -> None:
        play(table, 1, winner=0)  # seat 1 out; seat n scores 10 + n
        play(table, 2, winner=1, down_and_out=True)  # seat 2 goes down and out: others doubled
        names = names_at(table)
        lines = by_name(five)
        assert lines[names[0]].total == 0 + 2 * 11
        assert (lines[names[1]].stats["games_won"], lines[names[1]].stats["down_and_outs"]) == (
            1,
            1,
        )
        assert lines[names[1]].total == 12 + 0
        assert lines[names[4]].games_played == 2

    def test_a_penalty_adds_and_its_reversal_cancels_with_the_ruling_behind_the_number(
        self, five, table
    ) -> None:
        play(table, 1)
        name = names_at(table)[2]
        before = by_name(five)[name].total
        penalty = penalty_ruling(
            tournament=five,
            entry=player(five, name),
            points=50,
            decision="Overcall found after the game (R6.3).",
        )
        line = by_name(five)[name]
        assert (line.total, line.ruling_points) == (before + 50, 50)
        assert [ruling.id for ruling in line.rulings] == [penalty.pk]
        assert line.rulings[0].decision.startswith("Overcall")
        reversal = ruling_reverse(ruling=penalty, by=None, reason="Miscounted calls.")
        line = by_name(five)[name]
        assert line.total == before
        assert [(r.id, r.reverses_id) for r in line.rulings] == [
            (penalty.pk, None),
            (reversal.pk, penalty.pk),
        ]
        assert line.rulings[0].reversed_by_id == reversal.pk

    def test_a_ruling_shows_behind_the_number_once_the_number_counts_it(self, five, table) -> None:
        play(table, 1)
        name = names_at(table)[1]
        before = by_name(five)[name]
        penalty_ruling(tournament=five, entry=player(five, name), points=5, decision="Late.")
        queued = standings_for_director(tournament=five).lines  # the refresh has not run yet
        [line] = [line for line in queued if line.player == name]
        assert (line.total, line.rulings) == (before.total, ())
        line = by_name(five)[name]
        assert (line.total, len(line.rulings)) == (before.total + 5, 1)

    @pytest.mark.parametrize("offset", [timedelta(0), timedelta(hours=-1)], ids=["same", "behind"])
    def test_a_ruling_the_snapshot_did_not_read_stays_out_whatever_the_clocks_say(
        self, five, table, offset
    ) -> None:
        """The ruling is dated at the snapshot's very time, or an hour before it (the web
        process's clock behind the worker's): still not in the totals, so not behind them."""
        play(table, 1)
        name = names_at(table)[1]
        before = by_name(five)[name]
        late = penalty_ruling(tournament=five, entry=player(five, name), points=5, decision="!")
        computed_at = datetime.fromisoformat(
            StandingsSnapshot.objects.filter(tournament=five).latest().data["computed_at"]
        )
        Ruling.objects.filter(pk=late.pk).update(decided_at=computed_at + offset)
        line = shown_now(five, name)
        assert (line.total, line.rulings) == (before.total, ())

    def test_a_ruling_the_snapshot_read_shows_whatever_the_clocks_say(self, five, table) -> None:
        """Dated a minute after the snapshot (the web process's clock ahead of the worker's), the
        ruling is in the totals all the same: it shows behind them."""
        play(table, 1)
        name = names_at(table)[1]
        before = by_name(five)[name]
        late = penalty_ruling(tournament=five, entry=player(five, name), points=5, decision="!")
        by_name(five)  # the refresh reads it
        Ruling.objects.filter(pk=late.pk).update(decided_at=late.decided_at + timedelta(minutes=1))
        line = shown_now(five, name)
        assert (line.total, [ruling.id for ruling in line.rulings]) == (before.total + 5, [late.pk])

    def test_a_reversal_shows_once_the_totals_count_it(self, five, table) -> None:
        play(table, 1)
        name = names_at(table)[3]
        before = by_name(five)[name].total
        penalty = penalty_ruling(tournament=five, entry=player(five, name), points=50, decision="!")
        by_name(five)  # the penalty is counted
        reversal = ruling_reverse(ruling=penalty, by=None, reason="Miscounted calls.")
        line = shown_now(five, name)
        assert line.total == before + 50  # the reversal's refresh has not run yet
        assert [(r.id, r.reversed_by_id) for r in line.rulings] == [(penalty.pk, None)]
        line = by_name(five)[name]
        assert line.total == before
        assert [(r.id, r.reversed_by_id) for r in line.rulings] == [
            (penalty.pk, reversal.pk),
            (reversal.pk, None),
        ]

    def test_an_older_ruling_committed_after_the_snapshot_stays_out(self, five, table) -> None:
        """Ids are taken at insert: ruling 10 may commit after ruling 11 was read. The snapshot
        says which rulings it counted, so 10 is not shown behind totals that lack it."""
        play(table, 1)
        name = names_at(table)[1]
        first = penalty_ruling(tournament=five, entry=player(five, name), points=5, decision="!")
        second = penalty_ruling(tournament=five, entry=player(five, name), points=7, decision="?")
        assert first.pk < second.pk
        snapshot = standings_refresh(tournament_id=five.pk)
        snapshot.data["counted_rulings"] = [second.pk]  # as if `first` committed just after
        StandingsSnapshot.objects.filter(pk=snapshot.pk).update(data=snapshot.data)
        cache.clear()  # read from the database, then
        [line] = [
            line for line in standings_for_director(tournament=five).lines if line.player == name
        ]
        assert [ruling.id for ruling in line.rulings] == [second.pk]

    @pytest.mark.parametrize("shape", [("last_ruling_id", "counted_rulings"), ("counted_rulings",)])
    def test_a_snapshot_stored_before_it_recorded_its_rulings_is_recomputed(
        self, five, table, shape
    ) -> None:
        play(table, 1)
        name = names_at(table)[1]
        penalty = penalty_ruling(tournament=five, entry=player(five, name), points=5, decision="!")
        old = standings_refresh(tournament_id=five.pk)
        for key in shape:  # as stored, and cached, by the code before it
            del old.data[key]
        StandingsSnapshot.objects.filter(pk=old.pk).update(
            data=old.data, last_ruling_id=None, source_stamp="stamped the old way"
        )
        cache.clear()  # read from the database, then
        shown = standings_for_director(tournament=five)
        [line] = [line for line in shown.lines if line.player == name]
        assert shown.version == old.version + 1
        assert [ruling.id for ruling in line.rulings] == [penalty.pk]

    def test_level_players_share_a_place_after_the_tie_breaks_r12_3(self, five, table) -> None:
        play(table, 1, winner=0)  # A 0, B 12, C 13, D 14, E 15
        a, b, c, d, e = (player(five, name) for name in names_at(table))
        for who, points, kind in [(a, 12, Kind.PENALTY_POINTS), (d, -1, Kind.SCORE_CORRECTION)]:
            ruling_record(
                tournament=five,
                by=None,
                kind=kind,
                entry=who,
                table=table,
                points=points,
                decision="Adjusted.",
            )
        rounds_over(five)
        places = [(line.player, line.place, line.shared) for line in standings(five)]
        names = [entry.player.name for entry in (a, b, c, d, e)]
        # A and B level at 12: A went out once (R12.3 (1)); C and D level at 13 in every way.
        assert places == [
            (names[0], 1, False),
            (names[1], 2, False),
            *sorted([(names[2], 3, True), (names[3], 3, True)]),
            (names[4], 5, False),
        ]

    def test_the_latest_round_score_is_the_latest_rounds_alone(self, five, table) -> None:
        play(table, 1, winner=0, points=10)
        second = published_round(five, number=2, seed=2)
        play(tables_of(second)[0], 1, winner=0, points=20)
        for line in standings(five):
            position = seat_names(second, 1).index(line.player) + 1
            expected = 0 if position == 1 else 20 + position
            assert line.latest_round_score == expected

    def test_a_ruling_counts_in_the_round_being_played(self, five, table) -> None:
        play(table, 1)
        name = names_at(table)[1]
        before = by_name(five)[name]
        penalty_ruling(tournament=five, entry=player(five, name), points=10, decision="Late back.")
        line = by_name(five)[name]
        assert line.latest_round_score == before.latest_round_score + 10
        assert line.rulings[0].round_number == 1

    def test_only_confirmed_scored_games_count(self) -> None:
        tournament = tournament_with(5, requires_confirmation=True)
        [table] = tables_of(published_round(tournament))
        result_record(table=table, number=1, void=True, via="test")
        play(table, 1)
        assert {line.games_played for line in standings(tournament)} == {0}

    def test_players_without_a_game_and_disqualified_players_are_not_placed(
        self, five, table
    ) -> None:
        play(table, 1)
        EntryFactory(tournament=five, player__name="Zoe", status=Entry.Status.REGISTERED)
        out = player(five, names_at(table)[0])
        ruling_record(tournament=five, by=None, kind=Kind.DISQUALIFICATION, entry=out, decision="!")
        rounds_over(five)
        lines = standings(five)
        assert [line.place for line in lines[:4]] == [1, 2, 3, 4]
        unplaced = {line.player: line.status_label for line in lines[4:]}
        assert unplaced == {out.player.name: "Disqualified", "Zoe": "Registered"}
        assert all(line.place is None for line in lines[4:])

    @pytest.mark.parametrize("players", [10, 60])
    def test_it_runs_one_query_while_the_standings_are_cached(
        self, players, django_assert_num_queries
    ) -> None:
        tournament = tournament_with(players)
        for table in tables_of(published_round(tournament)):
            play_set(table, games=2)
        for entry in tournament.entries.all()[:3]:
            penalty_ruling(tournament=tournament, entry=entry, points=5, decision="Noted.")
        standings_refresh(tournament_id=tournament.pk)
        with django_assert_num_queries(1):  # the rulings; the standings come from the cache
            lines = standings_for_director(tournament=tournament).lines
        assert len(lines) == players
        cache.clear()
        with django_assert_num_queries(2):  # and the stored snapshot, when the cache lost it
            standings_for_director(tournament=tournament)


# --- pages ---------------------------------------------------------------------------------------


@pytest.fixture
def open_() -> Tournament:
    """The Open: ten checked-in players, round 1 a draft seated with seed 7."""
    tournament = tournament_with(10, name="Open", slug="open", rounds_planned=2)
    seated_round(tournament, seed=7)
    return tournament


@pytest.fixture
def alice(open_, client: Client) -> Client:
    client.force_login(director_of(open_))
    return client


@pytest.fixture
def open_tables(open_) -> list[Table]:
    """Round 1 of the Open published: its two tables, ready to play."""
    return tables_of(round_publish(round=open_.rounds.get(), by=None))


def url(*parts: object) -> str:
    return "/director/open/" + "/".join(str(part) for part in parts)


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


class TestRoundPage:
    def test_it_shows_the_tables_seats_first_dealers_seed_and_next_steps(self, alice) -> None:
        page = alice.get(url("rounds", 1, "")).content.decode()
        assert "Table 1" in page and "Table 2" in page
        assert page.count("first dealer</strong>") == 2
        assert "Seating seed <strong>7</strong>: same seed, same tables" in page
        assert "Yes, publish round 1" in page and 'name="confirm" required' in page

    def test_a_step_needs_its_box_ticked(self, alice, open_) -> None:
        response = alice.post(url("rounds", 1, "publish"), follow=True)
        assert "Nothing was done: tick “Yes, publish round 1”" in messages_of(response)[0]
        assert open_.rounds.get().status == Round.Status.DRAFT

    def test_a_confirmed_step_is_taken(self, alice, open_) -> None:
        response = alice.post(url("rounds", 1, "publish"), {"confirm": "on"}, follow=True)
        assert messages_of(response) == ["Round 1 is published: print its table cards."]
        assert open_.rounds.get().status == Round.Status.PUBLISHED

    def test_a_refused_step_says_why(self, alice, open_) -> None:
        Round.objects.filter(tournament=open_).update(status=Round.Status.IN_PLAY)
        response = alice.post(url("rounds", 1, "complete"), {"confirm": "on"}, follow=True)
        assert "Table 1 has played 0 of 9 games" in messages_of(response)[0]

    def test_seating_with_a_seed_reproduces_the_tables(self, alice, open_) -> None:
        round = open_.rounds.get()
        before = [seat_names(round, 1), seat_names(round, 2)]
        response = alice.post(url("rounds", 1, "seat"), {"seed": 7, "confirm": "on"}, follow=True)
        assert messages_of(response) == [
            "Seated 10 players at 2 tables (seed 7: same seed, same tables)."
        ]
        assert [seat_names(round, 1), seat_names(round, 2)] == before

    def test_reseating_over_a_seating_needs_the_box_ticked(self, alice, open_) -> None:
        response = alice.post(url("rounds", 1, "seat"), {"seed": 8}, follow=True)
        assert "replace the seating of round 1" in messages_of(response)[0]
        assert open_.rounds.get().seating_seed == 7

    def test_swap_and_move_forms_change_a_draft(self, alice, open_) -> None:
        round = open_.rounds.get()
        a, b = seat_names(round, 1)[0], seat_names(round, 2)[0]
        alice.post(
            url("rounds", 1, "swap"),
            {"entry_a": player(open_, a).pk, "entry_b": player(open_, b).pk},
        )
        assert seat_names(round, 1)[0] == b
        table_two = round.tables.get(number=2)
        alice.post(url("rounds", 1, "move"), {"entry": player(open_, b).pk, "table": table_two.pk})
        assert seat_names(round, 2)[-1] == b

    def test_after_publishing_the_page_offers_a_seat_change_by_ruling(self, alice, open_) -> None:
        alice.post(url("rounds", 1, "publish"), {"confirm": "on"})
        page = alice.get(url("rounds", 1, "")).content.decode()
        assert "Change seats by ruling" in page and "Swap two players" not in page
        round = open_.rounds.get()
        a, b = seat_names(round, 1)[0], seat_names(round, 2)[0]
        response = alice.post(
            url("rounds", 1, "seat-ruling"),
            {"entry": player(open_, a).pk, "swap_with": player(open_, b).pk, "decision": "Swap."},
            follow=True,
        )
        assert messages_of(response)[0].startswith("Seats changed by ruling")
        assert Ruling.objects.get().kind == Kind.SEATING_CHANGE

    def test_the_next_round_is_added_by_a_post(self, alice, open_) -> None:
        alice.post(url("rounds", 1, "publish"), {"confirm": "on"})
        response = alice.post(url("rounds", "add"))
        assert response.status_code == 302 and response["Location"] == url("rounds", 2, "")
        assert open_.rounds.count() == 2

    def test_a_refused_addition_says_why(self, alice) -> None:
        response = alice.post(url("rounds", "add"), follow=True)
        assert "Round 1 is still a draft" in messages_of(response)[0]


class TestDashboard:
    def test_it_shows_each_tables_progress_and_the_live_standings(
        self, alice, open_tables, django_capture_on_commit_callbacks
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            play_set(open_tables[0], games=6)
        response = alice.get(url("rounds", 1, "dashboard"))
        page = response.content.decode()
        assert "6/9" in page and "0/9" in page
        assert '<meta http-equiv="refresh" content="10">' in page  # inside <noscript>
        assert (
            '<script src="/static/js/dashboard.js" defer></script>' in page
            and 'data-src="/director/open/rounds/1/dashboard?partial=1&amp;tables=1&amp;'
            'standings=1"'
            in page
        )
        version = response.context["standings"].version
        assert "Standings" in page and f"(version {version})" in page
        assert "ties broken by more games won, then more down-and-outs" in page  # the game's

    def test_the_refreshing_part_comes_alone(self, alice) -> None:
        fragment = alice.get(url("rounds", 1, "dashboard") + "?partial=1").content.decode()
        assert "<html" not in fragment and "Standings" in fragment

    def test_a_ruling_shows_behind_the_number(
        self, alice, open_, open_tables, django_capture_on_commit_callbacks
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            play(open_tables[0], 1)
            ruling = penalty_ruling(
                tournament=open_,
                entry=player(open_, names_at(open_tables[0])[1]),
                points=25,
                decision="Late back from the break.",
            )
        page = alice.get(url("rounds", 1, "dashboard")).content.decode()
        assert f'href="/director/open/rulings/#ruling-{ruling.pk}"' in page
        assert "Late back from the break." in page and "<summary>+25</summary>" in page

    @pytest.mark.parametrize("players", [10, 60])
    @pytest.mark.parametrize("part", ["", "?partial=1"])
    def test_the_page_runs_ten_queries_however_many_players(
        self, client: Client, players, part, django_capture_on_commit_callbacks
    ) -> None:
        tournament = tournament_with(players, slug="field")
        with django_capture_on_commit_callbacks(execute=True):
            for table in tables_of(published_round(tournament)):
                play_set(table, games=3)
            for entry in tournament.entries.all()[:2]:
                penalty_ruling(tournament=tournament, entry=entry, points=5, decision="5.")
        client.force_login(director_of(tournament))
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/director/field/rounds/1/dashboard" + part)
        assert response.status_code == 200
        # The top of the standings; the rest a page at a time.
        assert len(response.context["standings"].lines) == min(players, STANDINGS_PER_PAGE)
        assert response.context["standings"].count == players
        # Session, user, tournament, round; tables, seats and the deals' results (3, the game
        # says whose match is over); clock events; calls; rulings. The standings come from the
        # cache, as the leaderboard's do.
        assert len(queries) == 10, [query["sql"] for query in queries]


# --- the dashboard and the public leaderboard --------------------------------------------------

LEADER_ROW = re.compile(
    r'<tr id="entry-(\d+)".*?<td class="num place">([^<]+)</td>'
    r'.*?<td class="num total"><strong>(-?\d+)</strong>'
)


def place_label(place: int | None, shared: bool) -> str:
    return "—" if place is None else f"={place}" if shared else str(place)


def on_the_dashboard(client: Client) -> dict[int, tuple[str, int]]:
    """Each player's place and total as the dashboard shows them, by entry."""
    lines = client.get(url("rounds", 1, "dashboard")).context["standings"].lines
    return {
        line.entry_id: (place_label(line.place, line.shared), line.ranked_total) for line in lines
    }


def in_the_api(client: Client) -> dict[int, tuple[str, int]]:
    rows = client.get("/api/tournaments/open/standings").json()["players"]
    return {
        row["entry"]: (place_label(row["place"], row["shared"]), row["ranked_total"])
        for row in rows
    }


def on_the_leaderboard(client: Client) -> dict[int, tuple[str, int]]:
    page = client.get("/p/open/leaderboard/rows").content.decode()
    return {int(entry): (place, int(total)) for entry, place, total in LEADER_ROW.findall(page)}


class TestTheSameStandingsAsTheLeaderboard:
    """The director and the hall's projector never disagree: both show the newest snapshot."""

    @pytest.fixture(autouse=True)
    def _published(self, open_) -> None:
        Tournament.objects.filter(pk=open_.pk).update(is_published=True)

    def test_places_and_totals_agree_after_results_a_ruling_and_a_tie_r12_3(
        self, alice, open_, open_tables, django_capture_on_commit_callbacks
    ) -> None:
        one, two = open_tables
        with django_capture_on_commit_callbacks(execute=True):
            play(one, 1, winner=0)  # at each table: 0, 12, 13, 14, 15
            play(two, 1, winner=0)
            slow = player(open_, names_at(two)[1])
            penalty_ruling(tournament=open_, entry=slow, points=1, decision="Slow play.")
            rounds_over(open_)
            standings_changed(open_.pk)
        shown = on_the_dashboard(alice)
        assert shown == in_the_api(alice) == on_the_leaderboard(alice)
        assert len(shown) == 10 and shown[slow.pk] == ("=4", 13)
        # Level on every tie-break, players share the place and the next places are skipped.
        assert sorted(shown.values(), key=lambda place_total: place_total[1]) == [
            *[("=1", 0)] * 2,
            ("3", 12),
            *[("=4", 13)] * 3,
            *[("=7", 14)] * 2,
            *[("=9", 15)] * 2,
        ]
        page = alice.get(url("rounds", 1, "dashboard")).content.decode()
        assert page.count('<td class="num">=4</td>') == 3

    def test_a_change_shows_on_neither_until_its_refresh_runs_then_on_both(
        self, alice, open_, open_tables, django_capture_on_commit_callbacks
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            play(open_tables[0], 1)
            rounds_over(open_)
            standings_changed(open_.pk)
        before = on_the_dashboard(alice)
        with django_capture_on_commit_callbacks() as queued:
            late = player(open_, names_at(open_tables[0])[1])
            penalty_ruling(tournament=open_, entry=late, points=25, decision="Late back.")
        assert on_the_dashboard(alice) == in_the_api(alice) == before
        for refresh in queued:  # the refresh queued when the ruling was committed
            refresh()
        after = on_the_dashboard(alice)
        assert after == in_the_api(alice) == on_the_leaderboard(alice)
        assert after[late.pk][1] == before[late.pk][1] + 25
        version = alice.get(url("rounds", 1, "dashboard")).context["standings"].version
        etag = alice.get("/p/open/leaderboard")["ETag"]
        assert etag == f'W/"{open_.pk}.{version}"'


@pytest.mark.parametrize("publish", [False, True])
def test_the_round_page_runs_the_same_queries_for_a_small_and_a_large_field(
    client: Client, publish
) -> None:
    counts = []
    for players, slug in [(5, "small"), (25, "large")]:
        tournament = tournament_with(players, slug=slug)
        round = published_round(tournament) if publish else seated_round(tournament)
        client.force_login(director_of(tournament, f"director-{slug}"))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/director/{slug}/rounds/1/").status_code == 200
        counts.append(len(queries))
        assert round.tables.count() == (1 if players == 5 else 5)
    assert counts[0] == counts[1], counts


def test_the_rulings_page_runs_the_same_queries_for_few_and_many_rulings(client: Client) -> None:
    counts = []
    for players, slug in [(5, "small"), (20, "large")]:
        tournament = tournament_with(players, slug=slug)
        round = published_round(tournament)
        for entry in tournament.entries.all():
            ruling_record(
                tournament=tournament,
                by=None,
                kind=Kind.WARNING,
                entry=entry,
                table=tables_of(round)[0] if entry.seats.get().table.number == 1 else None,
                decision="Noted.",
            )
        client.force_login(director_of(tournament, f"director-{slug}"))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/director/{slug}/rulings/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


class TestRulingsPage:
    def test_it_records_a_ruling_from_the_form(self, alice, open_) -> None:
        ann = player(open_, "Ann")
        response = alice.post(
            url("rulings", ""),
            {"kind": "penalty_points", "entry": ann.pk, "points": 25, "decision": "Talked."},
            follow=True,
        )
        ruling = Ruling.objects.get()
        assert messages_of(response) == [f"Ruling {ruling.pk} is recorded."]
        assert (ruling.entry, ruling.points) == (ann, 25)

    def test_a_refused_ruling_shows_the_reason_on_the_field(self, alice, open_) -> None:
        response = alice.post(
            url("rulings", ""),
            {"kind": "warning", "entry": player(open_, "Ann").pk, "points": 5, "decision": "!"},
        )
        assert response.status_code == 200
        assert "Only penalty points and score corrections carry points" in str(
            response.context["form"].errors["points"]
        )
        assert not Ruling.objects.exists()

    def test_a_game_is_picked_by_its_number_at_a_table(self, alice, open_) -> None:
        alice.post(url("rounds", 1, "publish"), {"confirm": "on"})
        table = tables_of(open_.rounds.get())[0]
        game = play(table, 1)
        alice.post(
            url("rulings", ""),
            {
                "kind": "void_redeal",
                "table": table.pk,
                "game": 1,
                "points": 0,
                "decision": "Redeal.",
            },
        )
        assert Ruling.objects.get().deal == game

    def test_the_list_is_newest_first_with_reversals_linked(self, alice, open_) -> None:
        ann = player(open_, "Ann")
        first = ruling_record(
            tournament=open_, by=None, kind=Kind.WARNING, entry=ann, decision="First."
        )
        response = alice.post(url("rulings", first.pk, "reverse"), {"reason": "Wrong player."})
        assert response.status_code == 302
        reversal = Ruling.objects.get(reverses=first)
        page = alice.get(url("rulings", "")).content.decode()
        ids = [int(found) for found in re.findall(r'<tr id="ruling-(\d+)"', page)]
        assert ids == [reversal.pk, first.pk]
        assert f'Reversed by <a href="#ruling-{reversal.pk}">' in page
        assert f'Reverses <a href="#ruling-{first.pk}">' in page

    def test_a_reversal_without_a_reason_is_refused(self, alice, open_) -> None:
        ann = player(open_, "Ann")
        ruling = ruling_record(
            tournament=open_, by=None, kind=Kind.WARNING, entry=ann, decision="!"
        )
        response = alice.post(url("rulings", ruling.pk, "reverse"), {"reason": ""}, follow=True)
        assert "say why it is reversed" in messages_of(response)[0]
        assert Ruling.objects.count() == 1


# --- who may see the pages ----------------------------------------------------------------------

PAGES = [
    ("get", "rounds/"),
    ("get", "rounds/1/"),
    ("get", "rounds/1/dashboard"),
    ("get", "rulings/"),
]
ACTIONS = [("post", "rounds/1/publish"), ("post", "rounds/add"), ("post", "rounds/1/seat")]


@pytest.mark.parametrize(("method", "path"), PAGES + ACTIONS)
def test_others_are_refused_and_learn_nothing(client: Client, open_, method, path) -> None:
    target = f"/director/open/{path}"
    assert getattr(client, method)(target).status_code == 302  # anonymous: sign in first
    sam = StaffRoleFactory(tournament=open_, role=StaffRole.Role.SCOREKEEPER).user
    bob = StaffRoleFactory(tournament__name="Cup", user__username="bob").user
    for outsider in (sam, bob):
        client.force_login(outsider)
        assert getattr(client, method)(target, {"confirm": "on"}).status_code == 404
    assert open_.rounds.get().status == Round.Status.DRAFT and open_.rounds.count() == 1


@pytest.mark.parametrize(("method", "path"), PAGES)
def test_the_director_sees_every_page(alice, method, path) -> None:
    assert getattr(alice, method)(f"/director/open/{path}").status_code == 200
