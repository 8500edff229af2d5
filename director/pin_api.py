"""The director's API for pinned seats: a player who cannot move keeps a chosen table (and
perhaps a seat) all event; the seating works around them (`tables.services.pin_seat`).

Each endpoint parses its input, calls one service or selector, renders; a refusal comes back in
the shared error shape (400) with nothing changed.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import Input, NoInput
from director.round_api import NOT_ALLOWED, DirectorApi, _input
from scoring import serializers as s
from tables.models import MAX_SEATS
from tables.selectors import pin_lines
from tables.services import pin_remove, pin_seat
from tournament.models import Entry

REFUSED = {400: s.ErrorsOutput, **NOT_ALLOWED}


class PinInput(Input):
    entry = s.EntryField(help_text="The player's entry id.")
    table = serializers.IntegerField(min_value=1, max_value=999, help_text="The table, from 1.")
    seat = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_SEATS,
        help_text="The seat, clockwise from 1; leave out for any seat at the table.",
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="Why: a wheelchair space."
    )


class PinOutput(serializers.Serializer):
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="name")
    table = serializers.IntegerField()
    seat = serializers.IntegerField(source="position", allow_null=True)
    reason = serializers.CharField()
    place = serializers.CharField(help_text='In words: "table 3, seat 1".')


class PinListApi(DirectorApi):
    @extend_schema(
        operation_id="pins_list",
        summary="The tournament's pinned seats, by table",
        responses={200: PinOutput(many=True), **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(PinOutput(pin_lines(self.tournament()), many=True).data)

    @extend_schema(
        operation_id="pins_set",
        summary="Pin a player to a table (and a seat) from the next seating on (R12.2)",
        description="Refused with the reason, nothing changed: a table or seat that does not "
        "exist for the players entered, a seat pinned to another player, or more players "
        "pinned to a table than it seats. Pinning a pinned player again moves the pin.",
        request=PinInput,
        responses={201: PinOutput(many=True), **REFUSED},
        examples=[
            OpenApiExample(
                "A wheelchair space",
                value={"entry": 12, "table": 1, "seat": 1, "reason": "Wheelchair space"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament()
        data = _input(PinInput, request, tournament=tournament)
        pin_seat(
            tournament=tournament,
            entry=data["entry"],
            table=data["table"],
            position=data.get("seat"),
            reason=data.get("reason", ""),
            by=request.user,
        )
        lines = PinOutput(pin_lines(tournament), many=True).data
        return Response(lines, status=status.HTTP_201_CREATED)


class PinDetailApi(DirectorApi):
    @extend_schema(
        operation_id="pins_remove",
        summary="Let a pinned player move again from the next seating on",
        request=None,
        responses={204: None, **REFUSED},
    )
    def delete(self, request: Request, slug: str, entry_id: int) -> Response:
        _input(NoInput, request)
        tournament = self.tournament()
        entry = get_object_or_404(
            Entry.objects.select_related("player"), tournament=tournament, pk=entry_id
        )
        pin_remove(tournament=tournament, entry=entry, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
