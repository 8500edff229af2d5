"""Rulings (R12.4): the tournament director's decisions, with who, when, what and why.

A ruling is about a **subject**: a player (entry), a table, or one deal at a table. Only a
penalty or a score correction carries **points**, which go to one player's score and show in the
standings with the ruling behind them. A **disqualification** also disqualifies the player (as
the players page does: `tournament.services.entry_disqualify`), and reversing it reinstates them. A
**seating change** is how a published round's seats change (`seat_change_by_ruling`).

A ruling's points count in a **round**: its table's round, or else the round being played when it
was decided, so that the latest-round tie-break (R12.3) sees them. The round is locked in share mode
while the ruling is recorded (`_locked_round`), so that no round step changes it meanwhile.

**Reinstating** a disqualified player (`player_reinstate`, the players page's and the API's
Reinstate) reverses their disqualification, so that the rulings, the standings and the player's
status agree; a withdrawn player is reinstated without a ruling.

Rulings are never deleted: a **reversal** is a new ruling that points at the one it reverses and
carries the opposite points (`ruling_reverse`).
"""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from scoring.matches import deal_noun, deal_title, said_noun, said_title
from scoring.models import Deal, Ruling
from scoring.standings_queue import standings_changed
from scoring.store import store
from tables.models import Seat, Table
from tables.services import seat_relocate, seats_exchange
from tournament.models import Entry, Round, Tournament
from tournament.services import (
    StatusRefused,
    TournamentError,
    audit_record,
    entry_disqualify,
    entry_lift_disqualification,
    entry_reinstate,
)

Kind = Ruling.Kind
SCORE_KINDS = (Kind.PENALTY_POINTS, Kind.SCORE_CORRECTION)
NEEDS_A_PLAYER = (Kind.DISQUALIFICATION, Kind.SEATING_CHANGE)


class RulingError(Exception):
    """A ruling that cannot be recorded as given; `field` names the input at fault, if one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        super().__init__(message)


class RulingConflict(RulingError):
    """A ruling the state is in the way of, not its input: a ruling already reversed, a player
    already disqualified or already back in."""


@transaction.atomic
def ruling_record(
    *,
    tournament: Tournament,
    by: AbstractBaseUser | None,
    kind: str,
    decision: str,
    reason: str = "",
    entry: Entry | None = None,
    table: Table | None = None,
    deal: Deal | None = None,
    points: int = 0,
    reverses: Ruling | None = None,
) -> Ruling:
    """Record a director's ruling; a disqualification also disqualifies the player.

    Locks, in the order every caller takes them: the ruling reversed, the round (share mode),
    then the player's entry."""
    if kind == Kind.SEATING_CHANGE:
        raise RulingError(
            gettext("A seating change moves seats too: record it from the round's page."), "kind"
        )
    _check_kind(kind, points, reverses)
    _check_words(decision)
    table = _check_subject(tournament, kind, points, entry, table, deal)
    if reverses is not None:
        reverses = _reversible(tournament, reverses)
    round = _locked_round(tournament, table, reverses)
    if table is not None:
        _check_table_open(table, round, entry)
    if kind == Kind.DISQUALIFICATION and reverses is None:
        _disqualify(entry, by, decision)
    ruling = Ruling.objects.create(
        tournament=tournament,
        round=round,
        table=table,
        deal=deal,
        entry=entry,
        kind=kind,
        points=points,
        decision=decision.strip(),
        reason=reason.strip(),
        decided_by=_user(by),
        reverses=reverses,
    )
    _audit(ruling, by)
    standings_changed(tournament.pk)
    return ruling


@transaction.atomic
def ruling_reverse(*, ruling: Ruling, by: AbstractBaseUser | None, reason: str) -> Ruling:
    """Reverse a ruling by a new one with the opposite points; a disqualified player is
    reinstated."""
    original = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if not reason.strip():
        raise RulingError(gettext("Say why the ruling is reversed."), "reason")
    if original.kind == Kind.SEATING_CHANGE:
        raise RulingError(
            gettext(
                "Ruling {pk} changed seats: undo it by another seating change that moves the "
                "players back."
            ).format(pk=original.pk)
        )
    reversal = ruling_record(
        tournament=original.tournament,
        by=by,
        kind=original.kind,
        decision=f"Reverses ruling {original.pk}: {original.decision}",
        reason=reason,
        entry=original.entry,
        table=original.table,
        deal=original.deal,
        points=-original.points,
        reverses=original,
    )
    if original.kind == Kind.DISQUALIFICATION:
        _reinstate(original.entry, by, reversal)
    return reversal


