"""The director's pages and API are tested with the tournament's cast (tests/tournament)."""

from tests.tournament.conftest import bob, dana, kim, spring, stranger

__all__ = ["bob", "dana", "kim", "spring", "stranger"]
