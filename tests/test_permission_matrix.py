"""Who may use each director endpoint and page: the permission matrix over the whole URL conf.

The Open is in its second round. Round 1 is complete (every table played its set) and round 2 is
published, two tables of five. Alice directs the Open; Bob directs the Cup, another tournament.
Sam keeps score at the Open's table 1 of round 2 (and holds the Open's scorekeeper role). Table
1's link is held by its players; table 2's link by the players next door. On the pages a link
holder is a browser that opened `/t/<token>/` and was remembered there; on the API, the header
`Authorization: Table <token>`. Signed-in people use a session on the pages, a token on the API.

Expected: Alice may do everything (the positive control: her call succeeds, and her writes do
change the database). Everyone else is refused and changes nothing:
- API: 403 for anyone who directs nothing (`IsDirector`; a table link is no sign-in there);
  404 for Bob, who directs, but not the Open (`tournament_for_director` hides it).
- pages: a redirect to sign in for anyone not signed in (a table link opens its table's page,
  and nothing else); 404 for a signed-in user who does not direct the Open.
A few endpoints belong to no tournament (set up a tournament, my tournaments, the Rule check):
Bob may use them too; their refusals are written next to them.

Every URL of the site is in the matrix or, with the reason, in `NOT_IN_MATRIX` (or a namespace
of `NAMESPACES_NOT_IN_MATRIX`), so that a new endpoint without its permission cases fails
`test_every_url_is_in_the_matrix_or_excused`, and a new method of an API view fails
`test_every_method_of_an_api_view_is_in_the_matrix`.
"""

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.messages import ERROR, get_messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Member
from clubs.services import club_create, members_import_csv
from scoring.clock import clock_pause, clock_start
from scoring.control import director_call
from scoring.models import DirectorCall
from scoring.rounds import round_complete, round_publish
from scoring.services import HandInput, result_record
from scoring.standings import standings_refresh
from seasons.services import season_create
from tables.models import Table
from tables.services import pin_seat
from tests.factories import EntryFactory, StaffRoleFactory, UserFactory
from tests.scoring.playing import (
    director_of,
    entry,
    penalty_ruling,
    play,
    play_set,
    published_round,
    seated_round,
    tables_of,
    tournament_with,
)
from tournament.models import Entry, Round, StaffRole, Tournament
from tournament.stage_services import StagePlan, stages_set

pytestmark = pytest.mark.django_db

OPEN, CUP = "open", "cup"
HWT, KINGSTON = "hwt", "kingston"  # the Open's club, and the Cup's

# --- the world: built once for the module; each test runs in a transaction rolled back after it --


@dataclass(frozen=True)
class World:
    entries: dict[str, int]  # the Open's entry ids by player name
    seated: dict[int, list[int]]  # round 2: the entry ids at each table, by table number
    tables: dict[int, int]  # round 2: table ids by number
    tokens: dict[int, str]  # round 2: link tokens by table number
    ruling: int  # a penalty ruling in the Open


def _build() -> World:
    open_ = tournament_with(10, name="Open", slug=OPEN, rounds_planned=4)
    _play_round_1(open_)
    ruling = penalty_ruling(  # in round 1: a ruling in round 2 would keep it from being removed
        tournament=open_, entry=entry(open_, "Ann"), points=25, decision="Showed her cards."
    )
    tables = tables_of(round_publish(round=seated_round(open_, number=2, seed=2), by=None))
    EntryFactory(tournament=open_, player__name="Kit", status=Entry.Status.REGISTERED)
    EntryFactory(tournament=open_, player__name="Mo")  # checked in after round 2 was seated
    EntryFactory(tournament=open_, player__name="Lu", status=Entry.Status.WITHDRAWN)
    cup = tournament_with(5, name="Cup", slug=CUP)
    published_round(cup)
    _cast(open_, cup, keeps=tables[0])
    _clubs(open_, cup)
    return World(
        entries=dict(open_.entries.values_list("player__name", "pk")),
        seated={
            t.number: list(t.seats.order_by("position").values_list("entry_id", flat=True))
            for t in tables
        },
        tables={t.number: t.pk for t in tables},
        tokens={t.number: t.access_token for t in tables},
        ruling=ruling.pk,
    )


def _play_round_1(open_: Tournament) -> None:
    first = published_round(open_, number=1)
    for table in tables_of(first):
        play_set(table)
    round_complete(round=first, by=None)


def _cast(open_: Tournament, cup: Tournament, *, keeps: Table) -> None:
    """Alice directs the Open, Bob the Cup; Sam keeps score at `keeps`. Each has an API token."""
    director_of(open_, "alice")
    director_of(cup, "bob")
    sam = StaffRoleFactory(
        tournament=open_, user__username="sam", role=StaffRole.Role.SCOREKEEPER
    ).user
    keeps.scorekeepers.add(sam)
    for username in ("alice", "bob", "sam"):
        Token.objects.create(user=UserFactory(username=username))


def _clubs(open_: Tournament, cup: Tournament) -> None:
    """Alice directs the Half Way Tree club (the Open's) and Bob the Kingston club (the Cup's),
    each with a register and a season (tenancy: neither sees the other's members)."""
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["alice", "bob"])}
    for slug, tournament, who in ((HWT, open_, "alice"), (KINGSTON, cup, "bob")):
        club = club_create(name=slug.title(), slug=slug, by=users[who])
        members_import_csv(club=club, by=None, text="name,number\nAnn Lee,\nCy Moss,\nDi Ray,\n")
        Tournament.objects.filter(pk=tournament.pk).update(club=club)
        season_create(club=club, by=None, name="Autumn", game="kalooki")
    open_.refresh_from_db()


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build()
        transaction.set_rollback(True)


