"""The standings API and the CSV exports of a published tournament: open to anyone, no sign-in.

`GET /api/tournaments/{slug}/standings` is the snapshot the leaderboard shows (R12.3), as JSON,
with its version as the ETag: a client that sends it back in If-None-Match gets a 304 with no
body, decided from the cache alone. `results.csv` is the standings as a spreadsheet;
`games.csv` is every hand of every game (and every void attempt, R9.2), streamed row by row so
that a big tournament's export never sits whole in memory.
"""

import csv
from collections.abc import Iterable, Iterator
from heapq import merge
from typing import Any

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_safe
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hall.views import Validators, tournament_for_public
from scoring.models import Game, HandResult
from scoring.serializers import ErrorsOutput
from scoring.standings import standings_current

# --- the standings API -------------------------------------------------------------------------


class PlayerStandingOutput(serializers.Serializer):
    entry = serializers.IntegerField(help_text="The player's entry id in this tournament.")
    player = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(
        choices=["registered", "checked_in", "withdrawn", "disqualified"]
    )
    rounds = serializers.DictField(
        child=serializers.IntegerField(),
        help_text='Points per round, rulings included, by round number: {"1": 120, "2": 95}.',
    )
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField(help_text="Games the player went out in (R8.1).")
    down_and_outs = serializers.IntegerField(help_text="Games won down and out (R8.3).")
    ruling_points = serializers.IntegerField(help_text="Points from rulings (R12.4).")
    last_game = serializers.IntegerField(
        allow_null=True, help_text="The score of the player's latest game."
    )
    place = serializers.IntegerField(
        allow_null=True, help_text="Null: no game played yet, or disqualified."
    )
    shared = serializers.BooleanField(help_text="Level on every tie-break with another (R12.3).")
    movement = serializers.IntegerField(
        allow_null=True,
        help_text="Places gained (negative: lost) since the previous round; null in round 1.",
    )
    total = serializers.IntegerField(help_text="Lower is better (R12.3).")
    ranked_total = serializers.IntegerField(
        default=None,
        allow_null=True,
        help_text="The total the place is decided by: while a round is being played (live), "
        "the completed rounds' only, so that a table behind schedule ranks fairly; else the total.",
    )
    live_points = serializers.IntegerField(default=0, help_text="Points in the live round(s).")
    live_games = serializers.IntegerField(default=0, help_text="Games played in the live round(s).")


class SeatTotalOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    total = serializers.IntegerField()


