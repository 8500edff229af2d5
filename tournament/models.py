"""Tournaments and the people in them.

A **tournament** plays one **game** (a key of ``games.GAME_KEYS``: Kalooki, Hand and Foot,
Parcellus) under one ruleset of that game, stored with it whole as JSON (the game's ``dump``) so
that a later change of a preset or a default never rescores it; ``rules()`` answers every
question of the game through the protocol of ``games.base``.

A **player** is a person in one tournament's records: the same person at two events has a record
in each, so that no director reads or changes another's player (their email above all). An
**entry** is the unit of play and of the standings: one player's place in their tournament
(status, check-in), or, in a game of partners (Hand and Foot, HF1.2), a **team**'s: a team name and
its two **members** (``EntryMember``, partner 1 and partner 2), registered, checked in and
withdrawn together. A team entry's ``player`` is its first partner, so that every entry names a
person; its second partner is only a member. The director may **refuse a pairing** (HF1.2:
spouses or close friends may not partner) with a note; a refused team cannot check in until the
director re-pairs and reinstates it. Players check themselves in from their phones while the
tournament's **self check-in window** is open (`check_in_until`, `tournament.check_in`). A
**round** is one match (a Kalooki set of nine games, R4.1) played at every table (R12.1).
"""

import json
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import games
from clubs.models import AuditEntry, Club, Member
from config.caches import RULES
from games.base import Rules
from tournament.stored import StoredModel

DEFAULT_GAME = "kalooki"


def default_ruleset() -> dict[str, Any]:
    game = games.get(DEFAULT_GAME)
    return game.dump(game.ruleset())


def game_choices() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in games.all_games()]


@RULES
def _rules(game: str, text: str) -> tuple[Rules[Any], dict[str, Any]]:
    """The rules of a stored ruleset's JSON text, read once per process (rulesets are
    immutable), with the ruleset they were made from (to compare with a tournament's)."""
    ruleset = json.loads(text)
    kind = games.get(game)
    return kind.rules(kind.load(ruleset)), ruleset


class StoredRuleset(dict[str, Any]):
    """A ruleset read from the database, with the JSON text it was read from (`text`)."""

    def __init__(self, ruleset: dict[str, Any], text: str) -> None:
        super().__init__(ruleset)
        self.text = text

    def __reduce__(self) -> Any:  # copied or pickled as the plain dict it holds
        return dict, (dict(self),)


