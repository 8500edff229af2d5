"""A Parcellus tournament end to end, in Chromium: a director sets up ten players for
two rounds under the Shields 2008 rules, seats them at three tables of three with one bye each
round (PA7.1), phones at the tables enter each deal (cards and parcels per player, who captured
the J♥) until the match is over, one entry is refused citing its rule (PA6.2), one match needs an
extra deal for a tie at the top (PA5.2), and the leaderboard's match points and points are the
totals worked out here by hand from the rules (PA4, PA7.2, PA7.3), not read back from the game.
"""

from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.steps import (
    players_check_in,
    players_import,
    round_seat,
    round_step,
    save,
    saved,
    sign_in,
    table_links,
)
from tests.factories import StaffRoleFactory
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")
TEN = "name,club\n" + "\n".join(f"{name},Mona" for name in NAMES)
MATCH_POINTS = (3, 1, 0)  # PA7.3 under Shields 2008: first, second, third

Capture = tuple[int, int, bool]  # cards captured, parcels captured, the J♥


def points(capture: Capture, deal: list[Capture]) -> int:
    """PA4 by hand: a point a card, two more for the J♥ (it counts three), and the six bonus
    points of the most parcels, shared equally by those level on the most."""
    cards, parcels, jack = capture
    most = max(p for _, p, _ in deal)
    level = sum(1 for _, p, _ in deal if p == most)
    return cards + (2 if jack else 0) + (6 // level if parcels == most else 0)


@dataclass
class Match:
    """A match's deals in seat order (seats 1, 2, 3), played to 30 (PA5)."""

    deals: list[list[Capture]]

    def totals(self) -> list[int]:
        return [sum(points(deal[seat], deal) for deal in self.deals) for seat in range(3)]

    def parcels(self) -> list[int]:
        return [sum(deal[seat][1] for deal in self.deals) for seat in range(3)]


# Seat 1 and seat 2 are level on 33 after deal 3: the match goes on (PA5.2); deal 4 decides it.
TIED = Match(
    [
        [(10, 3, True), (8, 2, False), (4, 1, False)],  # 18, 8, 4
        [(6, 2, False), (12, 3, True), (4, 1, False)],  # 6, 20, 4: 24, 28, 8
        [(7, 2, False), (3, 2, False), (8, 2, True)],  # 9, 5, 12 (a share of 2): 33, 33, 20
        [(9, 3, False), (5, 2, False), (4, 1, False)],  # 15, 5, 4: 48, 38, 24
    ]
)
QUICK = Match(
    [
        [(11, 3, True), (6, 2, False), (5, 1, False)],  # 19, 6, 5
        [(10, 3, False), (8, 2, True), (4, 1, False)],  # 16, 10, 4: 35, 16, 9
    ]
)
SECOND_WINS = Match(
    [
        [(5, 1, False), (12, 4, True), (3, 1, False)],  # 5, 20, 3
        [(6, 2, False), (10, 3, False), (2, 1, False)],  # 6, 16, 2: 11, 36, 5
    ]
)


def set_up(laptop: Page, base: str) -> str:
    """The set-up page: Parcellus under Shields 2008, two rounds, public pages on."""
    laptop.goto(f"{base}/director/new")
    laptop.get_by_label("Game and preset").select_option(label="Parcellus: shields 2008")
    laptop.get_by_role("button", name="Show its settings").click()
    expect(laptop.get_by_label("Bye rule", exact=True)).to_be_visible()
    laptop.get_by_label("Name", exact=True).fill("Parcellus Cup")
    laptop.get_by_label("First day").fill("2026-12-05")
    laptop.get_by_label("Last day").fill("2026-12-05")
    laptop.get_by_label("Number of rounds").fill("2")
    laptop.get_by_label("Publish the public pages").check()
    laptop.get_by_role("button", name="Create tournament").click()
    assert laptop.locator(".errors").all_inner_texts() == []
    expect(laptop.get_by_role("heading", name="Parcellus Cup")).to_be_visible()
    return laptop.url.split("#")[0]


def seat_next_round(laptop: Page, hub: str, seed: int) -> str:
    round_page = round_seat(laptop, hub, seed=seed)
    expect(laptop.locator(".messages")).to_contain_text(
        "Seated 9 players at 3 tables, 1 with a bye"
    )
    return round_page


def bye_of(laptop: Page) -> str:
    byes = laptop.locator("#byes li")
    expect(byes).to_have_count(1)
    return byes.inner_text().split()[0]


def seats_at(phone: Page) -> list[str]:
    return [text.split()[0] for text in phone.locator(".seat-list li .who").all_inner_texts()]


def fill_deal(phone: Page, seats: list[str], deal: list[Capture]) -> None:
    for name, (cards, parcels, jack) in zip(seats, deal, strict=True):
        line = phone.locator(f'fieldset[data-player="{name}"]')
        line.get_by_label("Cards captured").fill(str(cards))
        line.get_by_label("Parcels captured").fill(str(parcels))
        if jack:
            line.get_by_label("Captured the J♥").check()


def play(phone: Page, base: str, link: str, match: Match, *, refuse_first: bool = False) -> list:
    """Enter the match at one table, deal by deal, as the table's page asks; its seats."""
    phone.goto(f"{base}{link}")
    expect(phone.get_by_role("heading", name="Now: deal 1")).to_be_visible()
    seats = seats_at(phone)
    phone.get_by_label("Who is entering?").select_option(label=seats[0])
    if refuse_first:  # parcels of 3 + 2 + 2: seven, not six (PA6.2)
        first = match.deals[0]
        fill_deal(phone, seats, [first[0], (first[1][0], 2, first[1][2]), (5, 2, first[2][2])])
        phone.get_by_role("button", name="Save deal 1").click()
        problems = phone.locator("body")
        expect(problems).to_contain_text("the parcels captured add up to 7, not six")
        expect(problems).to_contain_text("PA6.2")
        assert_accessible(phone)
    for number, deal in enumerate(match.deals, start=1):
        expect(phone.get_by_role("heading", name=f"Now: deal {number}")).to_be_visible()
        way = "left" if number % 2 else "right"  # the pass alternates (PA2.3)
        expect(phone.locator("#now")).to_contain_text(f"pass three cards to the {way}")
        fill_deal(phone, seats, deal)
        save(phone, f"Save deal {number}")  # through the page's outbox
        expect(saved(phone)).to_contain_text(f"Deal {number} is saved.")
    expect(phone.locator("body")).to_contain_text(f"The match is over after {len(match.deals)}")
    expect(phone.get_by_role("button", name="Save deal")).to_have_count(0)  # no deal after it
    return seats


class Ledger:
    """Each player's rounds as the rules give them: (match points, points, wins, parcels)."""

    def __init__(self) -> None:
        self.rounds: dict[str, dict[int, tuple[int, int, int, int]]] = {n: {} for n in NAMES}
        self.byes: dict[str, list[int]] = {n: [] for n in NAMES}

    def match(self, round: int, seats: list[str], match: Match) -> None:
        totals, parcels = match.totals(), match.parcels()
        order = sorted(range(3), key=lambda seat: -totals[seat])
        assert totals[order[0]] > totals[order[1]] > totals[order[2]]  # no shared place here
        for place, seat in enumerate(order):
            won = 1 if place == 0 else 0
            self.rounds[seats[seat]][round] = (
                MATCH_POINTS[place],
                totals[seat],
                won,
                parcels[seat],
            )

    def bye(self, round: int, name: str) -> None:
        self.byes[name].append(round)

    def line(self, name: str) -> tuple[int, ...]:
        """Match points, points, wins and parcels over every round; a bye is the player's
        average match (PA7.2, the Shields 2008 bye rule), here of one match, so exact."""
        played = list(self.rounds[name].values())
        average = tuple(sum(r[i] for r in played) // len(played) for i in range(4))
        played += [average] * len(self.byes[name])
        return tuple(sum(r[i] for r in played) for i in range(4))


def test_ten_players_two_rounds_with_a_bye_an_extra_deal_and_the_standings(
    live_server, new_page
) -> None:
    StaffRoleFactory(user__username="dana")
    base, laptop = live_server.url, new_page("laptop")
    sign_in(laptop, base, "dana")
    hub = set_up(laptop, base)
    laptop.get_by_text("Every rule in words").click()
    expect(laptop.locator("body")).to_contain_text("A bye counts as the player's average match")
    laptop.goto(f"{hub}players/import")
    players_import(laptop, TEN)
    players_check_in(laptop, hub, 10)
    ledger = Ledger()

    # Round 1: three tables of three and a bye, shown in words on the round page (PA7.1, PA7.2).
    round_page = seat_next_round(laptop, hub, seed=11)
    expect(laptop.locator("body")).to_contain_text("Table 3")
    expect(laptop.locator("body")).not_to_contain_text("Table 4")
    first_bye = bye_of(laptop)
    expect(laptop.locator("#byes")).to_contain_text("PA7.2")
    assert_accessible(laptop)
    round_step(laptop, "publish", "Published")
    links = table_links(laptop, round_page)
    phone = new_page("phone")
    scripts = {1: TIED, 2: QUICK, 3: SECOND_WINS}
    for table, match in scripts.items():
        seats = play(phone, base, links[table], match, refuse_first=table == 1)
        ledger.match(1, seats, match)
    ledger.bye(1, first_bye)
    laptop.goto(round_page)
    expect(laptop.locator("#table-1")).to_contain_text("4 deals · match over")
    round_step(laptop, "complete", "Complete")

    # The public pages: the bye on the player's page, in words.
    cup = Tournament.objects.get(slug="parcellus-cup")
    bye_entry = cup.entries.get(player__name=first_bye)
    laptop.goto(f"{base}/p/parcellus-cup/players/{bye_entry.pk}")
    expect(laptop.locator("body")).to_contain_text("bye in round 1")

    # Round 2: the bye goes to another player, the lowest standing without one.
    round_page = seat_next_round(laptop, hub, seed=12)
    second_bye = bye_of(laptop)
    assert second_bye != first_bye
    lowest = min(
        (n for n in NAMES if n != first_bye),
        key=lambda n: (ledger.rounds[n][1][0], ledger.rounds[n][1][1]),
    )
    assert second_bye == lowest
    round_step(laptop, "publish", "Published")
    links = table_links(laptop, round_page)
    for table, match in {1: QUICK, 2: SECOND_WINS, 3: QUICK}.items():
        ledger.match(2, play(phone, base, links[table], match), match)
    ledger.bye(2, second_bye)
    assert Round.objects.get(tournament=cup, number=2).status == Round.Status.IN_PLAY

    # The leaderboard: match points first (PA7.3), then points (PA7.4), as worked out here.
    laptop.goto(f"{base}/p/parcellus-cup/leaderboard")
    expected = {name: ledger.line(name) for name in NAMES}
    for name, (match_points, total, _, _) in expected.items():
        row = laptop.locator("tr", has=laptop.get_by_role("link", name=name, exact=True))
        expect(row.locator("td.lead")).to_have_text(str(match_points))
        expect(row.locator("td.total")).to_contain_text(str(total))
    # The order: match points, then the tie-break chain: points, wins, parcels (PA7.4).
    order = sorted(NAMES, key=lambda name: ([-x for x in expected[name]], name))
    expect(laptop.locator("tbody td.player a")).to_have_text(order)
    places = laptop.locator("tbody td.place").all_inner_texts()
    assert places[0] == "1" and places[-1] != "—"  # byes are rounds played: all are placed
    assert_accessible(laptop)
