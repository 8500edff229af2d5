"""Director pages of the scoring app: the Rule check, rounds, the dashboard and rulings.

Every page but the Rule check belongs to one tournament: `tournament_for_director` answers 404 to
anyone who does not direct it. Actions are POSTs that call one service and come back to the page
with a message: what was done, or why it was refused.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, user_passes_test
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from director.pin_views import pins_context
from director.round_forms import (
    ConfirmForm,
    MoveForm,
    ReinstateForm,
    ReverseForm,
    RulingForm,
    SeatForm,
    SeatRulingForm,
    SwapForm,
)
from director.rule_check_forms import (
    DEFAULT_RULES,
    CheckForm,
    ContractForm,
    GameForm,
    MeldForm,
    RulesForm,
    TackOnForm,
    hand_formset,
)
from director.tournament_views import players_return_url
from games.base import Rules, ScheduleKind
from scoring import rounds
from scoring.control import control_room
from scoring.models import Ruling
from scoring.phrases import translated_answer, translated_evaluation
from scoring.rulings import (
    RulingError,
    player_reinstate,
    ruling_record,
    ruling_reverse,
    seat_change_by_ruling,
    standing_disqualifications,
)
from scoring.selectors import round_progress, rulings_list, standings_for_director
from scoring.standings import standing_order
from seasons.selectors import entry_ratings
from tables.seating import SeatingMode, sides_word
from tables.selectors import round_byes, seating_summary
from tables.services import SeatingError, round_seat, seat_move, seat_swap, table_link_reissue
from tournament.models import Entry, Round, Tournament
from tournament.permissions import is_director, tournament_for_director
from tournament.services import TournamentError

Check = Callable[[HttpRequest, Rules[Any]], dict[str, Any]]


def _tool(form_class: type[CheckForm], tool: str) -> Check:
    """A dispute tool's check: the form's request, answered by the game (``Rules.check``)."""

    def check(request: HttpRequest, rules: Rules[Any]) -> dict[str, Any]:
        form = form_class(request.POST, rules=rules)
        answer = translated_answer(rules.check(tool, form.request())) if form.is_valid() else None
        answer = answer.to_dict() if answer is not None else None
        return {f"{tool}_form": form, tool: answer}

    return check


def _game(request: HttpRequest, rules: Rules[Any]) -> dict[str, Any]:
    form = GameForm(request.POST, rules=rules)
    hands = hand_formset(rules)(request.POST, prefix="hands", rules=rules)
    if not (form.is_valid() and hands.is_valid()):
        return {"game_form": form, "hand_forms": hands}
    evaluation = rules.evaluate(form.entry(hands))
    scores = evaluation.score.sides if evaluation.score else ()
    lines = zip(evaluation.entry.sides, scores, strict=False)
    return {
        "game_form": form,
        "hand_forms": hands,
        "game_check": translated_evaluation(evaluation),
        "game_lines": list(lines),
    }


CHECKS: dict[str, Check] = {
    "meld": _tool(MeldForm, "meld"),
    "contract": _tool(ContractForm, "contract"),
    "tack-on": _tool(TackOnForm, "tack-on"),
    "game": _game,
}


@login_required
@user_passes_test(is_director)
def rule_check(request: HttpRequest) -> HttpResponse:
    """Settle a dispute at the table: a meld, a lay-down, a tack-on or joker move, or a game's
    scores (R3-R10), under a preset or one of the director's own tournaments' rules."""
    data = request.POST if request.method == "POST" else request.GET
    chosen = RulesForm({"rules": data.get("rules", DEFAULT_RULES)}, user=request.user)
    rules = chosen.chosen()
    context: dict[str, Any] = {
        "rules_form": chosen,
        "rules_value": chosen.value,
        "rules": rules,
        "words": rules.describe(),
        "meld_form": MeldForm(rules=rules),
        "contract_form": ContractForm(rules=rules),
        "tack_on_form": TackOnForm(rules=rules),
        "game_form": GameForm(rules=rules),
        "hand_forms": hand_formset(rules)(prefix="hands", rules=rules),
    }
    check = CHECKS.get(request.POST.get("check", "")) if request.method == "POST" else None
    if check is not None:
        found = check(request, rules)
        context |= {key.replace("-", "_"): value for key, value in found.items()}
        context["checked"] = request.POST["check"]
    return render(request, "director/rule_check.html", context)


# --- the director's rounds ---------------------------------------------------------------------


def seating_words(tournament: Tournament) -> str:
    """Who a table seats, for the round page's help: "5 players (3 to 6 when the numbers need
    it)", "2 teams of partners", as the game's table shape says (R12.1, R12.2, HF1.2)."""
    shape = tournament.rules().shape()
    if shape.members > 1:
        sides = ngettext("{n} team of partners", "{n} teams of partners", shape.sides)
    else:
        sides = ngettext("{n} player", "{n} players", shape.sides)
    sides = sides.format(n=shape.sides)
    if shape.min_sides == shape.max_sides:
        return sides
    return _("{sides} ({low} to {high} when the numbers need it)").format(
        sides=sides, low=shape.min_sides, high=shape.max_sides
    )


