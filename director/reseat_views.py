"""The director's "Re-seat this table" form on the table page (R12.4): the seats as they
should be, and for each deal already played, keep it or replay it. It calls the same service as
`POST /api/.../tables/<t>/reseat` (`scoring.reseat.table_reseat`); a refusal comes back on the
table page with its reason and nothing changed."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from director.control_views import table_for_director, table_render, table_url
from director.reseat_forms import reseat_form
from scoring.reseat import table_reseat
from scoring.rulings import RulingError
from scoring.score_sheet import TablePage


def _cited(page: TablePage) -> str:
    """The game's rule for a director's ruling, in brackets: R12.4 for Kalooki, none where the
    game numbers none (a page never cites another game's rule)."""
    rule = page.rules.cites("ruling")
    return f" ({rule})" if rule else ""


@login_required
@require_POST
def table_reseat_view(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Re-seat the table and keep or replay each deal played; back to the table page with
    what was done, or the reason it was refused (nothing changed)."""
    page = table_for_director(request, slug, number, table)
    form = reseat_form(page, request.POST)
    if form is None:
        unchanged = _("Nothing was changed: this table's seats no longer change{rule}.")
        messages.error(request, unchanged.format(rule=_cited(page)))
        return HttpResponseRedirect(table_url(page))
    if not form.is_valid():
        unchanged = _(
            "Nothing was changed: choose a player per seat, keep or replay each deal played, "
            "and say what was decided{rule}."
        )
        messages.error(request, unchanged.format(rule=_cited(page)))
        return table_render(request, page, reseat=form)
    data = form.cleaned_data
    try:
        ruling = table_reseat(
            table=page.table, seats=form.seats(), games=form.games(),
            decision=data["decision"], reason=data["reason"], by=request.user,
        )  # fmt: skip
    except RulingError as error:
        messages.error(request, _("Nothing was changed: {why}").format(why=error))
        return table_render(request, page, reseat=form)
    games = form.games()
    kept = sorted(n for n, fate in games.items() if fate == "keep")
    replayed = sorted(n for n, fate in games.items() if fate == "replay")
    messages.success(
        request,
        _(
            "{table} is re-seated (ruling {ruling}). Kept as played: {kept}. "
            "To be replayed: {replayed}."
        ).format(
            table=page.table, ruling=ruling.pk, kept=_numbers(kept), replayed=_numbers(replayed)
        ),
    )
    return HttpResponseRedirect(table_url(page))


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers) or _("none")
