"""The director's control-room pages: one table of a round, the clocks and the calls.

The director's table page (`/director/<slug>/rounds/<n>/tables/<t>/`) shows the table's games
with every version of each (who, when, what, why), the warnings behind a flag (clear it with a
reason, or correct the result), the pending results to confirm, the form that enters the next
game from the paper score sheet (saved as entered by the director), the link's state (issued
when; reissue it) and the sign-off. Every action is a POST that calls one service and comes back
with a message; only the tournament's directors get past `tournament_for_director` (404).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from director.reseat_forms import reseat_form
from director.round_views import names_a_dealer
from scoring.clock import (
    MAX_MINUTES,
    ClockError,
    clock_extend,
    clock_pause,
    clock_resume,
    clock_start,
    round_clocks,
    round_minutes,
)
from scoring.control import (
    ControlError,
    call_open_get,
    deal_flag_clear,
    director_call_answer,
    reviews_of,
)
from scoring.matches import deal_title
from scoring.models import DirectorCall
from scoring.result_forms import (
    NameField,
    ResultForm,
    correction_initial,
    preview_feedback,
    refusal_feedback,
)
from scoring.result_forms import entry_feedback as feedback_of
from scoring.score_sheet import TablePage, table_page_get
from scoring.services import (
    ResultConflict,
    ResultRefused,
    deal_current,
    result_confirm,
    result_submit,
    table_sign_off,
)
from scoring.time_called import (
    TimeCallError,
    round_time_call,
    table_time_call,
    table_time_uncall,
)
from tables.models import Table
from tournament.models import Round
from tournament.permissions import tournament_for_director

PAPER = "paper score sheet"


class ClockForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(a, a) for a in ("start", "pause", "resume", "extend")], widget=forms.HiddenInput
    )
    minutes = forms.IntegerField(min_value=1, max_value=MAX_MINUTES, required=False)
    reason = forms.CharField(max_length=200, required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=300, strip=True)


class SignOffForm(forms.Form):
    signer = forms.CharField(max_length=80, strip=True)


# --- finding the table --------------------------------------------------------------------------


def _round(request: HttpRequest, slug: str, number: int) -> Round:
    tournament = tournament_for_director(request.user, slug)
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


def table_for_director(request: HttpRequest, slug: str, number: int, table: int) -> TablePage:
    """The table page of round `number`'s table `table`, for a director of the tournament."""
    round = _round(request, slug, number)
    token = get_object_or_404(round.tables, number=table).access_token
    return table_page_get(token=token)


def table_url(page: TablePage, anchor: str = "") -> str:
    """The director's address of the table (at `anchor`)."""
    table = page.table
    url = reverse(
        "director:director-table",
        args=[table.round.tournament.slug, table.round.number, table.number],
    )
    return f"{url}#{anchor}" if anchor else url


def _via(request: HttpRequest, name: str = "") -> str:
    via = f"director {request.user.get_username()} · {PAPER}"
    return f"{via} kept by {name}" if name else via


def _who(page: TablePage, entry_id: int | None) -> str:
    return next((seat.name for seat in page.seats if seat.entry_id == entry_id), "")


# --- the page ----------------------------------------------------------------------------------


@login_required
def director_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The table as its director sees it (GET), and the next game entered from the paper
    score sheet (POST: `action=preview` or `action=save`)."""
    page = table_for_director(request, slug, number, table)
    if request.method == "POST":
        if not page.takes_new_results:
            messages.error(request, _("No new result can be entered at this table now."))
            return HttpResponseRedirect(table_url(page))
        return _entry(
            request, page, _paper_form(page, request.POST), "director/director_table.html"
        )
    form = _paper_form(page, None) if page.takes_new_results else None
    return table_render(request, page, form=form, feedback=feedback_of(form) if form else None)


def _paper_form(page: TablePage, data: Any, **kwargs: Any) -> ResultForm:
    initial = kwargs.pop("initial", None)
    if initial is None and page.current is not None:
        initial = {"game": page.current.line.number, "attempt": page.current.attempt}
    number = kwargs.pop("number", None) or (page.current.line.number if page.current else 1)
    form = ResultForm(
        data,
        rules=page.rules,
        seats=page.seats,
        number=number,
        played=page.played,
        initial=initial,
        **kwargs,
    )
    form.fields["who"] = NameField(
        page.seats, label=_("Score sheet kept by"), required=False, empty_value=None
    )
    return form


def table_render(
    request: HttpRequest, page: TablePage, template: str = "director/director_table.html", **extra
) -> HttpResponse:
    """The director's table page, with its clocks, call, re-seat form and `extra`."""
    table = page.table
    clocks = round_clocks(round_id=table.round_id)
    context = {
        "tournament": table.round.tournament,
        "round": table.round,
        "page": page,
        "games": _games(page),
        "tables": list(table.round.tables.order_by("number").values_list("number", flat=True)),
        "clock": clocks.of(table.pk),
        "round_clock": clocks.round,
        "call": call_open_get(table=table),
        "default_minutes": round_minutes(table.round.tournament.rules()),
        "marks_dealer": names_a_dealer(table.round.tournament),
        "reseat": reseat_form(page),
        "ruling_rule": page.rules.cites("ruling"),  # the game's own number, never Kalooki's
        **extra,
    }
    return render(request, template, context)


