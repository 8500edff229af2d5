"""Fixtures of the public pages' tests: a published tournament with real games played.

Ten players sit at two tables of five in round 1 (tests/scoring/playing.py): in `play`, the player
at seat index `winner` goes out and each other player scores `points` + their seat number.
Beside the Open: a draft nobody may see yet, the Cup (where results await confirmation) and the
League (in its second round).
"""

import pytest
from django.core.cache import cache

from config.caches import forget_process_caches
from scoring.standings import standings_refresh
from tables.models import Table
from tests.scoring.playing import play, play_set, published_round, tables_of, tournament_with
from tournament.models import Round, Tournament


@pytest.fixture(autouse=True)
def _nothing_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache and each process's memory outlive a test's database: start afresh, and read
    the cache at every request (tests change the standings between two requests)."""
    cache.clear()
    forget_process_caches()
    monkeypatch.setattr("config.caches.PUBLIC_RECENT.seconds", 0)
    monkeypatch.setattr("config.caches.PUBLIC_PARTS.seconds", 0)


@pytest.fixture
def tournament() -> Tournament:
    """The Open: published, ten players, round 1 seated and published."""
    tournament = tournament_with(10, name="Kingston Open", slug="open", is_published=True)
    published_round(tournament)
    return tournament


@pytest.fixture
def table_one(tournament: Tournament) -> Table:
    """Table 1 of the Open's round 1: five players, no game played yet."""
    return tables_of(tournament.rounds.get())[0]


@pytest.fixture
def table_two(tournament: Tournament) -> Table:
    """Table 2 of the Open's round 1: the other five players."""
    return tables_of(tournament.rounds.get())[1]


@pytest.fixture
def draft() -> Tournament:
    """A tournament of five at /p/draft/, not published: its directors may only preview it."""
    return tournament_with(5, slug="draft")


@pytest.fixture
def cup_table() -> Table:
    """The Cup's only table, published at /p/cup/, where results await a confirmation: game 1
    is entered and not confirmed yet."""
    cup = tournament_with(5, slug="cup", is_published=True, requires_confirmation=True)
    [table] = published_round(cup).tables.all()
    play(table, 1)
    return table


@pytest.fixture
def round_two() -> Round:
    """Round 2 of the League (/p/league/, published, five players), seated and published once
    all nine games of round 1 are played (the first seat going out each time) and it is locked."""
    league = tournament_with(5, name="League", slug="league", is_published=True)
    [table] = published_round(league).tables.all()
    play_set(table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.LOCKED)
    return published_round(league, number=2, seed=2)


def refreshed(tournament: Tournament) -> dict:
    """The standings as the pipeline leaves them after the last change: stored and cached."""
    cache.clear()
    return standings_refresh(tournament_id=tournament.pk).data
