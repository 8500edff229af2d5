"""The table's private page, `/t/<token>/`: the scorekeeper's phone at the table.

Anyone holding the table's link (the QR code on its printed card) sees the seats and first dealer,
the deal being played now as its game describes it (Kalooki: cards dealt, contract and dealer,
R4, R4.3) and the results so far; and, while the match is open, enters each deal's result on a
form built from the game's fields (`scoring.result_forms`), corrects it, confirms another
player's entry and signs the match off. Reissuing a table's token revokes the old link: it no
longer finds a table. Every page works as plain forms. The form is drawn one compact line per
seat (`entry.compact`); static/js/table-entry.js adds the card keypad, the live check
(`table_check`), a draft kept on the phone and an outbox that saves through the table API with
an Idempotency-Key; `entry.pwa` serves the service worker and the manifest.

The phone's page, its parts and its checks go compressed (`gzip_page`): a phone on the hall's
Wi-Fi moves a quarter of the bytes. BREACH needs a secret and a reflected input in one
compressed answer: Django masks the CSRF token anew in every answer and pads each gzip answer
with random bytes, and a table's token is in its address, which no answer reflects from the
request.

Terms
- current deal: the deal the game says comes next. A void attempt (Kalooki R9.2) scores nothing,
  so the same deal is current again, redealt by the same dealer.
- running total: a side's total over the scored deals up to and including one deal.
- preview: the result checked and scored by the game, shown, not saved.
- who is entering: the seated player using the phone, picked by name and remembered in the
  session; their name goes into the via label of what they save ("table 3 link · Ann").
- version: every save of a deal's result is a numbered revision; a correction is based on the
  version its author saw, so a correction saved meanwhile is never overwritten (a conflict).
"""

from __future__ import annotations

import json
from typing import Any

from csp.decorators import csp_exempt
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe

from config.i18n import catalog_url
from entry import compact, parts
from entry.access import Access, table_access
from entry.assets import inline_icon, inline_styles, preload_links
from entry.pwa import worker_url
from entry.templatetags.table_words import deal_title as titled
from entry.templatetags.table_words import noun
from games.base import FieldKind, RulesError, Scope
from scoring.control import ControlError, director_call, table_live_get
from scoring.matches import deal_title
from scoring.models import Deal
from scoring.result_forms import (
    ConfirmGameForm,
    NameForm,
    ResultForm,
    correction_initial,
    entry_feedback,
    preview_feedback,
    refusal_feedback,
    same_result,
)
from scoring.score_sheet import TablePage, table_page_get
from scoring.services import (
    ResultConflict,
    ResultRefused,
    deal_current,
    result_confirm,
    result_submit,
    table_sign_off,
)
from scoring.time_called import TimeCallError, table_time_call
from tables.models import Table
from tournament.models import Round

LIVE_SECONDS = 10  # how often the open page asks for its clock and call (static/js/live.js)


def _page_or_404(token: str) -> TablePage:
    try:
        return table_page_get(token=token)
    except Table.DoesNotExist:
        raise Http404(
            gettext(
                "No table has this link. It may have been reissued: ask the director for the "
                "new one."
            )
        ) from None


def _access(request: HttpRequest, page: TablePage, token: str) -> Access:
    """The token in the path is the key to its table, and to nothing else."""
    access = table_access(request, page.table, link_token=token)
    if not access.can_write:  # cannot happen for a token that found its table; kept as a guard
        raise Http404(gettext("No table has this link."))
    return access


def _private(response: HttpResponse) -> HttpResponse:
    # The token is the key to the table: keep it out of other sites' Referer headers and out of
    # search engines. "same-origin", not "no-referrer": with no referrer at all, browsers send
    # `Origin: null` with the page's own forms, and Django's CSRF check rightly refuses that.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _link(page: TablePage, anchor: str = "") -> str:
    url = reverse("table:link", args=[page.table.access_token])
    return f"{url}#{anchor}" if anchor else url


def _remembered(request: HttpRequest, page: TablePage) -> int | None:
    """Who is entering on this phone, if they said so before (and still sit here)."""
    entry_id = request.session.get(_session_key(page))
    return entry_id if any(seat.entry_id == entry_id for seat in page.seats) else None


def _remember(request: HttpRequest, page: TablePage, entry_id: int) -> None:
    request.session[_session_key(page)] = entry_id


