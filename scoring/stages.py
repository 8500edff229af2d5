"""Making a stage's cut (`tournament.stages`): the best of the stage before go through, and the
stage's first round is added and seated with them.

The cut reads the stage before's standings as computed now (`scoring.stage_standings`), with
the game's whole tie-break chain (R12.3). Where entries are still level across the cut line,
the director decides who goes through (by a play-off table played between them, or as the
tournament's rules say) and names their order; the decision is kept in the audit log.
"""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.rounds import round_add
from scoring.standings import standings_compute
from scoring.standings_queue import standings_changed
from tables.models import Seat, Table
from tables.seating import SeatingMode, seats_by_seed
from tables.services import round_seat
from tournament.models import Entry, Round, Tournament
from tournament.services import audit_record
from tournament.stage_services import StageError, StageLocked
from tournament.stages import Stage, StageEntry, stage_bounds

__all__ = ["StageError", "StageLocked", "stage_cut", "stage_standing"]


def stage_standing(*, stage: Stage) -> list[tuple[int, int, bool]]:  # entry, place, shared
    """The stage's standings now, (entry, place, shared) best first: what its cut reads."""
    data = standings_compute(tournament=stage.tournament)
    rows = {row["entry"]: row for row in data["players"]}
    if stage.number == 1:
        placed = [row for row in rows.values() if row["place"]]
        return [(row["entry"], row["place"], row["shared"]) for row in placed]
    found = next(s for s in data["stages"] if s["number"] == stage.number)
    return [(entry, rows[entry]["place"], rows[entry]["shared"]) for entry in found["order"]]


class CutTie(StageError):
    """Entries level at the cut line after every tie-break (R12.3): `tied` are their entry ids,
    for the director to put in order after a play-off table."""

    def __init__(self, message: str, tied: list[int]) -> None:
        super().__init__(message, field="decided")
        self.tied = tied


@transaction.atomic
def stage_cut(
    *,
    stage: Stage,
    by: AbstractBaseUser | None,
    seed: int | None = None,
    decided: Sequence[int] = (),
) -> Round:
    """Make `stage`'s cut from the stage before's standings, add its first round and seat it.

    `decided`: the director's order for entries level at the cut line after every tie-break
    (the ones a play-off table decided). Refused, with nothing changed, before the stage before
    is complete, a second time, or while a tie at the line is undecided."""
    tournament = Tournament.objects.select_for_update().get(pk=stage.tournament_id)
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    stages = list(tournament.stages.order_by("number"))
    _check_ready(tournament, stage, stages)
    before = stages[stage.number - 2]
    if before.kind == Stage.Kind.KNOCKOUT:
        last = stage_bounds(stages)[before.number].stop - 1
        chosen = _winners(tournament, last, decided, _names(tournament))
    else:
        playing = set(tournament.entries.active().values_list("pk", flat=True))
        order = [row for row in stage_standing(stage=before) if row[0] in playing]
        chosen = _cut(order, stage, decided, _names(tournament))
    StageEntry.objects.bulk_create(
        StageEntry(stage=stage, entry_id=entry, seed=seed_) for seed_, entry in enumerate(chosen, 1)
    )
    stage.cut_at = timezone.now()
    stage.save(update_fields=["cut_at"])
    round = round_add(tournament=tournament, by=by)
    _seat(round, stage, chosen, seed, by)
    _audit(tournament, stage, chosen, decided, by)
    standings_changed(tournament.pk)
    return round


def _names(tournament: Tournament) -> dict[int, str]:
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    return {entry.pk: entry.name for entry in entries}


def _check_ready(tournament: Tournament, stage: Stage, stages: list[Stage]) -> None:
    if stage.number == 1:
        raise StageError(
            gettext("The qualifying stage is played by the whole field: it has no cut.")
        )
    if stage.cut_at is not None:
        raise StageLocked(
            gettext("The cut to the {stage} is made already.").format(stage=stage.name.lower())
        )
    earlier = stage_bounds(stages)[stage.number - 1]
    done = tournament.rounds.filter(
        number__in=list(earlier), status__in=[Round.Status.COMPLETE, Round.Status.LOCKED]
    ).count()
    if done < len(earlier):
        raise StageLocked(
            gettext(
                "The cut to the {stage} waits for rounds {start} to {value} to be complete "
                "({done} of {count} are): every round before the cut decides who makes it."
            ).format(
                stage=stage.name.lower(),
                start=earlier.start,
                value=earlier.stop - 1,
                done=done,
                count=len(earlier),
            )
        )


