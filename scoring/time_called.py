"""Calling time: the end of a match played against the clock (Hand and Foot, HF2.2).

Terms
- **time called**: the director (for one table or every table of a round) or the table's
  scorekeeper records that the time is up. The match ends with the deals entered by then: no
  further deal is entered, and the game decides the match on those (HF2.2, HF10.1). A deal still
  in play is not scored; a director who lets a table finish its hand enters it before calling
  time at that table.
- A game that is not played against the clock (Kalooki's set of nine games, Parcellus to a
  target) has no time to call: the request is refused with the reason.

Each call is kept on the table (when, who) and in the tournament's audit log. A call made by
mistake is withdrawn by the director only, before the table signs its match off, and the log
keeps both.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.base import ScheduleKind
from scoring.matches import match_noun, progress, said_noun
from scoring.models import Deal
from scoring.selectors import matches_over
from scoring.standings_queue import standings_changed
from tables.models import Table
from tournament.models import Round
from tournament.services import audit_record

CALLABLE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


class TimeCallError(Exception):
    """Time cannot be called (or uncalled) now; the message says why and cites the rule."""


@transaction.atomic
def table_time_call(*, table: Table, by: AbstractBaseUser | None, via: str) -> Table:
    """Time is called at `table`: its match ends with the deals entered (HF2.2)."""
    table = _held(table)
    _check_callable(table)
    if table.time_called:
        raise TimeCallError(
            gettext("Time was already called at {table} ({rule}).").format(
                table=table, rule=_rule(table)
            )
        )
    _call(table, via)
    _audit(table, by, "time.call", f"time called after {_played(table)} (by {via})")
    return table


@transaction.atomic
def round_time_call(*, round: Round, by: AbstractBaseUser | None, via: str) -> list[Table]:
    """Time is called at every table of `round` still playing (the director's call, HF2.2);
    returns the tables it ended."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    tables = list(round.tables.select_related("round__tournament").order_by("number"))
    if tables:
        _check_timed(tables[0])
    _check_round(round)
    over = matches_over(rules=round.tournament.rules(), tables=tables) if tables else set()
    called = [t for t in tables if not (t.time_called or t.is_signed_off() or t.pk in over)]
    for table in called:
        _call(table, via)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="time.call_round",
        summary=f"Round {round.number}: time called at {len(called)} tables ({_rule(tables[0])})"
        if tables
        else f"Round {round.number}: time called (no tables)",
        detail={"round": round.number, "tables": [t.number for t in called]},
    )
    return called


@transaction.atomic
def table_time_uncall(*, table: Table, by: AbstractBaseUser | None, reason: str) -> Table:
    """The director withdraws a time call made by mistake; the table plays on."""
    table = _held(table)
    reason = " ".join(reason.split())
    if not table.time_called:
        raise TimeCallError(
            gettext("Time has not been called at {table}: there is nothing to withdraw.").format(
                table=table
            )
        )
    if table.is_signed_off():
        raise TimeCallError(
            gettext("{table} signed its {match} off: only a ruling changes it now.").format(
                table=table, match=said_noun(match_noun(table.round.tournament.rules()))
            )
        )
    if not reason:
        raise TimeCallError(
            gettext("Say why the time call is withdrawn: it is kept in the audit log.")
        )
    table.time_called_at, table.time_called_by = None, ""
    table.save(update_fields=["time_called_at", "time_called_by"])
    standings_changed(table.round.tournament_id)
    _audit(table, by, "time.uncall", f"time call withdrawn: {reason[:200]}")
    return table


def _held(table: Table) -> Table:
    return Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)


def _rule(table: Table) -> str:
    return table.round.tournament.rules().cites("order") or "HF2.2"


def _check_timed(table: Table) -> None:
    rules = table.round.tournament.rules()
    if rules.schedule().kind != ScheduleKind.TIMED:
        raise TimeCallError(
            gettext(
                "{game} is not played against the clock: a {match} ends when its "
                "deals are played, so there is no time to call."
            ).format(game=rules.game.name, match=said_noun(match_noun(rules)))
        )


def _check_round(round: Round) -> None:
    if round.status not in CALLABLE_ROUNDS:
        raise TimeCallError(
            gettext(
                "Round {number} is {state}: time is called while a round is being played."
            ).format(number=round.number, state=round.get_status_display().lower())
        )


def _check_callable(table: Table) -> None:
    _check_timed(table)
    _check_round(table.round)
    if table.is_signed_off():
        raise TimeCallError(
            gettext("{table} has signed its match off: it is over already.").format(table=table)
        )


def _call(table: Table, via: str) -> None:
    table.time_called_at, table.time_called_by = timezone.now(), via.strip()[:120]
    table.save(update_fields=["time_called_at", "time_called_by"])
    standings_changed(table.round.tournament_id)  # the game is over: its round may count now


def _played(table: Table) -> str:
    scored = Deal.objects.filter(table=table, is_void=False).count()
    return progress(table.round.tournament.rules(), scored)


def _audit(table: Table, by: AbstractBaseUser | None, action: str, what: str) -> None:
    round = table.round
    audit_record(
        tournament=round.tournament,
        actor=by,
        action=action,
        summary=f"Round {round.number}, {table}: {what} ({_rule(table)})",
        detail={"round": round.number, "table": table.number},
    )