# --- the actors ----------------------------------------------------------------------------------

ANONYMOUS, LINK, OTHER_LINK = "anonymous", "table-link", "other-table-link"
SCOREKEEPER, OTHER_DIRECTOR, DIRECTOR = "scorekeeper", "other-director", "director"
ACTORS = [ANONYMOUS, LINK, OTHER_LINK, SCOREKEEPER, OTHER_DIRECTOR, DIRECTOR]
USERNAMES = {SCOREKEEPER: "sam", OTHER_DIRECTOR: "bob", DIRECTOR: "alice"}
LINKED_TABLE = {LINK: 1, OTHER_LINK: 2}


def api_client(world: World, actor: str) -> APIClient:
    client = APIClient()
    if actor in LINKED_TABLE:
        client.credentials(HTTP_AUTHORIZATION=f"Table {world.tokens[LINKED_TABLE[actor]]}")
    elif actor in USERNAMES:
        key = Token.objects.get(user__username=USERNAMES[actor]).key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def page_client(world: World, actor: str) -> Client:
    client = Client()
    if actor in LINKED_TABLE:
        _open_the_link(client, world.tokens[LINKED_TABLE[actor]])
    elif actor in USERNAMES:
        client.force_login(get_user_model().objects.get(username=USERNAMES[actor]))
    return client


def _open_the_link(client: Client, token: str) -> None:
    """The phone at the table: it opened the link, and the page remembers who is entering."""
    assert client.get(f"/t/{token}/").status_code == 200
    table = Table.objects.get(access_token=token)
    session = client.session
    session[f"table-{table.pk}-who"] = table.seats.order_by("position").first().entry_id
    session.save()


# --- the cases: every write and every director-only read, with a body that works for Alice -----

DIRECTOR_ONLY = frozenset({DIRECTOR})
ANY_DIRECTOR = frozenset({DIRECTOR, OTHER_DIRECTOR})
Arg = int | str | Callable[[World], Any]


@dataclass(frozen=True)
class Case:
    method: str
    name: str  # the URL's name
    args: dict[str, Arg] = field(default_factory=dict)  # beyond the slug; a callable reads World
    body: dict[str, Arg] = field(default_factory=dict)
    given: Callable[[], None] | None = None  # puts the Open in the state the call needs
    success: int = 200
    allowed: frozenset[str] = DIRECTOR_ONLY
    writes: bool = True  # Alice's call changes the database
    variant: str = ""  # tells apart two cases of one URL
    refused: dict[str, tuple[int, str]] = field(default_factory=dict)  # actor: (status, to)

    def __str__(self) -> str:
        variant = f"[{self.variant}]" if self.variant else ""
        return f"{self.method} {self.name}{variant}"

    def path(self, world: World) -> str:
        kwargs = {key: _value(world, value) for key, value in self.args.items()}
        if "slug" in _route_kwargs(self.name):
            kwargs = {"slug": OPEN, **kwargs}
        return reverse(self.name, kwargs=kwargs)

    def data(self, world: World) -> dict[str, Any]:
        return {key: _value(world, value) for key, value in self.body.items()}


def _value(world: World, value: Arg) -> Any:
    return value(world) if callable(value) else value


def the(name: str) -> Callable[[World], int]:
    """The entry id of the Open's player `name`."""
    return lambda world: world.entries[name]


def seat(table: int, index: int = 0) -> Callable[[World], int]:
    """The entry id of the player in round 2's table `table`, `index`-th seat."""
    return lambda world: world.seated[table][index]


def both(world: World) -> list[int]:
    """The first players of round 2's tables 1 and 2, to swap."""
    return [world.seated[1][0], world.seated[2][0]]


def member(name: str) -> Callable[[World], int]:
    """The id of the Half Way Tree club's member `name` (Alice's club)."""
    return lambda world: Member.objects.get(club__slug=HWT, name=name).pk


CLUB = {"club": HWT}


def ruling(world: World) -> int:
    return world.ruling


def _round_status(number: int, status: str) -> Callable[[], None]:
    def given() -> None:
        rounds = Round.objects.filter(tournament__slug=OPEN, number=number)
        assert rounds.update(status=status, published_at=None, locked_at=None) == 1

    return given


ROUND_2_DRAFT = _round_status(2, Round.Status.DRAFT)
ROUND_1_IN_PLAY = _round_status(1, Round.Status.IN_PLAY)


def _every_round_locked() -> None:
    Round.objects.filter(tournament__slug=OPEN).update(status=Round.Status.LOCKED)


def _table_1() -> Table:
    return Table.objects.get(round__tournament__slug=OPEN, round__number=2, number=1)


def _game_1(**record: Any) -> Callable[[], None]:
    """Game 1 at round 2's table 1, as `play` records it (pending, flagged, ... by `record`)."""

    def given() -> None:
        kwargs = dict(record)
        if kwargs.pop("pending", False):
            Tournament.objects.filter(slug=OPEN).update(requires_confirmation=True)
        play(_table_1(), 1, **kwargs)

    return given


def _flagged_game_1() -> None:
    table = _table_1()
    ids = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    hands = [HandInput(ids[0], went_out=True, cards="", calls=0)]
    hands += [HandInput(ids[1], cards="JK AS 2C", calls=0)]
    hands += [HandInput(entry, points=9) for entry in ids[2:]]
    result_record(table=table, number=1, hands=hands, via="test", confirm_warnings=True)


def _set_played() -> None:
    play_set(_table_1())


def _clock_started() -> None:
    clock_start(round=_table_1().round, minutes=90, by=None)


def _clock_paused() -> None:
    round = _table_1().round
    clock_start(round=round, minutes=90, by=None)
    clock_pause(round=round, by=None)


