"""Re-seating a table found in the wrong seats after some of its deals (R12.4).

The director gives the table's seats as they should be from now on (its players, seat 1
first) and, for each deal already played there, whether to **keep** it or **replay** it:

- **keep**: the deal stands as played, with the seats swapped in its record: the result entered
  for a seat goes to the player who sits there now. The deal takes a new version whose revision
  says why; the version before stays, superseded.
- **replay**: the deal becomes a void attempt (scoring nothing, as a void deal does, R9.2) and is
  dealt again: the game asks for it next (Kalooki: the lowest game not yet scored, R4.1).

The change is a seating-change ruling at the table (R12.4), kept in the audit log with the seats
before and after and each deal's fate, and the standings are recomputed from it.
"""

from collections.abc import Mapping, Sequence
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from scoring.matches import deal_title
from scoring.models import Deal, DealResult, ResultRevision, Ruling
from scoring.rulings import RulingError
from scoring.standings_queue import standings_changed
from tables.models import Seat, Table
from tournament.models import Entry, Round
from tournament.services import audit_record

Fate = Literal["keep", "replay"]
FATES = ("keep", "replay")
RESEATABLE = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


@transaction.atomic
def table_reseat(
    *,
    table: Table,
    seats: Sequence[int],
    games: Mapping[int, str],
    decision: str,
    reason: str = "",
    by: AbstractBaseUser | None,
) -> Ruling:
    """Seat `table`'s players in the order `seats` (entry ids, seat 1 first) and keep or replay
    each deal already played (`games`: deal number -> "keep" or "replay"). Refused, with
    nothing changed, when the round is not being played, when `seats` are not the table's
    players, or when a deal played has no fate (or a fate names a deal not played)."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=table.round_id)
    table = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
    before = list(Seat.objects.filter(table=table).order_by("position"))
    _check(round, table, before, seats, decision)
    deals = list(Deal.objects.filter(table=table, is_void=False).order_by("number"))
    _check_games(round, deals, games)
    names = _names([seat.entry_id for seat in before])
    moved = {seat.entry_id: seats[seat.position - 1] for seat in before}
    _reseat(round, table, before, seats)
    ruling = _ruling(round, table, before, seats, decision, reason, by)
    why = f"Re-seated by ruling {ruling.pk}: {_swaps(moved, names)}"
    for deal in deals:
        if games[deal.number] == "keep":
            _keep(deal, moved, why, by)
        else:
            _replay(deal, why, by)
    _audit(round, table, before, seats, games, names, ruling, by)
    standings_changed(round.tournament_id)
    return ruling


def _check(
    round: Round, table: Table, before: list[Seat], seats: Sequence[int], decision: str
) -> None:
    if round.status not in RESEATABLE:
        raise RulingError(
            gettext(
                "Round {number} is {state}: a table is re-seated while its round is published "
                "or in play (reopen a complete round first; a locked one changes only by a "
                "score ruling, R12.4)."
            ).format(number=round.number, state=round.get_status_display().lower())
        )
    if table.is_signed_off():
        raise RulingError(
            gettext("{table} signed its match off: its seats no longer change (R12.4).").format(
                table=table
            )
        )
    if sorted(seats) != sorted(seat.entry_id for seat in before) or len(set(seats)) != len(seats):
        raise RulingError(
            gettext(
                "Give each of the {count} players of {table} once, seat 1 first: the seats are "
                "re-ordered, nobody joins or leaves the table."
            ).format(count=len(before), table=table),
            "seats",
        )
    if list(seats) == [seat.entry_id for seat in before]:
        raise RulingError(
            gettext("Nobody changes seat at {table}: give the seats as they should be.").format(
                table=table
            )
        )
    if not decision.strip():
        raise RulingError(gettext("Say what was decided, in a few words."), "decision")


def _check_games(round: Round, deals: list[Deal], games: Mapping[int, str]) -> None:
    rules = round.tournament.rules()
    played = {deal.number for deal in deals}
    if set(games) - played:
        extra = ", ".join(deal_title(rules, n).lower() for n in sorted(set(games) - played))
        raise RulingError(
            gettext("Only a deal played is kept or replayed: {extra} was not.").format(extra=extra),
            "games",
        )
    missing = sorted(played - set(games))
    if missing:
        words = ", ".join(deal_title(rules, n).lower() for n in missing)
        raise RulingError(gettext("Choose to keep or replay {words}.").format(words=words), "games")
    wrong = [n for n, fate in games.items() if fate not in FATES]
    if wrong:
        raise RulingError(
            gettext("Each deal played is kept or replayed: 'keep' or 'replay'."), "games"
        )


def _names(entries: list[int]) -> dict[int, str]:
    found = Entry.objects.filter(pk__in=entries).select_related("player")
    return {entry.pk: entry.name for entry in found}


def _reseat(round: Round, table: Table, before: list[Seat], seats: Sequence[int]) -> None:
    """The players in their new seats; the first deal stays with its seat (R4.3)."""
    dealer = next((seat.position for seat in before if seat.is_first_dealer), None)
    Seat.objects.filter(table=table).delete()
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round,
            entry_id=entry,
            position=position,
            is_first_dealer=position == dealer,
        )
        for position, entry in enumerate(seats, 1)
    )


def _keep(deal: Deal, moved: Mapping[int, int], why: str, by: AbstractBaseUser | None) -> None:
    """The deal's results follow the seats: each goes to the player now in its seat."""
    results = list(deal.results.all())
    DealResult.objects.filter(deal=deal).delete()
    for result in results:
        result.pk, result.entry_id = None, moved[result.entry_id]
    DealResult.objects.bulk_create(results)
    entry = _current_revision(deal)
    record = dict(entry.entry) if entry else {}
    record["sides"] = [
        {**side, "entry": moved.get(side.get("entry"), side.get("entry"))}
        for side in record.get("sides", [])
    ]
    _new_version(deal, entry, record, why + ": kept as played", by)


