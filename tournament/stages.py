"""Stages of a tournament: qualifying rounds, then cuts to smaller fields.

Terms
- **stage**: a run of consecutive rounds. Stage 1 is the **qualifying** stage, played by the
  whole field; every later stage is played by the entries that made its **cut**. Stage k holds
  the rounds after those of the stages before it (stage 1 of 3 rounds: rounds 1-3; a final of one
  round after it: round 4), so a round's stage follows from its number.
- **cut**: the best `size` entries of the stage before, by that stage's standings (the game's
  order with its whole tie-break chain, R12.3), or, where entries are still level at the line,
  in the order the director decided (a play-off table). The entries that made it are the
  stage's **entrants**, each with its **seed**: its place at the cut, 1 the best.
- **kind**: a **final** is one table; **semi-finals** are two tables or more, whose best go on
  to the next stage's cut; a **knockout** (Hand and Foot: teams two to a table) sends each
  table's winner on to the next stage, and only them.
- **scoring** of a later stage: **fresh** (its rounds only), or carrying over **all** or a
  **share** (a percentage) of the totals of the rounds before it.
- **seats** at a later stage's tables: by **standing** (seed 1 at seat 1, then in order; over
  several tables, seeds snake across them so each is as strong as the next) or **drawn**.

The models live here, apart from ``tournament.models``, with their own migration; the settings'
service is ``tournament.stage_services``; the cut, which reads the standings and seats the
tables, is ``scoring.stages``.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.models import Entry, Round, Tournament
from tournament.stored import StoredModel


class Stage(StoredModel):
    class Kind(models.TextChoices):
        QUALIFYING = "qualifying", gettext_lazy("Qualifying")
        SEMI_FINALS = "semi_finals", gettext_lazy("Semi-finals")
        FINAL = "final", gettext_lazy("Final table")
        KNOCKOUT = "knockout", gettext_lazy("Knockout")

    class Scoring(models.TextChoices):
        FRESH = "fresh", gettext_lazy("Fresh")
        CARRY_ALL = "carry_all", gettext_lazy("Carry over all")
        CARRY_SHARE = "carry_share", gettext_lazy("Carry over a share")

    class Seats(models.TextChoices):
        STANDING = "standing", gettext_lazy("By standing")
        DRAWN = "drawn", gettext_lazy("Drawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(help_text="1: the qualifying stage; then in order.")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.QUALIFYING)
    rounds = models.PositiveSmallIntegerField(default=1, help_text="How many rounds it plays.")
    size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How many entries make its cut; blank for qualifying."
    )
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.FRESH)
    carry_percent = models.PositiveSmallIntegerField(
        default=100, help_text="The share of the earlier totals carried over, in percent."
    )
    seats = models.CharField(max_length=16, choices=Seats.choices, default=Seats.DRAWN)
    cut_at = models.DateTimeField(null=True, blank=True, help_text="When its cut was made.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_positive"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="stage_at_least_one_round"),
            models.CheckConstraint(
                condition=Q(carry_percent__gte=1, carry_percent__lte=100),
                name="stage_carry_percent_range",
            ),
            # The qualifying stage is the first and has no cut; every later stage has one.
            models.CheckConstraint(
                condition=Q(number=1, kind="qualifying", size__isnull=True)
                | (Q(number__gte=2, size__gte=2) & ~Q(kind="qualifying")),
                name="stage_cut_after_qualifying",
            ),
        ]

    def __str__(self) -> str:
        return f"Stage {self.number} ({self.get_kind_display()}) of {self.tournament}"

    @property
    def name(self) -> str:
        """ "Qualifying", "Semi-finals", "Final table"."""
        return self.get_kind_display()

    def scoring_words(self) -> str:
        """How the stage is scored, in a sentence."""
        if self.kind == self.Kind.QUALIFYING:
            return _("Every round counts (R12.3).")
        if self.scoring == self.Scoring.FRESH:
            return _("Fresh: everyone starts from zero; only this stage's rounds count.")
        if self.scoring == self.Scoring.CARRY_ALL or self.carry_percent == 100:
            return _("Carried over: the totals of the earlier rounds count in full.")
        return _("Carried over: {percent}% of the totals of the earlier rounds count.").format(
            percent=self.carry_percent
        )

    def seats_words(self) -> str:
        if self.kind == self.Kind.QUALIFYING:
            return _("Seated by the round's seating mode.")
        if self.seats == self.Seats.STANDING:
            return _("Seats by standing: the best seed at seat 1, then in order.")
        return _("Seats drawn at random.")

    def cut_words(self) -> str:
        if self.size is None:
            return _("The whole field.")
        if self.kind == self.Kind.KNOCKOUT:
            return _("{size} seeded from the stage before; each table's winner goes on.").format(
                size=self.size
            )
        return _(
            "The best {size} after the stage before (the tie-break chain at the line)."
        ).format(size=self.size)


STAGE_KINDS = Stage.Kind.values  # named in the API schema (config.settings)


class StageEntry(StoredModel):
    """An entry that made a stage's cut, with its seed (its place at the cut, 1 the best)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entrants")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="stage_places")
    seed = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "entry"], name="stage_entry_once"),
            models.UniqueConstraint(fields=["stage", "seed"], name="stage_seed_once"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="stage_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"Seed {self.seed} of {self.stage}"


def stage_bounds(stages: list[Stage]) -> dict[int, range]:
    """Each stage's round numbers, by stage number: the stages' rounds one after the other."""
    bounds, first = {}, 1
    for stage in sorted(stages, key=lambda stage: stage.number):
        bounds[stage.number] = range(first, first + stage.rounds)
        first += stage.rounds
    return bounds


def stage_of(round: Round) -> Stage | None:
    """The stage `round` belongs to; None when the tournament has no stages (one query)."""
    stages = list(Stage.objects.filter(tournament_id=round.tournament_id))
    for stage in stages:
        if round.number in stage_bounds(stages)[stage.number]:
            return stage
    return None


def stage_waiting_for_cut(tournament: Tournament, number: int) -> Stage | None:
    """The later stage whose first round is round `number`, while its cut is not made: that
    round is added by the cut, with the entries that made it (one query)."""
    stages = list(Stage.objects.filter(tournament=tournament))
    for stage in stages:
        first = stage_bounds(stages)[stage.number].start
        if stage.number > 1 and first == number and stage.cut_at is None:
            return stage
    return None


def entrants_of(stage: Stage) -> list[int]:
    """The entry ids that made the stage's cut, best seed first."""
    return list(stage.entrants.order_by("seed").values_list("entry_id", flat=True))


__all__ = [
    "Stage",
    "StageEntry",
    "entrants_of",
    "stage_bounds",
    "stage_of",
    "stage_waiting_for_cut",
]
