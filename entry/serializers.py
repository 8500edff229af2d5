"""Request and response shapes of the table API (`/api/tables/{id}`).

A result's body is the rules API's game body (`POST /api/rules/game`), with each hand naming its
player by `seat` (position, clockwise from 1) or by `entry` (the player's entry id) instead of by
name, plus what a stored result needs: the `version` a correction is based on, `confirm_warnings`,
the `reason` of a correction and, on a table link, who is entering. Input serializers check types
and sizes only; whether the result is legal is the rules engine's to say (R10).

Terms
- game result: one game or void attempt as stored at the table: its version, status (pending until
  a second person confirms it, when the tournament asks for that) and each player's score.
- running total: a player's total over the scored games up to and including this one (R8.6).
"""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from entry.access import MAX_NAME
from scoring import serializers as s
from scoring.models import Game
from tables.models import MAX_SEATS

MAX_ID = 2**63 - 1  # the largest id the database can hold; larger ids are refused, never looked up
MAX_VERSION = 2**31 - 1


class TableHandInput(s.HandInput):
    """One player's result, the player named by `seat` or by `entry` (one of them)."""

    seat = serializers.IntegerField(
        min_value=1, max_value=MAX_SEATS, required=False, allow_null=True, help_text="Position."
    )
    entry = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True, help_text="Entry id."
    )
    player = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        help_text="Optional: the player's name, checked against the seat or entry given.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in ("seat", "entry") if attrs.get(name) is not None]
        if len(given) != 1:
            raise serializers.ValidationError(
                "Name the player by `seat` (position at the table) or by `entry` (entry id): "
                "one of the two."
            )
        return attrs


class TableResultInput(serializers.Serializer):
    game = s.GameNumberField(required=False)  # optional; if given, the game of the address
    down_and_out = serializers.BooleanField(default=False)
    void = serializers.BooleanField(default=False, help_text="R9.2: nobody scores.")
    hands = TableHandInput(many=True, max_length=MAX_SEATS, required=False, default=list)
    version = serializers.IntegerField(
        min_value=1,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text="The version of the stored result this corrects. Leave out for a new result: "
        "if one was saved meanwhile, the answer is 409 with the stored result.",
    )
    confirm_warnings = serializers.BooleanField(
        default=False,
        help_text="Save over the warnings (R10.6, R10.7); the result is flagged for the director.",
    )
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, default="", help_text="Why corrected."
    )
    entered_by = serializers.CharField(
        max_length=MAX_NAME,
        required=False,
        allow_blank=True,
        default="",
        help_text="On a table link: who is entering (recorded in the result's history).",
    )


class TableConfirmInput(serializers.Serializer):
    confirmed_by = serializers.CharField(
        max_length=MAX_NAME,
        required=False,
        allow_blank=True,
        default="",
        help_text="Who confirms: needed on a table link, where the name tells the confirmer "
        "from the one who entered the result.",
    )
    version = serializers.IntegerField(
        min_value=1,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text="The version being confirmed; 409 if the result was corrected since.",
    )


class TableSignOffInput(serializers.Serializer):
    signer = serializers.CharField(max_length=MAX_NAME, help_text="Who signs the set off.")


# --- answers ---------------------------------------------------------------------------------


class TablePlayerOutput(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Position, clockwise from 1.")
    entry = serializers.IntegerField()
    player = serializers.CharField()


class TableSeatOutput(TablePlayerOutput):
    club = serializers.CharField()
    is_first_dealer = serializers.BooleanField(help_text="Deals game 1 (R4.3).")


class TableCurrentGameOutput(serializers.Serializer):
    number = serializers.IntegerField()
    attempt = serializers.IntegerField(help_text="2 after one void attempt (R9.2).")
    dealt = serializers.IntegerField(help_text="Cards dealt to each player (R4).")
    contract = serializers.CharField(help_text="The contract's code, e.g. 334 (R4).")
    contract_words = serializers.CharField(help_text="e.g. two threes and one four.")
    dealer = TablePlayerOutput(allow_null=True)
    first_player = TablePlayerOutput(allow_null=True, help_text="The dealer's left (R4.3).")


class TableHandScoreOutput(TablePlayerOutput):
    went_out = serializers.BooleanField()
    cards = serializers.CharField(allow_null=True, help_text="Cards left in hand, if entered.")
    card_points = serializers.IntegerField(help_text="R8.2, before doubling.")
    doubled = serializers.BooleanField(help_text="R8.3")
    calls = serializers.IntegerField(allow_null=True)
    failed_come_downs = serializers.IntegerField()
    overcall_penalty = serializers.BooleanField()
    penalties = serializers.IntegerField(help_text="R5.4 and R6.3 points.")
    total = serializers.IntegerField(help_text="The game score (R8.5).")
    running = serializers.IntegerField(help_text="Total over the set so far.")


@extend_schema_field(
    {"type": "string", "enum": Game.Status.values}, component_name="GameStatusEnum"
)
class GameStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Game.Status.choices, **kwargs)


class TableProblemOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    player = serializers.CharField(allow_null=True, required=False)


class TableGameOutput(serializers.Serializer):
    number = serializers.IntegerField()
    attempt = serializers.IntegerField()
    void = serializers.BooleanField(help_text="R9.2: scores nothing; the game is played again.")
    down_and_out = serializers.BooleanField()
    status = GameStatusField(help_text="Pending until a second person confirms it, if asked.")
    version = serializers.IntegerField(help_text="Send it back to correct this result.")
    flagged = serializers.BooleanField(help_text="Saved over a warning (R10.6, R10.7).")
    warnings = TableProblemOutput(many=True)
    updated_at = serializers.DateTimeField()
    scores = TableHandScoreOutput(many=True, help_text="In seat order; empty for a void attempt.")


class TableTotalOutput(TablePlayerOutput):
    total = serializers.IntegerField()


class TableDetailOutput(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    tournament = serializers.CharField(help_text="The tournament's name.")
    requires_confirmation = serializers.BooleanField(
        help_text="A result counts once someone other than its enterer confirms it."
    )
    seats = TableSeatOutput(many=True)
    current_game = TableCurrentGameOutput(allow_null=True, help_text="None once the set is played.")
    results = TableGameOutput(many=True, help_text="Every game and void attempt, in order.")
    totals = TableTotalOutput(many=True, help_text="In seat order (R8.6).")
    games_scored = serializers.IntegerField()
    games_in_set = serializers.IntegerField()
    signed_off = serializers.BooleanField()
    signed_off_at = serializers.DateTimeField(allow_null=True)
    signed_off_by = serializers.CharField()


class TableErrorOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    player = serializers.CharField(allow_null=True, required=False)


class TableRefusalOutput(serializers.Serializer):
    errors = TableErrorOutput(many=True)
    warnings = TableProblemOutput(many=True, required=False)


class TableConflictOutput(serializers.Serializer):
    errors = TableErrorOutput(many=True)
    current = TableGameOutput(help_text="The stored result, as `GET /api/tables/{id}` shows it.")
