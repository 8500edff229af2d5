"""A director settles a disputed four at the table with the Rule check page, in Chromium."""

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.steps import sign_in
from tests.factories import StaffRoleFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_director_checks_a_disputed_four_on_a_phone(live_server, phone: Page) -> None:
    StaffRoleFactory(user__username="dana")
    sign_in(phone, live_server.url, "dana")
    expect(phone.get_by_role("heading", name="My tournaments")).to_be_visible()
    phone.goto(f"{live_server.url}/rules/check")
    meld = phone.locator("section#meld")
    meld.get_by_label("Cards").fill("5H JK JK 8H")
    meld.get_by_label("Kind").select_option("four")
    meld.get_by_role("button", name="Check meld").click()
    verdict = phone.locator("section#meld .verdict")
    expect(verdict).to_contain_text("Not a valid meld")
    expect(verdict).to_contain_text("R3.5")
    # The page fits a phone: nothing wider than the screen but the scrollable score table.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
