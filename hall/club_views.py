"""The club's public pages: a season's table (and its projector), the rating list, a member's
page; their JSON (in the OpenAPI schema) and the season's CSV. Names as each member chose.

A season's JSON is the documented shape a federation can take (``season_document``): the
season, its events (id, name, date, field), and each member's place, points, events counted and
every result (event, place, points, counted).
"""

import csv
import io
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import games
from clubs.models import Club, Member
from seasons import selectors
from seasons.models import Season

PROJECTOR_ROWS = 15
PROJECTOR_SECONDS = 15  # a page of the season's table on the projector


def _season(club: str, season: str) -> Season:
    return get_object_or_404(
        Season.objects.select_related("club"), club__slug=club, slug=season, is_published=True
    )


def _game(game: str) -> Any:
    if game not in games.GAME_KEYS:
        raise Http404("No such game.")
    return games.get(game)


def season_page(request: HttpRequest, club: str, season: str) -> HttpResponse:
    view = selectors.season_get(season=_season(club, season))
    context = {"view": view, "club": view.season.club, "game": games.get(view.season.game)}
    if request.GET.get("projector"):
        asked = request.GET.get("page", "1")
        page = max(int(asked), 1) if asked.isdigit() and len(asked) < 6 else 1
        pages = max((len(view.lines) + PROJECTOR_ROWS - 1) // PROJECTOR_ROWS, 1)
        page = min(page, pages)
        # Every line, those of other pages hidden: projector.js fits as many as the screen
        # shows (fewer in large print, or where a long name takes two lines) and turns the
        # pages; without it, `?page=N` and a refresh.
        context |= {"lines": view.lines, "first_row": (page - 1) * PROJECTOR_ROWS,
                    "rows_per_page": PROJECTOR_ROWS, "seconds": PROJECTOR_SECONDS,
                    "page": page, "pages": pages, "next_page": page % pages + 1}  # fmt: skip
        return render(request, "hall/club/season_projector.html", context)
    return render(request, "hall/club/season.html", context)


def ratings_page(request: HttpRequest, club: str, game: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=club)
    kind = _game(game)
    lines = selectors.ratings_list(club=found, game=game)
    return render(request, "hall/club/ratings.html", {"club": found, "game": kind, "lines": lines})


def member_page(request: HttpRequest, club: str, member_id: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=member_id, club__slug=club, merged_into__isnull=True)
    view = selectors.member_get(member=member)
    charts = [
        {"game": games.get(game).name, "points": selectors.chart_points(history),
         "last": history[-1]["display"], "count": len(history)}
        for game, history in view.history.items()
    ]  # fmt: skip
    context = {"club": member.club, "view": view, "charts": charts}
    response = render(request, "hall/club/member.html", context)
    response.seat = view.seat  # what hall.club_cache compares before answering it again
    return response


def season_document(view: selectors.SeasonView) -> dict[str, Any]:
    season = view.season
    return {
        "club": {"slug": season.club.slug, "name": season.club.name},
        "season": {
            "slug": season.slug,
            "name": season.name,
            "game": season.game,
            "best_of": season.best_of,
            "version": view.version,
        },
        "scale": "points = field - place + 1; best N events; tie-break: points, all points, "
        "wins, events",
        "events": view.events,
        "table": [
            {
                "place": line.place,
                "member": line.member,
                "name": line.name,
                "points": line.points,
                "all_points": line.all_points,
                "wins": line.wins,
                "events": line.events,
                "results": line.results,
            }
            for line in view.lines
        ],
    }


def season_csv(request: HttpRequest, club: str, season: str) -> HttpResponse:
    view = selectors.season_get(season=_season(club, season))
    out = io.StringIO()
    writer = csv.writer(out)
    events = view.events
    writer.writerow(["place", "member", "name", "points", "all_points", "wins", "events",
                     *[event["name"] for event in events]])  # fmt: skip
    for line in view.lines:
        by_event = {r["event"]: r["points"] for r in line.results}
        writer.writerow([line.place, line.member, _cell(line.name), line.points,
                         line.all_points, line.wins, line.events,
                         *[by_event.get(event["id"], "") for event in events]])  # fmt: skip
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{view.season.slug}.csv"'
    return response


def _cell(text: str) -> str:
    """A spreadsheet never reads a name as a formula."""
    return f"'{text}" if text[:1] in "=+-@\t\r" else text


class SeasonResultOutput(serializers.Serializer):
    event = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField()


class SeasonLineOutput(serializers.Serializer):
    place = serializers.IntegerField()
    member = serializers.IntegerField()
    name = serializers.CharField(help_text="As the member chose to be shown.")
    points = serializers.IntegerField(help_text="The best N events' points.")
    all_points = serializers.IntegerField()
    wins = serializers.IntegerField()
    events = serializers.IntegerField()
    results = SeasonResultOutput(many=True)


class SeasonDocumentOutput(serializers.Serializer):
    club = serializers.DictField()
    season = serializers.DictField()
    scale = serializers.CharField()
    events = serializers.ListField(child=serializers.DictField())
    table = SeasonLineOutput(many=True)


class RatingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    member = serializers.IntegerField()
    name = serializers.CharField()
    display = serializers.FloatField(help_text="Conservative rating: mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Matches rated.")
    provisional = serializers.BooleanField()


class MemberHistoryOutput(serializers.Serializer):
    member = serializers.IntegerField(source="member.pk")
    name = serializers.CharField()
    events = serializers.ListField(child=serializers.DictField())
    seasons = serializers.SerializerMethodField()
    ratings = serializers.ListField(child=serializers.DictField())
    history = serializers.DictField()
    seat = serializers.DictField(allow_null=True)

    def get_seasons(self, view: selectors.MemberView) -> list[dict[str, Any]]:
        return [{"season": s["season"].slug, "name": s["season"].name, "place": s["place"],
                 "points": s["points"], "events": s["events"]} for s in view.seasons]  # fmt: skip


class NotFoundOutput(serializers.Serializer):
    errors = serializers.ListField(child=serializers.DictField())


NOT_FOUND = {404: NotFoundOutput}  # no such club, season, game or member


class PublicApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []


class SeasonApi(PublicApi):
    @extend_schema(operation_id="season_table", summary="A season's table (the federation "
                   "export: see the module)", tags=["seasons"],
                   responses={200: SeasonDocumentOutput, **NOT_FOUND})  # fmt: skip
    def get(self, request: Request, club: str, season: str) -> Response:
        return Response(season_document(selectors.season_get(season=_season(club, season))))


class RatingsApi(PublicApi):
    @extend_schema(
        operation_id="club_ratings",
        summary="A club's rating list in a game",
        tags=["seasons"],
        responses={200: RatingOutput(many=True), **NOT_FOUND},
    )
    def get(self, request: Request, club: str, game: str) -> Response:
        _game(game)
        found = get_object_or_404(Club, slug=club)
        lines = selectors.ratings_list(club=found, game=game)
        return Response(RatingOutput(lines, many=True).data)


class MemberHistoryApi(PublicApi):
    @extend_schema(operation_id="member_history", summary="A member's events, seasons, ratings "
                   "and rating history", tags=["seasons"],
                   responses={200: MemberHistoryOutput, **NOT_FOUND})  # fmt: skip
    def get(self, request: Request, club: str, member_id: int) -> Response:
        member = get_object_or_404(Member, pk=member_id, club__slug=club, merged_into__isnull=True)
        view = selectors.member_get(member=member)
        for changes in view.history.values():
            for change in changes:
                change["event"] = change.pop("round__tournament__name")
        return Response(MemberHistoryOutput(view).data)
