"""The cast of the tournament tests.

Dana directs the Spring Open; Bob directs the Autumn Cup (and must never see Dana's); Kim keeps
score at the Spring Open, which makes her staff but not a director.
"""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import StaffRoleFactory, TournamentFactory, UserFactory
from tournament.models import StaffRole, Tournament


@pytest.fixture
def spring(db) -> Tournament:
    return TournamentFactory(
        name="Spring Open",
        slug="spring-open",
        starts_on=datetime.date(2026, 4, 18),
        ends_on=datetime.date(2026, 4, 19),
        venue="Half Way Tree",
        rounds_planned=4,
    )


@pytest.fixture
def dana(spring: Tournament):
    return StaffRoleFactory(tournament=spring, user__username="dana").user


@pytest.fixture
def bob(db):
    autumn = TournamentFactory(name="Autumn Cup", slug="autumn-cup")
    return StaffRoleFactory(tournament=autumn, user__username="bob").user


@pytest.fixture
def kim(spring: Tournament):
    return StaffRoleFactory(
        tournament=spring, user__username="kim", role=StaffRole.Role.SCOREKEEPER
    ).user


@pytest.fixture
def stranger(db):
    """Signed in, but neither director nor scorekeeper anywhere."""
    return UserFactory(username="sam")


def count_queries(call) -> int:
    """How many queries `call()` runs."""
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)