def _games(page: TablePage) -> list[tuple[Any, Any]]:
    """Each game with the review of its current version, if a director cleared its flag."""
    reviews = reviews_of(table=page.table)
    return [(result, reviews.get((result.game_id, result.version))) for result in page.results]


def _entry(request: HttpRequest, page: TablePage, form: ResultForm, template: str, **extra):
    if not form.is_valid():
        return table_render(request, page, template, form=form, feedback=feedback_of(form), **extra)
    data = form.cleaned_data
    if request.POST.get("action") != "save":
        return table_render(
            request, page, template, form=form, feedback=preview_feedback(form), **extra
        )
    try:
        outcome = result_submit(
            table=page.table,
            number=data["game"],
            sides=form.sides(),
            values=form.deal_values(),
            by=request.user,
            via=_via(request, _who(page, data.get("who"))),
            confirm_warnings=data["confirm_warnings"],
            base_version=data["base_version"],
            reason=data["reason"],
        )
    except ResultConflict as conflict:
        messages.error(request, _("Not saved: {why}").format(why=conflict))
        return HttpResponseRedirect(table_url(page, f"game-{conflict.deal.number}"))
    except ResultRefused as refused:
        feedback = refusal_feedback(form, refused)
        return table_render(request, page, template, form=form, feedback=feedback, **extra)
    deal = outcome.deal
    title = deal_title(page.rules, deal.number)
    if outcome.created:
        done = _("{title} is saved, entered by you from the paper score sheet.")
    else:
        done = _(
            "{title} is corrected (version {version}), entered by you from the paper score sheet."
        )
    messages.success(request, done.format(title=title, version=deal.version))
    return HttpResponseRedirect(table_url(page, f"game-{deal.number}"))


@login_required
def director_correct(
    request: HttpRequest, slug: str, number: int, table: int, game: int
) -> HttpResponse:
    """Correct a game from the paper score sheet: a new version, the old ones kept."""
    page = table_for_director(request, slug, number, table)
    result = page.scored(game)
    if result is None:
        title = deal_title(page.rules, game)
        raise Http404(
            _("{title} has no result at this table yet: enter it instead.").format(title=title)
        )
    if not page.is_open:
        messages.error(request, _("This table's results are closed: only a ruling changes them."))
        return HttpResponseRedirect(table_url(page, f"game-{game}"))
    template = "director/director_correct.html"
    if request.method == "POST":
        form = _paper_form(page, request.POST, correcting=True, number=game, initial={})
        return _entry(request, page, form, template, result=result)
    stored, rows = correction_initial(result.entry or {})
    initial = {**stored, "game": game, "base_version": result.version}
    form = _paper_form(page, None, correcting=True, number=game, initial=initial, side_initial=rows)
    return table_render(
        request, page, template, form=form, feedback=feedback_of(form), result=result
    )


# --- the table's other steps -------------------------------------------------------------------


@login_required
@require_POST
def director_confirm(
    request: HttpRequest, slug: str, number: int, table: int, game: int
) -> HttpResponse:
    """The director confirms a pending result (never one they entered themselves)."""
    page = table_for_director(request, slug, number, table)
    title = deal_title(page.rules, game)
    found = deal_current(table=page.table, number=game)
    if found is None:
        raise Http404(_("{title} has no result at this table.").format(title=title))
    version = request.POST.get("version", "")
    try:
        result_confirm(
            deal=found,
            by=request.user,
            via=f"director {request.user.get_username()}",
            base_version=int(version) if version.isdigit() else None,
        )
    except (ResultConflict, ResultRefused) as refused:
        messages.error(
            request, _("{title} is not confirmed: {why}").format(title=title, why=refused)
        )
    else:
        messages.success(request, _("{title} is confirmed.").format(title=title))
    return HttpResponseRedirect(table_url(page, f"game-{game}"))


@login_required
@require_POST
def director_clear_flag(
    request: HttpRequest, slug: str, number: int, table: int, game: int
) -> HttpResponse:
    page = table_for_director(request, slug, number, table)
    title = deal_title(page.rules, game)
    found = deal_current(table=page.table, number=game)
    if found is None:
        raise Http404(_("{title} has no result at this table.").format(title=title))
    form = ReasonForm(request.POST)
    try:
        if not form.is_valid():
            raise ControlError(
                _("Say why the flag is cleared: the reason is kept with the result.")
            )
        deal_flag_clear(deal=found, by=request.user, reason=form.cleaned_data["reason"])
    except ControlError as error:
        messages.error(
            request, _("The flag of {title} stays: {why}").format(title=title.lower(), why=error)
        )
    else:
        messages.success(
            request, _("{title}'s flag is cleared; the reason is kept.").format(title=title)
        )
    return HttpResponseRedirect(table_url(page, f"game-{game}"))


