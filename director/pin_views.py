"""The director's pinned seats, on the round page: a player who cannot move (a wheelchair space,
a walking frame) keeps a chosen table, and perhaps a seat, all event (`tables.services.pin_seat`).

Each action is a POST that calls one service and returns to the round page with a message: what
was done, or why it was refused, with nothing changed.
"""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tables.models import MAX_SEATS
from tables.seating import Pin
from tables.selectors import pin_lines
from tables.services import SeatingError, pin_remove, pin_seat
from tournament.models import Entry, Round, Tournament
from tournament.permissions import tournament_for_director


class PinForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("Player"))
    table = forms.IntegerField(min_value=1, max_value=999, label=gettext_lazy("Table"))
    position = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_SEATS,
        label=gettext_lazy("Seat"),
        help_text=gettext_lazy("Blank: any seat at that table."),
    )
    reason = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Why"),
        help_text=gettext_lazy("A wheelchair space, a walking frame."),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.active().select_related("player").order_by("player__name")
        self.fields["entry"].queryset = entries
        self.fields["entry"].label_from_instance = lambda entry: entry.name


def pins_context(tournament: Tournament) -> dict[str, Any]:
    """What the round page shows of the pinned seats: the pins and the form that adds one."""
    return {"pins": pin_lines(tournament), "pin_form": PinForm(tournament=tournament)}


def _back(tournament: Tournament, number: int) -> HttpResponse:
    return redirect(reverse("director:round", args=[tournament.slug, number]) + "#pinned-seats")


@login_required
@require_POST
def pin_add_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_for_director(request.user, slug)
    get_object_or_404(Round, tournament=tournament, number=number)
    form = PinForm(request.POST, tournament=tournament)
    if not form.is_valid():
        errors = " ".join(str(e) for field in form.errors.values() for e in field)
        messages.error(request, _("Nothing was pinned: {why}").format(why=errors))
        return _back(tournament, number)
    data = form.cleaned_data
    try:
        pin = pin_seat(
            tournament=tournament,
            entry=data["entry"],
            table=data["table"],
            position=data["position"],
            reason=data["reason"],
            by=request.user,
        )
    except SeatingError as error:
        messages.error(request, _("Nothing was pinned: {why}").format(why=error))
    else:
        place = Pin(pin.table, pin.position).words()
        kept = _("{name} keeps {place} from the next seating on.")
        messages.success(request, kept.format(name=data["entry"].name, place=place))
    return _back(tournament, number)


@login_required
@require_POST
def pin_remove_view(request: HttpRequest, slug: str, number: int, entry_id: int) -> HttpResponse:
    tournament = tournament_for_director(request.user, slug)
    get_object_or_404(Round, tournament=tournament, number=number)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, pk=entry_id
    )
    try:
        pin_remove(tournament=tournament, entry=entry, by=request.user)
    except SeatingError as error:
        messages.error(request, str(error))
    else:
        moves = _("{name} may move again from the next seating on.")
        messages.success(request, moves.format(name=entry.name))
    return _back(tournament, number)
