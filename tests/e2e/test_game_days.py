"""A day of each game in Chromium, the table's phone page opened once and kept open.

Kalooki (a set cut to three games), Hand and Foot (three hands) and Parcellus (a match to 30)
each live the same day at one table: Dana, the director, starts the round's clock from her
dashboard, pauses it and extends it, and the phone shows each (a pause stops its countdown; Hand
and Foot's last 15 minutes reach it, HF2.2); the table calls and Dana answers, and the phone sees
the answer; a wrong entry is corrected, its history kept; an entry refused after the first deal
shows its own error, not a bogus order error (HF2.1, PA6.5); the reply to a save is lost on the
way back and the phone's retry stores it once; a ruling changes the order. At each step the
hall's pages (the open leaderboard, the projector, the player and table pages, the standings
API) show the same totals. Every answer of the phone's live part is a 200 or a 304, the clock
running: a 500 there once cut every phone off the director.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, Response, Route, expect

import games
from config.caches import forget_process_caches
from scoring.models import Deal
from tables.models import Table
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import saved, sign_in
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import director_of
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_day")]

SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/kalooki-shots"))
LIVE_WAIT = 8_000  # ms: the live parts ask every second here, the standings are eager


@pytest.fixture
def quick_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every live part (phone, dashboard, hall) asks again each second; nothing cached before."""
    cache.clear()
    forget_process_caches()
    monkeypatch.setattr("entry.views.LIVE_SECONDS", 1)
    monkeypatch.setattr("director.round_views.DASHBOARD_REFRESH_SECONDS", 1)
    monkeypatch.setattr("hall.views.LIVE_SECONDS", 1)
    monkeypatch.setattr("hall.views.REFRESH_SECONDS", 1)
    monkeypatch.setattr("hall.views.PROJECTOR_SECONDS", 1)


# --- the people ----------------------------------------------------------------------------------


@dataclass
class Day:
    """The day's pages: Dana's dashboard, the table's phone, the hall's open leaderboard and a
    visitor walking the other public pages; and what the phone's live part answered."""

    base: str
    tournament: Tournament
    table: Table
    director: Page
    phone: Page
    board: Page
    visitor: Page
    live_answers: list[tuple[int, bool]] = field(default_factory=list)  # status, clock started
    clock_started: bool = False

    @property
    def slug(self) -> str:
        return self.tournament.slug

    def dashboard(self) -> None:
        self.director.goto(f"{self.base}/director/{self.slug}/rounds/1/dashboard")

    def clock_form(self, button: str):
        return self.director.locator("form", has=self.director.get_by_role("button", name=button))

    def clock_step(self, button: str, done: str, **fields: str) -> None:
        if "/dashboard" not in self.director.url:
            self.dashboard()
        steps = self.director.locator("details", has=self.director.locator(".clock-steps"))
        if steps.count() and steps.first.get_attribute("open") is None:
            steps.first.locator("summary").click()
        form = self.clock_form(button).first
        for label, value in fields.items():
            form.get_by_label(label).fill(value)
        form.get_by_role("button", name=button).click()
        expect(self.director.locator(".messages")).to_contain_text(done)


def phone_clock(day: Day):
    return day.phone.locator(".table-live [data-clock]")


def listen_to_the_live_part(day: Day) -> None:
    def heard(response: Response) -> None:
        if response.url.endswith("/live"):
            day.live_answers.append((response.status, day.clock_started))

    day.phone.on("response", heard)


# --- the hall: the same totals on every page -----------------------------------------------------


def standings(day: Day) -> dict[int, dict]:
    answer = day.visitor.request.get(f"{day.base}/api/tournaments/{day.slug}/standings")
    assert answer.status == 200, answer.text()
    return {player["entry"]: player for player in answer.json()["players"]}


def whole(number: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![\d−-]){number}(?!\d)")


