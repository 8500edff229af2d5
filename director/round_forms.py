"""Forms of the director's round page (actions, seat edits) and the rulings page; the Rule
check's are in `rule_check_forms`."""

from typing import Any

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.matches import deal_noun, deal_title
from scoring.models import Ruling
from tables.models import Table
from tables.seating import DIRECTOR_MODES, SeatingMode
from tournament.models import Entry, Round, Tournament

# --- the director's round page and rulings -----------------------------------------------------


class ConfirmForm(forms.Form):
    """The second step of every round action: a box the director ticks to say "yes"."""

    confirm = forms.BooleanField(required=True)


class SeatForm(forms.Form):
    mode = forms.ChoiceField(
        choices=[(mode.value, mode.words) for mode in DIRECTOR_MODES],
        initial=SeatingMode.AVOID_REPEATS.value,
        required=False,
        widget=forms.RadioSelect,
        label=gettext_lazy("Seat by"),
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=gettext_lazy("Blank: a new random seed. The same seed gives the same tables."),
    )
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args: Any, rated: bool = False, **kwargs: Any) -> None:
        """`rated`: the players have ratings (their club's, in the game), so seating by rating
        is offered; until then it would be an option that cannot work."""
        super().__init__(*args, **kwargs)
        modes = SeatingMode if rated else DIRECTOR_MODES
        self.fields["mode"].choices = [(mode.value, mode.words) for mode in modes]


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, entry: Entry) -> str:
        return entry.name if entry.is_team else str(entry.player)  # a team by its name (HF1.2)


class TableChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, table: Table) -> str:
        return _("Round {round}, table {table}").format(
            round=table.round.number, table=table.number
        )


def _seated(round: Round, byes: bool = False) -> QuerySet[Entry]:
    """The players seated in `round`, and with `byes` those sitting it out."""
    placed = Q(seats__round=round) | Q(byes__round=round) if byes else Q(seats__round=round)
    return (
        Entry.objects.filter(placed)
        .distinct()
        .select_related("player")
        .order_by("player__name", "pk")
    )


class SwapForm(forms.Form):
    entry_a = EntryChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("Player"))
    entry_b = EntryChoiceField(
        queryset=Entry.objects.none(), label=gettext_lazy("swaps seats with")
    )

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry_a"].queryset = self.fields["entry_b"].queryset = _seated(round, True)


class MoveForm(forms.Form):
    entry = EntryChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("Player"))
    table = forms.ModelChoiceField(queryset=Table.objects.none(), label=gettext_lazy("moves to"))
    position = forms.IntegerField(
        label=gettext_lazy("Position"),
        required=False,
        min_value=1,
        max_value=6,
        help_text=gettext_lazy("Seat number; blank: the last seat."),
    )

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = _seated(round)
        self.fields["table"].queryset = round.tables.order_by("number")


class SeatRulingForm(MoveForm):
    """A seat change after publishing: a swap or a move, recorded as a ruling (R12.4)."""

    swap_with = EntryChoiceField(
        queryset=Entry.objects.none(), required=False, label=gettext_lazy("Swap with")
    )
    decision = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=2000, label=gettext_lazy("Decision")
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label=gettext_lazy("Reason")
    )

    field_order = ["entry", "swap_with", "table", "position", "decision", "reason"]

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, round=round, **kwargs)
        self.fields["swap_with"].queryset = _seated(round)
        self.fields["table"].required = False
        self.fields["table"].label = gettext_lazy("or moves to")


RULING_KINDS = [(k, label) for k, label in Ruling.Kind.choices if k != Ruling.Kind.SEATING_CHANGE]


class RulingForm(forms.Form):
    kind = forms.ChoiceField(choices=RULING_KINDS, label=gettext_lazy("Kind"))
    entry = EntryChoiceField(
        queryset=Entry.objects.none(), required=False, label=gettext_lazy("Player")
    )
    table = TableChoiceField(
        queryset=Table.objects.none(), required=False, label=gettext_lazy("Table")
    )
    game = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label=gettext_lazy("Deal"),
        help_text=gettext_lazy("The deal's number at that table."),
    )
    points = forms.IntegerField(
        label=gettext_lazy("Points"),
        initial=0,
        min_value=-10_000,
        max_value=10_000,
        help_text=gettext_lazy(
            "Penalty points or a score correction only; added to the player's score."
        ),
    )
    decision = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=2000, label=gettext_lazy("Decision")
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label=gettext_lazy("Reason")
    )

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
        self.fields["game"].help_text = _("The {deal}'s number at that table.").format(deal=noun)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        number, table = data.get("game"), data.get("table")
        if number is None:
            return data
        if table is None:
            self.add_error("table", _("Choose the table the deal was played at."))
            return data
        data["game"] = table.deals.filter(number=number).order_by("-attempt").first()
        if data["game"] is None:
            title = deal_title(table.round.tournament.rules(), number)
            self.add_error(
                "game",
                _(
                    "{title} at table {table} has no result yet: record the ruling "
                    "against the table and name the deal in the decision."
                ).format(title=title, table=table.number),
            )
        return data


class ReverseForm(forms.Form):
    reason = forms.CharField(max_length=2000, label=gettext_lazy("Why is it reversed?"))


class ReinstateForm(forms.Form):
    """Why a disqualified player is reinstated: their disqualification's ruling is reversed with
    this reason (R12.4). A withdrawn player needs none, so the form then asks nothing."""

    reason = forms.CharField(
        max_length=2000,
        label=gettext_lazy("Why is the disqualification lifted?"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, disqualified: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not disqualified:
            del self.fields["reason"]