@transaction.atomic
def player_reinstate(*, entry: Entry, by: AbstractBaseUser | None, reason: str = "") -> Entry:
    """Reinstate a withdrawn or disqualified player, as registered (the Reinstate of the players
    page and of the API). A disqualification is a ruling (R12.4): every one of the player's
    still standing is reversed, with `reason`. A player disqualified without a ruling (before
    disqualifications were rulings) has none to reverse: the reason goes in the audit log."""
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    if entry.status != Entry.Status.DISQUALIFIED:
        return entry_reinstate(entry=entry, by=by)  # refused unless withdrawn
    if not reason.strip():
        raise RulingError(
            gettext(
                "Say why {player} is reinstated: it reverses the ruling that disqualified "
                "them (R12.4)."
            ).format(player=entry.name),
            "reason",
        )
    # Locked up front, in id order, so that a reversal of one of them from the rulings page
    # waits instead of deadlocking; the newest is reversed first, so the log names its reversal.
    standing = standing_disqualifications(entry=entry, lock=True)
    for ruling in reversed(standing):
        ruling_reverse(ruling=ruling, by=by, reason=reason)
    if not standing:
        entry_lift_disqualification(entry=entry, by=by, reason=reason)
    entry.refresh_from_db()
    return entry


def standing_disqualifications(*, entry: Entry, lock: bool = False) -> list[Ruling]:
    """The player's disqualifications not reversed, oldest first. A disqualified player has one;
    more only if an older one was left standing by a reinstatement made before reinstating
    reversed the ruling (the player then disqualified again)."""
    standing = entry.rulings.filter(
        kind=Kind.DISQUALIFICATION, reverses__isnull=True, reversed_by__isnull=True
    )
    if lock:
        return list(standing.select_for_update(of=("self",)).order_by("pk"))
    return list(standing.select_related("decided_by").order_by("decided_at", "pk"))


# --- checks ----------------------------------------------------------------------------------


def _round_of(tournament: Tournament, table: Table | None, reverses: Ruling | None) -> Round | None:
    """The round a ruling's points count in: its table's; a reversal's, the reversed ruling's;
    otherwise the round being played, the latest one past its draft (None before any)."""
    if table is not None:
        return table.round
    if reverses is not None:
        return reverses.round
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def _locked_round(
    tournament: Tournament, table: Table | None, reverses: Ruling | None
) -> Round | None:
    """The ruling's round (`_round_of`), locked in share mode until the transaction ends and read
    again once locked: a round step waits for the ruling (taking the round back to draft is then
    refused, since a ruling names it), or the ruling sees what the step did. The round being
    played, if it went back to draft before it was held, gives way to the one before it."""
    round = _round_of(tournament, table, reverses)
    if round is None:
        return None
    held = _lock_round(round)
    if table is None and reverses is None and held.status == Round.Status.DRAFT:
        return _locked_round(tournament, table, reverses)  # this draft, held, is left out now
    return held


def _lock_round(round: Round) -> Round:
    """The round's row, read again and locked in share mode, as results lock it
    (`scoring.services._lock`)."""
    locked = store().lock_round(round.pk)
    if locked is None:  # removed meanwhile (taken back to draft, then deleted)
        raise RulingError(
            gettext("Round {number} was removed meanwhile: record the ruling again.").format(
                number=round.number
            )
        )
    return locked


def _check_kind(kind: str, points: int, reverses: Ruling | None) -> None:
    if kind not in Kind.values:
        raise RulingError(gettext("Unknown kind of ruling {kind}.").format(kind=repr(kind)), "kind")
    if points and kind not in SCORE_KINDS:
        raise RulingError(
            gettext(
                "Only penalty points and score corrections carry points (R12.4): set the "
                "points to 0."
            ),
            "points",
        )
    if reverses is not None:
        return
    if kind in SCORE_KINDS and not points:
        raise RulingError(
            gettext("A penalty or a score correction needs its points: a number other than 0."),
            "points",
        )
    if kind == Kind.PENALTY_POINTS and points < 0:
        raise RulingError(
            gettext(
                "Penalty points are added to the score: give a positive number, or record a "
                "score correction to take points off."
            ),
            "points",
        )


