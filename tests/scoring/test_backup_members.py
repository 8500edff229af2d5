"""A backup carries each player's club member by number and name, never their contact; loaded
into a club, each player is linked as adding players links them (member number, else the same
name), and a link the club cannot take refuses the file, naming the row."""

import datetime
import json

import pytest

from clubs.models import Member
from clubs.services import club_create, member_add
from scoring.backup import BackupRefused, backup_parse, tournament_export, tournament_import
from tests.factories import UserFactory
from tests.scoring.test_backup import _delete
from tournament.models import Player
from tournament.services import players_import_csv, tournament_create

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 24)


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def half_way_tree(alice):
    club = club_create(name="Half Way Tree", by=alice)
    member_add(club=club, by=alice, name="Ann Lee", number="H1", contact="ann@example.org")
    return club


@pytest.fixture
def backup(half_way_tree, alice) -> dict:
    """Tuesday night of Ann (H1), Bo and Cy, exported, then gone from the database."""
    night = tournament_create(by=alice, name="Tuesday night", starts_on=DAY, ends_on=DAY,
                              club=half_way_tree)  # fmt: skip
    players_import_csv(tournament=night, by=alice, text="name\nAnn Lee\nBo\nCy\n")
    text = tournament_export(tournament=night)
    _delete(night)
    return json.loads(text)


def load(document: dict, club=None):
    return tournament_import(document=backup_parse(json.dumps(document)), club=club).tournament


def members_of(tournament) -> dict[str, Member]:
    return {p.name: p.member for p in Player.objects.filter(tournament=tournament)}


def test_each_player_carries_its_members_number_and_name_never_the_contact(backup) -> None:
    links = {row["name"]: row["club_member"] for row in backup["players"]}
    assert links == {
        "Ann Lee": {"number": "H1", "name": "Ann Lee"},
        "Bo": {"number": "", "name": "Bo"},
        "Cy": {"number": "", "name": "Cy"},
    }
    text = json.dumps(backup)
    assert "ann@example.org" not in text and "contact" not in text


def test_loaded_into_the_club_each_player_is_its_member_again(backup, half_way_tree) -> None:
    before = {m.name: m for m in half_way_tree.members.all()}
    tournament = load(backup, club=half_way_tree)
    assert tournament.club == half_way_tree
    assert members_of(tournament) == before  # by number (Ann), by name (Bo, Cy); none made


def test_the_member_number_names_the_member_whatever_the_name(backup, half_way_tree) -> None:
    backup["players"][0]["club_member"]["name"] = "Annie"
    ann = half_way_tree.members.get(number="H1")
    assert members_of(load(backup, club=half_way_tree))["Ann Lee"] == ann


def test_a_file_written_before_the_links_loads_matching_by_name(backup, half_way_tree) -> None:
    for row in backup["players"]:
        del row["club_member"]
    members = members_of(load(backup, club=half_way_tree))
    assert members["Ann Lee"] == half_way_tree.members.get(number="H1")
    assert half_way_tree.members.count() == 3  # no member made


def test_without_a_club_the_players_load_unlinked(backup, half_way_tree) -> None:
    tournament = load(backup)
    assert tournament.club is None
    assert set(members_of(tournament).values()) == {None}


def test_into_another_club_new_names_become_members(backup, alice) -> None:
    kingston = club_create(name="Kingston", by=UserFactory(username="bob"))
    bo = member_add(club=kingston, by=alice, name="Bo")
    backup["players"][0]["club_member"]["number"] = ""  # H1 is Half Way Tree's
    members = members_of(load(backup, club=kingston))
    assert members["Bo"] == bo
    assert {m.club for m in members.values()} == {kingston}
    assert sorted(kingston.members.values_list("name", flat=True)) == ["Ann Lee", "Bo", "Cy"]


def refused(document: dict, club, match: str) -> None:
    players, members = Player.objects.count(), Member.objects.count()
    with pytest.raises(BackupRefused, match=match):
        load(document, club=club)
    assert (Player.objects.count(), Member.objects.count()) == (players, members)


def test_another_clubs_member_number_is_refused_naming_the_row(backup, alice) -> None:
    kingston = club_create(name="Kingston", by=UserFactory(username="bob"))
    refused(backup, kingston, r"players\[0\]\.club_member: member number H1 belongs to another")


def test_a_name_matching_several_members_is_refused_never_guessed(backup, alice) -> None:
    kingston = club_create(name="Kingston", by=UserFactory(username="bob"))
    for number in ("K1", "K2"):
        member_add(club=kingston, by=alice, name="Bo", number=number)
    backup["players"][0]["club_member"]["number"] = ""
    refused(backup, kingston, r"players\[1\]\.club_member: Bo matches 2 members")


def test_two_players_naming_one_member_are_refused(backup, half_way_tree) -> None:
    backup["players"][2]["club_member"] = {"number": "H1", "name": "Ann Lee"}
    refused(backup, half_way_tree, r"players\[2\]\.club_member: .*already entered")


@pytest.mark.parametrize(
    ("link", "match"),
    [
        ({"number": "H1" * 5000, "name": "Ann"}, r"club_member\.number: must be letters and"),
        ({"number": "H-1; DROP", "name": "Ann"}, r"club_member\.number: must be letters and"),
        ({"number": 1, "name": "Ann"}, r"club_member\.number"),
        ({"number": "", "name": "A" * 121}, r"club_member\.name: must be a name of 1 to 120"),
        ({"number": "", "name": "  "}, r"club_member\.name"),
        ({"number": "", "name": "Ann", "contact": "x@y"}, r"club_member: must be null or an"),
        (["H1", "Ann"], r"club_member: must be null or an object"),
    ],
)
def test_a_hostile_link_is_refused_naming_its_field(backup, half_way_tree, link, match) -> None:
    backup["players"][0]["club_member"] = link
    refused(backup, half_way_tree, r"players\[0\]\." + match)


def test_a_hand_and_foot_partner_carries_its_member_too(half_way_tree, alice) -> None:
    from tournament.services import Partner, team_add

    night = tournament_create(by=alice, name="Hand and Foot night", starts_on=DAY, ends_on=DAY,
                              club=half_way_tree, game="hand_and_foot",
                              ruleset=None)  # fmt: skip
    team_add(tournament=night, by=alice, name="Aces", partners=(Partner("Bo"), Partner("Ann Lee")))
    document = json.loads(tournament_export(tournament=night))
    links = {row["name"]: row["club_member"] for row in document["players"]}
    assert links["Ann Lee"] == {"number": "H1", "name": "Ann Lee"}
    _delete(night)
    tournament = load(document, club=half_way_tree)
    assert members_of(tournament)["Ann Lee"] == half_way_tree.members.get(number="H1")


def test_the_command_loads_into_a_club_and_refuses_an_unknown_one(
    backup, half_way_tree, tmp_path
) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    path = tmp_path / "night.json"
    path.write_text(json.dumps(backup))
    with pytest.raises(CommandError, match="no club with the address 'nowhere'"):
        call_command("tournament_import", str(path), "--club", "nowhere")
    call_command("tournament_import", str(path), "--club", half_way_tree.slug)
    ann = Player.objects.get(name="Ann Lee")
    assert ann.member == half_way_tree.members.get(number="H1")
