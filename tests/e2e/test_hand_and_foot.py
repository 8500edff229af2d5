"""A Hand and Foot team tournament end to end, in Chromium: a director sets up nine
teams for two rounds under the club sheet, imports them from a file with a team column, checks
them in, seats them two teams to a table, partners opposite (HF1.2), with one team out each round
(HF11.1); phones at the tables enter hand after hand per team (books, points laid down, what each
partner holds, who went out); one entry is refused citing its rule (HF5.1); a scorekeeper and the
director call time, ending games after the hands played (HF2.2); a tie is settled by the
director's ruling (HF10.2); and the team standings are checked against totals worked out here
from the rules (HF6, HF10, HF11), not read back from the game.
"""

from dataclasses import dataclass

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.steps import (
    players_import,
    round_seat,
    round_step,
    save,
    saved,
    sign_in,
    table_links,
)
from tests.factories import StaffRoleFactory
from tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = ("Aces", "Kings", "Queens", "Jacks", "Tens", "Nines", "Eights", "Sevens", "Sixes")
PARTNERS = {team: (f"{team[:-1]} East", f"{team[:-1]} West") for team in TEAMS}
TEAMS_FILE = "name,club,team\n" + "\n".join(
    f"{partner},Mona,{team}" for team in TEAMS for partner in PARTNERS[team]
)
FOOT = 40  # the count of a foot not played (HF6.3)


@dataclass(frozen=True)
class Side:
    """One team's hand: books, points laid down, each partner's points left in hand, and the
    partner who went out (0 or 1), if one did."""

    red: int
    black: int
    laid: int
    left: tuple[int, int]
    out: int | None = None

    def points(self) -> int:
        """HF6 by hand: 500 a red book, 300 a black one, the cards laid down, less the cards
        left in both hands (and two feet not played when nobody of the team went out), and
        100 for going out."""
        left = sum(self.left[m] for m in range(2) if m != self.out)
        feet = 0 if self.out is not None else 2 * FOOT
        bonus = 100 if self.out is not None else 0
        return 500 * self.red + 300 * self.black + self.laid - left - feet + bonus


OUT_HAND = (Side(2, 2, 200, (0, 10), out=0), Side(1, 0, 150, (20, 30)))
BACK_HAND = (Side(1, 1, 130, (40, 15)), Side(2, 3, 310, (25, 0), out=1))
LAST_HAND = (Side(2, 2, 240, (0, 35), out=0), Side(0, 1, 150, (55, 10)))
LEVEL_HAND = (Side(1, 0, 200, (50, 50)), Side(1, 0, 200, (50, 50)))  # a draw-pile end (HF8.8)


def set_up(laptop: Page, base: str) -> str:
    laptop.goto(f"{base}/director/new")
    laptop.get_by_label("Game and preset").select_option(label="Hand and Foot: club sheet")
    laptop.get_by_role("button", name="Show its settings").click()
    expect(laptop.get_by_label("Bye rule", exact=True)).to_be_visible()
    laptop.get_by_label("Name", exact=True).fill("Team Night")
    laptop.get_by_label("First day").fill("2026-12-12")
    laptop.get_by_label("Last day").fill("2026-12-12")
    laptop.get_by_label("Number of rounds").fill("2")
    laptop.get_by_label("Publish the public pages").check()
    laptop.get_by_role("button", name="Create tournament").click()
    expect(laptop.get_by_role("heading", name="Team Night")).to_be_visible()
    return laptop.url.split("#")[0]


def import_and_check_in(laptop: Page, hub: str) -> None:
    laptop.goto(f"{hub}players/import")
    expect(laptop.locator("body")).to_contain_text("The two rows with the same team name")
    players_import(laptop, TEAMS_FILE.replace("Sixes\n", "") + "\nSix East,Mona,Sixes")
    expect(laptop.locator("body")).to_contain_text("team “Sixes” has one partner")
    players_import(laptop, TEAMS_FILE)
    expect(laptop.locator(".messages")).to_contain_text("Imported 9 teams.")
    laptop.goto(f"{hub}players")
    expect(laptop.get_by_role("heading", name="Teams", exact=True)).to_be_visible()
    expect(laptop.locator("tr", has_text="Aces")).to_contain_text("Ace East (Mona) & Ace West")
    laptop.get_by_role("link", name="Check in all 9 registered").click()
    laptop.get_by_role("button", name="Check in 9 teams").click()
    expect(laptop.locator("body")).to_contain_text("Checked in 9 teams.")
    assert_accessible(laptop)


def seat_round(laptop: Page, hub: str, seed: int) -> str:
    round_page = round_seat(laptop, hub, seed=seed)
    expect(laptop.locator(".messages")).to_contain_text("Seated 8 teams at 4 tables, 1 with a bye")
    return round_page