def _check_words(decision: str) -> None:
    if not decision.strip():
        raise RulingError(gettext("Write the decision: what was decided (R12.4)."), "decision")


def _check_subject(
    tournament: Tournament,
    kind: str,
    points: int,
    entry: Entry | None,
    table: Table | None,
    deal: Deal | None,
) -> Table | None:
    """Check the ruling's subject belongs to this tournament; return its table, if any."""
    if entry is None and (points or kind in NEEDS_A_PLAYER):
        raise RulingError(gettext("Choose the player this ruling is about (R12.4)."), "entry")
    if entry is None and table is None and deal is None:
        noun = deal_noun(tournament.rules())
        raise RulingError(
            gettext("A ruling is about a player, a table or a {noun}: choose at least one.").format(
                noun=said_noun(noun)
            ),
            "entry",
        )
    if entry is not None and entry.tournament_id != tournament.pk:
        raise RulingError(
            gettext("{player} does not play in {tournament}.").format(
                player=entry.name, tournament=tournament.name
            ),
            "entry",
        )
    table = _deal_table(deal, table)
    if table is not None and table.round.tournament_id != tournament.pk:
        raise RulingError(
            gettext("{table} is not a table of {tournament}.").format(
                table=table, tournament=tournament.name
            ),
            "table",
        )
    return table


def _deal_table(deal: Deal | None, table: Table | None) -> Table | None:
    if deal is None:
        return table
    if table is not None and deal.table_id != table.pk:
        title = deal_title(table.round.tournament.rules(), deal.number)
        raise RulingError(
            gettext("{title} was not played at {table}.").format(
                title=said_title(title), table=table
            ),
            "deal",
        )
    return deal.table


def _check_table_open(table: Table, round: Round, entry: Entry | None) -> None:
    """Checked on the table's round as locked (`_locked_round`): no step changes it meanwhile."""
    if round.status == Round.Status.DRAFT:
        raise RulingError(
            gettext(
                "Round {number} is a draft: change its seating directly; rulings are for "
                "published rounds."
            ).format(number=round.number),
            "table",
        )
    if entry is not None and not Seat.objects.filter(table=table, entry=entry).exists():
        raise RulingError(
            gettext("{player} does not sit at table {number} of round {number2}.").format(
                player=entry.name, number=table.number, number2=round.number
            ),
            "entry",
        )


def _reversible(tournament: Tournament, reverses: Ruling) -> Ruling:
    reverses = Ruling.objects.select_for_update().get(pk=reverses.pk)
    if reverses.tournament_id != tournament.pk:
        raise RulingError(
            gettext("Ruling {pk} is not a ruling of {tournament}.").format(
                pk=reverses.pk, tournament=tournament.name
            )
        )
    if reverses.reverses_id is not None:
        raise RulingError(
            gettext("Ruling {pk} is itself a reversal: record a new ruling instead.").format(
                pk=reverses.pk
            )
        )
    later = reverses.reversed_by.first()
    if later is not None:
        raise RulingConflict(
            gettext("Ruling {pk} was already reversed by ruling {pk2}.").format(
                pk=reverses.pk, pk2=later.pk
            )
        )
    return reverses


def _disqualify(entry: Entry | None, by: AbstractBaseUser | None, decision: str) -> None:
    assert entry is not None  # checked by `_check_subject`
    try:
        entry_disqualify(entry=entry, by=by, reason=decision)
    except StatusRefused as error:
        raise RulingConflict(str(error), "entry") from None
    except TournamentError as error:
        raise RulingError(str(error), "entry") from None


def _reinstate(entry: Entry | None, by: AbstractBaseUser | None, reversal: Ruling) -> None:
    """Undo a disqualification: back in as registered, to check in again; the log names the
    reversal. A player no longer disqualified (reinstated by hand before) is left alone."""
    assert entry is not None
    if Entry.objects.filter(pk=entry.pk, status=Entry.Status.DISQUALIFIED).exists():
        try:
            entry_lift_disqualification(
                entry=entry, by=by, reason=reversal.reason, ruling_id=reversal.pk
            )
        except TournamentError as error:  # reinstated meanwhile, by another request
            raise RulingConflict(str(error), "entry") from None


