"""The club API: a club's member register and seasons, for its directors.

A session or token, as the tournament API. Every endpoint names a club by its slug and finds it
with `club_for_director`: another club, its members and its seasons are a 404, as if they did not
exist (tenancy). A refusal (`ClubError`) is a 400 in the API's one error shape; a refused members
file lists every bad row with its `line`.
"""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import games
from clubs import services
from clubs.models import Club, Member
from clubs.permissions import club_for_director, directed_clubs
from config.api import Input, NoInput, problem
from scoring.members import member_erase, member_merge
from seasons.models import Season
from seasons.services import season_add_event, season_create, season_update
from tournament.models import Tournament

TAG = ["clubs"]


class ClubErrorsOutput(serializers.Serializer):
    """A refusal: each error names its rule, field and, for a members file, its line."""

    errors = serializers.ListField(child=serializers.DictField())


REFUSED = {400: ClubErrorsOutput, 403: ClubErrorsOutput, 404: ClubErrorsOutput}


def directs_a_club(user: AbstractBaseUser | AnonymousUser) -> bool:
    return user.is_authenticated and directed_clubs(user).exists()


class IsClubDirector(BasePermission):
    message = "Only a club's director may do this."

    def has_permission(self, request: Request, view: object) -> bool:
        return directs_a_club(request.user)


class ClubApi(APIView):
    permission_classes = [IsClubDirector]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.MembersRefused):
            errors = [{"rule": None, "field": "csv", "line": row.line, "message": str(row)}
                      for row in exc.problems]  # fmt: skip
            return Response({"errors": errors}, status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, services.ClubError):
            return Response({"errors": [problem(exc.message, exc.field)]}, 400)
        return super().handle_exception(exc)

    def club(self, slug: str) -> Club:
        return club_for_director(self.request.user, slug)

    def member(self, slug: str, member_id: int) -> Member:
        return get_object_or_404(Member, pk=member_id, club=self.club(slug))

    def season(self, slug: str, season: str) -> Season:
        return get_object_or_404(Season, slug=season, club=self.club(slug))


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class ClubOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class MemberOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    display_name = serializers.CharField()
    number = serializers.CharField()
    contact = serializers.CharField(help_text="Private: for the club's directors only.")
    public_name = serializers.ChoiceField(choices=Member.PublicName.choices)
    merged_into = serializers.IntegerField(source="merged_into_id", allow_null=True)
    erased = serializers.SerializerMethodField()

    def get_erased(self, member: Member) -> bool:
        return member.erased_at is not None


class MemberInput(Input):
    name = serializers.CharField(max_length=120)
    display_name = serializers.CharField(max_length=120, required=False, default="")
    number = serializers.CharField(max_length=20, required=False, default="", allow_blank=True)
    contact = serializers.CharField(max_length=254, required=False, default="", allow_blank=True)
    public_name = serializers.ChoiceField(choices=Member.PublicName.choices, required=False,
                                          default=Member.PublicName.FULL)  # fmt: skip


# A members file's characters: at most 12 bytes each once encoded (a 4-byte character, escaped),
# so a file of this length always fits the server's body limit (2.5 MiB) and is never a 413.
MEMBERS_CSV_CHARS = 200_000


class MembersCsvInput(Input):
    csv = serializers.CharField(
        max_length=MEMBERS_CSV_CHARS,
        trim_whitespace=False,
        help_text="The file's text: a header row, then one member a row.",
    )


class MergeInput(Input):
    into = serializers.IntegerField(help_text="The member who stays; this one merges into them.")


class SeasonOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    game = serializers.CharField()
    best_of = serializers.IntegerField(allow_null=True)
    events = serializers.SerializerMethodField()

    def get_events(self, season: Season) -> list[str]:
        return [t.slug for t in season.tournaments.all()]


class SeasonInput(Input):
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=list(games.GAME_KEYS))
    best_of = serializers.IntegerField(required=False, allow_null=True, default=None)


class SeasonChangeInput(Input):
    best_of = serializers.IntegerField(allow_null=True)


class SeasonEventInput(Input):
    tournament = serializers.SlugField(help_text="The slug of one of the club's tournaments.")


class ClubListApi(ClubApi):
    @extend_schema(operation_id="clubs_list", summary="The clubs you direct", tags=TAG,
                   responses={200: ClubOutput(many=True), **REFUSED})  # fmt: skip
    def get(self, request: Request) -> Response:
        return Response(ClubOutput(directed_clubs(request.user), many=True).data)


