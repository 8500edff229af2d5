"""The standings API and the CSV exports of a published tournament: open to anyone, no sign-in.

`GET /api/tournaments/{slug}/standings` is the snapshot the leaderboard shows (R12.3), as JSON,
with its version as the ETag: a client that sends it back in If-None-Match gets a 304 with no
body, decided from the cache alone; its `columns` and each player's `stats` are the game's.
`results.csv` is the standings as a spreadsheet, a column per stat of the game; `games.csv` is
every side's result of every deal (and every void attempt, R9.2), a column per field of the game
and per part of its breakdown, streamed row by row so that a big tournament's export never sits
whole in memory.
"""

import csv
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
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
from rest_framework.views import APIView

from games.base import Rules, Scope
from hall.responses import Validators, drawn_once, tournament_for_public
from hall.selectors import standings_public, standings_version, version_stamp
from scoring.matches import deal_noun
from scoring.models import Deal, DealResult
from scoring.serializers import ErrorsOutput
from scoring.standings import standings_current
from tournament.models import entry_name
from tournament.stages import Stage

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
    games_played = serializers.IntegerField(help_text="Deals played (Kalooki: games).")
    byes = serializers.ListField(
        child=serializers.IntegerField(),
        default=list,
        help_text="The rounds the player sat out (a bye), scored by the tournament's bye rule "
        "(Parcellus PA7.2, Hand and Foot HF11.1) in `stats` and `total`.",
    )
    stats = serializers.DictField(
        child=serializers.IntegerField(),
        default=dict,
        help_text="The game's stats as counted (see `total`), by the names of `columns` "
        "(Kalooki: total, games_won, down_and_outs, latest_round_score, wins); a match's win "
        "counts once the match is over.",
    )
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
    total = serializers.IntegerField(
        help_text="The total the place is decided by, the one every page shows (Kalooki: lower "
        "is better, R12.3): every completed round, and a live round up to the deal every "
        "table has played (`counted_up_to`)."
    )
    ranked_total = serializers.IntegerField(
        default=None, allow_null=True, help_text="The same as `total`."
    )
    live_points = serializers.IntegerField(
        default=0, help_text="Points in the live round(s), every deal played."
    )
    live_games = serializers.IntegerField(default=0, help_text="Games played in the live round(s).")
    stage = serializers.IntegerField(
        required=False,
        help_text="Once a cut is made: the furthest stage the player reached (1: qualifying). "
        "The final standings list the furthest stage's players first.",
    )


class ColumnOutput(serializers.Serializer):
    stat = serializers.CharField()
    label = serializers.CharField()
    higher_is_better = serializers.BooleanField()
    help = serializers.CharField(allow_blank=True)


class SeatTotalOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    total = serializers.IntegerField()


class TableStandingOutput(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    games_played = serializers.IntegerField()
    seats = SeatTotalOutput(many=True)


class StandingsStageOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="1: the qualifying stage; then each cut.")
    kind = serializers.ChoiceField(choices=Stage.Kind.values)
    name = serializers.CharField(help_text='"Qualifying", "Semi-finals", "Final table".')
    rounds = serializers.ListField(
        child=serializers.IntegerField(), help_text="Its first and last round numbers."
    )
    size = serializers.IntegerField(allow_null=True, help_text="How many make its cut.")
    scoring = serializers.ChoiceField(choices=["fresh", "carry_all", "carry_share"])
    carry_percent = serializers.IntegerField()
    scoring_words = serializers.CharField(help_text="How the stage is scored, in words.")
    seats = serializers.ChoiceField(choices=["standing", "drawn"])
    seats_words = serializers.CharField()
    cut = serializers.BooleanField(help_text="Whether its cut is made (always, for qualifying).")
    seeds = serializers.DictField(
        child=serializers.IntegerField(), help_text="Entry id to seed: its place at the cut."
    )
    order = serializers.ListField(
        child=serializers.IntegerField(), help_text="Its entries in its own standings, best first."
    )


