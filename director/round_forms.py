"""Forms of the director's pages: the Rule check (the same engine calls as the rules API), the
round page (actions, seat edits) and the rulings page."""

from typing import Any

from django import forms
from django.db.models import QuerySet

from games.kalooki import ASAJ_2025, FOUR, THREE, GameEntry, HandEntry
from scoring.matches import deal_noun, deal_title
from scoring.models import Ruling
from scoring.serializers import MAX_CARD_TEXT, cards_problem
from tables.models import Table
from tournament.models import Entry, Round, Tournament

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


# --- the director's round page and rulings -----------------------------------------------------


class ConfirmForm(forms.Form):
    """The second step of every round action: a box the director ticks to say "yes"."""

    confirm = forms.BooleanField(required=True)


class SeatForm(forms.Form):
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Blank: a new random seed. The same seed gives the same tables.",
    )
    confirm = forms.BooleanField(required=False)


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, entry: Entry) -> str:
        return str(entry.player)


class TableChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, table: Table) -> str:
        return f"Round {table.round.number}, table {table.number}"


def _seated(round: Round) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(seats__round=round)
        .select_related("player")
        .order_by("player__name", "pk")
    )


class SwapForm(forms.Form):
    entry_a = EntryChoiceField(queryset=Entry.objects.none(), label="Player")
    entry_b = EntryChoiceField(queryset=Entry.objects.none(), label="swaps seats with")

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry_a"].queryset = self.fields["entry_b"].queryset = _seated(round)


class MoveForm(forms.Form):
    entry = EntryChoiceField(queryset=Entry.objects.none(), label="Player")
    table = forms.ModelChoiceField(queryset=Table.objects.none(), label="moves to")
    position = forms.IntegerField(
        required=False, min_value=1, max_value=6, help_text="Seat number; blank: the last seat."
    )

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = _seated(round)
        self.fields["table"].queryset = round.tables.order_by("number")


class SeatRulingForm(MoveForm):
    """A seat change after publishing: a swap or a move, recorded as a ruling (R12.4)."""

    swap_with = EntryChoiceField(queryset=Entry.objects.none(), required=False)
    decision = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    field_order = ["entry", "swap_with", "table", "position", "decision", "reason"]

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, round=round, **kwargs)
        self.fields["swap_with"].queryset = _seated(round)
        self.fields["table"].required = False
        self.fields["table"].label = "or moves to"


RULING_KINDS = [(k, label) for k, label in Ruling.Kind.choices if k != Ruling.Kind.SEATING_CHANGE]


class RulingForm(forms.Form):
    kind = forms.ChoiceField(choices=RULING_KINDS)
    entry = EntryChoiceField(queryset=Entry.objects.none(), required=False, label="Player")
    table = TableChoiceField(queryset=Table.objects.none(), required=False)
    game = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label="Deal",
        help_text="The deal's number at that table.",
    )
    points = forms.IntegerField(
        initial=0,
        min_value=-10_000,
        max_value=10_000,
        help_text="Penalty points or a score correction only; added to the player's score.",
    )
    decision = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = tournament.entries.select_related("player").order_by(
            "player__name", "pk"
        )
        self.fields["table"].queryset = (
            Table.objects.filter(round__tournament=tournament)
            .exclude(round__status=Round.Status.DRAFT)
            .select_related("round")
            .order_by("round__number", "number")
        )
        noun = deal_noun(tournament.rules())  # the game's word: game, hand, deal
        self.fields["game"].label = noun.capitalize()
        self.fields["game"].help_text = f"The {noun}'s number at that table."

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        number, table = data.get("game"), data.get("table")
        if number is None:
            return data
        if table is None:
            self.add_error("table", "Choose the table the deal was played at.")
            return data
        data["game"] = table.deals.filter(number=number).order_by("-attempt").first()
        if data["game"] is None:
            title = deal_title(table.round.tournament.rules(), number)
            self.add_error(
                "game",
                f"{title} at table {table.number} has no result yet: record the ruling "
                "against the table and name the deal in the decision.",
            )
        return data


class ReverseForm(forms.Form):
    reason = forms.CharField(max_length=2000, label="Why is it reversed?")


class ReinstateForm(forms.Form):
    """Why a disqualified player is reinstated: their disqualification's ruling is reversed with
    this reason (R12.4). A withdrawn player needs none, so the form then asks nothing."""

    reason = forms.CharField(
        max_length=2000,
        label="Why is the disqualification lifted?",
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, disqualified: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not disqualified:
            del self.fields["reason"]
