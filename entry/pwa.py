"""What makes the table's page work offline and installable: its service worker and manifest.

- service worker: `static/js/table-sw.js`, served from `/t/sw.js` so that its scope, `/t/`,
  covers every table's page (a worker only controls pages under the path it is served from).
  It keeps each table page it has shown and the page's assets, so a page opened once still opens
  without the network; results typed offline wait in the page's outbox (static/js/table-entry.js).
- manifest: per table (`/t/<token>/manifest.webmanifest`), so that the home-screen icon opens
  this table's page.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from config.i18n import catalog_url
from tables.models import Table

WORKER = "js/table-sw.js"
ASSETS = (
    "css/site.css",
    "css/table-link.css",
    "js/table-entry.js",
    "js/live.js",
    "js/clock.js",
    "js/display.js",
    "img/table-icon-192.png",
    "img/table-icon-512.png",
)


@cache
def _worker_source() -> str:
    found = finders.find(WORKER)
    if not found:  # pragma: no cover - the file ships with the code
        raise Http404("No service worker.")
    return Path(found).read_text(encoding="utf-8")


def _offline_page() -> str:
    title = gettext("Offline")
    words = gettext(
        "This table's page was never opened on this phone with the network on: open it once "
        "online, and it works offline after that."
    )
    return f"<!doctype html><title>{escape(title)}</title><p>{escape(words)}</p>"


def worker_url() -> str:
    """The worker's address for a page in the active language: `?l=es` names the language where
    the page loads a catalogue, so that the worker keeps that one (a worker's own request may
    not carry the page's language), and a phone switched to another language registers a new
    worker."""
    url = reverse("table:worker")
    return f"{url}?l={get_language()}" if catalog_url() else url


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The table pages' service worker, its assets' addresses filled in (the scripts' words in
    the language its address names among them), never cached by HTTP (the browser checks it for
    updates on every visit)."""
    asked = request.GET.get("l", "")
    with translation.override(asked if asked in dict(settings.LANGUAGES) else get_language()):
        return _worker()


def _worker() -> HttpResponse:
    catalog = catalog_url()
    names = [static(name) for name in ASSETS] + ([catalog] if catalog else [])
    source = _worker_source() if not settings.DEBUG else _worker_source.__wrapped__()
    version = _version(source + (catalog or "") + get_language())
    body = (
        source.replace('"__ASSETS__"', ",".join(json.dumps(name) for name in names))
        .replace('"__OFFLINE__"', json.dumps(_offline_page(), ensure_ascii=False))
        .replace("__VERSION__", version)
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/t/"
    return response


def _version(source: str) -> str:
    """A cache name that changes whenever the worker or a kept asset does."""
    digest = hashlib.sha256(source.encode())
    for name in ASSETS:
        found = finders.find(name)
        if found:
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


@require_safe
def manifest(request: HttpRequest, token: str) -> JsonResponse:
    """The web app manifest of one table: installing it puts this table's page on the phone's
    home screen."""
    table = Table.objects.select_related("round__tournament").filter(access_token=token).first()
    if table is None:
        raise Http404("No table has this link.")
    link = reverse("table:link", args=[token])
    short_name = gettext("Table {number}").format(number=table.number)
    body = {
        "name": f"{short_name} · {table.round.tournament.name}",
        "short_name": short_name,
        "description": gettext("Enter this table's results, even without the network."),
        "start_url": link,
        "scope": link,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f6f4a",
        "icons": [
            {
                "src": static(f"img/table-icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
