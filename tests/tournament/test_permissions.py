"""A director sees only their own tournaments."""

import pytest
from django.http import Http404
from django.test import Client

from tests.factories import StaffRoleFactory, TournamentFactory, UserFactory
from tournament.models import StaffRole
from tournament.permissions import directed_tournaments, is_director, tournament_for_director

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    """Alice directs the Spring Open; Bob directs the Autumn Cup."""
    StaffRoleFactory(user__username="bob", tournament__name="Autumn Cup")
    return StaffRoleFactory(user__username="alice", tournament__name="Spring Open").user


def test_a_director_sees_only_her_tournaments(alice) -> None:
    assert [t.name for t in directed_tournaments(alice)] == ["Spring Open"]


def test_another_directors_tournament_is_not_found(alice) -> None:
    autumn = TournamentFactory._meta.model.objects.get(name="Autumn Cup")
    with pytest.raises(Http404):
        tournament_for_director(alice, autumn.slug)


def test_a_scorekeeper_is_not_a_director() -> None:
    keeper = StaffRoleFactory(role=StaffRole.Role.SCOREKEEPER).user
    assert not is_director(keeper)
    assert not directed_tournaments(keeper).exists()


def test_a_superuser_directs_everything() -> None:
    TournamentFactory.create_batch(2)
    root = UserFactory(is_superuser=True)
    assert is_director(root) and directed_tournaments(root).count() == 2


def test_my_tournaments_page_lists_only_mine(client: Client, alice) -> None:
    client.force_login(alice)
    page = client.get("/director/").content.decode()
    assert "Spring Open" in page and "Autumn Cup" not in page


def test_staff_sign_in_page_signs_a_director_in(client: Client, alice) -> None:
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse battery staple"}
    )
    assert response.status_code == 302 and response["Location"] == "/director/"
