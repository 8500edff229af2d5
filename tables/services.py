"""Writes to tables and seats: seating a round (R12.1, R12.2) by a mode, drawing first dealers
(R4.3), pinning a player to a table, moving and swapping players in a draft, and reissuing a
table's private link.

Seat edits keep each table's positions 1..n with no gaps, and exactly one first dealer per table:
a swapped-in player takes the other's seat, first deal included; a moved player joins the new
table as an ordinary seat, and when the first dealer leaves a table the next player clockwise
deals first instead (R4.3).
"""

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.base import Rules, RulesError
from tables.models import (
    MAX_SEATS,
    Bye,
    PinnedSeat,
    Seat,
    SeatingRecord,
    Table,
    new_access_token,
)
from tables.seating import (
    MeetingHistory,
    Pin,
    RoundSeating,
    SeatingError,
    SeatingMode,
    check_pins,
    order_seats,
    seat,
    sides_word,
    table_plan,
)
from tables.selectors import (
    byes_before,
    design_place_before,
    pins_of,
    seat_duties_before,
    seatings_before,
)
from tournament.models import Entry, Round, Tournament
from tournament.services import audit_record
from tournament.stages import entrants_of, stage_of

__all__ = [
    "SeatingClosed",
    "SeatingError",
    "bye_swap",
    "pin_remove",
    "pin_seat",
    "round_seat",
    "seat_move",
    "seat_relocate",
    "seat_swap",
    "seats_exchange",
    "table_link_reissue",
]


def _new_seed() -> int:
    return secrets.randbelow(2**31)


@transaction.atomic
def round_seat(
    *,
    round: Round,
    by: AbstractBaseUser | None = None,
    seed: int | None = None,
    standing: Sequence[int] = (),
    mode: SeatingMode | str = SeatingMode.AVOID_REPEATS,
    ratings: Mapping[int, float] | None = None,
    entries: Sequence[int] | None = None,
) -> list[Table]:
    """Seat a draft round by `mode`, replacing its earlier draft seating.

    Seats the checked-in entries, or `entries` (ids) when a stage seats only some of them.
    Earlier rounds' meetings are avoided (by a design's next round where the previous round
    followed one); pinned players keep their tables; the first dealers are drawn so that
    nobody is always the dealer or first to play (R4.3). The seeds are stored on the round and
    the rest of what the seating read (mode, standing, ratings, pins, design place) in its
    `SeatingRecord`, so the same inputs reproduce the same tables. When the game's table plan
    leaves players over, they get byes: the fewest byes so far first, then the lowest in
    `standing` (entry ids, best first; the caller reads the standings).
    """
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if not round.is_editable():
        raise SeatingClosed(
            _(
                "Round {number} is {status}: its seating can no longer be redrawn. Move players "
                "one by one, or record a ruling."
            ).format(number=round.number, status=round.get_status_display().lower())
        )
    mode = SeatingMode(mode)
    rules = round.tournament.rules()
    sides = _sides(round, entries)
    _check_teams_seated_as_teams(rules, sides)
    entry_ids = list(sides.values_list("id", flat=True))
    pins = {entry: pin for entry, pin in pins_of(round.tournament).items() if entry in entry_ids}
    _check_pins_for(round.tournament, pins, len(entry_ids), rules)
    round.seating_seed = _new_seed() if seed is None else seed
    round.dealer_seed = round.seating_seed ^ 0x5EA7
    seating = seat(
        entry_ids,
        MeetingHistory.from_rounds(seatings_before(round)),
        seed=round.seating_seed,
        rules=rules,
        mode=mode,
        byes_so_far=byes_before(round),
        standing=standing,
        ratings=ratings,
        pins=pins,
        design=design_place_before(round),
        rounds_left=max(1, round.tournament.rounds_planned - round.number + 1),
    )
    groups, dealers = order_seats(
        seating.tables,
        seed=round.dealer_seed,
        duties=seat_duties_before(round),
        pins=pins,
        dealt=_has_dealer(rules),
    )
    round.tables.all().delete()
    round.byes.all().delete()
    round.save(update_fields=["seating_seed", "dealer_seed"])
    tables = _create_tables(round, groups, dealers)
    Bye.objects.bulk_create(Bye(round=round, entry_id=entry_id) for entry_id in seating.byes)
    _record(round, mode, standing, ratings, pins, seating)
    _audit_seating(round, by, rules, mode, entry_ids, groups, seating)
    return tables


