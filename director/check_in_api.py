"""The self check-in window in the API, as the players page opens and closes it.

`GET .../check-in` says whether it is open, until when, and the address players scan;
`POST .../check-in/open` (`{"minutes": 60}`) opens it or moves its end; `POST .../check-in/close`
closes it. A director's session or token; another director's tournament is a 404.
"""

from typing import Any

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import Input, NoInput
from director.tournament_api import REFUSED, DirectorApi, _valid
from tournament import check_in, selectors
from tournament.models import Tournament

TAG = ["tournaments"]


class WindowInput(Input):
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=check_in.LONGEST_WINDOW_MINUTES,
        default=check_in.WINDOW_MINUTES,
        help_text="How long it stays open from now.",
    )


class WindowOutput(serializers.Serializer):
    is_open = serializers.BooleanField()
    until = serializers.DateTimeField(
        allow_null=True, help_text="When it closes (or closed); null: never opened."
    )
    url = serializers.CharField(help_text="The check-in page players open (its QR code).")
    registered = serializers.IntegerField(help_text="Players still to check in.")
    checked_in = serializers.IntegerField()
    by_phone = serializers.IntegerField(help_text="Of the checked in, those who did it by phone.")


def _window(request: Request, tournament: Tournament) -> dict[str, Any]:
    arrivals = selectors.check_in_arrivals_get(tournament=tournament)
    site = (
        settings.SITE_URL if settings.SITE_URL_SET else f"{request.scheme}://{request.get_host()}"
    )
    return {
        "is_open": arrivals.is_open,
        "until": arrivals.until,
        "url": site + reverse("hall:check-in", args=[tournament.slug]),
        "registered": arrivals.registered,
        "checked_in": arrivals.checked_in,
        "by_phone": arrivals.by_phone,
    }


class CheckInWindowApi(DirectorApi):
    @extend_schema(
        operation_id="check_in_window",
        summary="Self check-in: open or not, until when, the address to scan",
        tags=TAG,
        responses={200: WindowOutput, **REFUSED},
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(WindowOutput(_window(request, self.tournament(slug))).data)


class CheckInWindowOpenApi(DirectorApi):
    @extend_schema(
        operation_id="check_in_window_open",
        summary="Open self check-in for some minutes (or move its end)",
        tags=TAG,
        request=WindowInput,
        responses={200: WindowOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        minutes = _valid(WindowInput, request.data)["minutes"]
        tournament = check_in.check_in_window_open(
            tournament=self.tournament(slug), by=request.user, minutes=minutes
        )
        return Response(WindowOutput(_window(request, tournament)).data)


class CheckInWindowCloseApi(DirectorApi):
    @extend_schema(
        operation_id="check_in_window_close",
        summary="Close self check-in (players checked in stay so)",
        tags=TAG,
        request=None,
        responses={200: WindowOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        _valid(NoInput, request.data)
        tournament = check_in.check_in_window_close(
            tournament=self.tournament(slug), by=request.user
        )
        return Response(WindowOutput(_window(request, tournament)).data)
