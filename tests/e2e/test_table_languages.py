"""The table's page in Spanish on a 390×844 touch phone (issue 34): the browser asks for
Spanish, the page and its scripts answer in Spanish (the scripts' words from Django's JavaScript
catalogue, /jsi18n/), a refused deal says so in Spanish with its rule kept, and a saved one too.

Offline too: the service worker keeps the catalogue with the page, so a Spanish page opened once
opens in Spanish without the network, its script's words included.

The screenshots are kept in /tmp/table-languages for a person to look at; axe-core finds no
serious or critical problem in any state the test visits.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tables.models import Table
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import DEVICES
from tests.e2e.wifi import Wifi
from tests.scoring.playing import published_round, tournament_with

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/table-languages")


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Copa de Primavera")).tables.all()
    return table


@pytest.fixture
def spanish_phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**DEVICES["phone"], locale="es-ES")
    yield context.new_page()
    context.close()


def line(phone: Page, name: str) -> Locator:
    return phone.locator(f'fieldset[data-player="{name}"]')


def shot(phone: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SHOTS / f"{name}.png"))


def test_a_spanish_phone_enters_a_deal_in_spanish(
    live_server, spanish_phone: Page, table: Table
) -> None:
    phone = spanish_phone
    phone.goto(f"{live_server.url}/t/{table.access_token}/")
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    expect(phone.get_by_role("heading", name="Ahora: partida 1 de 9")).to_be_visible()
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()  # the script is ready
    assert phone.evaluate("() => gettext('Save %(title)s')") == "Guardar %(title)s"
    expect(phone.get_by_role("button", name="Guardar partida 1")).to_be_visible()
    expect(phone.get_by_role("button", name="Llamar al director")).to_be_attached()
    expect(phone.get_by_role("button", name="Más para Ann")).to_be_visible()
    shot(phone, "1-opened")
    assert_accessible(phone)

    line(phone, "Ann").locator(".out-toggle").click()  # the keypad sheet opens for the next
    sheet = phone.get_by_role("dialog")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("button", name="Hecho")).to_be_visible()
    sheet.get_by_role("button", name="Añadir un rey").click()
    expect(sheet.locator(".sheet-count")).to_contain_text("1 carta · ")
    shot(phone, "2-keypad")
    assert_accessible(phone)
    sheet.get_by_role("button", name="Quitar la última carta").click()
    sheet.get_by_role("button", name="Hecho").click()

    phone.locator("select[name=who]").select_option(label="Ann")
    phone.get_by_role("button", name="Guardar partida 1").click()  # four hands missing
    status = phone.locator("[data-outbox-status]")
    expect(status).to_contain_text("Partida 1 no está guardada: corrija los campos marcados.")
    expect(phone.locator("[data-bar-problems]")).to_contain_text("(R8.2)")  # the rule kept
    shot(phone, "3-refused")
    assert_accessible(phone)

    for name, points in {"Ben": 6, "Cy": 31, "Di": 10, "Ed": 7}.items():
        line(phone, name).locator(".field-points input").fill(str(points))
    phone.wait_for_timeout(800)  # the live check of the last line
    phone.get_by_role("button", name="Guardar partida 1").click()
    expect(status).to_contain_text("Partida 1 guardada.")
    expect(status).to_contain_text("Enviada a las")
    expect(phone.get_by_role("heading", name="Ahora: partida 2 de 9")).to_be_visible()
    expect(phone.get_by_role("button", name="Guardar partida 2")).to_be_visible()
    shot(phone, "4-saved")
    assert_accessible(phone)

    switch = phone.get_by_role("region", name="Idioma")  # the switch, at the page's foot
    switch.get_by_label("Idioma").select_option("fr")
    switch.get_by_role("button", name="Cambiar").click()
    expect(phone.get_by_role("heading", name="Maintenant : partie 2 sur 9")).to_be_visible()
    expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
    expect(phone.get_by_role("button", name="Enregistrer partie 2")).to_be_visible()
    phone.get_by_role("region", name="Langue").scroll_into_view_if_needed()
    shot(phone, "6-switched-to-french")
    assert_accessible(phone)


KEPT = (
    "async () => Boolean(navigator.serviceWorker.controller) &&"
    " Boolean(await caches.match(location.origin + location.pathname)) &&"
    " Boolean(await caches.match(document.querySelector('script[src*=jsi18n]').src))"
)


def test_a_spanish_page_opened_once_opens_in_spanish_offline(
    live_server, browser: Browser, table: Table
) -> None:
    wifi = Wifi(live_server.url)
    context = browser.new_context(**DEVICES["phone"], locale="es-ES", service_workers="allow")
    try:
        phone = context.new_page()
        phone.goto(f"{wifi.url}/t/{table.access_token}/")
        expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
        deadline = time.monotonic() + 10
        while not phone.evaluate(KEPT):  # the worker keeps the page and the catalogue
            assert time.monotonic() < deadline, "the service worker kept no copy in 10 s"
            phone.wait_for_timeout(50)
        wifi.cut()
        context.set_offline(True)
        phone.reload()  # the worker's copies: the page, its scripts, their words
        expect(phone.get_by_role("heading", name="Ahora: partida 1 de 9")).to_be_visible()
        expect(phone.locator("form[data-enhanced=yes]")).to_be_visible()
        assert phone.evaluate("() => gettext('Done')") == "Hecho"
        line(phone, "Ann").locator(".out-toggle").click()
        expect(phone.get_by_role("dialog").get_by_role("button", name="Hecho")).to_be_visible()
        shot(phone, "5-offline")
    finally:
        wifi.mend()
        context.close()
