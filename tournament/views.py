"""Tournament pages: the public list, and the director's own tournaments."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.permissions import directed_tournaments
from tournament.selectors import tournament_list_public


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournament/home.html", {"tournaments": tournament_list_public()})


@login_required
def director_home(request: HttpRequest) -> HttpResponse:
    """The tournaments this director runs; others' tournaments are not shown."""
    tournaments = directed_tournaments(request.user).order_by("-starts_on", "name")
    return render(request, "tournament/director_home.html", {"tournaments": tournaments})
