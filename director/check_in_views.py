"""The director's side of self check-in: the window, and the check-ins arriving.

The players page shows a self check-in panel (`templates/director/_self_check_in.html`): open
the window for a number of minutes or close it (`check_in_window`), the QR code's poster to
print or show on the projector, and the players who checked in from their phones, newest first,
each with its Undo (the players page's own undo-check-in). That list is a live part
(`check_in_arrivals`): the page asks for it every `ARRIVALS_SECONDS` with its ETag (a digest of
what it shows) and gets a 304 while nothing changed.
"""

import hashlib

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from director.tournament_views import director_page, players_return_url
from tournament import check_in, selectors
from tournament.models import Tournament
from tournament.services import TournamentError

ARRIVALS_SECONDS = 3  # how often the players page asks for new self check-ins


class WindowForm(forms.Form):
    action = forms.ChoiceField(choices=[("open", "Open"), ("close", "Close")])
    minutes = forms.IntegerField(
        required=False, min_value=1, max_value=check_in.LONGEST_WINDOW_MINUTES
    )


@require_POST
@director_page
def check_in_window(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open self check-in for some minutes, or close it; back to the players page."""
    form = WindowForm(request.POST)
    if not form.is_valid():
        problems = " ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())
        messages.error(request, _("Self check-in is unchanged: {why}").format(why=problems))
        return _back(request, tournament)
    try:
        if form.cleaned_data["action"] == "open":
            minutes = form.cleaned_data["minutes"] or check_in.WINDOW_MINUTES
            opened = check_in.check_in_window_open(
                tournament=tournament, by=request.user, minutes=minutes
            )
            open_until = _("Self check-in is open until {hour}.")
            messages.success(request, open_until.format(hour=_hour(opened)))
        else:
            check_in.check_in_window_close(tournament=tournament, by=request.user)
            messages.success(request, _("Self check-in is closed."))
    except TournamentError as refusal:
        messages.error(request, refusal.message)
    return _back(request, tournament)


def _back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return HttpResponseRedirect(players_return_url(request, tournament))


def _hour(tournament: Tournament) -> str:
    return f"{timezone.localtime(tournament.check_in_until):%H:%M}"


@require_safe
@director_page
def check_in_arrivals(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The live part: the window and the newest self check-ins (a 304 while unchanged)."""
    arrivals = selectors.check_in_arrivals_get(tournament=tournament)
    figures = (arrivals.is_open, arrivals.until, arrivals.registered, arrivals.checked_in)
    figures += tuple((entry.pk, entry.checked_in_at) for entry in arrivals.newest)
    etag = 'W/"' + hashlib.sha256(repr(figures).encode()).hexdigest()[:20] + '"'
    if get_conditional_response(request, etag=etag) is not None:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = {
            "tournament": tournament,
            "arrivals": arrivals,
            "back": request.GET.get("next", ""),
        }
        response = render(request, "director/_check_in_arrivals.html", context)
    response.headers["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response
