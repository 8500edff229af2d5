"""The control room's API: what the director does on the dashboard and a table's page, for
scripts and other front ends, through the same services as the pages.

- The round's clock: `GET .../rounds/{n}/clock`, and `POST .../clock/start|pause|resume|extend`;
  a table's own clock (a table that started late): `POST .../tables/{t}/clock/pause|resume|extend`.
- The calls for the director: `GET .../rounds/{n}/calls` (those waiting, longest first) and
  `POST .../calls/{id}/answer`.
- Time called (HF2.2): `POST .../rounds/{n}/time` at every table still playing,
  `POST .../tables/{t}/time` at one, `POST .../tables/{t}/time/withdraw` with the reason.
- A flag cleared, with the reason: `POST .../tables/{t}/deals/{g}/clear-flag` (the older
  `games/{g}` path answers the same, deprecated).

A paper score sheet's result, its correction and confirmation, and the sign-off go through the
table API (`PUT /api/tables/{id}/deals/{n}/result`, `.../confirm`, `.../sign-off`), which takes
the directors of the table's tournament; a round's tables list each table's `id`. A step the
round's state does not allow is a 409 that says why; a bad input a 400 naming its field.
"""

from collections.abc import Callable
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import Input, NoInput
from director import control_serializers as s
from director.round_api import NOT_ALLOWED, REFUSED, DirectorApi, _input
from scoring.clock import (
    Clock,
    clock_extend,
    clock_pause,
    clock_resume,
    clock_start,
    round_clocks,
    round_minutes,
)
from scoring.control import WaitingCall, calls_waiting, deal_flag_clear, director_call_answer
from scoring.matches import deal_title
from scoring.models import DirectorCall
from scoring.services import deal_current
from scoring.time_called import round_time_call, table_time_call, table_time_uncall
from tables.models import Table
from tournament.models import Round

TAGS = ["control room"]


class ControlApi(DirectorApi):
    """One step in a round's control room; `table()` is the round's table in the address."""

    def table(self, round: Round) -> Table:
        return get_object_or_404(
            round.tables.select_related("round__tournament"), number=self.kwargs["table"]
        )

    def via(self) -> str:
        return f"director {self.request.user.get_username()}"


# --- clocks --------------------------------------------------------------------------------------


def clocks_out(round: Round) -> dict[str, Any]:
    """The round's clock and each table's own (two queries)."""
    clocks = round_clocks(round_id=round.pk)
    numbers = dict(round.tables.filter(pk__in=clocks.tables).values_list("pk", "number"))
    tables = [
        _clock_fields(clock) | {"table": numbers[table_id]}
        for table_id, clock in clocks.tables.items()
        if table_id in numbers
    ]
    tables.sort(key=lambda table: table["table"])
    return s.RoundClocksOutput({"round": _clock_fields(clocks.round), "tables": tables}).data


def _clock_fields(clock: Clock) -> dict[str, Any]:
    names = ["state", "allowed_seconds", "elapsed_seconds", "left_seconds", "started_at"]
    names += ["table_extra_minutes", "table_paused"]
    return {name: getattr(clock, name) for name in names}


