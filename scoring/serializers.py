"""Request and response shapes of the rules API; the table API reuses the game body.

Input serializers only check types and sizes; what is legal is the rules engine's to say, so every
rule refusal comes back from the engine with its R-number.
"""

from typing import Any

from rest_framework import serializers

from scoring.rules import (
    FOUR,
    PRESETS,
    THREE,
    CardParseError,
    GameEntry,
    HandEntry,
    UnknownGameError,
    parse_cards,
)

MAX_CARD_TEXT = 400  # more than any hand: 16 dealt + 2 × many calls, written out in full
MAX_COUNT = 50


class ProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    player = serializers.CharField(allow_null=True, required=False)


class RulesetField(serializers.ChoiceField):
    """Which preset to check against; the ASAJ 2025 rules unless asked otherwise."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(PRESETS), default="asaj-2025", **kwargs)


def cards_problem(text: str) -> str | None:
    """The R11 reading error of `text`, or None when every token reads as a card."""
    try:
        parse_cards(text)
    except CardParseError as error:
        return str(error)
    return None


class GameNumberField(serializers.IntegerField):
    """A game of the set (R4); the number is checked against the ruleset by `check_game`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(help_text="The game's number in the set: 1 to 9 for ASAJ (R4).", **kwargs)


class RulesInput(serializers.Serializer):
    """An input naming a game and a ruleset: the game must be one of that ruleset's set (R4)."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            PRESETS[attrs["ruleset"]].game(attrs["game"])
        except UnknownGameError as error:
            raise serializers.ValidationError({"game": str(error)}) from None
        return attrs


class CardsField(serializers.CharField):
    """Card text in R11 notation, refused with the token and its position when unreadable."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=MAX_CARD_TEXT, trim_whitespace=True, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        problem = cards_problem(text)
        if problem:
            raise serializers.ValidationError(problem)
        return text


class MeldInput(serializers.Serializer):
    cards = CardsField()
    kind = serializers.ChoiceField(choices=[THREE, FOUR], required=False, allow_null=True)
    as_laid = serializers.BooleanField(
        default=False, help_text="Check the cards in the order given (jokers stand where they lie)."
    )
    ruleset = RulesetField()


class MeldOutput(serializers.Serializer):
    valid = serializers.BooleanField()
    kind = serializers.ChoiceField(choices=[THREE, FOUR], allow_null=True)
    arrangement = serializers.ListField(child=serializers.CharField())
    reasons = ProblemSerializer(many=True)


class ContractInput(RulesInput):
    game = GameNumberField()
    groups = serializers.ListField(child=CardsField(), min_length=1, max_length=12)
    ruleset = RulesetField()


class ContractOutput(serializers.Serializer):
    valid = serializers.BooleanField()
    reasons = ProblemSerializer(many=True)
    melds = MeldOutput(many=True)


class HandInput(serializers.Serializer):
    player = serializers.CharField(max_length=120)
    went_out = serializers.BooleanField(default=False)
    cards = serializers.CharField(
        max_length=MAX_CARD_TEXT,
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
    calls = serializers.IntegerField(
        min_value=0, max_value=MAX_COUNT, required=False, allow_null=True
    )
    failed_come_downs = serializers.IntegerField(min_value=0, max_value=MAX_COUNT, default=0)
    overcall_penalty = serializers.BooleanField(default=False)


class GameInput(RulesInput):
    game = GameNumberField()
    down_and_out = serializers.BooleanField(default=False)
    void = serializers.BooleanField(default=False)
    hands = HandInput(many=True, min_length=1, max_length=10)
    ruleset = RulesetField()

    def to_entry(self) -> GameEntry:
        data = self.validated_data
        hands = tuple(HandEntry(**hand) for hand in data["hands"])
        return GameEntry(data["game"], hands, data["down_and_out"], data["void"])


class ScoreOutput(serializers.Serializer):
    player = serializers.CharField()
    went_out = serializers.BooleanField()
    card_points = serializers.IntegerField()
    doubled = serializers.BooleanField()
    doubled_points = serializers.IntegerField()
    penalties = serializers.IntegerField()
    total = serializers.IntegerField()
    reasons = serializers.ListField(child=serializers.CharField())


class GameOutput(serializers.Serializer):
    scores = ScoreOutput(many=True)
    warnings = ProblemSerializer(many=True)


class ErrorsOutput(serializers.Serializer):
    errors = ProblemSerializer(many=True)
    warnings = ProblemSerializer(many=True, required=False)
