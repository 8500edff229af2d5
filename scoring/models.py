"""Deals, results, rulings and standings, for any game of ``games``.

A **deal** is one deal of a table's match (Kalooki's game, Hand and Foot's hand, a Parcellus deal),
or a void attempt at one (Kalooki R9.2: recorded, scores nothing, dealt again as the next
attempt). A **deal result** is one side's result in one deal: its signed points, whether it went
out, and the game's own data (what was entered for the side, and the game's breakdown). What
only one game needs lives in that data and is checked by the game, not by a column here. Every
version of a deal's result is kept as a **result revision** (who, when, what, why); at most one
revision of a deal is confirmed. A **ruling** is a
director's decision (R12.4); its points show in the scores. A **standings snapshot** is derived
data, recomputed from results and rulings, versioned so the newest always wins. A **clock event**
starts, pauses, resumes or extends a round's clock, or one table's (`scoring.clock`); a
**director call** is a table asking for the director, open until the director answers it
(`scoring.control`).
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from tables.models import Table
from tournament.models import Entry, Round, Tournament
from tournament.stored import StoredModel


class Deal(StoredModel):
    """One deal of a table's match, or a void attempt at one (Kalooki R9.2)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting confirmation"
        CONFIRMED = "confirmed", "Confirmed"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(
        help_text="From 1 in the match; the game's schedule says how many (Kalooki R4)."
    )
    attempt = models.PositiveSmallIntegerField(
        default=1, help_text="Goes up after a void deal (Kalooki R9.2)."
    )
    is_void = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CONFIRMED)
    version = models.PositiveIntegerField(default=1, help_text="Goes up with every correction.")
    is_flagged = models.BooleanField(
        default=False, help_text="Saved over a warning (R10.6, R10.7): the director should look."
    )
    warnings = models.JSONField(default=list, blank=True)
    detail = models.JSONField(
        default=dict,
        blank=True,
        help_text="The deal-level detail the game reports (Kalooki: down and out, R8.3).",
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["table", "number", "attempt"]
        indexes = [
            # The standings' stamp (count, last change, highest version of a tournament's
            # deals) read from the index alone, table by table (PostgreSQL).
            models.Index(
                fields=["table"],
                include=["is_void", "number", "status", "version", "updated_at"],
                name="deal_stamp_by_table",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number", "attempt"], name="deal_attempt_unique"
            ),
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(is_void=False),
                name="deal_one_scored_attempt",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=Q(attempt__gte=1), name="deal_attempt_positive"),
        ]

    def __str__(self) -> str:
        suffix = f" (attempt {self.attempt}, void)" if self.is_void else ""
        return f"{self.table} deal {self.number}{suffix}"

    @property
    def down_and_out(self) -> bool:
        """Kalooki's R8.3, as the game reported it; False for any other game."""
        return bool(self.detail.get("down_and_out"))