class TableStandingOutput(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    games_played = serializers.IntegerField()
    seats = SeatTotalOutput(many=True)


class StandingsOutput(serializers.Serializer):
    tournament = serializers.SlugField()
    version = serializers.IntegerField(help_text="Goes up with every change; also the ETag.")
    computed_at = serializers.DateTimeField()
    latest_round = serializers.IntegerField(allow_null=True)
    live_rounds = serializers.ListField(
        child=serializers.IntegerField(),
        default=list,
        help_text="Rounds in play with a set unfinished: they do not decide the places yet.",
    )
    tie_breaks = serializers.ListField(
        child=serializers.CharField(), help_text="The ruleset's tie-breaks, in order (R12.3)."
    )
    players = PlayerStandingOutput(many=True, help_text="Placed players first, by place.")
    tables = TableStandingOutput(many=True)


ETAG_PATTERN = r'^(W/)?"[0-9]+\.[0-9]+"$'  # the tournament's id, then the snapshot's version


class StandingsApi(APIView):
    """Open to anyone for a published tournament: no authentication, so no CSRF token."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="tournament_standings",
        summary="The tournament's standings (R12.3), as the leaderboard shows them",
        description=(
            "The newest standings snapshot. Send its ETag back in `If-None-Match` to get a 304 "
            "with no body while nothing changed. A tournament that is not published is a 404."
        ),
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description='The ETag of the standings you hold, e.g. `W/"12.34"`.',
                pattern=ETAG_PATTERN,
            )
        ],
        responses={
            200: StandingsOutput,
            304: OpenApiResponse(description="Not modified: your version is the newest."),
            404: ErrorsOutput,
        },
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = tournament_for_public(request, slug)
        standings = standings_current(tournament=tournament.as_model())
        validators = Validators.of(tournament, standings)
        unchanged = validators.not_modified(request)
        if unchanged is not None:
            return unchanged
        return validators.stamp(Response(standings))


# --- CSV exports -------------------------------------------------------------------------------


class _Line:
    """A file-like object whose write() hands the CSV line back instead of storing it."""

    def write(self, line: str) -> str:
        return line


def _csv_response(name: str, rows: Iterable[list[Any]]) -> StreamingHttpResponse:
    writer = csv.writer(_Line())
    response = StreamingHttpResponse(
        (writer.writerow(row) for row in rows), content_type="text/csv; charset=utf-8"
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _text(value: str) -> str:
    """A name as a spreadsheet cell: never read as a formula (a name typed as '=1+1')."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


RESULTS_HEADER = [
    "place", "shared", "player", "club", "status", "games", "won", "down_and_outs",
    "rulings", "total",
]  # fmt: skip


@require_safe
def results_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """The standings as a spreadsheet (R12.3): one line per player, in leaderboard order."""
    tournament = tournament_for_public(request, slug)
    standings = standings_current(tournament=tournament.as_model())
    return _csv_response(f"{tournament.slug}-results.csv", _result_lines(standings))


def _result_lines(standings: dict[str, Any]) -> Iterator[list[Any]]:
    players = standings["players"]
    rounds = sorted({int(number) for row in players for number in row["rounds"]})
    yield RESULTS_HEADER + [f"round_{number}" for number in rounds]
    for row in players:
        yield [
            "" if row["place"] is None else row["place"],
            _yes(row["shared"]),
            _text(row["player"]),
            _text(row["club"]),
            row["status"],
            row["games_played"],
            row["games_won"],
            row["down_and_outs"],
            row["ruling_points"],
            row["total"],
            *(row["rounds"].get(str(number), "") for number in rounds),
        ]


GAMES_HEADER = [
    "round", "table", "game", "attempt", "void", "down_and_out", "player", "club", "went_out",
    "cards", "card_points", "doubled", "calls", "failed_come_downs", "overcall",
    "penalty_points", "total", "version", "status",
]  # fmt: skip
GAME_COLUMNS = (
    "game__table__round__number", "game__table__number", "game__number", "game__attempt",
    "game__is_void", "game__down_and_out", "entry__player__name", "entry__player__club",
    "went_out", "cards", "card_points", "doubled", "calls", "failed_come_downs",
    "overcall_penalty", "penalty_points", "total", "game__version", "game__status",
)  # fmt: skip
ORDER = ("table__round__number", "table__number", "number", "attempt")


@require_safe
def games_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """Every hand of every game at every table, in play order, and each void attempt (R9.2) as
    one line without a player; streamed from the database (2 queries)."""
    tournament = tournament_for_public(request, slug)
    lines = merge(_hand_lines(tournament.id), _void_lines(tournament.id), key=lambda line: line[:4])
    return _csv_response(f"{tournament.slug}-games.csv", _with_header(lines))


def _with_header(lines: Iterable[list[Any]]) -> Iterator[list[Any]]:
    yield GAMES_HEADER
    yield from lines


def _hand_lines(tournament_id: int) -> Iterator[list[Any]]:
    hands = (
        HandResult.objects.filter(game__table__round__tournament_id=tournament_id)
        .order_by(*(f"game__{field}" for field in ORDER), "id")
        .values_list(*GAME_COLUMNS)
    )
    for hand in hands.iterator(chunk_size=2000):
        line = dict(zip(GAMES_HEADER, hand, strict=True))
        for flag in ("void", "down_and_out", "went_out", "doubled", "overcall"):
            line[flag] = _yes(line[flag])
        line["player"], line["club"] = _text(line["player"]), _text(line["club"])
        line["calls"] = "" if line["calls"] is None else line["calls"]
        yield list(line.values())


def _void_lines(tournament_id: int) -> Iterator[list[Any]]:
    """A void attempt stores no hands (R9.2: it scores nothing): one line says it happened."""
    games = (
        Game.objects.filter(table__round__tournament_id=tournament_id, is_void=True)
        .order_by(*ORDER)
        .values_list(*ORDER, "version", "status")
    )
    for round, table, game, attempt, version, status in games.iterator():
        yield [round, table, game, attempt, "yes", "no", *[""] * 11, version, status]