class RulesetField(models.JSONField):
    """A JSON column read as a `StoredRuleset` when it holds an object: a tournament's rules
    are then found by the text, without writing the ruleset out again."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        ruleset = super().from_db_value(value, expression, connection)
        if type(ruleset) is dict and isinstance(value, str):
            return StoredRuleset(ruleset, value)
        return ruleset


class Tournament(StoredModel):
    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    # Set for every tournament by its services and the data migration; null only for rows made
    # without them (tests' factories), which then link no members.
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    starts_on = models.DateField()
    ends_on = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SETUP)
    game = models.CharField(
        max_length=32,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text="The card game played; its rules come from games/<game>/.",
    )
    is_published = models.BooleanField(
        "public pages published", default=False, help_text="Show the public leaderboard pages."
    )
    ruleset = RulesetField(
        default=default_ruleset, help_text="The ruleset this tournament is played under (R1-R12)."
    )
    rounds_planned = models.PositiveSmallIntegerField("number of rounds", default=1)
    requires_confirmation = models.BooleanField(
        "second-person confirmation",
        default=False,
        help_text="A result counts once someone other than its enterer confirms it.",
    )
    check_in_until = models.DateTimeField(
        "self check-in open until",
        null=True,
        blank=True,
        help_text="Players check themselves in from their phones until then; empty: closed.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="tournament_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1), name="tournament_at_least_one_round"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def is_check_in_open(self) -> bool:
        """Whether players may check themselves in from their phones now (the director's
        window: opened for a while, closed by the director or by the time)."""
        return self.check_in_until is not None and timezone.now() < self.check_in_until

    def rules(self) -> Rules[Any]:
        """The game's rules under this tournament's stored ruleset (``games.base.Rules``).

        Remembered on the instance with a copy of the ruleset it was made from, and made again
        when the game or the ruleset no longer equals it: comparing costs far less than
        serialising the ruleset. A ruleset as read from the database is found by its text (the
        `rules` cache, config/caches.py), if it still equals what was read. Equal
        as Python compares (1 == 1.0 == True): a value changed in place to an equal one of
        another type keeps the rules made before; the director's pages replace a ruleset whole,
        checked by the game, and never change one in place."""
        memo = self.__dict__.get("_rules_memo")
        if memo is not None and memo[0] == self.game and memo[1] == self.ruleset:
            return memo[2]
        rules, read = None, None
        if isinstance(self.ruleset, StoredRuleset):  # found by the text it was read from
            rules, read = _rules(self.game, self.ruleset.text)
        if read != self.ruleset:
            rules, read = _rules(self.game, json.dumps(self.ruleset, sort_keys=True))
        self.__dict__["_rules_memo"] = (self.game, read, rules)
        return rules


class Player(StoredModel):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    email = models.EmailField(blank=True)
    member = models.ForeignKey(
        Member,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="players",
        help_text="The club member this player is: results reach seasons and ratings through it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


class EntryQuerySet(models.QuerySet["Entry"]):
    def active(self) -> "EntryQuerySet":
        """Entries that can still be seated: registered or checked in."""
        return self.filter(status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN])

    def checked_in(self) -> "EntryQuerySet":
        return self.filter(status=Entry.Status.CHECKED_IN)


class Entry(StoredModel):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")
        REFUSED = "refused", _("Pairing refused")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    # RESTRICT, not PROTECT: deleting the tournament takes its players and entries together.
    player = models.ForeignKey(
        Player,
        on_delete=models.RESTRICT,
        related_name="entries",
        help_text="The player; for a team, its first partner.",
    )
    team_name = models.CharField(
        max_length=120, blank=True, help_text="A team's name (HF1.2); blank for one player."
    )
    status_note = models.CharField(
        max_length=300, blank=True, help_text="Why the director refused this pairing (HF1.2)."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    is_late_entry = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by_phone = models.BooleanField(
        default=False, help_text="The player checked in from their own phone (self check-in)."
    )
    # Set at registration too, however the entry is created (bulk_create included), so that the
    # standings reconcile sees a new entry as a recent change. Still nullable: a backup made
    # before then holds nulls, and must load (scoring/backup.py).
    status_changed_at = models.DateTimeField(
        null=True,
        blank=True,
        default=timezone.now,
        help_text="When the entry took its current status: at registration, then at each change.",
    )

    objects = EntryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_one_per_player_per_tournament"
            ),
            # A player is of one tournament, so enters once; services create both together.
            models.UniqueConstraint(fields=["player"], name="entry_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament.name}"

    @property
    def name(self) -> str:
        """How the entry is called everywhere: the team's name, or the player's."""
        return self.team_name or self.player.name

    @property
    def is_team(self) -> bool:
        return bool(self.team_name)

    def partners(self) -> list[Player]:
        """A team's partners in order (partner 1 first); a player entry's one player."""
        if not self.is_team:
            return [self.player]
        return [member.player for member in self.members.all()]

    def partner_names(self) -> str:
        """ "Ann Lee & Cy Moss" for a team; the player's name for one player."""
        return " & ".join(player.name for player in self.partners())

    def is_playing(self) -> bool:
        return self.status in (self.Status.REGISTERED, self.Status.CHECKED_IN)


def entry_name(path: str = "") -> Coalesce:
    """An entry's name in a query, as ``Entry.name`` gives it: its team's, else its player's;
    `path` leads from the model queried to the entry (``"entry__"``)."""
    return Coalesce(NullIf(F(f"{path}team_name"), Value("")), F(f"{path}player__name"))


class EntryMember(StoredModel):
    """One partner of a team entry (HF1.2): partner 1 sits at the team's first seat, partner 2
    opposite."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="memberships")
    position = models.PositiveSmallIntegerField(help_text="Partner 1 or partner 2.")

    class Meta:
        ordering = ["entry", "position"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "position"], name="member_one_per_position"),
            # A player partners in one team only: the tournament's records are per person.
            models.UniqueConstraint(fields=["player"], name="member_in_one_team"),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=2), name="member_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.name}, partner {self.position} of {self.entry.team_name}"


class Round(StoredModel):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft (seating editable)")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        COMPLETE = "complete", _("Complete")
        LOCKED = "locked", _("Locked (changes only by ruling)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    seating_seed = models.BigIntegerField(
        null=True, blank=True, help_text="Seed of the seating's random choices (reproducible)."
    )
    dealer_seed = models.BigIntegerField(
        null=True, blank=True, help_text="Seed of the first-dealer draw (R4.3)."
    )
    published_at = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"

    def is_editable(self) -> bool:
        """Seating can be changed freely only before the round is published."""
        return self.status == self.Status.DRAFT


class StaffRole(StoredModel):
    class Role(models.TextChoices):
        DIRECTOR = "director", _("Tournament director")
        SCOREKEEPER = "scorekeeper", _("Scorekeeper")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "role", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="staffrole_unique_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.get_role_display()} of {self.tournament}"


class AuditEvent(StoredModel, AuditEntry):
    """One director action on a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")

    class Meta(AuditEntry.Meta):
        pass


# Stages (qualifying, cuts, finals) have their own module and migration (tournament.stages).
from tournament.stages import Stage, StageEntry  # noqa: E402, F401