def _table_1_clock_paused() -> None:
    table = _table_1()
    clock_start(round=table.round, minutes=90, by=None)
    clock_pause(round=table.round, table=table, by=None)


def _table_1_called() -> None:
    director_call(table=_table_1(), via="table 1 link")


def the_call(world: World) -> int:
    """Table 1's call, once it has called (any number before: a GET is refused first)."""
    call = DirectorCall.objects.filter(table_id=world.tables[1]).first()
    return call.pk if call else 1


def token(world: World) -> str:
    return world.tokens[1]


def paper_game(correct: bool = False) -> dict[str, Arg]:
    """Game 1 of round 2's table 1 as the paper score sheet gives it: seat 1 went out."""
    body: dict[str, Arg] = {"action": "save", "went_out": seat(1)}
    body |= {"base_version": "1", "reason": "The sheet."} if correct else {"game": 1, "attempt": 1}
    body |= {f"p{position}-points": "" if position == 1 else "12" for position in range(1, 6)}
    return body


def _ann_pinned() -> None:
    open_ = Tournament.objects.get(slug=OPEN)
    pin_seat(tournament=open_, entry=open_.entries.get(player__name="Ann"), table=1, by=None)


def _final_planned_after_round_2() -> None:
    """Rounds 1 and 2 qualify (round 2 played out and complete); a final of five follows."""
    open_ = Tournament.objects.get(slug=OPEN)
    stages_set(
        tournament=open_,
        plan=[StagePlan("qualifying", 2), StagePlan("final", 1, 5)],
        by=None,
    )
    second = open_.rounds.get(number=2)
    for table in tables_of(second):
        play_set(table)
    round_complete(round=second, by=None)


def _check_in_open() -> None:
    Tournament.objects.filter(slug=OPEN).update(
        check_in_until=timezone.now() + timedelta(minutes=30)
    )


def _standings_refreshed() -> None:
    """The standings as the pipeline leaves them after a change: the dashboard only reads them
    (`standings_current` stores the first snapshot of a tournament that has none)."""
    standings_refresh(tournament_id=Tournament.objects.get(slug=OPEN).pk)


R1, R2 = {"number": 1}, {"number": 2}
T1 = {**R2, "table": 1}  # round 2's table 1
G1 = {**T1, "game": 1}
TOURNAMENT = {
    "name": "Spring Open",
    "slug": "spring-open",
    "starts_on": "2026-04-18",
    "ends_on": "2026-04-19",
    "venue": "Half Way Tree",
    "rounds_planned": 4,
    "ruleset": "asaj-2025",
}
HOUSE_RULES = {"preset": "club-four", "min_naturals_in_three": 1, "call_limit": 2}
PENALTY = {"kind": "penalty_points", "entry": the("Ann"), "points": 25, "decision": "Late."}
SWAP_BY_RULING = {"entry": seat(1), "swap_with": seat(2), "decision": "Swapped, by ruling."}
CSV = "name,club,email\nNia Brown,Mandeville,\n"
CONFIRM = {"confirm": "on"}
ENTRY_ACTIONS = {  # action: (the player it applies to, the body)
    "check-in": ("Kit", {}),
    "undo-check-in": ("Mo", {}),
    "withdraw": ("Mo", {}),
    "disqualify": ("Mo", {"reason": "Abusive to the table (R12.4)."}),
    "reinstate": ("Lu", {}),
}
STEPS = {  # step: (round, what puts it in the state the step starts from)
    "publish": (2, ROUND_2_DRAFT),
    "unpublish": (2, None),
    "start": (2, None),
    "complete": (1, ROUND_1_IN_PLAY),
    "reopen": (1, None),
    "lock": (1, None),
}

