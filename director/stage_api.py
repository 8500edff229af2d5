"""The director's API for stages (`tournament.stages`): the plan of qualifying rounds and cuts,
and making a cut, which adds the stage's first round and seats it.

A plan a game cannot play is refused with the reason (400); a stage already begun, or a cut made
too early or twice, is a conflict with the tournament's state (409). Nothing is changed then.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import Input
from director.round_api import REFUSED, DirectorApi, _input, _round_detail
from scoring import serializers as s
from scoring.stages import stage_cut
from tournament.stage_services import StagePlan, stages_set
from tournament.stages import Stage, stage_bounds
from tournament.stages import entrants_of as stage_entrants

NOT_ALLOWED = {403: s.ErrorsOutput, 404: s.ErrorsOutput}


class StagePlanInput(Input):
    kind = serializers.ChoiceField(choices=Stage.Kind.values)
    rounds = serializers.IntegerField(min_value=1, max_value=50)
    size = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=10_000,
        help_text="How many make the cut; leave out for the qualifying stage.",
    )  # fmt: skip
    scoring = serializers.ChoiceField(choices=Stage.Scoring.values, default=Stage.Scoring.FRESH)
    carry_percent = serializers.IntegerField(min_value=1, max_value=100, default=100)
    seats = serializers.ChoiceField(choices=Stage.Seats.values, default=Stage.Seats.DRAWN)


class StagesInput(Input):
    stages = StagePlanInput(many=True, max_length=10, help_text="Qualifying first; [] for none.")


class CutInput(Input):
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1,
        help_text="The seed of the draw for seats drawn; the same seed, the same seats.",
    )  # fmt: skip
    decided = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text="Entries level at the cut line after every tie-break, in the order the "
        "director decided (a play-off table): needed only for such a tie.",
    )


class StageOutput(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    name = serializers.CharField()
    rounds = serializers.IntegerField(help_text="How many rounds it plays.")
    first_round = serializers.IntegerField()
    size = serializers.IntegerField(allow_null=True)
    scoring = serializers.CharField()
    carry_percent = serializers.IntegerField()
    scoring_words = serializers.CharField()
    seats = serializers.CharField()
    seats_words = serializers.CharField()
    cut_at = serializers.DateTimeField(allow_null=True)
    entrants = serializers.ListField(
        child=serializers.IntegerField(), help_text="Entry ids that made its cut, by seed."
    )


def stage_lines(stages: list[Stage]) -> list[dict]:
    bounds = stage_bounds(stages)
    return [
        {
            "number": stage.number,
            "kind": stage.kind,
            "name": stage.name,
            "rounds": stage.rounds,
            "first_round": bounds[stage.number].start,
            "size": stage.size,
            "scoring": stage.scoring,
            "carry_percent": stage.carry_percent,
            "scoring_words": stage.scoring_words(),
            "seats": stage.seats,
            "seats_words": stage.seats_words(),
            "cut_at": stage.cut_at,
            "entrants": stage_entrants(stage),
        }
        for stage in stages
    ]


EXAMPLE = {
    "stages": [
        {"kind": "qualifying", "rounds": 3},
        {"kind": "final", "rounds": 1, "size": 5, "scoring": "fresh", "seats": "drawn"},
    ]
}


class StagesApi(DirectorApi):
    @extend_schema(
        operation_id="stages_list",
        summary="The tournament's stages: qualifying, then each cut, with their settings in words",
        responses={200: StageOutput(many=True), **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str) -> Response:
        stages = list(self.tournament().stages.order_by("number"))
        return Response(StageOutput(stage_lines(stages), many=True).data)

    @extend_schema(
        operation_id="stages_set",
        summary="Plan the stages: qualifying rounds, then a final table or semi-finals (R12.2)",
        description="Replaces the plan, and the number of rounds planned with it. Refused with "
        "the reason, nothing changed: a cut larger than the field or the stage before, a final "
        "table of a size the game does not allow, semi-finals that do not fill two tables (400); "
        "a change to a stage whose first round is published or whose cut is made (409).",
        request=StagesInput,
        responses={200: StageOutput(many=True), **REFUSED},
        examples=[OpenApiExample("Three rounds, then a final table of five", value=EXAMPLE)],
    )
    def put(self, request: Request, slug: str) -> Response:
        data = _input(StagesInput, request)
        plan = [StagePlan(**stage) for stage in data["stages"]]
        stages = stages_set(tournament=self.tournament(), plan=plan, by=request.user)
        return Response(StageOutput(stage_lines(stages), many=True).data)


class StageCutApi(DirectorApi):
    @extend_schema(
        operation_id="stages_cut",
        summary="Make a stage's cut: the best of the stage before go through (R12.3)",
        description="Adds the stage's first round and seats it: drawn, or by standing. Refused "
        "while the stage before is not complete, a second time (409), or while entries are "
        "level across the line and `decided` does not give their order (400).",
        request=CutInput,
        responses={201: s.RoundDetailOutput, **REFUSED},
        examples=[OpenApiExample("Seats drawn with seed 7", value={"seed": 7})],
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _input(CutInput, request)
        stage = get_object_or_404(Stage, tournament=self.tournament(), number=number)
        round = stage_cut(
            stage=stage, by=request.user, seed=data.get("seed"), decided=data.get("decided", ())
        )
        return Response(_round_detail(round), status=status.HTTP_201_CREATED)
