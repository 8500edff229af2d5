"""The table API: what a scorekeeper's phone or tool reads and writes at one table.

- `GET /api/tables/{id}`: the seats and the game's sides, the deal being played now (its title,
  what is dealt, the dealer and first player where the game has them, and the fields to enter),
  every result so far with its version and status, and the totals.
- `PUT /api/tables/{id}/games/{n}/result`: enter deal n's result, or correct it (the body says
  which version it corrects). 201 for a new result, 200 for a correction, 400 with the game's
  refusals (and warnings to confirm), 409 with the stored result when someone else saved first.
- `POST /api/tables/{id}/games/{n}/confirm`: a second person confirms deal n's result.
- `POST /api/tables/{id}/sign-off`: the table signs its finished match off.

The paths keep `games` (Kalooki's word for a deal) so that the tools already using them keep
working; `n` is the deal's number in every game. A body names each side's values by the game's
field names (`sides`, any game), or is Kalooki's `hands` shape, still accepted.

Who may call them is `entry.access`'s to say: the table's link (`Authorization: Table <token>`),
its scorekeepers, and the directors of its tournament. Writes accept an `Idempotency-Key`
(`entry.idempotency`). Each endpoint checks access, parses its input, calls one service, and
answers with the table as `table_detail` reads it.
"""

from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy
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
from entry.shapes import shape
from games.base import Problem, Rules, RulesError
from scoring import services
from scoring.matches import deal_title, deals_in_match, played, sides_of
from scoring.models import Deal, DealResult
from scoring.phrases import problem_message
from scoring.store.prepared import prefetched
from tables.models import Seat, Table
from tables.selectors import DealLine, SeatLine, deal_lines, seat_lines, seats_prefetch

NOT_YOURS = gettext_lazy("No table of yours has this id.")

# --- reads ---------------------------------------------------------------------------------------
# The table page's selector (`entry.views`) also reads each deal's history of versions,
# which the API does not show; this one reads what the API shows and no more, since it answers
# every write too. Both build on the seat and dealer helpers of `tables.selectors`.


def table_load(*, pk: int) -> Table | None:
    """The table with its round and tournament: one query."""
    return Table.objects.select_related("round__tournament").filter(pk=pk).order_by().first()


def table_seats(table: Table) -> list[Seat]:
    """The table's seats with their players, in seat order: one query, the first time."""
    if prefetched(table, "seats") is None:
        prefetch_related_objects([table], seats_prefetch())
    return list(table.seats.all())


def table_detail(*, table: Table) -> dict[str, Any]:
    """The table as the API shows it, for a table loaded with its round and tournament: three
    queries (seats, deals, results) for any number of deals; two once its seats were read."""
    table_seats(table)
    seats = seat_lines(table)
    rules = table.round.tournament.rules()
    results = Prefetch("results", queryset=DealResult.objects.order_by("side"))
    deals = list(table.deals.order_by("number", "attempt").prefetch_related(results))
    scores = played(deals)
    shown, totals = _results(rules, deals, seats)
    return {
        "id": table.pk,
        "number": table.number,
        "round": table.round.number,
        "tournament": table.round.tournament.name,
        "game": rules.game.key,
        "requires_confirmation": table.round.tournament.requires_confirmation,
        "seats": [_seat(seat) for seat in seats],
        "sides": _sides(rules, seats),
        "current_game": _current(rules, deals, seats, scores, table.time_called),
        "results": shown,
        "totals": [
            _player(seat) | {"total": total} for seat, total in zip(seats, totals, strict=True)
        ],
        "games_scored": len({deal.number for deal in deals if not deal.is_void}),
        "games_in_set": deals_in_match(rules),
        "match_over": rules.match_over(scores, time_called=table.time_called),
        "time_called_at": table.time_called_at,
        "time_called_by": table.time_called_by,
        "signed_off": table.is_signed_off(),
        "signed_off_at": table.signed_off_at,
        "signed_off_by": table.signed_off_by,
    }


def deal_detail(*, table: Table, deal: Deal, earlier: list[Deal] | None = None) -> dict[str, Any]:
    """One stored deal (or void attempt) as `GET /api/tables/{id}` lists it, with each side's
    running total: one query once the table's seats were read, none for a void attempt, and
    none when the caller read the table's deals already (`earlier`, with their results, as a
    result service holds them) and `deal`'s results are on it."""
    table_seats(table)
    seats = seat_lines(table)
    rules = table.round.tournament.rules()
    if deal.is_void:
        return _deal(rules, deal, [])
    running: dict[int, int] = {}
    mine = {}
    for result in _results_upto(table, deal, earlier):
        running[result.side] = running.get(result.side, 0) + result.points
        if result.deal_id == deal.pk:  # both None for a new deal not yet stored (PostgreSQL)
            mine[result.side] = result
    scores = [
        _score(side, mine[index], running[index])
        for index, side in enumerate(sides_of(rules, seats))
        if index in mine
    ]
    return _deal(rules, deal, scores)