class MemberListApi(ClubApi):
    @extend_schema(operation_id="club_members_list", summary="The club's member register",
                   tags=TAG, responses={200: MemberOutput(many=True), **REFUSED})  # fmt: skip
    def get(self, request: Request, club: str) -> Response:
        return Response(MemberOutput(self.club(club).members.all(), many=True).data)

    @extend_schema(operation_id="club_members_add", summary="Add a member", tags=TAG,
                   request=MemberInput, responses={201: MemberOutput, **REFUSED})  # fmt: skip
    def post(self, request: Request, club: str) -> Response:
        data = _valid(MemberInput, request.data)
        member = services.member_add(club=self.club(club), by=request.user, **data)
        return Response(MemberOutput(member).data, status.HTTP_201_CREATED)


class MemberImportApi(ClubApi):
    @extend_schema(
        operation_id="club_members_import",
        summary="Import a members CSV file (name, display_name, number, contact, public_name), "
        "or nothing: every bad row is reported by line",
        tags=TAG,
        request=MembersCsvInput,
        responses={201: MemberOutput(many=True), **REFUSED, 413: ClubErrorsOutput},
    )
    def post(self, request: Request, club: str) -> Response:
        text = _valid(MembersCsvInput, request.data)["csv"]
        members = services.members_import_csv(club=self.club(club), by=request.user, text=text)
        return Response(MemberOutput(members, many=True).data, status.HTTP_201_CREATED)


class MemberApi(ClubApi):
    @extend_schema(operation_id="club_member", summary="One member, contact included", tags=TAG,
                   responses={200: MemberOutput, **REFUSED})  # fmt: skip
    def get(self, request: Request, club: str, member_id: int) -> Response:
        return Response(MemberOutput(self.member(club, member_id)).data)


class MemberMergeApi(ClubApi):
    @extend_schema(
        operation_id="club_member_merge",
        summary="Merge this member into another (one person): every result is kept; refused "
        "when both played in one round",
        tags=TAG,
        request=MergeInput,
        responses={200: MemberOutput, **REFUSED},
    )
    def post(self, request: Request, club: str, member_id: int) -> Response:
        drop = self.member(club, member_id)
        keep = get_object_or_404(Member, pk=_valid(MergeInput, request.data)["into"],
                                 club=drop.club)  # fmt: skip
        return Response(MemberOutput(member_merge(keep=keep, drop=drop, by=request.user)).data)


class MemberEraseApi(ClubApi):
    @extend_schema(
        operation_id="club_member_erase",
        summary="Erase a member (the right to be forgotten): anonymised everywhere, scores kept",
        tags=TAG,
        request=NoInput,
        responses={200: MemberOutput, **REFUSED},
    )
    def post(self, request: Request, club: str, member_id: int) -> Response:
        _valid(NoInput, request.data)
        member = member_erase(member=self.member(club, member_id), by=request.user)
        return Response(MemberOutput(member).data)


class SeasonListApi(ClubApi):
    @extend_schema(operation_id="club_seasons_list", summary="The club's seasons", tags=TAG,
                   responses={200: SeasonOutput(many=True), **REFUSED})  # fmt: skip
    def get(self, request: Request, club: str) -> Response:
        seasons = self.club(club).seasons.prefetch_related("tournaments")
        return Response(SeasonOutput(seasons, many=True).data)

    @extend_schema(operation_id="club_seasons_create", summary="Start a season", tags=TAG,
                   request=SeasonInput, responses={201: SeasonOutput, **REFUSED})  # fmt: skip
    def post(self, request: Request, club: str) -> Response:
        data = _valid(SeasonInput, request.data)
        season = season_create(club=self.club(club), by=request.user, **data)
        return Response(SeasonOutput(season).data, status.HTTP_201_CREATED)


class SeasonApi(ClubApi):
    @extend_schema(operation_id="club_season_update", summary="Change how many events count",
                   tags=TAG, request=SeasonChangeInput,
                   responses={200: SeasonOutput, **REFUSED})  # fmt: skip
    def patch(self, request: Request, club: str, season: str) -> Response:
        best_of = _valid(SeasonChangeInput, request.data)["best_of"]
        found = season_update(season=self.season(club, season), by=request.user, best_of=best_of)
        return Response(SeasonOutput(found).data)


class SeasonEventsApi(ClubApi):
    @extend_schema(operation_id="club_season_add_event", summary="Add a night to the season",
                   tags=TAG, request=SeasonEventInput,
                   responses={200: SeasonOutput, **REFUSED})  # fmt: skip
    def post(self, request: Request, club: str, season: str) -> Response:
        found = self.season(club, season)
        slug = _valid(SeasonEventInput, request.data)["tournament"]
        tournament = get_object_or_404(Tournament, slug=slug, club=found.club)
        season_add_event(season=found, tournament=tournament, by=request.user)
        return Response(SeasonOutput(found).data)
