"""The table API: what a scorekeeper's phone or tool reads and writes at one table.

- `GET /api/tables/{id}`: the seats, the game being played now (cards dealt, contract, dealer and
  first player, R4, R4.3), every result so far with its version and status, and the totals.
- `PUT /api/tables/{id}/games/{n}/result`: enter game n's result, or correct it (the body says
  which version it corrects). 201 for a new result, 200 for a correction, 400 with the rules'
  refusals (and warnings to confirm), 409 with the stored result when someone else saved first.
- `POST /api/tables/{id}/games/{n}/confirm`: a second person confirms game n's result.
- `POST /api/tables/{id}/sign-off`: the table signs its finished set off.

Who may call them is `entry.access`'s to say: the table's link (`Authorization: Table <token>`),
its scorekeepers, and the directors of its tournament. Writes accept an `Idempotency-Key`
(`entry.idempotency`). Each endpoint checks access, parses its input, calls one service, and
answers with the table as `table_detail` reads it.
"""

from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.auth import ExpiringTokenAuthentication
from config.parsers import JSONParser
from entry import serializers as ts
from entry.access import Access, TableCaller, TableLinkAuthentication, require_table_access
from entry.idempotency import HEADER, MAX_KEY, idempotent
from games.kalooki import Problem
from scoring import services
from scoring.models import Game, HandResult
from tables.models import Seat, Table
from tables.selectors import GameLine, SeatLine, game_lines, seat_lines, seats_prefetch

NOT_YOURS = "No table of yours has this id."

# --- reads ---------------------------------------------------------------------------------------
# The table page's selector (`entry.views`) also reads each game's history of versions,
# which the API does not show; this one reads what the API shows and no more, since it answers
# every write too. Both build on the seat and dealer helpers of `tables.selectors`.


def table_load(*, pk: int) -> Table | None:
    """The table with its round and tournament: one query."""
    return Table.objects.select_related("round__tournament").filter(pk=pk).order_by().first()


def table_seats(table: Table) -> list[Seat]:
    """The table's seats with their players, in seat order: one query, the first time."""
    prefetch_related_objects([table], seats_prefetch())
    return list(table.seats.all())


def table_detail(*, table: Table) -> dict[str, Any]:
    """The table as the API shows it, for a table loaded with its round and tournament: three
    queries (seats, games, hands) for any number of games; two once its seats were read."""
    table_seats(table)
    seats = seat_lines(table)
    lines = game_lines(seats, table.round.tournament.rules().ruleset.games)
    hands = Prefetch("hands", queryset=HandResult.objects.order_by("entry_id"))
    games = list(table.games.order_by("number", "attempt").prefetch_related(hands))
    results, totals = _results(games, seats)
    return {
        "id": table.pk,
        "number": table.number,
        "round": table.round.number,
        "tournament": table.round.tournament.name,
        "requires_confirmation": table.round.tournament.requires_confirmation,
        "seats": [_seat(seat) for seat in seats],
        "current_game": _current(games, seats, lines),
        "results": results,
        "totals": [
            _player(seat) | {"total": total} for seat, total in zip(seats, totals, strict=True)
        ],
        "games_scored": len({game.number for game in games if not game.is_void}),
        "games_in_set": len(lines),
        "signed_off": table.is_signed_off(),
        "signed_off_at": table.signed_off_at,
        "signed_off_by": table.signed_off_by,
    }


def game_detail(*, table: Table, game: Game) -> dict[str, Any]:
    """One stored game (or void attempt) as `GET /api/tables/{id}` lists it, with each player's
    running total (R8.6): one query once the table's seats were read, none for a void attempt."""
    table_seats(table)
    seats = seat_lines(table)
    if game.is_void:
        return _game(game, [])
    upto = HandResult.objects.filter(
        game__table=table, game__is_void=False, game__number__lte=game.number
    ).order_by()  # in any order: the sums are the same
    running: dict[int, int] = {}
    hands = {}
    for hand in upto:
        running[hand.entry_id] = running.get(hand.entry_id, 0) + hand.total
        if hand.game_id == game.pk:
            hands[hand.entry_id] = hand
    scores = [
        _score(seat, hands[seat.entry_id], running[seat.entry_id])
        for seat in seats
        if seat.entry_id in hands
    ]
    return _game(game, scores)


