"""Request and response shapes of the tournament API. Inputs check types and sizes only; what
is allowed is the services' to say, and their refusals come back in the API's one error shape."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

import games
from clubs.csv_files import MAX_BYTES
from config.api import Input
from tournament.csv_import import MAX_EMAIL, MAX_NAME
from tournament.models import DEFAULT_GAME, Entry, Tournament
from tournament.selectors import RulesetSummary, ruleset_summary

MAX_ROUNDS = 30
MOST_SETTINGS = 64  # more keys than any game has settings: a request is refused before the game


@extend_schema_field(
    {"type": "string", "enum": Tournament.Status.values}, component_name="TournamentStatusEnum"
)
class TournamentStatusField(serializers.ChoiceField):
    """Setting up, running or finished: its own schema component, apart from an entry's."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Tournament.Status.choices, **kwargs)


class GameField(serializers.ChoiceField):
    """One of the games (``games.GAME_KEYS``); DRF builds each serializer's fields anew."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(games.GAME_KEYS), **kwargs)


RULESET_SCHEMA = {
    "oneOf": [
        {
            "type": "object",
            "description": 'A ruleset request: {"preset": NAME, SETTING: VALUE, ...}, the preset '
            "and only the settings that differ (GET /api/games lists each game's).",
            "properties": {"preset": {"type": "string"}},
            "additionalProperties": True,
            "maxProperties": MOST_SETTINGS,
        },
        {"type": "string", "description": "A preset's name alone."},
    ],
    "example": {"preset": "club-four", "games": [{"number": 1, "dealt": 9, "contract": "333"}]},
}


@extend_schema_field(RULESET_SCHEMA)
class RulesetRequestField(serializers.Field):
    """A ruleset request, or a preset's name alone. Only its shape is checked here: the game
    checks every setting and names each bad one."""

    default_error_messages = {
        # DRF formats these messages: braces are doubled.
        "shape": 'A ruleset is {{"preset": NAME, SETTING: VALUE, ...}} or a preset\'s name.',
        "size": f"A ruleset request has at most {MOST_SETTINGS} settings.",
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, str) and 0 < len(data) <= 80:
            return {"preset": data}
        if not isinstance(data, dict) or not all(isinstance(key, str) for key in data):
            self.fail("shape")
        if len(data) > MOST_SETTINGS:
            self.fail("size")
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class TournamentCreateInput(Input):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(
        max_length=80,
        required=False,
        help_text="The address in links; made from the name when left out. Fixed once created.",
    )
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(
        required=False, help_text="Left out: a one-day event, ending on its first day."
    )
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=1)
    is_published = serializers.BooleanField(default=False)
    requires_confirmation = serializers.BooleanField(default=False)
    game = GameField(default=DEFAULT_GAME, help_text="The card game played (GET /api/games).")
    ruleset = RulesetRequestField(
        required=False,
        help_text="The game's default preset when left out. The tournament keeps its own copy.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not self.partial and "ends_on" not in attrs:
            attrs["ends_on"] = attrs["starts_on"]  # a one-day event
        return attrs


class TournamentUpdateInput(TournamentCreateInput):
    """Any of the set-up fields (validated with partial=True, so that only those sent change),
    and the status. A new game without a ruleset takes that game's default preset; a ruleset
    naming a preset replaces the ruleset, one without changes only the settings sent. The game
    and ruleset are frozen once a round exists (409). The slug is fixed."""

    slug = None
    status = TournamentStatusField(
        help_text="Setting up, running or finished, as the overview page sets it: running needs "
        "players (publishing round 1 sets it too), finished needs every round locked (R12.4), "
        "back to setting up needs no round published.",
    )
    game = GameField(required=False, help_text="The card game played (GET /api/games).")
    ruleset = RulesetRequestField(
        required=False,
        help_text="With a preset: the whole ruleset. Without: the settings to change.",
    )


class EntryCountsOutput(serializers.Serializer):
    registered = serializers.IntegerField(source="registered_count")
    checked_in = serializers.IntegerField(source="checked_in_count")
    withdrawn = serializers.IntegerField(source="withdrawn_count")
    disqualified = serializers.IntegerField(source="disqualified_count")


class RulesetOutput(serializers.Serializer):
    preset = serializers.CharField(help_text="The preset it was made from.")
    preset_name = serializers.CharField()
    name = serializers.CharField()
    request = serializers.DictField(
        help_text="The ruleset as a request: its preset and only the settings that differ."
    )
    changed = serializers.ListField(
        child=serializers.CharField(), help_text="The settings that differ, by their labels."
    )
    words = serializers.ListField(
        child=serializers.CharField(), help_text="The whole ruleset in words, a line a setting."
    )
    table_size = serializers.IntegerField(help_text="Sides at a usual table (R1.1)")
    min_table_size = serializers.IntegerField(help_text="R12.2")
    max_table_size = serializers.IntegerField(help_text="R12.2")
    frozen_because = serializers.CharField(
        allow_null=True, help_text="Why the game and ruleset can no longer change; null: they can."
    )


class TournamentOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    venue = serializers.CharField()
    status = TournamentStatusField()
    rounds_planned = serializers.IntegerField()
    is_published = serializers.BooleanField()
    requires_confirmation = serializers.BooleanField()
    game = serializers.CharField()
    game_name = serializers.SerializerMethodField()
    ruleset = serializers.SerializerMethodField()
    entries = EntryCountsOutput(source="*")

    @extend_schema_field(RulesetOutput)
    def get_ruleset(self, tournament: Tournament) -> dict[str, Any]:
        summary: RulesetSummary = ruleset_summary(tournament=tournament)
        return RulesetOutput(summary).data

    def get_game_name(self, tournament: Tournament) -> str:
        return games.get(tournament.game).name


class PartnerOutput(serializers.Serializer):
    position = serializers.IntegerField(help_text="Partner 1 or 2: partner 2 sits opposite.")
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    email = serializers.CharField(source="player.email")


class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField(help_text="The player; a team's first partner.")
    name = serializers.CharField(help_text="The team's name (HF1.2), or the player's.")
    club = serializers.CharField(source="player.club")
    email = serializers.CharField(source="player.email")
    team_name = serializers.CharField(help_text="Blank for a player entered alone.")
    partners = PartnerOutput(
        source="members.all", many=True, help_text="A team's two partners; none for a player."
    )
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    status_note = serializers.CharField(help_text="Why a pairing was refused (HF1.2).")
    is_late_entry = serializers.BooleanField()
    registered_at = serializers.DateTimeField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
    status_changed_at = serializers.DateTimeField(allow_null=True)


class EntryFilterInput(serializers.Serializer):
    status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)
    search = serializers.CharField(required=False, max_length=120, help_text="Name or club.")


class PlayerInput(Input):
    name = serializers.CharField(max_length=MAX_NAME)
    club = serializers.CharField(max_length=MAX_NAME, required=False, allow_blank=True, default="")
    email = serializers.EmailField(
        max_length=MAX_EMAIL, required=False, allow_blank=True, default=""
    )
    late = serializers.BooleanField(
        default=False, help_text="Required once round 1 is seated: the player joins late."
    )


class PartnerInput(Input):
    name = serializers.CharField(max_length=MAX_NAME)
    club = serializers.CharField(max_length=MAX_NAME, required=False, allow_blank=True, default="")
    email = serializers.EmailField(
        max_length=MAX_EMAIL, required=False, allow_blank=True, default=""
    )


class TeamUpdateInput(Input):
    """A team's name and partners, as the team's edit page sets them."""

    team_name = serializers.CharField(
        max_length=MAX_NAME, required=False, allow_blank=True, default="",
        help_text="Blank: the team is named by its partners.",
    )  # fmt: skip
    partners = PartnerInput(
        many=True,
        help_text="The team's two players, partner 1 first; a team that has been seated keeps "
        "its partners (HF1.2).",
    )

    def validate_partners(self, partners: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(partners) != 2:
            raise serializers.ValidationError("A team is two partners (HF1.2).")
        return partners


class TeamInput(TeamUpdateInput):
    partners = PartnerInput(many=True, help_text="The team's two players, partner 1 first.")
    late = serializers.BooleanField(
        default=False, help_text="Required once round 1 is seated: the team joins late."
    )


class PairingRefusalInput(Input):
    note = serializers.CharField(max_length=300, help_text="Why (HF1.2); kept in the audit log.")


class CsvImportInput(Input):
    csv = serializers.CharField(
        max_length=MAX_BYTES,
        trim_whitespace=False,
        help_text="The file's text: a header row (name, club, email; team in a game of "
        "partners, HF1.2), then one player a row.",
    )
    late = serializers.BooleanField(
        default=False, help_text="Required once round 1 is seated: the players join late."
    )


class DisqualifyInput(Input):
    reason = serializers.CharField(max_length=250, help_text="Kept in the audit log (R12.4).")


class ReinstateInput(Input):
    reason = serializers.CharField(
        max_length=2000,
        allow_blank=True,
        default="",
        help_text="Why a disqualified player is reinstated: required for one, since it reverses "
        "the ruling that disqualified them (R12.4). A withdrawn player needs none.",
    )


class TokenInput(Input, AuthTokenSerializer):
    """A username and password for `POST /api/auth/token` (DRF's, refusing other fields)."""


class TournamentProblemOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    field = serializers.CharField(allow_null=True)
    line = serializers.IntegerField(
        required=False, allow_null=True, help_text="CSV import: the file's line."
    )
    message = serializers.CharField()


class TournamentErrorsOutput(serializers.Serializer):
    errors = TournamentProblemOutput(many=True)
