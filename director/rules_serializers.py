"""Request and response shapes of the rules API (``/api/rules/...``) and of ``GET /api/games``.

A **check** is one of the game's dispute tools (``meld``, ``contract``, ``tack-on``: Kalooki's,
``Rules.check``) or the **game check** (one game's entry checked and scored, ``Rules.evaluate``).
Every check takes an optional **ruleset**, the same request a tournament takes (``{"preset":
NAME, SETTING: VALUE, ...}`` or a preset's name), and runs under ASAJ 2025 without one.

These serializers check types and sizes only, for the schema and for a clear 400; what is legal
is the game's to say, and every answer cites its rule. An answer is ``{"valid", "errors": [{"rule",
"message"}], ...}`` with the tool's own detail beside them.
"""

from typing import Any

from rest_framework import serializers

from config.api import Input
from tournament.serializers import RulesetRequestField

MAX_CARD_TEXT = 400  # more than any hand: 16 dealt + 2 × many calls, written out in full
MAX_COUNT = 20  # calls or failed come-downs in one game (the engine's own limit)
MAX_POINTS = 100_000
MOST_GROUPS = 12
MOST_HANDS = 10
KINDS = ["three", "four"]
ENDS = ["low", "high"]


def _cards(help_text: str, **kwargs: Any) -> serializers.CharField:
    return serializers.CharField(max_length=MAX_CARD_TEXT, help_text=help_text, **kwargs)


class RulesInput(Input):
    ruleset = RulesetRequestField(
        required=False, help_text="The rules to check under; ASAJ 2025 when left out."
    )


class RuleProblemOutput(serializers.Serializer):
    rule = serializers.CharField(allow_null=True, help_text="The rule it cites, like R3.5.")
    message = serializers.CharField()
    field = serializers.CharField(
        required=False, allow_null=True, help_text="The request's field at fault."
    )
    player = serializers.CharField(allow_null=True, required=False)


class RuleErrorsOutput(serializers.Serializer):
    errors = RuleProblemOutput(many=True)
    warnings = RuleProblemOutput(many=True, required=False)


class CheckAnswerOutput(serializers.Serializer):
    valid = serializers.BooleanField()
    errors = RuleProblemOutput(many=True, help_text="Why not, each citing its rule; [] when valid.")


# --- meld, contract ------------------------------------------------------------------------------


class MeldCheckInput(RulesInput):
    cards = _cards("The meld's cards in R11 notation, as laid: 5H JK 7H 8H.")
    kind = serializers.ChoiceField(choices=KINDS, required=False, allow_null=True)
    as_laid = serializers.BooleanField(
        required=False,
        help_text="Check a four in the order laid (the default), or look for its best order.",
    )


class MeldCheckOutput(CheckAnswerOutput):
    kind = serializers.ChoiceField(choices=KINDS, allow_null=True)
    arrangement = serializers.ListField(child=serializers.CharField())


class ContractCheckInput(RulesInput):
    game = serializers.IntegerField(help_text="The game's number in the set (R4).")
    groups = serializers.ListField(
        child=_cards("One meld's cards."), min_length=1, max_length=MOST_GROUPS
    )
    as_laid = serializers.BooleanField(required=False, help_text="Each four in the order laid.")


class ContractCheckOutput(CheckAnswerOutput):
    game = serializers.IntegerField()
    contract = serializers.CharField(help_text="The game's contract in words.")
    melds = serializers.ListField(child=serializers.DictField(), help_text="Each group's check.")


# --- tack-on and the joker move ----------------------------------------------------------------


class TackOnCheckInput(RulesInput):
    card = _cards("The card tacked on, or the real card that replaces a joker (R7.3).")
    meld = _cards("The meld on the table, as laid (a four low to high).")
    kind = serializers.ChoiceField(choices=KINDS, required=False, allow_null=True)
    end = serializers.ChoiceField(
        choices=ENDS,
        required=False,
        allow_null=True,
        help_text="Where on a four: its low or high end. For a joker move under the joker "
        "exchange (R13.6), where the joker goes in another player's four.",
    )
    has_come_down = serializers.BooleanField(
        required=False, help_text="Only a player who has laid their contract tacks on (R7.1)."
    )
    replaces_joker = serializers.BooleanField(
        required=False, help_text="The card takes a joker's place in a four (R7.3)."
    )
    own_meld = serializers.BooleanField(
        required=False,
        help_text="Under the joker exchange (R13.6): the four is the player's own, so the joker "
        "goes into their hand.",
    )


