"""The score sheet of one table, as the table's link page and the director's table page show it.

Terms
- current deal: the deal the game says comes next (``Rules.next_deal``); after a void attempt
  (Kalooki R9.2) the same deal is current again, redealt by the same dealer. None once the match
  is over.
- running total: a side's total over the scored deals up to and including one deal (Kalooki
  R8.6); every seat of a side shows its side's numbers.
- entered: what was entered for a side, in words, from the game's fields ("KH 9S · 2 calls").
- version: every save of a deal's result is a numbered revision; a correction is based on the
  version its author saw, so a correction saved meanwhile is never overwritten (a conflict).

`table_page_get` reads the whole sheet (seats, deals with their results and every version) with
a fixed number of queries, whatever the number of deals played.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from games.base import DealScore, Field, FieldKind, Rules
from scoring.matches import deal_noun, deal_title, match_noun, played, sides_of
from scoring.models import Deal, DealResult, ResultRevision
from scoring.services import CORRECTABLE_ROUNDS, SCOREABLE_ROUNDS
from tables.models import Table
from tables.selectors import (
    DealLine,
    SeatLine,
    deal_lines,
    schedule_numbers,
    seat_lines,
    seats_prefetch,
)


@dataclass(frozen=True)
class CurrentGame:
    """The deal being played now, with who deals and who plays first (Kalooki R4.3)."""

    line: DealLine  # number, title, what is dealt and the dealer
    attempt: int  # 2 after one void attempt (R9.2)
    first_player: SeatLine | None  # the dealer's left: the next seat clockwise


@dataclass(frozen=True)
class ScoreCell:
    score: int | None  # None: no result entered for this seat's side
    running: int
    went_out: bool
    name: str = ""  # the seated player's
    entered: str = ""  # what was entered for the side, in words


@dataclass(frozen=True)
class VersionLine:
    """One saved version of a deal's result: who, when, why, and what it changed."""

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
    """One played deal or void attempt at the table, a cell per seat in seat order."""

    number: int
    title: str  # "Game 3", "Hand 2", "Deal 4"
    attempt: int
    is_void: bool
    down_and_out: bool  # Kalooki's R8.3, as the game reported it
    is_pending: bool  # awaiting a second person's confirmation
    is_flagged: bool
    line: DealLine
    cells: list[ScoreCell]
    game_id: int = 0
    version: int = 1
    warnings: tuple[str, ...] = ()
    history: tuple[VersionLine, ...] = ()
    entry: dict[str, Any] | None = None  # the latest version as the game stored it

    @property
    def latest(self) -> VersionLine | None:
        return self.history[-1] if self.history else None


