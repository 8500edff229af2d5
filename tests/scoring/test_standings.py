"""Standings (R12.3) as derived data: computed from results and rulings, kept as snapshots.

Every test plays real games through the services (tests/scoring/playing.py): in `play`, the
player at seat index `winner` goes out and each other player scores `points` + their seat number.
"""

import gc
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from scoring.models import Ruling, StandingsSnapshot
from scoring.rulings import ruling_record, ruling_reverse
from scoring.standings import (
    standings_compute,
    standings_current,
    standings_refresh,
    standings_stamp,
)
from scoring.standings_queue import (
    WINDOW_SECONDS,
    clear_pending,
    open_window,
    standings_changed,
)
from scoring.tasks import reconcile_standings
from tests.factories import EntryFactory
from tests.scoring.playing import (
    entry,
    penalty_ruling,
    play,
    play_set,
    published_round,
    rounds_over,
    tournament_with,
    warning_ruling,
)
from tournament.models import Entry, Tournament
from tournament.services import entry_withdraw, player_add, players_import_csv

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def tournament() -> Tournament:
    """Ten players at two tables of five, round 1 published."""
    tournament = tournament_with(10)
    published_round(tournament)
    return tournament


def rows(tournament: Tournament) -> dict[str, dict]:
    return {row["player"]: row for row in standings_compute(tournament=tournament)["players"]}


def seated(table) -> list[str]:
    return [seat.entry.player.name for seat in table.seats.order_by("position")]


def test_the_lowest_total_leads_and_players_are_placed_r12_3(tournament: Tournament) -> None:
    table = tournament.rounds.get().tables.get(number=1)
    play(table, 1, winner=0)
    rounds_over(tournament)
    names = seated(table)
    standings = standings_compute(tournament=tournament)["players"]
    assert standings[0]["player"] == names[0] and standings[0]["total"] == 0
    assert [row["place"] for row in standings[:5]] == [1, 2, 3, 4, 5]
    assert rows(tournament)[names[4]]["total"] == 10 + 5  # points + seat position
    assert rows(tournament)[names[0]]["stats"]["games_won"] == 1


def test_level_totals_are_broken_by_games_won_then_down_and_outs_r12_3(
    tournament: Tournament,
) -> None:
    one, two = tournament.rounds.get().tables.order_by("number")
    play(one, 1, winner=0)  # seat 1 of table 1: 0 points, one game won
    play(two, 1, winner=1)  # seat 2 of table 2: 0 points, one game won, and...
    play(two, 2, winner=1, down_and_out=True)  # ...a down-and-out: more of them ranks higher
    play(one, 2, winner=0)
    rounds_over(tournament)
    standings = rows(tournament)
    leader_two, leader_one = seated(two)[1], seated(one)[0]
    assert standings[leader_two]["total"] == standings[leader_one]["total"] == 0
    assert standings[leader_two]["place"] == 1 and standings[leader_one]["place"] == 2


def test_players_level_on_every_tie_break_share_the_place_r12_3(tournament: Tournament) -> None:
    one, two = tournament.rounds.get().tables.order_by("number")
    play(one, 1, winner=0)
    play(two, 1, winner=0)
    rounds_over(tournament)
    standings = rows(tournament)
    first_one, first_two = seated(one)[0], seated(two)[0]
    assert standings[first_one]["place"] == standings[first_two]["place"] == 1
    assert standings[first_one]["shared"] and standings[first_two]["shared"]
    assert {row["place"] for row in standings.values()} >= {1, 3}  # 1, 1, 3: the 2nd is skipped


def test_a_ruling_shows_in_the_total_and_its_reversal_takes_it_out_r12_4(
    tournament: Tournament,
) -> None:
    table = tournament.rounds.get().tables.get(number=1)
    play(table, 1)
    ben = entry(tournament, seated(table)[1])
    before = rows(tournament)[ben.player.name]["total"]
    ruling = ruling_record(
        tournament=tournament,
        by=None,
        kind="penalty_points",
        points=25,
        entry=ben,
        decision="25 points for a card shown",
    )
    assert rows(tournament)[ben.player.name]["total"] == before + 25
    assert rows(tournament)[ben.player.name]["ruling_points"] == 25
    ruling_reverse(ruling=ruling, by=None, reason="the card was not seen by anyone")
    assert rows(tournament)[ben.player.name]["total"] == before


def test_a_withdrawn_player_keeps_their_scores_and_shows_as_withdrawn(
    tournament: Tournament,
) -> None:
    table, other = tournament.rounds.get().tables.order_by("number")
    play(table, 1)
    play(other, 1)  # game 1 played at every table: it counts
    quitter = entry(tournament, seated(table)[2])
    Entry.objects.filter(pk=quitter.pk).update(status=Entry.Status.WITHDRAWN)
    row = rows(tournament)[quitter.player.name]
    assert row["status"] == "withdrawn" and row["total"] == 13 and row["place"] is not None


