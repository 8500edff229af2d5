"""The tournament API: set-up, players and check-in, for registration sites and scripts.

A director's session or token (`POST /api/auth/token`). Every endpoint names a tournament by its
slug and looks it up with `tournament_for_director`, so another director's tournament is a 404,
exactly as if it did not exist. Each endpoint parses its input, calls one service or selector and
renders; a service's refusal (`TournamentError`) is a 400 in the API's one error shape, a
refused CSV file lists every bad row with its `line`, and a refused ruleset every bad setting
(`"field": "ruleset.packs"`). A change of the game or ruleset once a round exists is a 409 that
says why (`RulesFrozen`), and so is a move the entry's status does not allow (`StatusRefused`:
checking in a player already checked in): the state is in the way, not the request.
"""

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config.api import NoInput, problem
from config.auth import token_fresh
from games.base import Problem
from tournament import selectors, services
from tournament import serializers as s
from tournament.models import Entry, Tournament
from tournament.permissions import IsDirector, MayCreateTournaments, tournament_for_director

TAG = ["tournaments"]
REFUSED = {
    400: s.TournamentErrorsOutput,
    403: s.TournamentErrorsOutput,
    404: s.TournamentErrorsOutput,
}
RULES_EXAMPLES = [
    OpenApiExample(
        "Club rules: a seven-game set",
        value={
            "name": "Club Night",
            "starts_on": "2026-05-02",
            "ends_on": "2026-05-02",
            "game": "kalooki",
            "ruleset": {
                "preset": "club-four",
                "games": [
                    {"number": n, "dealt": d, "contract": c}
                    for n, d, c in [(1, 9, "333"), (2, 10, "334"), (3, 11, "344"), (4, 12, "444"),
                                    (5, 12, "3333"), (6, 13, "3334"), (7, 14, "3344")]
                ],
                "min_naturals_in_three": 1,
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "A ruleset that cannot be played",
        value={
            "errors": [
                {
                    "rule": "R13.4",
                    "field": "ruleset.games",
                    "message": "game 1: contract 4444 needs at least 16 cards, but only 9 are "
                    "dealt (R13.4)",
                }
            ]
        },
        response_only=True,
        status_codes=["400"],
    ),
]  # fmt: skip


class DirectorApi(APIView):
    permission_classes = [IsDirector]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.CsvImportRefused):
            errors = [_row_error(row) for row in exc.problems]
            return Response({"errors": errors}, status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, services.RulesetRefused):
            errors = [_setting_error(problem) for problem in exc.problems]
            return Response({"errors": errors}, status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, services.RulesFrozen | services.StatusRefused):
            errors = [problem(exc.message, exc.field)]
            return Response({"errors": errors}, status.HTTP_409_CONFLICT)
        if isinstance(exc, services.TournamentError):
            errors = [problem(exc.message, exc.field)]
            return Response({"errors": errors}, status.HTTP_400_BAD_REQUEST)
        return super().handle_exception(exc)

    def tournament(self, slug: str) -> Tournament:
        return tournament_for_director(self.request.user, slug)

    def entry(self, slug: str, entry_id: int) -> Entry:
        return get_object_or_404(Entry, pk=entry_id, tournament=self.tournament(slug))


def _setting_error(refusal: Problem) -> dict[str, Any]:
    field = f"ruleset.{refusal.field}" if refusal.field else "ruleset"
    return {"rule": refusal.rule or None, "field": field, "message": refusal.message}


def _row_error(row: Any) -> dict[str, Any]:
    return {"rule": None, "field": "csv", "line": row.line, "message": str(row)}


def _valid(serializer_class: type[Serializer], data: Any, **kwargs: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _tournament_out(tournament: Tournament) -> dict[str, Any]:
    return s.TournamentOutput(selectors.tournament_counted(tournament=tournament)).data


# Tournaments


class TournamentListApi(DirectorApi):
    permission_classes = [MayCreateTournaments]

    @extend_schema(
        operation_id="tournaments_list",
        summary="The tournaments I direct",
        tags=TAG,
        responses={200: s.TournamentOutput(many=True), 403: s.TournamentErrorsOutput},
    )
    def get(self, request: Request) -> Response:
        tournaments = selectors.tournament_list_for_director(user=request.user)
        return Response(s.TournamentOutput(tournaments, many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        summary="Set up a tournament (I become its director)",
        tags=TAG,
        request=s.TournamentCreateInput,
        responses={201: s.TournamentOutput, **REFUSED},
        examples=[
            OpenApiExample(
                "Spring Open",
                value={
                    "name": "Spring Open",
                    "starts_on": "2026-04-18",
                    "ends_on": "2026-04-19",
                    "venue": "Half Way Tree",
                    "rounds_planned": 4,
                },
                request_only=True,
            ),
            *RULES_EXAMPLES,
        ],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.TournamentCreateInput, request.data)
        tournament = services.tournament_create(by=request.user, **data)
        return Response(_tournament_out(tournament), status.HTTP_201_CREATED)


class TournamentDetailApi(DirectorApi):
    @extend_schema(
        operation_id="tournaments_get",
        summary="One tournament's set-up, ruleset and entry counts",
        tags=TAG,
        responses={200: s.TournamentOutput, **REFUSED},
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(_tournament_out(self.tournament(slug)))

    @extend_schema(
        operation_id="tournaments_update",
        summary="Change the set-up (the game and ruleset only while no round exists)",
        tags=TAG,
        request=s.TournamentUpdateInput,
        responses={200: s.TournamentOutput, **REFUSED, 409: s.TournamentErrorsOutput},
        examples=[
            OpenApiExample(
                "Two calls a game",
                value={"ruleset": {"call_limit": 2}},
                request_only=True,
            ),
            OpenApiExample(
                "Frozen",
                value={
                    "errors": [
                        {
                            "rule": None,
                            "field": "ruleset",
                            "message": "The game and ruleset are frozen: round 1 has been "
                            "published, and a tournament's rules never change under games "
                            "already played. Set up a new tournament to play other rules.",
                        }
                    ]
                },
                response_only=True,
                status_codes=["409"],
            ),
        ],
    )
    def patch(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        data = _valid(s.TournamentUpdateInput, request.data, partial=True)
        to = data.pop("status", tournament.status)
        with transaction.atomic():  # a status refused leaves the set-up as it was
            tournament = services.tournament_update(tournament=tournament, by=request.user, **data)
            if to != tournament.status:
                tournament = services.tournament_status_set(
                    tournament=tournament, to=to, by=request.user
                )
        return Response(_tournament_out(tournament))


# Players and entries


class EntryListApi(DirectorApi):
    @extend_schema(
        operation_id="entries_list",
        summary="The tournament's entries, by player name",
        tags=TAG,
        parameters=[s.EntryFilterInput],
        responses={200: s.EntryOutput(many=True), **REFUSED},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        wanted = _valid(s.EntryFilterInput, request.query_params)
        entries = selectors.entry_list(
            tournament=tournament,
            status=wanted.get("status", ""),
            search=wanted.get("search", ""),
        ).prefetch_related("members__player")
        return Response(s.EntryOutput(entries, many=True).data)


class PlayerAddApi(DirectorApi):
    @extend_schema(
        operation_id="players_add",
        summary="Enter one player (a late entry once round 1 is seated)",
        tags=TAG,
        request=s.PlayerInput,
        responses={201: s.EntryOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        data = _valid(s.PlayerInput, request.data)
        entry = services.player_add(tournament=tournament, by=request.user, **data)
        return Response(s.EntryOutput(entry).data, status.HTTP_201_CREATED)


class TeamAddApi(DirectorApi):
    @extend_schema(
        operation_id="teams_add",
        summary="Enter one team of two partners (HF1.2; a late entry once round 1 is seated)",
        tags=TAG,
        request=s.TeamInput,
        responses={201: s.EntryOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        data = _valid(s.TeamInput, request.data)
        one, two = (services.Partner(**partner) for partner in data["partners"])
        entry = services.team_add(
            tournament=tournament,
            by=request.user,
            name=data["team_name"],
            partners=(one, two),
            late=data["late"],
        )
        return Response(s.EntryOutput(entry).data, status.HTTP_201_CREATED)


class TeamUpdateApi(DirectorApi):
    @extend_schema(
        operation_id="teams_update",
        summary="Rename a team or correct its partners (HF1.2; a seated team keeps them)",
        tags=TAG,
        request=s.TeamUpdateInput,
        responses={200: s.EntryOutput, **REFUSED},
    )
    def put(self, request: Request, slug: str, entry_id: int) -> Response:
        entry = self.entry(slug, entry_id)
        data = _valid(s.TeamUpdateInput, request.data)
        one, two = (services.Partner(**partner) for partner in data["partners"])
        entry = services.team_update(
            entry=entry, by=request.user, name=data["team_name"], partners=(one, two)
        )
        return Response(s.EntryOutput(entry).data)


class EntryRefusePairingApi(DirectorApi):
    @extend_schema(
        operation_id="entries_refuse_pairing",
        summary="Refuse a team's pairing, with the reason (HF1.2)",
        tags=TAG,
        request=s.PairingRefusalInput,
        responses={200: s.EntryOutput, **REFUSED, 409: s.TournamentErrorsOutput},
    )
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        entry = self.entry(slug, entry_id)
        data = _valid(s.PairingRefusalInput, request.data)
        entry = services.pairing_refuse(entry=entry, by=request.user, note=data["note"])
        return Response(s.EntryOutput(entry).data)


class PlayersImportApi(DirectorApi):
    @extend_schema(
        operation_id="players_import",
        summary="Enter every player of a CSV file, or none (each bad row reported by line)",
        tags=TAG,
        request=s.CsvImportInput,
        # a file of a million characters, URL-encoded, can outgrow the body limit (config.guard)
        responses={201: s.EntryOutput(many=True), **REFUSED, 413: s.TournamentErrorsOutput},
        examples=[
            OpenApiExample(
                "Two players",
                value={
                    "csv": "name,club,email\nAnn Clarke,Half Way Tree,ann@example.com\n"
                    "Desmond Brown,Mandeville,\n"
                },
                request_only=True,
            ),
            OpenApiExample(
                "A refused file",
                value={
                    "errors": [
                        {
                            "rule": None,
                            "field": "csv",
                            "line": 3,
                            "message": "Line 3: the name is missing",
                        },
                    ]
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        data = _valid(s.CsvImportInput, request.data)
        entries = services.players_import_csv(
            tournament=tournament, by=request.user, text=data["csv"], late=data["late"]
        )
        return Response(s.EntryOutput(entries, many=True).data, status.HTTP_201_CREATED)


class EntryChangeApi(DirectorApi):
    """One status change of one entry; subclasses name the service."""

    change: Callable[..., Entry]

    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        _valid(NoInput, request.data)
        entry = self.change(entry=self.entry(slug, entry_id), by=request.user)
        return Response(s.EntryOutput(entry).data)


def _entry_change(operation: str, summary: str, request: type[Serializer] | None = None) -> Any:
    return extend_schema(
        operation_id=f"entries_{operation}",
        summary=summary,
        tags=TAG,
        request=request,
        responses={200: s.EntryOutput, **REFUSED, 409: s.TournamentErrorsOutput},
    )


class EntryCheckInApi(EntryChangeApi):
    change = staticmethod(services.entry_check_in)

    @_entry_change("check_in", "Check a registered player in")
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        return super().post(request, slug, entry_id)


class EntryUndoCheckInApi(EntryChangeApi):
    change = staticmethod(services.entry_undo_check_in)

    @_entry_change("undo_check_in", "Undo a check-in (back to registered)")
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        return super().post(request, slug, entry_id)


class EntryWithdrawApi(EntryChangeApi):
    change = staticmethod(services.entry_withdraw)

    @_entry_change("withdraw", "Withdraw a player (the scores already played stay)")
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        return super().post(request, slug, entry_id)


# A disqualification is a ruling (R12.4): `director.round_api.EntryDisqualifyApi` records it, and
# `director.round_api.EntryReinstateApi` reinstates a player, reversing that ruling.


class CheckInAllApi(DirectorApi):
    @extend_schema(
        operation_id="entries_check_in_all",
        summary="Check in every registered player",
        tags=TAG,
        request=None,
        responses={200: s.EntryOutput(many=True), **REFUSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        _valid(NoInput, request.data)
        tournament = self.tournament(slug)
        services.entries_check_in_all(tournament=tournament, by=request.user)
        entries = selectors.entry_list(tournament=tournament)
        return Response(s.EntryOutput(entries, many=True).data)


# Signing in


class AuthTokenApi(ObtainAuthToken):
    """DRF's token exchange, with the refusals it gives in its schema: 400 for a wrong username
    or password (and, from django-axes, for an account that is locked out), 403 for a request
    that carries a forged token or a session without its CSRF token. A token expires after
    `API_TOKEN_TTL` (config/auth.py): asking again then gives a new one. DELETE revokes the
    token the request is signed with."""

    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # DRF's view names its own
    serializer_class = s.TokenInput

    @extend_schema(
        operation_id="auth_token_create",
        summary="Exchange a username and password for an API token",
        tags=["auth"],
        request=s.TokenInput,
        responses={
            200: s.TokenInput,
            400: s.TournamentErrorsOutput,
            403: s.TournamentErrorsOutput,
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = token_fresh(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(
        operation_id="auth_token_destroy",
        summary="Revoke the API token this request is signed with",
        tags=["auth"],
        request=None,
        responses={204: None, 401: s.TournamentErrorsOutput, 403: s.TournamentErrorsOutput},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        _valid(NoInput, request.data)
        if request.auth is None or not hasattr(request.auth, "delete"):
            raise exceptions.NotAuthenticated(
                "Send the token to revoke as Authorization: Token <key>."
            )
        request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
