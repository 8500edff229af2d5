"""A Content-Security-Policy on every page: scripts only from this site,
no inline script or event handler anywhere, so an injected `<script>` cannot run."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.scoring.playing import director_of, published_round, tables_of, tournament_with

pytestmark = pytest.mark.django_db
TEMPLATES = Path(settings.BASE_DIR) / "templates"
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


def test_no_template_has_an_inline_script_or_event_handler() -> None:
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for pattern in (INLINE_SCRIPT, EVENT_HANDLER)
        for match in pattern.finditer(path.read_text())
    ]
    assert not found


def test_the_scripts_moved_out_are_served_from_static() -> None:
    for name in ("dashboard.js", "print.js"):
        assert (Path(settings.BASE_DIR) / "static" / "js" / name).is_file()


@pytest.fixture
def pages(client: Client) -> list[str]:
    open_ = tournament_with(5, name="Open", slug="open", is_published=True)
    table = tables_of(published_round(open_))[0]
    client.force_login(director_of(open_))
    return [
        "/",
        "/accounts/login/",
        "/director/",
        "/director/open/rounds/1/dashboard",
        "/director/open/rounds/1/print/cards",
        f"/t/{table.access_token}/",
        "/rules/check",
    ]


def test_every_page_carries_a_policy_that_allows_no_inline_script(
    client: Client, pages: list[str]
) -> None:
    for url in pages:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["script-src"] == ["'self'"], url
        assert "'unsafe-inline'" not in directives.get("style-src", []), url
        assert directives["object-src"] == ["'none'"], url
        assert directives["frame-ancestors"] == ["'none'"], url


def test_the_dashboard_and_print_pages_load_their_scripts(client: Client, pages) -> None:
    dashboard = client.get("/director/open/rounds/1/dashboard").content.decode()
    assert "js/dashboard.js" in dashboard
    cards = client.get("/director/open/rounds/1/print/cards").content.decode()
    assert "js/print.js" in cards and "data-print" in cards


def test_the_api_docs_load_everything_from_this_site(client: Client) -> None:
    """Swagger UI is served from here (a venue has no internet): no CDN, no inline script."""
    page = client.get("/api/docs/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "cdn." not in html and "https://" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src")[0]
    assert "<script>" not in html.replace(" ", "")
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def test_the_leaderboard_its_rows_and_the_standings_api_carry_the_policy_too() -> None:
    """Answered to visitors without a session before the rest of the middleware (the hall's
    shortcut), they carry the same policy as every other page."""
    tournament_with(5, name="Open", slug="open", is_published=True)
    crowd = Client()
    for url in (
        "/p/open/leaderboard",
        "/p/open/leaderboard/rows",
        "/api/tournaments/open/standings",
    ):
        response = crowd.get(url)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["script-src"] == ["'self'"], url
        assert directives["frame-ancestors"] == ["'none'"], url
