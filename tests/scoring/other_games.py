"""Tournaments of Hand and Foot and of Parcellus, made in code and seated by hand, for the tests
that play them through the services and the table API.

Hand and Foot: two teams of two a table, partners opposite: a table is named by its four players
in seat order, and seats 1 and 3 are one team, seats 2 and 4 the other (games.base). Each team is
a team entry (HF1.2) named "Ann & Cy" holding one seat, the team's. Parcellus: three players a
table, one side each.
"""

from typing import Any

from django.db.models import Q

import games
from scoring.rounds import round_publish
from tables.models import Seat, Table
from tests.factories import EntryFactory, RoundFactory, TournamentFactory, team_entry
from tournament.models import Entry, Round, Tournament


def game_tournament(key: str, **fields: Any) -> Tournament:
    """A tournament of the game `key` under its default preset, stored whole (`Game.dump`)."""
    game = games.get(key)
    return TournamentFactory(game=key, ruleset=game.dump(game.ruleset()), **fields)


def seated_by_hand(tournament: Tournament, tables: list[list[str]], number: int = 1) -> Round:
    """A published round whose tables seat the named players in seat order (new entries)."""
    round = RoundFactory(tournament=tournament, number=number)
    members = tournament.rules().shape().members
    for table_number, names in enumerate(tables, start=1):
        table = Table.objects.create(round=round, number=table_number)
        for position, entry in enumerate(_sides(tournament, names, members), start=1):
            Seat.objects.create(
                table=table,
                round=round,
                entry=entry,
                position=position,
                is_first_dealer=position == 1,
            )
    return round_publish(round=Round.objects.select_related("tournament").get(pk=round.pk), by=None)


def _sides(tournament: Tournament, names: list[str], members: int) -> list[Entry]:
    if members == 1:
        return [_entry(tournament, name) for name in names]
    count = len(names) // members
    return [_team(tournament, (names[side], names[side + count])) for side in range(count)]


def _entry(tournament: Tournament, name: str) -> Entry:
    found = tournament.entries.filter(player__name=name).first()
    return found or EntryFactory(tournament=tournament, player__name=name)


def _team(tournament: Tournament, partners: tuple[str, str]) -> Entry:
    found = tournament.entries.filter(player__name=partners[0]).first()
    return found or team_entry(tournament, " & ".join(partners), partners)


def entry_of(tournament: Tournament, name: str) -> Entry:
    """The entry of the player `name`: theirs, or their team's."""
    entries = tournament.entries.select_related("player")
    return entries.filter(Q(player__name=name) | Q(members__player__name=name)).distinct().get()


def table_of(round: Round, number: int = 1) -> Table:
    return Table.objects.select_related("round__tournament").get(round=round, number=number)
