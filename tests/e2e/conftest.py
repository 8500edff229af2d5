"""End-to-end tests in a real browser: Debian's Chromium driven by Playwright.

Without /usr/bin/chromium these tests skip with the reason; under CI=true a missing browser is a
failure (.ci/run installs it). Pages are served by pytest-django's live server.
"""

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from config.caches import forget_process_caches
from tests.conftest import IN_CI

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# This machine has no network beyond package registries: keep Chromium from reaching out.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
DEVICES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": LAPTOP},
}
NewPage = Callable[[str], Page]

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run in a
# thread with a running loop unless told it is safe, which it is here (one test at a time).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.path):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        reason = f"needs Chromium at {CHROMIUM} (apt-get install chromium)"
        if IN_CI:
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """One more person's browser, cookies and all: `new_page("phone")`, `new_page("laptop")`."""
    contexts: list[BrowserContext] = []

    def open_page(device: str) -> Page:
        contexts.append(browser.new_context(**DEVICES[device]))
        return contexts[-1].new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def laptop(new_page: NewPage) -> Page:
    return new_page("laptop")


@pytest.fixture
def phone(new_page: NewPage) -> Page:
    return new_page("phone")


@pytest.fixture
def quick_leaderboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ask for new rows every second instead of every ten, and start from an empty cache."""
    cache.clear()
    forget_process_caches()
    monkeypatch.setattr("hall.views.REFRESH_SECONDS", 1)
    monkeypatch.setattr("hall.views.PROJECTOR_SECONDS", 1)
