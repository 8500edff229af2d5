"""End-to-end tests in a real browser: Debian's Chromium driven by Playwright.

Without /usr/bin/chromium these tests skip with the reason; under CI=true a missing browser is a
failure (.ci/run installs it). Pages are served by pytest-django's live server.
"""

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

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
def laptop(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=LAPTOP)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()
