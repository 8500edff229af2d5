"""The director's API for re-seating a table found in the wrong seats (`scoring.reseat`): the
seats as they should be, and for each deal already played, keep it or replay it (R12.4)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import Input
from director.round_api import REFUSED, DirectorApi, _input
from scoring import serializers as s
from scoring.reseat import FATES, table_reseat
from scoring.selectors import ruling_get
from tables.models import MAX_SEATS, Table


class ReseatInput(Input):
    seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=2,
        max_length=MAX_SEATS,
        help_text="The table's players (entry ids) as they should sit, seat 1 first.",
    )
    games = serializers.DictField(
        child=serializers.ChoiceField(choices=FATES),
        help_text='Each deal played, by its number: "keep" (the seats swapped in its record) or '
        '"replay" (a void attempt, dealt again).',
    )
    decision = serializers.CharField(max_length=2000, help_text="What was decided.")
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")

    def validate_games(self, games: dict) -> dict[int, str]:
        try:
            numbers = {int(number): fate for number, fate in games.items()}
        except ValueError as error:
            raise serializers.ValidationError("Name each deal by its number: 1, 2, ...") from error
        if any(number < 1 or number > 1000 for number in numbers):
            raise serializers.ValidationError("A deal's number is from 1.")
        return numbers


class TableReseatApi(DirectorApi):
    @extend_schema(
        operation_id="tables_reseat",
        summary="Re-seat a table found in the wrong seats; keep or replay each deal played (R12.4)",
        description="Recorded as a seating-change ruling, with the seats before and after and "
        "each deal's fate in the audit log. A kept deal's results follow the seats (a new "
        "version of it says why); a replayed deal becomes a void attempt and is dealt again. "
        "Refused, nothing changed: players who are not the table's, a deal played without a "
        "fate, a round not published or in play.",
        request=ReseatInput,
        responses={201: s.RulingOutput, **REFUSED},
        examples=[
            OpenApiExample(
                "Seats 1 and 2 swapped; game 1 kept, game 2 replayed",
                value={
                    "seats": [12, 11, 13, 14, 15],
                    "games": {"1": "keep", "2": "replay"},
                    "decision": "Ann and Ben swap back; game 2 is replayed.",
                },
            )
        ],
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        round = self.round()
        data = _input(ReseatInput, request)
        found = get_object_or_404(Table, round=round, number=table)
        ruling = table_reseat(table=found, by=request.user, **data)
        return Response(s.RulingOutput(ruling_get(ruling=ruling)).data, status.HTTP_201_CREATED)
