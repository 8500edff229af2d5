"""The "Re-seat this table" form of the director's table page (R12.4): a select per seat,
prefilled with today's seats, and keep or replay for each deal already played."""

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.score_sheet import TablePage

FATE_CHOICES = [("keep", gettext_lazy("Keep it as played")), ("replay", gettext_lazy("Replay it"))]


class ReseatForm(forms.Form):
    """A select per seat (the table's players) and a keep/replay choice per deal played."""

    decision = forms.CharField(max_length=2000, label=gettext_lazy("What was decided"))
    reason = forms.CharField(max_length=2000, required=False, label=gettext_lazy("Why (optional)"))

    def __init__(self, data: Any, *, page: TablePage) -> None:
        super().__init__(data, prefix="reseat")
        players = [(str(seat.entry_id), seat.name) for seat in page.seats]
        for seat in page.seats:
            self.fields[f"seat_{seat.position}"] = forms.TypedChoiceField(
                choices=players, coerce=int, initial=str(seat.entry_id),
                label=_("Seat {number}").format(number=seat.position),
            )  # fmt: skip
        for result in page.results:
            if not result.is_void:
                self.fields[f"game_{result.number}"] = forms.ChoiceField(
                    choices=FATE_CHOICES, widget=forms.RadioSelect, label=result.title
                )
        self.seat_count = len(page.seats)

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("seat_")]

    def game_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("game_")]

    def seats(self) -> list[int]:
        return [self.cleaned_data[f"seat_{n}"] for n in range(1, self.seat_count + 1)]

    def games(self) -> dict[int, str]:
        return {
            int(name.removeprefix("game_")): fate
            for name, fate in self.cleaned_data.items()
            if name.startswith("game_")
        }


def reseat_form(page: TablePage, data: Any = None) -> ReseatForm | None:
    """The form while the table can be re-seated: its round published or in play, not signed
    off (R12.4); None otherwise."""
    round = page.table.round
    if round.status not in ("published", "in_play") or page.table.is_signed_off():
        return None
    return ReseatForm(data, page=page)
