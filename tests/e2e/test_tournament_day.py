"""A whole round of the Spring Open in Chromium, as the hall lives it.

Dana, the director, sets the tournament up on her laptop, imports its twelve players, checks
them in and seats round 1: three tables of four (R12.2). The hall's projector opens the public
leaderboard before any card is dealt. At each table a player keeps score on a phone, the three
phones entering game by game in turn, cards typed in R11 notation or points given; each set is
signed off. Clive leads, until Dana's ruling adds the 50 points of an overcall found after his
set was signed off (R6.3, R12.4): Lloyd leads the final order. The projector shows each change
without being reloaded.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.kalooki import ASAJ_2025, StandingLine, rank_standings
from tests.e2e.steps import (
    PLAYERS,
    PLAYERS_CSV,
    Game,
    Hand,
    engine_totals,
    enter,
    players_check_in,
    players_import,
    round_publish,
    round_seat,
    sign_in,
    sign_off,
    table_links,
    table_open,
    tournament_create,
)
from tests.factories import StaffRoleFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_leaderboard")]

FULL_NAME = {name.split()[0]: name for name, _club in PLAYERS}
SLUG = "spring-open"
SEED = 2026  # the seating seed Dana types: the same seed seats the same tables


@dataclass(frozen=True)
class TableSet:
    number: int
    players: tuple[str, ...]  # in seat order
    keeper: str  # keeps score on the phone
    signer: str  # signs the set off
    games: list[Game]


TABLES = [
    TableSet(1, ("Hyacinth", "Sonia", "Marcia", "Errol"), "Sonia", "Errol", [
        Game(1, "Marcia", {"Hyacinth": Hand("kh 5♣"), "Sonia": Hand(points=23),
                           "Errol": Hand("AS 3S 4S")}),
        Game(2, "Hyacinth", {"Marcia": Hand("QD 2C"), "Sonia": Hand("JK 9H"),
                             "Errol": Hand(points=31)}),
        Game(3, "Sonia", {"Marcia": Hand(points=8), "Hyacinth": Hand("T♠ J♠"),
                          "Errol": Hand("KC KD 7H")}),
        Game(4, "Marcia", {"Hyacinth": Hand("AC 6D"), "Sonia": Hand(points=34),
                           "Errol": Hand("JK 2S")}),
        Game(5, "Errol", {"Marcia": Hand("4H 4C"), "Hyacinth": Hand(points=17),
                          "Sonia": Hand("QS QH 3D")}),
        Game(6, "Marcia", {"Hyacinth": Hand("8S"), "Sonia": Hand("JH 9C"),
                           "Errol": Hand(points=12)}, down_and_out=True),
        Game(7, "Sonia", {"Marcia": Hand(points=6), "Hyacinth": Hand("5h 6h 7h"),
                          "Errol": Hand("AS AC")}),
        Game(8, "Hyacinth", {"Marcia": Hand("2D 3D"), "Sonia": Hand(points=41),
                             "Errol": Hand("JK KS")}),
        Game(9, "Errol", {"Marcia": Hand("9S"), "Hyacinth": Hand(points=26),
                          "Sonia": Hand("10D JD QD")}),
    ]),
    TableSet(2, ("Paulette", "Neville", "Yvonne", "Clive"), "Paulette", "Yvonne", [
        Game(1, "Clive", {"Yvonne": Hand("7D 8D"), "Paulette": Hand(points=19),
                          "Neville": Hand("JK QC")}),
        Game(2, "Yvonne", {"Paulette": Hand("KS KH"), "Clive": Hand(points=4),
                           "Neville": Hand("AS 10C 9C")}),
        Game(3, "Clive", {"Yvonne": Hand(points=22), "Paulette": Hand("6S 6C 2H"),
                          "Neville": Hand("JK")}),
        Game(4, "Paulette", {"Yvonne": Hand("QH JC"), "Clive": Hand("3C"),
                             "Neville": Hand(points=45)}),
        Game(5, "Clive", {"Yvonne": Hand("AD 5S"), "Paulette": Hand(points=28),
                          "Neville": Hand("KD QD JD")}),
        Game(6, "Neville", {"Yvonne": Hand(points=16), "Paulette": Hand("8♥ 8♣"),
                            "Clive": Hand("2S 4D")}),
        Game(7, "Yvonne", {"Paulette": Hand("9D"), "Clive": Hand(points=5),
                           "Neville": Hand("AC 4S")}, down_and_out=True),
        Game(8, "Clive", {"Yvonne": Hand("10H"), "Paulette": Hand(points=33),
                          "Neville": Hand("JK JK")}),
        Game(9, "Paulette", {"Yvonne": Hand("KC 5D"), "Clive": Hand("AH 2C"),
                             "Neville": Hand(points=27)}),
    ]),
    TableSet(3, ("Delroy", "Lloyd", "Beverley", "Winston"), "Beverley", "Lloyd", [
        Game(1, "Lloyd", {"Beverley": Hand("QS 4H"), "Winston": Hand(points=21),
                          "Delroy": Hand("JK 7S 7C")}),
        Game(2, "Beverley", {"Lloyd": Hand("5D"), "Winston": Hand("KH KC"),
                             "Delroy": Hand(points=38)}),
        Game(3, "Winston", {"Lloyd": Hand(points=9), "Beverley": Hand("AS 6H"),
                            "Delroy": Hand("10S JH QC")}),
        Game(4, "Lloyd", {"Beverley": Hand("9S 9H"), "Winston": Hand(points=25),
                          "Delroy": Hand("JK AC")}),
        Game(5, "Delroy", {"Lloyd": Hand("3H 3S"), "Beverley": Hand(points=12),
                           "Winston": Hand("KS QS JS")}),
        Game(6, "Beverley", {"Lloyd": Hand(points=11), "Winston": Hand("8D 7D"),
                             "Delroy": Hand("jk td")}),
        Game(7, "Lloyd", {"Beverley": Hand("2S 2D 5C"), "Winston": Hand(points=19),
                          "Delroy": Hand("AS KD")}),
        Game(8, "Winston", {"Lloyd": Hand("4C"), "Beverley": Hand(points=7),
                            "Delroy": Hand("QH QS")}, down_and_out=True),
        Game(9, "Lloyd", {"Beverley": Hand("6D 6S"), "Winston": Hand("JD"),
                          "Delroy": Hand(points=44)}),
    ]),
]  # fmt: skip

# Found after table 2 signed off: Clive took a fourth call in game 8, the game he went out in.
RULING = {
    "Kind": "Penalty points",
    "Player": "Clive Henry (Spanish Town)",
    "Table": "Round 1, table 2",
    "Game": "8",
    "Points": "50",
    "Decision": "Overcall: Clive Henry took four calls in game 8. 50 points (R6.3, R8.5).",
    "Reason": "Neville Walker's challenge after the set was signed off; the table agrees.",
}
PENALTY = {"Clive": 50}


def in_full(game: Game) -> Game:
    """The game with the players' full names, as the table page shows them."""
    hands = {FULL_NAME[name]: hand for name, hand in game.hands.items()}
    return replace(game, out=FULL_NAME[game.out], hands=hands)


