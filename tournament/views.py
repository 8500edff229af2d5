from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.selectors import tournament_list_public


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournament/home.html", {"tournaments": tournament_list_public()})