class TackOnCheckOutput(CheckAnswerOutput):
    meld_after = serializers.ListField(child=serializers.CharField(), required=False)
    kind = serializers.ChoiceField(choices=KINDS, allow_null=True, required=False)
    end = serializers.ChoiceField(choices=ENDS, allow_null=True, required=False)
    joker_from = serializers.IntegerField(allow_null=True, required=False)
    joker_to = serializers.IntegerField(allow_null=True, required=False)
    to_hand = serializers.BooleanField(required=False)


# --- the game check ------------------------------------------------------------------------------


class GameCheckHandInput(Input):
    player = serializers.CharField(max_length=120)
    went_out = serializers.BooleanField(default=False)
    cards = serializers.CharField(
        max_length=MAX_CARD_TEXT,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="Cards left in hand (R11). Give cards or points, not both.",
    )
    points = serializers.IntegerField(
        min_value=-MAX_POINTS,
        max_value=MAX_POINTS,
        required=False,
        allow_null=True,
        help_text="Card points before doubling, when the cards were not written down.",
    )
    calls = serializers.IntegerField(
        min_value=0, max_value=MAX_COUNT, required=False, allow_null=True
    )
    failed_come_downs = serializers.IntegerField(min_value=0, max_value=MAX_COUNT, default=0)
    overcall_penalty = serializers.BooleanField(default=False)
    challenge = serializers.ChoiceField(
        choices=["challenged", "challenger"],
        required=False,
        allow_null=True,
        help_text="Under the 18-card challenge (R13.9): who lost it, the player challenged "
        "(held more than the limit) or the challenger (the other did not).",
    )


class GameCheckInput(RulesInput):
    game = serializers.IntegerField(help_text="The game's number in the set (R4).")
    down_and_out = serializers.BooleanField(default=False)
    void = serializers.BooleanField(default=False)
    hands = GameCheckHandInput(
        many=True,
        min_length=1,
        max_length=MOST_HANDS,
        help_text="One hand a player, each named by its player (R10: one hand each).",
    )

    def validate_hands(self, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        repeated = repeated_players([hand["player"] for hand in hands])
        if repeated:
            errors: list[dict[str, Any]] = [{} for _ in hands]
            for index, first in repeated.items():
                errors[index] = {
                    "player": [one_hand_each(hands[first]["player"], f"hands.{first}")]
                }
            raise serializers.ValidationError(errors)
        return hands


def repeated_players(names: list[str]) -> dict[int, int]:
    """The hands whose player already has one, by index, each with the index of that first
    hand; names compared as people read them (spaces and capitals aside)."""
    first: dict[str, int] = {}
    repeated = {}
    for index, name in enumerate(names):
        key = " ".join(name.split()).casefold()
        if key and key in first:
            repeated[index] = first[key]
        first.setdefault(key, index)
    return repeated


def one_hand_each(player: str, first: str) -> str:
    return f"{player.strip()} already has a hand ({first}): a player has one hand in a game (R10)."


class GameCheckScoreOutput(serializers.Serializer):
    player = serializers.CharField()
    went_out = serializers.BooleanField()
    card_points = serializers.IntegerField()
    doubled = serializers.BooleanField()
    doubled_points = serializers.IntegerField()
    penalties = serializers.IntegerField()
    total = serializers.IntegerField()
    reasons = serializers.ListField(child=serializers.CharField())


class GameCheckOutput(serializers.Serializer):
    valid = serializers.BooleanField()
    scores = GameCheckScoreOutput(many=True)
    warnings = RuleProblemOutput(many=True)


# --- the games -----------------------------------------------------------------------------------


class GameSettingOutput(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    schema = serializers.DictField(help_text="The allowed values, as a JSON Schema fragment.")
    help = serializers.CharField()
    rule = serializers.CharField()


class GameDescriptionOutput(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    higher_wins = serializers.BooleanField()
    default_preset = serializers.CharField()
    presets = serializers.DictField(
        child=serializers.DictField(), help_text="Each preset's whole ruleset, by name."
    )
    settings = GameSettingOutput(many=True)
