"""The table's page never loses a result: the draft, the outbox, the service worker.

Ann keeps score at table 1 on a phone whose Wi-Fi comes and goes; Ben, at the same table, has
the link open on his own phone. What Ann types survives a reload; what she saves without the
network is sent when it returns, once; what Ben saved meanwhile is shown next to hers and she
chooses; a tab closed with a result waiting sends it when the page is opened again; and the page
opens without the network once it has been opened with it. axe-core checks each state.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scoring.models import Deal, IdempotencyRecord
from tables.models import Table
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import DEVICES
from tests.e2e.steps import saved
from tests.e2e.wifi import Wifi
from tests.scoring.playing import play_set, published_round, tournament_with

pytestmark = pytest.mark.django_db(transaction=True)

ANN_GAME_1 = {"Ben": 12, "Cy": 31, "Di": 10, "Ed": 7}  # Ann went out
BEN_GAME_1 = {"Ann": 20, "Cy": 5, "Di": 9, "Ed": 8}  # Ben's version: he says Ben went out


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Spring Open")).tables.all()
    return table


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def phone_of(browser: Browser, contexts: list[BrowserContext], *, workers: bool = False) -> Page:
    """A phone of its own (its storage, its network). Without the service worker unless asked:
    Chromium's offline switch does not reach a worker's requests, and the outbox must be seen
    on its own."""
    options = dict(DEVICES["phone"], service_workers="allow" if workers else "block")
    contexts.append(browser.new_context(**options))
    return contexts[-1].new_page()


def open_table(phone: Page, url: str, who: str) -> None:
    phone.goto(url)
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    phone.get_by_label("Who is entering?").select_option(label=who)


def line(phone: Page, name: str):
    return phone.locator(f'fieldset[data-player="{name}"]')


def enter_points(phone: Page, out: str, points: dict[str, int]) -> None:
    line(phone, out).get_by_label("Went out").check()
    done = phone.locator("section.sheet").get_by_role("button", name="Done")
    if done.is_visible():
        done.click()
    for name, value in points.items():
        line(phone, name).get_by_label("Points", exact=True).fill(str(value))


def kept(phone: Page, name: str):
    """What the page keeps under `name` in its IndexedDB store (the outbox, set-aside
    entries): None when nothing is kept."""
    return phone.evaluate(
        """name => new Promise(resolve => {
            const opened = indexedDB.open("table-outbox", 1);
            opened.onupgradeneeded = () => opened.result.createObjectStore("kept");
            opened.onsuccess = () => {
                const store = opened.result.transaction("kept").objectStore("kept");
                const keys = store.getAllKeys();
                keys.onsuccess = () => {
                    const key = keys.result.find(k => k.endsWith(":" + name));
                    if (key === undefined) return resolve(null);
                    const got = store.get(key);
                    got.onsuccess = () => resolve(got.result);
                };
            };
        })""",
        name,
    )


def link(live_server, table: Table) -> str:
    return f"{live_server.url}/t/{table.access_token}/"


def deal_1(table: Table) -> Deal:
    return Deal.objects.get(table=table, number=1)


def ann_saves_offline(live_server, browser, contexts, table) -> Page:
    """Ann enters game 1 and presses Save with the Wi-Fi gone: the result waits on her phone."""
    phone = phone_of(browser, contexts)
    open_table(phone, link(live_server, table), "Ann")
    enter_points(phone, "Ann", ANN_GAME_1)
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save game 1").click()
    expect(saved(phone)).to_contain_text("Waiting for the network (1 result)")
    return phone


def test_offline_during_save_the_result_waits_and_is_stored_once_when_online(
    live_server, browser, contexts, table
) -> None:
    phone = ann_saves_offline(live_server, browser, contexts, table)
    expect(phone.locator(".queued")).to_contain_text("Game 1 is kept on this phone")
    assert_accessible(phone)  # the waiting state
    assert not Deal.objects.filter(table=table).exists()
    phone.context.set_offline(False)  # the phone hears "online" and sends at once
    expect(saved(phone)).to_contain_text("Game 1 is saved.")
    expect(phone.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()  # in place
    assert deal_1(table).revisions.count() == 1
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.endsWith(':outbox'))") == []
    assert kept(phone, "outbox") is None  # nothing held any more


def test_an_answer_lost_on_the_way_back_is_retried_with_its_key_and_stored_once(
    live_server, browser, contexts, table
) -> None:
    phone = phone_of(browser, contexts)
    open_table(phone, link(live_server, table), "Ann")
    enter_points(phone, "Ann", ANN_GAME_1)
    keys: list[str] = []
    replayed: list[str] = []

    def lose_the_first_answer(route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the server stores the result...
            route.abort("internetdisconnected")  # ...and the phone never hears it
        else:
            response = route.fetch()
            replayed.append(response.headers.get("idempotent-replayed", ""))
            route.fulfill(response=response)

    phone.route("**/api/tables/*/games/1/result", lose_the_first_answer)
    phone.get_by_role("button", name="Save game 1").click()
    expect(saved(phone)).to_contain_text("Game 1 is saved.", timeout=15_000)
    assert len(keys) == 2 and keys[0] == keys[1]  # the same result, the same key
    assert replayed == ["true"]  # the server answered the retry from its record
    assert deal_1(table).revisions.count() == 1
    assert IdempotencyRecord.objects.count() == 1


def test_a_reload_or_back_mid_entry_brings_the_draft_back(live_server, browser, contexts, table):
    phone = phone_of(browser, contexts)
    open_table(phone, link(live_server, table), "Ann")
    line(phone, "Ann").get_by_label("Went out").check()
    phone.locator("section.sheet").get_by_role("button", name="Add a king").click()
    phone.locator("section.sheet").get_by_role("button", name="Add a ten").click()
    sheet_player = phone.locator("section.sheet h2").inner_text().removesuffix("’s cards")
    phone.locator("section.sheet").get_by_role("button", name="Done").click()
    line(phone, "Cy").get_by_label("Points", exact=True).fill("31")

    phone.reload()  # a pull-to-refresh
    expect(phone.locator(".draft-note")).to_contain_text("Your unsaved entry of game 1 is back.")
    assert_accessible(phone)  # the draft restored
    expect(line(phone, "Ann").get_by_label("Went out")).to_be_checked()
    expect(line(phone, "Cy").get_by_label("Points", exact=True)).to_have_value("31")
    cards = line(phone, sheet_player).get_by_label("Cards left")
    expect(cards).to_have_value("K 10")
    expect(line(phone, sheet_player).locator("[data-cards-summary]")).to_have_text("2·20")
    expect(phone.get_by_label("Who is entering?")).to_have_value(
        str(table.seats.get(entry__player__name="Ann").entry_id)
    )

    phone.goto(f"{live_server.url}/")  # away, then Back
    phone.go_back()
    expect(line(phone, "Cy").get_by_label("Points", exact=True)).to_have_value("31")
    phone.get_by_role("button", name="Start game 1 again").click()
    expect(line(phone, "Cy").get_by_label("Points", exact=True)).to_have_value("")
    expect(phone.locator(".draft-note")).to_have_count(0)


def conflict_setup(live_server, browser, contexts, table) -> tuple[Page, Page]:
    """Ann saves game 1 offline; meanwhile Ben saves his own game 1 from his phone."""
    ann = ann_saves_offline(live_server, browser, contexts, table)
    ben = phone_of(browser, contexts)
    open_table(ben, link(live_server, table), "Ben")
    enter_points(ben, "Ben", BEN_GAME_1)
    ben.get_by_role("button", name="Save game 1").click()
    expect(saved(ben)).to_contain_text("Game 1 is saved.")
    ann.context.set_offline(False)
    conflict = ann.locator(".conflicts")
    expect(conflict).to_contain_text("Someone else saved game 1 first")
    return ann, ben


def test_an_offline_result_another_phone_saved_first_shows_both_and_stores_the_choice(
    live_server, browser, contexts, table
) -> None:
    ann, _ = conflict_setup(live_server, browser, contexts, table)
    conflict = ann.locator(".conflicts")
    expect(conflict).to_contain_text("Stored (version 1)")
    expect(conflict).to_contain_text("Ann: 20")  # Ben's entry, as stored
    expect(conflict).to_contain_text("Ann: went out")  # and Ann's, kept on her phone
    expect(conflict).to_contain_text("Cy: points 31")
    expect(saved(ann)).to_contain_text("choose which result the table keeps")
    assert_accessible(ann)  # the conflict
    ann.get_by_role("button", name="Save mine instead").click()
    expect(saved(ann)).to_contain_text("Game 1 is corrected: this is version 2.")
    expect(ann.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()  # in place
    deal = deal_1(table)
    assert deal.version == 2
    first, second = deal.revisions.order_by("version")
    assert first.entered_via == "table 1 link · Ben"  # Ben's result stays in the history
    assert second.entered_via == "table 1 link · Ann"
    assert "Two phones entered game 1" in second.reason
    points = dict(deal.results.values_list("entry__player__name", "points"))
    assert points["Cy"] == 31 and points["Ann"] == 0


def test_keeping_the_stored_result_sets_this_phones_entry_aside_not_away(
    live_server, browser, contexts, table
) -> None:
    ann, _ = conflict_setup(live_server, browser, contexts, table)
    ann.get_by_role("button", name="Keep the stored result").click()
    expect(saved(ann)).to_contain_text("the stored result is kept")
    expect(ann.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()  # in place
    assert deal_1(table).version == 1
    aside = kept(ann, "set-aside")  # kept where the outbox is: IndexedDB
    assert aside[0]["title"] == "Game 1" and aside[0]["body"]["sides"]


def test_a_tab_closed_with_a_result_waiting_sends_it_when_opened_again(
    live_server, browser, contexts, table
) -> None:
    phone = ann_saves_offline(live_server, browser, contexts, table)
    context = phone.context
    phone.close()  # the tab is closed, the phone put away
    context.set_offline(False)
    assert not Deal.objects.filter(table=table).exists()
    later = context.new_page()
    later.goto(link(live_server, table))  # opened again later: the outbox sends
    expect(saved(later)).to_contain_text("Game 1 is saved.")
    expect(later.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()
    assert deal_1(table).revisions.count() == 1


def wait_until_kept(phone: Page, seconds: float = 10) -> None:
    """Until the service worker controls the page and has kept a copy of it. (A predicate that
    returns a promise is truthy to `wait_for_function` at once: this asks until it is true.)"""
    kept = (
        "async () => Boolean(navigator.serviceWorker.controller) &&"
        " Boolean(await caches.match(location.origin + location.pathname))"
    )
    deadline = time.monotonic() + seconds
    while not phone.evaluate(kept):
        assert time.monotonic() < deadline, f"the service worker kept no copy in {seconds} s"
        phone.wait_for_timeout(50)


def test_the_page_opens_without_the_network_once_opened(live_server, browser, contexts, table):
    wifi = Wifi(live_server.url)
    phone = phone_of(browser, contexts, workers=True)
    open_table(phone, link(wifi, table), "Ann")
    wait_until_kept(phone)
    play_set(table, games=1)  # game 1 is saved from elsewhere: only a kept copy still says 1
    wifi.cut()  # every connection refused, the service worker's own too
    phone.context.set_offline(True)
    phone.reload()  # no network: the service worker's copy of the page, and its script
    expect(phone.get_by_role("heading", name="Now: game 1 of 9")).to_be_visible()
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    assert phone.evaluate("performance.getEntriesByType('navigation')[0].workerStart") > 0
    wifi.mend()
    phone.context.set_offline(False)
    phone.reload()
    expect(phone.get_by_role("heading", name="Now: game 2 of 9")).to_be_visible()


def test_the_manifest_makes_the_tables_page_installable(live_server, browser, contexts, table):
    phone = phone_of(browser, contexts)
    phone.goto(link(live_server, table))
    href = phone.locator('link[rel="manifest"]').get_attribute("href")
    manifest = phone.request.get(f"{live_server.url}{href}").json()
    assert manifest["start_url"] == f"/t/{table.access_token}/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert sizes == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        response = phone.request.get(f"{live_server.url}{icon['src']}")
        assert response.ok and response.headers["content-type"] == "image/png"


DISK_FULL = (
    "The server's disk is full; nothing was saved. The entry is kept on this phone: ask the "
    "director to make room on the server, then try again."
)


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (503, {"errors": [{"rule": None, "field": None, "message": DISK_FULL}]},
         "The server's disk is full; nothing was saved. Kept on this phone (1 result), "
         "sent by itself when the server is back."),
        (502, None, "The server did not answer; nothing was saved. Kept on this phone"),
    ],
    ids=["full disk", "no answer from the server"],
)  # fmt: skip
def test_a_server_that_cannot_save_is_named_and_the_result_is_sent_when_it_is_back(
    live_server, browser, contexts, table, status: int, body, said: str
) -> None:
    """A 503 is no network problem: the phone says what the server said and that the result is
    kept and sent by itself, not "Waiting for the network"."""
    phone = phone_of(browser, contexts)
    open_table(phone, link(live_server, table), "Ann")
    enter_points(phone, "Ann", ANN_GAME_1)
    server_back: list[bool] = []
    refused: list[int] = []

    def server_busy(route) -> None:
        if server_back:
            return route.continue_()
        refused.append(status)
        route.fulfill(status=status, json=body) if body else route.fulfill(status=status, body="")

    phone.route("**/api/tables/*/games/1/result", server_busy)
    phone.get_by_role("button", name="Save game 1").click()
    expect(saved(phone)).to_contain_text(said)
    expect(saved(phone)).not_to_contain_text("network")
    assert_accessible(phone)
    assert not Deal.objects.filter(table=table).exists()
    server_back.append(True)  # the phone tries again by itself (1 s, then 2 s, 4 s...)
    expect(saved(phone)).to_contain_text("Game 1 is saved.", timeout=20_000)
    assert deal_1(table).revisions.count() == 1
