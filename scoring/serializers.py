"""Request and response shapes of the director's round, table and ruling API, and the API's
error shape that every endpoint answers with (`ErrorsOutput`).

Input serializers only check types and sizes; what is legal is the services' and the game's to
say, so every refusal comes back with its rule.
"""

from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import Input
from scoring.models import Deal, Ruling
from tables.models import Table
from tables.seating import SeatingMode
from tournament.models import Entry, Round


class ProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    player = serializers.CharField(allow_null=True, required=False)


class ErrorsOutput(serializers.Serializer):
    errors = ProblemSerializer(many=True)
    warnings = ProblemSerializer(many=True, required=False)


# --- the director's rounds, tables and rulings ---------------------------------------------------
# Players are named by entry id and tables, in a round's URL, by number; ids and numbers outside
# the tournament (or the round) are refused as if they did not exist.


@extend_schema_field(OpenApiTypes.INT)
class EntryField(serializers.PrimaryKeyRelatedField):
    """An entry (a player in this tournament), by id."""

    def get_queryset(self) -> QuerySet[Entry]:
        return Entry.objects.filter(tournament=self.context["tournament"]).select_related("player")


@extend_schema_field(OpenApiTypes.INT)
class TableNumberField(serializers.SlugRelatedField):
    """A table of this round, by its number."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="number", **kwargs)

    def get_queryset(self) -> QuerySet[Table]:
        return self.context["round"].tables.all()


@extend_schema_field(OpenApiTypes.INT)
class TableIdField(serializers.PrimaryKeyRelatedField):
    """A table of a published round of this tournament, by id (as the round's tables list it)."""

    def get_queryset(self) -> QuerySet[Table]:
        return Table.objects.filter(round__tournament=self.context["tournament"]).select_related(
            "round"
        )


@extend_schema_field(OpenApiTypes.INT)
class GameIdField(serializers.PrimaryKeyRelatedField):
    """A deal (one attempt; Kalooki's game) at a table of this tournament, by id."""

    def get_queryset(self) -> QuerySet[Deal]:
        return Deal.objects.filter(
            table__round__tournament=self.context["tournament"]
        ).select_related("table__round")


RULING_KINDS = [kind for kind in Ruling.Kind.values if kind != Ruling.Kind.SEATING_CHANGE]


def _named_enum(values: list[str], name: str) -> Any:
    """A choice set as a schema component of its own name. drf-spectacular would name it after
    its field ("kind", "status"), and those names are taken by the rules API's melds and the
    tournament API: the clash would rename theirs and ours to hashes."""
    return extend_schema_field({"type": "string", "enum": values}, component_name=name)


@_named_enum(Round.Status.values, "RoundStatusEnum")
class RoundStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Round.Status.choices, **kwargs)


@_named_enum(Ruling.Kind.values, "RulingKindEnum")
class RulingKindField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Ruling.Kind.choices, **kwargs)