@login_required
@require_POST
def director_sign_off(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The director signs the set off for the table, in the name of the signer on the sheet."""
    page = table_for_director(request, slug, number, table)
    form = SignOffForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The set is not signed off: give the name of who signs it."))
        return HttpResponseRedirect(table_url(page, "sign-off"))
    signer = form.cleaned_data["signer"]
    via = f"director {request.user.get_username()}"
    try:
        table_sign_off(table=page.table, by=request.user, via=via, signer=signer)
    except ResultRefused as refused:
        messages.error(request, _("The set is not signed off: {why}").format(why=refused))
    else:
        messages.success(
            request,
            _("Table {table}'s set is signed off by {signer}.").format(table=table, signer=signer),
        )
    return HttpResponseRedirect(table_url(page, "sign-off"))


# --- clocks and calls -----------------------------------------------------------------------

CLOCK_STEPS = {
    "start": lambda round, table, data, by: clock_start(
        round=round, minutes=data["minutes"] or round_minutes(round.tournament.rules()), by=by
    ),
    "pause": lambda round, table, data, by: clock_pause(
        round=round, table=table, by=by, reason=data["reason"]
    ),
    "resume": lambda round, table, data, by: clock_resume(round=round, table=table, by=by),
    "extend": lambda round, table, data, by: clock_extend(
        round=round, table=table, minutes=data["minutes"] or 0, by=by, reason=data["reason"]
    ),
}
CLOCK_DONE = {
    "start": gettext_lazy("{whose} is started."),
    "pause": gettext_lazy("{whose} is paused."),
    "resume": gettext_lazy("{whose} is running again."),
    "extend": gettext_lazy("{whose} is extended."),
}


def _clock_step(request: HttpRequest, round: Round, table: Table | None) -> None:
    form = ClockForm(request.POST)
    if table:
        whose = _("Table {number}'s clock").format(number=table.number)
    else:
        whose = _("Round {number}'s clock").format(number=round.number)
    if not form.is_valid():
        unchanged = _("{whose} is unchanged: give the minutes as a whole number.")
        messages.error(request, unchanged.format(whose=whose))
        return
    action = form.cleaned_data["action"]
    if table is not None and action == "start":
        messages.error(request, _("{whose} starts with the round's.").format(whose=whose))
        return
    try:
        CLOCK_STEPS[action](round, table, form.cleaned_data, request.user)
    except ClockError as error:
        messages.error(request, _("{whose} is unchanged: {why}").format(whose=whose, why=error))
    else:
        messages.success(request, CLOCK_DONE[action].format(whose=whose))


@login_required
@require_POST
def round_clock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Start, pause, resume or extend the round's clock; back to the dashboard."""
    round = _round(request, slug, number)
    _clock_step(request, round, None)
    return HttpResponseRedirect(reverse("director:dashboard", args=[slug, number]) + "#clock")


@login_required
@require_POST
def table_clock(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Pause, resume or extend one table's clock (a table that started late)."""
    round = _round(request, slug, number)
    found = get_object_or_404(round.tables, number=table)
    _clock_step(request, round, found)
    url = reverse("director:director-table", args=[slug, number, table])
    return HttpResponseRedirect(url + "#clock")


@login_required
@require_POST
def round_time(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The director calls time at every table of the round still playing (HF2.2)."""
    round = _round(request, slug, number)
    try:
        called = round_time_call(round=round, by=request.user, via=_via(request))
    except TimeCallError as error:
        messages.error(request, _("Time is not called: {why}").format(why=error))
    else:
        tables = ", ".join(str(table.number) for table in called) or _("none still playing")
        messages.success(
            request, _("Time is called at tables {tables} (HF2.2).").format(tables=tables)
        )
    return HttpResponseRedirect(reverse("director:dashboard", args=[slug, number]) + "#time")


@login_required
@require_POST
def table_time(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The director calls time at one table, or withdraws a call made by mistake (HF2.2)."""
    round = _round(request, slug, number)
    found = get_object_or_404(round.tables, number=table)
    try:
        if request.POST.get("action") == "withdraw":
            reason = request.POST.get("reason", "")
            table_time_uncall(table=found, by=request.user, reason=reason)
            done = _("Table {table} plays on: the time call is withdrawn.").format(table=table)
        else:
            table_time_call(table=found, by=request.user, via=_via(request))
            done = _(
                "Time is called at table {table}: its game ends with the hands entered."
            ).format(table=table)
    except TimeCallError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    url = reverse("director:director-table", args=[slug, number, table])
    return HttpResponseRedirect(url + "#time")


@login_required
@require_POST
def call_answer(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    """The director answers a table's call; back to where the director came from."""
    round = _round(request, slug, number)
    call = get_object_or_404(DirectorCall, pk=pk, table__round=round)
    try:
        director_call_answer(call=call, by=request.user)
    except ControlError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("Table {table}'s call is answered.").format(table=call.table.number)
        )
    back = request.POST.get("back") == "table"
    name, args = (
        ("director:director-table", [slug, number, call.table.number])
        if back
        else (
            "director:dashboard",
            [slug, number],
        )
    )
    return HttpResponseRedirect(reverse(name, args=args))
