"""Forms of the director's Rule check page; they feed the same engine calls as the rules API."""

from typing import Any

from django import forms

from scoring.rules import ASAJ_2025, FOUR, THREE, GameEntry, HandEntry
from scoring.serializers import MAX_CARD_TEXT, cards_problem

GAME_CHOICES = [
    (spec.number, f"Game {spec.number}: {spec.dealt} cards, {spec.describe()}")
    for spec in ASAJ_2025.games
]
MAX_ROWS = ASAJ_2025.max_table_size


def _clean_cards(text: str) -> str:
    problem = cards_problem(text)
    if problem:
        raise forms.ValidationError(problem)
    return text


class MeldForm(forms.Form):
    cards = forms.CharField(max_length=MAX_CARD_TEXT, help_text="e.g. 5H JK 7H JK")
    kind = forms.ChoiceField(
        choices=[("", "Three or four"), (THREE, "Three"), (FOUR, "Four")], required=False
    )
    as_laid = forms.BooleanField(required=False, label="In the order laid")

    def clean_cards(self) -> str:
        return _clean_cards(self.cleaned_data["cards"])


class ContractForm(forms.Form):
    game = forms.TypedChoiceField(choices=GAME_CHOICES, coerce=int)
    groups = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=MAX_CARD_TEXT * 4,
        help_text="One meld per line, e.g. 5H 5C 5D",
    )

    def clean_groups(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["groups"].splitlines() if line.strip()]
        for line in lines:
            _clean_cards(line)
        return lines


class HandForm(forms.Form):
    player = forms.CharField(max_length=120, required=False)
    went_out = forms.BooleanField(required=False)
    cards = forms.CharField(max_length=MAX_CARD_TEXT, required=False)
    points = forms.IntegerField(required=False, min_value=0, max_value=100_000)
    calls = forms.IntegerField(required=False, min_value=0, max_value=50)
    failed_come_downs = forms.IntegerField(required=False, min_value=0, max_value=50)
    overcall_penalty = forms.BooleanField(required=False)

    def to_hand(self) -> HandEntry | None:
        """The row as the engine's hand entry; None for a row left blank."""
        data: dict[str, Any] = self.cleaned_data
        if not data.get("player"):
            return None
        return HandEntry(
            player=data["player"],
            went_out=data["went_out"],
            cards=data["cards"] if data["cards"] or data["went_out"] else None,
            points=data["points"],
            calls=data["calls"],
            failed_come_downs=data["failed_come_downs"] or 0,
            overcall_penalty=data["overcall_penalty"],
        )


HandFormSet = forms.formset_factory(HandForm, extra=ASAJ_2025.table_size, max_num=MAX_ROWS)


class GameForm(forms.Form):
    game = forms.TypedChoiceField(choices=GAME_CHOICES, coerce=int)
    down_and_out = forms.BooleanField(required=False, label="Down and out (R8.3)")
    void = forms.BooleanField(required=False, label="Void game (R9.2)")

    def to_entry(self, hands: HandFormSet) -> GameEntry:
        rows = [form.to_hand() for form in hands.forms]
        data = self.cleaned_data
        return GameEntry(
            data["game"], tuple(r for r in rows if r), data["down_and_out"], data["void"]
        )