class StandingsOutput(serializers.Serializer):
    tournament = serializers.SlugField()
    version = serializers.IntegerField(help_text="Goes up with every change; also the ETag.")
    computed_at = serializers.DateTimeField()
    latest_round = serializers.IntegerField(allow_null=True)
    live_rounds = serializers.ListField(
        child=serializers.IntegerField(),
        default=list,
        help_text="Rounds in play with a set unfinished: they count up to `counted_up_to`.",
    )
    counted_up_to = serializers.DictField(
        child=serializers.IntegerField(),
        default=dict,
        help_text='Each live round\'s counted deals, by round number: {"2": 3} counts round 2 up '
        "to deal 3, which every table still playing has completed.",
    )
    counted_words = serializers.CharField(
        default="", allow_blank=True, help_text="What the places count, in words; empty when all."
    )
    game = serializers.CharField(default="kalooki", help_text="The game played.")
    higher_wins = serializers.BooleanField(default=False)
    deal_noun = serializers.CharField(default="games", help_text='"games", "hands", "deals".')
    ranking = serializers.CharField(
        default="", help_text="How the game ranks the standings, in its words."
    )
    columns = ColumnOutput(
        many=True, default=list, help_text="The game's standings columns, the ranking's first."
    )
    players = PlayerStandingOutput(
        many=True,
        help_text="Placed players first, by place; once a cut is made, the finalists first.",
    )
    stages = StandingsStageOutput(many=True, default=list, help_text="The stages, if any.")
    tables = TableStandingOutput(many=True)


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
                description=(
                    'The ETag of the standings you hold, e.g. `W/"12.34"`. Any other value '
                    "matches no version: the standings are sent (RFC 9110 13.1.2)."
                ),
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
        # The ETag is compared with the snapshot's head before the standings are read.
        unchanged = Validators.of(tournament, standings_version(tournament)).not_modified(request)
        if unchanged is not None:
            return unchanged
        standings = standings_public(tournament)
        stamp = version_stamp(tournament, standings)
        # Rendered once per version in each process. Not gzipped here: API clients (and the
        # fuzz suite's WSGI client) take the body as sent; a proxy in front may compress it.
        body = drawn_once("api", tournament, stamp, lambda: _json(standings))
        response = HttpResponse(body, content_type="application/json")
        return Validators.of(tournament, standings).stamp(response)


def _json(standings: dict[str, Any]) -> bytes:
    """The standings as DRF's JSON renderer writes them (compact, UTF-8)."""
    return JSONRenderer().render(standings)


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


RESULTS_HEADER = ["place", "shared", "player", "club", "status", "games"]


@require_safe
def results_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """The standings as a spreadsheet: one line per player, in leaderboard order, with the
    game's columns (Kalooki: games won, down and outs, ... R12.3)."""
    tournament = tournament_for_public(request, slug)
    standings = standings_current(tournament=tournament.as_model())
    return _csv_response(f"{tournament.slug}-results.csv", _result_lines(standings))


def _result_lines(standings: dict[str, Any]) -> Iterator[list[Any]]:
    players = standings["players"]
    rounds = sorted(
        {int(number) for row in players for number in row["rounds"]}
        | {number for row in players for number in row.get("byes", ())}
    )
    stats = [c["stat"] for c in standings.get("columns", ()) if c["stat"] != "total"]
    yield [*RESULTS_HEADER, *stats, "rulings", "total", *(f"round_{n}" for n in rounds)]
    for row in players:
        yield [
            "" if row["place"] is None else row["place"],
            _yes(row["shared"]),
            _text(row["player"]),
            _text(row["club"]),
            row["status"],
            row["games_played"],
            *(row.get("stats", {}).get(stat, 0) for stat in stats),
            row["ruling_points"],
            row["total"],
            *(_round_cell(row, number) for number in rounds),
        ]


def _round_cell(row: dict[str, Any], number: int) -> Any:
    """A round's points, or "bye" for a round the player sat out."""
    if number in row.get("byes", ()):
        return "bye"
    return row["rounds"].get(str(number), "")


DEAL_COLUMNS = (
    "deal__table__round__number", "deal__table__number", "deal__number", "deal__attempt",
    "deal__is_void", "deal__detail", "who", "entry__player__club", "side",
    "went_out", "entered", "detail", "points", "deal__version", "deal__status",
)  # fmt: skip
ORDER = ("table__round__number", "table__number", "number", "attempt")