def _sides(round: Round, entries: Sequence[int] | None) -> QuerySet[Entry]:
    """The entries to seat: the checked-in ones, or those of `entries` among them; in a stage
    after a cut, those that made it (`tournament.stages`)."""
    checked_in = round.tournament.entries.checked_in().order_by("id")
    stage = stage_of(round) if entries is None else None
    if stage is not None and stage.number > 1:
        entries = entrants_of(stage)
    return checked_in if entries is None else checked_in.filter(id__in=list(entries))


def _has_dealer(rules: Rules[Any]) -> bool:
    """Whether the game has a dealer whose seat rotates (Kalooki R4.3, Parcellus PA2.4)."""
    try:
        return rules.deal(1).dealer_step is not None
    except RulesError:
        return False


def _check_pins_for(
    tournament: Tournament, pins: Mapping[int, Pin], sides: int, rules: Rules[Any]
) -> None:
    """The pins against today's tables, named by player, before anything is changed."""
    if not pins:
        return
    names = dict(
        Entry.objects.filter(pk__in=list(pins))
        .select_related("player")
        .values_list("pk", "player__name")
    )
    teams = dict(Entry.objects.filter(pk__in=list(pins)).values_list("pk", "team_name"))
    check_pins(
        pins,
        list(table_plan(sides, rules).sizes),
        name=lambda entry: teams.get(entry) or names.get(entry, f"entry {entry}"),
        sides=sides_word(rules),
    )


def _record(
    round: Round,
    mode: SeatingMode,
    standing: Sequence[int],
    ratings: Mapping[int, float] | None,
    pins: Mapping[int, Pin],
    seating: RoundSeating,
) -> None:
    SeatingRecord.objects.update_or_create(
        round=round,
        defaults={
            "mode": mode.value,
            "standing": list(standing),
            "ratings": {str(entry): rating for entry, rating in (ratings or {}).items()},
            "pins": {str(entry): [pin.table, pin.seat] for entry, pin in sorted(pins.items())},
            "design": seating.design.to_dict() if seating.design else {},
        },
    )


def _audit_seating(
    round: Round,
    by: AbstractBaseUser | None,
    rules: Rules[Any],
    mode: SeatingMode,
    entry_ids: list[int],
    groups: list[list[int]],
    seating: RoundSeating,
) -> None:
    byes = f", {len(seating.byes)} with a bye" if seating.byes else ""
    count = len(groups)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="round.seat",
        summary=(
            f"Seated round {round.number}: {len(entry_ids)} {sides_word(rules)} at "
            f"{count} table{'s' if count != 1 else ''}{byes} ({mode.label.lower()})"
        ),
        detail={
            "round": round.number,
            "seed": round.seating_seed,
            "mode": mode.value,
            "tables": groups,
            "byes": seating.byes,
            "design": seating.design.key if seating.design else None,
        },
    )


def _check_teams_seated_as_teams(rules: Rules[Any], checked_in: QuerySet[Entry]) -> None:
    """In a game of partners each side is a team entry (HF1.2): a player entered alone (from
    before teams were entered as teams) has no partner to sit opposite."""
    if rules.shape().members == 1:
        return
    alone = list(checked_in.filter(team_name="").select_related("player")[:3])
    if alone:
        names = ", ".join(entry.name for entry in alone)
        raise SeatingError(
            _(
                "{game} seats teams of two partners (HF1.2), and {names} entered alone: "
                "withdraw them and enter each pair as a team, or seat by hand."
            ).format(game=rules.game.name, names=names)
        )


