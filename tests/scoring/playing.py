"""Test helpers that set a tournament up and play its games through the real services.

A game is played the simplest valid way: the player in the first seat (or `winner`) goes out
with no cards, and every other player scores a number of card points (R8.2, R10.4: no cards and
no calls entered, so no warning is raised).
"""

from django.contrib.auth.models import AbstractBaseUser

from scoring.models import Deal, Ruling
from scoring.rounds import round_publish
from scoring.rulings import ruling_record
from scoring.services import HandInput, result_record
from tables.models import Table
from tables.services import round_seat
from tests.factories import EntryFactory, RoundFactory, StaffRoleFactory, TournamentFactory
from tournament.models import Entry, Round, Tournament

NAMES = [
    "Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo",
    "Kit", "Lu", "Mo", "Ned", "Oz", "Pat", "Quin", "Roy", "Sue", "Tom",
]  # fmt: skip


def tournament_with(players: int, **fields: object) -> Tournament:
    """A tournament with `players` checked-in players named Ann, Ben, Cy, ... (then P21, ...)."""
    tournament = TournamentFactory(**fields)
    for index in range(players):
        name = NAMES[index] if index < len(NAMES) else f"P{index + 1}"
        EntryFactory(tournament=tournament, player__name=name)
    return tournament


def director_of(tournament: Tournament, username: str = "alice") -> AbstractBaseUser:
    return StaffRoleFactory(tournament=tournament, user__username=username).user


def seated_round(tournament: Tournament, *, number: int = 1, seed: int = 1) -> Round:
    round = RoundFactory(tournament=tournament, number=number)
    round_seat(round=round, seed=seed)
    return Round.objects.select_related("tournament").get(pk=round.pk)


def published_round(tournament: Tournament, *, number: int = 1, seed: int = 1) -> Round:
    round = seated_round(tournament, number=number, seed=seed)
    return round_publish(round=round, by=None)


def entry(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.select_related("player").get(player__name=name)


def play(
    table: Table,
    number: int,
    *,
    winner: int = 0,
    points: int = 10,
    down_and_out: bool = False,
) -> Deal:
    """Game `number` at `table`: seat index `winner` goes out; the others score `points` plus
    their seat position, so that no two players tie by accident."""
    seats = list(table.seats.order_by("position"))
    hands = [
        HandInput(seat.entry_id, went_out=True, cards="")
        if index == winner
        else HandInput(seat.entry_id, points=points + seat.position)
        for index, seat in enumerate(seats)
    ]
    return result_record(
        table=table, number=number, hands=hands, down_and_out=down_and_out, via="test"
    )


def play_set(table: Table, games: int = 9, **kwargs: object) -> None:
    """The first `games` games of the set at `table` (all nine by default)."""
    first = table.deals.filter(is_void=False).count() + 1
    for number in range(first, first + games):
        play(table, number, **kwargs)


def tables_of(round: Round) -> list[Table]:
    return list(round.tables.order_by("number"))


def seated(table: Table) -> list[str]:
    """The names of the players at `table`, seat 1 first."""
    return [seat.entry.player.name for seat in table.seats.order_by("position")]


def penalty_ruling(
    *, tournament: Tournament, entry: Entry, points: int, decision: str, **extra: object
) -> Ruling:
    """A director's penalty-points ruling against `entry` (R12.4)."""
    return ruling_record(
        tournament=tournament,
        by=None,
        kind="penalty_points",
        entry=entry,
        points=points,
        decision=decision,
        **extra,
    )


def warning_ruling(
    *, tournament: Tournament, entry: Entry, decision: str, **extra: object
) -> Ruling:
    """A director's warning to `entry` (R12.4): on the record, with no points."""
    kind = Ruling.Kind.WARNING
    return ruling_record(
        tournament=tournament, by=None, kind=kind, entry=entry, decision=decision, **extra
    )


def disqualification_ruling(*, tournament: Tournament, entry: Entry, decision: str) -> Ruling:
    """A director disqualifies `entry` (R12.4): their games still count, but they have no place."""
    kind = Ruling.Kind.DISQUALIFICATION
    return ruling_record(tournament=tournament, by=None, kind=kind, entry=entry, decision=decision)


def rounds_over(tournament: Tournament) -> None:
    """The rounds in play are complete, sets finished or not: their results decide the places in
    full (a live round does not, scoring.standings). A test of R12.3's order uses it."""
    in_play = Round.objects.filter(tournament=tournament, status=Round.Status.IN_PLAY)
    in_play.update(status=Round.Status.COMPLETE)