def _player(seat: SeatLine | None) -> dict[str, Any] | None:
    if seat is None:
        return None
    return {"seat": seat.position, "entry": seat.entry_id, "player": seat.name}


def _seat(seat: SeatLine) -> dict[str, Any]:
    return _player(seat) | {"club": seat.club, "is_first_dealer": seat.is_first_dealer}


def _current(games: list[Game], seats: list[SeatLine], lines: list[GameLine]) -> dict | None:
    """The first game without a scored result; after a void attempt, the same game again,
    dealt by the same dealer (R9.2). The dealer's left plays first (R4.3)."""
    scored = {game.number for game in games if not game.is_void}
    line = next((line for line in lines if line.number not in scored), None)
    if line is None:
        return None
    voids = sum(1 for game in games if game.number == line.number and game.is_void)
    first = None
    if line.dealer is not None:
        first = seats[(seats.index(line.dealer) + 1) % len(seats)]
    return {
        "number": line.number,
        "attempt": voids + 1,
        "dealt": line.dealt,
        "contract": line.contract,
        "contract_words": line.contract_words,
        "dealer": _player(line.dealer),
        "first_player": _player(first),
    }


def _results(games: list[Game], seats: list[SeatLine]) -> tuple[list[dict], list[int]]:
    """Every game and void attempt in order, each player's score with a running total (R8.6)."""
    totals = [0] * len(seats)
    results = []
    for game in games:
        hands = {hand.entry_id: hand for hand in game.hands.all()}
        scores = []
        for index, seat in enumerate(seats):
            hand = None if game.is_void else hands.get(seat.entry_id)
            if hand is not None:
                totals[index] += hand.total
                scores.append(_score(seat, hand, totals[index]))
        results.append(_game(game, scores))
    return results, totals


def _score(seat: SeatLine, hand: HandResult, running: int) -> dict[str, Any]:
    return _player(seat) | {
        "went_out": hand.went_out,
        "cards": hand.cards if hand.card_count is not None else None,
        "card_points": hand.card_points,
        "doubled": hand.doubled,
        "calls": hand.calls,
        "failed_come_downs": hand.failed_come_downs,
        "overcall_penalty": hand.overcall_penalty,
        "penalties": hand.penalty_points,
        "total": hand.total,
        "running": running,
    }


def _game(game: Game, scores: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "number": game.number,
        "attempt": game.attempt,
        "void": game.is_void,
        "down_and_out": game.down_and_out,
        "status": game.status,
        "version": game.version,
        "flagged": game.is_flagged,
        "warnings": game.warnings,
        "updated_at": game.updated_at,
        "scores": scores,
    }


# --- the endpoints -------------------------------------------------------------------------------


def _problems(problems: tuple[Problem, ...]) -> list[dict[str, Any]]:
    return [
        {"rule": p.rule or None, "field": None, "message": p.message, "player": p.player}
        for p in problems
    ]


