"""Teams as entries (HF1.2): two named players registered together, from the director's form or
a players file with a team column, checked in and withdrawn together; a pairing the director
refuses is recorded with its note and audited."""

import re

import pytest

import games
from tables.seating import SeatingError
from tables.services import round_seat
from tests.factories import EntryFactory, RoundFactory, TournamentFactory, team_entry
from tournament.models import Entry, EntryMember
from tournament.services import (
    CsvImportRefused,
    Partner,
    TournamentError,
    entry_check_in,
    entry_reinstate,
    entry_withdraw,
    pairing_refuse,
    player_add,
    players_import_csv,
    team_add,
    team_update,
)

pytestmark = pytest.mark.django_db
Status = Entry.Status


@pytest.fixture
def club(spring):
    """The Spring Open, played as a Hand and Foot team tournament."""
    game = games.get("hand_and_foot")
    spring.game, spring.ruleset = "hand_and_foot", game.dump(game.ruleset())
    spring.save()
    return spring


def test_a_team_is_entered_with_both_partners_and_the_log_names_them(dana, club) -> None:
    entry = team_add(
        tournament=club,
        by=dana,
        name=" The  Aces ",
        partners=(Partner("Ann Lee", "Kingston"), Partner("Cy Moss")),
    )
    assert (entry.team_name, entry.name, entry.player.name) == ("The Aces", "The Aces", "Ann Lee")
    assert entry.partner_names() == "Ann Lee & Cy Moss"
    members = EntryMember.objects.filter(entry=entry).order_by("position")
    assert [(m.position, m.player.name) for m in members] == [(1, "Ann Lee"), (2, "Cy Moss")]
    event = club.audit.get()
    assert event.action == "team.add" and "Ann Lee (Kingston) & Cy Moss" in event.summary


def test_a_team_without_a_name_is_named_by_its_partners(dana, club) -> None:
    entry = team_add(tournament=club, by=dana, name="", partners=(Partner("Ann"), Partner("Cy")))
    assert entry.team_name == "Ann & Cy"


@pytest.mark.parametrize(
    ("partners", "field", "message"),
    [
        ((Partner(""), Partner("Cy")), "partner_1_name", "Partner 1: the name is missing."),
        ((Partner("Ann"), Partner("ann")), "partner_2_name", "cannot partner themselves"),
        ((Partner("Ann"), Partner("Cy", email="no")), "partner_2_email", "not an email"),
    ],
)
def test_a_bad_team_is_refused_on_its_field(dana, club, partners, field, message) -> None:
    with pytest.raises(TournamentError, match=re.escape(message)) as refused:
        team_add(tournament=club, by=dana, name="Aces", partners=partners)
    assert refused.value.field == field
    assert not Entry.objects.exists()


def test_a_partner_plays_in_one_team_and_names_are_not_shared(dana, club) -> None:
    team_add(tournament=club, by=dana, name="Aces", partners=(Partner("Ann"), Partner("Cy")))
    with pytest.raises(TournamentError, match="CY is already entered") as refused:
        team_add(tournament=club, by=dana, name="Kings", partners=(Partner("Bo"), Partner("CY")))
    assert refused.value.field == "partner_2_name"
    with pytest.raises(TournamentError, match="A team called “aces” is already entered"):
        team_add(tournament=club, by=dana, name="aces", partners=(Partner("Bo"), Partner("Di")))


def test_single_players_and_teams_go_where_the_game_says(dana, club, spring) -> None:
    with pytest.raises(TournamentError, match=r"played by teams of two partners \(HF1.2\)"):
        player_add(tournament=club, by=dana, name="Ann")
    kalooki = TournamentFactory()
    with pytest.raises(TournamentError, match="played by single players"):
        team_add(tournament=kalooki, by=dana, name="A", partners=(Partner("A"), Partner("B")))


def test_partners_check_in_and_withdraw_together(dana, club) -> None:
    entry = team_entry(club, "Aces", status=Status.REGISTERED)
    entry = entry_check_in(entry=entry, by=dana)
    assert entry.status == Status.CHECKED_IN
    assert club.audit.get().summary == "Checked in Aces"
    entry = entry_withdraw(entry=entry, by=dana)
    assert entry.status == Status.WITHDRAWN


def test_the_director_refuses_a_pairing_with_a_note_then_repairs_it(dana, club) -> None:
    entry = team_entry(club, "Spouses", ("Ann Lee", "Al Lee"), status=Status.REGISTERED)
    with pytest.raises(
        TournamentError, match=r"Say why the pairing of Spouses is refused \(HF1.2\)"
    ):
        pairing_refuse(entry=entry, by=dana, note="  ")
    entry = pairing_refuse(entry=entry, by=dana, note="Married: spouses may not partner")
    assert (entry.status, entry.status_note) == (Status.REFUSED, "Married: spouses may not partner")
    event = club.audit.get()
    assert event.action == "entry.refuse_pairing"
    assert event.summary == (
        "Refused the pairing of Spouses (HF1.2): Married: spouses may not partner"
    )
    with pytest.raises(TournamentError, match="refused the pairing of Spouses"):
        entry_check_in(entry=entry, by=dana)
    entry = team_update(
        entry=entry, by=dana, name="Lee & Moss", partners=(Partner("Ann Lee"), Partner("Cy Moss"))
    )
    assert entry.partner_names() == "Ann Lee & Cy Moss"
    assert "Ann Lee & Al Lee → Ann Lee & Cy Moss" in club.audit.first().summary
    entry = entry_reinstate(entry=entry, by=dana)
    assert (entry.status, entry.status_note) == (Status.REGISTERED, "")


