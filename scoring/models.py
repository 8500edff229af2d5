"""Games, results, rulings and standings.

A **game** is one of the nine of a set at one table (R4), or a void attempt at one (R9.2: recorded,
scores nothing, the same game is played again as the next attempt). A **hand result** is one
player's result in one game (R8.5). Every version of a game's result is kept as a **result
revision** (who, when, what, why); at most one revision of a game is confirmed. A **ruling** is a
director's decision (R12.4); its points show in the scores. A **standings snapshot** is derived
data, recomputed from results and rulings, versioned so the newest always wins. A **clock event**
starts, pauses, resumes or extends a round's clock, or one table's (`scoring.clock`); a
**director call** is a table asking for the director, open until the director answers it
(`scoring.control`).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from tables.models import Table
from tournament.models import Entry, Round, Tournament

GAMES_PER_SET = 9


class Game(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting confirmation"
        CONFIRMED = "confirmed", "Confirmed"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="1 to 9 (R4).")
    attempt = models.PositiveSmallIntegerField(
        default=1, help_text="Goes up after a void game (R9.2)."
    )
    is_void = models.BooleanField(default=False)
    down_and_out = models.BooleanField(default=False, help_text="R8.3: card points doubled.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CONFIRMED)
    version = models.PositiveIntegerField(default=1, help_text="Goes up with every correction.")
    is_flagged = models.BooleanField(
        default=False, help_text="Saved over a warning (R10.6, R10.7): the director should look."
    )
    warnings = models.JSONField(default=list, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["table", "number", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number", "attempt"], name="game_attempt_unique"
            ),
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(is_void=False),
                name="game_one_scored_attempt",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=GAMES_PER_SET), name="game_number_range"
            ),
            models.CheckConstraint(condition=Q(attempt__gte=1), name="game_attempt_positive"),
            models.CheckConstraint(
                condition=~Q(is_void=True, down_and_out=True), name="game_void_not_down_and_out"
            ),
        ]

    def __str__(self) -> str:
        suffix = f" (attempt {self.attempt}, void)" if self.is_void else ""
        return f"{self.table} game {self.number}{suffix}"


class HandResult(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="hand_results")
    went_out = models.BooleanField(default=False)
    cards = models.CharField(
        max_length=400, blank=True, help_text="Cards left in hand in R11 notation, if entered."
    )
    card_count = models.PositiveSmallIntegerField(null=True, blank=True)
    card_points = models.PositiveIntegerField(default=0, help_text="R8.2, before doubling.")
    doubled = models.BooleanField(default=False, help_text="R8.3 down and out.")
    calls = models.PositiveSmallIntegerField(null=True, blank=True, help_text="R6; blank: unknown.")
    failed_come_downs = models.PositiveSmallIntegerField(default=0, help_text="R5.4")
    overcall_penalty = models.BooleanField(default=False, help_text="R6.3")
    penalty_points = models.PositiveIntegerField(default=0, help_text="R5.4 + R6.3 as scored.")
    total = models.PositiveIntegerField(default=0, help_text="Game score before rulings (R8.5).")

    class Meta:
        ordering = ["game", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="hand_one_result_per_player"),
            models.UniqueConstraint(
                fields=["game"], condition=Q(went_out=True), name="hand_one_player_went_out"
            ),
            models.CheckConstraint(
                condition=~Q(went_out=True) | Q(card_points=0), name="hand_went_out_scores_no_cards"
            ),
            models.CheckConstraint(
                condition=Q(doubled=False, total=F("card_points") + F("penalty_points"))
                | Q(doubled=True, total=F("card_points") * 2 + F("penalty_points")),
                name="hand_total_adds_up",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player.name}: {self.total} in {self.game}"


class ResultRevision(models.Model):
    """One version of a game's result, as entered; the history behind every correction."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        SUPERSEDED = "superseded", "Superseded"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices)
    entry = models.JSONField(help_text="The result as submitted (R11 cards or points per player).")
    scores = models.JSONField(help_text="Each player's score breakdown as computed (R8).")
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
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="revision_version_unique"),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="confirmed"),
                name="revision_one_confirmed_per_game",
            ),
            models.CheckConstraint(
                condition=Q(reviewed_at__isnull=True) | ~Q(review_reason=""),
                name="revision_review_has_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.version} ({self.status})"


class Ruling(models.Model):
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
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT)
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
                condition=Q(entry__isnull=False) | Q(table__isnull=False) | Q(game__isnull=False),
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


class StandingsSnapshot(models.Model):
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


class IdempotencyRecord(models.Model):
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


class ClockEvent(models.Model):
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


class DirectorCall(models.Model):
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