def seated_words(rules: Any) -> str:
    """Who the checked-in are, in the page's language: "teams" or "players" (HF1.2)."""
    return _("teams") if sides_word(rules) == "teams" else _("players")


def names_a_dealer(tournament: Tournament) -> bool:
    """Whether the game has a dealer, and so a first dealer at each table (Kalooki R4.3,
    Parcellus PA2.4); Hand and Foot has none: each player deals their own hand and foot, and
    a high card decides who plays first (HF2.3). Pages mark a first dealer only where it has."""
    return tournament.rules().deal(1).dealer_step is not None


@dataclass(frozen=True)
class Step:
    """A lifecycle action as the round page offers it: a button behind a ticked box."""

    name: str
    service: Callable[..., Any]
    button: str  # "Publish"
    confirm: str  # "Yes, publish round {n}"
    done: str  # the message after it worked
    from_status: str

    @property
    def url_name(self) -> str:
        return f"director:round-{self.name}"


STEPS = {
    step.name: step
    for step in [
        Step(
            "publish",
            rounds.round_publish,
            gettext_lazy("Publish"),
            gettext_lazy(
                "Yes, publish round {n}: its seating becomes final and the table cards printable"
            ),
            gettext_lazy("Round {n} is published: print its table cards."),
            Round.Status.DRAFT,
        ),
        Step(
            "remove",
            rounds.round_remove,
            gettext_lazy("Remove this round"),
            gettext_lazy("Yes, remove round {n} and its draft seating"),
            gettext_lazy("Round {n} is removed."),
            Round.Status.DRAFT,
        ),
        Step(
            "start",
            rounds.round_start,
            gettext_lazy("Start play"),
            gettext_lazy("Yes, round {n} is in play"),
            gettext_lazy("Round {n} is in play."),
            Round.Status.PUBLISHED,
        ),
        Step(
            "unpublish",
            rounds.round_unpublish,
            gettext_lazy("Back to draft"),
            gettext_lazy("Yes, take round {n} back to draft to change its seating"),
            gettext_lazy("Round {n} is a draft again: its seating can be changed."),
            Round.Status.PUBLISHED,
        ),
        Step(
            "complete",
            rounds.round_complete,
            gettext_lazy("Complete"),
            gettext_lazy("Yes, every table of round {n} has finished"),
            gettext_lazy("Round {n} is complete: check the scores, then lock it."),
            Round.Status.IN_PLAY,
        ),
        Step(
            "reopen",
            rounds.round_reopen,
            gettext_lazy("Reopen for a correction"),
            gettext_lazy("Yes, put round {n} back in play"),
            gettext_lazy("Round {n} is in play again."),
            Round.Status.COMPLETE,
        ),
        Step(
            "lock",
            rounds.round_lock,
            gettext_lazy("Lock"),
            gettext_lazy("Yes, lock round {n}: its scores become final and change only by ruling"),
            gettext_lazy("Round {n} is locked."),
            Round.Status.COMPLETE,
        ),
    ]
}


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


def _round_url(round: Round) -> str:
    return reverse("director:round", args=[round.tournament.slug, round.number])