def _create_tables(round: Round, groups: list[list[int]], dealers: list[int]) -> list[Table]:
    tables = Table.objects.bulk_create(
        [Table(round=round, number=number) for number in range(1, len(groups) + 1)]
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round,
            entry_id=entry_id,
            position=index + 1,
            is_first_dealer=index == dealer,
        )
        for table, group, dealer in zip(tables, groups, dealers, strict=True)
        for index, entry_id in enumerate(group)
    )
    return tables


# --- pinned seats ------------------------------------------------------------------------------


@transaction.atomic
def pin_seat(
    *,
    tournament: Tournament,
    entry: Entry,
    table: int,
    position: int | None = None,
    reason: str = "",
    by: AbstractBaseUser | None,
) -> PinnedSeat:
    """Keep a player at `table` (and `position`, if given) from the next seating on, all event.

    Refused, with nothing changed, when the entry is not playing in the tournament, when the
    table or seat does not exist for the players entered now (R12.2), or when the seat is
    another player's pin or the table has no room for one more pinned player.
    """
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if entry.tournament_id != tournament.pk or not entry.is_playing():
        raise SeatingError(
            _("{name} is not playing in {tournament}: pin a player who is.").format(
                name=entry.name, tournament=tournament.name
            )
        )
    pins = pins_of(tournament) | {entry.pk: Pin(table, position)}
    rules = tournament.rules()
    _check_pins_for(tournament, pins, tournament.entries.active().count(), rules)
    try:
        with transaction.atomic():
            pinned, _created = PinnedSeat.objects.update_or_create(
                entry=entry,
                defaults={
                    "tournament": tournament,
                    "table": table,
                    "position": position,
                    "reason": reason,
                },
            )
    except IntegrityError as error:  # a race for the seat: the constraint has the last word
        raise SeatingError(
            _("Seat {position} of table {table} is already pinned.").format(
                position=position, table=table
            )
        ) from error
    audit_record(
        tournament=tournament,
        actor=by,
        action="seat.pin",
        summary=f"Pinned {entry.name} to {Pin(table, position).words()}"
        + (f": {reason}" if reason else ""),
        detail={"entry": entry.pk, "table": table, "position": position, "reason": reason},
    )
    return pinned


@transaction.atomic
def pin_remove(*, tournament: Tournament, entry: Entry, by: AbstractBaseUser | None) -> None:
    """Let a pinned player move again from the next seating on."""
    deleted, _counts = PinnedSeat.objects.filter(tournament=tournament, entry=entry).delete()
    if not deleted:
        raise NoPinnedSeat(_("{name} has no pinned seat.").format(name=entry.name))
    audit_record(
        tournament=tournament,
        actor=by,
        action="seat.unpin",
        summary=f"{entry.name} is no longer pinned to a table",
        detail={"entry": entry.pk},
    )


# --- seat edits --------------------------------------------------------------------------------


class SeatingClosed(SeatingError):
    """The round is no longer a draft: its seats change only by a director's ruling."""


class NoPinnedSeat(SeatingError):
    """The player asked to be unpinned has no pinned seat: there is nothing to remove."""


# A round's status in a sentence ("Round 2 is in play: ..."), in the director's language.
STATUS_WORDS = {
    Round.Status.DRAFT: gettext_lazy("a draft"),
    Round.Status.PUBLISHED: gettext_lazy("published"),
    Round.Status.IN_PLAY: gettext_lazy("in play"),
    Round.Status.COMPLETE: gettext_lazy("complete"),
    Round.Status.LOCKED: gettext_lazy("locked"),
}


def _status_words(round: Round) -> str:
    return str(STATUS_WORDS.get(round.status, round.status.replace("_", " ")))