def _session_key(page: TablePage) -> str:
    return f"table-{page.table.pk}-who"


def _name(page: TablePage, entry_id: int) -> str:
    return next(seat.name for seat in page.seats if seat.entry_id == entry_id)


def _table_config(page: TablePage, form: ResultForm | None) -> dict[str, Any]:
    """What static/js/table-entry.js needs on every state of the page: the table, its key, the
    table API's address of a deal's result (`{n}` the deal), its service worker; and, while a
    deal is being entered, the form's own (`entry`)."""
    table = page.table
    result = reverse("api-table-result", args=[table.pk, 0]).replace("/0/", "/{n}/")
    return {
        "table": table.pk,
        "token": table.access_token,
        "link": _link(page),
        "parts": reverse("table:parts", args=[table.access_token]),
        "result": result,
        "worker": worker_url(),
        "deal_noun": page.deal_noun,
        "names": {str(seat.entry_id): seat.name for seat in page.seats},
        "entry": _entry_config(page, form),
    }


def _entry_config(page: TablePage, form: ResultForm | None) -> dict[str, Any] | None:
    """The form's deal, its rows and the game's fields by name, for the keypad sheet, the live
    check, the draft and the outbox. None without a form: nothing to enter."""
    if form is None:
        return None
    cards = next((s for s in form.specs if s.kind == FieldKind.CARDS and s.keypad), None)
    return {
        "game": form.number,
        "title": titled(form.title),
        "correcting": form.correcting,
        "check": reverse("table:check", args=[page.table.access_token]),
        "rows": [_row_config(form, row) for row in form.rows],
        "fields": [_field_config(spec) for spec in form.specs if _offered(form, spec)],
        "exclusive": _exclusive_config(form),
        "keypad": _keypad_config(page, cards),
    }


def _row_config(form: ResultForm, row: Any) -> dict[str, Any]:
    """A row of the form; `outs`/`out`: what its "went out" radios send (`ResultForm.out_key`:
    a partner is named by seat, since partners share their team's entry, HF1.2)."""
    return {
        "prefix": row.form.prefix,
        "seat": row.seat.position,
        "name": row.name,
        "outs": [form.out_key(seat) for seat in row.seats],
        "members": [
            {"prefix": m.form.prefix, "seat": m.seat.position, "out": form.out_key(m.seat)}
            for m in row.members
            if m.form is not None
        ],
    }


def _field_config(spec: Any) -> dict[str, Any]:
    keys = ("name", "label", "kind", "scope", "rule", "alternative_to", "advanced")
    data = spec.to_dict()
    return {key: data[key] for key in keys}


def _offered(form: ResultForm, spec: Any) -> bool:
    """Whether the form has an input for the game's field (a correction cannot void, R9.2)."""
    return spec.scope != Scope.DEAL or spec.name in form.fields or spec is form.exclusive


def _exclusive_config(form: ResultForm) -> dict[str, str] | None:
    exclusive = form.exclusive
    return {"name": exclusive.name, "scope": str(exclusive.scope)} if exclusive else None


def _keypad_config(page: TablePage, cards: Any) -> dict[str, Any] | None:
    """The card keypad of the game's cards field: its keys (suitless where the game reads
    suitless cards: a key never invents a suit) and how many of each a deck holds."""
    if cards is None:
        return None
    stored = page.rules.game.dump(page.rules.ruleset)
    return {
        "field": cards.name,
        "scope": str(cards.scope),
        "keys": [{"token": k.token, "label": k.label, "points": k.points} for k in cards.keypad],
        "packs": stored.get("packs", 1),
        "jokers": stored.get("jokers", 0),
    }


def _form_key(form: ResultForm | None, config: dict[str, Any]) -> str:
    """A digest of what the form's markup is made of but its deal's number: the same key for
    the next deal's form, which the phone then fills in place (`entry.parts`)."""
    if form is None:
        return ""
    entry = {k: v for k, v in (config["entry"] or {}).items() if k not in ("game", "title")}
    specs = [(s.name, s.label, s.short, s.default, s.implied_by) for s in form.specs]
    text = json.dumps([entry, specs, config["names"]], sort_keys=True, default=str)
    return "f" + parts.digest(text.encode())


