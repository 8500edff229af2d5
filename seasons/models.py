"""Seasons and their tables; ratings and their history. All derived data but the seasons.

A **season** (league) is a named set of a club's tournaments of one game; nights are added as it
goes on. Its **table** (`SeasonTable`) ranks the members by the points of their best `best_of`
events (``seasons.points``), recomputed from the events' stored standings. A **rating**
(`Rating`) is a member's OpenSkill Plackett-Luce rating in a club and game; each locked round's
tables move it, and each move is kept (`RatingChange`: the history a chart draws). A recompute
from scratch gives identical numbers: ratings are read from results in the order rounds were
locked (`ratings.py`).
"""

from django.db import models
from django.db.models import Q

from clubs.models import Club, Member
from tournament.models import Round, Tournament, game_choices


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80)
    game = models.CharField(max_length=32, choices=game_choices)
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="How many of a member's best events count; blank: every event.",
    )
    tournaments = models.ManyToManyField(Tournament, blank=True, related_name="seasons")
    is_published = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_per_club"),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="season_best_of_1_up"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SeasonTable(models.Model):
    """A season's table as last computed: its rows (JSON) and a version that moves on change."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="table")
    version = models.PositiveIntegerField(default=0)
    rows = models.JSONField(default=list)
    events = models.JSONField(default=list)  # the events counted: id, name, field size
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"


class Rating(models.Model):
    """A member's current rating in a club and game (the last `RatingChange`)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32, choices=game_choices)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.FloatField(help_text="The conservative rating shown: mu - 3 sigma.")
    games = models.PositiveIntegerField(help_text="Matches (tables) rated.")

    class Meta:
        ordering = ["club", "game", "-display"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "member"], name="rating_one_per_member_and_game"
            )
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.display:.2f}"


class RatingChange(models.Model):
    """One member's rating after one table's match: the history, in rating order (`seq`)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32, choices=game_choices)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_changes")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    table = models.PositiveSmallIntegerField()
    seq = models.PositiveIntegerField(help_text="The match's position in the rating order.")
    place = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.FloatField()

    class Meta:
        ordering = ["club", "game", "seq"]
        indexes = [models.Index(fields=["member", "game", "seq"], name="ratingchange_history")]

    def __str__(self) -> str:
        return f"{self.member} after round {self.round_id} table {self.table}: {self.display:.2f}"


class RatingState(models.Model):
    """What a club and game's ratings were computed from: the rounds rated, in order, and a
    fingerprint of the facts, so that a run with nothing new writes nothing."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32, choices=game_choices)
    stamp = models.CharField(max_length=80, blank=True)
    rounds = models.JSONField(default=list)  # [[round id, digest of its tables], ...] in order
    versions = models.JSONField(default=dict)  # tournament id -> the snapshot version read
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "game"], name="ratingstate_one_per_game")
        ]

    def __str__(self) -> str:
        return f"ratings of club {self.club_id} in {self.game}: {len(self.rounds)} rounds"