def _form_errors(form: forms.Form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


@login_required
def round_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's rounds, each with its status, and the button that adds the next."""
    tournament = tournament_for_director(request.user, slug)
    context = {
        "tournament": tournament,
        "rounds": tournament.rounds.annotate(table_count=Count("tables")).order_by("number"),
    }
    return render(request, "director/rounds.html", context)


@login_required
@require_POST
def round_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for_director(request.user, slug)
    try:
        round = rounds.round_add(tournament=tournament, by=request.user)
    except rounds.RoundError as error:
        messages.error(request, str(error))
        return redirect("director:rounds", slug)
    messages.success(
        request,
        _("Round {number} is added as a draft: seat the players next.").format(number=round.number),
    )
    return redirect(_round_url(round))


@login_required
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round: its status and next steps, its tables and seats, and the seat editing forms."""
    round = _round(tournament_for_director(request.user, slug), number)
    tables = round_progress(round=round)
    seating = seating_summary(round)
    context = {
        "tournament": round.tournament,
        "round": round,
        "rounds": round.tournament.rounds.order_by("number"),
        "tables": tables,
        "steps": [
            (step, step.confirm.format(n=round.number))
            for step in STEPS.values()
            if step.from_status == round.status
        ],
        "seat_form": SeatForm(
            initial={"mode": seating.mode} if seating else None,
            rated=bool(entry_ratings(tournament=round.tournament)),
        ),
        "marks_dealer": names_a_dealer(round.tournament),
        "seating_words": seating_words(round.tournament),
        "seated_word": seated_words(round.tournament.rules()),
        "byes": round_byes(round),
        "bye_words": round.tournament.rules().bye_words(),
        "seating": seating,
        **pins_context(round.tournament),
    }
    if round.status == Round.Status.DRAFT:
        context |= {"swap_form": SwapForm(round=round), "move_form": MoveForm(round=round)}
    # Seats change by ruling only at tables with no result yet: offer it while there is one.
    unplayed = any(table.last_entry_at is None for table in tables)
    if round.status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY) and unplayed:
        context["seat_ruling_form"] = SeatRulingForm(round=round)
    return render(request, "director/round.html", context)


@login_required
@require_POST
def round_step(request: HttpRequest, slug: str, number: int, step: str) -> HttpResponse:
    """Take one lifecycle step, once the director has ticked the box that confirms it."""
    round = _round(tournament_for_director(request.user, slug), number)
    action = STEPS[step]
    if not ConfirmForm(request.POST).is_valid():
        confirm = action.confirm.format(n=round.number).split(":")[0]
        messages.error(
            request, _("Nothing was done: tick “{confirm}” to confirm.").format(confirm=confirm)
        )
        return redirect(_round_url(round))
    try:
        action.service(round=round, by=request.user)
    except rounds.RoundError as error:
        messages.error(request, str(error))
        return redirect(_round_url(round))
    messages.success(request, action.done.format(n=round.number))
    if step == "remove":
        return redirect("director:rounds", slug)
    return redirect(_round_url(round))


@login_required
@require_POST
def round_seat_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Draw the seating of a draft round; redrawing over a seating needs the box ticked."""
    round = _round(tournament_for_director(request.user, slug), number)
    form = SeatForm(request.POST, rated=bool(entry_ratings(tournament=round.tournament)))
    if not form.is_valid():
        messages.error(request, _form_errors(form))
    elif round.tables.exists() and not form.cleaned_data["confirm"]:
        messages.error(
            request,
            _("Nothing was done: tick “Yes, replace the seating of round {number}”.").format(
                number=number
            ),
        )
    else:
        mode = form.cleaned_data["mode"] or SeatingMode.AVOID_REPEATS
        _seat(request, round, form.cleaned_data["seed"], SeatingMode(mode))
    return redirect(_round_url(round))


def _seat(request: HttpRequest, round: Round, seed: int | None, mode: SeatingMode) -> None:
    try:
        standing = standing_order(tournament=round.tournament)
        tables = round_seat(
            round=round,
            by=request.user,
            seed=seed,
            standing=standing,
            mode=mode,
            ratings=entry_ratings(tournament=round.tournament) if mode.needs_ratings else None,
        )
    except SeatingError as error:
        messages.error(request, str(error))
        return
    round.refresh_from_db(fields=["seating_seed"])
    byes = round.byes.count()
    sides = round.seats.count()  # a seat a side: a player, or a team (HF1.2)
    word = seated_words(round.tournament.rules())
    if byes:
        seated = ngettext(
            "Seated {sides} {word} at {tables} tables, {byes} with a bye "
            "(seed {seed}: same seed, same tables).",
            "Seated {sides} {word} at {tables} tables, {byes} with a bye "
            "(seed {seed}: same seed, same tables).",
            byes,
        )
    else:
        seated = _(
            "Seated {sides} {word} at {tables} tables (seed {seed}: same seed, same tables)."
        )
    words = {"sides": sides, "word": word, "tables": len(tables), "byes": byes}
    messages.success(request, seated.format(seed=round.seating_seed, **words))


@login_required
@require_POST
def seat_swap_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _edit_seats(request, slug, number, SwapForm, seat_swap)


@login_required
@require_POST
def seat_move_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _edit_seats(request, slug, number, MoveForm, seat_move)


def _edit_seats(
    request: HttpRequest,
    slug: str,
    number: int,
    form_class: type[SwapForm | MoveForm],
    service: Callable[..., Any],
) -> HttpResponse:
    """Change a draft round's seats: the form's fields are the service's arguments."""
    round = _round(tournament_for_director(request.user, slug), number)
    form = form_class(request.POST, round=round)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_round_url(round))
    try:
        service(round=round, by=request.user, **form.cleaned_data)
    except SeatingError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Seats changed."))
    return redirect(_round_url(round))


