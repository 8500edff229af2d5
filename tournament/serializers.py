"""Request and response shapes of the tournament API. Inputs check types and sizes only; what
is allowed is the services' to say, and their refusals come back in the API's one error shape."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.kalooki import PRESETS
from tournament.csv_import import MAX_BYTES, MAX_EMAIL, MAX_NAME
from tournament.models import Entry, Tournament
from tournament.selectors import RulesetSummary, ruleset_summary
from tournament.services import DEFAULT_RULESET

MAX_ROUNDS = 30


class PresetField(serializers.ChoiceField):
    """One of the ruleset presets known when the request comes (DRF builds each serializer's
    fields anew from these arguments)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(PRESETS), **kwargs)


class TournamentCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(
        max_length=80,
        required=False,
        help_text="The address in links; made from the name when left out. Fixed once created.",
    )
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=1)
    is_published = serializers.BooleanField(default=False)
    requires_confirmation = serializers.BooleanField(default=False)
    ruleset = PresetField(
        default=DEFAULT_RULESET, help_text="A preset; the tournament keeps its own copy (R1-R12)."
    )


class TournamentUpdateInput(TournamentCreateInput):
    """Any of the set-up fields (validated with partial=True, so that only those sent change);
    the ruleset only while no round exists. The slug is fixed."""

    slug = None


class EntryCountsOutput(serializers.Serializer):
    registered = serializers.IntegerField(source="registered_count")
    checked_in = serializers.IntegerField(source="checked_in_count")
    withdrawn = serializers.IntegerField(source="withdrawn_count")
    disqualified = serializers.IntegerField(source="disqualified_count")


class RulesetOutput(serializers.Serializer):
    preset = serializers.CharField(allow_null=True, help_text="null: edited in the admin.")
    name = serializers.CharField()
    table_size = serializers.IntegerField(help_text="R1.1")
    min_table_size = serializers.IntegerField(help_text="R12.2")
    max_table_size = serializers.IntegerField(help_text="R12.2")
    tie_breaks = serializers.ListField(child=serializers.CharField(), help_text="R12.3, in order")
    tie_breaks_in_words = serializers.ListField(child=serializers.CharField())


class TournamentOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    venue = serializers.CharField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    rounds_planned = serializers.IntegerField()
    is_published = serializers.BooleanField()
    requires_confirmation = serializers.BooleanField()
    ruleset = serializers.SerializerMethodField()
    entries = EntryCountsOutput(source="*")

    @extend_schema_field(RulesetOutput)
    def get_ruleset(self, tournament: Tournament) -> dict[str, Any]:
        summary: RulesetSummary = ruleset_summary(tournament=tournament)
        return RulesetOutput(summary).data


class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    email = serializers.CharField(source="player.email")
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    is_late_entry = serializers.BooleanField()
    registered_at = serializers.DateTimeField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
    status_changed_at = serializers.DateTimeField(allow_null=True)


class EntryFilterInput(serializers.Serializer):
    status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)
    search = serializers.CharField(required=False, max_length=120, help_text="Name or club.")


class PlayerInput(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME)
    club = serializers.CharField(max_length=MAX_NAME, required=False, allow_blank=True, default="")
    email = serializers.EmailField(
        max_length=MAX_EMAIL, required=False, allow_blank=True, default=""
    )
    late = serializers.BooleanField(
        default=False, help_text="Required once round 1 is seated: the player joins late."
    )


class CsvImportInput(serializers.Serializer):
    csv = serializers.CharField(
        max_length=MAX_BYTES,
        trim_whitespace=False,
        help_text="The file's text: a header row (name, club, email), then one player a row.",
    )
    late = serializers.BooleanField(
        default=False, help_text="Required once round 1 is seated: the players join late."
    )


class DisqualifyInput(serializers.Serializer):
    reason = serializers.CharField(max_length=250, help_text="Kept in the audit log (R12.4).")


class ReinstateInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=2000,
        allow_blank=True,
        default="",
        help_text="Why a disqualified player is reinstated: required for one, since it reverses "
        "the ruling that disqualified them (R12.4). A withdrawn player needs none.",
    )


class TournamentProblemOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    field = serializers.CharField(allow_null=True)
    line = serializers.IntegerField(
        required=False, allow_null=True, help_text="CSV import: the file's line."
    )
    message = serializers.CharField()


class TournamentErrorsOutput(serializers.Serializer):
    errors = TournamentProblemOutput(many=True)
