"""A demo tournament in progress, for a newcomer's first look (make run).

Round 1 of the "Demo Kalooki Open" is seated by the seating service and some of its games are
recorded by the same service a scorekeeper uses, each made by the game itself
(``Rules.example_entry``: hands dealt out of a real 162-card deck), so every number on screen went
through the game's checks and scoring. Everything is drawn from fixed seeds:
loading the demo twice gives the same tournament, and the second load changes nothing.
"""

import datetime
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from games.base import Rules
from scoring.matches import sides_of
from scoring.services import SideInput, result_record
from tables.models import Seat, Table
from tables.services import round_seat
from tournament.models import Entry, Player, Round, StaffRole, Tournament

SLUG = "demo-kalooki-open"
SEED = 2025
PASSWORDS = {
    "admin": "kalooki-admin",
    "director": "kalooki-director",
    "scorekeeper": "kalooki-score",
}
# Games recorded so far at each table of round 1; table 3 also had a void attempt at game 3.
GAMES_PLAYED = (4, 3, 3, 5, 1)
VOID_AT = (3, 3)  # (table, game)
DOWN_AND_OUT_AT = (4, 5)

PLAYERS = [
    ("Marcia Campbell", "Half Way Tree"),
    ("Delroy Brown", "Half Way Tree"),
    ("Sonia Williams", "Portmore"),
    ("Errol Thompson", "Portmore"),
    ("Paulette Reid", "Mandeville"),
    ("Winston Clarke", "Mandeville"),
    ("Hyacinth Morgan", "Montego Bay"),
    ("Clive Henry", "Montego Bay"),
    ("Beverley Grant", "Spanish Town"),
    ("Lloyd Francis", "Spanish Town"),
    ("Yvonne Stewart", "Ocho Rios"),
    ("Neville Walker", "Ocho Rios"),
    ("Claudette Lewis", "May Pen"),
    ("Dalton Wright", "May Pen"),
    ("Jacqueline Allen", "Half Way Tree"),
    ("Trevor Hall", "Portmore"),
    ("Merline Gordon", "Mandeville"),
    ("Keith Bailey", "Montego Bay"),
    ("Audrey Johnson", "Spanish Town"),
    ("Fitzroy Miller", "Ocho Rios"),
    ("Gloria Harris", "May Pen"),
    ("Desmond Powell", "Half Way Tree"),
    ("Norma James", "Portmore"),
]


@dataclass(frozen=True)
class DemoSummary:
    tournament: Tournament
    created: bool


def demo_load(*, accounts: bool) -> DemoSummary:
    """Load the demo tournament unless it is already there; its demo accounts (whose passwords
    are public) only when `accounts` is asked for: never in production by default."""
    existing = Tournament.objects.filter(slug=SLUG).first()
    if existing is not None:
        return DemoSummary(existing, created=False)
    with transaction.atomic():
        return DemoSummary(_build(accounts=accounts), created=True)


def _build(*, accounts: bool) -> Tournament:
    users = (
        {name: _user(name, password) for name, password in PASSWORDS.items()} if accounts else {}
    )
    tournament = _tournament(users)
    round_one = Round.objects.create(tournament=tournament, number=1)
    Round.objects.create(tournament=tournament, number=2)
    round_seat(round=round_one, by=users.get("director"), seed=SEED)
    round_one.status = Round.Status.IN_PLAY
    round_one.published_at = timezone.now()
    round_one.save(update_fields=["status", "published_at"])
    rng = random.Random(SEED)
    for table, games in zip(round_one.tables.order_by("number"), GAMES_PLAYED, strict=True):
        if accounts:
            table.scorekeepers.add(users["scorekeeper"])
        _play(table, games, rng, users.get("scorekeeper"))
    return tournament


def _user(username: str, password: str) -> AbstractUser:
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.is_staff = True
    user.is_superuser = username == "admin"
    user.set_password(password)
    user.save()
    return user


def _tournament(users: dict[str, AbstractUser]) -> Tournament:
    today = timezone.localdate()
    tournament = Tournament.objects.create(
        name="Demo Kalooki Open",
        slug=SLUG,
        starts_on=today,
        ends_on=today + datetime.timedelta(days=1),
        venue="Jamaica Pegasus, Kingston",
        status=Tournament.Status.RUNNING,
        is_published=True,
        rounds_planned=3,
    )
    if users:
        StaffRole.objects.create(tournament=tournament, user=users["director"], role="director")
        StaffRole.objects.create(
            tournament=tournament, user=users["scorekeeper"], role="scorekeeper"
        )
    for name, club in PLAYERS:
        player = Player.objects.create(tournament=tournament, name=name, club=club)
        Entry.objects.create(
            tournament=tournament,
            player=player,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=timezone.now(),
        )
    return tournament


def _play(table: Table, deals: int, rng: random.Random, by: AbstractUser | None) -> None:
    rules = table.round.tournament.rules()
    seats = list(table.seats.order_by("position"))
    for number in range(1, deals + 1):
        if (table.number, number) == VOID_AT:
            result_record(table=table, number=number, void=True, by=by, via="demo")
        sides, values = _deal_result(rules, seats, number, rng)
        values["down_and_out"] = (table.number, number) == DOWN_AND_OUT_AT
        result_record(table=table, number=number, sides=sides, values=values, by=by, via="demo")


def _deal_result(
    rules: Rules[Any], seats: list[Seat], number: int, rng: random.Random
) -> tuple[list[SideInput], dict[str, Any]]:
    """A plausible end of the deal, as the game makes one (``Rules.example_entry``), for the
    table's sides in side order."""
    sides = sides_of(rules, seats)
    entry = rules.example_entry(number, len(sides), rng)
    inputs = [
        SideInput(side_seats[0].entry_id, dict(side.values), tuple(side.members))
        for side_seats, side in zip(sides, entry.sides, strict=True)
    ]
    return inputs, dict(entry.values)