@login_required
@require_POST
def seat_ruling_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Change a published round's seats: a swap or a move, recorded as a ruling (R12.4)."""
    round = _round(tournament_for_director(request.user, slug), number)
    form = SeatRulingForm(request.POST, round=round)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_round_url(round))
    data = form.cleaned_data
    try:
        ruling = seat_change_by_ruling(
            round=round,
            by=request.user,
            decision=data["decision"],
            reason=data["reason"],
            entry=data["entry"],
            swap_with=data["swap_with"],
            table=data["table"],
            position=data["position"],
        )
    except (RulingError, SeatingError) as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Seats changed by ruling {number}.").format(number=ruling.pk))
    return redirect(_round_url(round))


@login_required
@require_POST
def table_link_reissue_view(
    request: HttpRequest, slug: str, number: int, table: int
) -> HttpResponse:
    """A new private link for one table, when the old one has leaked; the old one stops working."""
    round = _round(tournament_for_director(request.user, slug), number)
    found = get_object_or_404(round.tables, number=table)
    if not ConfirmForm(request.POST).is_valid():
        messages.error(
            request,
            _("Nothing was done: tick “Yes, replace table {table}'s link”.").format(table=table),
        )
    else:
        table_link_reissue(table=found, by=request.user)
        messages.success(
            request,
            _("Table {table} has a new link: print its table card again.").format(table=table),
        )
    if request.POST.get("back") == "table":  # from the director's table page
        return redirect("director:director-table", slug, number, table)
    return redirect(_round_url(round))