@_named_enum(RULING_KINDS, "RulingInputKindEnum")
class RulingInputKindField(serializers.ChoiceField):
    """Every kind but a seating change, which the round's seat-change endpoint records."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=RULING_KINDS, **kwargs)


class SeatOutput(serializers.Serializer):
    position = serializers.IntegerField(help_text="Clockwise from 1.")
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField()
    club = serializers.CharField()
    is_first_dealer = serializers.BooleanField(help_text="Deals game 1 (R4.3).")


class TableOutput(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seats = SeatOutput(many=True)
    games_scored = serializers.IntegerField(
        help_text="Scored deals of the match (void ones aside)."
    )
    games_in_set = serializers.IntegerField(
        allow_null=True, help_text="The deals of a match; null for a match to a target score."
    )
    last_entry_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.IntegerField(help_text="Results awaiting confirmation.")
    flagged = serializers.IntegerField(help_text="Results saved over a warning (R10.6, R10.7).")


class TableLinkOutput(TableOutput):
    """A table with its link: on the `site` of the context (the address the table cards print,
    `director.print_views.printed_site`), else on `SITE_URL`."""

    scorekeeper_link = serializers.SerializerMethodField(
        help_text="The table's private link: whoever holds it can enter the table's results. "
        "It starts as the printed cards' do: SITE_URL, or, unset, the address of the request."
    )

    @extend_schema_field(OpenApiTypes.URI)
    def get_scorekeeper_link(self, table: Any) -> str:
        site = self.context.get("site") or settings.SITE_URL
        return f"{site}/t/{table.access_token}/"


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    status = RoundStatusField()
    seating_seed = serializers.IntegerField(
        allow_null=True, help_text="The same seed gives the same tables."
    )
    dealer_seed = serializers.IntegerField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    locked_at = serializers.DateTimeField(allow_null=True)


class ByeOutput(serializers.Serializer):
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="name")
    club = serializers.CharField()


class RoundDetailOutput(RoundOutput):
    tables = TableOutput(many=True)
    byes = ByeOutput(many=True, help_text="The players sitting out the round (a bye).")
    bye_rule = serializers.CharField(
        help_text="How the standings score a bye, in words with its rule; empty for a game "
        "without byes."
    )
    seating_mode = serializers.CharField(
        allow_null=True, help_text="How the round was seated (`mode` of seat); null before."
    )
    seating_words = serializers.CharField(
        help_text="How the round was seated, in words, with the design it follows if any."
    )


class SeatInput(Input):
    mode = serializers.ChoiceField(
        choices=[(mode.value, mode.words) for mode in SeatingMode],
        default=SeatingMode.AVOID_REPEATS.value,
        help_text="What the seating aims for: avoid_repeats (new opponents), standings "
        "(similar standing together), random, or by the members' ratings in the club and game: "
        "rating_balanced (tables of equal strength) or rating_stratified (similar ratings "
        "together; refused while nobody entered has a rating).",
    )
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Leave out for a new random seed; give an earlier seed to draw the same tables.",
    )


class SwapInput(Input):
    entries = serializers.ListField(
        child=EntryField(), min_length=2, max_length=2, help_text="The two players' entry ids."
    )


class MoveInput(Input):
    entry = EntryField()
    table = TableNumberField(help_text="The number of the table to move to.")
    position = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=6,
        help_text="The seat to take (those after it move one on); leave out for the last seat.",
    )


class SeatChangeInput(Input):
    """Give `swap_with`, or `table` (and perhaps `position`)."""

    entry = EntryField()
    swap_with = EntryField(required=False, allow_null=True)
    table = TableNumberField(required=False, allow_null=True)
    position = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=6)
    decision = serializers.CharField(max_length=2000)
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class RulingInput(Input):
    kind = RulingInputKindField()
    entry = EntryField(required=False, allow_null=True, default=None)
    table = TableIdField(required=False, allow_null=True, default=None)
    game = GameIdField(required=False, allow_null=True, default=None)
    points = serializers.IntegerField(
        default=0,
        min_value=-10_000,
        max_value=10_000,
        help_text="Penalty points or a score correction only: added to the player's score.",
    )
    decision = serializers.CharField(max_length=2000, help_text="What was decided.")
    reason = serializers.CharField(
        max_length=2000, required=False, allow_blank=True, default="", help_text="Why."
    )


class ReverseInput(Input):
    reason = serializers.CharField(max_length=2000, help_text="Why the ruling is reversed.")


class RulingOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = RulingKindField()
    points = serializers.IntegerField()
    decision = serializers.CharField()
    reason = serializers.CharField()
    decided_at = serializers.DateTimeField()
    decided_by = serializers.CharField()
    entry = serializers.IntegerField(source="entry_id", allow_null=True)
    player = serializers.CharField()
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(source="table_number", allow_null=True)
    game = serializers.IntegerField(
        source="deal_number", allow_null=True, help_text="The deal's number (Kalooki: game)."
    )
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    reversed_by = serializers.IntegerField(source="reversed_by_id", allow_null=True)
