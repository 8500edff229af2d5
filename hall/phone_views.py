"""The players' own phones: self check-in, "my page", and the check-in QR code's poster.

- check-in: `/p/<slug>/check-in` lists the players A to Z; a name opens its confirmation, whose
  one button checks the player in (`tournament.check_in.entry_self_check_in`) and opens their
  my page: at most three taps after the QR code (a letter, the name, the button). The list is
  shown while the director's window is open, or on the published tournament's pages (saying it
  is closed); a tournament neither published nor open is a 404, as its other pages are.
- the phone's cookie: the check-in keeps the player's my page token in a signed cookie
  (`MY_COOKIE`, a few tokens: a couple sharing a phone), so that the check-in QR code scanned
  again, or `/p/<slug>/me`, leads to their page. Nothing else is kept about the phone.
- flood limit: the check-in pages answer each address `PAGE_LIMIT` times a minute and take
  `CHECK_IN_LIMIT` check-ins a minute from it (`config.throttle`); past that a 429 says how long
  to wait. The director's pages are never counted.
- my page: `/me/<token>`, its live part `?live=1` (see `hall.phone`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from config.throttle import flood_wait
from hall.phone import MY_PAGE_SECONDS, check_in_list_get, my_page_get
from hall.responses import private_if_preview
from hall.selectors import PublicTournament, digest, live_response, tournament_public_get
from tournament.check_in import entry_id_of_token, entry_self_check_in, my_page_token
from tournament.models import Entry, Tournament
from tournament.permissions import directed_tournaments
from tournament.services import TournamentError

MY_COOKIE = "my_pages"
MY_COOKIE_SALT = "hall.phone_views.my-pages"
MY_COOKIE_DAYS = 30
MY_COOKIE_TOKENS = 4  # the newest kept: a couple sharing one phone, a family
PAGE_LIMIT = 120  # check-in page views an address gets a minute
CHECK_IN_LIMIT = 30  # check-ins an address may ask a minute (a venue behind one address)
LETTERS_FROM = 16  # the list shows its letters (a tap to jump) from this many names


def _tournament(request: HttpRequest, slug: str) -> tuple[Tournament, PublicTournament]:
    """The tournament for its check-in pages, with its public facts (see the module's terms)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    facts = tournament_public_get(slug=slug)
    if tournament is None or facts is None:
        raise Http404("No tournament has that address.")
    shown = tournament.is_published or tournament.is_check_in_open()
    if not shown and not directed_tournaments(request.user).filter(pk=tournament.pk).exists():
        raise Http404("No published tournament has that address.")
    return tournament, facts


def _slowed(request: HttpRequest, scope: str, limit: int) -> HttpResponse | None:
    wait = flood_wait(request, scope=scope, limit=limit, seconds=60)
    if not wait:
        return None
    response = render(request, "hall/check_in_wait.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _my_tokens(request: HttpRequest) -> list[str]:
    """The my page tokens this phone keeps, newest first (a tampered cookie keeps none)."""
    kept = request.get_signed_cookie(MY_COOKIE, default="", salt=MY_COOKIE_SALT)
    return [token for token in kept.split() if entry_id_of_token(token) is not None]


def _keep_token(request: HttpRequest, response: HttpResponse, token: str) -> None:
    tokens = [token, *(kept for kept in _my_tokens(request) if kept != token)]
    response.set_signed_cookie(
        MY_COOKIE,
        " ".join(tokens[:MY_COOKIE_TOKENS]),
        salt=MY_COOKIE_SALT,
        max_age=MY_COOKIE_DAYS * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def _mine_here(request: HttpRequest, tournament: Tournament) -> list[Entry]:
    """The players of this tournament whose my page this phone keeps."""
    ids = [entry_id_of_token(token) for token in _my_tokens(request)]
    found = Entry.objects.filter(tournament=tournament, pk__in=ids).select_related("player")
    return list(found)


@require_safe
def check_in_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The check-in list: the players A to Z, each a tap to their confirmation."""
    tournament, facts = _tournament(request, slug)
    slowed = _slowed(request, "check-in-page", PAGE_LIMIT)
    if slowed:
        return slowed
    names = check_in_list_get(tournament_id=tournament.pk)
    letters = sorted({name.letter for name in names}) if len(names) >= LETTERS_FROM else []
    context = {
        "tournament": facts,
        "window": tournament,
        "names": names,
        "letters": letters,
        "mine": [(entry, my_page_token(entry.pk)) for entry in _mine_here(request, tournament)],
    }
    return private_if_preview(facts, render(request, "hall/check_in.html", context))


@require_http_methods(["GET", "HEAD", "POST"])
def check_in_entry(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """GET: "Check in as …?" and its button; POST: the check-in, then the player's my page."""
    tournament, facts = _tournament(request, slug)
    is_post = request.method == "POST"
    if is_post:
        slowed = _slowed(request, "check-in", CHECK_IN_LIMIT)
    else:
        slowed = _slowed(request, "check-in-page", PAGE_LIMIT)
    if slowed:
        return slowed
    entry = (
        Entry.objects.filter(pk=entry_id, tournament=tournament).select_related("player").first()
    )
    context: dict[str, Any] = {"tournament": facts, "window": tournament, "entry": entry}
    if entry is None:
        context["refusal"] = gettext(
            "This player is not entered in {tournament}: find your name in the list, or see "
            "the director."
        ).format(tournament=tournament.name)
        return render(request, "hall/check_in_confirm.html", context, status=404)
    if not is_post:
        return render(request, "hall/check_in_confirm.html", context)
    try:
        entry_self_check_in(tournament=tournament, entry_id=entry.pk)
    except TournamentError as refusal:
        context["refusal"] = refusal.message
        return render(request, "hall/check_in_confirm.html", context, status=409)
    token = my_page_token(entry.pk)
    response = HttpResponseRedirect(reverse("public:my-page", args=[token]) + "?checked_in=1")
    _keep_token(request, response, token)
    return response


@require_safe
def my_page_here(request: HttpRequest, slug: str) -> HttpResponse:
    """This phone's player's page in this tournament, else the check-in list."""
    tournament, _facts = _tournament(request, slug)
    mine = _mine_here(request, tournament)
    if mine:
        return HttpResponseRedirect(reverse("public:my-page", args=[my_page_token(mine[0].pk)]))
    return HttpResponseRedirect(reverse("public:check-in", args=[slug]))


@require_safe
def my_page(request: HttpRequest, token: str) -> HttpResponse:
    """The player's own page; its live part with `?live=1` (a 304 while nothing changed)."""
    entry_id = entry_id_of_token(token)
    page = my_page_get(entry_id=entry_id) if entry_id is not None else None
    if page is None:
        raise Http404(gettext("This page belongs to no player: scan your seat card's QR code."))
    context = {
        "page": page,
        "tournament": page.tournament,
        "live_seconds": MY_PAGE_SECONDS,
        "etag": digest(*page.figures()),
        "checked_in": request.GET.get("checked_in") == "1",
    }
    if request.GET.get("live") == "1":
        return live_response(request, "hall/_my_live.html", context, *page.figures())
    response = render(request, "hall/my_page.html", context)
    response["Cache-Control"] = "no-cache, private"
    response["Referrer-Policy"] = "same-origin"  # the token never leaves for another site
    return response


@require_safe
def check_in_poster(request: HttpRequest, slug: str) -> HttpResponse:
    """The check-in QR code, large: printed at the door and shown on the projector."""
    tournament, facts = _tournament(request, slug)
    site = (
        settings.SITE_URL if settings.SITE_URL_SET else f"{request.scheme}://{request.get_host()}"
    )
    link = site + reverse("public:check-in", args=[slug])
    context = {
        "tournament": facts,
        "window": tournament,
        "link": link,
        "link_host": urlsplit(link).netloc,
        "qr": qr_svg(link, "QR code of the self check-in page"),
    }
    return render(request, "hall/check_in_poster.html", context)


def qr_svg(url: str, title: str) -> SafeString:
    """A QR code of `url` as inline SVG, sized by the stylesheet (medium error correction)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, title=title)
    return mark_safe(svg)  # markup written by segno from a URL we built