def hall_agrees(day: Day, totals: dict[str, int], games_played: int) -> None:
    """The standings API gives each entry the expected total (the phone's set totals plus the
    rulings); the open leaderboard and the projector show each entry's total and the API's
    place, and so do the first's and the last's pages; the public table page shows the set's
    totals."""
    names = {seat.entry_id: seat.entry.name for seat in day.table.seats.select_related("entry")}
    api: dict[int, dict] = {}
    for _ in range(40):  # the standings are recomputed after each change: within the goal
        api = standings(day)
        if {names[e]: api[e]["total"] for e in names} == totals and all(
            api[e]["games_played"] == games_played for e in names
        ):
            break
        day.visitor.wait_for_timeout(250)
    assert {names[e]: api[e]["total"] for e in names} == totals, api[next(iter(names))]
    for entry, name in names.items():
        shows_row(day.board.locator(f"tr#entry-{entry}"), api[entry], totals[name])
    day.visitor.goto(f"{day.base}/p/{day.slug}/projector")
    for entry, name in names.items():
        shows_row(day.visitor.locator(f"tr#entry-{entry}"), api[entry], totals[name])
    order = [entry for entry in api if entry in names]  # the API's order: by place
    for entry in {order[0], order[-1]}:  # the leader's page and the last's
        name = names[entry]
        day.visitor.goto(f"{day.base}/p/{day.slug}/players/{entry}")
        facts = day.visitor.locator("dl.facts")
        expect(facts).to_contain_text(whole(totals[name]))
        place = api[entry]["place"]
        expect(facts.locator("dd").first).to_contain_text(str(place) if place else "—")
    day.visitor.goto(f"{day.base}/p/{day.slug}/tables/1/1")
    shown = day.visitor.locator("table.table-scores tfoot tr:first-child td")
    phone_totals = day.phone.locator(".set-totals td").all_inner_texts()
    expect(shown).to_have_text(phone_totals)