API_CASES = [
    # tournament/api.py
    Case("GET", "tournaments", allowed=ANY_DIRECTOR, writes=False),
    Case("POST", "tournaments", body=TOURNAMENT, success=201, allowed=ANY_DIRECTOR),
    Case("GET", "tournament", writes=False),
    Case(
        "POST",
        "tournaments",
        body={**TOURNAMENT, "slug": "club-night", "ruleset": HOUSE_RULES},
        success=201,
        allowed=ANY_DIRECTOR,
        variant="house rules",
    ),
    Case("PATCH", "tournament", body={"venue": "Montego Bay"}),
    # The Open has published rounds: its rules are frozen, even for Alice (409, nothing saved).
    Case(
        "PATCH",
        "tournament",
        body={"ruleset": HOUSE_RULES},
        success=409,
        writes=False,
        variant="frozen rules",
    ),
    Case("GET", "entries", writes=False),
    Case("POST", "entries-check-in-all"),
    # director/check_in_api.py: the self check-in window
    Case("GET", "check-in-window", writes=False),
    Case("POST", "check-in-window-open", body={"minutes": 30}),
    Case("POST", "check-in-window-close", given=_check_in_open),
    Case("POST", "players-add", body={"name": "Nia Brown", "late": True}, success=201),
    Case("POST", "players-import", body={"csv": CSV, "late": True}, success=201),
    *[
        Case("POST", f"entry-{action}", {"entry_id": the(player)}, body)
        for action, (player, body) in ENTRY_ACTIONS.items()
    ],
    # scoring/api.py
    Case("GET", "api-rounds", writes=False),
    Case("POST", "api-rounds", success=201),
    Case("GET", "api-round", R2, writes=False),
    Case("DELETE", "api-round", R2, given=ROUND_2_DRAFT, success=204),
    Case("POST", "api-round-seat", R2, {"seed": 7}, given=ROUND_2_DRAFT),
    Case("POST", "api-round-swap", R2, {"entries": both}, given=ROUND_2_DRAFT),
    Case("POST", "api-round-move", R2, {"entry": seat(1), "table": 2}, given=ROUND_2_DRAFT),
    Case("POST", "api-round-seat-change", R2, SWAP_BY_RULING, success=201),
    *[
        Case("POST", f"api-round-{step}", {"number": number}, given=given)
        for step, (number, given) in STEPS.items()
    ],
    Case("GET", "api-round-tables", R2, writes=False),
    Case("POST", "api-table-link-reissue", {**R2, "table": 1}),
    # director/control_api.py: the control room
    Case("GET", "api-round-clock", R2, writes=False),
    Case("POST", "api-round-clock-start", R2, {"minutes": 90}),
    Case("POST", "api-round-clock-pause", R2, {"reason": "Fire drill."}, _clock_started),
    Case("POST", "api-round-clock-resume", R2, given=_clock_paused),
    Case("POST", "api-round-clock-extend", R2, {"minutes": 5}, _clock_started),
    Case("POST", "api-table-clock-pause", T1, {"reason": "A dispute."}, _clock_started),
    Case("POST", "api-table-clock-resume", T1, given=_table_1_clock_paused),
    Case("POST", "api-table-clock-extend", T1, {"minutes": 5, "reason": "Late."}, _clock_started),
    Case("GET", "api-round-calls", R2, given=_table_1_called, writes=False),
    Case("POST", "api-call-answer", {**R2, "pk": the_call}, given=_table_1_called),
    Case("POST", "api-table-clear-flag", G1, {"reason": "Counted again."}, _flagged_game_1),
    Case("GET", "api-rulings", writes=False),
    Case("POST", "api-rulings", body=PENALTY, success=201),
    Case("POST", "api-ruling-reverse", {"pk": ruling}, {"reason": "Misheard."}, success=201),
    # director/club_api.py: the club's register and seasons (tenancy: Bob directs Kingston)
    Case("GET", "clubs", allowed=ANY_DIRECTOR, writes=False),
    Case("GET", "club-members", CLUB, writes=False),
    Case("POST", "club-members", CLUB, {"name": "Nia Brown", "number": "N1"}, success=201),
    Case("POST", "club-members-import", CLUB, {"csv": "name\nNia Brown\n"}, success=201),
    Case("GET", "club-member", {**CLUB, "member_id": member("Ann Lee")}, writes=False),
    Case(
        "POST",
        "club-member-merge",
        {**CLUB, "member_id": member("Di Ray")},
        {"into": member("Cy Moss")},
    ),
    Case("POST", "club-member-erase", {**CLUB, "member_id": member("Di Ray")}),
    Case("GET", "club-seasons", CLUB, writes=False),
    Case("POST", "club-seasons", CLUB, {"name": "Spring", "game": "kalooki"}, success=201),
    Case("PATCH", "club-season", {**CLUB, "season": "autumn"}, {"best_of": 8}),
    Case("POST", "club-season-events", {**CLUB, "season": "autumn"}, {"tournament": OPEN}),
    # director/pin_api.py
    Case("GET", "api-pins", writes=False),
    Case("POST", "api-pins", body={"entry": the("Ann"), "table": 1}, success=201),
    Case("DELETE", "api-pin", {"entry_id": the("Ann")}, given=_ann_pinned, success=204),
    # director/reseat_api.py: table 1 of round 2, seats 1 and 2 swapped (no deal played yet)
    Case(
        "POST",
        "api-table-reseat",
        {"number": 2, "table": 1},
        {
            "seats": lambda world: [*world.seated[1][1::-1], *world.seated[1][2:]],
            "games": {},
            "decision": "Seats 1 and 2 swap.",
        },
        success=201,
    ),
    # director/stage_api.py
    Case("GET", "api-stages", writes=False),
    Case("PUT", "api-stages", body={"stages": [{"kind": "qualifying", "rounds": 4}]}),
    Case(
        "POST",
        "api-stage-cut",
        {"number": 2},
        {"seed": 3},
        given=_final_planned_after_round_2,
        success=201,
    ),
]

SIGNED_IN = frozenset({SCOREKEEPER, OTHER_DIRECTOR, DIRECTOR})
NOT_A_CREATOR = {SCOREKEEPER: (302, "director:home")}  # told to ask an administrator
NOT_A_DIRECTOR = {SCOREKEEPER: (302, "login")}  # `user_passes_test(is_director)`
EDIT = {**TOURNAMENT, "name": "Open", "starts_on": "2026-11-21", "ends_on": "2026-11-22"}
del EDIT["slug"]

