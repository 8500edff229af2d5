"""Tournament pages: the public list, and the director's set-up, players and audit log.

Director pages are plain forms (they work without JavaScript): a POST calls one service and
redirects with a message (POST-redirect-GET); a refusal is shown on the form or as a message.
Only the tournament's own directors get past `tournament_for_director`; anyone else sees a 404.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.forms import BooleanField
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

import games
from clubs.permissions import directed_clubs
from director.ruleset_forms import RulesetForm
from director.tournament_forms import (
    EntryFilterForm,
    ImportForm,
    PairingRefusalForm,
    PlayerForm,
    RulesPicker,
    TeamForm,
    TournamentForm,
    tournament_initial,
)
from games.base import Game, RulesError, RulesetInvalid
from tournament import selectors, services
from tournament.models import DEFAULT_GAME, Entry, Tournament
from tournament.permissions import may_create_tournaments, tournament_for_director

AUDIT_PAGE_SIZE = 50
DirectorView = Callable[..., HttpResponse]


@login_required
def director_home(request: HttpRequest) -> HttpResponse:
    """The tournaments and clubs this director runs; others' are not shown."""
    context = {
        "tournaments": selectors.tournament_list_for_director(user=request.user),
        "may_create": may_create_tournaments(request.user),
        "clubs": list(directed_clubs(request.user).prefetch_related("seasons")),
    }
    return render(request, "director/director_home.html", context)


