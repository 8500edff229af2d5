"""The director's control room: calls for the director, flags cleared, tables behind the pace.

Terms
- call: a table asking for the director (`DirectorCall`), from the "Call the director" button of
  its page; **open** until a director answers it. A table has at most one open call: pressing
  again while it waits is the same call. **Waited**: from the call until now (or its answer).
- flag: a game saved over a warning (R10.6, R10.7). A director who has looked at it **clears**
  it with a reason, kept on the version it reviewed and in the audit log; the result is not
  changed (a wrong result is corrected instead, as a new version).
- pace: how many games a table should have scored by now. Two measures, the higher one counts
  (a table is behind when it is behind either): the **clock pace**, the nine games spread
  evenly over the table's time (its share of the time allowed that has run, times nine, rounded
  down: a table a whole game short of it is behind), and the **hall pace**, the median games
  scored by the round's other tables (rounded down). Without a clock, the hall pace alone. A
  table is **behind** when it has scored fewer games than the pace and has not finished its
  set; the **missing results** are the tables behind, longest
  silent first. **Silent since**: its last entry, else the clock's start, else the round's
  publication.
"""

from __future__ import annotations

import bisect
import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.clock import Clock, RoundClocks, round_clocks, round_minutes, warning_seconds
from scoring.matches import deal_title, said_title
from scoring.models import Deal, DirectorCall, ResultRevision
from scoring.selectors import TableProgress, round_progress, with_seats
from tables.models import Table
from tournament.models import Round
from tournament.services import audit_record

CALLABLE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE)


class ControlError(Exception):
    """A control-room step that cannot be taken; the message says why."""


# --- calls for the director ------------------------------------------------------------------


@dataclass(frozen=True)
class CallOutcome:
    call: DirectorCall
    created: bool  # False: the table was already waiting


def director_call(*, table: Table, via: str) -> CallOutcome:
    """The table asks for the director; while a call waits, pressing again is the same call."""
    round = Round.objects.get(pk=table.round_id)
    if round.status not in CALLABLE_ROUNDS:
        state = round.get_status_display().lower()
        raise ControlError(
            gettext("Round {number} is {state}: find the director in the hall.").format(
                number=round.number, state=state
            )
        )
    waiting = _open_call(table)
    if waiting is not None:
        return CallOutcome(waiting, False)
    try:
        with transaction.atomic():
            call = DirectorCall.objects.create(table=table, called_via=via[:120])
    except IntegrityError:  # another phone at the table called at the same moment
        return CallOutcome(_open_call(table) or DirectorCall(table=table), False)
    return CallOutcome(call, True)


def _open_call(table: Table) -> DirectorCall | None:
    return DirectorCall.objects.filter(table=table, answered_at__isnull=True).first()


def call_open_get(*, table: Table) -> DirectorCall | None:
    """The table's call that waits for the director, if any (1 query)."""
    return _open_call(table)


@transaction.atomic
def director_call_answer(*, call: DirectorCall, by: AbstractBaseUser) -> DirectorCall:
    """The director is on the way (or there): the call is answered, once."""
    answered = DirectorCall.objects.filter(pk=call.pk, answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=by
    )
    call = DirectorCall.objects.select_related("table__round__tournament", "answered_by").get(
        pk=call.pk
    )
    if not answered:
        who = call.answered_by.get_username() if call.answered_by else "a director"
        raise ControlError(
            gettext(
                "Table {number}'s call was answered already by {who} at {localtime:%H:%M}."
            ).format(
                number=call.table.number, who=who, localtime=timezone.localtime(call.answered_at)
            )
        )
    table = call.table
    audit_record(
        tournament=table.round.tournament,
        actor=by,
        action="call.answer",
        summary=f"Round {table.round.number}: answered table {table.number}'s call, "
        f"waited {waited_words(call.answered_at - call.called_at)}",
        detail={"round": table.round.number, "table": table.number, "call": call.pk},
    )
    return call


@dataclass(frozen=True)
class WaitingCall:
    id: int
    table_id: int
    table_number: int
    called_at: datetime.datetime
    called_via: str
    waited: datetime.timedelta

    @property
    def waited_words(self) -> str:
        return waited_words(self.waited)


