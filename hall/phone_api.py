"""A player's own page as JSON: `GET /api/me/{token}`, for the phone's own app or a script.

The token (`tournament.check_in.my_page_token`) is the credential, as the table's link is the
scorekeeper's: whoever holds it reads what the player's page shows, which is what the public
pages show of them. An unknown token is a 404. The ETag is a digest of the figures: sent back
in If-None-Match it gets a 304 while nothing changed.
"""

from typing import Any

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hall.phone import MyPage, my_page_get
from hall.selectors import digest
from scoring.serializers import ErrorsOutput
from tournament.check_in import entry_id_of_token


class MateOutput(serializers.Serializer):
    position = serializers.IntegerField(help_text="Seat number, clockwise from 1.")
    name = serializers.CharField()
    first_dealer = serializers.BooleanField()
    is_me = serializers.BooleanField()


class MySeatOutput(serializers.Serializer):
    round = serializers.IntegerField()
    round_status = serializers.CharField(help_text="published, in_play, complete or locked.")
    table = serializers.IntegerField(allow_null=True, help_text="null: a bye this round.")
    position = serializers.IntegerField(allow_null=True, help_text="The seat; null: a bye.")
    first_dealer = serializers.BooleanField()
    mates = MateOutput(many=True, help_text="Everyone at the table, seat by seat.")


class MyStandingOutput(serializers.Serializer):
    place = serializers.CharField(help_text='"=3" when shared (R12.3), "—" when not placed.')
    total = serializers.IntegerField()
    games_played = serializers.IntegerField()
    round_points = serializers.IntegerField()
    round_games = serializers.IntegerField()


class MyClockOutput(serializers.Serializer):
    state = serializers.CharField()
    left_seconds = serializers.IntegerField()


class MyPageOutput(serializers.Serializer):
    tournament = serializers.CharField(source="tournament.name")
    slug = serializers.CharField(source="tournament.slug")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    seats = MySeatOutput(
        many=True, help_text="The rounds being played, oldest first (else the latest)."
    )
    standing = MyStandingOutput(allow_null=True)
    clock = MyClockOutput(allow_null=True, help_text="The round's clock while it runs.")


class MyPageApi(APIView):
    """Open to whoever holds the token: no authentication, so no CSRF token."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="my_page",
        summary="A player's own page: seats, table-mates, clock, place",
        tags=["public"],
        responses={
            200: MyPageOutput,
            304: OpenApiResponse(description="Not modified: your version is the newest."),
            404: ErrorsOutput,
        },
    )
    def get(self, request: Request, token: str) -> HttpResponse:
        page = _page(token)
        etag = digest(*page.figures())
        if get_conditional_response(request, etag=etag) is not None:
            response: HttpResponse = HttpResponseNotModified()
        else:
            response = Response(MyPageOutput(_plain(page)).data)
        response.headers["ETag"] = etag
        patch_cache_control(response, no_cache=True, private=True)
        return response


def _page(token: str) -> MyPage:
    entry_id = entry_id_of_token(token)
    page = my_page_get(entry_id=entry_id) if entry_id is not None else None
    if page is None:
        raise Http404(gettext("No player has this page: scan the QR code on your seat card again."))
    return page


def _plain(page: MyPage) -> dict[str, Any]:
    return {
        "tournament": page.tournament,
        "entry": page.entry,
        "name": page.name,
        "status": page.status,
        "seats": page.seats,
        "standing": page.standing,
        "clock": page.clock,
    }
