"""A demo tournament in progress, for a newcomer's first look (make run).

Round 1 of the "Demo Kalooki Open" is seated by the seating service and some of its games are
recorded by the same service a scorekeeper uses, each made by the game itself
(``Rules.example_report``: hands dealt out of a real 162-card deck), so every number on screen went
through the game's checks and scoring. Everything is drawn from fixed seeds:
loading the demo twice gives the same tournament, and the second load changes nothing.

Beside it, the "Demo Parcellus Cup": ten players at tables of three with a bye each round
(PA7.1); round 1 played to the end of every match and completed, round 2 seated by the standings
(the bye to the lowest without one) and in play, a deal or two at each table.

And the "Demo Hand and Foot Night": nine teams of two partners (HF1.2), two teams a table and one
team out each round (HF11.1); round 1 played out (time called at one table after two hands,
HF2.2) and completed, round 2 seated by the standings and in play, a hand or two at each table.

All three belong to the "Demo Card Club", whose member register holds every demo player (a
name that plays two demo nights is one member); the demo director directs it.
"""

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Member
from games import get as game_of
from games.base import Rules
from scoring.matches import played, sides_of
from scoring.planner import analyze
from scoring.rounds import round_complete
from scoring.services import SideInput, WarningsNotConfirmed, result_record
from scoring.standings import standing_order
from scoring.time_called import table_time_call
from tables.models import Seat, Table
from tables.services import round_seat
from tournament.models import Entry, EntryMember, Player, Round, StaffRole, Tournament

SLUG = "demo-kalooki-open"
CLUB_SLUG = "demo-card-club"  # every demo tournament's club; its players are its members
PARCELLUS_SLUG = "demo-parcellus-cup"
PARCELLUS_PLAYERS = [
    ("Ava Chen", "Mona"),
    ("Bruno Silva", "Mona"),
    ("Chidi Okafor", "Papine"),
    ("Dana Levi", "Papine"),
    ("Elif Kaya", "Liguanea"),
    ("Farah Haddad", "Liguanea"),
    ("Goran Petrov", "Hope"),
    ("Hana Sato", "Hope"),
    ("Ines Duarte", "Mona"),
    ("Jonas Berg", "Papine"),
]
PARCELLUS_DEALS_LIVE = (2, 1, 1)  # deals entered so far at each table of round 2
HAND_AND_FOOT_SLUG = "demo-hand-and-foot-night"
TEAMS = [
    ("Kingston Kings", ("Marva Bennett", "Oswald Dixon")),
    ("Mona Jokers", ("Pearl Fraser", "Rupert Gayle")),
    ("Papine Pairs", ("Hortense Ellis", "Lascelles Brown")),
    ("Hope Red Threes", ("Icilda Morris", "Vernon Chin")),
    ("Liguanea Books", ("Cynthia Watson", "Basil Shaw")),
    ("Portmore Feet", ("Enid Palmer", "Roy Samuels")),
    ("Ocho Rios Wilds", ("Daphne Reid", "Horace Lyn")),
    ("May Pen Melds", ("Gwen Simpson", "Alton Hines")),
    ("Spanish Town Aces", ("Myrtle Green", "Carlton Bell")),
]
HANDS_LIVE = (2, 1, 1, 2)  # hands entered so far at each table of round 2
TIME_CALLED_AT = (2, 2)  # round 1: (table, after this many hands)
MAX_DEALS = 40  # a match to 30 ends long before: a guard, not a rule
EXAMPLE_TRIES = 20  # example deals drawn until one needs no confirmation (HF8.8: nobody out)
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
    return _load_once(SLUG, _build, accounts=accounts)


def parcellus_demo_load(*, accounts: bool) -> DemoSummary:
    """Load the Parcellus demo unless it is already there (the accounts as `demo_load`)."""
    return _load_once(PARCELLUS_SLUG, _build_parcellus, accounts=accounts)


