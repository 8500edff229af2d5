"""Reads of tournaments for pages and the API; each runs a fixed number of queries."""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from games.base import Game
from tournament.models import AuditEvent, Entry, Round, Tournament
from tournament.permissions import directed_tournaments

# Kalooki's R12.3 tie-breaks in a director's words, by their names in the standings snapshot. Only
# the standings pages use them (hall, the round's dashboard), until they read `Rules.columns()`;
# the ruleset in words is the game's own (`ruleset_summary`).
TIE_BREAK_WORDS = {
    "games_won": "more games won (went out)",
    "down_and_outs": "more down-and-outs (R8.3)",
    "latest_round_score": "lower score in the latest round",
}


def tournament_list_public() -> QuerySet[Tournament]:
    """Published tournaments, newest first, with their count of playing entries."""
    playing = Q(entries__status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN])
    return Tournament.objects.filter(is_published=True).annotate(
        player_count=Count("entries", filter=playing)
    )


def with_entry_counts(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Each tournament with `<status>_count` for every entry status (one query for all)."""
    counts = {
        f"{status}_count": Count("entries", filter=Q(entries__status=status))
        for status in Entry.Status.values
    }
    return tournaments.annotate(**counts)


def tournament_list_for_director(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """The tournaments this user directs, newest first, with their entry counts and rounds
    (for whether their rules are frozen): two queries."""
    tournaments = with_entry_counts(directed_tournaments(user)).order_by("-starts_on", "name")
    return tournaments.prefetch_related("rounds")


def tournament_counted(*, tournament: Tournament) -> Tournament:
    """The tournament again, with its entry counts (see `with_entry_counts`) and its rounds."""
    counted = with_entry_counts(Tournament.objects.filter(pk=tournament.pk))
    return counted.prefetch_related("rounds").get()


def round_list(*, tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.order_by("number"))


@dataclass(frozen=True, slots=True)
class RulesetSummary:
    """A tournament's game and ruleset as a director reads them: the ruleset as its ``request``
    (its preset and only the settings that differ, ``Game.changes``), in ``words`` (one line per
    setting, ``Rules.describe``), and why it can no longer change, if it cannot."""

    game: str
    game_name: str
    preset: str
    preset_name: str
    name: str
    request: dict[str, Any]
    words: tuple[str, ...]
    changed: tuple[str, ...]  # the labels of the settings that differ from the preset
    table_size: int  # sides at a usual table, and the fewest and most (R1.1, R12.2)
    min_table_size: int
    max_table_size: int
    frozen_because: str | None

    @property
    def edited(self) -> bool:
        return bool(self.changed)


def ruleset_summary(*, tournament: Tournament) -> RulesetSummary:
    """One query (the rounds, for the freeze), none when they were prefetched."""
    rules = tournament.rules()
    game, shape = rules.game, rules.shape()
    request = game.changes(rules.ruleset)
    preset = game.presets().get(request["preset"])
    labels = {setting.name: setting.label for setting in game.settings()}
    return RulesetSummary(
        game=game.key,
        game_name=game.name,
        preset=request["preset"],
        preset_name=_ruleset_name(game, preset) if preset else request["preset"],
        name=_ruleset_name(game, rules.ruleset),
        request=request,
        words=rules.describe(),
        changed=tuple(labels.get(name, name) for name in request if name != "preset"),
        table_size=shape.sides,
        min_table_size=shape.min_sides,
        max_table_size=shape.max_sides,
        frozen_because=rules_frozen_because(tournament=tournament),
    )


def _ruleset_name(game: Game[Any], ruleset: Any) -> str:
    stored = game.dump(ruleset)
    return str(stored.get("name") or f"{game.name}, {stored.get('preset', 'as set')}")


def rules_in_words(*, game: str, stored: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """A stored ruleset's game name and the ruleset in words; no query (for cached facts)."""
    rules = Tournament(game=game, ruleset=stored).rules()
    return rules.game.name, rules.describe()


def rules_frozen_because(*, tournament: Tournament) -> str | None:
    """Why the game and ruleset can no longer change, or None while no round exists. A round
    published has games played under them; a draft round was seated by their table plan."""
    rounds = sorted(tournament.rounds.all(), key=lambda round: round.number)
    played = next((round for round in rounds if round.status != Round.Status.DRAFT), None)
    if played is not None:
        return _(
            "The game and ruleset are frozen: round {number} has been published, and a "
            "tournament's rules never change under games already played. Set up a new "
            "tournament to play other rules."
        ).format(number=played.number)
    if rounds:
        return _(
            "Round {number} is seated as a draft under these rules: remove it on the "
            "rounds page, change the rules, then seat it again."
        ).format(number=rounds[0].number)
    return None


def entry_list(*, tournament: Tournament, status: str = "", search: str = "") -> QuerySet[Entry]:
    """The tournament's entries by player name, optionally of one status and matching a name
    or club; one query."""
    entries = tournament.entries.select_related("player").order_by(
        "team_name", "player__name", "player__club"
    )
    if status in Entry.Status.values:
        entries = entries.filter(status=status)
    words = search.strip()
    if words:
        matches = Q(player__name__icontains=words) | Q(player__club__icontains=words)
        # A team is found by its name or either partner's (HF1.2).
        matches |= Q(team_name__icontains=words) | Q(members__player__name__icontains=words)
        entries = entries.filter(matches).distinct()
    return entries


def disqualification_reasons(*, tournament: Tournament) -> dict[int, str]:
    """The latest disqualification reason of each entry, from the audit log; one query."""
    events = tournament.audit.filter(action="entry.disqualify").order_by("at", "id")
    return {
        event["entry_id"]: event.get("reason", "")
        for event in events.values_list("detail", flat=True)
        if "entry_id" in event
    }


def audit_list(*, tournament: Tournament) -> QuerySet[AuditEvent]:
    """The tournament's audit log, newest first, with who did each thing."""
    return tournament.audit.select_related("actor").order_by("-at", "-id")


ARRIVALS_SHOWN = 12  # the newest self check-ins the players page lists


@dataclass(frozen=True, slots=True)
class CheckInArrivals:
    """Self check-in as the players page shows it arriving: the window, the counts, and the
    newest players who checked in from their phones (each undone by the director alone)."""

    is_open: bool
    until: Any  # datetime | None: when the window closes (or closed)
    registered: int
    checked_in: int
    by_phone: int
    newest: list[Entry]


def check_in_arrivals_get(*, tournament: Tournament) -> CheckInArrivals:
    """The window and the newest self check-ins (2 queries)."""
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk", filter=Q(status=Entry.Status.REGISTERED)),
        checked_in=Count("pk", filter=Q(status=Entry.Status.CHECKED_IN)),
        by_phone=Count("pk", filter=Q(status=Entry.Status.CHECKED_IN, checked_in_by_phone=True)),
    )
    newest = (
        tournament.entries.filter(status=Entry.Status.CHECKED_IN, checked_in_by_phone=True)
        .select_related("player")
        .order_by("-checked_in_at", "-pk")[:ARRIVALS_SHOWN]
    )
    return CheckInArrivals(
        tournament.is_check_in_open(), tournament.check_in_until, newest=list(newest), **counts
    )
