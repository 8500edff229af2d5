"""The table's private page, `/t/<token>/`: what a scorekeeper's phone shows at the table.

Anyone holding the table's link (the QR code on its printed card) sees, read-only, the seats and
first dealer, the game being played now with its cards dealt, contract and dealer (R4, R4.3), and
the results so far. Reissuing a table's token revokes the old link: it no longer finds a table.

Terms
- current game: the first game of the set (1 to 9) without a scored result at the table. A void
  attempt (R9.2) scores nothing, so the same game is current again, redealt by the same dealer.
- running total: a player's total over the scored games up to and including one game (R8.6).

The page lives in the scoring app because it reads games and hand results, which tables (a lower
layer) may not import.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from scoring.models import Game, HandResult
from tables.models import Table
from tables.selectors import (
    GameLine,
    SeatLine,
    game_lines,
    seat_lines,
    seats_prefetch,
)


@dataclass(frozen=True)
class CurrentGame:
    """The game being played now, with who deals and who plays first (R4.3)."""

    line: GameLine  # number, cards dealt, contract and dealer
    attempt: int  # 2 after one void attempt (R9.2)
    first_player: SeatLine | None  # the dealer's left: the next seat clockwise


@dataclass(frozen=True)
class ScoreCell:
    score: int | None  # None: no result entered for this player
    running: int
    went_out: bool


@dataclass(frozen=True)
class GameResult:
    """One played game or void attempt at the table, a cell per seat in seat order."""

    number: int
    attempt: int
    is_void: bool
    down_and_out: bool
    is_pending: bool  # awaiting a second person's confirmation
    is_flagged: bool
    line: GameLine
    cells: list[ScoreCell]


@dataclass(frozen=True)
class TablePage:
    table: Table
    seats: list[SeatLine]
    games: list[GameLine]
    current: CurrentGame | None  # None once all nine games are scored
    results: list[GameResult]
    totals: list[int]
    games_scored: int

    @property
    def seat_totals(self) -> list[tuple[SeatLine, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def leaders(self) -> list[SeatLine]:
        """The players with the lowest total so far (R4.1: lowest wins the set)."""
        if not self.games_scored:
            return []
        low = min(self.totals)
        return [seat for seat, total in zip(self.seats, self.totals, strict=True) if total == low]


def table_page_get(*, token: str) -> TablePage:
    """The table with this private token and its set so far; `Table.DoesNotExist` if none.

    Four queries (table with round and tournament, seats with players, games, hands) for any
    number of games and players.
    """
    games = Prefetch(
        "games",
        queryset=Game.objects.order_by("number", "attempt").prefetch_related(
            Prefetch("hands", queryset=HandResult.objects.order_by("entry_id"))
        ),
    )
    table = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(seats_prefetch(), games)
        .get(access_token=token)
    )
    seats = seat_lines(table)
    lines = game_lines(seats, table.round.tournament.rules().games)
    played = list(table.games.all())
    results, totals = _results(played, seats, lines)
    scored = {game.number for game in played if not game.is_void}
    return TablePage(
        table=table,
        seats=seats,
        games=lines,
        current=_current(played, seats, lines, scored),
        results=results,
        totals=totals,
        games_scored=len(scored),
    )


def _current(
    played: list[Game], seats: list[SeatLine], lines: list[GameLine], scored: set[int]
) -> CurrentGame | None:
    line = next((line for line in lines if line.number not in scored), None)
    if line is None:
        return None
    voids = sum(1 for game in played if game.number == line.number and game.is_void)
    first_player = None
    if line.dealer is not None:
        first_player = seats[(seats.index(line.dealer) + 1) % len(seats)]
    return CurrentGame(line=line, attempt=voids + 1, first_player=first_player)


def _results(
    played: list[Game], seats: list[SeatLine], lines: list[GameLine]
) -> tuple[list[GameResult], list[int]]:
    """A row per game or void attempt, in order, with each seat's score and running total."""
    by_number = {line.number: line for line in lines}
    totals = [0] * len(seats)
    results = []
    for game in played:
        hands = {hand.entry_id: hand for hand in game.hands.all()}
        cells = []
        for i, seat in enumerate(seats):
            hand = None if game.is_void else hands.get(seat.entry_id)
            totals[i] += hand.total if hand else 0
            cells.append(
                ScoreCell(
                    score=hand.total if hand else None,
                    running=totals[i],
                    went_out=bool(hand and hand.went_out),
                )
            )
        results.append(
            GameResult(
                number=game.number,
                attempt=game.attempt,
                is_void=game.is_void,
                down_and_out=game.down_and_out,
                is_pending=game.status == Game.Status.PENDING,
                is_flagged=game.is_flagged,
                line=by_number[game.number],
                cells=cells,
            )
        )
    return results, list(totals)


@never_cache
def table_link(request: HttpRequest, token: str) -> HttpResponse:
    """The table's private page: seats, the game now being played, results so far."""
    try:
        page = table_page_get(token=token)
    except Table.DoesNotExist:
        raise Http404(
            "No table has this link. It may have been reissued: ask the director for the new one."
        ) from None
    response = render(request, "scoring/table_link.html", {"page": page})
    # The token is the key to the table: keep it out of Referer headers and search engines.
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
