"""Helpers that play a tournament in stages through the real services."""

from scoring.models import Deal, DealResult
from scoring.rounds import round_add, round_complete, round_publish, round_start
from scoring.standings import standings_compute
from tables.services import round_seat
from tests.factories import DealFactory, DealResultFactory
from tests.scoring.playing import play
from tournament.models import Round, Tournament
from tournament.stage_services import StagePlan, stages_set

QUALIFYING = StagePlan(kind="qualifying", rounds=3)


def final_of(size: int = 5, **settings: object) -> StagePlan:
    return StagePlan(kind="final", rounds=1, size=size, **settings)  # type: ignore[arg-type]


def plan_stages(tournament: Tournament, *plan: StagePlan) -> None:
    stages_set(tournament=tournament, plan=list(plan), by=None)


def play_round(round: Round, *, tilt: int = 0) -> Round:
    """Publish `round` (seated) and play every table's nine games: the winner of each game moves
    round the table, and the others score their seat position, plus `tilt` at odd tables."""
    round = round_publish(round=round, by=None)
    for table in round.tables.order_by("number"):
        size = table.seats.count()
        for number in range(1, 10):
            play(table, number, winner=(number + table.number) % size, points=tilt * table.number)
    return round_complete(round=round, by=None)


def play_qualifying(tournament: Tournament, rounds: int = 3) -> None:
    """Add, seat (seeded) and play the qualifying rounds."""
    for _ in range(rounds):
        round = round_add(tournament=tournament, by=None)
        round_seat(round=round, seed=round.number)
        play_round(round, tilt=round.number)


def standings(tournament: Tournament) -> dict:
    return standings_compute(tournament=tournament)


def fill_round(round: Round, *, tilt: int = 0) -> Round:
    """`play_round`, fast: the nine games of every table stored as rows (factories), not
    entered one by one; the round is published, started and completed by its services. In each
    game one player goes out (the winner moves round the table) and the others hold card
    points by their seat, plus `tilt` at each table after the first."""
    round = round_start(round=round_publish(round=round, by=None), by=None)
    for table in round.tables.order_by("number"):
        seats = list(table.seats.select_related("entry").order_by("position"))
        deals = Deal.objects.bulk_create(
            DealFactory.build(table=table, number=number) for number in range(1, 10)
        )
        DealResult.objects.bulk_create(
            DealResultFactory.build(
                deal=deal,
                entry=seat.entry,
                side=index,
                went_out=index == (deal.number + table.number) % len(seats),
                points=0
                if index == (deal.number + table.number) % len(seats)
                else seat.position + tilt * (table.number - 1) + deal.number,
            )
            for deal in deals
            for index, seat in enumerate(seats)
        )
    return round_complete(round=round, by=None)


def fill_qualifying(tournament: Tournament, rounds: int = 3) -> None:
    """`play_qualifying`, fast (`fill_round`)."""
    for _ in range(rounds):
        round = round_add(tournament=tournament, by=None)
        round_seat(round=round, seed=round.number)
        fill_round(round, tilt=round.number)