PAGE_CASES = [
    # tournament/views.py
    Case("GET", "director:home", allowed=SIGNED_IN, writes=False),
    Case(
        "GET",
        "director:tournament-new",
        allowed=ANY_DIRECTOR,
        writes=False,
        refused=NOT_A_CREATOR,
    ),
    Case(
        "POST",
        "director:tournament-new",
        body=TOURNAMENT,
        success=302,
        allowed=ANY_DIRECTOR,
        refused=NOT_A_CREATOR,
    ),
    Case("GET", "director:hub", writes=False),
    Case("GET", "director:tournament-edit", writes=False),
    Case("POST", "director:tournament-edit", body=EDIT, success=302),
    Case("GET", "director:players", writes=False),
    Case("POST", "director:players", body={"name": "Nia Brown", "late": "on"}, success=302),
    Case("GET", "director:players-import", writes=False),
    Case("POST", "director:players-import", body={"text": CSV, "late": "on"}, success=302),
    Case("GET", "director:check-in-all", writes=False),
    Case("POST", "director:check-in-all", success=302),
    Case(
        "POST",
        "director:check-in-window",
        body={"action": "open", "minutes": 30},
        success=302,
    ),
    Case(
        "POST",
        "director:check-in-window",
        body={"action": "close"},
        given=_check_in_open,
        success=302,
        variant="close",
    ),
    Case("GET", "director:check-in-arrivals", writes=False),
    Case(
        "GET",
        "director:entry-action",
        {"entry_id": the("Kit"), "action": "check-in"},
        writes=False,
        variant="check-in",
    ),
    *[
        Case(
            "POST",
            "director:entry-action",
            {"entry_id": the(player), "action": action},
            body,
            success=302,
            # A disqualification is a ruling (R12.4): on to the rulings form; reinstating may
            # reverse one: on to the scoring app's reinstate page.
            writes=action not in ("disqualify", "reinstate"),
            variant=action,
        )
        for action, (player, body) in ENTRY_ACTIONS.items()
    ],
    Case("GET", "director:audit", writes=False),
    Case(
        "POST",
        "director:tournament-status",
        body={"to": "finished", "confirm": "on"},
        given=_every_round_locked,
        success=302,
    ),
    # scoring/views.py
    Case("GET", "director:rule-check", allowed=ANY_DIRECTOR, writes=False, refused=NOT_A_DIRECTOR),
    Case(
        "POST",
        "director:rule-check",
        body={"check": "meld", "cards": "5H 5C 5D"},
        allowed=ANY_DIRECTOR,
        writes=False,
        refused=NOT_A_DIRECTOR,
    ),
    Case(
        "POST",
        "director:rule-check",
        body={"check": "tack-on", "card": "7H", "meld": "4H 5H 6H", "rules": f"tournament:{OPEN}"},
        allowed=ANY_DIRECTOR,
        writes=False,
        refused=NOT_A_DIRECTOR,
        variant="tack-on under the Open's rules",
    ),
    Case("GET", "director:rounds", writes=False),
    Case("POST", "director:round-add", success=302),
    Case("GET", "director:stages", writes=False),
    Case(
        "POST",
        "director:stages",
        body={
            "qualifying_rounds": 4,
            "kind": "",
            "rounds": 1,
            "scoring": "fresh",
            "carry_percent": 100,
            "seats": "drawn",
        },
        success=302,
    ),
    Case(
        "POST",
        "director:stage-cut",
        {"number": 2},
        given=_final_planned_after_round_2,
        success=302,
    ),
    Case("GET", "director:round", R2, writes=False),
    Case("POST", "director:round-seat", R2, {"seed": 7, **CONFIRM}, ROUND_2_DRAFT, success=302),
    Case(
        "POST",
        "director:seat-swap",
        R2,
        {"entry_a": seat(1), "entry_b": seat(2)},
        ROUND_2_DRAFT,
        success=302,
    ),
    Case(
        "POST",
        "director:seat-move",
        R2,
        {"entry": seat(1), "table": lambda world: world.tables[2]},
        ROUND_2_DRAFT,
        success=302,
    ),
    Case("POST", "director:seat-ruling", R2, SWAP_BY_RULING, success=302),
    Case("POST", "director:table-link-reissue", {**R2, "table": 1}, CONFIRM, success=302),
    Case("POST", "director:pin-add", R2, {"entry": the("Ann"), "table": 1}, success=302),
    Case(
        "POST",
        "director:pin-remove",
        {**R2, "entry_id": the("Ann")},
        given=_ann_pinned,
        success=302,
    ),
    Case("GET", "director:dashboard", R2, given=_standings_refreshed, writes=False),
    # scoring/control_views.py: the control room
    Case("POST", "director:round-clock", R2, {"action": "start", "minutes": 90}, success=302),
    Case(
        "POST", "director:call-answer", {**R2, "pk": the_call}, given=_table_1_called, success=302
    ),
    Case("GET", "director:director-table", T1, writes=False),
    Case("POST", "director:director-table", T1, paper_game(), success=302),
    Case(
        "POST",
        "director:table-clock",
        T1,
        {"action": "extend", "minutes": 5, "reason": "started late"},
        _clock_started,
        success=302,
    ),
    Case("POST", "director:director-sign-off", T1, {"signer": "Ann"}, _set_played, success=302),
    # director/reseat_views.py: table 1's seats 1 and 2 swap (no deal played yet)
    Case(
        "POST",
        "director:director-reseat",
        T1,
        {
            "reseat-seat_1": seat(1, 1),
            "reseat-seat_2": seat(1, 0),
            **{f"reseat-seat_{n}": seat(1, n - 1) for n in range(3, 6)},  # five at table 1
            "reseat-decision": "Seats 1 and 2 swap.",
        },
        success=302,
    ),
    Case("GET", "director:director-correct", G1, given=_game_1(), writes=False),
    Case("POST", "director:director-correct", G1, paper_game(True), _game_1(), success=302),
    Case("POST", "director:director-confirm", G1, {"version": 1}, _game_1(pending=True), 302),
    Case(
        "POST",
        "director:director-clear-flag",
        G1,
        {"reason": "Counted again."},
        _flagged_game_1,
        success=302,
    ),
    *[
        Case("POST", f"director:round-{step}", {"number": number}, CONFIRM, given, success=302)
        for step, (number, given) in {**STEPS, "remove": (2, ROUND_2_DRAFT)}.items()
    ],
    Case("GET", "director:rulings", writes=False),
    Case("POST", "director:rulings", body=PENALTY, success=302),
    Case("POST", "director:ruling-reverse", {"pk": ruling}, {"reason": "Misheard."}, success=302),
    Case("GET", "director:entry-reinstate", {"entry_id": the("Lu")}, writes=False),
    Case("POST", "director:entry-reinstate", {"entry_id": the("Lu")}, success=302),
    # director/club_views.py: the club's register (Bob directs another club: 404)
    Case("GET", "director:club-members", CLUB, writes=False),
    Case("POST", "director:club-members", CLUB, {"csv": "name\nNia Brown\n"}, success=302),
    # tables/views.py
    Case("GET", "director:print-cards", R2, writes=False),
    Case("GET", "director:print-sheets", R2, writes=False),
    Case("GET", "director:print-seat-cards", R2, writes=False),
]
# The table's link, in the path: whoever holds it calls the director and reads the clock.
TABLE_LINK_CASES = [
    Case("POST", "table:call", {"token": token}, success=302, allowed=frozenset(ACTORS)),
    Case("GET", "table:live", {"token": token}, allowed=frozenset(ACTORS), writes=False),
    # the page's live check of its form (saves nothing) and its manifest
    Case("POST", "table:check", {"token": token}, allowed=frozenset(ACTORS), writes=False),
    Case("GET", "table:manifest", {"token": token}, allowed=frozenset(ACTORS), writes=False),
    # the parts of the page that changed, for its script after a save (reads only)
    Case("GET", "table:parts", {"token": token}, allowed=frozenset(ACTORS), writes=False),
]
PAGE_CASES += TABLE_LINK_CASES
CASES = API_CASES + PAGE_CASES