def shows_row(row, player: dict, total: int) -> None:
    """A leaderboard row shows the total in one of its cells, and the API's place."""
    place = player["place"]
    wanted = re.compile(rf"^=?{place}$" if place else "^—$")
    cells: list[str] = []
    for _ in range(LIVE_WAIT // 250):
        cells = [cell.strip() for cell in row.locator("td").all_inner_texts()]
        if cells and wanted.match(cells[0]) and any(whole(total).search(c) for c in cells[1:]):
            return
        row.page.wait_for_timeout(250)
    raise AssertionError(f"row {cells} does not show place {place} and total {total}")


def phone_shows(day: Day, totals: dict[str, int]) -> None:
    """The phone's page shows each side's set total (under each of its players' names),
    updated in place after the save."""
    heads = day.phone.locator(".set-totals th").all_inner_texts()
    wanted = [str(totals[side_of(head.split(" ", 1)[1], totals)]) for head in heads]
    cells = day.phone.locator(".set-totals td")
    expect(cells).to_have_text([text.replace("-", "−") for text in wanted], timeout=LIVE_WAIT)


def side_of(name: str, totals: dict[str, int]) -> str:
    """The side a player sits in: theirs, or their team's."""
    [side] = [side for side in totals if name.strip() in side]
    return side


# --- the director --------------------------------------------------------------------------------


def clock_starts(day: Day, minutes: int) -> None:
    day.dashboard()
    day.clock_step("Start the clock", "clock is started", **{"Minutes for the set": str(minutes)})
    day.clock_started = True
    expect(phone_clock(day)).to_have_attribute("data-state", "running", timeout=LIVE_WAIT)


def clock_pauses_extends_and_resumes(day: Day) -> None:
    day.clock_step("Pause", "paused", **{"Why (optional)": "a fire drill"})
    clock = phone_clock(day)
    expect(clock).to_have_attribute("data-state", "paused", timeout=LIVE_WAIT)
    expect(clock).to_contain_text("paused")
    shown = clock.locator("[data-clock-time]").inner_text()
    day.phone.wait_for_timeout(1500)
    assert clock.locator("[data-clock-time]").inner_text() == shown  # the countdown stands still
    before = int(clock.get_attribute("data-left") or 0)
    day.clock_step("Extend", "extended", **{"Add minutes": "10"})
    expect(clock).not_to_have_attribute("data-left", str(before), timeout=LIVE_WAIT)
    assert int(clock.get_attribute("data-left") or 0) >= before + 10 * 60 - 5
    day.clock_step("Resume", "running again")
    expect(clock).to_have_attribute("data-state", "running", timeout=LIVE_WAIT)


def table_calls_and_director_answers(day: Day) -> None:
    day.phone.get_by_role("button", name="Call the director").click()
    expect(day.phone.locator(".call-sent")).to_contain_text("The director is called")
    call = day.director.locator(f"[data-call='{day.table.number}']")
    expect(call).to_contain_text(f"Table {day.table.number}", timeout=LIVE_WAIT)
    call.get_by_role("button", name="Answer").click()
    expect(day.director.locator(".calls")).to_contain_text("No table is calling")
    expect(day.phone.locator(".call-sent")).to_be_hidden(timeout=LIVE_WAIT)
    expect(day.phone.get_by_role("button", name="Call the director")).to_be_visible()


def director_rules(day: Day, player: str, points: int, decision: str) -> None:
    """A ruling of points on the director's page: a penalty adds them, a score correction
    takes them off (R12.4)."""
    day.director.goto(f"{day.base}/director/{day.slug}/rulings/")
    form = day.director.locator("form#record")
    kind = "Penalty points" if points > 0 else "Score correction"
    form.get_by_label("Kind").select_option(label=kind)
    choice = form.get_by_label("Player")
    [label] = [text for text in choice.locator("option").all_inner_texts() if player in text]
    choice.select_option(label=label)
    form.get_by_label("Table").select_option(label="Round 1, table 1")
    form.get_by_label("Points").fill(str(points))
    form.get_by_label("Decision").fill(decision)
    form.get_by_role("button", name="Record the ruling").click()
    expect(day.director.locator(".messages")).to_contain_text("is recorded")


# --- the phone -----------------------------------------------------------------------------------


def line(day: Day, name: str):
    return day.phone.locator(f'fieldset[data-player="{name}"]')


def saves(day: Day, title: str) -> None:
    day.phone.get_by_role("button", name=f"Save {title}").click()
    expect(saved(day.phone)).to_contain_text(f"{title.capitalize()} is saved.", timeout=15_000)


def saves_with_the_reply_lost(day: Day, title: str, number: int) -> None:
    """The result reaches the server, its answer never reaches the phone: the phone tries again
    with the same Idempotency-Key, and the result is stored once."""
    lost: list[str] = []

    def drop_the_answer(route: Route) -> None:
        if route.request.method == "PUT" and not lost:
            route.fetch()  # the server stores it
            lost.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    day.phone.route("**/result", drop_the_answer)
    saves(day, title)
    day.phone.unroute("**/result")
    assert lost, "the answer was not dropped"
    deal = Deal.objects.get(table=day.table, number=number, is_void=False)
    assert deal.revisions.count() == 1


def refused_with_its_own_error(day: Day, title: str, rule: str, bogus: str) -> None:
    day.phone.get_by_role("button", name=f"Save {title}").click()
    status = saved(day.phone)
    expect(status).to_contain_text(f"{title.capitalize()} is not saved")
    expect(day.phone.locator("#enter")).to_contain_text(rule)
    assert bogus not in day.phone.locator("#enter").inner_text()
    assert bogus not in status.inner_text()


def corrects(day: Day, title: str, number: int, fix: Callable[[], None], why: str) -> None:
    """Open the deal's correction from the phone's list, change it, and save version 2; the
    first version is kept and shown beside it."""
    day.phone.locator(f"#game-{number} summary").click()
    day.phone.get_by_role("link", name=f"Correct {title}").click()
    expect(day.phone.get_by_role("heading", name=f"Correct {title}")).to_be_visible()
    fix()
    day.phone.get_by_label("Why is it corrected?").fill(why)

    with day.phone.expect_navigation():
        day.phone.get_by_role("button", name="Save correction").click()
    expect(saved(day.phone)).to_contain_text(
        f"{title.capitalize()} is corrected: this is version 2"
    )
    history = day.phone.locator(f"#game-{number}")
    history.locator("summary").click()
    expect(history).to_contain_text("Version 1 · Superseded")
    expect(history).to_contain_text(f"Why: {why}")
    deal = Deal.objects.get(table=day.table, number=number, is_void=False)
    assert deal.revisions.count() == 2


# --- the day, set up -----------------------------------------------------------------------------


@pytest.fixture
def day_of(live_server, new_page) -> Iterator[Callable[..., Day]]:
    def open_day(key: str, names: list[str], **ruleset: object) -> Day:
        game = games.get(key)
        rules = replace(game.ruleset(), **ruleset)
        tournament = game_tournament(key, slug=f"{key.replace('_', '-')}-day", is_published=True)
        Tournament.objects.filter(pk=tournament.pk).update(ruleset=game.dump(rules))
        table = table_of(seated_by_hand(Tournament.objects.get(pk=tournament.pk), [names]))
        director_of(table.round.tournament, "dana")
        day = Day(
            live_server.url, table.round.tournament, table,
            director=new_page("laptop"), phone=new_page("phone"),
            board=new_page("laptop"), visitor=new_page("laptop"),
        )  # fmt: skip
        sign_in(day.director, day.base, "dana")
        day.board.goto(f"{day.base}/p/{day.slug}/leaderboard")
        day.board.evaluate("window.stillTheSamePage = true")
        listen_to_the_live_part(day)
        day.phone.goto(f"{day.base}/t/{table.access_token}/")
        expect(day.phone.locator("html[data-table-ready=yes]")).to_be_attached()
        day.phone.get_by_label("Who is entering?").select_option(label=names[0])
        day.phone.evaluate("window.stillTheSamePage = true")
        return day

    yield open_day


def the_day_ends_well(day: Day) -> None:
    """The open pages were never reloaded, the live part never failed, the clock running, and
    the phone's page at the day's end passes axe (its screenshot kept in SHOTS)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    day.phone.screenshot(path=str(SHOTS / f"{day.tournament.game}-phone-at-the-end.png"))
    assert_accessible(day.phone)
    expect(day.phone.locator(".queued")).to_be_hidden()  # no "the page moves on" once it did
    assert day.board.evaluate("window.stillTheSamePage") is True
    assert any(started and status == 200 for status, started in day.live_answers)
    assert all(status in (200, 304) for status, _ in day.live_answers), day.live_answers


# --- Kalooki -------------------------------------------------------------------------------------

KALOOKI = ["Beverley Grant", "Clive Henry", "Hyacinth Morgan", "Winston Clarke", "Yvonne Stewart"]


def kalooki_game(day: Day, out: str, points: dict[str, int]) -> None:
    line(day, out).locator(".out-toggle").click()
    day.phone.locator("section.sheet").get_by_role("button", name="Done").click()
    for name, value in points.items():
        line(day, name).get_by_label("Points", exact=True).fill(str(value))


def test_a_kalooki_day_on_one_open_phone(day_of) -> None:
    day = day_of("kalooki", KALOOKI, games=games.get("kalooki").ruleset().games[:3])
    beverley, clive, hyacinth, winston, yvonne = KALOOKI
    clock_starts(day, 90)
    kalooki_game(day, beverley, {clive: 12, hyacinth: 31, winston: 10, yvonne: 7})
    saves(day, "game 1")
    totals = {beverley: 0, clive: 12, hyacinth: 31, winston: 10, yvonne: 7}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=1)

    clock_pauses_extends_and_resumes(day)
    table_calls_and_director_answers(day)
    assert day.phone.evaluate("window.stillTheSamePage") is True

    # Game 2: a 999 is refused citing R10.4, then the table's real hands are saved, the
    # answer lost on the way back.
    kalooki_game(day, clive, {beverley: 999, hyacinth: 4, winston: 22, yvonne: 15})
    refused_with_its_own_error(day, "game 2", "R10.4", bogus="R4.1")
    line(day, beverley).get_by_label("Points", exact=True).fill("9")
    saves_with_the_reply_lost(day, "game 2", 2)
    totals = {beverley: 9, clive: 12, hyacinth: 35, winston: 32, yvonne: 22}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=2)

    # Game 1 was wrong: Winston held 20, not 10. The correction keeps the first version.
    corrects(day, "game 1", 1, lambda: line(day, winston).get_by_label(
        "Points", exact=True).fill("20"), why="Winston held 20, not 10")  # fmt: skip
    totals[winston] += 10
    kalooki_game(day, yvonne, {beverley: 5, clive: 6, hyacinth: 8, winston: 3})
    saves(day, "game 3")
    totals = {beverley: 14, clive: 18, hyacinth: 43, winston: 45, yvonne: 22}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=3)
    first = day.board.locator("table.leaderboard tbody tr").first
    expect(first).to_contain_text(beverley)

    # Beverley's overcall is found after the set: 50 points (R6.3); Clive leads.
    director_rules(day, beverley, 50, "Overcall in game 2: 50 points (R6.3).")
    totals[beverley] += 50
    hall_agrees(day, totals, games_played=3)
    expect(first).to_contain_text(clive, timeout=LIVE_WAIT)
    the_day_ends_well(day)


# --- Hand and Foot -------------------------------------------------------------------------------

HAND_AND_FOOT = ["Gwendolyn Simpson", "Cynthia Watson", "Alton Hines", "Basil Shaw"]
OURS, THEIRS = "Gwendolyn Simpson & Alton Hines", "Cynthia Watson & Basil Shaw"


@dataclass(frozen=True)
class Team:
    """A team's hand: red and black books, points laid down, and each partner's cards left:
    None for the partner who went out (the foot played, HF5.3), (hand,) with the foot played,
    (hand, foot) without."""

    red: int
    black: int
    laid: int
    left: dict[str, tuple[int, ...] | None]


def hand_and_foot_hand(day: Day, teams: dict[str, Team]) -> None:
    for team_name, team in teams.items():
        for name, left in team.left.items():
            partner = line(day, name)
            if left is None:
                partner.locator(".out-toggle").click()
                expect(partner.get_by_label("Foot played")).to_be_checked()
                continue
            partner.get_by_label("Foot played").set_checked(len(left) == 1)
            partner.get_by_label("Points in hand").fill(str(left[0]))
            if len(left) == 2:
                partner.get_by_label("Points in foot").fill(str(left[1]))
        team_line = line(day, team_name)
        team_line.get_by_label("Red books").fill(str(team.red))
        team_line.get_by_label("Black books").fill(str(team.black))
        team_line.get_by_label("Points laid down").fill(str(team.laid))


def test_a_hand_and_foot_day_on_one_open_phone(day_of) -> None:
    day = day_of("hand_and_foot", HAND_AND_FOOT)
    gwendolyn, cynthia, alton, basil = HAND_AND_FOOT
    clock_starts(day, 14)  # a late round: its last 15 minutes at once (HF2.2)
    warning = day.phone.locator(".table-live [data-clock-warning]")
    expect(warning).to_be_visible(timeout=LIVE_WAIT)
    expect(warning).to_have_text("the last 15 minutes: time will be called (HF2.2)")

    hand_and_foot_hand(day, {
        OURS: Team(2, 2, 1200, {gwendolyn: None, alton: (10,)}),
        THEIRS: Team(1, 0, 500, {cynthia: (20,), basil: (30, 40)}),
    })  # fmt: skip
    expect(day.phone.locator(".bar-scores output")).to_have_text(["2890", "910"])
    saves(day, "hand 1")
    # HF6: 2 red 1000 + 2 black 600 + 1200 laid − 10 + 100 out; 500 + 500 − 20 − 30 − 40
    totals = {OURS: 2890, THEIRS: 910}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=1)

    clock_pauses_extends_and_resumes(day)
    expect(warning).to_be_hidden(timeout=LIVE_WAIT)  # 24 minutes left: no warning yet
    table_calls_and_director_answers(day)
    assert day.phone.evaluate("window.stillTheSamePage") is True

    # Hand 2: Cynthia goes out with one red book: refused for its own reason (HF5.1), not for
    # the hand's order (HF2.1). The table counts again: two red and two black.
    hand_and_foot_hand(day, {
        OURS: Team(1, 1, 300, {gwendolyn: (15,), alton: (5,)}),
        THEIRS: Team(1, 0, 600, {cynthia: None, basil: (25, 30)}),
    })  # fmt: skip
    refused_with_its_own_error(day, "hand 2", "HF5.1", bogus="HF2.1")
    line(day, THEIRS).get_by_label("Red books").fill("2")
    line(day, THEIRS).get_by_label("Black books").fill("2")
    # 500 + 300 + 300 − 15 − 5; 1000 + 600 + 600 + 100 out − 25 − 30
    expect(day.phone.locator(".bar-scores output")).to_have_text(["1080", "2245"])
    saves_with_the_reply_lost(day, "hand 2", 2)
    totals = {OURS: 2890 + 1080, THEIRS: 910 + 2245}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=2)

    # Hand 1 was wrong: Basil's foot held 50, not 40.
    corrects(day, "hand 1", 1, lambda: line(day, basil).get_by_label("Points in foot").fill(
        "50"), why="Basil's foot was 50")  # fmt: skip
    totals[THEIRS] -= 10
    hand_and_foot_hand(day, {
        OURS: Team(3, 2, 800, {gwendolyn: (10,), alton: None}),
        THEIRS: Team(0, 1, 200, {cynthia: (40,), basil: (35,)}),
    })  # fmt: skip
    # 1500 + 600 + 800 + 100 out − 10; 300 + 200 − 40 − 35
    expect(day.phone.locator(".bar-scores output")).to_have_text(["2990", "425"])
    saves(day, "hand 3")
    totals = {OURS: 2890 + 1080 + 2990, THEIRS: 900 + 2245 + 425}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=3)
    first = day.board.locator("table.leaderboard tbody tr").first
    expect(first).to_contain_text(OURS)

    # Alton's team laid down cards it had not melded: 4000 points off (HF6.8); the game is theirs.
    director_rules(day, OURS, -4000, "Cards laid down unmelded in hand 3: 4000 points off.")
    totals[OURS] -= 4000
    hall_agrees(day, totals, games_played=3)
    expect(first).to_contain_text(THEIRS, timeout=LIVE_WAIT)
    the_day_ends_well(day)


# --- Parcellus -----------------------------------------------------------------------------------

PARCELLUS = ["Beverley Grant", "Clive Henry", "Lloyd Francis"]


def parcellus_deal(day: Day, jack: str, captured: dict[str, tuple[int, int]]) -> None:
    """`jack` took the J♥; each player's cards and parcels captured."""
    line(day, jack).locator(".out-toggle").click()
    for name, (cards, parcels) in captured.items():
        line(day, name).get_by_label("Cards captured").fill(str(cards))
        line(day, name).get_by_label("Parcels captured").fill(str(parcels))


def test_a_parcellus_day_on_one_open_phone(day_of) -> None:
    day = day_of("parcellus", PARCELLUS)
    beverley, clive, lloyd = PARCELLUS
    clock_starts(day, 60)
    parcellus_deal(day, beverley, {beverley: (11, 3), clive: (6, 2), lloyd: (5, 1)})
    # PA4: 10 cards + 3 for the J♥ + 6 for the most parcels; 6; 5
    expect(day.phone.locator(".bar-scores output")).to_have_text(["19", "6", "5"])
    saves(day, "deal 1")
    totals = {beverley: 19, clive: 6, lloyd: 5}
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=1)

    clock_pauses_extends_and_resumes(day)
    table_calls_and_director_answers(day)
    assert day.phone.evaluate("window.stillTheSamePage") is True

    # Deal 2: eight parcels are refused for their own reason (PA6.2), not the deal's order.
    parcellus_deal(day, beverley, {beverley: (11, 3), clive: (6, 4), lloyd: (4, 1)})
    refused_with_its_own_error(day, "deal 2", "PA6.2", bogus="PA6.5")
    line(day, clive).get_by_label("Parcels captured").fill("2")
    expect(day.phone.locator(".bar-scores output")).to_have_text(["19", "6", "4"])
    saves_with_the_reply_lost(day, "deal 2", 2)
    totals = {beverley: 38, clive: 12, lloyd: 9}  # Beverley passes 30: the match is over (PA5.2)
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=2)

    # Deal 1 was wrong: Lloyd captured 6 cards, not 5.
    corrects(day, "deal 1", 1, lambda: line(day, lloyd).get_by_label("Cards captured").fill(
        "6"), why="Lloyd's cards counted again: 6")  # fmt: skip
    totals[lloyd] += 1
    phone_shows(day, totals)
    hall_agrees(day, totals, games_played=2)
    second = day.board.locator("table.leaderboard tbody tr").nth(1)
    expect(second).to_contain_text(clive)

    # Clive renounced in deal 2: 3 points off by a ruling; Lloyd is second.
    director_rules(day, clive, -3, "Renounce in deal 2: 3 points off.")
    totals[clive] -= 3
    hall_agrees(day, totals, games_played=2)
    expect(second).to_contain_text(lloyd, timeout=LIVE_WAIT)
    the_day_ends_well(day)