class TableApi(APIView):
    """An endpoint of one table: its link, its scorekeepers or its tournament's directors.

    A table the caller has nothing to do with is a 404, as if it did not exist; the tournament's
    own people (another table's link or scorekeeper) get a 403. A bad or reissued link is a 401.
    """

    authentication_classes = [
        TableLinkAuthentication,
        SessionAuthentication,
        ExpiringTokenAuthentication,
    ]
    permission_classes = [TableCaller]
    parser_classes = [JSONParser]
    access: Access

    def table(self, *, write: bool) -> Table:
        linked = self.request.auth  # the table of the link, if the caller holds one
        if isinstance(linked, Table) and linked.pk == self.kwargs["pk"]:
            table = linked
        else:
            table = table_load(pk=self.kwargs["pk"])
        if table is None:
            raise Http404(NOT_YOURS)
        self.access = require_table_access(self.request, table, write=write)
        return table

    def game_number(self, table: Table) -> int:
        number = self.kwargs["number"]
        games = len(table.round.tournament.rules().ruleset.games)
        if not 1 <= number <= games:
            raise Http404(f"A set has games 1 to {games}: there is no game {number} (R4).")
        return number

    def input(self, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def idempotent(self, table: Table, write: Callable[[], Response]) -> Response:
        return idempotent(self.request, table, write)

    def require_name(self, table: Table, name: str, field: str, who: str) -> None:
        """On a shared link, the name is what tells a confirmer from the one who entered."""
        if self.access.by_link and table.round.tournament.requires_confirmation and not name:
            raise exceptions.ValidationError(
                {field: f"Say {who}: on the table's link, names tell the players apart."}
            )

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.ResultConflict):
            body = {
                "errors": [{"rule": None, "field": None, "message": str(exc)}],
                "current": game_detail(table=exc.game.table, game=exc.game),
            }
            return Response(ts.TableConflictOutput(body).data, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, services.ResultRefused):
            body = {"errors": _problems(exc.problems), "warnings": _problems(exc.warnings)}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return super().handle_exception(exc)


IDEMPOTENCY_KEY = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=f"Up to {MAX_KEY} visible characters, new for each write (a UUID). A retry "
    "with the same key and body gets the first answer again instead of writing twice; the same "
    "key with another body is a 422.",
)
NOT_ALLOWED = {
    401: ts.TableRefusalOutput,
    403: ts.TableRefusalOutput,
    404: ts.TableRefusalOutput,
}
REFUSED = {400: ts.TableRefusalOutput, 422: ts.TableRefusalOutput, **NOT_ALLOWED}  # writes
# drf-spectacular names a `pk` path parameter `id`, as the paths show it.
TABLE_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Table id.")
GAME_NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game: 1 to 9 (R4)."
)


