"""The data migration: each existing tournament gets a club, each player a member."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournament", "0010_tournament_club_player_member"), ("clubs", "0001_initial")]
AFTER = [("tournament", "0011_each_tournament_a_club")]


def migrated(to):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return executor.loader.project_state(to).apps


def test_each_tournament_gets_its_directors_club_and_each_player_a_member() -> None:
    old = migrated(BEFORE)
    User = old.get_model("auth", "User")
    Tournament = old.get_model("tournament", "Tournament")
    StaffRole = old.get_model("tournament", "StaffRole")
    Player = old.get_model("tournament", "Player")
    alice = User.objects.create(username="alice")
    day = {"starts_on": "2026-11-01", "ends_on": "2026-11-01"}
    first = Tournament.objects.create(name="Night 1", slug="night-1", **day)
    second = Tournament.objects.create(name="Night 2", slug="night-2", **day)
    orphan = Tournament.objects.create(name="Old cup", slug="old-cup", **day)
    for tournament in (first, second):
        StaffRole.objects.create(tournament=tournament, user=alice, role="director")
    rows = [(first, "Ann Lee", ""), (second, "ann  lee", ""), (second, "Ann Lee", "Mona"),
            (orphan, "Ann Lee", "")]  # fmt: skip
    for tournament, name, club in rows:
        Player.objects.create(tournament=tournament, name=name, club=club)
    try:
        new = migrated(AFTER)
        Tournament = new.get_model("tournament", "Tournament")
        Player = new.get_model("tournament", "Player")
        clubs = dict(Tournament.objects.values_list("slug", "club__name"))
        assert clubs == {"night-1": "alice's club", "night-2": "alice's club",
                         "old-cup": "Old cup club"}  # fmt: skip
        assert list(Tournament.objects.get(slug="night-1").club.directors.all()) == [
            new.get_model("auth", "User").objects.get(username="alice")
        ]
        members = {(p.tournament.slug, p.club): p.member_id for p in Player.objects.all()}
        assert members[("night-1", "")] == members[("night-2", "")]  # one regular
        assert members[("night-2", "Mona")] != members[("night-1", "")]  # another Ann Lee
        assert members[("old-cup", "")] != members[("night-1", "")]  # another club's
        assert not Player.objects.filter(member__isnull=True).exists()
    finally:
        migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())
