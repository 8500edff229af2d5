"""Fixtures of the public pages' tests: a published tournament with real games played.

Ten players sit at two tables of five in round 1 (tests/scoring/playing.py): in `play`, the player
at seat index `winner` goes out and each other player scores `points` + their seat number.
"""

import pytest
from django.core.cache import cache

from scoring.public import forget_recent
from scoring.standings import standings_refresh
from tests.scoring.playing import published_round, tournament_with
from tournament.models import Tournament


@pytest.fixture(autouse=True)
def _nothing_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache and each process's memory outlive a test's database: start afresh, and read
    the cache at every request (tests change the standings between two requests)."""
    cache.clear()
    forget_recent()
    monkeypatch.setattr("scoring.public.REUSE_SECONDS", 0)


@pytest.fixture
def tournament() -> Tournament:
    """The Open: published, ten players, round 1 seated and published."""
    tournament = tournament_with(10, name="Kingston Open", slug="open", is_published=True)
    published_round(tournament)
    return tournament


def refreshed(tournament: Tournament) -> dict:
    """The standings as the pipeline leaves them after the last change: stored and cached."""
    cache.clear()
    return standings_refresh(tournament_id=tournament.pk).data