def hand_and_foot_demo_load(*, accounts: bool) -> DemoSummary:
    """Load the Hand and Foot demo unless it is already there (the accounts as `demo_load`)."""
    return _load_once(HAND_AND_FOOT_SLUG, _build_hand_and_foot, accounts=accounts)


def _load_once(slug: str, build: Callable[..., Tournament], *, accounts: bool) -> DemoSummary:
    existing = Tournament.objects.filter(slug=slug).first()
    if existing is not None:
        return DemoSummary(existing, created=False)
    with transaction.atomic():
        summary = DemoSummary(build(accounts=accounts), created=True)
    analyze()  # a fresh database's statistics say its tables are empty (scoring.planner)
    return summary


def _users(accounts: bool) -> dict[str, AbstractUser]:
    return {name: _user(name, pw) for name, pw in PASSWORDS.items()} if accounts else {}


def _club(users: dict[str, AbstractUser]) -> Club:
    """The demo club every demo tournament belongs to; the demo director directs it."""
    club, _ = Club.objects.get_or_create(slug=CLUB_SLUG, defaults={"name": "Demo Card Club"})
    if users:
        club.directors.add(users["director"])
    return club


def _member(club: Club | None, name: str) -> Member | None:
    """The club's member of this name: a regular plays every demo night as one member."""
    if club is None:
        return None
    member = club.members.filter(name=name).first()
    return member or Member.objects.create(club=club, name=name)


def _running(game_key: str, name: str, slug: str, venue: str) -> Tournament:
    """A published tournament of `game_key` under its default preset, running today."""
    game = game_of(game_key)
    today = timezone.localdate()
    return Tournament.objects.create(
        club=_club({}),
        name=name,
        slug=slug,
        game=game_key,
        ruleset=game.dump(game.ruleset()),
        starts_on=today,
        ends_on=today,
        venue=venue,
        status=Tournament.Status.RUNNING,
        is_published=True,
        rounds_planned=3,
    )


def _build_parcellus(*, accounts: bool) -> Tournament:
    users = _users(accounts)
    tournament = _running(
        "parcellus", "Demo Parcellus Cup", PARCELLUS_SLUG, "Mona Common Room, Kingston"
    )
    _staff_and_players(tournament, users, PARCELLUS_PLAYERS)
    director, keeper = users.get("director"), users.get("scorekeeper")
    rng = random.Random(SEED + 16)
    first = _published(tournament, 1, director, standing=[])
    for table in first.tables.order_by("number"):
        _play(table, MAX_DEALS, rng, keeper)
    round_complete(round=first, by=director)
    second = _published(tournament, 2, director, standing=standing_order(tournament=tournament))
    for table, deals in zip(second.tables.order_by("number"), PARCELLUS_DEALS_LIVE, strict=True):
        _play(table, deals, rng, keeper)
    return tournament


def _build_hand_and_foot(*, accounts: bool) -> Tournament:
    users = _users(accounts)
    tournament = _running(
        "hand_and_foot", "Demo Hand and Foot Night", HAND_AND_FOOT_SLUG, "Liguanea Club, Kingston"
    )
    _staff_and_players(tournament, users, [])
    _teams(tournament)
    director, keeper = users.get("director"), users.get("scorekeeper")
    rng = random.Random(SEED + 15)
    first = _published(tournament, 1, director, standing=[])
    for table in first.tables.order_by("number"):
        called = TIME_CALLED_AT[1] if table.number == TIME_CALLED_AT[0] else MAX_DEALS
        _play(table, called, rng, keeper)
        if called != MAX_DEALS:
            table_time_call(table=table, by=director, via="director (demo)")
    round_complete(round=first, by=director)
    second = _published(tournament, 2, director, standing=standing_order(tournament=tournament))
    for table, hands in zip(second.tables.order_by("number"), HANDS_LIVE, strict=True):
        _play(table, hands, rng, keeper)
    return tournament