class RoundClockApi(ControlApi):
    @extend_schema(
        operation_id="rounds_clock",
        summary="The round's clock, and each table's that has steps of its own",
        tags=TAGS,
        responses={200: s.RoundClocksOutput, **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(clocks_out(self.round()))


Step = Callable[[ControlApi, Round, Table | None, dict[str, Any]], Any]


def _clock_step_api(
    name: str, step: Step, summary: str, input: type[Input], *, of_table: bool
) -> type[ControlApi]:
    """An endpoint taking one clock step: of the round's clock, or of one table's."""
    operation = f"rounds_{'table_' if of_table else ''}clock_{name}"

    @extend_schema(
        operation_id=operation,
        summary=summary,
        tags=TAGS,
        request=None if input is NoInput else input,
        responses={200: s.RoundClocksOutput, **REFUSED},
    )
    def post(self: ControlApi, request: Request, slug: str, number: int, **table: int) -> Response:
        data = _input(input, request)
        round = self.round()
        step(self, round, self.table(round) if of_table else None, data)
        return Response(clocks_out(round))

    kind = "TableClock" if of_table else "RoundClock"
    return type(f"{kind}{name.title()}Api", (ControlApi,), {"post": post})


def _start(api: ControlApi, round: Round, table: Table | None, data: dict[str, Any]) -> Any:
    minutes = data.get("minutes") or round_minutes(round.tournament.rules())
    return clock_start(round=round, minutes=minutes, by=api.request.user)


def _pause(api: ControlApi, round: Round, table: Table | None, data: dict[str, Any]) -> Any:
    return clock_pause(round=round, table=table, by=api.request.user, reason=data["reason"])


def _resume(api: ControlApi, round: Round, table: Table | None, data: dict[str, Any]) -> Any:
    return clock_resume(round=round, table=table, by=api.request.user)


def _extend(api: ControlApi, round: Round, table: Table | None, data: dict[str, Any]) -> Any:
    minutes, reason = data["minutes"], data["reason"]
    return clock_extend(
        round=round, table=table, minutes=minutes, by=api.request.user, reason=reason
    )


RoundClockStartApi = _clock_step_api(
    "start",
    _start,
    "Start the round's clock (a published round or one in play)",
    s.ClockStartInput,
    of_table=False,
)
RoundClockPauseApi = _clock_step_api(
    "pause", _pause, "Pause the round's clock at every table", s.ClockPauseInput, of_table=False
)
RoundClockResumeApi = _clock_step_api(
    "resume", _resume, "Set the round's clock running again", NoInput, of_table=False
)
RoundClockExtendApi = _clock_step_api(
    "extend", _extend, "Give every table more minutes", s.ClockExtendInput, of_table=False
)
TableClockPauseApi = _clock_step_api(
    "pause", _pause, "Pause one table's clock alone", s.ClockPauseInput, of_table=True
)
TableClockResumeApi = _clock_step_api(
    "resume", _resume, "Set one table's paused clock running again", NoInput, of_table=True
)
TableClockExtendApi = _clock_step_api(
    "extend",
    _extend,
    "Give one table more minutes (one that started late)",
    s.ClockExtendInput,
    of_table=True,
)


# --- calls for the director ----------------------------------------------------------------------


def _waiting_out(call: WaitingCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "table": call.table_number,
        "called_at": call.called_at,
        "called_via": call.called_via,
        "waited_seconds": int(call.waited.total_seconds()),
        "answered_at": None,
        "answered_by": None,
    }


class RoundCallsApi(ControlApi):
    @extend_schema(
        operation_id="rounds_calls",
        summary="The round's calls for the director that wait, longest first",
        tags=TAGS,
        responses={200: s.CallOutput(many=True), **NOT_ALLOWED},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        calls = calls_waiting(round=self.round())
        return Response(s.CallOutput([_waiting_out(call) for call in calls], many=True).data)


class CallAnswerApi(ControlApi):
    @extend_schema(
        operation_id="rounds_call_answer",
        summary="Answer a table's call: the director is on the way",
        tags=TAGS,
        request=None,
        responses={200: s.CallOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int, pk: int) -> Response:
        _input(NoInput, request)
        call = get_object_or_404(DirectorCall, pk=pk, table__round=self.round())
        call = director_call_answer(call=call, by=request.user)
        answer = {
            "id": call.pk,
            "table": call.table.number,
            "called_at": call.called_at,
            "called_via": call.called_via,
            "waited_seconds": int((call.answered_at - call.called_at).total_seconds()),
            "answered_at": call.answered_at,
            "answered_by": call.answered_by.get_username() if call.answered_by else None,
        }
        return Response(s.CallOutput(answer).data)


# --- time called (HF2.2) -------------------------------------------------------------------------


def _time_out(table: Table) -> dict[str, Any]:
    fields = {"time_called_at": table.time_called_at, "time_called_by": table.time_called_by}
    return s.TimeCallOutput({"table": table.number, **fields}).data


class RoundTimeApi(ControlApi):
    @extend_schema(
        operation_id="rounds_time",
        summary="Call time at every table of the round still playing (HF2.2)",
        tags=TAGS,
        request=None,
        responses={200: s.RoundTimeOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        _input(NoInput, request)
        called = round_time_call(round=self.round(), by=request.user, via=self.via())
        return Response(s.RoundTimeOutput({"tables": [table.number for table in called]}).data)


class TableTimeApi(ControlApi):
    @extend_schema(
        operation_id="rounds_table_time",
        summary="Call time at one table: its game ends with the hands entered (HF2.2)",
        tags=TAGS,
        request=None,
        responses={200: s.TimeCallOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        _input(NoInput, request)
        called = table_time_call(table=self.table(self.round()), by=request.user, via=self.via())
        return Response(_time_out(called))


class TableTimeWithdrawApi(ControlApi):
    @extend_schema(
        operation_id="rounds_table_time_withdraw",
        summary="Withdraw a time call made by mistake, with the reason: the table plays on",
        tags=TAGS,
        request=s.ReasonInput,
        responses={200: s.TimeCallOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        reason = _input(s.ReasonInput, request)["reason"]
        found = self.table(self.round())
        return Response(_time_out(table_time_uncall(table=found, by=request.user, reason=reason)))


# --- flags ---------------------------------------------------------------------------------------


class FlagClearApi(ControlApi):
    @extend_schema(
        operation_id="rounds_table_clear_flag",
        summary="Clear a flagged result's flag, with the reason: the result stands as it is",
        description="The warnings behind the flag (R10.6, R10.7, HF8.8 ...) were looked at and "
        "the result is right; the reason is kept with the version reviewed and in the audit log. "
        "To change the result instead, correct it through the table API.",
        tags=TAGS,
        request=s.ReasonInput,
        responses={200: s.FlagOutput, **REFUSED},
    )
    def post(self, request: Request, slug: str, number: int, table: int, game: int) -> Response:
        reason = _input(s.ReasonInput, request)["reason"]
        found = self.table(self.round())
        deal = deal_current(table=found, number=game)
        if deal is None:
            title = deal_title(found.round.tournament.rules(), game)
            raise Http404(f"{title} has no result at table {found.number}.")
        deal = deal_flag_clear(deal=deal, by=request.user, reason=reason)
        answer = {"table": found.number, "game": deal.number, "version": deal.version}
        answer |= {"flagged": deal.is_flagged, "reason": " ".join(reason.split())}
        return Response(s.FlagOutput(answer).data, status=status.HTTP_200_OK)


OLD_CLEAR = extend_schema(operation_id="rounds_table_clear_flag_games", deprecated=True)


@extend_schema_view(post=OLD_CLEAR)
class FlagClearGamesApi(FlagClearApi):
    """`POST .../games/{g}/clear-flag`: the old path of `.../deals/{g}/clear-flag`, same answer."""
