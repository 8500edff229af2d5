"""Steps of a tournament day as people take them in Chromium, shared by the end-to-end tests.

The director's (sign in, set up, import, check in, seat, publish, read the table links) and the
scorekeeper's (open the table's link, enter a game, sign the set off), each as the pages offer it.
A game is written as the table would tell it: who went out, and each other player's hand.
"""

import datetime
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, expect

from games.kalooki import ASAJ_2025, GameReport, HandReport, evaluate

PASSWORD = "correct horse battery staple"  # tests.factories' users all have it
TOURNAMENT_DAY = datetime.date(2026, 11, 21)
PLAYERS = [  # name, club: the twelve of the Spring Open
    ("Marcia Campbell", "Half Way Tree"),
    ("Delroy Brown", "Portmore"),
    ("Sonia Williams", "Portmore"),
    ("Errol Thompson", "Mandeville"),
    ("Paulette Reid", "Mandeville"),
    ("Winston Clarke", "Montego Bay"),
    ("Hyacinth Morgan", "Montego Bay"),
    ("Clive Henry", "Spanish Town"),
    ("Beverley Grant", "Spanish Town"),
    ("Lloyd Francis", "Ocho Rios"),
    ("Yvonne Stewart", "Ocho Rios"),
    ("Neville Walker", "May Pen"),
]
PLAYERS_CSV = "name,club\n" + "\n".join(f"{name},{club}" for name, club in PLAYERS)

# --- the director ------------------------------------------------------------------------------


def sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")


def tournament_create(
    page: Page, base: str, name: str, *, slug: str = "", publish: bool = False
) -> str:
    """Set up a one-day tournament of two rounds; the address of its hub page."""
    page.goto(f"{base}/director/new")
    page.get_by_label("Name", exact=True).fill(name)
    if slug:
        page.get_by_label("Address").fill(slug)
    page.get_by_label("First day").fill(TOURNAMENT_DAY.isoformat())
    page.get_by_label("Last day").fill(TOURNAMENT_DAY.isoformat())
    page.get_by_label("Number of rounds").fill("2")
    page.get_by_label("Publish the public pages").set_checked(publish)
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return page.url


def players_import(page: Page, rows: str) -> None:
    """On the import page: paste the CSV rows and have them checked and imported."""
    page.get_by_label("or paste the rows").fill(rows)
    page.get_by_role("button", name="Check and import").click()


def players_check_in(page: Page, hub: str, count: int) -> None:
    page.goto(hub)
    page.get_by_role("link", name="Players and check-in").click()
    page.get_by_role("link", name=f"Check in all {count} registered").click()
    page.get_by_role("button", name=f"Check in {count} players").click()
    expect(page.locator("body")).to_contain_text("Checked in")


def round_seat(page: Page, hub: str, *, seed: int | None = None) -> str:
    """Add the next round and seat the checked-in players; the address of the round's page."""
    page.goto(hub)
    page.get_by_role("link", name="Rounds").first.click()
    page.get_by_role("button", name="Add the next round").click()
    if seed is not None:
        page.get_by_label("Seed").fill(str(seed))
    page.get_by_role("button", name="Seat players").click()
    expect(page.locator(".messages")).to_contain_text("Seated")
    return page.url


def round_step(page: Page, name: str, done: str) -> None:
    """Take a round's step (publish, start, complete, lock) on its page, confirmed."""
    form = page.locator(f"form.step-{name}")
    form.get_by_role("checkbox").check()
    form.get_by_role("button").click()
    expect(page.locator("h1 .badge")).to_contain_text(done)


def round_publish(page: Page) -> None:
    publish = page.locator("form.step-publish")
    publish.get_by_role("checkbox").check()
    publish.get_by_role("button").click()
    expect(page.locator("body")).to_contain_text("Published")


def table_links(page: Page, round_page: str) -> dict[int, str]:
    """Each table's private scorekeeper link (its path), as printed on the table cards."""
    page.goto(f"{round_page.rstrip('/')}/print/cards")
    cards = page.locator("article[data-table]")
    expect(cards.first).to_be_visible()
    links = {}
    for card in cards.all():
        printed = card.locator(".link").inner_text()  # absolute, with the site's SITE_URL
        links[int(card.get_attribute("data-table") or 0)] = urlsplit(printed).path
    return links


# --- the scorekeeper ---------------------------------------------------------------------------


@dataclass
class Hand:
    cards: str | None = None
    points: int | None = None
    keys: list[str] = field(default_factory=list)  # tapped on the keypad: "a king", ...
    calls: int | None = None
    failed_come_downs: int = 0
    overcall_penalty: bool = False


@dataclass
class Game:
    number: int
    out: str
    hands: dict[str, Hand]
    down_and_out: bool = False
    warning: str = ""  # a warning the scorekeeper confirms