def _teams(tournament: Tournament) -> None:
    for name, partners in TEAMS:
        players = [
            Player.objects.create(tournament=tournament, name=p, member=_member(tournament.club, p))
            for p in partners
        ]
        entry = Entry.objects.create(
            tournament=tournament,
            player=players[0],
            team_name=name,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=timezone.now(),
        )
        for position, player in enumerate(players, start=1):
            EntryMember.objects.create(entry=entry, player=player, position=position)


def _published(
    tournament: Tournament, number: int, by: AbstractUser | None, standing: list[int]
) -> Round:
    round = Round.objects.create(tournament=tournament, number=number)
    round_seat(round=round, by=by, seed=SEED + number, standing=standing)
    round.status = Round.Status.IN_PLAY
    round.published_at = timezone.now()
    round.save(update_fields=["status", "published_at"])
    return Round.objects.select_related("tournament").get(pk=round.pk)


def _build(*, accounts: bool) -> Tournament:
    users = _users(accounts)
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
        club=_club(users),
        name="Demo Kalooki Open",
        slug=SLUG,
        starts_on=today,
        ends_on=today + datetime.timedelta(days=1),
        venue="Jamaica Pegasus, Kingston",
        status=Tournament.Status.RUNNING,
        is_published=True,
        rounds_planned=3,
    )
    _staff_and_players(tournament, users, PLAYERS)
    return tournament


def _staff_and_players(
    tournament: Tournament, users: dict[str, AbstractUser], players: list[tuple[str, str]]
) -> None:
    if users:
        _club(users)
        StaffRole.objects.create(tournament=tournament, user=users["director"], role="director")
        StaffRole.objects.create(
            tournament=tournament, user=users["scorekeeper"], role="scorekeeper"
        )
    for name, club in players:
        member = _member(tournament.club, name)
        player = Player.objects.create(tournament=tournament, name=name, club=club, member=member)
        Entry.objects.create(
            tournament=tournament,
            player=player,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=timezone.now(),
        )


def _play(table: Table, deals: int, rng: random.Random, by: AbstractUser | None) -> None:
    """Record up to `deals` deals at `table`, fewer if the match is over first."""
    rules = table.round.tournament.rules()
    seats = list(table.seats.order_by("position"))
    kalooki = rules.game.key == "kalooki"
    for number in range(1, deals + 1):
        if rules.match_over(played(table.deals.prefetch_related("results"))):
            return
        if not kalooki:
            _record_plain(table, rules, seats, number, rng, by)
            continue
        if (table.number, number) == VOID_AT:
            result_record(table=table, number=number, void=True, by=by, via="demo")
        sides, values = _deal_result(rules, seats, number, rng)
        values["down_and_out"] = (table.number, number) == DOWN_AND_OUT_AT
        result_record(table=table, number=number, sides=sides, values=values, by=by, via="demo")


def _record_plain(
    table: Table,
    rules: Rules[Any],
    seats: list[Seat],
    number: int,
    rng: random.Random,
    by: AbstractUser | None,
) -> None:
    """One deal as a table enters it without a warning to confirm: example deals are drawn
    until one needs none (a Hand and Foot hand with nobody out asks for it, HF8.8)."""
    for _ in range(EXAMPLE_TRIES):
        sides, values = _deal_result(rules, seats, number, rng)
        try:
            result_record(table=table, number=number, sides=sides, values=values, by=by, via="demo")
        except WarningsNotConfirmed:
            continue
        return


def _deal_result(
    rules: Rules[Any], seats: list[Seat], number: int, rng: random.Random
) -> tuple[list[SideInput], dict[str, Any]]:
    """A plausible end of the deal, as the game makes one (``Rules.example_report``), for the
    table's sides in side order."""
    sides = sides_of(rules, seats)
    entry = rules.example_report(number, len(sides), rng)
    inputs = [
        SideInput(side_seats[0].entry_id, dict(side.values), tuple(side.members))
        for side_seats, side in zip(sides, entry.sides, strict=True)
    ]
    return inputs, dict(entry.values)
