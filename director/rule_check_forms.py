"""Forms of the Rule check page: which rules to check under, and one form per check.

The **rules** are a preset of Kalooki or one of the director's own Kalooki tournaments (its stored
ruleset, house rules and all): ``"preset:club-four"`` or ``"tournament:spring-open"``. Each check
form turns what was typed into the request the game's tool reads (the same as the rules API's),
so the page and the API give the same answers; the forms check types and sizes only.
"""

from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import games
from director.rules_serializers import (
    MAX_CARD_TEXT,
    MAX_COUNT,
    MAX_POINTS,
    one_hand_each,
    repeated_players,
)
from games.base import DealEntry, Rules, SideEntry
from tournament.permissions import directed_tournaments

GAME = "kalooki"  # the game whose dispute tools the page runs
DEFAULT_RULES = "preset:asaj-2025"
KIND_CHOICES = [
    ("", gettext_lazy("Three or four")),
    ("three", gettext_lazy("Three")),
    ("four", gettext_lazy("Four")),
]
CHALLENGE_CHOICES = [
    ("", gettext_lazy("No challenge lost")),
    ("challenged", gettext_lazy("Challenged: held more")),
    ("challenger", gettext_lazy("Challenged wrongly")),
]


def rules_choices(user: AbstractBaseUser | AnonymousUser) -> list[tuple[str, Any]]:
    """Kalooki's presets, then the Kalooki tournaments this user directs."""
    game = games.get(GAME)
    presets = [
        (f"preset:{key}", f"{game.dump(ruleset)['name']} (preset)")
        for key, ruleset in game.presets().items()
    ]
    mine = directed_tournaments(user).filter(game=GAME).order_by("-starts_on", "name")
    tournaments = [(f"tournament:{t.slug}", f"{t.name}: its rules") for t in mine]
    return [(_("Presets"), presets), *([(_("My tournaments"), tournaments)] if tournaments else [])]


class RulesForm(forms.Form):
    rules = forms.ChoiceField(label=gettext_lazy("Check under"), initial=DEFAULT_RULES)

    def __init__(self, *args: Any, user: AbstractBaseUser | AnonymousUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["rules"].choices = rules_choices(user)

    def chosen(self) -> Rules[Any]:
        """The rules picked; ASAJ 2025 when the choice is not valid."""
        value = self.cleaned_data["rules"] if self.is_valid() else DEFAULT_RULES
        kind, _, name = value.partition(":")
        game = games.get(GAME)
        if kind == "tournament":
            tournament = directed_tournaments(self.user).get(slug=name, game=GAME)
            return tournament.rules()
        return game.rules(game.ruleset({"preset": name}))

    @property
    def value(self) -> str:
        return self.cleaned_data["rules"] if self.is_valid() else DEFAULT_RULES


class CheckForm(forms.Form):
    """A check's form; ``request()`` is what the game's tool reads. The page holds every check,
    so each form's ids start with its own name (two have a "kind", two a "game")."""

    check = "check"

    def __init__(self, *args: Any, rules: Rules[Any], **kwargs: Any) -> None:
        super().__init__(*args, auto_id=f"{self.check}-%s", **kwargs)
        self.rules = rules


class MeldForm(CheckForm):
    check = "meld"
    cards = forms.CharField(max_length=MAX_CARD_TEXT, help_text=gettext_lazy("e.g. 5H JK 7H JK"))
    kind = forms.ChoiceField(choices=KIND_CHOICES, required=False)
    as_laid = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("In the order laid (untick to find the best order)"),
    )

    def request(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"cards": data["cards"], "kind": data["kind"] or None, "as_laid": data["as_laid"]}


def game_choices(rules: Rules[Any]) -> list[tuple[int, str]]:
    count = rules.schedule().deals or 0
    specs = [rules.deal(number) for number in range(1, count + 1)]
    return [(spec.number, f"{spec.title}: {spec.summary}") for spec in specs]


class ContractForm(CheckForm):
    check = "contract"
    game = forms.TypedChoiceField(coerce=int)
    groups = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=MAX_CARD_TEXT * 4,
        help_text=gettext_lazy("One meld per line, e.g. 5H 5C 5D"),
    )

    def __init__(self, *args: Any, rules: Rules[Any], **kwargs: Any) -> None:
        super().__init__(*args, rules=rules, **kwargs)
        self.fields["game"].choices = game_choices(rules)

    def request(self) -> dict[str, Any]:
        lines = [line.strip() for line in self.cleaned_data["groups"].splitlines()]
        return {"game": self.cleaned_data["game"], "groups": [line for line in lines if line]}


