"""The rules API and the games: checks anyone may run, and what each game's rulesets allow.

``POST /api/rules/meld|contract|tack-on`` run Kalooki's dispute tools (``Rules.check``) and
``POST /api/rules/game`` checks and scores one game's entry (``Rules.evaluate``), each under the
ruleset the request asks for (ASAJ 2025 without one). ``GET /api/games`` lists the games with
their presets and settings. Open to anyone, no login and so no CSRF token; nothing is written.

An answer the rules give is a 200 (``valid`` true or false, with its errors); a request the rules
cannot read is a 400 in the API's one error shape, naming the field at fault: a wrong type, an
unreadable card (R11), a game the set does not have (R4), a ruleset that cannot be played.
"""

from typing import Any

from django.http import QueryDict
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

import games
from director import rules_serializers as s
from games.base import DealEntry, Evaluation, Problem, Rules, RulesError, RulesetInvalid, SideEntry
from scoring.phrases import problem_message, translated_answer

GAME = "kalooki"  # the game whose dispute tools these are
TAGS = ["rules"]


class RulesRefused(Exception):
    """A request the rules cannot read: each problem names its field."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__(problems[0]["message"] if problems else "")
        self.problems = problems


def problem_out(problem: Problem, field: str | None = None) -> dict[str, Any]:
    data = problem.to_dict() | {"message": problem_message(problem)}
    data["rule"] = problem.rule or None
    if field or problem.field:
        data["field"] = field or problem.field
    return data


def rules_for(request: Any) -> Rules[Any]:
    """Kalooki under the ruleset a request asks for; ASAJ 2025 when it asks for none."""
    game = games.get(GAME)
    try:
        return game.rules(game.ruleset(request))
    except RulesetInvalid as invalid:
        raise RulesRefused([_setting(problem) for problem in invalid.problems]) from None


def _setting(problem: Problem) -> dict[str, Any]:
    return problem_out(problem, f"ruleset.{problem.field}" if problem.field else "ruleset")


class RulesView(APIView):
    """No authentication, so no CSRF token is needed: these endpoints read and compute only."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, RulesRefused):
            return Response({"errors": exc.problems}, status.HTTP_400_BAD_REQUEST)
        return super().handle_exception(exc)

    def valid(self, serializer_class: type[Serializer]) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class ToolApi(RulesView):
    """One dispute tool: the request less the ruleset, answered by the game; an error naming a
    field is the request's fault (400). A JSON body goes to the tool as sent, so that it is read
    strictly (a number for a card, an unknown field: refused); a form's text, as read here."""

    tool: str
    input: type[Serializer]

    def answer(self) -> Response:
        data = self.valid(self.input)
        rules = rules_for(data.get("ruleset"))
        sent = data if isinstance(self.request.data, QueryDict) else self.request.data
        asked = {key: value for key, value in sent.items() if key != "ruleset"}
        answer = translated_answer(rules.check(self.tool, asked)).to_dict()
        refused = [error for error in answer["errors"] if "field" in error]
        if refused:
            raise RulesRefused([{**error, "rule": error["rule"] or None} for error in refused])
        return Response(answer)


RESPONSES = {400: s.RuleErrorsOutput}


