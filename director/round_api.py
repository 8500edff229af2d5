"""The director's API for rounds, seats, tables and rulings (the rules API is `rules_api`).

It is for registration sites and scripts: it does what the director's pages do, through the same
services and selectors. Each endpoint parses its input, calls one service or selector, renders.
"""

from collections.abc import Callable

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import Input, NoInput, problem
from director.print_views import printed_site
from scoring import rounds
from scoring import serializers as s
from scoring.clock import ClockError
from scoring.control import ControlError
from scoring.models import Ruling
from scoring.rounds import RoundError
from scoring.rulings import (
    RulingConflict,
    RulingError,
    player_reinstate,
    ruling_record,
    ruling_reverse,
    seat_change_by_ruling,
)
from scoring.selectors import round_progress, ruling_get, rulings_list
from scoring.standings import standing_order
from scoring.time_called import TimeCallError
from seasons.selectors import entry_ratings
from tables.seating import SeatingMode
from tables.selectors import SeatingSummary, round_byes, seating_summary
from tables.services import (
    NoPinnedSeat,
    SeatingClosed,
    SeatingError,
    round_seat,
    seat_move,
    seat_swap,
    table_link_reissue,
)
from tournament.models import Entry, Round, Tournament
from tournament.permissions import IsDirector, tournament_for_director
from tournament.serializers import DisqualifyInput, EntryOutput, ReinstateInput
from tournament.services import StatusRefused, TournamentError
from tournament.stage_services import StageLocked


def _input(serializer_class: type[Input], request: Request, **context: object) -> dict:
    """The request's body, validated: a 400 in the shared error shape if it is not valid."""
    serializer = serializer_class(data=request.data, context=context)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- the director's API: rounds, seats, tables and rulings ---------------------------------------


class DirectorApi(APIView):
    """A director's endpoint in one tournament: a session or a token of one of its directors;
    anyone else's tournament is a 404. A refused step comes back in the shared error shape:
    409 when the round's state is in the way, 400 when the input is."""

    permission_classes = [IsDirector]

    def tournament(self) -> Tournament:
        return tournament_for_director(self.request.user, self.kwargs["slug"])

    def round(self) -> Round:
        return get_object_or_404(
            Round.objects.select_related("tournament"),
            tournament=self.tournament(),
            number=self.kwargs["number"],
        )

    def handle_exception(self, exc: Exception) -> Response:
        status_code = _refusal_status(exc)
        if status_code is None:
            return super().handle_exception(exc)
        return Response(
            {"errors": [problem(str(exc), getattr(exc, "field", None))]}, status=status_code
        )


def _refusal_status(exc: Exception) -> int | None:
    conflicts = RoundError | SeatingClosed | ClockError | ControlError | TimeCallError | StageLocked
    if isinstance(exc, conflicts):
        return status.HTTP_409_CONFLICT
    if isinstance(exc, NoPinnedSeat):
        return status.HTTP_404_NOT_FOUND
    if isinstance(exc, StatusRefused | RulingConflict):  # the state is in the way
        return status.HTTP_409_CONFLICT
    if isinstance(exc, RulingError | SeatingError | TournamentError):
        return status.HTTP_400_BAD_REQUEST
    return None


def _round_detail(round: Round) -> dict:
    round.refresh_from_db()
    fields = ["number", "status", "seating_seed", "dealer_seed", "published_at", "locked_at"]
    detail = {name: getattr(round, name) for name in fields}
    seating = seating_summary(round)
    detail |= {
        "tables": round_progress(round=round),
        "byes": round_byes(round),
        "bye_rule": round.tournament.rules().bye_words(),
        "seating_mode": seating.mode if seating else None,
        "seating_words": _seating_words(seating),
    }
    return s.RoundDetailOutput(detail).data


def _seating_words(seating: SeatingSummary | None) -> str:
    if seating is None:
        return "Not seated yet."
    follows = f"; following {seating.design}" if seating.design else ""
    return f"{seating.words}{follows}."


# Every director's endpoint refuses a caller who directs no tournament (403) and hides anyone
# else's tournament, round, table or ruling (404); writes refuse their input or a round's state.
NOT_ALLOWED = {403: s.ErrorsOutput, 404: s.ErrorsOutput}
REFUSED = {400: s.ErrorsOutput, 409: s.ErrorsOutput, **NOT_ALLOWED}


class RoundListApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_list",
        summary="The tournament's rounds, with their status",
        responses={200: s.RoundOutput(many=True), **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str) -> Response:
        rounds_ = self.tournament().rounds.order_by("number")
        return Response(s.RoundOutput(rounds_, many=True).data)

    @extend_schema(
        operation_id="rounds_add",
        summary="Add the next round, as a draft (R12.1)",
        request=None,
        responses={201: s.RoundDetailOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        _input(NoInput, request)
        round = rounds.round_add(tournament=self.tournament(), by=request.user)
        return Response(_round_detail(round), status=status.HTTP_201_CREATED)


class RoundDetailApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_get",
        summary="A round: its status, tables, seats and first dealers, and each table's progress",
        responses={200: s.RoundDetailOutput, **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(_round_detail(self.round()))

    @extend_schema(
        operation_id="rounds_remove",
        summary="Remove the latest round while it is a draft (undoes adding it)",
        responses={204: None, **REFUSED},
    )
    def delete(self, request: Request, slug: str, number: int) -> Response:
        _input(NoInput, request)
        rounds.round_remove(round=self.round(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundSeatApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_seat",
        summary="Seat the checked-in players of a draft round (R12.1, R12.2, R4.3)",
        description="Replaces the round's draft seating, by `mode`; pinned players keep their "
        "tables. The seed and the mode are stored: the same seed gives the same tables and "
        "first dealers.",
        request=s.SeatInput,
        responses={200: s.RoundDetailOutput, **REFUSED},
        examples=[
            OpenApiExample("Same tables as seed 1234", value={"seed": 1234}),
            OpenApiExample("By standings", value={"mode": "standings"}),
        ],
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _input(s.SeatInput, request)
        round = self.round()
        standing = standing_order(tournament=round.tournament)
        mode = SeatingMode(data["mode"])
        seed = data.get("seed")
        if mode.needs_ratings and not entry_ratings(tournament=round.tournament):
            raise SeatingError(
                f"{mode.value}: nobody entered has a rating yet in the club's "
                f"{round.tournament.rules().game.name} ratings (a locked round rates its "
                "tables): seat round 1 by another mode."
            )
        round_seat(
            round=round,
            by=request.user,
            seed=seed,
            standing=standing,
            mode=mode,
            ratings=entry_ratings(tournament=round.tournament) if mode.needs_ratings else None,
        )
        return Response(_round_detail(round))


class SeatSwapApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_swap",
        summary="Swap two players' seats in a draft round",
        request=s.SwapInput,
        responses={200: s.RoundDetailOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        round = self.round()
        entry_a, entry_b = _input(s.SwapInput, request, tournament=round.tournament)["entries"]
        seat_swap(round=round, entry_a=entry_a, entry_b=entry_b, by=request.user)
        return Response(_round_detail(round))


class SeatMoveApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_move",
        summary="Move a player to another table of a draft round",
        request=s.MoveInput,
        responses={200: s.RoundDetailOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        round = self.round()
        data = _input(s.MoveInput, request, tournament=round.tournament, round=round)
        seat_move(round=round, by=request.user, **data)
        return Response(_round_detail(round))


class SeatChangeApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_seat_change",
        summary="Change a published round's seats by a ruling (R12.4)",
        description="Swap `entry` with `swap_with`, or move `entry` to `table`. Refused at a "
        "table that has any result.",
        request=s.SeatChangeInput,
        responses={201: s.RulingOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        round = self.round()
        data = _input(s.SeatChangeInput, request, tournament=round.tournament, round=round)
        ruling = seat_change_by_ruling(round=round, by=request.user, **data)
        return Response(s.RulingOutput(ruling_get(ruling=ruling)).data, status.HTTP_201_CREATED)


class RoundStepApi(DirectorApi):
    """One step of the round lifecycle (see `scoring.rounds`)."""

    def take(self, service: Callable[..., Round]) -> Response:
        _input(NoInput, self.request)
        round = self.round()
        service(round=round, by=self.request.user)
        return Response(_round_detail(round))


def _step_api(name: str, service: Callable[..., Round], summary: str) -> type[RoundStepApi]:
    @extend_schema(
        operation_id=f"rounds_{name}",
        summary=summary,
        request=None,
        responses={200: s.RoundDetailOutput, **REFUSED},
    )
    def post(self: RoundStepApi, request: Request, slug: str, number: int) -> Response:
        return self.take(service)

    return type(f"Round{name.title()}Api", (RoundStepApi,), {"post": post})


RoundPublishApi = _step_api(
    "publish", rounds.round_publish, "Publish a draft round: its seating becomes final"
)
RoundUnpublishApi = _step_api(
    "unpublish", rounds.round_unpublish, "Take a published round back to draft (no result yet)"
)
RoundStartApi = _step_api("start", rounds.round_start, "Put a published round in play")
RoundCompleteApi = _step_api(
    "complete", rounds.round_complete, "Complete a round once every table has played its set"
)
RoundReopenApi = _step_api(
    "reopen", rounds.round_reopen, "Put a complete round back in play, for a correction"
)
RoundLockApi = _step_api(
    "lock", rounds.round_lock, "Lock a complete round: scores change only by ruling (R12.4)"
)


class RoundTablesApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_tables",
        summary="A round's tables, each with its private scorekeeper link",
        responses={200: s.TableLinkOutput(many=True), **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        tables = round_progress(round=self.round())
        context = {"site": printed_site(request)}
        return Response(s.TableLinkOutput(tables, many=True, context=context).data)


class TableLinkReissueApi(DirectorApi):
    @extend_schema(
        operation_id="rounds_table_link_reissue",
        summary="Give a table a new private link; the old one stops working",
        request=None,
        responses={200: s.TableLinkOutput, **NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        _input(NoInput, request)
        round = self.round()
        table_link_reissue(table=get_object_or_404(round.tables, number=table), by=request.user)
        [line] = [line for line in round_progress(round=round) if line.number == table]
        return Response(s.TableLinkOutput(line, context={"site": printed_site(request)}).data)


class RulingListApi(DirectorApi):
    @extend_schema(
        operation_id="rulings_list",
        summary="The tournament's rulings, newest first (R12.4)",
        responses={200: s.RulingOutput(many=True), **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str) -> Response:
        lines = rulings_list(tournament=self.tournament())
        return Response(s.RulingOutput(lines, many=True).data)

    @extend_schema(
        operation_id="rulings_record",
        summary="Record a ruling against a player, a table or a game (R12.4)",
        request=s.RulingInput,
        responses={201: s.RulingOutput, 400: s.ErrorsOutput, **NOT_ALLOWED},
        examples=[
            OpenApiExample(
                "25 penalty points",
                value={
                    "kind": "penalty_points",
                    "entry": 12,
                    "points": 25,
                    "decision": "25 penalty points for showing cards.",
                    "reason": "Seen by the director at table 3.",
                },
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament()
        data = _input(s.RulingInput, request, tournament=tournament)
        data["deal"] = data.pop("game")  # the API keeps Kalooki's word for a deal
        ruling = ruling_record(tournament=tournament, by=request.user, **data)
        return Response(s.RulingOutput(ruling_get(ruling=ruling)).data, status.HTTP_201_CREATED)


class RulingReverseApi(DirectorApi):
    @extend_schema(
        operation_id="rulings_reverse",
        summary="Reverse a ruling: a new ruling with the opposite points",
        request=s.ReverseInput,
        responses={201: s.RulingOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        ruling = get_object_or_404(Ruling, tournament=self.tournament(), pk=pk)
        reason = _input(s.ReverseInput, request)["reason"]
        reversal = ruling_reverse(ruling=ruling, by=request.user, reason=reason)
        return Response(s.RulingOutput(ruling_get(ruling=reversal)).data, status.HTTP_201_CREATED)


class EntryDisqualifyApi(DirectorApi):
    """A disqualification is a ruling (R12.4): it is recorded as one, with the reason as its
    decision, and shows in the rulings; reversing that ruling reinstates the player."""

    @extend_schema(
        operation_id="entries_disqualify",
        summary="Disqualify a player, with the reason: recorded as a ruling (R12.4)",
        tags=["tournaments"],  # with the other changes of an entry's status
        request=DisqualifyInput,
        responses={200: EntryOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        tournament = self.tournament()
        entry = get_object_or_404(
            Entry.objects.select_related("player"), tournament=tournament, pk=entry_id
        )
        reason = _input(DisqualifyInput, request)["reason"]
        ruling_record(
            tournament=tournament,
            by=request.user,
            kind=Ruling.Kind.DISQUALIFICATION,
            entry=entry,
            decision=reason,
        )
        entry.refresh_from_db()
        return Response(EntryOutput(entry).data)


class EntryReinstateApi(DirectorApi):
    """Reinstate a withdrawn or disqualified player, as registered. A disqualification is a
    ruling (R12.4): reinstating the player reverses it with the reason given, as reversing the
    ruling itself would, so that the rulings and the standings agree with the player's status."""

    @extend_schema(
        operation_id="entries_reinstate",
        summary="Reinstate a withdrawn or disqualified player (as registered); a "
        "disqualification's ruling is reversed, with the reason (R12.4)",
        tags=["tournaments"],  # with the other changes of an entry's status
        request=ReinstateInput,
        responses={200: EntryOutput, **REFUSED},
        examples=[
            OpenApiExample(
                "A disqualification lifted",
                value={"reason": "The marked cards were the venue's deck, not hers."},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        entry = get_object_or_404(Entry, tournament=self.tournament(), pk=entry_id)
        reason = _input(ReinstateInput, request)["reason"]
        entry = player_reinstate(entry=entry, by=request.user, reason=reason)
        return Response(EntryOutput(entry).data)