def test_a_disqualified_player_is_listed_without_a_place(tournament: Tournament) -> None:
    table = tournament.rounds.get().tables.get(number=1)
    play(table, 1)
    cheat = entry(tournament, seated(table)[3])
    ruling_record(
        tournament=tournament,
        by=None,
        kind="disqualification",
        entry=cheat,
        decision="Disqualified for marking cards",
    )
    standings = standings_compute(tournament=tournament)["players"]
    row = next(row for row in standings if row["entry"] == cheat.pk)
    assert row["place"] is None and row["status"] == "disqualified"
    assert standings.index(row) >= len([r for r in standings if r["place"]])


def test_movement_counts_places_since_the_previous_round() -> None:
    tournament = tournament_with(5)
    [table] = published_round(tournament).tables.all()
    play_set(table, winner=0)
    table.round.status = "locked"
    table.round.save()
    [table2] = published_round(tournament, number=2, seed=2).tables.all()
    for number in range(1, 10):
        play(table2, number, winner=4, points=40)
    standings = rows(tournament)
    assert all(row["movement"] is not None for row in standings.values())
    assert sum(row["movement"] for row in standings.values()) == 0
    assert standings[seated(table2)[4]]["last_game"] == 0


def test_table_standings_show_each_sets_totals(tournament: Tournament) -> None:
    table = tournament.rounds.get().tables.get(number=1)
    play(table, 1)
    play(table, 2)
    [first] = [t for t in standings_compute(tournament=tournament)["tables"] if t["table"] == 1]
    assert first["games_played"] == 2
    assert [seat["total"] for seat in first["seats"]] == [0, 24, 26, 28, 30]