# Every other URL of the site, and why it is not in the matrix.
NOT_IN_MATRIX = {
    "table:worker": "the table pages' service worker: the same static script for anyone, no table",
    "favicon": "the site's icon: the same static file for anyone",
    "login": "signing in: open to anyone by design",
    "set_language": "the language switch: sets one's own language cookie, reads nothing",
    "javascript-catalog": "the scripts' words in the page's language: the same for anyone",
    "logout": "signing out: ends one's own session only",
    "healthz": "the health check of the load balancer: reads nothing private",
    "api-token": "exchanges a username and password for a token: open by design",
    "api-schema": "the API's description (OpenAPI): no data",
    "api-docs": "the API's documentation page: no data",
    "rules-meld": "the rules API: open to anyone, computes and writes nothing",
    "rules-contract": "the rules API: open to anyone, computes and writes nothing",
    "rules-game": "the rules API: open to anyone, computes and writes nothing",
    "rules-tack-on": "the rules API: open to anyone, computes and writes nothing",
    "games": "the games, their presets and settings: open to anyone, no tournament's data",
    "api-table": "the table API: its matrix is tests/entry/test_access.py",
    "api-table-result": "the table API: its matrix is tests/entry/test_access.py",
    "api-table-confirm": "the table API: its matrix is tests/entry/test_access.py",
    "api-table-sign-off": "the table API: its matrix is tests/entry/test_access.py",
    "table:link": "the table's page: the token in its path is the credential",
    "table:correct": "the table's page: the token in its path is the credential",
    "table:confirm": "the table's page: the token in its path is the credential",
    "table:sign-off": "the table's page: the token in its path is the credential",
    "table:time": "the table's page: the token in its path is the credential",
    # The Open plays Kalooki: no teams, no time to call. Their matrix, on a Hand and Foot
    # tournament: tests/director/test_teams_pages.py and tests/scoring/test_time_called.py.
    "director:team-edit": "a team's page (HF1.2): matrix in tests/director/test_teams_pages.py",
    "director:pairing-refuse": "a team (HF1.2): matrix in tests/director/test_teams_pages.py",
    "director:table-time": "time called (HF2.2): matrix in tests/scoring/test_time_called.py",
    "director:round-time": "time called (HF2.2): matrix in tests/scoring/test_time_called.py",
    "teams-add": "the Open plays Kalooki: matrix in tests/director/test_teams_pages.py",
    "team-update": "the Open plays Kalooki: matrix in tests/director/test_teams_pages.py",
    "api-round-time": "time called (HF2.2): matrix in tests/scoring/test_time_called.py",
    "api-table-time": "time called (HF2.2): matrix in tests/scoring/test_time_called.py",
    "api-table-time-withdraw": "time called (HF2.2): matrix in tests/scoring/test_time_called.py",
    "entry-refuse-pairing": "a team (HF1.2): matrix in tests/director/test_teams_pages.py",
}
NAMESPACES_NOT_IN_MATRIX = {
    "table:worker": "the table pages' service worker: the same static script for anyone, no table",
    "admin": "Django's admin: its own staff sign-in and model permissions",
    "public": "the public pages and exports of a published tournament: public by design",
}


# --- the matrix ----------------------------------------------------------------------------------

LOGIN = "login"
NOT_SIGNED_IN = (ANONYMOUS, LINK, OTHER_LINK)


def is_api(case: Case) -> bool:
    return ":" not in case.name  # the API's URLs have no namespace; every app's pages have one


def refusal(case: Case, actor: str) -> tuple[int, str | None]:
    """The status of `actor`'s refusal, and for a redirect where it leads."""
    if actor in case.refused:
        return case.refused[actor]
    if is_api(case):
        return (404, None) if actor == OTHER_DIRECTOR else (403, None)
    return (302, LOGIN) if actor in NOT_SIGNED_IN else (404, None)