def expected_standings(penalties: dict[str, int]) -> list[tuple[str, int]]:
    """Each player and total in R12.3 order: the engine's set totals of what the phones entered,
    plus the rulings' points."""
    games = [game for table in TABLES for game in table.games]
    totals = engine_totals(games)  # each player sits at one table: their set total
    lines = [
        StandingLine(
            player=name,
            total=total + penalties.get(name, 0),
            games_won=sum(game.out == name for game in games),
            down_and_outs=sum(game.out == name and game.down_and_out for game in games),
            latest_round_score=total + penalties.get(name, 0),
        )
        for name, total in totals.items()
    ]
    placings = rank_standings(lines, ASAJ_2025)
    assert not any(placing.shared for placing in placings)  # an unambiguous order
    return [(FULL_NAME[placing.line.player], placing.line.total) for placing in placings]


def shows_standings(board: Page, standings: list[tuple[str, int]]) -> None:
    """The open leaderboard shows these players and totals, placed 1 to 12, once it polls."""
    rows = board.locator("table.leaderboard tbody tr")
    expect(rows.locator("td.player")).to_have_text([name for name, _ in standings], timeout=10_000)
    expect(rows.locator("td.total strong")).to_have_text([str(total) for _, total in standings])
    expect(rows.locator("td.place")).to_have_text([str(n) for n in range(1, len(standings) + 1)])