def calls_waiting(*, round: Round, now: datetime.datetime | None = None) -> list[WaitingCall]:
    """The round's calls that wait for the director, longest waiting first (1 query)."""
    now = now or timezone.now()
    calls = DirectorCall.objects.filter(table__round=round, answered_at__isnull=True).order_by(
        "called_at", "id"
    )
    return [
        WaitingCall(id, table_id, number, at, via, max(datetime.timedelta(0), now - at))
        for id, table_id, number, at, via in calls.values_list(
            "pk", "table_id", "table__number", "called_at", "called_via"
        )
    ]


def waited_words(waited: datetime.timedelta) -> str:
    """ "45 s", "3 min 05 s", "1 h 02 min"."""
    seconds = max(0, int(waited.total_seconds()))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    return f"{minutes // 60} h {minutes % 60:02d} min"


# --- flags -------------------------------------------------------------------------------------


@transaction.atomic
def deal_flag_clear(*, deal: Deal, by: AbstractBaseUser, reason: str) -> Deal:
    """The director looked at a flagged deal's warnings and finds the result right: the flag is
    cleared, with the reason, on the version reviewed. The result itself does not change."""
    reason = " ".join(reason.split())[:300]
    if not reason:
        raise ControlError(
            gettext("Say why the flag is cleared: the reason is kept with the result.")
        )
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .get(pk=deal.pk)
    )
    title = deal_title(deal.table.round.tournament.rules(), deal.number)
    if not deal.is_flagged:
        raise ControlError(
            gettext("{title} at {table} is not flagged (any more).").format(
                title=said_title(title), table=deal.table
            )
        )
    revision = deal.revisions.get(version=deal.version)
    revision.reviewed_by, revision.reviewed_at = by, timezone.now()
    revision.review_reason = reason
    revision.save(update_fields=["reviewed_by", "reviewed_at", "review_reason"])
    # An update, not save(): a cleared flag is no new entry (the dashboard's "last entry").
    Deal.objects.filter(pk=deal.pk).update(is_flagged=False)
    _audit_clear(deal, title, by, reason)
    deal.is_flagged = False
    return deal


def _audit_clear(deal: Deal, title: str, by: AbstractBaseUser, reason: str) -> None:
    table = deal.table
    audit_record(
        tournament=table.round.tournament,
        actor=by,
        action="game.flag_clear",  # the action's name from before deals: the log reads alike
        summary=f"Round {table.round.number}, table {table.number}, {title.lower()} "
        f"(version {deal.version}): flag cleared: {reason}",
        detail={
            "round": table.round.number,
            "table": table.number,
            "deal": deal.number,
            "version": deal.version,
            "warnings": deal.warnings,
            "reason": reason,
        },
    )


def reviews_of(*, table: Table) -> dict[tuple[int, int], ResultRevision]:
    """The reviewed versions of the table's deals, by (deal id, version) (1 query)."""
    reviewed = ResultRevision.objects.filter(
        deal__table=table, reviewed_at__isnull=False
    ).select_related("reviewed_by")
    return {(revision.deal_id, revision.version): revision for revision in reviewed}


# --- missing results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MissingResult:
    """A table behind the round's pace."""

    table: TableProgress
    pace: int
    silent_since: datetime.datetime | None
    silent: datetime.timedelta

    @property
    def games_behind(self) -> int:
        return self.pace - self.table.games_scored

    @property
    def silent_words(self) -> str:
        return waited_words(self.silent)


def clock_pace(clock: Clock, games_in_set: int | None) -> int | None:
    """Deals a table should have scored by now, spread evenly over its time; None unclocked,
    or for a match to a target score (it has no count of deals to spread)."""
    if games_in_set is None:
        return None
    if not clock.is_started:
        return None
    return int(games_in_set * clock.fraction_elapsed)


def hall_pace(tables: list[TableProgress], table: TableProgress) -> int | None:
    """The median games scored at the round's other tables; None for a table alone."""
    return hall_paces(tables)[table.id]


def hall_paces(tables: list[TableProgress]) -> dict[int, int | None]:
    """`hall_pace` of every table, from one sorted list (not one list per table): the median
    of the others is the median of all with the table's own count taken out."""
    counts = sorted(table.games_scored for table in tables)
    paces: dict[int, int | None] = {}
    for table in tables:
        if len(counts) < 2:
            paces[table.id] = None
            continue
        mine = bisect.bisect_left(counts, table.games_scored)
        paces[table.id] = int(_median_without(counts, mine))
    return paces


def _median_without(counts: list[int], index: int) -> float:
    """The median of the sorted `counts` with the one at `index` left out."""
    size = len(counts) - 1

    def at(position: int) -> int:
        return counts[position + (position >= index)]

    middle = size // 2
    return at(middle) if size % 2 else (at(middle - 1) + at(middle)) / 2


