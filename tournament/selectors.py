"""Reads of tournaments for pages and the API; each runs a fixed number of queries."""

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet

from games.kalooki import PRESETS, Ruleset
from tournament.models import AuditEvent, Entry, Round, Tournament
from tournament.permissions import directed_tournaments

# R12.3's tie-breaks in a director's words, by their ruleset names.
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
    """The tournaments this user directs, newest first, with their entry counts."""
    return with_entry_counts(directed_tournaments(user)).order_by("-starts_on", "name")


def tournament_counted(*, tournament: Tournament) -> Tournament:
    """The tournament again, with its entry counts (see `with_entry_counts`)."""
    return with_entry_counts(Tournament.objects.filter(pk=tournament.pk)).get()


def round_list(*, tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.order_by("number"))


@dataclass(frozen=True, slots=True)
class RulesetSummary:
    """What a director needs to know of the ruleset, in words (R1.1, R12.2, R12.3)."""

    preset: str | None  # its key in PRESETS; None for a ruleset edited in the admin
    name: str
    table_size: int
    min_table_size: int
    max_table_size: int
    tie_breaks: tuple[str, ...]

    @property
    def tie_breaks_in_words(self) -> list[str]:
        return [TIE_BREAK_WORDS.get(name, name) for name in self.tie_breaks]

    @property
    def tables_in_words(self) -> str:
        return (
            f"{self.table_size} players a table (R1.1); tables of {self.min_table_size} to "
            f"{self.max_table_size} only when the player count needs them (R12.2)"
        )


def ruleset_summary(*, tournament: Tournament) -> RulesetSummary:
    rules: Ruleset = tournament.rules().ruleset
    return RulesetSummary(
        preset=ruleset_preset(tournament=tournament),
        name=rules.name,
        table_size=rules.table_size,
        min_table_size=rules.min_table_size,
        max_table_size=rules.max_table_size,
        tie_breaks=rules.tie_breaks,
    )


def ruleset_preset(*, tournament: Tournament) -> str | None:
    """The preset the tournament's stored ruleset is an exact copy of, if any."""
    copies = (key for key, rules in PRESETS.items() if rules.to_dict() == tournament.ruleset)
    return next(copies, None)


def entry_list(*, tournament: Tournament, status: str = "", search: str = "") -> QuerySet[Entry]:
    """The tournament's entries by player name, optionally of one status and matching a name
    or club; one query."""
    entries = tournament.entries.select_related("player").order_by("player__name", "player__club")
    if status in Entry.Status.values:
        entries = entries.filter(status=status)
    words = search.strip()
    if words:
        matches = Q(player__name__icontains=words) | Q(player__club__icontains=words)
        entries = entries.filter(matches)
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
