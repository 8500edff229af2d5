"""Clubs' member registers: the CSV import, matching players to members, merge and erase.

The Half Way Tree club is Alice's; the Kingston club is Bob's. Each runs its Kalooki nights.
"""

import pytest

from clubs.models import ClubAudit, Member
from clubs.services import ClubError, MembersRefused, club_create, member_add, members_import_csv
from scoring.members import ERASED, member_erase, member_merge
from scoring.models import StandingsSnapshot
from scoring.rounds import round_complete
from scoring.standings import standings_current, standings_refresh
from tests.factories import UserFactory
from tests.scoring.playing import play_set, published_round, tables_of
from tournament.models import AuditEvent, Player, Tournament
from tournament.services import (
    CsvImportRefused,
    MemberChoiceNeeded,
    TournamentError,
    player_add,
    players_import_csv,
    tournament_create,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def half_way_tree(alice):
    return club_create(name="Half Way Tree", by=alice)


@pytest.fixture
def kingston():
    return club_create(name="Kingston", by=UserFactory(username="bob"))


def night(club, by, name="Tuesday night") -> Tournament:
    import datetime

    day = datetime.date(2026, 11, 24)
    return tournament_create(by=by, name=name, starts_on=day, ends_on=day, club=club)


def problems(club, by, text) -> list[str]:
    before = club.members.count()
    with pytest.raises(MembersRefused) as refused:
        members_import_csv(club=club, by=by, text=text)
    assert club.members.count() == before  # nothing imported until the file is clean
    return [str(problem) for problem in refused.value.problems]


def test_a_clean_members_file_is_imported_with_every_column(half_way_tree, alice) -> None:
    text = "name,number,contact,public_name\nAnn Lee,H1,ann@example.org,initial\nCy Moss,,,\n"
    members_import_csv(club=half_way_tree, by=alice, text=text)
    ann, cy = half_way_tree.members.order_by("name")
    assert (ann.number, ann.contact, ann.public(), cy.public()) == (
        "H1", "ann@example.org", "Ann L.", "Cy Moss",
    )  # fmt: skip
    assert ClubAudit.objects.filter(club=half_way_tree, action="member.import").exists()


def test_bad_rows_are_refused_by_line(half_way_tree, kingston, alice) -> None:
    member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H1")
    member_add(club=kingston, by=None, name="Bo Ray", number="K9")
    text = "name,number,public_name\nDi,H2,\nEd,H2,\n,H3,\nFlo,H-4!,\nGus,H1,\nHal,K9,\nIvy,,loud\n"
    found = problems(half_way_tree, alice, text)
    assert found == [
        "Line 3: member number H2 is also on line 2",
        "Line 4: the name is missing",
        "Line 5: the member number “H-4!” is not letters and digits (at most 20)",
        "Line 6: member number H1 already belongs to Ann Lee in this club",
        "Line 7: member number K9 already belongs to another club",
        "Line 8: the public name “loud” is not one of full, initial, hidden",
    ]
    assert half_way_tree.members.count() == 1  # Ann only, from before


def test_the_same_name_twice_without_numbers_is_refused(half_way_tree, alice) -> None:
    found = problems(half_way_tree, alice, "name\nAnn Lee\nann  lee\n")
    assert found == [
        "Line 3: ann lee is also on line 2: give each a member number if they are two people"
    ]


def test_an_unclosed_quote_names_its_line(half_way_tree, alice) -> None:
    assert problems(half_way_tree, alice, 'name\nAnn\n"Ben\n') == [
        "Line 3: a double quote opened on this line is never closed, so the lines after it "
        "would be read as one name; close the quote or remove it"
    ]


# Matching players to members


def test_a_new_name_becomes_a_new_member_and_a_known_one_is_linked(half_way_tree, alice) -> None:
    ann = member_add(club=half_way_tree, by=alice, name="Ann Lee")
    tuesday = night(half_way_tree, alice)
    entry = player_add(tournament=tuesday, by=alice, name="ann lee")
    new = player_add(tournament=tuesday, by=alice, name="Cy Moss")
    assert entry.player.member_id == ann.pk
    assert new.player.member.club == half_way_tree and new.player.member.name == "Cy Moss"


def test_a_member_number_names_the_member_whatever_the_name(half_way_tree, alice) -> None:
    ann = member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H1")
    entry = player_add(tournament=night(half_way_tree, alice), by=alice, name="A. Lee", number="h1")
    assert entry.player.member_id == ann.pk


def test_an_ambiguous_name_is_shown_for_the_director_to_choose(half_way_tree, alice) -> None:
    first = member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H1")
    second = member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H2")
    tuesday = night(half_way_tree, alice)
    with pytest.raises(MemberChoiceNeeded) as refused:
        player_add(tournament=tuesday, by=alice, name="Ann Lee")
    assert {c.id for c in refused.value.candidates} == {first.pk, second.pk}
    assert "number H2" in refused.value.message and not tuesday.players.exists()
    chosen = player_add(tournament=tuesday, by=alice, name="Ann Lee", member=second.pk)
    assert chosen.player.member_id == second.pk


def test_a_file_with_an_ambiguous_name_is_refused_by_line(half_way_tree, alice) -> None:
    member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H1")
    member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H2")
    tuesday = night(half_way_tree, alice)
    with pytest.raises(CsvImportRefused) as refused:
        players_import_csv(tournament=tuesday, by=alice, text="name\nBen\nAnn Lee\n")
    assert [p.line for p in refused.value.problems] == [3]
    assert not tuesday.players.exists()
    players_import_csv(tournament=tuesday, by=alice, text="name,number\nBen,\nAnn Lee,H2\n")
    assert tuesday.players.get(name="Ann Lee").member.number == "H2"


def test_a_member_cannot_enter_one_tournament_twice(half_way_tree, alice) -> None:
    member_add(club=half_way_tree, by=alice, name="Ann Lee", number="H1")
    tuesday = night(half_way_tree, alice)
    player_add(tournament=tuesday, by=alice, name="Ann Lee")
    with pytest.raises(TournamentError, match="already entered"):
        player_add(tournament=tuesday, by=alice, name="Annie", number="H1")


def test_another_clubs_member_cannot_be_chosen(half_way_tree, kingston, alice) -> None:
    bo = member_add(club=kingston, by=None, name="Bo Ray")
    with pytest.raises(TournamentError, match="not a member of this club"):
        player_add(tournament=night(half_way_tree, alice), by=alice, name="Bo Ray", member=bo.pk)


def test_a_new_tournament_belongs_to_its_directors_club(half_way_tree, alice) -> None:
    assert night(None, alice).club == half_way_tree
    newcomer = UserFactory(username="newcomer")
    assert night(None, newcomer).club.directors.get() == newcomer


# Merge and erase


def played_nights(club, by):
    """Two nights; Ann (H1) plays the first, "Annie" (no number) the second."""
    ann = member_add(club=club, by=by, name="Ann Lee", number="H1")
    nights = []
    for n, name in enumerate(["Ann Lee", "Annie"]):
        tournament = night(club, by, name=f"Night {n + 1}")
        others = [f"P{n}{i}" for i in range(4)]
        players_import_csv(tournament=tournament, by=by, text="name\n" + "\n".join([name, *others]))
        tournament.entries.update(status="checked_in")
        round = published_round(tournament)
        for table in tables_of(round):
            play_set(table)
        round_complete(round=round, by=None)
        nights.append(tournament)
    annie = Member.objects.get(name="Annie")
    return ann, annie, nights


def test_a_merge_keeps_every_result_and_the_audit_log(half_way_tree, alice) -> None:
    ann, annie, nights = played_nights(half_way_tree, alice)
    audit_before = AuditEvent.objects.count()
    member_merge(keep=ann, drop=annie, by=alice)
    assert set(Player.objects.filter(member=ann).values_list("tournament", flat=True)) == {
        t.pk for t in nights
    }
    annie.refresh_from_db()
    assert annie.merged_into == ann
    assert AuditEvent.objects.filter(action="member.merge").count() == 1  # the touched night
    assert AuditEvent.objects.count() == audit_before + 1
    assert ClubAudit.objects.filter(action="member.merge").exists()


def test_a_merge_of_two_who_played_one_round_is_refused(half_way_tree, alice) -> None:
    ann, _annie, nights = played_nights(half_way_tree, alice)
    other = Player.objects.get(tournament=nights[0], name="P00").member
    with pytest.raises(ClubError, match="both played in round 1 of Night 1"):
        member_merge(keep=ann, drop=other, by=alice)
    assert Player.objects.filter(member=other).count() == 1


def test_erase_anonymises_everywhere_and_keeps_the_scores(
    half_way_tree, alice, django_capture_on_commit_callbacks
) -> None:
    ann, _annie, nights = played_nights(half_way_tree, alice)
    standings_refresh(tournament_id=nights[0].pk)
    ann.contact = "ann@example.org"
    ann.save()
    player = Player.objects.get(member=ann)
    points = list(player.entries.get().deal_results.values_list("points", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        member_erase(member=ann, by=alice)
    ann.refresh_from_db()
    player.refresh_from_db()
    assert (ann.name, ann.contact, ann.number) == (f"{ERASED} {ann.pk}", "", "")
    assert player.name == f"{ERASED} {ann.pk}" and player.email == ""
    assert list(player.entries.get().deal_results.values_list("points", flat=True)) == points
    assert not AuditEvent.objects.filter(summary__contains="Ann Lee").exists()
    snapshots = StandingsSnapshot.objects.filter(tournament=nights[0])
    assert snapshots.count() >= 2 and not any("Ann Lee" in str(s.data) for s in snapshots)
    assert standings_current(tournament=nights[0])["players"][0]["entry"]  # still standing


def test_the_director_home_lists_only_ones_own_clubs(
    client, half_way_tree, kingston, alice
) -> None:
    client.force_login(alice)
    page = client.get("/director/").content.decode()
    assert "/director/clubs/half-way-tree/members" in page and "kingston" not in page.lower()
    assert client.get("/director/clubs/kingston/members").status_code == 404


def hand_and_foot_night(club, by) -> Tournament:
    import games

    tournament = night(club, by, name="Hand and Foot night")
    game = games.get("hand_and_foot")
    tournament.game, tournament.ruleset = "hand_and_foot", game.dump(game.ruleset())
    tournament.save()
    return tournament


def team(tournament, by, name, partners):
    from tournament.services import Partner, team_add

    return team_add(tournament=tournament, by=by, name=name, partners=tuple(map(Partner, partners)))


def test_a_partner_renamed_is_matched_to_a_member_as_adding_does(half_way_tree, alice) -> None:
    from tournament.services import Partner, team_update

    cy = member_add(club=half_way_tree, by=alice, name="Cy Moss", number="H7")
    tournament = hand_and_foot_night(half_way_tree, alice)
    aces = team(tournament, alice, "Aces", ("Bo", "Ann Lee"))
    first = aces.members.get(position=2).player.member

    def rename(second: str):
        return team_update(
            entry=aces, by=alice, name="Aces", partners=(Partner("Bo"), Partner(second))
        )

    rename("cy  moss")  # the same name, ignoring case and spacing, is the member
    partner = aces.members.get(position=2).player
    assert (partner.name, partner.member) == ("cy moss", cy)
    rename("Dee Oak")  # a new name becomes a new member
    partner = aces.members.get(position=2).player
    assert partner.member.name == "Dee Oak" and partner.member not in (cy, first)
    assert aces.members.get(position=1).player.member.name == "Bo"  # partner 1 untouched


def test_a_partner_renamed_to_an_ambiguous_or_entered_member_is_refused(
    half_way_tree, alice
) -> None:
    from tournament.services import Partner, team_update

    for number in ("H1", "H2"):
        member_add(club=half_way_tree, by=alice, name="Ann Lee", number=number)
    tournament = hand_and_foot_night(half_way_tree, alice)
    aces = team(tournament, alice, "Aces", ("Bo", "Cy"))
    team(tournament, alice, "Kings", ("Di", "Ed"))
    before = aces.members.get(position=2).player.member
    # Ed of another club is another player by name and club, but the same member by name.
    for second, message in ((Partner("Ann Lee"), "matches 2 members"),
                            (Partner("Ed", club="Kingston"), "already entered")):  # fmt: skip
        with pytest.raises(TournamentError, match=f"Partner 2: .*{message}") as refused:
            team_update(entry=aces, by=alice, name="Aces", partners=(Partner("Bo"), second))
        assert refused.value.field == "partner_2_name"
        partner = aces.members.get(position=2).player
        assert (partner.name, partner.member) == ("Cy", before)  # nothing changed


def test_a_merge_of_two_partners_of_one_round_is_refused_hf1_2(half_way_tree, alice) -> None:
    """Partner 2 of a team sits through the team's entry only (EntryMember): two members who
    partnered in two teams of one round are two people (R12.1, HF1.2)."""
    from tables.services import round_seat
    from tests.factories import RoundFactory

    tournament = hand_and_foot_night(half_way_tree, alice)
    team(tournament, alice, "Aces", ("Bo", "Ann Lee"))
    team(tournament, alice, "Kings", ("Cy", "Annie"))
    tournament.entries.update(status="checked_in")
    round_seat(round=RoundFactory(tournament=tournament), seed=1, by=alice)
    ann, annie = (Member.objects.get(club=half_way_tree, name=n) for n in ("Ann Lee", "Annie"))
    with pytest.raises(ClubError, match="both played in round 1 of Hand and Foot night"):
        member_merge(keep=ann, drop=annie, by=alice)
    annie.refresh_from_db()
    assert annie.merged_into is None
    assert Player.objects.get(member=annie).name == "Annie"