def _results_upto(table: Table, deal: Deal, earlier: list[Deal] | None) -> list[DealResult]:
    """The results of the table's scored deals up to `deal`'s number, `deal`'s own as stored
    now; in any order, since only their sums count."""
    if earlier is None:
        upto = DealResult.objects.filter(
            deal__table=table, deal__is_void=False, deal__number__lte=deal.number
        )
        return list(upto.order_by())
    before = [d for d in earlier if not d.is_void and d.number < deal.number]
    return [result for d in [*before, deal] for result in _results_of(d)]


def _results_of(deal: Deal) -> list[DealResult]:
    """The deal's results as read with it, or from the database."""
    found = prefetched(deal, "results")
    return list(deal.results.all()) if found is None else found


def _player(seat: SeatLine | None) -> dict[str, Any] | None:
    if seat is None:
        return None
    return {"seat": seat.position, "entry": seat.entry_id, "player": seat.name}


def _seat(seat: SeatLine) -> dict[str, Any]:
    return _player(seat) | {"club": seat.club, "is_first_dealer": seat.is_first_dealer}


def _sides(rules: Rules[Any], seats: list[SeatLine]) -> list[dict[str, Any]]:
    return [
        {
            "side": index,
            "entry": side[0].entry_id,
            "label": side[0].team or " & ".join(seat.name for seat in side),
            "players": [seat.name for seat in side],
            "seats": [seat.position for seat in side],
        }
        for index, side in enumerate(sides_of(rules, seats))
    ]


def _current(
    rules: Rules[Any],
    deals: list[Deal],
    seats: list[SeatLine],
    scores: list[Any],
    time_called: bool = False,
) -> dict[str, Any] | None:
    """The deal the game says comes next (none once time is called, HF2.2); after a void
    attempt, the same deal again, dealt by the same dealer (R9.2). The dealer's left plays
    first (R4.3)."""
    number = rules.next_deal(scores, time_called=time_called)
    if number is None:
        return None
    line: DealLine = deal_lines(seats, rules, [number])[0]
    voids = sum(1 for deal in deals if deal.number == number and deal.is_void)
    first = None
    if line.dealer is not None:
        first = seats[(seats.index(line.dealer) + 1) % len(seats)]
    return {
        "number": number,
        "title": line.title,
        "summary": line.summary,
        "attempt": voids + 1,
        "dealt": line.dealt,
        "contract": line.contract,
        "contract_words": line.contract_words,
        "dealer": _player(line.dealer),
        "first_player": _player(first),
        "fields": [spec.to_dict() for spec in rules.fields(number)],
    }


def _results(
    rules: Rules[Any], deals: list[Deal], seats: list[SeatLine]
) -> tuple[list[dict], list[int]]:
    """Every deal and void attempt in order, each side's score with a running total; and each
    seat's total (its side's)."""
    sides = sides_of(rules, seats)
    running = [0] * len(sides)
    results = []
    for deal in deals:
        by_side = {result.side: result for result in deal.results.all()}
        scores = []
        for index, side in enumerate(sides):
            result = None if deal.is_void else by_side.get(index)
            if result is not None:
                running[index] += result.points
                scores.append(_score(side, result, running[index]))
        results.append(_deal(rules, deal, scores))
    side_of = {seat.entry_id: i for i, side in enumerate(sides) for seat in side}
    totals = [running[side_of[seat.entry_id]] if seat.entry_id in side_of else 0 for seat in seats]
    return results, totals


def _score(side: tuple[SeatLine, ...], result: DealResult, running: int) -> dict[str, Any]:
    return _player(side[0]) | {
        "player": side[0].team or " & ".join(seat.name for seat in side),
        "side": result.side,
        "went_out": result.went_out,
        "points": result.points,
        "total": result.points,
        "running": running,
        "values": result.values,
        "members": result.members,
        "detail": result.detail,
    }


def _deal(rules: Rules[Any], deal: Deal, scores: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "number": deal.number,
        "title": deal_title(rules, deal.number),
        "attempt": deal.attempt,
        "void": deal.is_void,
        "down_and_out": deal.down_and_out,
        "detail": deal.detail,
        "status": deal.status,
        "version": deal.version,
        "flagged": deal.is_flagged,
        "warnings": deal.warnings,
        "updated_at": deal.updated_at,
        "scores": scores,
    }


# --- the endpoints -------------------------------------------------------------------------------


