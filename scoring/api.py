"""The rules API: check a meld, a contract or a whole game's entry against the rules engine.

Open to anyone and writes nothing, so that directors, scorekeepers' tools and other sites can
settle a disputed meld or score. Each endpoint parses its input, calls the engine, renders.
"""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import serializers as s
from scoring.rules import PRESETS, check_contract, check_meld, evaluate


class RulesView(APIView):
    """No authentication, so no CSRF token is needed: these endpoints read and compute only."""

    authentication_classes: list = []
    permission_classes = [AllowAny]


class MeldCheckApi(RulesView):
    @extend_schema(
        operation_id="rules_meld",
        summary="Is this a valid three or four? (R3)",
        request=s.MeldInput,
        responses={200: s.MeldOutput, 400: s.ErrorsOutput},
        examples=[
            OpenApiExample("A four with jokers", value={"cards": "5H JK 7H JK", "kind": "four"})
        ],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.MeldInput, request)
        meld = check_meld(
            data["cards"], PRESETS[data["ruleset"]], data.get("kind"), as_laid=data["as_laid"]
        )
        return Response(meld.to_dict())


class ContractCheckApi(RulesView):
    @extend_schema(
        operation_id="rules_contract",
        summary="Do these groups satisfy the game's contract? (R4, R5)",
        request=s.ContractInput,
        responses={200: s.ContractOutput, 400: s.ErrorsOutput},
        examples=[
            OpenApiExample(
                "Game 3: one three, two fours",
                value={"game": 3, "groups": ["5H 5C 5D", "3C 4C 5C 6C", "8D 9D 10D JD"]},
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.ContractInput, request)
        contract = check_contract(data["game"], data["groups"], PRESETS[data["ruleset"]])
        return Response(contract.to_dict())


class GameCheckApi(RulesView):
    @extend_schema(
        operation_id="rules_game",
        summary="Check (R10) and score (R8, R9) one game's entry",
        request=s.GameInput,
        responses={200: s.GameOutput, 400: s.ErrorsOutput},
        examples=[
            OpenApiExample(
                "Game 3",
                value={
                    "game": 3,
                    "hands": [
                        {"player": "Ann", "went_out": True, "cards": ""},
                        {"player": "Ben", "cards": "JK AS 2C", "calls": 2},
                        {"player": "Cy", "points": 44},
                    ],
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = s.GameInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        check, score = evaluate(
            serializer.to_entry(), PRESETS[serializer.validated_data["ruleset"]]
        )
        warnings = [problem.to_dict() for problem in check.warnings]
        if score is None:
            errors = [problem.to_dict() for problem in check.errors]
            return Response({"errors": errors, "warnings": warnings}, status.HTTP_400_BAD_REQUEST)
        return Response({"scores": score.to_dict()["scores"], "warnings": warnings})


def _valid(serializer_class: type[s.serializers.Serializer], request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