def _context(request: HttpRequest, page: TablePage, **context: Any) -> dict[str, Any]:
    form, feedback = context.get("form"), context.get("feedback")
    config = _table_config(page, form)
    return {
        "lines": compact.lines(form, feedback) if form and feedback else [],
        "page": page,
        "table_live": table_live_get(table=page.table),
        "table_config": config,
        "form_key": _form_key(form, config),
        "styles": inline_styles(),
        "icon": inline_icon(),
        "catalog": catalog_url(),  # the scripts' words, None in English (config/i18n.py)
        "name_choices": [(seat.entry_id, seat.name) for seat in page.seats],
        "who": _remembered(request, page),
        "live_seconds": LIVE_SECONDS,
        **context,
    }


def _render(request: HttpRequest, template: str, page: TablePage, **context: Any) -> HttpResponse:
    response = render(request, template, _context(request, page, **context))
    response.content = parts.keyed(response.content.decode())
    return _private(response)


def _new_form(request: HttpRequest, page: TablePage) -> ResultForm | None:
    if not page.takes_new_results or page.current is None:
        return None
    number = page.current.line.number
    initial = {"game": number, "attempt": page.current.attempt, "who": _remembered(request, page)}
    return ResultForm(
        rules=page.rules, seats=page.seats, number=number, played=page.played, initial=initial
    )


def _posted_number(request: HttpRequest, page: TablePage) -> int:
    """The deal a posted form is for: its own, when it is a deal of the match, else the current
    one (the service refuses a deal out of turn, saying which comes next)."""
    current = page.current.line.number if page.current else 1
    try:
        number = int(request.POST.get("game", ""))
    except ValueError:
        return current
    return number if 1 <= number <= MAX_DEAL and _is_deal(page, number) else current


MAX_DEAL = 1000  # far beyond any match; a bigger number is no deal a page offers


def _is_deal(page: TablePage, number: int) -> bool:
    try:
        page.rules.deal(number)
    except RulesError:
        return False
    return True


@gzip_page
@never_cache
def table_link(request: HttpRequest, token: str) -> HttpResponse:
    """The table's page: seats, the game now played, the entry form, results so far. A POST
    previews (`action=preview`) or saves (`action=save`) the current game's result."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    if request.method != "POST":
        form = _new_form(request, page)
        feedback = entry_feedback(form) if form else None
        response = _render(request, "entry/link.html", page, form=form, feedback=feedback)
        response.headers["Link"] = preload_links()
        return response
    if not page.takes_new_results:
        messages.error(request, _closed_message(page))
        return HttpResponseRedirect(_link(page))
    number = _posted_number(request, page)
    form = ResultForm(
        request.POST, rules=page.rules, seats=page.seats, number=number, played=page.played
    )
    return _result_post(request, page, access, form, "entry/link.html")


@gzip_page
@never_cache
def table_correct(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Correct a scored game: the same form, filled with the stored entry, saved as a new
    version based on the one shown (R12.4: only until the round is locked)."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    result = page.scored(number)
    if result is None:
        title = titled(deal_title(page.rules, number))
        raise Http404(
            gettext("{title} has no result at this table yet: nothing to correct.").format(
                title=title
            )
        )
    if not page.is_open:
        messages.error(request, _closed_message(page))
        return HttpResponseRedirect(_link(page, f"game-{number}"))
    if request.method == "POST":
        form = ResultForm(
            request.POST,
            rules=page.rules,
            seats=page.seats,
            correcting=True,
            number=number,
            played=page.played,
        )
        return _result_post(request, page, access, form, "entry/correct.html", result=result)
    deal, rows = correction_initial(result.entry or {})
    initial = {**deal, "game": number, "base_version": result.version}
    initial["who"] = _remembered(request, page)
    form = ResultForm(
        rules=page.rules,
        seats=page.seats,
        correcting=True,
        number=number,
        played=page.played,
        initial=initial,
        side_initial=rows,
    )
    return _render(
        request,
        "entry/correct.html",
        page,
        form=form,
        feedback=entry_feedback(form),
        result=result,
    )


def _result_post(
    request: HttpRequest,
    page: TablePage,
    access: Access,
    form: ResultForm,
    template: str,
    **context: Any,
) -> HttpResponse:
    if not form.is_valid():
        return _render(request, template, page, form=form, feedback=entry_feedback(form), **context)
    data = form.cleaned_data
    _remember(request, page, data["who"])
    if request.POST.get("action") != "save":
        return _render(
            request, template, page, form=form, feedback=preview_feedback(form), **context
        )
    via = access.via(_name(page, data["who"]))
    voided = _voided_meanwhile(page, data)
    if voided is not None:
        return _conflict(request, page, form, via, voided)
    try:
        outcome = result_submit(
            table=page.table,
            number=data["game"],
            sides=form.sides(),
            values=form.deal_values(),
            by=access.user,
            via=via,
            confirm_warnings=data["confirm_warnings"],
            base_version=data["base_version"],
            reason=data["reason"],
        )
    except ResultConflict as conflict:
        return _conflict(request, page, form, via, conflict.deal)
    except ResultRefused as refused:
        feedback = refusal_feedback(form, refused)
        return _render(request, template, page, form=form, feedback=feedback, **context)
    messages.success(request, _saved_message(page, outcome.deal, outcome.created))
    anchor = "now" if outcome.created else f"game-{outcome.deal.number}"
    return HttpResponseRedirect(_link(page, anchor))


def _voided_meanwhile(page: TablePage, data: dict[str, Any]) -> Deal | None:
    """The void attempt recorded since this form was opened for deal `data["game"]`, if any: the
    form's result belongs to an attempt that is over (R9.2), so it must not be saved as the next."""
    current, attempt = page.current, data.get("attempt")
    if current is None or attempt is None or current.line.number != data["game"]:
        return None  # a correction, or a deal that is not current any more: the service decides
    if attempt >= current.attempt:
        return None
    return page.table.deals.filter(number=data["game"], attempt=attempt, is_void=True).first()