class MeldCheckApi(ToolApi):
    tool, input = "meld", s.MeldCheckInput

    @extend_schema(
        operation_id="rules_meld",
        summary="Is this a valid three or four? (R3, R1.2)",
        tags=TAGS,
        request=s.MeldCheckInput,
        responses={200: s.MeldCheckOutput, **RESPONSES},
        examples=[
            OpenApiExample(
                "Jokers side by side",
                value={
                    "valid": False,
                    "errors": [
                        {
                            "rule": "R3.5",
                            "message": "a four may not have two jokers side by side (R3.5)",
                            "player": None,
                        }
                    ],
                    "kind": "four",
                    "arrangement": ["5H", "JK", "JK", "8H"],
                },
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return self.answer()


class ContractCheckApi(ToolApi):
    tool, input = "contract", s.ContractCheckInput

    @extend_schema(
        operation_id="rules_contract",
        summary="Do these melds satisfy the game's contract? (R4, R5, R1.2)",
        tags=TAGS,
        request=s.ContractCheckInput,
        responses={200: s.ContractCheckOutput, **RESPONSES},
        examples=[
            OpenApiExample(
                "Game 3 met",
                value={
                    "valid": True,
                    "errors": [],
                    "game": 3,
                    "contract": "one three and two fours",
                    "melds": [
                        {"valid": True, "kind": "three", "arrangement": ["5H", "5C", "5D"]},
                        {"valid": True, "kind": "four", "arrangement": ["3C", "4C", "5C", "6C"]},
                        {"valid": True, "kind": "four", "arrangement": ["8D", "9D", "10D", "JD"]},
                    ],
                },
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return self.answer()


class TackOnCheckApi(ToolApi):
    tool, input = "tack-on", s.TackOnCheckInput

    @extend_schema(
        operation_id="rules_tack_on",
        summary="May this card go onto this meld, or take a joker's place? (R7)",
        description='A card onto a meld: {"card": "7H", "meld": "4H 5H 6H", "kind": "four", '
        '"end": "high"}. The joker move of R7.3: {"card": "6H", "meld": "4H 5H JK 7H", '
        '"replaces_joker": true}; under the joker exchange (R13.6) add "own_meld": true '
        "for one's own four (the joker goes into the hand) or an \"end\" for another's.",
        tags=TAGS,
        request=s.TackOnCheckInput,
        responses={200: s.TackOnCheckOutput, **RESPONSES},
        examples=[
            OpenApiExample(
                "Onto the high end",
                value={
                    "valid": True,
                    "errors": [],
                    "kind": "four",
                    "end": "high",
                    "meld_after": ["4H", "5H", "6H", "7H"],
                },
                response_only=True,
                status_codes=["200"],
            ),
            OpenApiExample(
                "A dead joker",
                value={
                    "valid": False,
                    "errors": [
                        {
                            "rule": "R7.3",
                            "message": "the joker cannot move: the four already ends in an "
                            "ace (R7.3)",
                            "player": None,
                        }
                    ],
                    "meld_after": [],
                    "joker_from": None,
                    "joker_to": None,
                    "to_hand": False,
                },
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return self.answer()


class GameCheckApi(RulesView):
    @extend_schema(
        operation_id="rules_game",
        summary="Check (R10) and score (R8, R9) one game's entry",
        tags=TAGS,
        request=s.GameCheckInput,
        responses={200: s.GameCheckOutput, 400: s.RuleErrorsOutput},
        examples=[
            OpenApiExample(
                "Game 3 scored",
                value={
                    "valid": True,
                    "scores": [
                        {
                            "player": "Ann",
                            "went_out": True,
                            "card_points": 0,
                            "doubled": False,
                            "doubled_points": 0,
                            "penalties": 0,
                            "total": 0,
                            "reasons": ["went out (R8.1)"],
                        },
                        {
                            "player": "Ben",
                            "went_out": False,
                            "card_points": 67,
                            "doubled": False,
                            "doubled_points": 67,
                            "penalties": 0,
                            "total": 67,
                            "reasons": ["JK AS 2C: 67 points (R2)"],
                        },
                    ],
                    "warnings": [],
                },
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.valid(s.GameCheckInput)
        rules = rules_for(data.get("ruleset"))
        _check_game_number(rules, data["game"])
        evaluation = rules.evaluate(deal_entry(data))
        return _game_answer(evaluation)


def _check_game_number(rules: Rules[Any], number: int) -> None:
    try:
        rules.deal(number)
    except RulesError as error:
        raise RulesRefused([problem_out(error.problem, "game")]) from None


SIDE_VALUES = ("went_out", "cards", "points", "calls", "failed_come_downs", "overcall_penalty")


def deal_entry(data: dict[str, Any]) -> DealEntry:
    """The game check's body as the protocol's entry: one side a hand, values as sent."""
    sides = tuple(
        SideEntry(label=hand["player"], values=_side_values(hand)) for hand in data["hands"]
    )
    values = {"down_and_out": data["down_and_out"], "void": data["void"]}
    return DealEntry(data["game"], sides, values)


def _side_values(hand: dict[str, Any]) -> dict[str, Any]:
    values = {name: hand[name] for name in SIDE_VALUES if hand.get(name) is not None}
    if hand.get("challenge"):
        values["challenge"] = hand["challenge"]
    return values


def _game_answer(evaluation: Evaluation) -> Response:
    warnings = [problem_out(problem) for problem in evaluation.warnings]
    if evaluation.score is None:
        errors = [problem_out(problem) for problem in evaluation.errors]
        return Response({"errors": errors, "warnings": warnings}, status.HTTP_400_BAD_REQUEST)
    labels = [side.label for side in evaluation.entry.sides]
    scores = [
        _score(label, side) for label, side in zip(labels, evaluation.score.sides, strict=True)
    ]
    return Response({"valid": True, "scores": scores, "warnings": warnings})


def _score(player: str, side: Any) -> dict[str, Any]:
    detail = dict(side.detail)
    return {
        "player": player,
        "went_out": side.went_out,
        **{key: detail[key] for key in ("card_points", "doubled", "doubled_points", "penalties")},
        "total": side.points,
        "reasons": list(side.reasons),
    }


class GameListApi(RulesView):
    @extend_schema(
        operation_id="games_list",
        summary="The games, each with its presets and the settings a ruleset may change",
        tags=TAGS,
        responses={200: s.GameDescriptionOutput(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response([game.to_dict() for game in games.all_games()])