@login_required
def dashboard(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A running round at a glance: each table's progress and the standings the public
    leaderboard shows. With `?partial=1`, only the part that refreshes itself every few seconds."""
    round = _round(tournament_for_director(request.user, slug), number)
    top = _page_number(request.GET.get("standings"))
    lines = slice((top - 1) * STANDINGS_PER_PAGE, top * STANDINGS_PER_PAGE)
    standings = standings_for_director(tournament=round.tournament, lines=lines)
    pages = max(1, -(-standings.count // STANDINGS_PER_PAGE))
    if top > pages:
        top, lines = pages, slice((pages - 1) * STANDINGS_PER_PAGE, pages * STANDINGS_PER_PAGE)
        standings = standings_for_director(tournament=round.tournament, lines=lines)
    context = {
        "tournament": round.tournament,
        "round": round,
        "standings": standings,
        "standings_page": top,
        "standings_pages": pages,
        "refresh_seconds": DASHBOARD_REFRESH_SECONDS,
        "timed": round.tournament.rules().schedule().kind == ScheduleKind.TIMED,  # HF2.2
        "marks_dealer": names_a_dealer(round.tournament),
        **control_room(round=round, page=_page_number(request.GET.get("tables"))),
    }
    if request.GET.get("partial"):
        return render(request, "director/_dashboard_live.html", context)
    return render(request, "director/dashboard.html", context)


DASHBOARD_REFRESH_SECONDS = 10
STANDINGS_PER_PAGE = 20  # the top of the standings; the rest a page at a time


def _page_number(text: str | None) -> int:
    """A page asked for in the address: 1 for anything that is not a page number."""
    return max(int(text), 1) if text and text.isdigit() and len(text) < 6 else 1


# --- rulings (R12.4) ------------------------------------------------------------------------------


@login_required
def ruling_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every ruling, newest first, and the form that records one."""
    tournament = tournament_for_director(request.user, slug)
    # A link such as ?kind=disqualification&entry=12 (from the players page) fills the form in.
    prefill = {
        key: request.GET[key] for key in ("kind", "entry", "table", "game") if key in request.GET
    }
    form = RulingForm(request.POST or None, tournament=tournament, initial=prefill)
    if request.method == "POST" and form.is_valid() and _record(request, tournament, form):
        return redirect("director:rulings", slug)
    context = {
        "tournament": tournament,
        "rulings": rulings_list(tournament=tournament),
        "form": form,
        "reverse_form": ReverseForm(),
    }
    return render(request, "director/rulings.html", context)


def _record(request: HttpRequest, tournament: Tournament, form: RulingForm) -> bool:
    try:
        data = dict(form.cleaned_data)
        data["deal"] = data.pop("game")  # the form keeps Kalooki's word for a deal
        ruling = ruling_record(tournament=tournament, by=request.user, **data)
    except RulingError as error:
        field = "game" if error.field == "deal" else error.field
        form.add_error(field if field in form.fields else None, str(error))
        return False
    messages.success(request, _("Ruling {number} is recorded.").format(number=ruling.pk))
    return True


@login_required
@require_POST
def ruling_reverse_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for_director(request.user, slug)
    ruling = get_object_or_404(Ruling, tournament=tournament, pk=pk)
    form = ReverseForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("Ruling {number} stands: say why it is reversed.").format(number=pk)
        )
        return redirect("director:rulings", slug)
    try:
        reason = form.cleaned_data["reason"]
        reversal = ruling_reverse(ruling=ruling, by=request.user, reason=reason)
    except RulingError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Ruling {number} is reversed by ruling {reversal}.").format(
                number=pk, reversal=reversal.pk
            ),
        )
    return redirect("director:rulings", slug)


# --- reinstating a player: a disqualification's ruling is reversed (R12.4) ------------------------


@login_required
def entry_reinstate_view(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """GET: the confirmation, naming the disqualification it reverses; POST: the reinstatement
    (`player_reinstate`), then back to the players list."""
    tournament = tournament_for_director(request.user, slug)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )
    posted = request.POST if request.method == "POST" else None
    form = ReinstateForm(posted, disqualified=entry.status == Entry.Status.DISQUALIFIED)
    if form.is_valid():
        return _reinstate(request, tournament, entry, form.cleaned_data.get("reason", ""))
    context = {
        "tournament": tournament,
        "entry": entry,
        "standing": _standing(entry),
        "form": form,
        "next": players_return_url(request, tournament),
    }
    return render(request, "director/entry_reinstate.html", context)


def _standing(entry: Entry) -> list[Ruling]:
    """The disqualifications that reinstating `entry` reverses."""
    if entry.status != Entry.Status.DISQUALIFIED:
        return []
    return standing_disqualifications(entry=entry)


def _reinstate(
    request: HttpRequest, tournament: Tournament, entry: Entry, reason: str
) -> HttpResponse:
    reversed_ = _standing(entry)
    try:
        player_reinstate(entry=entry, by=request.user, reason=reason)
    except (RulingError, TournamentError) as error:
        messages.error(request, str(error))
    else:
        who = entry.name if entry.is_team else entry.player
        done = f"{who} is reinstated, as registered: check them in when they are here."
        if reversed_:
            numbers = ", ".join(str(ruling.pk) for ruling in reversed_)
            done += f" Their disqualification (ruling {numbers}) is reversed (R12.4)."
        messages.success(request, done)
    return redirect(players_return_url(request, tournament))