@dataclass(frozen=True)
class Sheet:
    """The columns of a game's export: the deal's word, the game's deal detail, side and member
    fields, and the scalar parts of its breakdown (found from an example the game scores)."""

    noun: str
    deal: tuple[str, ...]
    side: tuple[str, ...]
    member: tuple[str, ...]
    members: int
    detail: tuple[str, ...]

    @property
    def header(self) -> list[str]:
        members = [f"p{m + 1}_{name}" for m in range(self.members) for name in self.member]
        return [
            "round", "table", self.noun, "attempt", "void", *self.deal, "player", "club", "side",
            "went_out", *self.side, *members, *self.detail, "total", "version", "status",
        ]  # fmt: skip


def sheet_of(rules: Rules[Any]) -> Sheet:
    fields = rules.fields(1)
    exclusive = {f.name for f in fields if f.exclusive}
    scored = rules.evaluate(rules.example_entry(1, rules.shape().sides, random.Random(1))).score
    detail = scored.sides[0].detail if scored and scored.sides else {}
    return Sheet(
        noun=deal_noun(rules),
        deal=tuple(k for k, v in (scored.detail if scored else {}).items() if _scalar(v)),
        side=tuple(f.name for f in fields if f.scope == Scope.SIDE and f.name not in exclusive),
        member=tuple(f.name for f in fields if f.scope == Scope.MEMBER),
        members=rules.shape().members if any(f.scope == Scope.MEMBER for f in fields) else 0,
        detail=tuple(k for k, v in detail.items() if _scalar(v)),
    )


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | str)


@require_safe
def games_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """Every side's result of every deal at every table, in play order, and each void attempt
    (R9.2) as one line without a player; streamed from the database (2 queries)."""
    tournament = tournament_for_public(request, slug)
    sheet = sheet_of(tournament.rules())
    lines = merge(
        _result_rows(tournament.id, sheet),
        _void_lines(tournament.id, sheet),
        key=lambda line: line[:4],
    )
    return _csv_response(f"{tournament.slug}-games.csv", _with_header(sheet, lines))


def _with_header(sheet: Sheet, lines: Iterable[list[Any]]) -> Iterator[list[Any]]:
    yield sheet.header
    yield from lines


def _result_rows(tournament_id: int, sheet: Sheet) -> Iterator[list[Any]]:
    results = (
        DealResult.objects.filter(deal__table__round__tournament_id=tournament_id)
        .order_by(*(f"deal__{field}" for field in ORDER), "side")
        .annotate(who=entry_name("entry__"))  # a team by its name (HF1.2)
        .values_list(*DEAL_COLUMNS)
    )
    for row in results.iterator(chunk_size=2000):
        yield _result_line(sheet, *row)


def _result_line(
    sheet: Sheet, round: int, table: int, number: int, attempt: int, void: bool,
    deal_detail: dict, player: str, club: str, side: int, went_out: bool, entered: dict,
    detail: dict, points: int, version: int, status: str,
) -> list[Any]:  # fmt: skip
    values = entered.get("values") or {}
    members = entered.get("members") or []
    member_cells = [
        _cell((members[m] if m < len(members) else {}).get(name))
        for m in range(sheet.members)
        for name in sheet.member
    ]
    return [
        round, table, number, attempt, _yes(void),
        *(_cell(deal_detail.get(key)) for key in sheet.deal),
        _text(player), _text(club), side + 1, _yes(went_out),
        *(_cell(values.get(name)) for name in sheet.side), *member_cells,
        *(_cell(detail.get(key)) for key in sheet.detail),
        points, version, status,
    ]  # fmt: skip


def _cell(value: Any) -> Any:
    """A value as a spreadsheet cell: yes/no for a flag, empty for none, text never a formula."""
    if isinstance(value, bool):
        return _yes(value)
    if value is None:
        return ""
    return _text(value) if isinstance(value, str) else value


def _void_lines(tournament_id: int, sheet: Sheet) -> Iterator[list[Any]]:
    """A void attempt stores no results (R9.2: it scores nothing): one line says it happened."""
    deals = (
        Deal.objects.filter(table__round__tournament_id=tournament_id, is_void=True)
        .order_by(*ORDER)
        .values_list(*ORDER, "version", "status")
    )
    blanks = len(sheet.header) - 5 - 2
    for round, table, number, attempt, version, status in deals.iterator():
        yield [round, table, number, attempt, "yes", *[""] * blanks, version, status]
