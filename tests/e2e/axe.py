"""axe-core in the browser tests: every page state a test visits can be checked for accessibility.

The engine is the ``axe.min.js`` that the pinned ``axe-playwright-python`` package ships, so the
check runs wherever the test suite is installed (never skipped for want of an npm install). It is
evaluated through the browser's debugging protocol rather than added as a ``<script>`` tag, so the
pages' Content-Security-Policy (no inline scripts) does not stop it.
"""

from functools import cache
from importlib.resources import files

from playwright.sync_api import Page

BLOCKING = ("serious", "critical")


@cache
def axe_source() -> str:
    return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def axe_findings(page: Page, *, impacts: tuple[str, ...] = BLOCKING) -> list[tuple]:
    """The page's axe-core violations of these impacts: (rule id, help, first targets)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        (finding["id"], finding["help"], [node["target"] for node in finding["nodes"]][:3])
        for finding in found
        if finding["impact"] in impacts
    ]


def assert_accessible(page: Page) -> None:
    """No serious or critical axe-core finding on the page as it is now."""
    findings = axe_findings(page)
    assert findings == [], findings
