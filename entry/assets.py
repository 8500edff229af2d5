"""What the table's phone page carries and what it fetches, weighed for the hall's Wi-Fi.

A phone at a table opens its page once and keeps it open all day, often over a slow, lossy
network (a round trip of 400 ms is common in a full hall). So the page draws from one answer:
its styles come inline (`inline_styles`, under the page's CSP nonce), and its scripts
(`SCRIPTS`), which only make a working form better, are fetched in parallel and deferred.
Answers are compressed on the way out (`gzip_page` on its views; the static files pre-compressed by
WhiteNoise): README's "Speed" gives the bytes, `bench/bench_phone_bytes.py` measures them.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.safestring import SafeString, mark_safe

from config.i18n import catalog_url

STYLES = ("css/site.css", "css/table-link.css")
SCRIPTS = ("js/live.js", "js/clock.js", "js/table-entry.js")
ICONS = ("img/table-icon-192.png", "img/table-icon-512.png")
COMMENT = re.compile(r"/\*.*?\*/", re.S)


def _read(name: str) -> str:
    found = finders.find(name)
    if not found:  # pragma: no cover - the files ship with the code
        raise FileNotFoundError(name)
    return Path(found).read_text(encoding="utf-8")


@cache
def _styles() -> str:
    text = "\n".join(COMMENT.sub("", _read(name)) for name in STYLES)
    if "</" in text:  # pragma: no cover - our own files: nothing may close the <style> early
        raise ValueError("a stylesheet of the table page holds '</'")
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def inline_styles() -> SafeString:
    """The page's stylesheets as one text for a `<style>` element (read again on every page
    while DEBUG, so that an edited stylesheet shows at once). Our own files, never input."""
    text = _styles.__wrapped__() if settings.DEBUG else _styles()
    return mark_safe(text)  # our own stylesheets, checked for "</" above


@cache
def inline_icon() -> str:
    """The site's icon as a `data:` address for the tab (CSP's img-src allows `data:`): one
    request fewer on the first load over the hall's Wi-Fi. The phone's home-screen icons stay
    files, named in the manifest (entry/pwa.py)."""
    return "data:image/svg+xml," + quote(" ".join(_read("img/favicon.svg").split()), safe=" /=:")


def preload_links() -> str:
    """A `Link` header that has the browser fetch the page's scripts as soon as the answer's
    headers arrive, not once its markup is read: on a slow network the markup arrives whole
    after a round trip and more, and the scripts would wait for it (one round trip saved). The
    scripts' words come first where the page is not in English (config/i18n.py)."""
    catalog = catalog_url()
    names = ([catalog] if catalog else []) + [static(name) for name in SCRIPTS]
    return ", ".join(f"<{name}>; rel=preload; as=script" for name in names)