def _conflict(
    request: HttpRequest, page: TablePage, form: ResultForm, via: str, stored_game: Deal
) -> HttpResponse:
    """Someone else saved first: say so, and show what is stored now (nothing is overwritten).
    The same phone sending the same result again (a double tap, a retry) is told it is saved."""
    number = stored_game.number
    latest = stored_game.revisions.order_by("-version").first()
    if latest is not None and latest.entered_via == via and same_result(latest.entry, form):
        messages.success(request, _saved_message(page, stored_game, latest.version == 1))
        return HttpResponseRedirect(_link(page, "now" if latest.version == 1 else f"game-{number}"))
    page = _page_or_404(page.table.access_token)
    stored = next((r for r in page.results if r.game_id == stored_game.pk), None)
    messages.error(
        request,
        gettext(
            "Someone else saved {title} first: your entry was not saved. The stored result is "
            "shown below; if it is wrong, correct it."
        ).format(title=titled(deal_title(page.rules, number)).lower()),
    )
    form = _new_form(request, page)
    return _render(
        request,
        "entry/link.html",
        page,
        form=form,
        feedback=entry_feedback(form) if form else None,
        stored=stored,
    )


def _saved_message(page: TablePage, deal: Deal, created: bool) -> str:
    title = titled(deal_title(page.rules, deal.number))
    if deal.is_void:
        return gettext(
            "{title} is recorded as void (R9.2): nobody scores, and the same dealer deals it again."
        ).format(title=title)
    if created:
        text = gettext("{title} is saved.").format(title=title)
    else:
        text = gettext("{title} is corrected: this is version {version}.").format(
            title=title, version=deal.version
        )
    if deal.status == Deal.Status.PENDING:
        text += " " + gettext("It counts once another player at the table confirms it.")
    if deal.is_flagged:
        text += " " + gettext(
            "It is flagged for the director because of the warnings you confirmed."
        )
    return text


def _closed_message(page: TablePage) -> str:
    if page.is_signed_off:
        return gettext(
            "{table} has signed its {match} off: its results can no longer be changed here."
        ).format(table=page.table, match=noun(page.match_noun))
    status = page.table.round.status
    if status == Round.Status.DRAFT:
        return gettext("This round is still a draft: results can be entered once it is published.")
    if status == Round.Status.LOCKED:
        return gettext("This round is locked: only a director's ruling can change a score (R12.4).")
    if page.current is None:
        return gettext(
            "The {match} is over ({count} {deals} scored): correct a {deal}, or sign the {match} "
            "off."
        ).format(
            match=noun(page.match_noun),
            count=page.games_scored,
            deals=noun(page.deals_noun),
            deal=noun(page.deal_noun),
        )
    return gettext("No result can be entered here now.")


