"""The round clock: how long the tables of a round have to play their set, and how long is left.

Terms
- clock event: one step the director takes (`ClockEvent`), kept for good so that the clock
  survives a restart and can be told again from its events: the round's clock is **started**
  with the minutes it gives the round, **paused** and **resumed** (a fire alarm, a long dispute)
  and **extended** by some minutes. A table's own events pause, resume or extend only its clock
  (a table that started late is extended by the minutes it lost).
- a table's clock: the round's, plus the table's own events. It runs while the round's clock
  runs and the table's is not paused; the time it is allowed is the round's minutes, every
  extension of the round and every extension of the table.
- elapsed: the running time so far; left: allowed less elapsed, never below zero; **over**: the
  running time reached the time allowed (overtime is what ran past it).
- state: `not_started`, `running`, `paused` or `over`.

Writes take the round's row lock, so two clicks of the director's are served one after the
other; each is refused with the reason when it makes no sense (`ClockError`) and kept in the
tournament's audit log. Reads fold the round's events in one query (`round_clocks`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.base import Rules
from scoring.models import ClockEvent
from tables.models import Table
from tournament.models import Round
from tournament.services import audit_record

Kind = ClockEvent.Kind
DEFAULT_MINUTES = 120  # nine games of about thirteen minutes (R4.1)
MAX_MINUTES = 600  # the database refuses more in one event
CLOCKED_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


def round_minutes(rules: Rules[Any]) -> int:
    """The minutes a round's clock starts with unless the director says otherwise: the game's
    time allowed (Hand and Foot's 90, HF2.2), else DEFAULT_MINUTES."""
    return rules.schedule().minutes or DEFAULT_MINUTES


def warning_seconds(rules: Rules[Any]) -> int:
    """How long before time is up the clock warns the tables (Hand and Foot's 15 minutes,
    HF2.2); 0 for a game that gives no warning."""
    return (rules.schedule().warning_minutes or 0) * 60


class ClockError(Exception):
    """A clock step that cannot be taken now; the message says why."""


# --- reading the clock ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    """One clock as it stands at `now`: the round's, or one table's."""

    state: str
    allowed_seconds: int
    elapsed_seconds: int
    started_at: datetime.datetime | None
    table_extra_minutes: int = 0  # the table's own extensions
    table_paused: bool = False  # paused for this table alone

    @property
    def left_seconds(self) -> int:
        return max(0, self.allowed_seconds - self.elapsed_seconds)

    @property
    def overtime_seconds(self) -> int:
        return max(0, self.elapsed_seconds - self.allowed_seconds)

    @property
    def fraction_elapsed(self) -> float:
        """How much of the time allowed has run, 0 before the start, 1 at the end and after."""
        if not self.allowed_seconds:
            return 0.0
        return min(1.0, self.elapsed_seconds / self.allowed_seconds)

    @property
    def is_started(self) -> bool:
        return self.state != "not_started"

    @property
    def left_words(self) -> str:
        """ "1:05:09 left", "Time is up", as the pages print it before a script ticks it."""
        if self.state == "not_started":
            return gettext("Not started")
        if self.state == "over":
            return gettext("Time is up")
        return gettext("{time} left").format(time=clock_text(self.left_seconds))


def clock_text(seconds: int) -> str:
    """1:05:09, or 5:09 under an hour."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


NOT_STARTED = Clock("not_started", 0, 0, None)


@dataclass
class _Sweep:
    """The clock told event by event, oldest first."""

    allowed: int = 0
    elapsed: float = 0.0
    started_at: datetime.datetime | None = None
    round_running: bool = False
    table_paused: bool = False
    table_extra: int = 0
    last: datetime.datetime | None = None

    def step(self, event: ClockEvent) -> None:
        self._run_until(event.at)
        own = event.table_id is not None
        if event.kind == Kind.START:
            self.allowed, self.started_at, self.round_running = event.minutes * 60, event.at, True
        elif event.kind == Kind.EXTEND:
            self.allowed += event.minutes * 60
            self.table_extra += event.minutes if own else 0
        elif own:
            self.table_paused = event.kind == Kind.PAUSE
        else:
            self.round_running = event.kind == Kind.RESUME

    def _run_until(self, at: datetime.datetime) -> None:
        if self.last is not None and self.round_running and not self.table_paused:
            self.elapsed += max(0.0, (at - self.last).total_seconds())
        self.last = at if self.last is None else max(self.last, at)

    def clock(self, now: datetime.datetime) -> Clock:
        self._run_until(now)
        if self.started_at is None:
            return NOT_STARTED
        elapsed = int(self.elapsed)
        running = self.round_running and not self.table_paused
        state = "over" if elapsed >= self.allowed else "running" if running else "paused"
        return Clock(
            state, self.allowed, elapsed, self.started_at, self.table_extra, self.table_paused
        )


def clock_of(events: Iterable[ClockEvent], now: datetime.datetime) -> Clock:
    """The clock that `events` (the round's, and perhaps one table's) tell at `now`."""
    sweep = _Sweep()
    for event in sorted(events, key=lambda event: (event.at, event.pk or 0)):
        if event.at <= now:
            sweep.step(event)
    return sweep.clock(now)


@dataclass(frozen=True)
class RoundClocks:
    """The round's clock and each table's, from the round's events read once."""

    round: Clock
    tables: dict[int, Clock] = field(default_factory=dict)  # only tables with events of their own
    stamp: str = "0"  # changes whenever an event is added: for ETags

    def of(self, table_id: int) -> Clock:
        return self.tables.get(table_id, self.round)


def round_clocks(*, round_id: int, now: datetime.datetime | None = None) -> RoundClocks:
    """Every clock of the round (1 query)."""
    now = now or timezone.now()
    events = list(ClockEvent.objects.filter(round_id=round_id).order_by("at", "id"))
    own = [event for event in events if event.table_id is None]
    tables = {event.table_id for event in events if event.table_id is not None}
    return RoundClocks(
        round=clock_of(own, now),
        tables={
            table: clock_of([e for e in events if e.table_id in (None, table)], now)
            for table in tables
        },
        stamp=f"{len(events)}.{max((e.pk for e in events), default=0)}",
    )


# --- the director's steps ------------------------------------------------------------------------


@transaction.atomic
def clock_start(*, round: Round, minutes: int, by: AbstractBaseUser | None) -> ClockEvent:
    """Start the round's clock with the minutes it gives the tables to play their set."""
    round = _held(round)
    _check_minutes(minutes)
    if _clock(round).is_started:
        raise ClockError(
            gettext("Round {number}'s clock is running already: extend it instead.").format(
                number=round.number
            )
        )
    return _record(round, None, Kind.START, minutes, by, "")


@transaction.atomic
def clock_pause(
    *, round: Round, table: Table | None = None, by: AbstractBaseUser | None, reason: str = ""
) -> ClockEvent:
    """Stop the round's clock, or one table's, until it is resumed."""
    round = _held(round)
    clock = _started(round, table)
    if _paused(clock, table):
        raise ClockError(
            gettext("{clock} is paused already.").format(clock=_whose_clock(round, table))
        )
    if clock.state == "over":
        raise ClockError(
            gettext("{time} is up: extend it instead of pausing.").format(
                time=_whose_time(round, table)
            )
        )
    return _record(round, table, Kind.PAUSE, 0, by, reason)


@transaction.atomic
def clock_resume(
    *, round: Round, table: Table | None = None, by: AbstractBaseUser | None
) -> ClockEvent:
    round = _held(round)
    clock = _started(round, table)
    if not _paused(clock, table):
        raise ClockError(gettext("{clock} is not paused.").format(clock=_whose_clock(round, table)))
    return _record(round, table, Kind.RESUME, 0, by, "")


@transaction.atomic
def clock_extend(
    *,
    round: Round,
    table: Table | None = None,
    minutes: int,
    by: AbstractBaseUser | None,
    reason: str = "",
) -> ClockEvent:
    """Give the round, or one table (one that started late), more minutes."""
    round = _held(round)
    _check_minutes(minutes)
    _started(round, table)
    return _record(round, table, Kind.EXTEND, minutes, by, reason)


def _held(round: Round) -> Round:
    """The round's row, locked until the step is saved; refused if it is not being played."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if round.status not in CLOCKED_ROUNDS:
        state = round.get_status_display().lower()
        raise ClockError(
            gettext(
                "Round {number} is {state}: the clock runs while a round is published or in play."
            ).format(number=round.number, state=state)
        )
    return round


def _clock(round: Round, table: Table | None = None) -> Clock:
    clocks = round_clocks(round_id=round.pk)
    return clocks.round if table is None else clocks.of(table.pk)


def _started(round: Round, table: Table | None) -> Clock:
    if table is not None and table.round_id != round.pk:
        raise ClockError(
            gettext("{table} is not a table of round {number}.").format(
                table=table, number=round.number
            )
        )
    clock = _clock(round, table)
    if not clock.is_started:
        raise ClockError(
            gettext("Round {number}'s clock has not started: start it first.").format(
                number=round.number
            )
        )
    return clock


def _paused(clock: Clock, table: Table | None) -> bool:
    if table is None:
        return clock.state == "paused" and not clock.table_paused
    return clock.table_paused


def _whose_clock(round: Round, table: Table | None) -> str:
    if table is not None:
        return gettext("Table {number}'s clock").format(number=table.number)
    return gettext("Round {number}'s clock").format(number=round.number)


def _whose_time(round: Round, table: Table | None) -> str:
    if table is not None:
        return gettext("Table {number}'s time").format(number=table.number)
    return gettext("Round {number}'s time").format(number=round.number)


def _check_minutes(minutes: int) -> None:
    if not 1 <= minutes <= MAX_MINUTES:
        raise ClockError(
            gettext("Give between 1 and {max_minutes} minutes (you gave {minutes}).").format(
                max_minutes=MAX_MINUTES, minutes=minutes
            )
        )


WORDS = {Kind.START: "started", Kind.PAUSE: "paused", Kind.RESUME: "resumed"}


def _record(
    round: Round,
    table: Table | None,
    kind: str,
    minutes: int,
    by: AbstractBaseUser | None,
    reason: str,
) -> ClockEvent:
    user = by if by is not None and by.is_authenticated else None
    reason = " ".join(reason.split())[:200]
    event = ClockEvent.objects.create(
        round=round, table=table, kind=kind, minutes=minutes, by=user, reason=reason
    )
    what = f"extended by {minutes} min" if kind == Kind.EXTEND else WORDS[kind]
    if kind == Kind.START:
        what += f" with {minutes} min"
    where = f"table {table.number}'s clock" if table is not None else "clock"
    audit_record(
        tournament=round.tournament,
        actor=by,
        action=f"clock.{kind}",
        summary=f"Round {round.number}: {where} {what}" + (f" ({reason})" if reason else ""),
        detail={"round": round.number, "table": table.number if table else None, "min": minutes},
    )
    return event