def _draft_round(round: Round) -> Round:
    """The round, locked for the edit, if its seating is still a draft."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if not round.is_editable():
        raise SeatingClosed(
            _(
                "Round {number} is {status}: a change now is a ruling (R12.4). "
                "Record it as a seating change on the round page."
            ).format(number=round.number, status=_status_words(round))
        )
    return round


@transaction.atomic
def seat_swap(
    *, round: Round, entry_a: Entry, entry_b: Entry, by: AbstractBaseUser | None
) -> tuple[Seat, Seat]:
    """Swap two players' seats in a draft round (at one table or two). When one of them has a
    bye, the other takes the bye and the first the seat (`bye_swap`)."""
    round = _draft_round(round)
    byes = set(
        Bye.objects.filter(round=round, entry_id__in=[entry_a.pk, entry_b.pk]).values_list(
            "entry_id", flat=True
        )
    )
    if len(byes) == 2:
        raise SeatingError(
            _(
                "{first} and {second} both have a bye in round {number}: swap a player with a "
                "bye and a seated player."
            ).format(first=entry_a.player.name, second=entry_b.player.name, number=round.number)
        )
    if byes:
        sitting_out, seated = (entry_a, entry_b) if entry_a.pk in byes else (entry_b, entry_a)
        seat = bye_swap(round=round, bye_entry=sitting_out, seated_entry=seated, by=by)
        return seat, seat
    seats = seats_exchange(round=round, entry_a=entry_a, entry_b=entry_b)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="seat.swap",
        summary=f"Round {round.number}: swapped {_describe(seats[0])}; {_describe(seats[1])}",
        detail={"round": round.number, "entries": [entry_a.pk, entry_b.pk]},
    )
    return seats


@transaction.atomic
def seat_move(
    *,
    round: Round,
    entry: Entry,
    table: Table,
    position: int | None = None,
    by: AbstractBaseUser | None,
) -> Seat:
    """Move a player of a draft round to another table: to `position` (1..n+1), or last."""
    round = _draft_round(round)
    seat = seat_relocate(round=round, entry=entry, table=table, position=position)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="seat.move",
        summary=f"Round {round.number}: moved {_describe(seat)}",
        detail={"round": round.number, "entry": entry.pk, "table": table.number},
    )
    return seat


def _describe(seat: Seat) -> str:
    return f"{seat.entry.name} to table {seat.table.number}, seat {seat.position}"


def _seat_of(round: Round, entry: Entry) -> Seat:
    seat = (
        Seat.objects.select_related("table", "entry__player")
        .filter(round=round, entry_id=entry.pk)
        .first()
    )
    if seat is None:
        raise SeatingError(
            _(
                "{name} has no seat in round {number}: seat the round first, "
                "or choose a seated player."
            ).format(name=entry.name, number=round.number)
        )
    return seat


def seats_exchange(*, round: Round, entry_a: Entry, entry_b: Entry) -> tuple[Seat, Seat]:
    """Each player takes the other's seat. No status check or audit: the caller (a draft edit
    or a ruling) has locked the round and decided the change is allowed."""
    seat_a, seat_b = _seat_of(round, entry_a), _seat_of(round, entry_b)
    if seat_a.pk == seat_b.pk:
        raise SeatingError(_("Choose two different players to swap."))
    # Delete and create again: updating in place would seat one player twice for a moment,
    # which the database's one-seat-per-round constraint refuses.
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    new_a, new_b = Seat.objects.bulk_create(
        [_seat_at(seat_b, entry=seat_a.entry), _seat_at(seat_a, entry=seat_b.entry)]
    )
    return new_a, new_b


def _seat_at(place: Seat, *, entry: Entry) -> Seat:
    """A new seat for `entry` in `place`'s seat, first deal included."""
    return Seat(
        table=place.table,
        round_id=place.round_id,
        entry=entry,
        position=place.position,
        is_first_dealer=place.is_first_dealer,
    )


def seat_relocate(*, round: Round, entry: Entry, table: Table, position: int | None = None) -> Seat:
    """Move a player to another table of the round. No status check or audit (see
    `seats_exchange`); `round` must come with its tournament."""
    seat = _seat_of(round, entry)
    source = seat.table
    leaving = list(source.seats.select_related("entry__player").order_by("position"))
    joining = list(table.seats.select_related("entry__player").order_by("position"))
    _check_move(round, seat, table, len(leaving), len(joining), position)
    stay = _pass_first_deal([s for s in leaving if s.pk != seat.pk], leaving.index(seat), seat)
    seat.table, seat.is_first_dealer = table, False
    joining.insert(len(joining) if position is None else position - 1, seat)
    Seat.objects.filter(table__in=[source, table]).delete()
    created = Seat.objects.bulk_create(_renumbered(stay) + _renumbered(joining))
    return next(new for new in created if new.entry_id == entry.pk)