def _user(by: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return by if by is not None and by.is_authenticated else None


def _audit(ruling: Ruling, by: AbstractBaseUser | None) -> None:
    about = f" against {ruling.entry.name}" if ruling.entry else ""
    audit_record(
        tournament=ruling.tournament,
        actor=by,
        action="ruling.reverse" if ruling.reverses_id else "ruling.record",
        summary=f"Ruling {ruling.pk}: {ruling}{about}: {ruling.decision}",
        detail={
            "ruling": ruling.pk,
            "kind": ruling.kind,
            "points": ruling.points,
            "entry": ruling.entry_id,
            "table": ruling.table_id,
            "deal": ruling.deal_id,
            "reverses": ruling.reverses_id,
        },
    )


# --- seats after publishing ----------------------------------------------------------------------


@transaction.atomic
def seat_change_by_ruling(
    *,
    round: Round,
    by: AbstractBaseUser | None,
    decision: str,
    reason: str = "",
    entry: Entry,
    swap_with: Entry | None = None,
    table: Table | None = None,
    position: int | None = None,
) -> Ruling:
    """Swap `entry` with `swap_with`, or move `entry` to `table`, in a published round; the
    change is recorded as a ruling. Refused once a table it touches has any result."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _check_seat_change(round, decision, swap_with, table)
    touched = _tables_touched(round, entry, swap_with, table)
    if table is not None:
        _check_sizes_after_move(round, *touched)
        seat = seat_relocate(round=round, entry=entry, table=table, position=position)
    else:
        seat, _ = seats_exchange(round=round, entry_a=entry, entry_b=swap_with)
    ruling = Ruling.objects.create(
        tournament=round.tournament,
        round=round,
        table=seat.table,
        entry=entry,
        kind=Kind.SEATING_CHANGE,
        decision=decision.strip(),
        reason=reason.strip(),
        decided_by=_user(by),
    )
    _audit(ruling, by)
    standings_changed(ruling.tournament_id)
    return ruling


def _check_seat_change(
    round: Round, decision: str, swap_with: Entry | None, table: Table | None
) -> None:
    if round.status == Round.Status.DRAFT:
        raise RulingError(
            gettext(
                "Round {number} is a draft: move or swap the players directly, no ruling is needed."
            ).format(number=round.number)
        )
    if round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise RulingError(
            gettext(
                "Round {number} is {state}: every table has played, so its seats no longer change."
            ).format(number=round.number, state=round.status.replace("_", " "))
        )
    if (swap_with is None) == (table is None):
        raise RulingError(gettext("Either swap the player with another, or move them to a table."))
    if table is not None and table.round_id != round.pk:
        raise RulingError(
            gettext("{table} is not a table of round {number}.").format(
                table=table, number=round.number
            ),
            "table",
        )
    _check_words(decision)


def _tables_touched(
    round: Round, entry: Entry, swap_with: Entry | None, table: Table | None
) -> tuple[Table, Table]:
    """The player's table and the other one; refused if either has a result."""
    entries = [entry] + ([swap_with] if swap_with is not None else [])
    seats = {
        seat.entry_id: seat.table
        for seat in Seat.objects.filter(round=round, entry__in=entries).select_related("table")
    }
    for each in entries:
        if each.pk not in seats:
            raise RulingError(
                gettext("{player} has no seat in round {number}.").format(
                    player=each.name, number=round.number
                )
            )
    touched = (seats[entry.pk], table if table is not None else seats[swap_with.pk])
    played = Deal.objects.filter(table__in=touched).order_by("table__number").first()
    if played is not None:
        raise RulingError(
            gettext(
                "Table {number} has results already: its seats can no longer change. Record "
                "another kind of ruling."
            ).format(number=played.table.number)
        )
    return touched


def _check_sizes_after_move(round: Round, source: Table, target: Table) -> None:
    """A published round keeps every table seated as the game's table shape says (R12.2)."""
    rules = round.tournament.rules()
    shape, cited = rules.shape(), rules.cites("table") or "the game's table shape"
    fewest, most = shape.min_sides * shape.members, shape.max_sides * shape.members
    if source.seats.count() - 1 < fewest or shape.members > 1:
        raise RulingError(
            gettext(
                "Table {number} would seat {value} players, not {fewest} to {most} ({cited}): "
                "swap players instead."
            ).format(
                number=source.number,
                value=source.seats.count() - 1,
                fewest=fewest,
                most=most,
                cited=cited,
            )
        )
    if target.seats.count() + 1 > most:
        raise RulingError(
            gettext(
                "Table {number} would seat more than {most} players ({cited}): swap players "
                "instead."
            ).format(number=target.number, most=most, cited=cited)
        )