class DealResult(StoredModel):
    """One side's result in one deal: its signed points, whether it went out, what was entered
    for it (``entered``: the game's canonical values and members) and the game's breakdown of
    the points (``detail``: ``SideScore.detail``)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="deal_results")
    side = models.PositiveSmallIntegerField(help_text="The side's index at the table, from 0.")
    points = models.IntegerField(default=0, help_text="The deal's score before rulings.")
    went_out = models.BooleanField(default=False)
    entered = models.JSONField(
        default=dict, blank=True, help_text="What was entered for this side, as the game read it."
    )
    detail = models.JSONField(default=dict, blank=True, help_text="The game's breakdown.")

    class Meta:
        ordering = ["deal", "side"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "entry"], name="result_one_per_entry"),
            models.UniqueConstraint(fields=["deal", "side"], name="result_one_per_side"),
            models.UniqueConstraint(
                fields=["deal"], condition=Q(went_out=True), name="result_one_side_went_out"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.name}: {self.points} in {self.deal}"

    @property
    def values(self) -> dict[str, Any]:
        """The side's own entered values (not its members')."""
        return self.entered.get("values", {})

    @property
    def members(self) -> list[dict[str, Any]]:
        return self.entered.get("members", [])


class ResultRevision(StoredModel):
    """One version of a game's result, as entered; the history behind every correction."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        SUPERSEDED = "superseded", "Superseded"

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices)
    entry = models.JSONField(
        help_text="The deal's entry as the game returned it (canonical), each side keyed by "
        "its entry id."
    )
    scores = models.JSONField(help_text="Each side's score as the game computed it.")
    warnings = models.JSONField(default=list, blank=True)
    reason = models.CharField(max_length=300, blank=True, help_text="Why it was changed.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_via = models.CharField(max_length=120, help_text="Who entered it, e.g. 'table link'.")
    entered_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_via = models.CharField(max_length=120, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # A director who looked at this version's warnings (R10.6, R10.7) and cleared its flag.
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_reason = models.CharField(
        max_length=300, blank=True, help_text="Why the director cleared the flag."
    )

    class Meta:
        ordering = ["deal", "version"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "version"], name="revision_version_unique"),
            models.UniqueConstraint(
                fields=["deal"],
                condition=Q(status="confirmed"),
                name="revision_one_confirmed_per_deal",
            ),
            models.CheckConstraint(
                condition=Q(reviewed_at__isnull=True) | ~Q(review_reason=""),
                name="revision_review_has_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal} v{self.version} ({self.status})"


class Ruling(StoredModel):
    """A tournament director's decision (R12.4). Never deleted: a reversal is a new ruling."""

    class Kind(models.TextChoices):
        PENALTY_POINTS = "penalty_points", "Penalty points"
        SCORE_CORRECTION = "score_correction", "Score correction"
        VOID_REDEAL = "void_redeal", "Void / redeal order"
        WARNING = "warning", "Warning"
        DISQUALIFICATION = "disqualification", "Disqualification"
        TIE_BREAK = "tie_break", "Tie-break decision"
        # A seat moved or swapped after the round was published (the issue: "after publishing,
        # a change is a ruling"). It carries no points, so the score constraints hold as they are.
        SEATING_CHANGE = "seating_change", "Seating change"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rulings")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.PROTECT)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT)
    deal = models.ForeignKey(Deal, null=True, blank=True, on_delete=models.PROTECT)
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    points = models.IntegerField(
        default=0, help_text="Added to the player's score; may be negative."
    )
    decision = models.TextField(help_text="What was decided.")
    reason = models.TextField(blank=True, help_text="Why.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now_add=True)
    reverses = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )

    class Meta:
        ordering = ["tournament", "decided_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(points=0) | Q(kind__in=["penalty_points", "score_correction"]),
                name="ruling_points_only_for_scores",
            ),
            models.CheckConstraint(
                condition=~Q(points=0)
                | ~Q(kind__in=["penalty_points", "score_correction"])
                | Q(reverses__isnull=False),
                name="ruling_score_kinds_carry_points",
            ),
            models.CheckConstraint(
                condition=Q(entry__isnull=False) | Q(table__isnull=False) | Q(deal__isnull=False),
                name="ruling_has_a_subject",
            ),
            models.CheckConstraint(
                condition=Q(entry__isnull=False) | Q(points=0), name="ruling_points_need_a_player"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()} ({self.points:+d})"
            if self.points
            else self.get_kind_display()
        )


class StandingsSnapshot(StoredModel):
    """Standings computed from the stored results and rulings; the highest version wins."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    source_stamp = models.CharField(
        max_length=80,
        help_text="SHA-256 of the facts it was computed from: results, rulings and entries.",
    )
    last_ruling_id = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="The newest ruling it read: it counts every ruling up to this id (R12.4). "
        "Blank: no ruling yet, or stored before this was recorded.",
    )
    data = models.JSONField()

    class Meta:
        ordering = ["tournament", "-version"]
        get_latest_by = "version"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version"], name="snapshot_version_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"Standings v{self.version} of {self.tournament}"


class IdempotencyRecord(StoredModel):
    """The first answer to a request sent with an Idempotency-Key, replayed to its retries."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=120)
    fingerprint = models.CharField(max_length=64, help_text="Hash of the request it answered.")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key} → {self.status_code}"


class ClockEvent(StoredModel):
    """One step of a round's clock (`table` blank) or of one table's own (`scoring.clock`)."""

    class Kind(models.TextChoices):
        START = "start", "Started"
        PAUSE = "pause", "Paused"
        RESUME = "resume", "Resumed"
        EXTEND = "extend", "Extended"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="clock_events")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="clock_events"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    minutes = models.PositiveSmallIntegerField(
        default=0, help_text="Start: the time the round is given; extend: the minutes added."
    )
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(kind="start", table__isnull=True),
                name="clock_one_start_per_round",
            ),
            models.CheckConstraint(
                condition=~Q(kind="start", table__isnull=False),
                name="clock_tables_start_with_round",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["start", "extend"], minutes__gte=1, minutes__lte=600)
                | Q(kind__in=["pause", "resume"], minutes=0),
                name="clock_minutes_fit_the_kind",
            ),
        ]

    def __str__(self) -> str:
        where = f"table {self.table_id}" if self.table_id else f"round {self.round_id}"
        return f"{self.get_kind_display()} {where} at {self.at:%H:%M}"


class DirectorCall(StoredModel):
    """A table asked for the director; open until the director answers it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="director_calls")
    called_at = models.DateTimeField(default=timezone.now)
    called_via = models.CharField(max_length=120, help_text="Who called: 'table 3 link · Ann'.")
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["called_at", "id"]
        constraints = [
            # A second press while the table waits is the same call, not another.
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(answered_at__isnull=True),
                name="call_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(answered_at__isnull=True) | Q(answered_at__gte=F("called_at")),
                name="call_answered_after_called",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} called at {self.called_at:%H:%M}"