def fingerprint() -> dict[str, list[tuple]]:
    """Every row of the apps' tables, the users and their API tokens (not the sessions)."""
    models = [
        model
        for label in ("clubs", "tournament", "tables", "scoring", "seasons", "authtoken")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    return {
        model._meta.label: list(model._default_manager.order_by("pk").values_list())
        for model in [*models, get_user_model()]
    }


def send(client: Client, case: Case, world: World) -> HttpResponse:
    call = getattr(client, case.method.lower())
    if case.method == "GET":
        return call(case.path(world))
    if is_api(case):
        return call(case.path(world), case.data(world), format="json")
    return call(case.path(world), case.data(world))


def attempt(case: Case, world: World, actor: str) -> tuple[HttpResponse, bool]:
    """`actor` makes the call; whether the database changed."""
    client = api_client(world, actor) if is_api(case) else page_client(world, actor)
    if case.given is not None:
        case.given()
    before = fingerprint()
    response = send(client, case, world)
    return response, fingerprint() != before


def _matrix(allowed: bool) -> list[Any]:
    return [
        pytest.param(case, actor, id=f"{case} as {actor}")
        for case in CASES
        for actor in ACTORS
        if (actor in case.allowed) == allowed
    ]


@pytest.mark.parametrize(("case", "actor"), _matrix(allowed=False))
def test_refused(world: World, case: Case, actor: str) -> None:
    response, changed = attempt(case, world, actor)
    status, to = refusal(case, actor)
    assert response.status_code == status, response.content[:500]
    if to is not None:
        assert response["Location"].startswith(resolve_url(to))
    assert not changed


@pytest.mark.parametrize(("case", "actor"), _matrix(allowed=True))
def test_allowed(world: World, case: Case, actor: str) -> None:
    response, changed = attempt(case, world, actor)
    assert response.status_code == case.success, response.content[:500]
    if response.status_code == 302:
        assert not response["Location"].startswith(resolve_url(LOGIN))
        refusals = [m.message for m in get_messages(response.wsgi_request) if m.level == ERROR]
        assert refusals == []
    assert changed == case.writes


# --- the matrix covers the URL conf --------------------------------------------------------------


def url_patterns(
    patterns: list | None = None, namespace: str = "", route: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    """(name, pattern) of every URL of the site, the name with its namespace (or the route, for
    a URL without a name); Django's admin and the other namespaces not in the matrix left out."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        here = route + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if pattern.namespace in NAMESPACES_NOT_IN_MATRIX:
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern.url_patterns, inner, here)
        else:
            yield (f"{namespace}{pattern.name}" if pattern.name else here), pattern


def _route_kwargs(name: str) -> set[str]:
    [pattern] = [pattern for found, pattern in url_patterns() if found == name]
    return set(pattern.pattern.converters)


def test_every_url_is_in_the_matrix_or_excused() -> None:
    names = {name for name, _ in url_patterns()}
    in_matrix = {case.name for case in CASES}
    assert names - in_matrix - set(NOT_IN_MATRIX) == set(), "a URL with no permission case"
    assert (in_matrix | set(NOT_IN_MATRIX)) - names == set(), "a case for a URL that is gone"
    assert in_matrix & set(NOT_IN_MATRIX) == set()


def test_every_method_of_an_api_view_is_in_the_matrix() -> None:
    for name, pattern in url_patterns():
        view = getattr(pattern.callback, "cls", None)
        if view is None or name in NOT_IN_MATRIX:
            continue
        methods = {m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(view, m)}
        assert methods == {case.method for case in CASES if case.name == name}, name


def test_each_case_is_named_once() -> None:
    ids = [str(case) for case in CASES]
    assert len(ids) == len(set(ids))


# --- Bob, through his own tournament's address, names the Open's players, tables and rulings ----

AT_THE_CUP = {"slug": CUP}
OPEN_TABLE = {"table": lambda world: world.tables[1]}  # a table id; the API's move takes a number
AT_KINGSTON = {"club": KINGSTON}


def bobs(name: str) -> Callable[[World], int]:
    return lambda world: Member.objects.get(club__slug=KINGSTON, name=name).pk


THROUGH_THE_CUP = [  # (case, the status Bob gets)
    # Bob, through his own club, names Alice's members, season and tournament
    (Case("GET", "club-member", {**AT_KINGSTON, "member_id": member("Ann Lee")}), 404),
    (Case("POST", "club-member-erase", {**AT_KINGSTON, "member_id": member("Ann Lee")}), 404),
    (
        Case(
            "POST",
            "club-member-merge",
            {**AT_KINGSTON, "member_id": member("Ann Lee")},
            {"into": bobs("Cy Moss")},
        ),
        404,
    ),
    (
        Case(
            "POST",
            "club-member-merge",
            {**AT_KINGSTON, "member_id": bobs("Cy Moss")},
            {"into": member("Ann Lee")},
            variant="into Alice's",
        ),
        404,
    ),
    (
        Case(
            "POST", "club-season-events", {**AT_KINGSTON, "season": "autumn"}, {"tournament": OPEN}
        ),
        404,
    ),
    *[
        (Case("POST", f"entry-{action}", {**AT_THE_CUP, "entry_id": the(player)}, body), 404)
        for action, (player, body) in ENTRY_ACTIONS.items()
    ],
    *[
        (
            Case(
                "POST",
                "director:entry-action",
                {**AT_THE_CUP, "entry_id": the(player), "action": action},
                body,
                variant=action,
            ),
            404,
        )
        for action, (player, body) in ENTRY_ACTIONS.items()
    ],
    (Case("POST", "api-ruling-reverse", {**AT_THE_CUP, "pk": ruling}, {"reason": "No."}), 404),
    (Case("POST", "director:ruling-reverse", {**AT_THE_CUP, "pk": ruling}, {"reason": "No."}), 404),
    (Case("POST", "director:entry-reinstate", {**AT_THE_CUP, "entry_id": the("Lu")}), 404),
    (Case("POST", "api-rulings", AT_THE_CUP, PENALTY), 400),
    (Case("POST", "api-rulings", AT_THE_CUP, {**PENALTY, **OPEN_TABLE}, variant="table"), 400),
    (Case("POST", "director:rulings", AT_THE_CUP, PENALTY), 200),  # the form, with its error
    (Case("POST", "api-round-seat-change", {**AT_THE_CUP, **R1}, SWAP_BY_RULING), 400),
    (Case("POST", "director:seat-ruling", {**AT_THE_CUP, **R1}, SWAP_BY_RULING), 302),
    (Case("POST", "api-round-swap", {**AT_THE_CUP, **R1}, {"entries": both}), 400),
    (Case("POST", "api-round-move", {**AT_THE_CUP, **R1}, {"entry": seat(1), "table": 1}), 400),
    (
        Case("POST", "director:seat-move", {**AT_THE_CUP, **R1}, {"entry": seat(1), **OPEN_TABLE}),
        302,
    ),
]


@pytest.mark.parametrize(
    ("case", "status"),
    [pytest.param(case, status, id=f"{case} at the Cup") for case, status in THROUGH_THE_CUP],
)
def test_the_other_tournaments_things_are_refused_at_ones_own_address(
    world: World, case: Case, status: int
) -> None:
    response, changed = attempt(case, world, OTHER_DIRECTOR)
    assert response.status_code == status, response.content[:500]
    if status == 302:  # back to the Cup's round page, with the reason
        assert response["Location"] == reverse("director:round", args=[CUP, 1])
        assert [m.level for m in get_messages(response.wsgi_request)] == [ERROR]
    assert not changed


def test_the_other_director_does_not_see_the_open_listed(world: World) -> None:
    listed = api_client(world, OTHER_DIRECTOR).get(reverse("tournaments")).json()
    assert [tournament["slug"] for tournament in listed] == [CUP]
    page = page_client(world, OTHER_DIRECTOR).get(reverse("director:home"))
    hubs = [reverse("director:hub", args=[slug]) for slug in (CUP, OPEN)]
    assert [hub in page.content.decode() for hub in hubs] == [True, False]


# --- a page's methods: the matrix calls each page as it is meant to be called -------------------


def _page_methods(method: str) -> list[Case]:
    """The page cases of URLs the matrix calls by `method` only."""
    methods: dict[str, set[str]] = defaultdict(set)
    for case in PAGE_CASES:
        methods[case.name].add(case.method)
    return [case for case in PAGE_CASES if methods[case.name] == {method}]


@pytest.mark.parametrize("case", _page_methods("POST"), ids=str)
def test_a_page_that_only_takes_a_post_refuses_a_get(world: World, case: Case) -> None:
    response = page_client(world, DIRECTOR).get(case.path(world))
    assert response.status_code == 405


@pytest.mark.parametrize("case", _page_methods("GET"), ids=str)
def test_a_page_that_only_shows_writes_nothing_on_a_post(world: World, case: Case) -> None:
    posted = Case("POST", case.name, case.args, body=CONFIRM, given=case.given)
    response, changed = attempt(posted, world, DIRECTOR)
    assert response.status_code in (200, 405) and not changed


# --- players: each tournament's own records ------------------------------


def _open_players() -> list[tuple]:
    """The Open's player records, every field."""
    from tournament.models import Player

    return list(Player.objects.filter(tournament__slug=OPEN).order_by("pk").values_list())


SAME_PERSON = {"name": "Kit", "club": "Half Way Tree", "email": "bob@x.jm", "late": True}
SAME_PERSON_CSV = "name,club,email\nKit,Half Way Tree,bob@x.jm\n"
THE_SAME_PERSON_AT_THE_CUP = [
    Case("POST", "players-add", AT_THE_CUP, SAME_PERSON),
    Case("POST", "players-import", AT_THE_CUP, {"csv": SAME_PERSON_CSV, "late": True}),
]


@pytest.mark.parametrize("case", THE_SAME_PERSON_AT_THE_CUP, ids=str)
def test_entering_an_open_players_name_at_the_cup_reads_and_changes_nothing_of_the_open(
    world: World, case: Case
) -> None:
    """Bob enters a player with the name and club of one of Alice's: he gets a record of his
    own, never Alice's record, its email or its id."""
    from tournament.models import Entry, Player

    before = _open_players()
    with transaction.atomic():
        response = send(api_client(world, OTHER_DIRECTOR), case, world)
        assert response.status_code == 201, response.content[:500]
        cup_players = Player.objects.filter(tournament__slug=CUP, name="Kit")
        assert cup_players.get().email == "bob@x.jm"
        assert not Entry.objects.filter(tournament__slug=CUP, player__tournament__slug=OPEN)
        assert _open_players() == before
        transaction.set_rollback(True)
    assert 'player_id": ' + str(world.entries["Kit"]) not in response.content.decode()


def test_the_cups_entry_list_shows_none_of_the_opens_players(world: World) -> None:
    listed = api_client(world, OTHER_DIRECTOR).get(reverse("entries", args=[CUP])).json()
    assert {row["player_id"] for row in listed}.isdisjoint(
        {player[0] for player in _open_players()}
    )


# --- every director endpoint refuses a field it does not know ------------------------------------

UNKNOWN = "not_a_field"


@pytest.mark.parametrize(
    "case", [case for case in API_CASES if case.method != "GET"], ids=lambda case: str(case)
)
def test_an_unknown_field_is_refused_naming_it_and_nothing_changes(world: World, case: Case):
    """Alice's own call, with one field more: a 400 naming it (beside any other error of the
    body), whatever the endpoint, and no row changed (`config.api.Input`)."""
    response, changed = attempt(replace(case, body={**case.body, UNKNOWN: 1}), world, DIRECTOR)
    assert response.status_code == 400, response.content[:500]
    [error] = [error for error in response.json()["errors"] if error["field"] == UNKNOWN]
    assert f"There is no field '{UNKNOWN}' here" in error["message"]
    assert not changed