def bye_of(laptop: Page) -> str:
    byes = laptop.locator("#byes li")
    expect(byes).to_have_count(1)
    return next(team for team in TEAMS if team in byes.inner_text())


def teams_at(phone: Page) -> list[str]:
    """The two teams of the table, side by side: the entry form's lines that are a team's own (a
    partner's line follows its team's, entry/compact.py)."""
    lines = phone.locator("fieldset[data-hand]:not(.member)").all()
    return [line.get_attribute("data-player") or "" for line in lines]


def partners_of(phone: Page, team: str) -> list[Locator]:
    """The partners' lines of `team`, in seat order: the member lines after the team's line."""
    lines = phone.locator("fieldset[data-hand]").all()
    names = [line.get_attribute("data-player") for line in lines]
    partners = []
    for line in lines[names.index(team) + 1 :]:
        if "member" not in (line.get_attribute("class") or "").split():
            break
        partners.append(line)
    return partners


def more_of(line: Locator) -> Locator:
    """The line with its "More" fields open (the foot, red threes, 26-card deals...)."""
    toggle = line.locator("[data-more-toggle]")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return line


def keypad_closed(phone: Page) -> None:
    """Going out opens the card keypad on the next line: close it to type points instead."""
    if phone.get_by_role("dialog").is_visible():
        phone.get_by_role("dialog").get_by_role("button", name="Done").click()


def fill_side(phone: Page, team: str, side: Side) -> None:
    row = phone.locator(f'fieldset[data-player="{team}"]')
    row.get_by_label("Red books").fill(str(side.red))
    row.get_by_label("Black books").fill(str(side.black))
    row.get_by_label("Points laid down").fill(str(side.laid))
    for m, partner in enumerate(partners_of(phone, team)):
        if m == side.out:
            partner.get_by_label("Went out").check()
            keypad_closed(phone)
            more_of(partner).get_by_label("Foot played").check()
            continue
        partner.get_by_label("Points in hand").fill(str(side.left[m]))
        if side.out is not None:
            more_of(partner).get_by_label("Foot played").check()
        else:
            more_of(partner).get_by_label("Points in foot").fill(str(FOOT))


def enter_hand(phone: Page, number: int, teams: list[str], hand: tuple[Side, Side]) -> None:
    expect(phone.get_by_role("heading", name=f"Now: hand {number} of 3")).to_be_visible()
    for team, side in zip(teams, hand, strict=True):
        fill_side(phone, team, side)
    if all(side.out is None for side in hand):  # a draw-pile end: confirmed (HF8.8)
        phone.get_by_role("button", name=f"Save hand {number}").click()
        box = phone.locator("[data-warnings-box]")
        expect(box).to_contain_text("HF8.8")
        box.get_by_label("Confirm anyway").check()
    save(phone, f"Save hand {number}")  # through the page's outbox
    expect(saved(phone)).to_contain_text(f"Hand {number} is saved.")


def open_table(phone: Page, base: str, link: str) -> list[str]:
    phone.goto(f"{base}{link}")
    expect(phone.get_by_role("heading", name="Now: hand 1 of 3")).to_be_visible()
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()  # the keypad is ready
    expect(phone.locator("#now")).to_contain_text("Opening meld: at least 90 points (HF3.1)")
    teams = teams_at(phone)
    phone.get_by_label("Who is entering?").select_option(index=1)
    return teams


class Ledger:
    """Each team's rounds as the rules give them: (games won, points)."""

    def __init__(self) -> None:
        self.rounds: dict[str, dict[int, tuple[int, int]]] = {team: {} for team in TEAMS}
        self.byes: dict[str, int] = {}

    def game(self, round: int, teams: list[str], hands: list, decided_for: int | None = None):
        totals = [sum(hand[side].points() for hand in hands) for side in (0, 1)]
        winner = decided_for if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        for side, team in enumerate(teams):
            self.rounds[team][round] = (1 if side == winner else 0, totals[side])

    def line(self, team: str) -> tuple[int, int]:
        """Games won and points over both rounds; a bye is the team's average over the rounds
        it played (HF11.1, the club sheet's `average`), here one round, so exact."""
        played = list(self.rounds[team].values())
        if team in self.byes:
            played.append(played[0])
        return sum(r[0] for r in played), sum(r[1] for r in played)