def _cut(
    order: list[tuple[int, int, bool]],
    stage: Stage,
    decided: Sequence[int],
    names: dict[int, str],
) -> list[int]:
    """The best `stage.size` of `order`; the director's order for a tie across the line."""
    size = stage.size or 0
    if size > len(order):
        raise StageError(
            gettext(
                "The cut to {size} is larger than the {count} still playing: change the "
                "stage's size."
            ).format(size=size, count=len(order)),
            field="size",
        )
    if size == len(order) or order[size - 1][1] != order[size][1]:
        return [entry for entry, _, _ in order[:size]]
    place = order[size - 1][1]
    tied = [entry for entry, at, _ in order if at == place]
    if sorted(decided) != sorted(tied):
        words = ", ".join(names.get(entry, str(entry)) for entry in tied)
        raise CutTie(
            gettext(
                "{words} are level at place {place} after every tie-break (R12.3), across the "
                "cut to {size}: play a play-off table between them and give their order in "
                "`decided`."
            ).format(words=words, place=place, size=size),
            tied,
        )
    above = [entry for entry, at, _ in order if at < place]
    return (above + list(decided))[:size]


def _winners(
    tournament: Tournament, round: int, decided: Sequence[int], names: dict[int, str]
) -> list[int]:
    """Each table's winner in knockout round `round`, by table: the side with the better
    match total (the game's order); a level table's winner is the one the director names in
    `decided`."""
    data = standings_compute(tournament=tournament)
    better = max if data["higher_wins"] else min
    winners = []
    for table in sorted((t for t in data["tables"] if t["round"] == round), key=_number):
        totals = {seat["entry"]: seat["total"] for seat in table["seats"]}
        best = better(totals.values())
        level = [entry for entry, total in totals.items() if total == best]
        if len(level) > 1:
            level = [entry for entry in level if entry in decided]
        if len(level) != 1:
            words = " and ".join(names.get(entry, str(entry)) for entry in totals)
            raise StageError(
                gettext(
                    "Table {table} of round {round} is level between {words}: name its winner in "
                    "`decided` (after a play-off, or as the rules say)."
                ).format(table=table["table"], round=round, words=words),
                field="decided",
            )
        winners += level
    return winners


def _number(table: dict) -> int:
    return table["table"]


def _seat(
    round: Round, stage: Stage, chosen: list[int], seed: int | None, by: AbstractBaseUser | None
) -> None:
    """Seat the stage's first round: drawn, or by standing (seeds snake across the tables, and
    sit in seed order at each)."""
    drawn = stage.seats == Stage.Seats.DRAWN
    mode = SeatingMode.RANDOM if drawn else SeatingMode.STANDINGS
    round_seat(round=round, by=by, seed=seed, standing=chosen, mode=mode, entries=chosen)
    if not drawn:
        seats_by_standing(round, chosen)


def seats_by_standing(round: Round, chosen: list[int]) -> None:
    """Re-seat `round` by seed (`tables.seating.seats_by_seed`): seed 1 at table 1, seat 1; the
    tables' sizes and first-deal seats stay."""
    tables = list(Table.objects.filter(round=round).order_by("number"))
    seats = list(Seat.objects.filter(round=round).order_by("table__number", "position"))
    sizes = [sum(1 for s in seats if s.table_id == table.pk) for table in tables]
    groups = seats_by_seed(chosen, sizes)
    dealers = {(s.table_id, s.position) for s in seats if s.is_first_dealer}
    Seat.objects.filter(round=round).delete()
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round,
            entry_id=entry,
            position=position,
            is_first_dealer=(table.pk, position) in dealers,
        )
        for table, group in zip(tables, groups, strict=True)
        for position, entry in enumerate(group, 1)
    )


def _audit(
    tournament: Tournament,
    stage: Stage,
    chosen: list[int],
    decided: Sequence[int],
    by: AbstractBaseUser | None,
) -> None:
    names = _names(tournament)
    tie = " (a tie at the line decided by the director)" if decided else ""
    audit_record(
        tournament=tournament,
        actor=by,
        action="stage.cut",
        summary=f"Cut to the {stage.name.lower()}: "
        + ", ".join(names.get(entry, str(entry)) for entry in chosen)
        + tie,
        detail={"stage": stage.number, "entries": chosen, "decided": list(decided)},
    )
