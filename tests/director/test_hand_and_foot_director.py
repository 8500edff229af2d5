"""The director's side of a Hand and Foot night (HF1.2, HF2.3, HF5.2): teams named with both
partners, counted as teams, no first dealer (each player deals their own hand and foot), and a
hand's lines saying which partner went out.

Dana directs the night: Ann & Cy (seats 1 and 3) against Ben & Di (seats 2 and 4) at table 1,
Eve & Gus against Flo & Hal at table 2.
"""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from scoring.score_sheet import table_sheet
from tests.factories import RoundFactory, StaffRoleFactory, team_entry
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import director_of, published_round, seated_round, tournament_with
from tests.scoring.test_other_games import HANDS, enter_hf
from tournament.models import Entry

pytestmark = pytest.mark.django_db
TABLES = [["Ann", "Ben", "Cy", "Di"], ["Eve", "Flo", "Gus", "Hal"]]


@pytest.fixture
def night():
    tournament = game_tournament("hand_and_foot", slug="night")
    return tournament, seated_by_hand(tournament, TABLES)


@pytest.fixture
def dana(client: Client, night) -> Client:
    client.force_login(StaffRoleFactory(tournament=night[0], user__username="dana").user)
    return client


def test_the_dashboard_names_each_team_with_both_partners(dana: Client, night) -> None:
    page = dana.get("/director/night/rounds/1/dashboard").content.decode()
    assert 'Ann &amp; Cy <span class="muted">(Ann &amp; Cy)</span>' in page
    assert 'Ben &amp; Di <span class="muted">(Ben &amp; Di)</span>' in page
    assert "Eve &amp; Gus" in page and "Flo &amp; Hal" in page


def test_a_team_named_otherwise_shows_its_partners_beside_its_name(dana: Client, night) -> None:
    tournament, round = night
    aces = team_entry(tournament, "Aces", ("Bo Hill", "Jo Pike"))
    table = table_of(round, 2)
    table.seats.filter(position=1).update(entry=aces)
    page = dana.get("/director/night/rounds/1/dashboard").content.decode()
    assert 'Aces <span class="muted">(Bo Hill &amp; Jo Pike)</span>' in page


def test_no_first_dealer_is_marked_where_each_player_deals_hf2_3(dana: Client, night) -> None:
    dashboard = dana.get("/director/night/rounds/1/dashboard").content.decode()
    assert "first dealer" not in dashboard and "Cy)</span>*" not in dashboard
    table = dana.get("/director/night/rounds/1/tables/1/").content.decode()
    round_page = dana.get("/director/night/rounds/1/").content.decode()
    card = dana.get("/director/night/rounds/1/print/cards").content.decode()
    assert "first dealer" not in table and "first dealer" not in round_page
    assert 'class="first-dealer"' not in card and "Deals hand 1" not in card
    assert "the highest card drawn from the draw pile plays first (HF2.3)" in card


def test_kalooki_still_marks_its_first_dealer_r4_3(client: Client) -> None:
    tournament = tournament_with(5, slug="open")
    published_round(tournament)
    client.force_login(director_of(tournament))
    dashboard = client.get("/director/open/rounds/1/dashboard").content.decode()
    assert "* first dealer (R4.3)" in dashboard
    card = client.get("/director/open/rounds/1/print/cards").content.decode()
    assert 'class="first-dealer"' in card and "Deals game 1" in card


def test_checking_in_every_team_counts_teams(client: Client) -> None:
    tournament = game_tournament("hand_and_foot", slug="later")
    for name in ("Aces", "Kings", "Queens", "Jacks"):
        team_entry(tournament, name, status=Entry.Status.REGISTERED)
    client.force_login(StaffRoleFactory(tournament=tournament, user__username="dana").user)
    confirm = client.get("/director/later/players/check-in-all").content.decode()
    assert "Check in all registered teams?" in confirm and "4 teams will be checked in" in confirm
    response = client.post("/director/later/players/check-in-all")
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Checked in 4 teams."]


def test_a_hands_lines_say_which_partner_went_out_hf5_2(night) -> None:
    tournament, round = night
    table = table_of(round)
    enter_hf(tournament, table, 1, HANDS[0])  # Ann went out; Cy kept 10 points in hand
    [hand] = table_sheet(table=table).results
    out = {cell.name: cell.went_out for cell in hand.cells}
    assert out == {"Ann": True, "Ben": False, "Cy": False, "Di": False}
    entered = {cell.name: cell.entered for cell in hand.cells}
    assert "10 points in hand" in entered["Cy"] and "points in hand" not in entered["Ann"]
    assert "20 points in hand" in entered["Ben"] and "30 points in hand" in entered["Di"]
    assert "30 points" not in entered["Ben"]  # each partner's own, not the team's twice


def test_the_round_page_says_what_a_table_seats_r12_1_hf1_2(dana, night, client) -> None:
    RoundFactory(tournament=night[0], number=2)  # a draft: the page offers to seat it
    teams = dana.get("/director/night/rounds/2/").content.decode()
    assert "Seats the checked-in teams at tables of 2 teams of partners, avoiding" in teams
    tournament = tournament_with(5, slug="open")
    seated_round(tournament)
    client.force_login(director_of(tournament))
    players = client.get("/director/open/rounds/1/").content.decode()
    assert (
        "Seats the checked-in players at tables of 5 players (3 to 6 when the numbers need it) "
        "(R12.1), avoiding the meetings of earlier rounds, and draws each table's first "
        "dealer (R4.3)." in players
    )