def _replay(deal: Deal, why: str, by: AbstractBaseUser | None) -> None:
    """The deal becomes a void attempt (R9.2): it scores nothing and is dealt again."""
    DealResult.objects.filter(deal=deal).delete()
    deal.is_void = True
    entry = _current_revision(deal)
    _new_version(deal, entry, dict(entry.entry) if entry else {}, why + ": to be replayed", by)


def _current_revision(deal: Deal) -> ResultRevision | None:
    return deal.revisions.order_by("-version").first()


def _new_version(
    deal: Deal,
    previous: ResultRevision | None,
    record: dict,
    why: str,
    by: AbstractBaseUser | None,
) -> None:
    """The deal's next version, its revision saying why; the versions before stay, superseded."""
    status = previous.status if previous else ResultRevision.Status.CONFIRMED
    deal.revisions.exclude(status=ResultRevision.Status.SUPERSEDED).update(
        status=ResultRevision.Status.SUPERSEDED
    )
    deal.version += 1
    deal.save(update_fields=["version", "is_void", "updated_at"])
    ResultRevision.objects.create(
        deal=deal,
        version=deal.version,
        status=status,
        entry=record,
        scores={} if deal.is_void else (previous.scores if previous else {}),
        reason=why[:300],
        entered_by=by if by is not None and by.is_authenticated else None,
        entered_via="director (re-seat)",
    )


def _ruling(
    round: Round,
    table: Table,
    before: list[Seat],
    seats: Sequence[int],
    decision: str,
    reason: str,
    by: AbstractBaseUser | None,
) -> Ruling:
    first_moved = next(
        seat.entry_id for seat in before if seats[seat.position - 1] != seat.entry_id
    )
    return Ruling.objects.create(
        tournament=round.tournament,
        round=round,
        table=table,
        entry_id=first_moved,
        kind=Ruling.Kind.SEATING_CHANGE,
        decision=decision.strip(),
        reason=reason.strip(),
        decided_by=by if by is not None and by.is_authenticated else None,
    )


def _swaps(moved: Mapping[int, int], names: Mapping[int, str]) -> str:
    """ "Ann's seat to Ben, Ben's seat to Ann" """
    return ", ".join(
        f"{names[old]}'s seat to {names[new]}" for old, new in moved.items() if old != new
    )


def _audit(
    round: Round,
    table: Table,
    before: list[Seat],
    seats: Sequence[int],
    games: Mapping[int, str],
    names: Mapping[int, str],
    ruling: Ruling,
    by: AbstractBaseUser | None,
) -> None:
    kept = sorted(n for n, fate in games.items() if fate == "keep")
    replayed = sorted(n for n, fate in games.items() if fate == "replay")
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="table.reseat",
        summary=(
            f"Round {round.number}, table {table.number} re-seated (ruling {ruling.pk}): "
            + ", ".join(names[entry] for entry in seats)
            + f"; kept {kept or 'none'}, replayed {replayed or 'none'}"
        ),
        detail={
            "round": round.number,
            "table": table.number,
            "ruling": ruling.pk,
            "before": [seat.entry_id for seat in before],
            "after": list(seats),
            "kept": kept,
            "replayed": replayed,
        },
    )