class TestSnapshots:
    def test_refreshing_twice_from_the_same_facts_stores_one_snapshot(
        self, tournament: Tournament
    ) -> None:
        play(tournament.rounds.get().tables.get(number=1), 1)
        first = standings_refresh(tournament_id=tournament.pk)
        second = standings_refresh(tournament_id=tournament.pk)
        assert first.pk == second.pk and first.data == second.data

    def test_a_change_stores_the_next_version(self, tournament: Tournament) -> None:
        table = tournament.rounds.get().tables.get(number=1)
        play(table, 1)
        first = standings_refresh(tournament_id=tournament.pk)
        play(table, 2)
        second = standings_refresh(tournament_id=tournament.pk)
        assert second.version == first.version + 1
        assert standings_current(tournament=tournament)["version"] == second.version

    def test_an_older_snapshot_never_replaces_a_newer_one_in_the_cache(
        self, tournament: Tournament
    ) -> None:
        table = tournament.rounds.get().tables.get(number=1)
        play(table, 1)
        old = standings_refresh(tournament_id=tournament.pk)
        play(table, 2)
        new = standings_refresh(tournament_id=tournament.pk)
        from scoring.standings import _cache_put

        _cache_put(old)  # a slow worker finishing late
        assert standings_current(tournament=tournament)["version"] == new.version

    def test_saving_a_result_refreshes_the_standings(
        self, tournament: Tournament, django_capture_on_commit_callbacks
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            play(tournament.rounds.get().tables.get(number=1), 1)
        assert StandingsSnapshot.objects.filter(tournament=tournament).exists()
        assert standings_current(tournament=tournament)["players"][0]["total"] == 0

    def test_withdrawing_a_player_refreshes_the_standings(
        self, tournament: Tournament, django_capture_on_commit_callbacks
    ) -> None:
        """The standings show each player's status: an entry's change queues a refresh too."""
        table = tournament.rounds.get().tables.get(number=1)
        play(table, 1)
        quitter = entry(tournament, seated(table)[2])
        standings_refresh(tournament_id=tournament.pk)
        with django_capture_on_commit_callbacks(execute=True):
            entry_withdraw(entry=quitter, by=None)
        row = next(
            row
            for row in standings_current(tournament=tournament)["players"]
            if row["entry"] == quitter.pk
        )
        assert row["status"] == "withdrawn"

    def test_the_reconcile_catches_up_with_a_lost_entry_change(
        self, tournament: Tournament
    ) -> None:
        """No game and no ruling yet: the withdrawal alone makes the tournament recent."""
        before = standings_refresh(tournament_id=tournament.pk)
        quitter = entry(tournament, seated(tournament.rounds.get().tables.get(number=1))[2])
        entry_withdraw(entry=quitter, by=None)  # its refresh never queued (no commit here)
        reconcile_standings()
        assert standings_current(tournament=tournament)["version"] == before.version + 1

    def test_the_reconcile_catches_up_with_new_entries_alone(
        self, register: Callable[[Tournament], None]
    ) -> None:
        """Five players registered two days ago, none seated: Uma and Val register now, and the
        refresh their registration queued is lost. The reconcile must see them as a change."""
        tournament = tournament_with(5)
        two_days_ago = timezone.now() - timedelta(days=2)
        tournament.entries.update(registered_at=two_days_ago, status_changed_at=two_days_ago)
        before = standings_refresh(tournament_id=tournament.pk)
        register(tournament)  # its refresh never queued (no commit here)
        reconcile_standings()
        after = standings_current(tournament=tournament)
        assert after["version"] == before.version + 1
        assert {"Uma", "Val"} <= {row["player"] for row in after["players"]}

    def test_the_fingerprint_is_a_digest_of_every_fact(self, tournament: Tournament) -> None:
        """Not cut short: a big tournament's last facts count as much as its first."""
        stamp = standings_stamp(tournament=tournament)
        assert len(stamp) == 64
        Entry.objects.filter(tournament=tournament).update(status_changed_at=timezone.now())
        assert standings_stamp(tournament=tournament) != stamp

    def test_the_standings_are_read_from_the_database_when_the_cache_is_empty(
        self, tournament: Tournament
    ) -> None:
        play(tournament.rounds.get().tables.get(number=1), 1)
        cache.clear()
        assert standings_current(tournament=tournament)["latest_round"] == 1


def add_uma_and_val(tournament: Tournament) -> None:
    for name in ("Uma", "Val"):
        player_add(tournament=tournament, by=None, name=name)


def import_uma_and_val(tournament: Tournament) -> None:
    players_import_csv(tournament=tournament, by=None, text="name,club\nUma,Mona\nVal,Mona\n")


def create_uma_and_val(tournament: Tournament) -> None:
    """Outside the services, as the demo and the benchmarks do."""
    for name in ("Uma", "Val"):
        EntryFactory(tournament=tournament, player__name=name)


@pytest.fixture(params=[add_uma_and_val, import_uma_and_val, create_uma_and_val])
def register(request: pytest.FixtureRequest) -> Callable[[Tournament], None]:
    """Each way players are entered: one by one, from a players file (bulk_create), directly."""
    return request.param


class TestLastRuling:
    """A snapshot records the newest ruling it read: it counts every ruling up to it (R12.4)."""

    def test_a_snapshot_before_any_ruling_has_none(self, tournament: Tournament) -> None:
        play(tournament.rounds.get().tables.get(number=1), 1)
        snapshot = standings_refresh(tournament_id=tournament.pk)
        assert snapshot.last_ruling_id is None and snapshot.data["last_ruling_id"] is None

    def test_it_is_the_newest_ruling_read_with_points_or_without(
        self, tournament: Tournament
    ) -> None:
        table = tournament.rounds.get().tables.get(number=1)
        play(table, 1)
        ben = entry(tournament, seated(table)[1])
        penalty = penalty_ruling(
            tournament=tournament, entry=ben, points=25, decision="Cards shown."
        )
        assert standings_refresh(tournament_id=tournament.pk).last_ruling_id == penalty.pk
        warning = warning_ruling(tournament=tournament, entry=ben, decision="Slow play.")
        snapshot = standings_refresh(tournament_id=tournament.pk)
        assert snapshot.last_ruling_id == snapshot.data["last_ruling_id"] == warning.pk
        redeal = ruling_record(
            tournament=tournament, by=None, kind=Ruling.Kind.VOID_REDEAL, table=table, decision="!"
        )
        assert standings_refresh(tournament_id=tournament.pk).last_ruling_id == redeal.pk

    def test_it_is_stored_with_the_totals_that_count_it(self, tournament: Tournament) -> None:
        """A ruling recorded after the snapshot is neither in its totals nor up to its last."""
        table = tournament.rounds.get().tables.get(number=1)
        play(table, 1)
        ben = entry(tournament, seated(table)[1])
        counted = penalty_ruling(tournament=tournament, entry=ben, points=5, decision="Late.")
        snapshot = standings_refresh(tournament_id=tournament.pk)
        later = penalty_ruling(tournament=tournament, entry=ben, points=7, decision="Late again.")
        ben_row = next(row for row in snapshot.data["players"] if row["entry"] == ben.pk)
        assert ben_row["ruling_points"] == 5
        assert counted.pk <= snapshot.last_ruling_id < later.pk


class TestQueue:
    @pytest.fixture
    def queued(self, monkeypatch) -> list[float]:
        """The countdowns of the refreshes queued."""
        countdowns: list[float] = []
        monkeypatch.setattr(
            "scoring.tasks.refresh_standings.apply_async",
            lambda args, countdown: countdowns.append(countdown),
        )
        return countdowns

    @pytest.fixture
    def change(self, tournament: Tournament, django_capture_on_commit_callbacks):
        def changed() -> None:
            with django_capture_on_commit_callbacks(execute=True):
                standings_changed(tournament.pk)

        return changed

    def test_a_burst_of_changes_before_the_refresh_starts_queues_it_once(
        self, queued: list[float], change
    ) -> None:
        for _ in range(5):
            change()  # the refresh queued by the first reads them all when it starts
        assert queued == [0]

    def test_a_burst_while_a_refresh_computes_queues_one_at_its_windows_end(
        self, tournament: Tournament, queued: list[float], change
    ) -> None:
        change()
        clear_pending(tournament.pk)  # the refresh starts ...
        open_window(tournament.pk)  # ... and opens a window of its own
        for _ in range(5):
            change()
        assert queued == [0, pytest.approx(WINDOW_SECONDS, abs=0.1)]

    def test_a_change_while_the_refresh_computes_queues_the_next_one(
        self, tournament: Tournament, queued: list[float], change
    ) -> None:
        change()  # at once
        change()  # read by the refresh queued: it has not started
        clear_pending(tournament.pk)  # the refresh starts ...
        open_window(tournament.pk)  # ... and opens a window of its own
        change()  # perhaps not read by it: one more, at the end of its window
        change()
        clear_pending(tournament.pk)  # that one starts, and opens its window
        open_window(tournament.pk)
        change()
        window_end = pytest.approx(WINDOW_SECONDS, abs=0.1)
        assert queued == [0, window_end, window_end]

    def test_a_change_after_the_window_refreshes_at_once(
        self, tournament: Tournament, queued: list[float], change
    ) -> None:
        change()
        cache.delete(f"standings:window:{tournament.pk}")  # the window is over
        clear_pending(tournament.pk)
        change()
        assert queued == [0, 0]

    def test_the_refresh_opens_a_window(
        self, tournament: Tournament, queued: list[float], change
    ) -> None:
        from scoring.tasks import refresh_standings

        refresh_standings(tournament.pk)
        change()  # within a second of a refresh: gathered to its window's end
        assert queued == [pytest.approx(WINDOW_SECONDS, abs=0.5)] and queued[0] > 0

    @override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:1/0",
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            }
        }
    )
    def test_a_result_is_saved_within_a_second_when_redis_is_down(
        self, tournament: Tournament, django_capture_on_commit_callbacks
    ) -> None:
        import time

        started = time.perf_counter()
        with django_capture_on_commit_callbacks(execute=True):
            game = play(tournament.rounds.get().tables.get(number=1), 1)
        assert time.perf_counter() - started < 1.0
        assert game.pk and game.results.count() == 5
        # The standings still answer, from the database, and catch up on the next refresh.
        assert standings_current(tournament=tournament)["players"][0]["total"] == 0


