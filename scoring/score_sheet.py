"""The score sheet of one table, as the table's link page and the director's table page show it.

Terms
- current game: the first game of the set without a scored result at the table. A void attempt
  (R9.2) scores nothing, so the same game is current again, redealt by the same dealer.
- running total: a player's total over the scored games up to and including one game (R8.6).
- version: every save of a game's result is a numbered revision; a correction is based on the
  version its author saw, so a correction saved meanwhile is never overwritten (a conflict).

`table_page_get` reads the whole sheet (seats, games with their hands and every version) with a
fixed number of queries, whatever the number of games played.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from games.kalooki import Ruleset
from scoring.models import Game, HandResult, ResultRevision
from scoring.services import CORRECTABLE_ROUNDS, SCOREABLE_ROUNDS
from tables.models import Table
from tables.selectors import GameLine, SeatLine, game_lines, seat_lines, seats_prefetch


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
    name: str = ""  # the seated player's
    cards: str = ""  # as entered (R11), when cards were entered
    calls: int | None = None


@dataclass(frozen=True)
class VersionLine:
    """One saved version of a game's result: who, when, why, and what it changed."""

    version: int
    status: str  # "Confirmed", "Awaiting confirmation", "Superseded"
    entered_by: str
    entered_at: datetime.datetime
    reason: str
    changes: list[str]
    confirmed_by: str
    confirmed_at: datetime.datetime | None


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
    game_id: int = 0
    version: int = 1
    warnings: tuple[str, ...] = ()
    history: tuple[VersionLine, ...] = ()
    entry: dict[str, Any] | None = None  # the latest version as submitted, hands by entry id

    @property
    def latest(self) -> VersionLine | None:
        return self.history[-1] if self.history else None


@dataclass(frozen=True)
class TablePage:
    table: Table
    seats: list[SeatLine]
    games: list[GameLine]
    current: CurrentGame | None  # None once all nine games are scored
    results: list[GameResult]
    totals: list[int]
    games_scored: int
    ruleset: Ruleset  # the tournament's own (R1-R12)

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

    @property
    def is_signed_off(self) -> bool:
        return self.table.is_signed_off()

    @property
    def is_open(self) -> bool:
        """Results may be entered and corrected: the round is in play and the set not signed off
        (a complete round may still be corrected until the director locks it, R12.4)."""
        return not self.is_signed_off and self.table.round.status in CORRECTABLE_ROUNDS

    @property
    def takes_new_results(self) -> bool:
        scoreable = self.table.round.status in SCOREABLE_ROUNDS
        return scoreable and not self.is_signed_off and self.current is not None

    @property
    def pending(self) -> list[GameResult]:
        return [result for result in self.results if result.is_pending]

    @property
    def can_sign_off(self) -> bool:
        return self.is_open and self.current is None and not self.pending

    def scored(self, number: int) -> GameResult | None:
        """The scored (not void) result of game `number`, if there is one."""
        return next((r for r in self.results if r.number == number and not r.is_void), None)


def table_page_get(*, token: str) -> TablePage:
    """The table with this private token and its set so far; `Table.DoesNotExist` if none.

    Five queries (table with round and tournament, seats with players, games, hands, versions)
    for any number of games and players.
    """
    revisions = ResultRevision.objects.order_by("version").select_related(
        "entered_by", "confirmed_by"
    )
    games = Prefetch(
        "games",
        queryset=Game.objects.order_by("number", "attempt").prefetch_related(
            Prefetch("hands", queryset=HandResult.objects.order_by("entry_id")),
            Prefetch("revisions", queryset=revisions),
        ),
    )
    table = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(seats_prefetch(), games)
        .get(access_token=token)
    )
    seats = seat_lines(table)
    ruleset = table.round.tournament.rules().ruleset
    lines = game_lines(seats, ruleset.games)
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
        ruleset=ruleset,
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
            cells.append(_cell(seat, hand, totals[i]))
        revisions = list(game.revisions.all())
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
                game_id=game.pk,
                version=game.version,
                warnings=tuple(w.get("message", "") for w in game.warnings or []),
                history=_history(revisions),
                entry=revisions[-1].entry if revisions else None,
            )
        )
    return results, list(totals)


def _cell(seat: SeatLine, hand: HandResult | None, running: int) -> ScoreCell:
    if hand is None:
        return ScoreCell(score=None, running=running, went_out=False, name=seat.name)
    return ScoreCell(
        score=hand.total,
        running=running,
        went_out=hand.went_out,
        name=seat.name,
        cards=hand.cards,
        calls=hand.calls,
    )


# --- history: what each version changed ---------------------------------------------------------

HAND_FIELDS = (
    ("went_out", "went out"),
    ("cards", "cards"),
    ("points", "points"),
    ("calls", "calls"),
    ("failed_come_downs", "failed come-downs"),
    ("overcall_penalty", "overcall penalty"),
)


def _history(revisions: list[ResultRevision]) -> tuple[VersionLine, ...]:
    lines = []
    for before, after in zip([None, *revisions], revisions, strict=False):
        lines.append(
            VersionLine(
                version=after.version,
                status=after.get_status_display(),
                entered_by=_who(after.entered_via, after.entered_by),
                entered_at=after.entered_at,
                reason=after.reason,
                changes=_changes(before, after),
                confirmed_by=_who(after.confirmed_via, after.confirmed_by)
                if after.confirmed_at
                else "",
                confirmed_at=after.confirmed_at,
            )
        )
    return tuple(lines)


def _who(via: str, user: Any) -> str:
    name = user.get_username() if user is not None else ""
    return via if not name or name in via else f"{via} ({name})"


def _changes(before: ResultRevision | None, after: ResultRevision) -> list[str]:
    """What `after` changed from `before`, one line per player: "Ben: cards KH → 3C, 10 → 3"."""
    if before is None:
        return [_summary(after)]
    changes = []
    if bool(before.entry.get("down_and_out")) != bool(after.entry.get("down_and_out")):
        changes.append(
            f"down and out: {_word(before.entry.get('down_and_out'))} → "
            f"{_word(after.entry.get('down_and_out'))}"
        )
    old_hands = {_hand_key(h): h for h in before.entry.get("hands", [])}
    old_totals, new_totals = _totals(before), _totals(after)
    for hand in after.entry.get("hands", []):
        old = old_hands.get(_hand_key(hand), {})
        parts = [
            f"{words} {_word(old.get(key))} → {_word(hand.get(key))}"
            for key, words in HAND_FIELDS
            if _norm(old.get(key)) != _norm(hand.get(key))
        ]
        player = hand.get("player", "?")
        if old_totals.get(player) != new_totals.get(player):
            parts.append(f"score {old_totals.get(player, '–')} → {new_totals.get(player, '–')}")
        if parts:
            changes.append(f"{player}: {', '.join(parts)}")
    return changes or ["nothing in the result changed"]


def _summary(revision: ResultRevision) -> str:
    if revision.entry.get("void"):
        return "entered as void (R9.2)"
    totals = ", ".join(f"{player} {total}" for player, total in _totals(revision).items())
    return f"entered: {totals}" if totals else "entered"


def _totals(revision: ResultRevision) -> dict[str, int]:
    return {score["player"]: score["total"] for score in revision.scores or []}


def _hand_key(hand: dict[str, Any]) -> Any:
    return hand.get("entry", hand.get("entry_id", hand.get("player")))


def _norm(value: Any) -> Any:
    return " ".join(value.upper().split()) if isinstance(value, str) else value or None


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "–"
    return str(value)


# --- the views ------------------------------------------------------------------------------------
