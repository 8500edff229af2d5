"""Request and response shapes of the table API (`/api/tables/{id}`).

A result's body holds the deal's values and each side's (`sides`), by the game's field names
(`current_game.fields` of `GET /api/tables/{id}`), each side named by the `seat` (position,
clockwise from 1) or `entry` (entry id) of one of its players; or Kalooki's `hands` shape (one
player each, as the rules API's game body). Plus what a stored result needs: the `version` a
correction is based on, `confirm_warnings`, the `reason` of a correction and, on a table link,
who is entering. Input serializers check types and sizes only; whether the result is legal is the
game's to say.

Terms
- deal result: one deal or void attempt as stored at the table: its version, status (pending until
  a second person confirms it, when the tournament asks for that) and each side's score.
- running total: a side's total over the scored deals up to and including this one.
"""

from typing import Any

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import Input
from entry.access import MAX_NAME
from games.base import FieldKind, Scope
from scoring.models import Deal
from tables.models import MAX_SEATS

MAX_ID = 2**63 - 1  # the largest id the database can hold; larger ids are refused, never looked up
MAX_VERSION = 2**31 - 1
MAX_DEAL = 1000  # far beyond any match; the game says which deal comes next
MAX_VALUES = 40  # more fields than any game's deal has
MAX_TEXT = 400  # card text: more than any hand
MAX_NUMBER = 1_000_000  # a sanity bound: the game checks what each field allows (and cites why)
MAX_MEMBERS = 4


@extend_schema_field(
    {
        "type": "object",
        "maxProperties": MAX_VALUES,
        "additionalProperties": {
            "nullable": True,  # OpenAPI 3.0 has no null type
            "oneOf": [
                {"type": "boolean"},
                {"type": "integer", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER},
                {"type": "string", "maxLength": MAX_TEXT},
            ],
        },
    }
)
class ValuesField(serializers.Field):
    """A deal's, a side's or a member's values, by the game's field names (`fields` of the
    current deal): each a yes/no, a whole number, text (cards) or null. Types and sizes only:
    the game checks what each field allows."""

    default_error_messages = {
        "shape": gettext_lazy("Values are an object of at most {most} fields."),
        "name": gettext_lazy("A field's name is text of at most 40 characters."),
        "value": gettext_lazy(
            "{name}: a value is true or false, a whole number from -{big} to {big}, text "
            "of at most {text} characters, or null."
        ),
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or len(data) > MAX_VALUES:
            self.fail("shape", most=MAX_VALUES)
        for name, value in data.items():
            if not isinstance(name, str) or not 0 < len(name) <= 40:
                self.fail("name")
            if not _plain(value):
                self.fail("value", name=name[:40], big=MAX_NUMBER, text=MAX_TEXT)
        return dict(data)

    def to_representation(self, value: Any) -> dict[str, Any]:
        return dict(value or {})


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -MAX_NUMBER <= value <= MAX_NUMBER
    return isinstance(value, str) and len(value) <= MAX_TEXT and "\x00" not in value


class SeatOrEntry(Input):
    """A seat at the table, named by `seat` (position) or by `entry` (entry id): one of them."""

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
                gettext(
                    "Name the player by `seat` (position at the table) or by `entry` (entry id): "
                    "one of the two."
                )
            )
        return attrs


class TableSideInput(SeatOrEntry):
    """One side's part of the deal: the side named by the seat or entry of any of its players,
    its values (the side fields) and, per partner in seat order, the member fields."""

    values = ValuesField(required=False, default=dict)
    members = serializers.ListField(
        child=ValuesField(), required=False, default=list, max_length=MAX_MEMBERS
    )