def _check_move(
    round: Round, seat: Seat, table: Table, leaving: int, joining: int, position: int | None
) -> None:
    if table.round_id != round.pk:
        raise SeatingError(
            _("Table {table} is not a table of round {number}.").format(
                table=table.number, number=round.number
            )
        )
    name = seat.entry.name
    if table.pk == seat.table_id:
        raise SeatingError(
            _(
                "{name} already sits at table {table}: swap two players to change seats "
                "at one table."
            ).format(name=name, table=table.number)
        )
    if leaving == 1:
        raise SeatingError(
            _(
                "Table {table} would be left with nobody: to change the number of "
                "tables, seat the round again."
            ).format(table=seat.table.number)
        )
    shape = round.tournament.rules().shape()
    most = min(MAX_SEATS, shape.max_sides * shape.members)
    if joining >= most:
        raise SeatingError(
            _("Table {table} is full: it seats {joining}, the most a table may (R12.2).").format(
                table=table.number, joining=joining
            )
        )
    if position is not None and not 1 <= position <= joining + 1:
        raise SeatingError(
            _("Choose a seat from 1 to {last} at table {table}.").format(
                last=joining + 1, table=table.number
            )
        )


def _pass_first_deal(stay: list[Seat], index: int, leaver: Seat) -> list[Seat]:
    """When the first dealer leaves, the next player clockwise deals first (R4.3)."""
    if leaver.is_first_dealer and stay:
        stay[index % len(stay)].is_first_dealer = True
    return stay


def _renumbered(seats: list[Seat]) -> list[Seat]:
    return [
        Seat(
            table=seat.table,
            round_id=seat.round_id,
            entry=seat.entry,
            position=number,
            is_first_dealer=seat.is_first_dealer,
        )
        for number, seat in enumerate(seats, start=1)
    ]


@transaction.atomic
def bye_swap(
    *, round: Round, bye_entry: Entry, seated_entry: Entry, by: AbstractBaseUser | None
) -> Seat:
    """Give a draft round's bye to a seated player: the player with the bye takes that
    player's seat (first deal included), and that player sits out instead."""
    round = _draft_round(round)
    bye = Bye.objects.filter(round=round, entry_id=bye_entry.pk).first()
    if bye is None:
        raise SeatingError(
            _("{name} has no bye in round {number}: choose a player with a bye.").format(
                name=bye_entry.player.name, number=round.number
            )
        )
    place = _seat_of(round, seated_entry)
    place.delete()
    bye.delete()
    seat = _seat_at(place, entry=bye_entry)
    seat.save()
    Bye.objects.create(round=round, entry=seated_entry)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="bye.swap",
        summary=(
            f"Round {round.number}: {bye_entry.player.name} to table {place.table.number}, "
            f"seat {place.position}; bye to {seated_entry.player.name}"
        ),
        detail={"round": round.number, "seated": bye_entry.pk, "bye": seated_entry.pk},
    )
    return seat


# --- the table's private link ---------------------------------------------------------------------


@transaction.atomic
def table_link_reissue(*, table: Table, by: AbstractBaseUser | None) -> Table:
    """Give the table a new private scorekeeper link; the old one stops working at once."""
    # Only the table's row (`of=self`): results lock its round before it, never after.
    tables = Table.objects.select_for_update(of=("self",)).select_related("round__tournament")
    table = tables.get(pk=table.pk)
    table.access_token = new_access_token()
    table.token_issued_at = timezone.now()
    table.save(update_fields=["access_token", "token_issued_at"])
    audit_record(
        tournament=table.round.tournament,
        actor=by,
        action="table.link_reissue",
        summary=f"Round {table.round.number}: new scorekeeper link for table {table.number}",
        detail={"round": table.round.number, "table": table.number},
    )
    return table