def director_page(view: DirectorView) -> DirectorView:
    """Signed in, and a director of the tournament in the address (404 for anyone else's)."""

    @login_required
    @wraps(view)
    def page(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        return view(request, tournament_for_director(request.user, slug), **kwargs)

    return page


# Set-up


@dataclass(frozen=True, slots=True)
class ShownRules:
    """The rules whose settings the set-up page shows: ``key`` is ``"stored"`` (the tournament's
    own ruleset) or ``"game:preset"``; ``stored`` the whole ruleset (``Game.dump``) and
    ``request`` the same as a request (its preset and the settings that differ)."""

    key: str
    game: Game[Any]
    stored: dict[str, Any]
    request: dict[str, Any]

    def words(self) -> tuple[str, ...]:
        return self.game.rules(self.game.load(self.stored)).describe()


def shown_rules(key: str, tournament: Tournament | None) -> ShownRules:
    """The rules ``key`` names; the tournament's own (or the default preset) for any other key."""
    if tournament is not None and key in ("", "stored"):
        rules = tournament.rules()
        return ShownRules(
            "stored", rules.game, tournament.ruleset, rules.game.changes(rules.ruleset)
        )
    game_key, _, preset = key.partition(":")
    try:
        game = games.get(game_key)
        ruleset = game.ruleset({"preset": preset})
    except (RulesError, RulesetInvalid):
        game = games.get(DEFAULT_GAME)
        ruleset = game.ruleset()
    preset = game.changes(ruleset)["preset"]
    return ShownRules(f"{game.key}:{preset}", game, game.dump(ruleset), {"preset": preset})


def _picker(request: HttpRequest) -> RulesPicker:
    """The game and preset picked: in the set-up form ("Show its settings", a POST that keeps
    what was typed and saves nothing), or in the address (`?rules=kalooki:club-four`)."""
    wanted = request.POST.get("picker-rules") if _showing(request) else request.GET.get("rules")
    return RulesPicker({"picker-rules": wanted} if wanted else None)


def _showing(request: HttpRequest) -> bool:
    """A POST of the set-up form that asks to show another preset's settings, not to save."""
    return request.method == "POST" and request.POST.get("show") == "rules"


def _shown_key(request: HttpRequest, picker: RulesPicker) -> str:
    """Saving: the rules the page was showing; otherwise those picked, if any."""
    if request.method == "POST" and not _showing(request):
        return request.POST.get("rules", "")
    picked = picker.picked()
    return f"{picked[0]}:{picked[1]}" if picked else request.POST.get("rules", "")


def _typed(request: HttpRequest, form_class: type[TournamentForm]) -> dict[str, Any]:
    """What was typed into the set-up fields, to show again with another preset's settings."""
    fields = form_class.base_fields
    return {
        name: (name in request.POST) if isinstance(field, BooleanField) else request.POST[name]
        for name, field in fields.items()
        if name != "rules" and (name in request.POST or isinstance(field, BooleanField))
    }


def asked_ruleset(shown: ShownRules, changes: dict[str, Any]) -> dict[str, Any]:
    """The ruleset request: the rules shown, with the settings the director changed (an object
    setting, such as the card values, only in the values changed)."""
    asked = dict(shown.request)
    for name, value in changes.items():
        merged = isinstance(value, dict) and isinstance(asked.get(name), dict)
        asked[name] = {**asked[name], **value} if merged else value
    return asked


def _set_up_context(
    form: TournamentForm, settings: RulesetForm | None, picker: RulesPicker, shown: ShownRules
) -> dict[str, Any]:
    return {
        "form": form,
        "settings": settings,
        "sections": settings.sections() if settings is not None else [],
        "picker": picker,
        "shown": shown,
        "words": shown.words(),
    }


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not may_create_tournaments(request.user):
        messages.error(request, _("Ask an administrator for the right to set up tournaments."))
        return redirect("director:home")
    picker = _picker(request)
    shown = shown_rules(_shown_key(request, picker), None)
    if _showing(request):  # the preset changes: what was typed stays, nothing is checked
        form = TournamentForm(initial=_typed(request, TournamentForm) | {"rules": shown.key})
        settings = RulesetForm(None, game=shown.game, stored=shown.stored)
        return render(
            request, "director/tournament_form.html", _set_up_context(form, settings, picker, shown)
        )
    form = TournamentForm(request.POST or None, initial={"rules": shown.key})
    settings = RulesetForm(request.POST or None, game=shown.game, stored=shown.stored)
    if request.method == "POST" and form.is_valid() and settings.ready():
        rules = {"game": shown.game.key, "ruleset": asked_ruleset(shown, settings.changes())}
        try:
            tournament = services.tournament_create(by=request.user, **form.set_up(), **rules)
        except services.RulesetRefused as refusal:
            settings.show_problems(refusal.problems)
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(
                request, _("{name} is set up. Now add its players.").format(name=tournament.name)
            )
            return redirect("director:hub", slug=tournament.slug)
    context = _set_up_context(form, settings, picker, shown)
    return render(request, "director/tournament_form.html", context)


@director_page
def hub(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Everything about one tournament at a glance, with the way to each task."""
    context = {
        "tournament": selectors.tournament_counted(tournament=tournament),
        "ruleset": selectors.ruleset_summary(tournament=tournament),
        "rounds": selectors.round_list(tournament=tournament),
        "status_steps": STATUS_STEPS[tournament.status],
    }
    return render(request, "director/hub.html", context)


# The steps the hub offers from each status: (to, button, what the ticked box says).
STATUS_STEPS = {
    Tournament.Status.SETUP: [
        (
            "running",
            gettext_lazy("Set running"),
            gettext_lazy("Yes, the tournament is under way (publishing round 1 does it too)"),
        )
    ],
    Tournament.Status.RUNNING: [
        (
            "finished",
            gettext_lazy("Finish"),
            gettext_lazy("Yes, every round is locked: the standings are final"),
        ),
        (
            "setup",
            gettext_lazy("Back to setting up"),
            gettext_lazy("Yes, no round is published yet"),
        ),
    ],
    Tournament.Status.FINISHED: [
        (
            "running",
            gettext_lazy("Reopen"),
            gettext_lazy("Yes, set it running again (for another round or a late ruling)"),
        )
    ],
}


@director_page
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The set-up; the game and ruleset read-only, with the reason, once they are frozen."""
    summary = selectors.ruleset_summary(tournament=tournament)
    frozen = summary.frozen_because is not None
    picker = RulesPicker(None) if frozen else _picker(request)
    shown = shown_rules("stored" if frozen else _shown_key(request, picker), tournament)
    initial = tournament_initial(tournament) | {"rules": shown.key}
    if _showing(request) and not frozen:  # what was typed stays, nothing is checked or saved
        typed = initial | _typed(request, TournamentForm) | {"rules": shown.key}
        form = TournamentForm(initial=typed, tournament=tournament)
        settings = RulesetForm(None, game=shown.game, stored=shown.stored)
        context = _set_up_context(form, settings, picker, shown)
        context |= {"tournament": tournament, "ruleset": summary}
        return render(request, "director/tournament_form.html", context)
    form = TournamentForm(
        request.POST or None, initial=initial, tournament=tournament, frozen=frozen
    )
    settings = (
        None if frozen else RulesetForm(request.POST or None, game=shown.game, stored=shown.stored)
    )
    if request.method == "POST" and form.is_valid() and (settings is None or settings.ready()):
        # Only what the director changed: an untouched field is no request to change it.
        changed = {
            field: form.cleaned_data[field] for field in form.changed_data if field != "rules"
        }
        if settings is not None:
            changed |= {"game": shown.game.key, "ruleset": asked_ruleset(shown, settings.changes())}
        try:
            services.tournament_update(tournament=tournament, by=request.user, **changed)
        except services.RulesetRefused as refusal:
            settings.show_problems(refusal.problems)  # type: ignore[union-attr]
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(request, _("Saved."))
            return redirect("director:hub", slug=tournament.slug)
    context = _set_up_context(form, settings, picker, shown)
    context |= {"tournament": tournament, "ruleset": summary}
    return render(request, "director/tournament_form.html", context)


STATUS_DONE = {
    Tournament.Status.SETUP: gettext_lazy("{name} is setting up again."),
    Tournament.Status.RUNNING: gettext_lazy("{name} is running: its public pages say so."),
    Tournament.Status.FINISHED: gettext_lazy("{name} is finished: its standings are final."),
}


@require_POST
@director_page
def tournament_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Set the tournament setting up, running or finished, once the box is ticked."""
    to = request.POST.get("to", "")
    if not request.POST.get("confirm"):
        messages.error(
            request, _("Nothing was done: tick the box to confirm the change of status.")
        )
    else:
        try:
            services.tournament_status_set(tournament=tournament, to=to, by=request.user)
        except services.TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, STATUS_DONE[to].format(name=tournament.name))
    return redirect("director:hub", slug=tournament.slug)


# Players


@director_page
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every entry, with the actions each one allows; and a form to add one more (a team, in a
    game of partners, HF1.2)."""
    rounds_seated = tournament.rounds.exists()
    if services.plays_in_teams(tournament):
        return _teams(request, tournament, rounds_seated)
    form = PlayerForm(request.POST or None, rounds_seated=rounds_seated)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.player_add(tournament=tournament, by=request.user, **form.cleaned_data)
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(request, f"{entry.player} is entered.")
            return redirect(request.get_full_path())
    return render(request, "director/players.html", _players_context(request, tournament, form))


def _teams(request: HttpRequest, tournament: Tournament, rounds_seated: bool) -> HttpResponse:
    form = TeamForm(request.POST or None, rounds_seated=rounds_seated)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.team_add(
                tournament=tournament,
                by=request.user,
                name=form.cleaned_data["team_name"],
                partners=form.partners(),
                late=form.cleaned_data.get("late", False),
            )
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(request, _("Team {team} is entered.").format(team=entry.team_name))
            return redirect(request.get_full_path())
    context = _players_context(request, tournament, form) | {"teams": True}
    return render(request, "director/players.html", context)


@director_page
def team_edit(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """A team's name and partners, corrected (a seated team keeps its partners, HF1.2)."""
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )
    if not entry.is_team:
        raise Http404("This entry is a player, not a team.")
    form = TeamForm(request.POST or None, initial=TeamForm.initial_of(entry))
    if request.method == "POST" and form.is_valid():
        try:
            services.team_update(
                entry=entry,
                by=request.user,
                name=form.cleaned_data["team_name"],
                partners=form.partners(),
            )
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(request, _("Team {team} is saved.").format(team=entry.team_name))
            return _back_to_players(request, tournament)
    return _entry_form_page(request, tournament, entry, form, "director/team_edit.html")


@director_page
def pairing_refuse(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """GET: the note's form; POST: the pairing refused with the note (HF1.2), audited."""
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )
    form = PairingRefusalForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.pairing_refuse(entry=entry, by=request.user, note=form.cleaned_data["note"])
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(
                request, _("The pairing of {name} is refused (HF1.2).").format(name=entry.name)
            )
            return _back_to_players(request, tournament)
    return _entry_form_page(request, tournament, entry, form, "director/pairing_refuse.html")


def _entry_form_page(
    request: HttpRequest, tournament: Tournament, entry: Entry, form: Any, template: str
) -> HttpResponse:
    """A form about one entry, with the way back to the players page the director came from."""
    context = {
        "tournament": tournament,
        "entry": entry,
        "form": form,
        "next": players_return_url(request, tournament),
    }
    return render(request, template, context)


def _players_context(
    request: HttpRequest, tournament: Tournament, form: PlayerForm | TeamForm
) -> dict[str, Any]:
    search = EntryFilterForm(request.GET)
    wanted = search.cleaned_data if search.is_valid() else {}
    entries = selectors.entry_list(
        tournament=tournament, status=wanted.get("status", ""), search=wanted.get("q", "")
    )
    if isinstance(form, TeamForm):  # each team's partners, in one query more (HF1.2)
        entries = entries.prefetch_related("members__player")
    entries = list(entries)
    reasons = selectors.disqualification_reasons(tournament=tournament)
    for entry in entries:
        entry.reason = reasons.get(entry.pk, "")
    return {
        "tournament": selectors.tournament_counted(tournament=tournament),
        "entries": entries,
        "form": form,
        "search": search,
        "filtered": bool(wanted.get("status") or wanted.get("q")),
        "arrivals": selectors.check_in_arrivals_get(tournament=tournament),
    }


@dataclass(frozen=True, slots=True)
class EntryAction:
    """One status change as the players page offers it."""

    label: str  # the button
    question: str  # the confirmation page's heading; {player} is the player
    done: str  # the message afterwards
    change: Callable[..., Entry]
    explains: str = ""


ENTRY_ACTIONS = {
    "check-in": EntryAction(
        pgettext_lazy("director's button", "Check in"),
        gettext_lazy("Check in {player}?"),
        gettext_lazy("{player} is checked in."),
        services.entry_check_in,
    ),
    "undo-check-in": EntryAction(
        gettext_lazy("Undo check-in"),
        gettext_lazy("Undo the check-in of {player}?"),
        gettext_lazy("{player} is registered again, not checked in."),
        services.entry_undo_check_in,
        gettext_lazy("They will not be seated until they check in again."),
    ),
    "withdraw": EntryAction(
        gettext_lazy("Withdraw"),
        gettext_lazy("Withdraw {player}?"),
        gettext_lazy("{player} has withdrawn."),
        services.entry_withdraw,
        gettext_lazy(
            "They keep the scores already played and are not seated in later rounds. "
            "You can reinstate them."
        ),
    ),
}
# A disqualification is a ruling (R12.4), and reinstating a disqualified player reverses it: both
# are the scoring app's pages (`_scoring_page`).
TO_SCORING = ("disqualify", "reinstate")


@director_page
def entry_action(
    request: HttpRequest, tournament: Tournament, entry_id: int, action: str
) -> HttpResponse:
    """GET: the confirmation form; POST: the change, then back to the players list.

    A disqualification is a ruling (R12.4): it goes to the rulings page's form, filled in; a
    reinstatement goes to its own page, which reverses a disqualification's ruling."""
    chosen = ENTRY_ACTIONS.get(action)
    if chosen is None and action not in TO_SCORING:
        raise Http404("There is no such action on a player.")
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )
    if chosen is None:
        return redirect(_scoring_page(request, tournament, entry, action))
    if request.method == "POST":
        try:
            chosen.change(entry=entry, by=request.user)
        except services.TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, chosen.done.format(player=_who(entry)))
        return _back_to_players(request, tournament)
    context = {
        "tournament": tournament,
        "entry": entry,
        "action": action,
        "chosen": chosen,
        "question": chosen.question.format(player=_who(entry)),
        "next": players_return_url(request, tournament),
    }
    return render(request, "director/entry_confirm.html", context)