class TestCollectorPaused:
    """The recompute holds off Python's cycle collector (a third of its time at 2,000 players)
    and leaves it as it found it, whatever happens."""

    def test_the_collector_is_on_again_after_a_recompute(self, tournament: Tournament) -> None:
        assert gc.isenabled()
        standings_compute(tournament=tournament)
        assert gc.isenabled()

    def test_the_collector_is_on_again_after_a_failed_recompute(
        self, tournament: Tournament, monkeypatch
    ) -> None:
        seen = []

        def failing(tournament: Tournament) -> None:
            seen.append(gc.isenabled())
            raise RuntimeError("the database went away")

        monkeypatch.setattr("scoring.standings._compute", failing)
        with pytest.raises(RuntimeError):
            standings_compute(tournament=tournament)
        assert seen == [False] and gc.isenabled()

    def test_a_collector_turned_off_by_someone_else_stays_off(self, tournament: Tournament) -> None:
        gc.disable()
        try:
            standings_compute(tournament=tournament)
            assert not gc.isenabled()
        finally:
            gc.enable()


def test_kalooki_standings_never_decode_a_results_breakdown(tournament, monkeypatch) -> None:
    """Kalooki scores a match from each side's sums, which the database makes: no result's or
    deal's stored breakdown is read, let alone decoded."""
    import scoring.standings as standings

    decoded: list[str] = []
    real = standings._decoded.__wrapped__
    monkeypatch.setattr(standings, "_decoded", lambda text: decoded.append(text) or real(text))
    table, other = tournament.rounds.get().tables.order_by("number")
    for game in (1, 2, 3):
        play(table, game, winner=game - 1)
        play(other, game)  # every table plays the game: it counts
    assert rows(tournament)[seated(table)[0]]["stats"]["games_won"] == 1
    assert decoded == []