def test_a_player_entry_has_no_pairing_to_refuse(dana, spring) -> None:
    entry = EntryFactory(tournament=spring)
    with pytest.raises(TournamentError, match="only a team's pairing is refused"):
        pairing_refuse(entry=entry, by=dana, note="no")


def test_a_seated_team_keeps_its_partners_but_may_be_renamed(dana, club) -> None:
    aces, kings = team_entry(club, "Aces"), team_entry(club, "Kings")
    round_seat(round=RoundFactory(tournament=club), seed=1)
    with pytest.raises(TournamentError, match="already been seated, so its partners stay"):
        team_update(entry=aces, by=dana, name="Aces", partners=(Partner("X"), Partner("Y")))
    aces = team_update(
        entry=aces, by=dana, name="Top Aces", partners=(Partner("Aces One"), Partner("Aces Two"))
    )
    assert aces.name == "Top Aces" and kings.name == "Kings"


# --- a players file with a team column ----------------------------------------------------------

TEAMS_FILE = """name,club,team
Ann Lee,Kingston,Aces
Cy Moss,Kingston,Aces
Bo Hall,,Kings
Di Ford,,kings
"""


def test_a_players_file_enters_each_team_with_its_two_rows(dana, club) -> None:
    entries = players_import_csv(tournament=club, by=dana, text=TEAMS_FILE)
    assert [(e.team_name, e.partner_names()) for e in entries] == [
        ("Aces", "Ann Lee & Cy Moss"),
        ("Kings", "Bo Hall & Di Ford"),
    ]
    assert club.audit.get().summary == "Imported 2 teams from a CSV file"


def test_every_bad_team_row_is_reported_with_its_line_and_nothing_is_imported(dana, club) -> None:
    team_entry(club, "Hearts", ("Eve Ray", "Flo Day"))
    text = (
        "name,team\n"
        "Ann,Aces\n"  # line 2: Aces has one partner
        "Bo,Kings\n"
        "Cy,Kings\n"
        "Di,Kings\n"  # line 5: a third partner
        "Eve Ray,Spades\n"  # line 6: already in Hearts
        "Gus,Spades\n"
        "Hal,\n"  # line 8: no team
        "Ida,Hearts\n"  # line 9: a team name taken
        "Jo,Hearts\n"
    )
    with pytest.raises(CsvImportRefused) as refused:
        players_import_csv(tournament=club, by=dana, text=text)
    problems = [str(problem) for problem in refused.value.problems]
    assert problems == [
        "Line 2: team “Aces” has one partner: a team is two (HF1.2)",
        "Line 5: team “Kings” has 3 partners (lines 3, 4, 5): a team is two (HF1.2)",
        "Line 6: Eve Ray is already entered in this tournament (checked in)",
        "Line 8: Hal has no team: every partner names their team (HF1.2)",
        "Line 9: a team called “Hearts” is already entered",
    ]
    assert club.entries.count() == 1


def test_a_team_name_already_entered_is_reported_on_its_first_line(dana, club) -> None:
    team_entry(club, "Hearts")
    with pytest.raises(CsvImportRefused) as refused:
        players_import_csv(tournament=club, by=dana, text="name,team\nIda,Hearts\nJo,Hearts\n")
    assert [str(p) for p in refused.value.problems] == [
        "Line 2: a team called “Hearts” is already entered"
    ]


def test_a_team_column_in_a_game_of_single_players_is_refused(dana, spring) -> None:
    with pytest.raises(CsvImportRefused) as refused:
        players_import_csv(tournament=spring, by=dana, text="name,team\nAnn,Aces\n")
    assert "Kalooki is played by single players" in str(refused.value.problems[0])


# --- seating teams ------------------------------------------------------------------------------


def test_teams_are_seated_two_to_a_table_one_seat_a_team(dana, club) -> None:
    teams = [team_entry(club, name) for name in ("Aces", "Kings", "Queens", "Jacks")]
    tables = round_seat(round=RoundFactory(tournament=club), seed=4, by=dana)
    seated = sorted(seat.entry_id for t in tables for seat in t.seats.all())
    assert [t.seats.count() for t in tables] == [2, 2]
    assert seated == sorted(team.pk for team in teams)
    assert "4 teams at 2 tables" in club.audit.get(action="round.seat").summary


def test_an_odd_number_of_teams_leaves_one_team_a_bye_hf11_1(club) -> None:
    teams = [team_entry(club, name) for name in ("Aces", "Kings", "Queens")]
    round = RoundFactory(tournament=club)
    tables = round_seat(round=round, seed=4)
    seated = {seat.entry_id for seat in tables[0].seats.all()}
    (bye,) = round.byes.all()
    assert len(seated) == 2 and seated | {bye.entry_id} == {team.pk for team in teams}
    assert "3 teams at 1 table, 1 with a bye" in club.audit.get(action="round.seat").summary


def test_players_entered_alone_are_not_seated_as_teams(club) -> None:
    team_entry(club, "Aces")
    EntryFactory(tournament=club, player__name="Lone Ann")
    with pytest.raises(SeatingError, match=r"seats teams of two partners \(HF1.2\), and Lone Ann"):
        round_seat(round=RoundFactory(tournament=club), seed=4)