@never_cache
@require_POST
def table_confirm(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """A second person at the table confirms a pending result; never its own enterer."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    title = titled(deal_title(page.rules, number))
    form = ConfirmGameForm(request.POST, seats=page.seats, label=gettext("Who is confirming?"))
    if not form.is_valid():
        messages.error(
            request,
            gettext("{title} is not confirmed: choose your name first.").format(title=title),
        )
        return HttpResponseRedirect(_link(page, "pending"))
    who = form.cleaned_data["who"]
    _remember(request, page, who)
    deal = deal_current(table=page.table, number=number)
    if deal is None:
        raise Http404(gettext("{title} has no result at this table.").format(title=title))
    try:
        result_confirm(
            deal=deal,
            by=access.user,
            via=access.via(_name(page, who)),
            base_version=form.cleaned_data["version"],
        )
    except (ResultConflict, ResultRefused) as refused:
        messages.error(
            request, gettext("{title} is not confirmed: {why}").format(title=title, why=refused)
        )
    else:
        messages.success(
            request,
            gettext("{title} is confirmed by {name}.").format(title=title, name=_name(page, who)),
        )
    return HttpResponseRedirect(_link(page, "pending"))


@never_cache
@require_POST
def table_sign_off_view(request: HttpRequest, token: str) -> HttpResponse:
    """The table signs its finished set off: its results are final at the table (R4.1)."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    form = NameForm(request.POST, seats=page.seats, label=gettext("Signed off by"))
    if not form.is_valid():
        messages.error(request, gettext("The set is not signed off: choose your name first."))
        return HttpResponseRedirect(_link(page, "sign-off"))
    who = form.cleaned_data["who"]
    _remember(request, page, who)
    name = _name(page, who)
    try:
        table_sign_off(table=page.table, by=access.user, via=access.via(name), signer=name)
    except ResultRefused as refused:
        messages.error(request, gettext("The set is not signed off: {why}").format(why=refused))
    else:
        messages.success(
            request, gettext("The set is signed off by {name}. Thank you!").format(name=name)
        )
    return HttpResponseRedirect(_link(page, "sign-off"))


# --- the clock and the call for the director (scoring.control) ----------------------------------


@never_cache
@require_POST
def table_call(request: HttpRequest, token: str) -> HttpResponse:
    """ "Call the director": the call shows on the round's dashboard until it is answered."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    who = _remembered(request, page)
    try:
        outcome = director_call(table=page.table, via=access.via(_name(page, who) if who else ""))
    except ControlError as error:
        if _wants_json(request):
            return _private(JsonResponse({"errors": [{"message": str(error)}]}, status=409))
        messages.error(request, str(error))
    else:
        if _wants_json(request):  # the page's script: it shows the call in the live part
            return _private(JsonResponse({"called_at": outcome.call.called_at}))
        called = f"{timezone.localtime(outcome.call.called_at):%H:%M}"
        messages.success(
            request,
            gettext("The director is called: stay at the table, they will come.")
            if outcome.created
            else gettext("The director was called already at {time}: they will come.").format(
                time=called
            ),
        )
    return HttpResponseRedirect(_link(page, "director"))


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("Accept", "").startswith("application/json")


@never_cache
@require_POST
def table_time(request: HttpRequest, token: str) -> HttpResponse:
    """ "Time is called": the director called time in the hall, and the table ends its game
    with the hands entered (HF2.2)."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    who = _remembered(request, page)
    try:
        table_time_call(
            table=page.table, by=access.user, via=access.via(_name(page, who) if who else "")
        )
    except TimeCallError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, gettext("Time is called: the game ends with the hands entered (HF2.2).")
        )
    return HttpResponseRedirect(_link(page, "sign-off"))


@gzip_page
@csp_exempt()  # JSON for the page's script, never drawn: the page's own policy applies
@never_cache
@require_safe
def table_parts(request: HttpRequest, token: str) -> JsonResponse:
    """The parts of the table's page that the phone lacks (`entry.parts`): what changed since
    the keys it sends (`?have=key.key...`), to update the page in place after a save. With
    them, the deal the form is now for (`deal`), and the form's settings when its markup is
    sent anew (`entry`)."""
    page = _page_or_404(token)
    _access(request, page, token)
    form = _new_form(request, page)
    context = _context(request, page, form=form, feedback=entry_feedback(form) if form else None)
    html = render(request, "entry/link.html", context).content.decode()
    sent = parts.answer(html, parts.held(request.GET.get("have", "")))
    config = context["table_config"]
    body = {
        "parts": sent,
        "deal": _deal_now(page, form),
        "entry": config["entry"] if any(name == "enter" for name, _, _ in sent) else None,
    }
    # The phone holds the CSRF cookie its page was given: the forms sent here mask the same
    # secret, so the cookie is not sent again with every answer.
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = False
    compact_json = {"separators": (",", ":"), "ensure_ascii": False}  # fewer bytes to the phone
    return _private(JsonResponse(body, json_dumps_params=compact_json))


