"""Tables and seats.

A **table** seats three to six players for one round and plays one set of nine games there (R12.1).
A **seat** is a numbered position at a table, clockwise from 1; one seat holds the **first dealer**
of the set (R4.3), and the deal passes clockwise one seat per game. Each table has a private
scorekeeper link, an unguessable token printed as a QR code on its table card. In a game played
against the clock (Hand and Foot, HF2.2) **time is called** at a table when its time is up: the
match ends with the deals entered by then (`scoring.time_called`).

A **seating record** keeps what a round's seating was made from: its mode (`SeatingMode`), the
standings or ratings it read, the pins it honoured and the design place it followed; with the
round's seeds, the same inputs make the same tables. A **pinned seat** keeps a player who cannot
move (a wheelchair space) at one table, and perhaps one seat, all event.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from tables.seating import SeatingMode
from tournament.models import Entry, Round, Tournament
from tournament.stored import StoredModel

MAX_SEATS = 6
MODE_CHOICES = [(mode.value, mode.words) for mode in SeatingMode]


def new_access_token() -> str:
    return secrets.token_urlsafe(24)


class Table(StoredModel):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    access_token = models.CharField(
        max_length=64,
        unique=True,
        default=new_access_token,
        help_text="Secret of the table's private link; reissuing it revokes the old one.",
    )
    token_issued_at = models.DateTimeField(auto_now_add=True)
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="scored_tables"
    )
    signed_off_at = models.DateTimeField(null=True, blank=True)
    signed_off_by = models.CharField(max_length=120, blank=True)
    time_called_at = models.DateTimeField(
        null=True, blank=True, help_text="When time was called: no deal is entered after (HF2.2)."
    )
    time_called_by = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    def is_signed_off(self) -> bool:
        return self.signed_off_at is not None

    @property
    def time_called(self) -> bool:
        """Whether time was called at this table, ending its match (HF2.2)."""
        return self.time_called_at is not None


class Seat(StoredModel):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # The round is the table's round, stored again so the database itself can refuse a player
    # seated twice in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="Clockwise from 1.")
    is_first_dealer = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(
                fields=["round", "entry"], name="seat_one_per_player_per_round"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(is_first_dealer=True), name="seat_one_first_dealer"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=MAX_SEATS), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.position} at {self.table}"


class Bye(StoredModel):
    """An entry that sits out a round because the table plan leaves it without a table (PA7.1,
    HF11.1). The standings score it by the tournament's bye rule."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_one_per_player_per_round"),
        ]

    def __str__(self) -> str:
        return f"Bye in round {self.round.number}"


class SeatingRecord(StoredModel):
    """What a round's seating was made from, beside its seeds on the round."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="seating_record")
    mode = models.CharField(
        max_length=24, choices=MODE_CHOICES, default=SeatingMode.AVOID_REPEATS.value
    )
    standing = models.JSONField(
        default=list, blank=True, help_text="Entry ids best first, as the seating read them."
    )
    ratings = models.JSONField(
        default=dict, blank=True, help_text="Entry id to rating, for a seating by rating."
    )
    pins = models.JSONField(
        default=dict, blank=True, help_text="Entry id to [table, seat or null], as honoured."
    )
    design = models.JSONField(
        default=dict, blank=True, help_text="The design place the round follows, if any."
    )

    def __str__(self) -> str:
        return f"Seating of {self.round}"

    @property
    def mode_words(self) -> str:
        return SeatingMode(self.mode).words


class PinnedSeat(StoredModel):
    """A player kept at one table (and perhaps one seat) all event: the seating works around
    them. A seat holds one pinned player (the database refuses a second)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pinned_seats"
    )
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="pinned_seat")
    table = models.PositiveSmallIntegerField(help_text="The table's number, from 1.")
    position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat, clockwise from 1; blank: any seat."
    )
    reason = models.CharField(
        max_length=200, blank=True, help_text="Why: a wheelchair space, a walking frame."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "position", "entry"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table", "position"],
                condition=Q(position__isnull=False),
                name="pinned_seat_one_per_seat",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="pinned_seat_table_positive"),
            models.CheckConstraint(
                condition=Q(position__isnull=True) | Q(position__gte=1, position__lte=MAX_SEATS),
                name="pinned_seat_position_range",
            ),
        ]

    def __str__(self) -> str:
        seat = f", seat {self.position}" if self.position else ""
        return f"{self.entry.name} pinned to table {self.table}{seat}"
