"""Tournaments of Hand and Foot and of Parcellus, made in code and seated by hand (their seating
comes with issue #15), for the tests that play them through the services and the table API.

Hand and Foot: two teams of two a table, partners opposite: seats 1 and 3 are one side, seats 2
and 4 the other (games.base). Parcellus: three players a table, one side each.
"""

from typing import Any

import games
from scoring.rounds import round_publish
from tables.models import Seat, Table
from tests.factories import EntryFactory, RoundFactory, TournamentFactory
from tournament.models import Entry, Round, Tournament


def game_tournament(key: str, **fields: Any) -> Tournament:
    """A tournament of the game `key` under its default preset, stored whole (`Game.dump`)."""
    game = games.get(key)
    return TournamentFactory(game=key, ruleset=game.dump(game.ruleset()), **fields)


def seated_by_hand(tournament: Tournament, tables: list[list[str]], number: int = 1) -> Round:
    """A published round whose tables seat the named players in seat order (new entries)."""
    round = RoundFactory(tournament=tournament, number=number)
    for table_number, names in enumerate(tables, start=1):
        table = Table.objects.create(round=round, number=table_number)
        for position, name in enumerate(names, start=1):
            entry = _entry(tournament, name)
            Seat.objects.create(
                table=table,
                round=round,
                entry=entry,
                position=position,
                is_first_dealer=position == 1,
            )
    return round_publish(round=Round.objects.select_related("tournament").get(pk=round.pk), by=None)


def _entry(tournament: Tournament, name: str) -> Entry:
    found = tournament.entries.filter(player__name=name).first()
    return found or EntryFactory(tournament=tournament, player__name=name)


def entry_of(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.select_related("player").get(player__name=name)


def table_of(round: Round, number: int = 1) -> Table:
    return Table.objects.select_related("round__tournament").get(round=round, number=number)