def _deal_now(page: TablePage, form: ResultForm | None) -> dict[str, Any] | None:
    if form is None or page.current is None:
        return None
    return {"game": form.number, "attempt": page.current.attempt, "title": titled(form.title)}


@require_safe
def table_live(request: HttpRequest, token: str) -> HttpResponse:
    """The table page's clock and call, for its script: a 304 while neither changed."""
    table = Table.objects.select_related("round__tournament").filter(access_token=token).first()
    if table is None:
        raise Http404(gettext("No table has this link."))
    live = table_live_get(table=table)
    etag = f'"{live.stamp}"'
    if get_conditional_response(request, etag=etag) is not None:
        return _private(_stamped(HttpResponseNotModified(), etag))
    response = render(request, "entry/_live.html", {"table_live": live, "token": token})
    return _private(_stamped(response, etag))


def _stamped(response: HttpResponse, etag: str) -> HttpResponse:
    response.headers["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


# --- the live check of the page's script --------------------------------------------------------


@gzip_page
@never_cache
@require_POST
def table_check(request: HttpRequest, token: str) -> JsonResponse:
    """The entry form as it stands, checked and scored by the game, saved nowhere: what the
    page's bar shows as "this game's scores as they will be saved", for every game. The body is
    the form itself (as the page would post it); `correcting=1` checks a correction."""
    page = _page_or_404(token)
    _access(request, page, token)
    correcting = request.GET.get("correcting") == "1"
    number = _posted_number(request, page)
    data = request.POST.copy()
    if not data.get("who") and page.seats:  # who enters changes no score
        data["who"] = str(page.seats[0].entry_id)
    if correcting and not data.get("reason", "").strip():  # nor does why (asked at Save)
        data["reason"] = "checking"
    form = ResultForm(
        data,
        rules=page.rules,
        seats=page.seats,
        number=number,
        played=page.played,
        correcting=correcting,
    )
    if not form.is_valid():
        return _private(JsonResponse(_form_errors(form)))
    return _private(JsonResponse(check_answer(form, preview_feedback(form))))


def check_answer(form: ResultForm, feedback: Any) -> dict[str, Any]:
    """Each row's score and reasons, and every problem with the row and field it belongs to."""
    rows = [
        {
            "prefix": row.form.prefix,
            "points": row.score.points if row.score else None,
            "reasons": list(row.score.reasons) if row.score else [],
        }
        for row in feedback.rows
    ]
    return {
        "scored": feedback.scored,
        "rows": rows,
        "errors": [_problem(p, form) for p in feedback.errors],
        "warnings": [_problem(p, form) for p in feedback.warnings],
    }


def _problem(problem: Any, form: ResultForm) -> dict[str, Any]:
    data = problem.to_dict()
    row = _problem_row(problem, form)
    data["prefix"] = row.form.prefix if row is not None else None
    if row is not None and problem.member is not None and problem.member < len(row.members):
        member = row.members[problem.member]
        data["prefix"] = member.form.prefix if member.form is not None else data["prefix"]
    return data


def _problem_row(problem: Any, form: ResultForm) -> Any:
    if problem.side is not None and 0 <= problem.side < len(form.rows):
        return form.rows[problem.side]
    return next((row for row in form.rows if row.label == problem.player), None)


def _form_errors(form: ResultForm) -> dict[str, Any]:
    """A form that cannot even be read (a number out of range, no name): its errors by input."""
    errors = [
        {"rule": "", "message": f"{form[name].label}: {' '.join(found)}", "input": name}
        for name, found in form.errors.items()
        if name != "__all__"
    ]
    for row in form.rows:
        for sub in [row.form, *(m.form for m in row.members if m.form is not None)]:
            errors += [
                {"rule": "", "message": " ".join(found), "input": f"{sub.prefix}-{name}"}
                for name, found in sub.errors.items()
            ]
    return {"scored": False, "rows": [], "errors": errors, "warnings": []}