class TableHandInput(SeatOrEntry):
    """Kalooki's shape, kept for the tools that send it: one player's result by seat or entry."""

    went_out = serializers.BooleanField(default=False)
    cards = serializers.CharField(
        max_length=MAX_TEXT,
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=True,
        help_text="Cards left in hand (R11). Give cards or points, not both.",
    )
    points = serializers.IntegerField(
        min_value=-100_000,
        max_value=100_000,
        required=False,
        allow_null=True,
        help_text="Card points before doubling, when the cards were not written down.",
    )
    calls = serializers.IntegerField(min_value=0, max_value=50, required=False, allow_null=True)
    failed_come_downs = serializers.IntegerField(min_value=0, max_value=50, default=0)
    overcall_penalty = serializers.BooleanField(default=False)


class TableResultInput(Input):
    game = serializers.IntegerField(
        min_value=1, max_value=MAX_DEAL, required=False, help_text="Optional: the address's deal."
    )
    values = ValuesField(required=False, default=dict, help_text="The deal fields.")
    sides = TableSideInput(
        many=True,
        max_length=MAX_SEATS,
        required=False,
        default=list,
        help_text="Each side's values: the shape of every game.",
    )
    hands = TableHandInput(
        many=True,
        max_length=MAX_SEATS,
        required=False,
        default=list,
        help_text="Kalooki's shape, one player per hand: instead of `sides`, not with them.",
    )
    down_and_out = serializers.BooleanField(default=False, help_text="Kalooki's R8.3.")
    void = serializers.BooleanField(default=False, help_text="Kalooki's R9.2: nobody scores.")
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
        help_text="Save over the warnings; the result is flagged for the director.",
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

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["sides"] and attrs["hands"]:
            raise serializers.ValidationError(
                {
                    "hands": gettext(
                        "Send `sides` (every game) or `hands` (Kalooki's shape), not both."
                    )
                }
            )
        return attrs


class TableConfirmInput(Input):
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


class TableSignOffInput(Input):
    signer = serializers.CharField(max_length=MAX_NAME, help_text="Who signs the set off.")


# --- answers ---------------------------------------------------------------------------------


class TablePlayerOutput(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Position, clockwise from 1.")
    entry = serializers.IntegerField()
    player = serializers.CharField()


class TableSeatOutput(TablePlayerOutput):
    club = serializers.CharField()
    is_first_dealer = serializers.BooleanField(help_text="Deals game 1 (R4.3).")


@extend_schema_field(
    {"type": "string", "enum": [str(kind) for kind in FieldKind]}, component_name="FieldKindEnum"
)
class FieldKindField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=[str(kind) for kind in FieldKind], **kwargs)


@extend_schema_field(
    {"type": "string", "enum": [str(scope) for scope in Scope]}, component_name="FieldScopeEnum"
)
class FieldScopeField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=[str(scope) for scope in Scope], **kwargs)


class TableFieldOutput(serializers.Serializer):
    """One value to enter (`games.base.Field`): the form of a deal, for any game."""

    name = serializers.CharField()
    label = serializers.CharField()
    kind = FieldKindField()
    scope = FieldScopeField(help_text="Entered once per deal, per side, or per player.")
    rule = serializers.CharField()
    help = serializers.CharField()
    required = serializers.BooleanField()
    minimum = serializers.IntegerField(allow_null=True)
    maximum = serializers.IntegerField(allow_null=True)
    default = serializers.JSONField(allow_null=True)
    choices = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    exclusive = serializers.BooleanField(help_text="At most one side (or member) sets it.")
    alternative_to = serializers.CharField(allow_null=True, help_text="Entered instead of it.")
    advanced = serializers.BooleanField()
    implied_by = serializers.CharField(
        allow_null=True,
        help_text="Set whenever this exclusive flag of the same row is: going out implies the "
        "foot was played (HF5.3).",
    )


class TableSideOutput(serializers.Serializer):
    side = serializers.IntegerField(help_text="From 0, in seat order of the first members.")
    entry = serializers.IntegerField(help_text="The entry its results are stored under.")
    label = serializers.CharField(help_text="A team's name (HF1.2), or its players' names.")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Its members' names, in seat order."
    )
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="Its members'.")


