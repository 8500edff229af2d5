"""Players belong to one tournament's records: a director reads and
changes only the players of the tournaments they direct, however names and clubs coincide.

Alice directs the Open, Bob the Cup. Both enter an "Ann Clarke" of Half Way Tree.
"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from tests.factories import StaffRoleFactory, TournamentFactory
from tournament.models import Entry, Player
from tournament.services import player_add, players_import_csv

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_and_cup():
    open_, cup = TournamentFactory(slug="open"), TournamentFactory(slug="cup")
    alice = StaffRoleFactory(tournament=open_, user__username="alice").user
    bob = StaffRoleFactory(tournament=cup, user__username="bob").user
    return open_, cup, alice, bob


def test_a_second_director_entering_the_same_name_gets_a_record_of_their_own(
    open_and_cup,
) -> None:
    open_, cup, alice, bob = open_and_cup
    ann = player_add(tournament=open_, by=alice, name="Ann Clarke", club="Half Way Tree")
    bobs = player_add(
        tournament=cup, by=bob, name="Ann Clarke", club="Half Way Tree", email="bob-typed@x.jm"
    )
    assert bobs.player_id != ann.player_id
    ann.player.refresh_from_db()
    assert ann.player.email == ""  # Bob's typing never reaches Alice's record
    assert (ann.player.tournament, bobs.player.tournament) == (open_, cup)


def test_a_csv_import_never_writes_into_another_tournaments_record(open_and_cup) -> None:
    open_, cup, alice, bob = open_and_cup
    ann = player_add(
        tournament=open_, by=alice, name="Ann Clarke", club="Half Way Tree", email="ann@x.jm"
    )
    [imported] = players_import_csv(
        tournament=cup, by=bob, text="name,club,email\nAnn Clarke,Half Way Tree,evil@x.jm\n"
    )
    ann.player.refresh_from_db()
    assert ann.player.email == "ann@x.jm"
    assert imported.player_id != ann.player_id and imported.player.email == "evil@x.jm"


def test_the_api_shows_a_director_only_their_own_players_email(open_and_cup) -> None:
    open_, _cup, alice, bob = open_and_cup
    player_add(
        tournament=open_, by=alice, name="Ann Clarke", club="Half Way Tree", email="ann@x.jm"
    )
    client = APIClient()
    client.force_authenticate(bob)
    added = client.post(
        "/api/tournaments/cup/players", {"name": "Ann Clarke", "club": "Half Way Tree"}, "json"
    )
    assert added.status_code == 201, added.content
    assert added.json()["email"] == ""
    listed = client.get("/api/tournaments/cup/entries").json()
    assert "ann@x.jm" not in str(listed)
    assert client.get("/api/tournaments/open/entries").status_code == 404


def test_every_entry_is_of_a_player_of_its_own_tournament(open_and_cup) -> None:
    open_, cup, alice, bob = open_and_cup
    player_add(tournament=open_, by=alice, name="Ann Clarke", club="Half Way Tree")
    player_add(tournament=cup, by=bob, name="Ann Clarke", club="Half Way Tree")
    assert all(e.player.tournament_id == e.tournament_id for e in Entry.objects.all())
    assert Player.objects.count() == 2


# --- the migration that splits shared records ------------------------------------------------

BEFORE = [("tournament", "0002_entry_status_dated_from_registration")]
AFTER = [("tournament", "0005_player_tournament_required")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_splits_a_shared_player_keeping_every_result_with_its_person() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Tournament, OldPlayer = (
        old.get_model("tournament", "Tournament"),
        old.get_model("tournament", "Player"),
    )
    OldEntry = old.get_model("tournament", "Entry")
    dates = {"starts_on": "2026-01-01", "ends_on": "2026-01-02"}
    one = Tournament.objects.create(name="One", slug="one", **dates)
    two = Tournament.objects.create(name="Two", slug="two", **dates)
    shared = OldPlayer.objects.create(name="Ann", club="HWT", email="ann@x.jm")
    alone = OldPlayer.objects.create(name="Ben", club="HWT")
    OldPlayer.objects.create(name="Gone", club="")  # no entry: belongs to no tournament
    first = OldEntry.objects.create(tournament=one, player=shared)
    second = OldEntry.objects.create(tournament=two, player=shared)
    third = OldEntry.objects.create(tournament=two, player=alone)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    NewEntry = new.get_model("tournament", "Entry")
    entries = {e.pk: e for e in NewEntry.objects.select_related("player")}
    assert entries[first.pk].player_id == shared.pk  # the first tournament keeps the row
    assert entries[second.pk].player_id != shared.pk
    copy = entries[second.pk].player
    assert (copy.name, copy.club, copy.email, copy.tournament_id) == (
        "Ann",
        "HWT",
        "ann@x.jm",
        two.pk,
    )
    assert entries[third.pk].player.tournament_id == two.pk
    NewPlayer = new.get_model("tournament", "Player")
    assert sorted(NewPlayer.objects.values_list("name", flat=True)) == ["Ann", "Ann", "Ben"]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
