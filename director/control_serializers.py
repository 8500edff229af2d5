"""Request and response shapes of the control room's API (`director.control_api`): the clocks,
the calls for the director, time called and flags. Inputs check types and sizes only; whether a
step can be taken now is the services' to say."""

from django.core.validators import RegexValidator
from rest_framework import serializers

from config.api import Input
from scoring.clock import MAX_MINUTES

REASON = 200  # the clock keeps this much of a reason
LONG_REASON = 300  # a flag's and a time call's reasons
# DRF refuses a NUL byte in any text; said here too, so that the schema (a `pattern`) says it.
NO_NUL = RegexValidator(r"^[^\x00]*$", "A NUL byte is not allowed in a reason.")


class ClockStartInput(Input):
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=MAX_MINUTES,
        required=False,
        allow_null=True,
        help_text="The minutes the round has; left out: the game's time (Hand and Foot's 90, "
        "HF2.2), else 120.",
    )


class ClockPauseInput(Input):
    reason = serializers.CharField(
        max_length=REASON, required=False, allow_blank=True, default="", help_text="Kept."
    )


class ClockExtendInput(Input):
    minutes = serializers.IntegerField(min_value=1, max_value=MAX_MINUTES)
    reason = serializers.CharField(
        max_length=REASON,
        required=False,
        allow_blank=True,
        default="",
        validators=[NO_NUL],
        help_text="Why: a table that started late, a dispute.",
    )


class ReasonInput(Input):
    reason = serializers.CharField(max_length=LONG_REASON, help_text="Why; kept in the record.")


class ClockOutput(serializers.Serializer):
    state = serializers.ChoiceField(choices=["not_started", "running", "paused", "over"])
    allowed_seconds = serializers.IntegerField(help_text="The minutes given, every extension in.")
    elapsed_seconds = serializers.IntegerField(help_text="Running time so far; pauses aside.")
    left_seconds = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    table_extra_minutes = serializers.IntegerField(help_text="A table's own extensions.")
    table_paused = serializers.BooleanField(help_text="Paused for this table alone.")


class TableClockOutput(ClockOutput):
    table = serializers.IntegerField(help_text="The table's number.")


class RoundClocksOutput(serializers.Serializer):
    round = ClockOutput()
    tables = TableClockOutput(
        many=True, help_text="The tables whose clock differs from the round's (their own steps)."
    )


class CallOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's number.")
    called_at = serializers.DateTimeField()
    called_via = serializers.CharField(help_text="Who called: 'table 3 link · Ann'.")
    waited_seconds = serializers.IntegerField(help_text="How long the table has waited.")
    answered_at = serializers.DateTimeField(allow_null=True)
    answered_by = serializers.CharField(allow_null=True)


class TimeCallOutput(serializers.Serializer):
    table = serializers.IntegerField(help_text="The table's number.")
    time_called_at = serializers.DateTimeField(allow_null=True, help_text="Null: not called.")
    time_called_by = serializers.CharField()


class RoundTimeOutput(serializers.Serializer):
    tables = serializers.ListField(
        child=serializers.IntegerField(), help_text="The tables whose game time has ended now."
    )


class FlagOutput(serializers.Serializer):
    table = serializers.IntegerField(help_text="The table's number.")
    game = serializers.IntegerField(help_text="The deal's number (Kalooki: the game).")
    version = serializers.IntegerField(help_text="The version reviewed.")
    flagged = serializers.BooleanField()
    reason = serializers.CharField()
