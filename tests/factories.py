"""factory_boy factories for the domain model; each builds a valid row with its parents."""

import datetime
from typing import Any

import factory
from django.contrib.auth import get_user_model

from scoring.models import Deal, DealResult, Ruling
from tables.models import Seat, Table
from tournament.models import Entry, EntryMember, Player, Round, StaffRole, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse battery staple")


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Kalooki Open {n}")
    slug = factory.Sequence(lambda n: f"kalooki-open-{n}")
    starts_on = datetime.date(2026, 11, 21)
    ends_on = datetime.date(2026, 11, 22)
    venue = "Kingston"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Player {n}")
    club = "Half Way Tree"


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))
    status = Entry.Status.CHECKED_IN


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1


class StaffRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = StaffRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = StaffRole.Role.DIRECTOR


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    round = factory.SelfAttribute("table.round")
    entry = factory.SubFactory(
        EntryFactory, tournament=factory.SelfAttribute("..table.round.tournament")
    )
    position = factory.Sequence(lambda n: n % 5 + 1)


class DealFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Deal

    table = factory.SubFactory(TableFactory)
    number = 1
    detail = factory.LazyFunction(lambda: {"down_and_out": False})


class DealResultFactory(factory.django.DjangoModelFactory):
    """A Kalooki player's result, as the game stores one entered as 20 points."""

    class Meta:
        model = DealResult

    deal = factory.SubFactory(DealFactory)
    entry = factory.SubFactory(
        EntryFactory, tournament=factory.SelfAttribute("..deal.table.round.tournament")
    )
    side = factory.Sequence(lambda n: n % 5)
    points = 20
    went_out = False
    entered = factory.LazyAttribute(
        lambda result: {
            "values": {
                "went_out": result.went_out,
                "cards": "" if result.went_out else None,
                "points": None if result.went_out else result.points,
                "calls": None,
                "failed_come_downs": 0,
                "overcall_penalty": False,
            },
            "members": [],
        }
    )
    detail = factory.LazyAttribute(
        lambda result: {
            "card_points": result.points,
            "doubled": False,
            "doubled_points": result.points,
            "penalties": 0,
        }
    )


class RulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ruling

    tournament = factory.SubFactory(TournamentFactory)
    entry = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..tournament"))
    kind = Ruling.Kind.PENALTY_POINTS
    points = 25
    decision = "25 penalty points for a late return to the table."


def team_entry(
    tournament: Any,
    team_name: str,
    partners: tuple[str, str] | None = None,
    status: str = Entry.Status.CHECKED_IN,
) -> Entry:
    """A team entry of a game of partners (HF1.2): its name and its two members."""
    first, second = partners or (f"{team_name} One", f"{team_name} Two")
    one = PlayerFactory(tournament=tournament, name=first, club="")
    two = PlayerFactory(tournament=tournament, name=second, club="")
    entry = Entry.objects.create(
        tournament=tournament, player=one, team_name=team_name, status=status
    )
    EntryMember.objects.create(entry=entry, player=one, position=1)
    EntryMember.objects.create(entry=entry, player=two, position=2)
    return entry