def test_nine_teams_two_rounds_time_called_a_tie_ruled_and_the_team_standings(
    live_server, new_page
) -> None:
    StaffRoleFactory(user__username="dana")
    base, laptop = live_server.url, new_page("laptop")
    sign_in(laptop, base, "dana")
    hub = set_up(laptop, base)
    import_and_check_in(laptop, hub)
    ledger = Ledger()
    phone = new_page("phone")

    # Round 1: four tables of two teams and one team out (HF11.1).
    round_page = seat_round(laptop, hub, seed=21)
    ledger.byes[bye_of(laptop)] = 1
    assert_accessible(laptop)
    round_step(laptop, "publish", "Published")
    links = table_links(laptop, round_page)
    expect(laptop.locator("article[data-table]").first).to_contain_text("at seats 2 & 4 (HF1.2)")

    # Table 1: three hands; the first try marks a team out with one red book: refused (HF5.1).
    teams = open_table(phone, base, links[1])
    expect(phone.locator(".seat-list")).to_contain_text(PARTNERS[teams[0]][1])
    fill_side(phone, teams[0], Side(1, 2, 200, (0, 10), out=0))
    fill_side(phone, teams[1], OUT_HAND[1])
    phone.get_by_role("button", name="Save hand 1").click()
    expect(phone.locator("body")).to_contain_text("going out needs 2 red and 2 black")
    expect(phone.locator("body")).to_contain_text("HF5.1")
    assert_accessible(phone)
    for number, hand in enumerate((OUT_HAND, BACK_HAND, LAST_HAND), start=1):
        enter_hand(phone, number, teams, hand)
    expect(phone.locator("#now")).to_contain_text("All 3 hands are scored")
    ledger.game(1, teams, [OUT_HAND, BACK_HAND, LAST_HAND])

    # Table 2: one hand, then the director calls time in the hall; the scorekeeper records it.
    teams = open_table(phone, base, links[2])
    enter_hand(phone, 1, teams, BACK_HAND)
    phone.get_by_role("button", name="Time is called").click()
    expect(phone.locator(".messages")).to_contain_text("Time is called")
    expect(phone.locator("#now")).to_contain_text("Time was called after 1 hands (HF2.2)")
    expect(phone.get_by_role("button", name="Save hand 2")).to_have_count(0)
    ledger.game(1, teams, [BACK_HAND])

    # Table 3: a level hand, then time: a tie, settled by the director's ruling (HF10.2).
    tied = open_table(phone, base, links[3])
    enter_hand(phone, 1, tied, LEVEL_HAND)
    # Table 4: two hands; the director calls time at every table still playing.
    teams = open_table(phone, base, links[4])
    enter_hand(phone, 1, teams, OUT_HAND)
    enter_hand(phone, 2, teams, LAST_HAND)
    ledger.game(1, teams, [OUT_HAND, LAST_HAND])
    laptop.goto(f"{round_page.rstrip('/')}/dashboard")
    laptop.get_by_role("button", name="Call time at every table").click()
    expect(laptop.locator(".messages")).to_contain_text("Time is called at tables 3, 4 (HF2.2).")
    laptop.goto(f"{hub}rulings/")
    form = laptop.locator("form#record")
    form.get_by_label("Kind").select_option(label="Tie-break decision")
    form.get_by_label("Player").select_option(label=tied[1])
    form.get_by_label("Table").select_option(label="Round 1, table 3")
    form.get_by_label("Decision").fill(f"{tied[1]} won the high-card draw (HF10.2).")
    form.get_by_role("button", name="Record the ruling").click()
    expect(laptop.locator(".messages")).to_contain_text("is recorded")
    ledger.game(1, tied, [LEVEL_HAND], decided_for=1)
    laptop.goto(round_page)
    round_step(laptop, "complete", "Complete")

    # Round 2: another team out; every game ends by time after one hand.
    round_page = seat_round(laptop, hub, seed=22)
    second = bye_of(laptop)
    assert second not in ledger.byes
    ledger.byes[second] = 2
    round_step(laptop, "publish", "Published")
    links = table_links(laptop, round_page)
    for table, hand in {1: OUT_HAND, 2: BACK_HAND, 3: LAST_HAND, 4: BACK_HAND}.items():
        teams = open_table(phone, base, links[table])
        enter_hand(phone, 1, teams, hand)
        ledger.game(2, teams, [hand])
    laptop.goto(f"{round_page.rstrip('/')}/dashboard")
    laptop.get_by_role("button", name="Call time at every table").click()
    expect(laptop.locator(".messages")).to_contain_text("Time is called at tables 1, 2, 3, 4")

    # The leaderboard: one line a team, games won, then points (HF11.2), as worked out here.
    laptop.goto(f"{base}/p/team-night/leaderboard")
    expected = {team: ledger.line(team) for team in TEAMS}
    for team, (won, total) in expected.items():
        row = laptop.locator("tr", has=laptop.get_by_role("link", name=team, exact=True))
        expect(row.locator("td.lead")).to_have_text(str(won))
        expect(row.locator("td.total")).to_contain_text(str(total))
    order = sorted(TEAMS, key=lambda team: (-expected[team][0], -expected[team][1], team))
    expect(laptop.locator("tbody td.player a")).to_have_text(order)
    assert_accessible(laptop)
    night = Tournament.objects.get(slug="team-night")
    assert night.entries.filter(team_name="").count() == 0