def director_seats_round_one(director: Page, base: str) -> dict[int, str]:
    """Set-up to published seating; each table's scorekeeper link, read off its table card."""
    sign_in(director, base, "dana")
    hub = tournament_create(director, base, "Spring Open", slug=SLUG, publish=True)
    director.get_by_role("link", name="Import a CSV").click()
    players_import(director, PLAYERS_CSV)
    expect(director.locator(".messages")).to_contain_text("Imported 12 players.")
    players_check_in(director, hub, 12)
    round_page = round_seat(director, hub, seed=SEED)
    for table in TABLES:  # R12.2: 12 players, three tables of four
        seats = director.locator(f"#table-{table.number} li")
        expect(seats).to_contain_text([FULL_NAME[name] for name in table.players])
    expect(director.locator("article.table-card")).to_have_count(len(TABLES))
    round_publish(director)
    return {number: base + path for number, path in table_links(director, round_page).items()}


def tables_play_their_sets(phones: list[Page], links: dict[int, str]) -> None:
    """A phone at each table, on the table's link; game 1 at every table, then game 2, ...;
    then each table signs its set off."""
    for phone, table in zip(phones, TABLES, strict=True):
        table_open(phone, links[table.number], FULL_NAME[table.keeper])
    for number in range(len(ASAJ_2025.games)):
        for phone, table in zip(phones, TABLES, strict=True):
            enter(phone, in_full(table.games[number]))
    for phone, table in zip(phones, TABLES, strict=True):
        sign_off(phone, FULL_NAME[table.signer])


def director_rules(director: Page, base: str, ruling: dict[str, Any]) -> None:
    director.goto(f"{base}/director/{SLUG}/")
    director.get_by_role("link", name="Rulings").click()
    form = director.locator("form#record")
    for label in ("Kind", "Player", "Table"):
        form.get_by_label(label).select_option(label=ruling[label])
    for label in ("Game", "Points", "Decision", "Reason"):
        form.get_by_label(label).fill(ruling[label])
    form.get_by_role("button", name="Record the ruling").click()
    expect(director.locator(".messages")).to_contain_text("is recorded")
    recorded = director.locator("table.rulings tbody tr").first
    expect(recorded).to_contain_text("Clive Henry, round 1, table 2, game 8")
    expect(recorded.locator("td.num")).to_have_text("+50")


def test_a_round_from_set_up_to_the_final_order_on_an_open_leaderboard(
    live_server, laptop: Page, new_page: Callable[[str], Page]
) -> None:
    StaffRoleFactory(user__username="dana")
    base = live_server.url
    links = director_seats_round_one(laptop, base)

    # The hall's projector opens the leaderboard before any card is dealt.
    projector = new_page("laptop")
    projector.goto(f"{base}/p/{SLUG}/leaderboard")
    expect(projector.locator("table.leaderboard td.place")).to_have_text(["—"] * 12)
    projector.evaluate("window.stillTheSamePage = true")

    tables_play_their_sets([new_page("phone") for _table in TABLES], links)

    before = expected_standings({})
    assert (before[0], before[-1]) == (("Clive Henry", 26), ("Neville Walker", 384))
    shows_standings(projector, before)

    director_rules(laptop, base, RULING)

    after = expected_standings(PENALTY)
    assert after[:3] == [("Lloyd Francis", 39), ("Marcia Campbell", 48), ("Clive Henry", 76)]
    assert after[-2:] == [("Delroy Brown", 366), ("Neville Walker", 384)]
    shows_standings(projector, after)
    clive = projector.locator("tr", has_text="Clive Henry")
    expect(clive.locator("td.total abbr.ruling")).to_have_text("+50R")
    expect(projector.locator("table.leaderboard td.games")).to_have_text(["9"] * 12)
    assert projector.evaluate("window.stillTheSamePage") is True  # the rows changed, not the page