class TableDetailApi(TableApi):
    @extend_schema(
        operation_id="tables_get",
        summary="A table: seats, the game being played, results so far, totals",
        parameters=[TABLE_ID],
        responses={200: ts.TableDetailOutput, **NOT_ALLOWED},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(ts.TableDetailOutput(table_detail(table=self.table(write=False))).data)


class TableResultApi(TableApi):
    @extend_schema(
        operation_id="tables_result",
        summary="Enter or correct one game's result (R8, R9, R10)",
        description="A new result leaves `version` out; a correction sends the version it "
        "corrects. Refused with 400 and the rules' problems (`warnings` need "
        "`confirm_warnings`); 409 with the stored result when it was saved or changed meanwhile.",
        parameters=[TABLE_ID, GAME_NUMBER, IDEMPOTENCY_KEY],
        request=ts.TableResultInput,
        responses={
            201: ts.TableGameOutput,
            200: ts.TableGameOutput,
            409: ts.TableConflictOutput,
            **REFUSED,
        },
        examples=[
            OpenApiExample(
                "Game 1, the first seat went out",
                value={
                    "entered_by": "Marcia Campbell",
                    "hands": [
                        {"seat": 1, "went_out": True, "cards": ""},
                        {"seat": 2, "cards": "JK AS 2C", "calls": 2},
                        {"seat": 3, "points": 44},
                        {"seat": 4, "cards": "KH KD 9S"},
                        {"seat": 5, "points": 12},
                    ],
                },
                request_only=True,
            )
        ],
    )
    def put(self, request: Request, pk: int, number: int) -> Response:
        table = self.table(write=True)
        number = self.game_number(table)
        return self.idempotent(table, lambda: self.submit(table, number))

    def submit(self, table: Table, number: int) -> Response:
        data = self.input(ts.TableResultInput)
        if data.get("game", number) != number:
            raise exceptions.ValidationError({"game": f"This address is game {number}."})
        self.require_name(table, data["entered_by"], "entered_by", "who is entering")
        held = services.table_hold(table)  # the seats, read once under the table's lock
        outcome = services.result_submit(
            table=held,
            number=number,
            hands=hand_inputs(held.table, data["hands"]),
            down_and_out=data["down_and_out"],
            void=data["void"],
            by=self.access.user,
            via=self.access.via(data["entered_by"]),
            confirm_warnings=data["confirm_warnings"],
            base_version=data.get("version"),
            reason=data["reason"],
        )
        answer = ts.TableGameOutput(game_detail(table=held.table, game=outcome.game)).data
        return Response(answer, status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK)


def hand_inputs(table: Table, hands: list[dict[str, Any]]) -> list[services.HandInput]:
    """The hands as the service takes them, each player found by seat or entry id."""
    seats = table_seats(table)
    by_position = {seat.position: seat for seat in seats}
    by_entry = {seat.entry_id: seat for seat in seats}
    errors: dict[str, str] = {}
    taken: dict[int, int] = {}
    inputs = []
    for index, hand in enumerate(hands):
        seat = by_position.get(hand.get("seat")) or by_entry.get(hand.get("entry"))
        problem = _hand_problem(table, hand, seat, taken.get(seat.pk) if seat else None)
        if problem:
            errors[f"hands.{index}"] = problem
            continue
        taken[seat.pk] = index
        inputs.append(_hand_input(seat.entry_id, hand))
    if errors:
        raise exceptions.ValidationError(errors)
    return inputs


def _hand_problem(
    table: Table, hand: dict[str, Any], seat: Seat | None, earlier: int | None
) -> str:
    if seat is None:
        if hand.get("seat") is not None:
            return f"{table} has no seat {hand['seat']}."
        return f"Entry {hand['entry']} is not seated at {table} (R12.1)."
    if earlier is not None:
        return f"{seat.entry.player.name} already has a result in hands.{earlier}."
    name = " ".join(hand.get("player", "").split())
    if name and name.casefold() != seat.entry.player.name.casefold():
        return f"Seat {seat.position} is {seat.entry.player.name}, not {name}."
    return ""


def _hand_input(entry_id: int, hand: dict[str, Any]) -> services.HandInput:
    return services.HandInput(
        entry_id=entry_id,
        went_out=hand["went_out"],
        cards=hand.get("cards"),
        points=hand.get("points"),
        calls=hand.get("calls"),
        failed_come_downs=hand["failed_come_downs"],
        overcall_penalty=hand["overcall_penalty"],
    )


class TableConfirmApi(TableApi):
    @extend_schema(
        operation_id="tables_confirm",
        summary="Confirm a game's result: someone other than the one who entered it",
        parameters=[TABLE_ID, GAME_NUMBER, IDEMPOTENCY_KEY],
        request=ts.TableConfirmInput,
        responses={200: ts.TableGameOutput, 409: ts.TableConflictOutput, **REFUSED},
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        table = self.table(write=True)
        number = self.game_number(table)
        return self.idempotent(table, lambda: self.confirm(table, number))

    def confirm(self, table: Table, number: int) -> Response:
        data = self.input(ts.TableConfirmInput)
        self.require_name(table, data["confirmed_by"], "confirmed_by", "who confirms")
        game = services.game_current(table=table, number=number)
        if game is None:
            raise Http404(f"Game {number} at {table} has no result to confirm yet.")
        game = services.result_confirm(
            game=game,
            by=self.access.user,
            via=self.access.via(data["confirmed_by"]),
            base_version=data.get("version"),
        )
        return Response(ts.TableGameOutput(game_detail(table=table, game=game)).data)


class TableSignOffApi(TableApi):
    @extend_schema(
        operation_id="tables_sign_off",
        summary="Sign the finished set off: nine games scored and confirmed (R4.1)",
        description="After signing off, only a director ruling changes a score (R12.4).",
        parameters=[TABLE_ID, IDEMPOTENCY_KEY],
        request=ts.TableSignOffInput,
        responses={200: ts.TableDetailOutput, **REFUSED},
    )
    def post(self, request: Request, pk: int) -> Response:
        table = self.table(write=True)
        return self.idempotent(table, lambda: self.sign_off(table))

    def sign_off(self, table: Table) -> Response:
        signer = self.input(ts.TableSignOffInput)["signer"]
        table = services.table_sign_off(
            table=table, by=self.access.user, via=self.access.via_label, signer=signer
        )
        return Response(ts.TableDetailOutput(table_detail(table=table)).data)