class TableCurrentGameOutput(serializers.Serializer):
    number = serializers.IntegerField()
    title = serializers.CharField(help_text='"Game 3", "Hand 2", "Deal 4".')
    summary = serializers.CharField()
    attempt = serializers.IntegerField(help_text="2 after one void attempt (R9.2).")
    dealt = serializers.IntegerField(allow_null=True, help_text="Kalooki: cards dealt (R4).")
    contract = serializers.CharField(help_text="Kalooki: the contract's code, e.g. 334 (R4).")
    contract_words = serializers.CharField(help_text="e.g. two threes and one four.")
    fields = TableFieldOutput(many=True, help_text="What to enter for this deal.")
    dealer = TablePlayerOutput(allow_null=True)
    first_player = TablePlayerOutput(allow_null=True, help_text="The dealer's left (R4.3).")


class TableHandScoreOutput(TablePlayerOutput):
    side = serializers.IntegerField()
    went_out = serializers.BooleanField()
    points = serializers.IntegerField(help_text="The deal's score, signed.")
    total = serializers.IntegerField(help_text="The deal's score (the same as `points`).")
    running = serializers.IntegerField(help_text="Total over the match so far.")
    values = serializers.DictField(help_text="What was entered for the side, as the game read it.")
    members = serializers.ListField(child=serializers.DictField())
    detail = serializers.DictField(help_text="The game's breakdown of the points.")


@extend_schema_field(
    {"type": "string", "enum": Deal.Status.values}, component_name="GameStatusEnum"
)
class GameStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Deal.Status.choices, **kwargs)


class TableProblemOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    player = serializers.CharField(allow_null=True, required=False)
    field = serializers.CharField(allow_null=True, required=False)
    side = serializers.IntegerField(allow_null=True, required=False)
    member = serializers.IntegerField(allow_null=True, required=False)


class TableGameOutput(serializers.Serializer):
    number = serializers.IntegerField()
    title = serializers.CharField()
    attempt = serializers.IntegerField()
    void = serializers.BooleanField(help_text="R9.2: scores nothing; the deal is played again.")
    down_and_out = serializers.BooleanField(help_text="Kalooki's R8.3; false for other games.")
    detail = serializers.DictField(help_text="The deal-level detail the game reports.")
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
    game = serializers.CharField(help_text="The game played: kalooki, hand_and_foot, parcellus.")
    requires_confirmation = serializers.BooleanField(
        help_text="A result counts once someone other than its enterer confirms it."
    )
    seats = TableSeatOutput(many=True)
    sides = TableSideOutput(many=True, help_text="The seats as the game's sides.")
    current_game = TableCurrentGameOutput(allow_null=True, help_text="None once the match is over.")
    results = TableGameOutput(many=True, help_text="Every game and void attempt, in order.")
    totals = TableTotalOutput(many=True, help_text="In seat order (R8.6).")
    games_scored = serializers.IntegerField(help_text="Deals scored (void attempts aside).")
    games_in_set = serializers.IntegerField(
        allow_null=True, help_text="The deals of a match; null for a match to a target score."
    )
    match_over = serializers.BooleanField(help_text="The game says the match is over.")
    time_called_at = serializers.DateTimeField(
        allow_null=True, help_text="When time was called, ending the match (HF2.2)."
    )
    time_called_by = serializers.CharField(help_text="Who called time.")
    signed_off = serializers.BooleanField()
    signed_off_at = serializers.DateTimeField(allow_null=True)
    signed_off_by = serializers.CharField()


class TableErrorOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    player = serializers.CharField(allow_null=True, required=False)
    side = serializers.IntegerField(allow_null=True, required=False)
    member = serializers.IntegerField(allow_null=True, required=False)


class TableRefusalOutput(serializers.Serializer):
    errors = TableErrorOutput(many=True)
    warnings = TableProblemOutput(many=True, required=False)


class TableConflictOutput(serializers.Serializer):
    errors = TableErrorOutput(many=True)
    current = TableGameOutput(help_text="The stored result, as `GET /api/tables/{id}` shows it.")
