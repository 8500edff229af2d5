"""The scripts' words in the reader's language: Django's JavaScript catalogue, one address per
language and version, so that a phone fetches it once and keeps it.

A page names the catalogue with `catalog_url()`: `/jsi18n/?l=es&v=<digest>`, the language it
was drawn in and a digest of that language's compiled `djangojs` catalogue. That address always
answers the same bytes, so it is cached for a year (`immutable`); an address without the current
digest is answered too (a page kept offline from before a deploy), revalidated by its ETag.
English needs no catalogue: the scripts carry an identity `gettext` for it (the first lines of
static/js/table-entry.js), and `catalog_url()` is None for English, one request fewer on the
table page's first load (bench/bench_phone_bytes.py).

Only our own catalogue (`locale/`, LOCALE_PATHS) is sent, not the admin's.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.http import quote_etag
from django.views import i18n
from django.views.decorators.gzip import gzip_page

YEAR = 365 * 24 * 3600


def needs_catalog(language: str) -> bool:
    """Whether a page in `language` loads the catalogue: English is the scripts' own words."""
    return not language.lower().startswith("en")


@cache
def _digest(language: str) -> str:
    compiled = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "djangojs.mo"
    found = compiled.read_bytes() if compiled.exists() else b""
    return hashlib.sha256(language.encode() + found).hexdigest()[:10]


def catalog_version(language: str) -> str:
    """A digest of `language`'s compiled catalogue (read again on every call while DEBUG)."""
    return _digest.__wrapped__(language) if settings.DEBUG else _digest(language)


def catalog_url(language: str | None = None) -> str | None:
    """The catalogue's address for `language` (the active one by default); None for English."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if not needs_catalog(language):
        return None
    return f"{reverse('javascript-catalog')}?l={language}&v={catalog_version(language)}"


def _language(request: HttpRequest) -> str:
    asked = request.GET.get("l", "")
    return asked if asked in dict(settings.LANGUAGES) else translation.get_language()


class JavaScriptCatalog(i18n.JavaScriptCatalog):
    """Django's catalogue in the language the address names (`?l=es`), compressed, cached for a
    year when the address carries the current version, else revalidated by its ETag."""

    packages = ["locale"]  # see get_paths

    def get_paths(self, packages: list[str]) -> list[str]:
        """Our catalogue (LOCALE_PATHS) in place of the apps': the admin's is no phone's."""
        return [str(path) for path in settings.LOCALE_PATHS]

    def get(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        language = _language(request)
        etag = quote_etag(f"{language}-{catalog_version(language)}")
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponse(status=304)
        else:
            with translation.override(language):
                response = super().get(request, *args, **kwargs)
        response["ETag"] = etag
        if request.GET.get("v") == catalog_version(language):
            patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
        else:
            patch_cache_control(response, no_cache=True)
        return response

    @classmethod
    def as_view(cls, **initkwargs: object):  # type: ignore[override]
        return gzip_page(super().as_view(**initkwargs))