def _who(entry: Entry) -> str:
    return entry.name if entry.is_team else str(entry.player)


def _scoring_page(request: HttpRequest, tournament: Tournament, entry: Entry, action: str) -> str:
    if action == "disqualify":
        rulings = reverse("director:rulings", kwargs={"slug": tournament.slug})
        return f"{rulings}?kind=disqualification&entry={entry.pk}#record"
    page = reverse("director:entry-reinstate", args=[tournament.slug, entry.pk])
    return f"{page}?{urlencode({'next': players_return_url(request, tournament)})}"


@director_page
def check_in_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: how many are waiting, and the button; POST: check them all in."""
    noun = "team" if services.plays_in_teams(tournament) else "player"
    if request.method == "POST":
        count = services.entries_check_in_all(tournament=tournament, by=request.user)
        if count:
            messages.success(request, _checked_in_words(noun, count))
        else:
            messages.info(request, _nobody_waiting_words(noun))
        return _back_to_players(request, tournament)
    waiting = selectors.entry_list(tournament=tournament, status=Entry.Status.REGISTERED)
    context = {
        "tournament": tournament,
        "waiting": waiting,
        "noun": noun,
        "next": players_return_url(request, tournament),
    }
    return render(request, "director/check_in_all.html", context)


def _checked_in_words(noun: str, count: int) -> str:
    if noun == "team":
        return ngettext("Checked in {count} team.", "Checked in {count} teams.", count).format(
            count=count
        )
    return ngettext("Checked in {count} player.", "Checked in {count} players.", count).format(
        count=count
    )


def _nobody_waiting_words(noun: str) -> str:
    if noun == "team":
        return _("Nobody was waiting: no registered team is left to check in.")
    return _("Nobody was waiting: no registered player is left to check in.")


def _imported_words(tournament: Tournament, count: int) -> str:
    if services.plays_in_teams(tournament):
        return ngettext("Imported {count} team.", "Imported {count} teams.", count).format(
            count=count
        )
    return ngettext("Imported {count} player.", "Imported {count} players.", count).format(
        count=count
    )


@director_page
def players_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload or paste a CSV; on any bad row, show every problem and import nothing."""
    rounds_seated = tournament.rounds.exists()
    form = ImportForm(request.POST or None, request.FILES or None, rounds_seated=rounds_seated)
    problems: list[Any] = []
    if request.method == "POST" and form.is_valid():
        try:
            entries = services.players_import_csv(
                tournament=tournament,
                by=request.user,
                text=form.cleaned_data["csv"],
                late=form.cleaned_data.get("late", False),
            )
        except services.CsvImportRefused as refusal:
            problems = refusal.problems
            form.add_error(None, refusal.message)
        except services.TournamentError as error:
            form.refuse(error)
        else:
            messages.success(request, _imported_words(tournament, len(entries)))
            return redirect("director:players", slug=tournament.slug)
    context = {
        "tournament": tournament,
        "form": form,
        "problems": problems,
        "teams": services.plays_in_teams(tournament),
    }
    return render(request, "director/players_import.html", context)


def players_return_url(request: HttpRequest, tournament: Tournament) -> str:
    """Where to go back to: the players list as it was filtered, never another site."""
    players_url = reverse("director:players", args=[tournament.slug])
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()})
    return wanted if safe and wanted.startswith(players_url) else players_url


def _back_to_players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return HttpResponseRedirect(players_return_url(request, tournament))


# The record


@director_page
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Who did what, and when: newest first, a page at a time."""
    pages = Paginator(selectors.audit_list(tournament=tournament), AUDIT_PAGE_SIZE)
    page = pages.get_page(request.GET.get("page"))
    return render(request, "director/audit.html", {"tournament": tournament, "page": page})
