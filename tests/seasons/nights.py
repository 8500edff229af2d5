"""A club's season built through the real services: members imported, nights played and locked.

Each night seats its players (tables of five, R12.1), plays one full set at every table with the
first seat going out each game and the others scoring by seat (so each table's order is its seat
order: tests.scoring.playing.play), locks the round and finishes the night.
"""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from openskill.models import PlackettLuce

from clubs.models import Club
from clubs.services import club_create, members_import_csv
from scoring.rounds import round_complete, round_lock, round_publish
from seasons.points import event_points
from tables.services import round_seat
from tests.factories import RoundFactory
from tests.scoring.playing import play_set, tables_of
from tournament.models import Player, Round, Tournament
from tournament.services import (
    entries_check_in_all,
    players_import_csv,
    tournament_create,
    tournament_status_set,
)


def club_of(by: AbstractBaseUser, members: int = 30) -> Club:
    club = club_create(name="Half Way Tree", by=by)
    rows = "\n".join(f"Member {n:02},M{n}" for n in range(1, members + 1))
    members_import_csv(club=club, by=by, text=f"name,number\n{rows}\n")
    return club


def night(club: Club, by: AbstractBaseUser, day: int, numbers: range) -> Tournament:
    """One night of the members with `numbers`, played to the end and finished."""
    date = datetime.date(2026, 10, day)
    tournament = tournament_create(by=by, name=f"Night {day}", starts_on=date, ends_on=date,
                                   club=club)  # fmt: skip
    rows = "\n".join(f"Member {n:02},M{n}" for n in numbers)
    players_import_csv(tournament=tournament, by=by, text=f"name,number\n{rows}\n")
    entries_check_in_all(tournament=tournament, by=by)
    round = RoundFactory(tournament=tournament, number=1)
    round_seat(round=round, seed=day)
    round = round_publish(round=Round.objects.get(pk=round.pk), by=by)
    for table in tables_of(round):
        play_set(table)
    round_complete(round=round, by=by)
    round_lock(round=Round.objects.get(pk=round.pk), by=by)
    tournament_status_set(tournament=tournament, to="finished", by=by)
    return tournament


def expected_ratings(tournaments: list[Tournament]) -> dict[int, tuple[float, int]]:
    """Each member's display rating (mu - 3 sigma) and matches, from openskill directly: each
    table a match, its seat order the ranking, the rounds in the order they were locked."""
    model, ratings, games = PlackettLuce(), {}, {}
    rounds = Round.objects.filter(tournament__in=tournaments).order_by("locked_at", "pk")
    for round in rounds:
        for table in tables_of(round):
            seats = list(table.seats.order_by("position").select_related("entry__player"))
            members = [seat.entry.player.member_id for seat in seats]
            teams = [[ratings.get(m, model.rating())] for m in members]
            rated = model.rate(teams, ranks=list(range(1, len(members) + 1)))
            for member, [rating] in zip(members, rated, strict=True):
                ratings[member] = rating
                games[member] = games.get(member, 0) + 1
    return {m: (r.mu - 3 * r.sigma, games[m]) for m, r in ratings.items()}


def expected_points(tournament: Tournament, standings: dict) -> dict[int, int]:
    """Each member's points for the night by the README's scale: field - place + 1."""
    placed = [row for row in standings["players"] if row["place"] is not None]
    member = dict(Player.objects.filter(tournament=tournament).values_list("entries__id",
                                                                          "member_id"))  # fmt: skip
    return {member[row["entry"]]: event_points(row["place"], len(placed)) for row in placed}
