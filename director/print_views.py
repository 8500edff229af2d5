"""Director pages of the tables app: printed table cards and paper score sheets of a round.

Printing is a print stylesheet on an HTML page (static/css/print.css): one table per sheet of
paper, on A4 or Letter.

Terms
- the printed site: where every printed link and QR code starts. `SITE_URL` when it is set
  (`make venue` sets it); unset, the address the director's browser is using for this page,
  which is where the server answers (127.0.0.1:8300 for a server started on port 8300).
- loopback address: one that only the machine itself can reach (127.0.0.0/8, ::1, `localhost`
  and its sub-names, the unspecified 0.0.0.0 and ::). A printed link on such an address opens on
  no phone in the hall, so the print pages warn when the printed site is one; and when
  `SITE_URL` is set but differs from the address the director is using, they say so.
"""

import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.matches import deal_noun
from tables.selectors import RoundPrint, round_print_get
from tournament.check_in import my_page_token
from tournament.models import Round
from tournament.permissions import tournament_for_director


def table_link_url(access_token: str, site: str | None = None) -> str:
    """The table's private scorekeeper link, as printed on its card (absolute: it is scanned),
    on `site` (the printed site), or `SITE_URL`."""
    # Reversed by name: the page itself lives in the scoring app, which tables may not import.
    return (site or settings.SITE_URL) + reverse("table:link", args=[access_token])


def browsing_site(request: HttpRequest) -> str:
    """The address the director's browser is using: scheme, host and port."""
    return f"{request.scheme}://{request.get_host()}"


def printed_site(request: HttpRequest) -> str:
    """Where printed links start: `SITE_URL` when set, else the address in use (see above)."""
    return settings.SITE_URL if settings.SITE_URL_SET else browsing_site(request)


def same_site(one: str, other: str) -> bool:
    """Whether two addresses are one: scheme, host and port alike (a default port spelt out
    or not)."""
    first, second = urlsplit(one.lower()), urlsplit(other.lower())
    ports = {"http": 80, "https": 443}
    return (first.scheme, first.hostname, first.port or ports.get(first.scheme)) == (
        second.scheme,
        second.hostname,
        second.port or ports.get(second.scheme),
    )


def is_loopback(url: str) -> bool:
    """Whether `url`'s host can be reached only from this machine (see the terms above)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host in ("", "localhost") or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False  # a name: the venue's DNS or hosts file decides where it leads
    return address.is_loopback or address.is_unspecified


def qr_svg(url: str, title: str = "QR code of the table's scorekeeper link") -> SafeString:
    """A QR code of `url` as inline SVG, sized by the stylesheet (medium error correction)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, title=title)
    return mark_safe(svg)  # markup written by segno from a URL we built


@login_required
def print_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A table card per table: number, seats, first dealer (R4.3), the scorekeeper link as QR."""
    printing = _round_print(request, slug, number)
    if isinstance(printing, HttpResponse):
        return printing
    site = printed_site(request)
    cards = [
        {
            "table": table,
            "link": (link := table_link_url(table.access_token, site)),
            "qr": qr_svg(link),
        }
        for table in printing.tables
    ]
    context = {"cards": cards, "print_title": _("Table cards")}
    return _render(request, "director/print_cards.html", printing, context)


@login_required
def print_seat_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A seat card per player: their table and seat, and the QR code of their own page ("my
    page", hall.phone_views), which shows their seat and scores on their phone all day."""
    printing = _round_print(request, slug, number)
    if isinstance(printing, HttpResponse):
        return printing
    site = printed_site(request)
    cards = [
        {"table": table.number, "seat": seat, "link": (link := _my_page_url(seat.entry_id, site))}
        | {"qr": qr_svg(link, _("QR code of {name}'s own page").format(name=seat.name))}
        for table in printing.tables
        for seat in table.seats
    ]
    context = {"cards": cards, "print_title": _("Seat cards")}
    return _render(request, "director/print_seat_cards.html", printing, context)


def _my_page_url(entry_id: int, site: str) -> str:
    # Reversed by name: the page is the hall's, which the director's room may not import.
    return site + reverse("public:my-page", args=[my_page_token(entry_id)])


@login_required
def print_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A paper score sheet per table, a row per deal of the game's schedule (Kalooki: nine
    games, cards dealt, contract and dealer of each, R4), a box per player."""
    printing = _round_print(request, slug, number)
    if isinstance(printing, HttpResponse):
        return printing
    context = {"print_title": _("Score sheets")}
    return _render(request, "director/print_sheets.html", printing, context)


def _round_print(request: HttpRequest, slug: str, number: int) -> RoundPrint | HttpResponse:
    """What to print, or the page that says why there is nothing to print."""
    tournament = tournament_for_director(request.user, slug)
    round = get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )
    wanted = request.GET.get("table", "").strip()
    if wanted and not wanted.isdigit():
        not_a_number = _("“{wanted}” is not a table number.").format(wanted=wanted)
        return _refuse(request, round, not_a_number, one_table=True)
    printing = round_print_get(round=round, table_number=int(wanted) if wanted else None)
    if printing.tables:
        return printing
    if wanted:
        return _refuse(
            request,
            round,
            _("Round {number} has no table {wanted}.").format(number=round.number, wanted=wanted),
            one_table=True,
        )
    return _refuse(
        request,
        round,
        _(
            "Round {number} has no tables yet, so there is nothing to print. "
            "Seat the round first (R12.1), then print its table cards and score sheets."
        ).format(number=round.number),
    )


def _refuse(
    request: HttpRequest, round: Round, reason: str, *, one_table: bool = False
) -> HttpResponse:
    """404 for a table the round does not have; 409 (conflict) for a round not yet seated."""
    context = {"tournament": round.tournament, "round": round, "reason": reason}
    context["one_table"] = one_table
    status = 404 if one_table else 409
    return render(request, "director/print_refused.html", context, status=status)


def _render(
    request: HttpRequest, template: str, printing: RoundPrint, extra: dict[str, object]
) -> HttpResponse:
    rules = printing.tournament.rules()
    context = {
        "rules": rules,
        "deal_noun": deal_noun(rules),
        "order_rule": rules.cites("order"),
        "sheet_fields": rules.fields(1),
        "tournament": printing.tournament,
        "round": printing.round,
        "tables": printing.tables,
        "one_table": request.GET.get("table", "").strip(),
        "is_draft": printing.round.is_editable(),
        "games_in_set": len(printing.tables[0].games),
        "kalooki_sheet": bool(printing.tables[0].games and printing.tables[0].games[0].dealt),
        **_site_context(request),
    }
    return render(request, template, context | extra)


def _site_context(request: HttpRequest) -> dict[str, object]:
    """What the print toolbar says of the printed links: where they point, whether a phone can
    open them, and whether `SITE_URL` sends them elsewhere than the address in use."""
    site, browsing = printed_site(request), browsing_site(request)
    return {
        "site_url": site,
        "site_url_set": settings.SITE_URL_SET,
        "browsing_site": browsing,
        "site_is_loopback": is_loopback(site),
        "site_differs": settings.SITE_URL_SET and not same_site(site, browsing),
    }