def _problems(problems: tuple[Problem, ...]) -> list[dict[str, Any]]:
    """The game's problems, each saying where it belongs: `field` (the game's field name),
    `side` and `member` (from 0), where the game says."""
    return [
        {
            "rule": p.rule or None,
            "field": p.field,
            "message": problem_message(p),
            "player": p.player,
            "side": p.side,
            "member": p.member,
        }
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
        """The deal of the address, if the game's match can have it (404 otherwise)."""
        number, rules = self.kwargs["number"], table.round.tournament.rules()
        most = deals_in_match(rules) or ts.MAX_DEAL
        try:
            if not 1 <= number <= most:
                raise RulesError(Problem("", "no such deal"))
            rules.deal(number)
        except RulesError:
            noun = deal_title(rules, 1).rsplit(" ", 1)[0].lower()
            rule = f" ({rules.cites('order')})" if rules.cites("order") else ""
            raise Http404(
                gettext(
                    "A match has {deal}s 1 to {most}: there is no {deal} {number}{rule}."
                ).format(deal=noun, most=most, number=number, rule=rule)
            ) from None
        return number

    def input(self, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
        return shape(serializer_class).validated(self.request.data)

    def idempotent(self, table: Table, write: Callable[[], Response]) -> Response:
        return idempotent(self.request, table, write)

    def require_name(self, table: Table, name: str, field: str, who: str) -> None:
        """On a shared link, the name is what tells a confirmer from the one who entered."""
        if self.access.by_link and table.round.tournament.requires_confirmation and not name:
            raise exceptions.ValidationError(
                {
                    field: gettext(
                        "Say {who}: on the table's link, names tell the players apart."
                    ).format(who=who)
                }
            )

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.ResultConflict):
            body = {
                "errors": [{"rule": None, "field": None, "message": str(exc)}],
                "current": deal_detail(table=exc.deal.table, deal=exc.deal),
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
    description=f"1 to {MAX_KEY} visible ASCII characters, new for each write (a UUID). A retry "
    "with the same key and body gets the first answer again instead of writing twice; the same "
    "key with another body is a 422.",
    pattern=f"^[!-~]{{1,{MAX_KEY}}}$",  # what `entry.idempotency.request_key` takes
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
    "number",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="The deal's number (Kalooki: the game, 1 to 9, R4).",
)


class TableDetailApi(TableApi):
    @extend_schema(
        operation_id="tables_get",
        summary="A table: seats and sides, the deal being played and its fields, results, totals",
        parameters=[TABLE_ID],
        responses={200: ts.TableDetailOutput, **NOT_ALLOWED},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(ts.TableDetailOutput(table_detail(table=self.table(write=False))).data)


MINIMAL_ANSWER = ("number", "title", "attempt", "void", "status", "version", "flagged")


def minimal(request: Request, answer: Response) -> Response:
    """A stored result's answer cut to what says it is stored, when the caller prefers it
    (`Prefer: return=minimal`, RFC 7240): the phone, whose page shows the scores already,
    saves most of the answer's bytes on the hall's Wi-Fi. Refusals and conflicts are whole."""
    preferences = request.headers.get("Prefer", "").replace(" ", "").lower().split(",")
    if "return=minimal" not in preferences or answer.status_code not in (200, 201):
        return answer
    body = {name: answer.data[name] for name in MINIMAL_ANSWER if name in answer.data}
    brief = Response(body, answer.status_code, headers=dict(answer.items()))
    brief["Preference-Applied"] = "return=minimal"
    return brief


class TableResultApi(TableApi):
    @extend_schema(
        operation_id="tables_result",
        summary="Enter or correct one deal's result, checked and scored by the game",
        description="The body names the deal's values and each side's (`sides`: the fields "
        "of `current_game.fields`, every game), or Kalooki's `hands` (one player each). A new "
        "result leaves `version` out; a correction sends the version it corrects. Refused with "
        "400 and the game's problems, each with its `field`, `side` and `member` (`warnings` "
        "need `confirm_warnings`); 409 with the stored result when it was saved or changed "
        "meanwhile. With `Prefer: return=minimal` (RFC 7240) a stored result is answered "
        f"with its {', '.join(f'`{name}`' for name in MINIMAL_ANSWER)} only (and "
        "`Preference-Applied: return=minimal`): what a phone that shows the scores itself needs.",
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
                "Any game: Parcellus deal 1",
                value={
                    "entered_by": "Marcia Campbell",
                    "sides": [
                        {"seat": 1, "values": {"cards": 4, "parcels": 1}},
                        {"seat": 2, "values": {"cards": 7, "parcels": 3}},
                        {"seat": 3, "values": {"cards": 4, "parcels": 2}},
                    ],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Kalooki game 1, the first seat went out",
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
            ),
        ],
    )
    def put(self, request: Request, pk: int, number: int) -> Response:
        table = self.table(write=True)
        number = self.game_number(table)
        answer = self.idempotent(table, lambda: self.submit(table, number))
        return minimal(request, answer)

    def submit(self, table: Table, number: int) -> Response:
        data = self.input(ts.TableResultInput)
        if data.get("game", number) != number:
            raise exceptions.ValidationError(
                {"game": gettext("This address is deal {number}.").format(number=number)}
            )
        self.require_name(table, data["entered_by"], "entered_by", gettext("who is entering"))
        # The seats, read once under the table's lock; the tournament as read with the table.
        locked = services.table_lock(table, read_now=True)
        outcome = services.result_submit(
            table=locked,
            number=number,
            sides=side_inputs(locked.table, data["sides"], locked.rules),
            hands=hand_inputs(locked.table, data["hands"]),
            values=data["values"],
            down_and_out=data["down_and_out"],
            void=data["void"],
            by=self.access.user,
            via=self.access.via(data["entered_by"]),
            confirm_warnings=data["confirm_warnings"],
            base_version=data.get("version"),
            reason=data["reason"],
        )
        detail = deal_detail(table=locked.table, deal=outcome.deal, earlier=locked.deals)
        code = status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK
        return Response(shape(ts.TableGameOutput).answer(detail), code)


def _found(
    table: Table, items: list[dict[str, Any]], key: str, cited: str
) -> list[tuple[Seat, dict[str, Any]]]:
    """Each item's seat, found by seat or entry id; a 400 naming every item that finds none."""
    seats = table_seats(table)
    by_position = {seat.position: seat for seat in seats}
    if any(seat.entry.team_name for seat in seats):  # partner 2 sits opposite (HF1.2)
        by_position |= {seat.position + len(seats): seat for seat in seats}
    by_entry = {seat.entry_id: seat for seat in seats}
    errors: dict[str, str] = {}
    taken: dict[int, int] = {}
    found = []
    for index, item in enumerate(items):
        seat = by_position.get(item.get("seat")) or by_entry.get(item.get("entry"))
        problem = _seat_problem(table, item, seat, taken.get(seat.pk) if seat else None, cited)
        if problem:
            errors[f"{key}.{index}"] = problem.replace("{key}", key)
            continue
        taken[seat.pk] = index
        found.append((seat, item))
    if errors:
        raise exceptions.ValidationError(errors)
    return found


def side_inputs(
    table: Table, sides: list[dict[str, Any]], rules: Rules[Any]
) -> list[services.SideInput]:
    """The sides as the service takes them, each found by the seat or entry of one of its
    players (the service finds the side a seat belongs to)."""
    cited = f" ({rules.cites('table')})" if rules.cites("table") else ""
    return [
        services.SideInput(seat.entry_id, side["values"], tuple(side["members"]))
        for seat, side in _found(table, sides, "sides", cited)
    ]


def hand_inputs(table: Table, hands: list[dict[str, Any]]) -> list[services.HandInput]:
    """Kalooki's hands as the service takes them, each player found by seat or entry id."""
    return [
        _hand_input(seat.entry_id, hand) for seat, hand in _found(table, hands, "hands", " (R12.1)")
    ]


def _seat_problem(
    table: Table, item: dict[str, Any], seat: Seat | None, earlier: int | None, cited: str
) -> str:
    if seat is None:
        if item.get("seat") is not None:
            return gettext("{table} has no seat {seat}.").format(table=table, seat=item["seat"])
        return gettext("Entry {entry} is not seated at {table}{rule}.").format(
            entry=item["entry"], table=table, rule=cited
        )
    if earlier is not None:
        return gettext("{name} already has a result in {key}.{earlier}.").format(
            name=seat.entry.name, key="{key}", earlier=earlier
        )
    name = " ".join(item.get("player", "").split())
    if name and name.casefold() != seat.entry.name.casefold():
        return gettext("Seat {seat} is {name}, not {other}.").format(
            seat=seat.position, name=seat.entry.name, other=name
        )
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
        summary="Confirm a deal's result: someone other than the one who entered it",
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
        self.require_name(table, data["confirmed_by"], "confirmed_by", gettext("who confirms"))
        deal = services.deal_current(table=table, number=number)
        if deal is None:
            title = deal_title(table.round.tournament.rules(), number)
            raise Http404(
                gettext("{title} at {table} has no result to confirm yet.").format(
                    title=title, table=table
                )
            )
        deal = services.result_confirm(
            deal=deal,
            by=self.access.user,
            via=self.access.via(data["confirmed_by"]),
            base_version=data.get("version"),
        )
        return Response(shape(ts.TableGameOutput).answer(deal_detail(table=table, deal=deal)))


class TableSignOffApi(TableApi):
    @extend_schema(
        operation_id="tables_sign_off",
        summary="Sign the finished match off: the game says it is over, every deal confirmed",
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