def table_open(phone: Page, link: str, scorekeeper: str) -> None:
    """Open the table's link, wait for its keypad script, and say who is entering."""
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Now: game 1 of 9")).to_be_visible()
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()  # the keypad is ready
    phone.get_by_label("Who is entering?").select_option(label=scorekeeper)  # remembered


def row(phone: Page, name: str) -> Locator:
    return phone.locator(f'fieldset[data-player="{name}"]')


def saved(phone: Page) -> Locator:
    """Where the table's page says what became of a result: saved, waiting, refused."""
    return phone.locator("[data-outbox-status]")


def more(phone: Page, name: str) -> Locator:
    """A player's line with its "more" fields open (calls, typed cards, penalties)."""
    line = row(phone, name)
    toggle = line.get_by_role("button", name=f"More for {name}")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return line


def keypad(phone: Page, name: str) -> Locator:
    """The card keypad's sheet, open on a player's hand."""
    sheet = phone.get_by_role("dialog", name=f"{name}’s cards")
    if not sheet.is_visible():
        row(phone, name).get_by_role("button", name=f"Keypad for {name}'s cards").click()
    expect(sheet).to_be_visible()
    return sheet


def fill_hand(phone: Page, name: str, hand: Hand) -> None:
    hand_row = row(phone, name)
    if hand.keys:
        sheet = keypad(phone, name)
        for key in hand.keys:
            sheet.get_by_role("button", name=f"Add {key}", exact=True).click()
        sheet.get_by_role("button", name="Done").click()
        hand.cards = hand_row.get_by_label("Cards left").input_value()
    elif hand.cards is not None or hand_row.get_by_label("Cards left").input_value():
        more(phone, name).get_by_label("Cards left").fill(hand.cards or "")
    hand_row.get_by_label("Points", exact=True).fill(
        "" if hand.points is None else str(hand.points)
    )
    if (
        hand.calls is not None
        or hand.failed_come_downs
        or hand.overcall_penalty
        or (
            hand_row.get_by_role("button", name=f"More for {name}").get_attribute("aria-expanded")
            == "true"
        )
    ):
        line = more(phone, name)
        line.get_by_label("Calls", exact=True).fill("" if hand.calls is None else str(hand.calls))
        line.get_by_label("Failed come-downs").fill(str(hand.failed_come_downs or ""))
        line.get_by_label("Overcalled").set_checked(hand.overcall_penalty)


def save(phone: Page, name: str) -> None:
    """Press Save and wait for the table's next state: on the table's page in place (the outbox
    sends the result, the page takes the parts that changed, the form moves on: no reload); a
    correction's own page goes back to the table's page."""
    if "/correct" in phone.url:
        with phone.expect_navigation():
            phone.get_by_role("button", name=name).click()
        return
    now = phone.locator("#now").inner_text()
    phone.get_by_role("button", name=name).click()
    expect(phone.locator("#now")).not_to_have_text(now, timeout=15_000)


def enter(phone: Page, game: Game) -> None:
    row(phone, game.out).get_by_label("Went out").check()
    for name, hand in game.hands.items():
        fill_hand(phone, name, hand)
    if game.down_and_out:
        phone.get_by_label("Down and out").check()
    if game.warning:
        phone.get_by_role("button", name=f"Save game {game.number}").click()
        box = phone.locator("[data-warnings-box]")
        expect(box).to_contain_text(game.warning)
        expect(box).to_contain_text("R10.6")
        box.get_by_label("Confirm anyway").check()
    save(phone, f"Save game {game.number}")
    expect(saved(phone)).to_contain_text(f"Game {game.number} is saved.")


def sign_off(phone: Page, name: str) -> None:
    """Sign off the finished set in the name of one of the table's players."""
    form = phone.locator("#sign-off")
    form.get_by_label("Signed off by").select_option(label=name)
    form.get_by_role("button", name="Sign off the set").click()
    expect(phone.locator(".signed-off")).to_contain_text(f"The set is signed off by {name}")


def engine_totals(games: list[Game]) -> dict[str, int]:
    """The set's totals as the rules engine computes them from the same entries (R8.6)."""
    totals: dict[str, int] = {}
    for game in games:
        hands = [
            HandReport(player=game.out, went_out=True, cards=""),
            *(
                HandReport(
                    player=name,
                    cards=hand.cards,
                    points=hand.points,
                    calls=hand.calls,
                    failed_come_downs=hand.failed_come_downs,
                    overcall_penalty=hand.overcall_penalty,
                )
                for name, hand in game.hands.items()
            ),
        ]
        check, score = evaluate(GameReport(game.number, hands, game.down_and_out), ASAJ_2025)
        assert score is not None, check.errors
        for line in score.scores:
            totals[line.player] = totals.get(line.player, 0) + line.total
    return totals
