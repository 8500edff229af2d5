"""A Kalooki tournament of any size, stored in bulk: the 2,000-player tests stay fast.

`tournament_at_scale(n)` seats `n` checked-in players at tables of five in round 1, in play,
and stores `deals` deals at every table but the first (each scored as `tests.scoring.playing.play`
would: seat 1 goes out, the others score 10 plus their seat). Table 1 is left empty for the test
to play through the real services.
"""

from django.db import connection

from scoring.models import Deal, DealResult, ResultRevision
from tables.models import Seat, Table
from tests.factories import TournamentFactory
from tournament.models import Entry, Player, Round, Tournament

SEATS = 5


def tournament_at_scale(players: int, *, deals: int = 0, **fields: object) -> Tournament:
    fields.setdefault("is_published", True)
    tournament = TournamentFactory(**fields)
    people = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {n:04}", club=f"Club {n % 40}")
        for n in range(players)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=person, status=Entry.Status.CHECKED_IN)
        for person in people
    )
    round = Round.objects.create(tournament=tournament, number=1, status=Round.Status.IN_PLAY)
    tables = Table.objects.bulk_create(
        Table(round=round, number=n + 1) for n in range(players // SEATS)
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round,
            entry=entries[t * SEATS + p],
            position=p + 1,
            is_first_dealer=p == 0,
        )
        for t, table in enumerate(tables)
        for p in range(SEATS)
    )
    _play(tables[1:], entries, deals)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return tournament


def _play(tables: list[Table], entries: list[Entry], deals: int) -> None:
    stored = Deal.objects.bulk_create(
        Deal(table=table, number=n, detail={"down_and_out": False})
        for table in tables
        for n in range(1, deals + 1)
    )
    DealResult.objects.bulk_create(
        DealResult(
            deal=deal,
            entry=entries[(deal.table.number - 1) * SEATS + side],
            side=side,
            points=0 if side == 0 else 10 + side + 1,
            went_out=side == 0,
        )
        for deal in stored
        for side in range(SEATS)
    )
    ResultRevision.objects.bulk_create(
        ResultRevision(
            deal=deal, version=1, status=ResultRevision.Status.CONFIRMED, entry={}, scores={}
        )
        for deal in stored
    )