@dataclass(frozen=True)
class TablePage:
    table: Table
    seats: list[SeatLine]
    games: list[DealLine]  # the match's deals (for a match to a target: played and next)
    current: CurrentGame | None  # None once the match is over
    results: list[GameResult]
    totals: list[int]  # per seat: its side's total
    games_scored: int
    rules: Rules[Any]  # the tournament's game under its own ruleset
    leaders: list[SeatLine]  # the seats of the sides placed first so far
    played: list[DealScore]  # the deals as the game scored them, for the result form's checks

    @property
    def seat_totals(self) -> list[tuple[SeatLine, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def deal_noun(self) -> str:
        return deal_noun(self.rules)

    @property
    def deals_noun(self) -> str:
        return deal_noun(self.rules, 2)

    @property
    def match_noun(self) -> str:
        """ "set" (Kalooki), "game" (Hand and Foot), "match"."""
        return match_noun(self.rules)

    @property
    def schedule_words(self) -> str:
        return self.rules.schedule().words

    @property
    def higher_wins(self) -> bool:
        return self.rules.higher_wins

    @property
    def order_rule(self) -> str:
        return self.rules.cites("order")

    @property
    def is_signed_off(self) -> bool:
        return self.table.is_signed_off()

    @property
    def is_open(self) -> bool:
        """Results may be entered and corrected: the round is in play and the match not signed
        off (a complete round may still be corrected until the director locks it, R12.4)."""
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
        """The scored (not void) result of deal `number`, if there is one."""
        return next((r for r in self.results if r.number == number and not r.is_void), None)


def table_page_get(*, token: str) -> TablePage:
    """The table with this private token and its match so far; `Table.DoesNotExist` if none.

    Five queries (table with round and tournament, seats with players, deals, results,
    versions) for any number of deals and players.
    """
    revisions = ResultRevision.objects.order_by("version").select_related(
        "entered_by", "confirmed_by"
    )
    deals = Prefetch(
        "deals",
        queryset=Deal.objects.order_by("number", "attempt").prefetch_related(
            Prefetch("results", queryset=DealResult.objects.order_by("side")),
            Prefetch("revisions", queryset=revisions),
        ),
    )
    table = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(seats_prefetch(), deals)
        .get(access_token=token)
    )
    return table_sheet(table=table)


def table_sheet(*, table: Table) -> TablePage:
    """The sheet of a table read with its seats and deals prefetched (`table_page_get`)."""
    seats = seat_lines(table)
    rules = table.round.tournament.rules()
    stored = list(table.deals.all())
    scores = played(stored)
    scored = {deal.number for deal in stored if not deal.is_void}
    lines = deal_lines(seats, rules, schedule_numbers(rules, played=len(scored)))
    results, totals = _results(rules, stored, seats, lines)
    return TablePage(
        table=table,
        seats=seats,
        games=lines,
        current=_current(rules, stored, seats, scores, table.time_called),
        results=results,
        totals=totals,
        games_scored=len(scored),
        rules=rules,
        leaders=_leaders(rules, seats, scores) if scored else [],
        played=scores,
    )


def _leaders(rules: Rules[Any], seats: list[SeatLine], scores: list[Any]) -> list[SeatLine]:
    """The seats of the sides the game places first in the match so far."""
    results = rules.match_result(scores)
    sides = sides_of(rules, seats)
    return [seat for side, result in zip(sides, results, strict=False) if result.place == 1
            for seat in side]  # fmt: skip


def _current(
    rules: Rules[Any],
    stored: list[Deal],
    seats: list[SeatLine],
    scores: list[Any],
    time_called: bool = False,
) -> CurrentGame | None:
    number = rules.next_deal(scores, time_called=time_called)
    if number is None:
        return None
    line = deal_lines(seats, rules, [number])[0]
    voids = sum(1 for deal in stored if deal.number == number and deal.is_void)
    first_player = None
    if line.dealer is not None:
        first_player = seats[(seats.index(line.dealer) + 1) % len(seats)]
    return CurrentGame(line=line, attempt=voids + 1, first_player=first_player)


def _results(
    rules: Rules[Any], stored: list[Deal], seats: list[SeatLine], lines: list[DealLine]
) -> tuple[list[GameResult], list[int]]:
    """A row per deal or void attempt, in order, with each seat's score and running total."""
    by_number = {line.number: line for line in lines}
    sides = sides_of(rules, seats)
    side_of = {seat.entry_id: i for i, side in enumerate(sides) for seat in side}
    # A partner's place in the side (HF1.2): the member whose values are theirs alone.
    member_of = {seat.position: i for side in sides if len(side) > 1 for i, seat in enumerate(side)}
    totals = [0] * len(seats)
    results = []
    for deal in stored:
        by_side = {result.side: result for result in deal.results.all()}
        specs = rules.fields(deal.number)
        cells = []
        for i, seat in enumerate(seats):
            result = None if deal.is_void else by_side.get(side_of.get(seat.entry_id, -1))
            totals[i] += result.points if result else 0
            cells.append(_cell(seat, result, totals[i], specs, member_of.get(seat.position)))
        revisions = list(deal.revisions.all())
        line = by_number.get(deal.number) or deal_lines(seats, rules, [deal.number])[0]
        results.append(
            GameResult(
                number=deal.number,
                title=deal_title(rules, deal.number),
                attempt=deal.attempt,
                is_void=deal.is_void,
                down_and_out=deal.down_and_out,
                is_pending=deal.status == Deal.Status.PENDING,
                is_flagged=deal.is_flagged,
                line=line,
                cells=cells,
                game_id=deal.pk,
                version=deal.version,
                warnings=tuple(w.get("message", "") for w in deal.warnings or []),
                history=_history(revisions),
                entry=revisions[-1].entry if revisions else None,
            )
        )
    return results, list(totals)


def _cell(
    seat: SeatLine,
    result: DealResult | None,
    running: int,
    specs: Sequence[Field],
    member: int | None = None,
) -> ScoreCell:
    """A seat's line: its side's score; for a partner (`member`), the side's values and their
    own, and whether they went out themselves (HF5.2: one player goes out, not the team)."""
    if result is None:
        return ScoreCell(score=None, running=running, went_out=False, name=seat.name)
    members, went_out = result.members, result.went_out
    if member is not None and member < len(members):
        if any("went_out" in values for values in members):  # the game says who went out
            went_out = bool(members[member].get("went_out"))
        members = [members[member]]
    return ScoreCell(
        score=result.points,
        running=running,
        went_out=went_out,
        name=seat.name,
        entered=entered_words(specs, result.values, members),
    )


def entered_words(
    specs: Sequence[Field], values: Mapping[str, Any], members: Sequence[Mapping[str, Any]] = ()
) -> str:
    """What was entered for a side, in words, the game's fields in order: "KH 9S · 2 calls"."""
    words = [_words(spec, values.get(spec.name)) for spec in specs]
    for member in members:
        words += [_words(spec, member.get(spec.name)) for spec in specs]
    return " · ".join(word for word in words if word)


def _words(spec: Field, value: Any) -> str:
    if value is None or value == "" or spec.exclusive:
        return ""
    if spec.kind == FieldKind.CARDS:
        return str(value)
    if spec.kind == FieldKind.FLAG:
        return spec.label.lower() if value is True else ""
    if spec.kind == FieldKind.CHOICE:
        return dict(spec.choices).get(value, str(value))
    if value == spec.default:
        return ""
    return f"{value} {spec.label.lower()}"


# --- history: what each version changed ---------------------------------------------------------


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
    """What `after` changed from `before`, one line per side: "Ben: cards KH → 3C, score 10 →
    3"; the deal's own values first ("down and out: no → yes")."""
    if before is None:
        return [_summary(after)]
    old, new = before.entry or {}, after.entry or {}
    changes = _differences(old.get("values") or {}, new.get("values") or {})
    old_sides = {side.get("entry"): side for side in old.get("sides", [])}
    old_points, new_points = _points(before), _points(after)
    for side in new.get("sides", []):
        key = side.get("entry")
        was = old_sides.get(key, {})
        parts = _differences(was.get("values") or {}, side.get("values") or {})
        for m, member in enumerate(side.get("members") or []):
            old_members = was.get("members") or []
            previous = old_members[m] if m < len(old_members) else {}
            parts += _differences(previous, member)
        if old_points.get(key) != new_points.get(key):
            parts.append(f"score {_word(old_points.get(key))} → {_word(new_points.get(key))}")
        if parts:
            changes.append(f"{side.get('label', '?')}: {', '.join(parts)}")
    return changes or ["nothing in the result changed"]


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    names = [*new, *(name for name in old if name not in new)]
    return [
        f"{name.replace('_', ' ')} {_word(old.get(name))} → {_word(new.get(name))}"
        for name in names
        if _norm(old.get(name)) != _norm(new.get(name))
    ]


def _summary(revision: ResultRevision) -> str:
    scores = revision.scores if isinstance(revision.scores, dict) else {}
    if scores.get("void"):
        return "entered as void (R9.2)"
    labels = [side.get("label", "?") for side in (revision.entry or {}).get("sides", [])]
    points = [side.get("points") for side in scores.get("sides", [])]
    totals = ", ".join(f"{label} {p}" for label, p in zip(labels, points, strict=False))
    return f"entered: {totals}" if totals else "entered"


def _points(revision: ResultRevision) -> dict[Any, int]:
    """Each side's points in a version, by the side's entry id."""
    scores = revision.scores if isinstance(revision.scores, dict) else {}
    sides = (revision.entry or {}).get("sides", [])
    return {
        side.get("entry"): score.get("points")
        for side, score in zip(sides, scores.get("sides", []), strict=False)
    }


def _norm(value: Any) -> Any:
    return " ".join(value.upper().split()) if isinstance(value, str) else value or None


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "–"
    return str(value)


# --- the views ------------------------------------------------------------------------------------