def missing_results(
    *,
    tables: list[TableProgress],
    clocks: RoundClocks,
    since: datetime.datetime | None,
    now: datetime.datetime | None = None,
) -> list[MissingResult]:
    """The tables behind the pace, longest silent first (no query). `since`: when the round
    was published, the silence of a table with no entry and no clock started."""
    now = now or timezone.now()
    missing = []
    halls = hall_paces(tables)
    for table in tables:
        clock = clocks.of(table.id)
        paces = (clock_pace(clock, table.games_in_set), halls[table.id])
        pace = max((pace for pace in paces if pace is not None), default=0)
        if table.is_finished or table.signed_off_at or table.games_scored >= pace:
            continue
        quiet = table.last_entry_at or clock.started_at or since
        silent = now - quiet if quiet else datetime.timedelta(0)
        missing.append(MissingResult(table, pace, quiet, max(silent, datetime.timedelta(0))))
    return sorted(missing, key=lambda line: (-line.silent, line.table.number))


TABLES_PER_PAGE = 25  # the dashboard's list of every table, a page at a time
MISSING_SHOWN = 20  # the longest silent tables; the count says how many more


def control_room(*, round: Round, page: int = 1) -> dict[str, Any]:
    """What the round's dashboard shows beside the standings (5 queries, 6 for a game of
    partners, whatever the round's size): the calls waiting, the clocks, the missing results
    (the longest silent first), the tables needing attention (a result to confirm, a flag, a
    call, a finished match to sign off) and `page` of every table's progress and sign-off.
    Only the tables shown have their seats read."""
    now = timezone.now()
    tables = round_progress(round=round, seated=False)
    clocks = round_clocks(round_id=round.pk, now=now)
    missing = missing_results(tables=tables, clocks=clocks, since=round.published_at, now=now)
    calls = calls_waiting(round=round, now=now)
    attention = _needing_attention(tables, {call.table_number for call in calls})
    pages = max(1, -(-len(tables) // TABLES_PER_PAGE))
    page = min(max(page, 1), pages)
    shown = tables[(page - 1) * TABLES_PER_PAGE : page * TABLES_PER_PAGE]
    attention, more = attention[:TABLES_PER_PAGE], max(len(attention) - TABLES_PER_PAGE, 0)
    seated = {table.id: table for table in with_seats(list({*attention, *shown}))}
    return {
        "tables": tables,
        "calls": calls,
        "clock": clocks.round,
        "attention_rows": [(seated[t.id], clocks.of(t.id)) for t in attention],
        "attention_more": more,
        "table_rows": [(seated[t.id], clocks.of(t.id)) for t in shown],
        "table_page": page,
        "table_pages": pages,
        "missing": missing[:MISSING_SHOWN],
        "missing_more": max(len(missing) - MISSING_SHOWN, 0),
        "default_minutes": round_minutes(round.tournament.rules()),
        "now": now,
    }


def _needing_attention(tables: list[TableProgress], calling: set[int]) -> list[TableProgress]:
    """The tables the director should look at: calling, a result to confirm, a flagged result
    (R10.6, R10.7), or a finished match not signed off yet (R12.4)."""
    return [
        table
        for table in tables
        if table.number in calling
        or table.pending
        or table.flagged
        or (table.is_finished and not table.signed_off_at)
    ]


@dataclass(frozen=True)
class TableLive:
    """What the table's page shows of the control room: its clock and its call."""

    token: str
    clock: Clock
    call: DirectorCall | None
    stamp: str  # changes with a clock event or a call: the ETag of the page's live part
    warn_seconds: int = 0  # the game's warning before time (HF2.2), 0 for none
    warn_rule: str = ""

    @property
    def waited_words(self) -> str:
        return waited_words(timezone.now() - self.call.called_at) if self.call else ""


def table_live_get(*, table: Table) -> TableLive:
    """The table's clock and open call (2 queries)."""
    clocks = round_clocks(round_id=table.round_id)
    call = call_open_get(table=table)
    stamp = f"{clocks.stamp}.{call.pk if call else 0}"
    rules = table.round.tournament.rules()
    return TableLive(
        table.access_token,
        clocks.of(table.pk),
        call,
        stamp,
        warn_seconds=warning_seconds(rules),
        warn_rule=rules.cites("warning"),
    )