class TackOnForm(CheckForm):
    check = "tack-on"
    card = forms.CharField(
        max_length=MAX_CARD_TEXT,
        label=gettext_lazy("The card"),
        help_text=gettext_lazy("e.g. 7H, or the real card for a joker"),
    )
    meld = forms.CharField(
        max_length=MAX_CARD_TEXT,
        label=gettext_lazy("Onto the meld"),
        help_text=gettext_lazy("As laid, e.g. 4H 5H 6H"),
    )
    kind = forms.ChoiceField(
        choices=KIND_CHOICES, required=False, label=gettext_lazy("The meld is a")
    )
    end = forms.ChoiceField(
        choices=[
            ("", gettext_lazy("Either end")),
            ("low", gettext_lazy("Low end")),
            ("high", gettext_lazy("High end")),
        ],
        required=False,
        label=gettext_lazy("At the end"),
    )
    replaces_joker = forms.BooleanField(
        required=False, label=gettext_lazy("The card takes a joker's place in the four (R7.3)")
    )
    own_meld = forms.BooleanField(
        required=False,
        label=gettext_lazy("It is the player's own four: the joker goes to the hand (R13.6)"),
    )
    has_come_down = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("The player has laid their contract (R7.1)"),
    )

    def __init__(self, *args: Any, rules: Rules[Any], **kwargs: Any) -> None:
        super().__init__(*args, rules=rules, **kwargs)
        if not getattr(rules.ruleset, "joker_exchange", False):
            del self.fields["own_meld"]  # no joker exchange: a joker never goes to a hand

    def request(self) -> dict[str, Any]:
        data = self.cleaned_data
        asked = {
            "card": data["card"].strip(),
            "meld": data["meld"],
            "kind": data["kind"] or None,
            "end": data["end"] or None,
            "has_come_down": data["has_come_down"],
            "replaces_joker": data["replaces_joker"],
        }
        if "own_meld" in self.fields:
            asked["own_meld"] = data["own_meld"]
        return asked


class HandForm(forms.Form):
    player = forms.CharField(max_length=120, required=False)
    went_out = forms.BooleanField(required=False)
    cards = forms.CharField(max_length=MAX_CARD_TEXT, required=False)
    points = forms.IntegerField(required=False, min_value=0, max_value=MAX_POINTS)
    calls = forms.IntegerField(required=False, min_value=0, max_value=MAX_COUNT)
    failed_come_downs = forms.IntegerField(required=False, min_value=0, max_value=MAX_COUNT)
    overcall_penalty = forms.BooleanField(required=False)
    challenge = forms.ChoiceField(choices=CHALLENGE_CHOICES, required=False)

    def side(self, challenge: bool) -> SideEntry | None:
        """The row as one side of the entry; None for a row left blank."""
        data: dict[str, Any] = self.cleaned_data
        if not data.get("player"):
            return None
        values = {
            name: data[name]
            for name in ("calls", "points", "failed_come_downs")
            if data.get(name) is not None
        }
        values |= {"went_out": data["went_out"], "overcall_penalty": data["overcall_penalty"]}
        if data["cards"] or data["went_out"]:
            values["cards"] = data["cards"]
        if challenge and data["challenge"]:
            values["challenge"] = data["challenge"]
        return SideEntry(label=data["player"], values=values)


HAND_COLUMNS = {
    "player": gettext_lazy("Player"),
    "went_out": gettext_lazy("Went out"),
    "cards": gettext_lazy("Cards left"),
    "points": gettext_lazy("or points"),
    "calls": gettext_lazy("Calls"),
    "failed_come_downs": gettext_lazy("Failed come-downs"),
    "overcall_penalty": gettext_lazy("Overcall"),
    "challenge": gettext_lazy("Lost the challenge"),
}


class BaseHandFormSet(forms.BaseFormSet):
    """The rows of the game check, one a player; each input named for its column and row, as
    the table's headings show them."""

    def __init__(self, *args: Any, rules: Rules[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.challenge = bool(getattr(rules.ruleset, "card_challenge", False))
        for row, form in enumerate(self.forms, start=1):
            if not self.challenge:
                del form.fields["challenge"]
            for name, field in form.fields.items():
                field.widget.attrs["aria-label"] = f"{HAND_COLUMNS[name]}, row {row}"

    def clean(self) -> None:
        """A player has one hand in a game (R10): a row naming a player again is refused."""
        names = [getattr(form, "cleaned_data", {}).get("player") or "" for form in self.forms]
        for index, first in repeated_players(names).items():
            message = one_hand_each(names[first], f"row {first + 1}")
            self.forms[index].add_error("player", message)


def hand_formset(rules: Rules[Any]) -> type[BaseHandFormSet]:
    """One row per seat of the largest table the rules allow."""
    shape = rules.shape()
    return forms.formset_factory(
        HandForm, formset=BaseHandFormSet, extra=shape.max_sides, max_num=shape.max_sides
    )


class GameForm(CheckForm):
    check = "game"
    game = forms.TypedChoiceField(coerce=int)
    down_and_out = forms.BooleanField(required=False, label=gettext_lazy("Down and out (R8.3)"))
    void = forms.BooleanField(required=False, label=gettext_lazy("Void game (R9.2)"))

    def __init__(self, *args: Any, rules: Rules[Any], **kwargs: Any) -> None:
        super().__init__(*args, rules=rules, **kwargs)
        self.fields["game"].choices = game_choices(rules)

    def entry(self, hands: BaseHandFormSet) -> DealEntry:
        sides = [form.side(hands.challenge) for form in hands.forms]
        values = {
            "down_and_out": self.cleaned_data["down_and_out"],
            "void": self.cleaned_data["void"],
        }
        return DealEntry(self.cleaned_data["game"], tuple(s for s in sides if s), values)
