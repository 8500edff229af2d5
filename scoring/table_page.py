"""The table's private page, `/t/<token>/`: the scorekeeper's phone at the table.

Anyone holding the table's link (the QR code on its printed card) sees the seats and first dealer,
the game being played now with its cards dealt, contract and dealer (R4, R4.3), and the results
so far; and, while the set is open, enters each game's result, corrects it, confirms another
player's entry and signs the set off. Reissuing a table's token revokes the old link: it no longer
finds a table. Every page works as plain forms; static/js/table-entry.js only adds a card keypad
and a live check.

Terms
- current game: the first game of the set (1 to 9) without a scored result at the table. A void
  attempt (R9.2) scores nothing, so the same game is current again, redealt by the same dealer.
- running total: a player's total over the scored games up to and including one game (R8.6).
- preview: the result checked (R10) and scored (R8) by the rules engine, shown, not saved.
- who is entering: the seated player using the phone, picked by name and remembered in the
  session; their name goes into the via label of what they save ("table 3 link · Ann").
- version: every save of a game's result is a numbered revision; a correction is based on the
  version its author saw, so a correction saved meanwhile is never overwritten (a conflict).

The page lives in the scoring app because it reads games and hand results, which tables (a lower
layer) may not import.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games.kalooki import PRESETS, Problem, Ruleset, evaluate
from scoring.access import Access, table_access
from scoring.control import ControlError, director_call, table_live_get
from scoring.models import Game, HandResult, ResultRevision
from scoring.services import (
    CORRECTABLE_ROUNDS,
    SCOREABLE_ROUNDS,
    ResultConflict,
    ResultRefused,
    WarningsNotConfirmed,
    game_current,
    result_confirm,
    result_submit,
    table_sign_off,
)
from scoring.table_forms import (
    FIELD_BY_RULE,
    ConfirmGameForm,
    EntryFeedback,
    NameForm,
    ResultForm,
    correction_initial,
    entry_feedback,
    same_result,
)
from tables.models import Table
from tables.selectors import (
    GameLine,
    SeatLine,
    game_lines,
    seat_lines,
    seats_prefetch,
)
from tournament.models import Round


@dataclass(frozen=True)
class CurrentGame:
    """The game being played now, with who deals and who plays first (R4.3)."""

    line: GameLine  # number, cards dealt, contract and dealer
    attempt: int  # 2 after one void attempt (R9.2)
    first_player: SeatLine | None  # the dealer's left: the next seat clockwise


@dataclass(frozen=True)
class ScoreCell:
    score: int | None  # None: no result entered for this player
    running: int
    went_out: bool
    name: str = ""  # the seated player's
    cards: str = ""  # as entered (R11), when cards were entered
    calls: int | None = None


@dataclass(frozen=True)
class VersionLine:
    """One saved version of a game's result: who, when, why, and what it changed."""

    version: int
    status: str  # "Confirmed", "Awaiting confirmation", "Superseded"
    entered_by: str
    entered_at: datetime.datetime
    reason: str
    changes: list[str]
    confirmed_by: str
    confirmed_at: datetime.datetime | None


@dataclass(frozen=True)
class GameResult:
    """One played game or void attempt at the table, a cell per seat in seat order."""

    number: int
    attempt: int
    is_void: bool
    down_and_out: bool
    is_pending: bool  # awaiting a second person's confirmation
    is_flagged: bool
    line: GameLine
    cells: list[ScoreCell]
    game_id: int = 0
    version: int = 1
    warnings: tuple[str, ...] = ()
    history: tuple[VersionLine, ...] = ()
    entry: dict[str, Any] | None = None  # the latest version as submitted, hands by entry id

    @property
    def latest(self) -> VersionLine | None:
        return self.history[-1] if self.history else None


@dataclass(frozen=True)
class TablePage:
    table: Table
    seats: list[SeatLine]
    games: list[GameLine]
    current: CurrentGame | None  # None once all nine games are scored
    results: list[GameResult]
    totals: list[int]
    games_scored: int
    ruleset: Ruleset  # the tournament's own (R1-R12)

    @property
    def seat_totals(self) -> list[tuple[SeatLine, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def leaders(self) -> list[SeatLine]:
        """The players with the lowest total so far (R4.1: lowest wins the set)."""
        if not self.games_scored:
            return []
        low = min(self.totals)
        return [seat for seat, total in zip(self.seats, self.totals, strict=True) if total == low]

    @property
    def is_signed_off(self) -> bool:
        return self.table.is_signed_off()

    @property
    def is_open(self) -> bool:
        """Results may be entered and corrected: the round is in play and the set not signed off
        (a complete round may still be corrected until the director locks it, R12.4)."""
        return not self.is_signed_off and self.table.round.status in CORRECTABLE_ROUNDS

    @property
    def takes_new_results(self) -> bool:
        scoreable = self.table.round.status in SCOREABLE_ROUNDS
        return scoreable and not self.is_signed_off and self.current is not None

    @property
    def pending(self) -> list[GameResult]:
        return [result for result in self.results if result.is_pending]

    @property
    def can_sign_off(self) -> bool:
        return self.is_open and self.current is None and not self.pending

    def scored(self, number: int) -> GameResult | None:
        """The scored (not void) result of game `number`, if there is one."""
        return next((r for r in self.results if r.number == number and not r.is_void), None)


def table_page_get(*, token: str) -> TablePage:
    """The table with this private token and its set so far; `Table.DoesNotExist` if none.

    Five queries (table with round and tournament, seats with players, games, hands, versions)
    for any number of games and players.
    """
    revisions = ResultRevision.objects.order_by("version").select_related(
        "entered_by", "confirmed_by"
    )
    games = Prefetch(
        "games",
        queryset=Game.objects.order_by("number", "attempt").prefetch_related(
            Prefetch("hands", queryset=HandResult.objects.order_by("entry_id")),
            Prefetch("revisions", queryset=revisions),
        ),
    )
    table = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(seats_prefetch(), games)
        .get(access_token=token)
    )
    seats = seat_lines(table)
    ruleset = table.round.tournament.rules()
    lines = game_lines(seats, ruleset.games)
    played = list(table.games.all())
    results, totals = _results(played, seats, lines)
    scored = {game.number for game in played if not game.is_void}
    return TablePage(
        table=table,
        seats=seats,
        games=lines,
        current=_current(played, seats, lines, scored),
        results=results,
        totals=totals,
        games_scored=len(scored),
        ruleset=ruleset,
    )


def _current(
    played: list[Game], seats: list[SeatLine], lines: list[GameLine], scored: set[int]
) -> CurrentGame | None:
    line = next((line for line in lines if line.number not in scored), None)
    if line is None:
        return None
    voids = sum(1 for game in played if game.number == line.number and game.is_void)
    first_player = None
    if line.dealer is not None:
        first_player = seats[(seats.index(line.dealer) + 1) % len(seats)]
    return CurrentGame(line=line, attempt=voids + 1, first_player=first_player)


def _results(
    played: list[Game], seats: list[SeatLine], lines: list[GameLine]
) -> tuple[list[GameResult], list[int]]:
    """A row per game or void attempt, in order, with each seat's score and running total."""
    by_number = {line.number: line for line in lines}
    totals = [0] * len(seats)
    results = []
    for game in played:
        hands = {hand.entry_id: hand for hand in game.hands.all()}
        cells = []
        for i, seat in enumerate(seats):
            hand = None if game.is_void else hands.get(seat.entry_id)
            totals[i] += hand.total if hand else 0
            cells.append(_cell(seat, hand, totals[i]))
        revisions = list(game.revisions.all())
        results.append(
            GameResult(
                number=game.number,
                attempt=game.attempt,
                is_void=game.is_void,
                down_and_out=game.down_and_out,
                is_pending=game.status == Game.Status.PENDING,
                is_flagged=game.is_flagged,
                line=by_number[game.number],
                cells=cells,
                game_id=game.pk,
                version=game.version,
                warnings=tuple(w.get("message", "") for w in game.warnings or []),
                history=_history(revisions),
                entry=revisions[-1].entry if revisions else None,
            )
        )
    return results, list(totals)


def _cell(seat: SeatLine, hand: HandResult | None, running: int) -> ScoreCell:
    if hand is None:
        return ScoreCell(score=None, running=running, went_out=False, name=seat.name)
    return ScoreCell(
        score=hand.total,
        running=running,
        went_out=hand.went_out,
        name=seat.name,
        cards=hand.cards,
        calls=hand.calls,
    )


# --- history: what each version changed ---------------------------------------------------------

HAND_FIELDS = (
    ("went_out", "went out"),
    ("cards", "cards"),
    ("points", "points"),
    ("calls", "calls"),
    ("failed_come_downs", "failed come-downs"),
    ("overcall_penalty", "overcall penalty"),
)


def _history(revisions: list[ResultRevision]) -> tuple[VersionLine, ...]:
    lines = []
    for before, after in zip([None, *revisions], revisions, strict=False):
        lines.append(
            VersionLine(
                version=after.version,
                status=after.get_status_display(),
                entered_by=_who(after.entered_via, after.entered_by),
                entered_at=after.entered_at,
                reason=after.reason,
                changes=_changes(before, after),
                confirmed_by=_who(after.confirmed_via, after.confirmed_by)
                if after.confirmed_at
                else "",
                confirmed_at=after.confirmed_at,
            )
        )
    return tuple(lines)


def _who(via: str, user: Any) -> str:
    name = user.get_username() if user is not None else ""
    return via if not name or name in via else f"{via} ({name})"


def _changes(before: ResultRevision | None, after: ResultRevision) -> list[str]:
    """What `after` changed from `before`, one line per player: "Ben: cards KH → 3C, 10 → 3"."""
    if before is None:
        return [_summary(after)]
    changes = []
    if bool(before.entry.get("down_and_out")) != bool(after.entry.get("down_and_out")):
        changes.append(
            f"down and out: {_word(before.entry.get('down_and_out'))} → "
            f"{_word(after.entry.get('down_and_out'))}"
        )
    old_hands = {_hand_key(h): h for h in before.entry.get("hands", [])}
    old_totals, new_totals = _totals(before), _totals(after)
    for hand in after.entry.get("hands", []):
        old = old_hands.get(_hand_key(hand), {})
        parts = [
            f"{words} {_word(old.get(key))} → {_word(hand.get(key))}"
            for key, words in HAND_FIELDS
            if _norm(old.get(key)) != _norm(hand.get(key))
        ]
        player = hand.get("player", "?")
        if old_totals.get(player) != new_totals.get(player):
            parts.append(f"score {old_totals.get(player, '–')} → {new_totals.get(player, '–')}")
        if parts:
            changes.append(f"{player}: {', '.join(parts)}")
    return changes or ["nothing in the result changed"]


def _summary(revision: ResultRevision) -> str:
    if revision.entry.get("void"):
        return "entered as void (R9.2)"
    totals = ", ".join(f"{player} {total}" for player, total in _totals(revision).items())
    return f"entered: {totals}" if totals else "entered"


def _totals(revision: ResultRevision) -> dict[str, int]:
    return {score["player"]: score["total"] for score in revision.scores or []}


def _hand_key(hand: dict[str, Any]) -> Any:
    return hand.get("entry", hand.get("entry_id", hand.get("player")))


def _norm(value: Any) -> Any:
    return " ".join(value.upper().split()) if isinstance(value, str) else value or None


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "–"
    return str(value)


# --- the views ------------------------------------------------------------------------------------


def _page_or_404(token: str) -> TablePage:
    try:
        return table_page_get(token=token)
    except Table.DoesNotExist:
        raise Http404(
            "No table has this link. It may have been reissued: ask the director for the new one."
        ) from None


def _access(request: HttpRequest, page: TablePage, token: str) -> Access:
    """The token in the path is the key to its table, and to nothing else."""
    access = table_access(request, page.table, link_token=token)
    if not access.can_write:  # cannot happen for a token that found its table; kept as a guard
        raise Http404("No table has this link.")
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


def _live_config(page: TablePage) -> dict[str, Any]:
    """What the keypad and the live check need: card values, deck limits, the API."""
    ruleset = page.ruleset
    preset = next((key for key, rules in PRESETS.items() if rules == ruleset), None)
    return {
        "api": reverse("rules-game"),
        "ruleset": preset,  # None: a ruleset of its own, checked by the server's preview only
        "values": ruleset.card_values.to_dict(),
        "max_copies": ruleset.max_copies,
        "jokers": ruleset.jokers,
        "field_by_rule": FIELD_BY_RULE,
    }


def _render(request: HttpRequest, template: str, page: TablePage, **context: Any) -> HttpResponse:
    context = {
        "page": page,
        "table_live": table_live_get(table=page.table),
        "live": _live_config(page),
        "name_choices": [(seat.entry_id, seat.name) for seat in page.seats],
        "who": _remembered(request, page),
        **context,
    }
    return _private(render(request, template, context))


def _new_form(request: HttpRequest, page: TablePage) -> ResultForm | None:
    if not page.takes_new_results or page.current is None:
        return None
    initial = {
        "game": page.current.line.number,
        "attempt": page.current.attempt,
        "who": _remembered(request, page),
    }
    return ResultForm(seats=page.seats, initial=initial)


@never_cache
def table_link(request: HttpRequest, token: str) -> HttpResponse:
    """The table's page: seats, the game now played, the entry form, results so far. A POST
    previews (`action=preview`) or saves (`action=save`) the current game's result."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    if request.method != "POST":
        form = _new_form(request, page)
        feedback = entry_feedback(form) if form else None
        return _render(request, "scoring/table_link.html", page, form=form, feedback=feedback)
    if not page.takes_new_results:
        messages.error(request, _closed_message(page))
        return HttpResponseRedirect(_link(page))
    form = ResultForm(request.POST, seats=page.seats)
    return _result_post(request, page, access, form, "scoring/table_link.html")


@never_cache
def table_correct(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Correct a scored game: the same form, filled with the stored entry, saved as a new
    version based on the one shown (R12.4: only until the round is locked)."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    result = page.scored(number)
    if result is None:
        raise Http404(f"Game {number} has no result at this table yet: nothing to correct.")
    if not page.is_open:
        messages.error(request, _closed_message(page))
        return HttpResponseRedirect(_link(page, f"game-{number}"))
    if request.method == "POST":
        form = ResultForm(request.POST, seats=page.seats, correcting=True, number=number)
        return _result_post(
            request, page, access, form, "scoring/table_correct.html", result=result
        )
    game, rows = correction_initial(result.entry or {})
    initial = {**game, "game": number, "base_version": result.version}
    initial["who"] = _remembered(request, page)
    form = ResultForm(
        seats=page.seats, correcting=True, number=number, initial=initial, row_initial=rows
    )
    return _render(
        request,
        "scoring/table_correct.html",
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
        return _render(request, template, page, form=form, feedback=_preview(form, page), **context)
    via = access.via(_name(page, data["who"]))
    voided = _voided_meanwhile(page, data)
    if voided is not None:
        return _conflict(request, page, form, via, voided)
    try:
        outcome = result_submit(
            table=page.table,
            number=data["game"],
            hands=form.hands(),
            down_and_out=data["down_and_out"],
            void=data["void"],
            by=access.user,
            via=via,
            confirm_warnings=data["confirm_warnings"],
            base_version=data["base_version"],
            reason=data["reason"],
        )
    except ResultConflict as conflict:
        return _conflict(request, page, form, via, conflict.game)
    except ResultRefused as refused:
        feedback = _refusal(form, page, refused)
        return _render(request, template, page, form=form, feedback=feedback, **context)
    messages.success(request, _saved_message(outcome.game, outcome.created))
    anchor = "now" if outcome.created else f"game-{outcome.game.number}"
    return HttpResponseRedirect(_link(page, anchor))


def _preview(form: ResultForm, page: TablePage) -> EntryFeedback:
    check, score = evaluate(form.entry(), page.ruleset)
    return entry_feedback(form, check.errors, check.warnings, score.scores if score else ())


def _refusal(form: ResultForm, page: TablePage, refused: ResultRefused) -> EntryFeedback:
    """The service's problems next to their fields, with the engine's scores when it has some."""
    check, score = evaluate(form.entry(), page.ruleset)
    errors: tuple[Problem, ...] = (
        () if isinstance(refused, WarningsNotConfirmed) else refused.problems
    )
    warnings = refused.warnings or check.warnings
    return entry_feedback(form, errors, warnings, score.scores if score and not errors else ())


def _voided_meanwhile(page: TablePage, data: dict[str, Any]) -> Game | None:
    """The void attempt recorded since this form was opened for game `data["game"]`, if any: the
    form's result belongs to an attempt that is over (R9.2), so it must not be saved as the next."""
    current, attempt = page.current, data.get("attempt")
    if current is None or attempt is None or current.line.number != data["game"]:
        return None  # a correction, or a game that is not current any more: the service decides
    if attempt >= current.attempt:
        return None
    return page.table.games.filter(number=data["game"], attempt=attempt, is_void=True).first()


def _conflict(
    request: HttpRequest, page: TablePage, form: ResultForm, via: str, stored_game: Game
) -> HttpResponse:
    """Someone else saved first: say so, and show what is stored now (nothing is overwritten).
    The same phone sending the same result again (a double tap, a retry) is told it is saved."""
    number = stored_game.number
    latest = stored_game.revisions.order_by("-version").first()
    if latest is not None and latest.entered_via == via and same_result(latest.entry, form):
        messages.success(request, _saved_message(stored_game, latest.version == 1))
        return HttpResponseRedirect(_link(page, "now" if latest.version == 1 else f"game-{number}"))
    page = _page_or_404(page.table.access_token)
    stored = next((r for r in page.results if r.game_id == stored_game.pk), None)
    messages.error(
        request,
        f"Someone else saved game {number} first: your entry was not saved. The stored result "
        "is shown below; if it is wrong, correct it.",
    )
    form = _new_form(request, page)
    return _render(
        request,
        "scoring/table_link.html",
        page,
        form=form,
        feedback=entry_feedback(form) if form else None,
        stored=stored,
    )


def _saved_message(game: Game, created: bool) -> str:
    if game.is_void:
        return (
            f"Game {game.number} is recorded as void (R9.2): nobody scores, and the same dealer "
            "deals it again."
        )
    text = (
        f"Game {game.number} is saved."
        if created
        else (f"Game {game.number} is corrected: this is version {game.version}.")
    )
    if game.status == Game.Status.PENDING:
        text += " It counts once another player at the table confirms it."
    if game.is_flagged:
        text += " It is flagged for the director because of the warnings you confirmed."
    return text


def _closed_message(page: TablePage) -> str:
    if page.is_signed_off:
        return f"{page.table} has signed its set off: its results can no longer be changed here."
    status = page.table.round.status
    if status == Round.Status.DRAFT:
        return "This round is still a draft: results can be entered once it is published."
    if status == Round.Status.LOCKED:
        return "This round is locked: only a director's ruling can change a score (R12.4)."
    if page.current is None:
        return "All nine games are scored: correct a game, or sign the set off."
    return "No result can be entered here now."


@never_cache
@require_POST
def table_confirm(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """A second person at the table confirms a pending result; never its own enterer."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    form = ConfirmGameForm(request.POST, seats=page.seats, label="Who is confirming?")
    if not form.is_valid():
        messages.error(request, f"Game {number} is not confirmed: choose your name first.")
        return HttpResponseRedirect(_link(page, "pending"))
    who = form.cleaned_data["who"]
    _remember(request, page, who)
    game = game_current(table=page.table, number=number)
    if game is None:
        raise Http404(f"Game {number} has no result at this table.")
    try:
        result_confirm(
            game=game,
            by=access.user,
            via=access.via(_name(page, who)),
            base_version=form.cleaned_data["version"],
        )
    except (ResultConflict, ResultRefused) as refused:
        messages.error(request, f"Game {number} is not confirmed: {refused}")
    else:
        messages.success(request, f"Game {number} is confirmed by {_name(page, who)}.")
    return HttpResponseRedirect(_link(page, "pending"))


@never_cache
@require_POST
def table_sign_off_view(request: HttpRequest, token: str) -> HttpResponse:
    """The table signs its finished set off: its results are final at the table (R4.1)."""
    page = _page_or_404(token)
    access = _access(request, page, token)
    form = NameForm(request.POST, seats=page.seats, label="Signed off by")
    if not form.is_valid():
        messages.error(request, "The set is not signed off: choose your name first.")
        return HttpResponseRedirect(_link(page, "sign-off"))
    who = form.cleaned_data["who"]
    _remember(request, page, who)
    name = _name(page, who)
    try:
        table_sign_off(table=page.table, by=access.user, via=access.via(name), signer=name)
    except ResultRefused as refused:
        messages.error(request, f"The set is not signed off: {refused}")
    else:
        messages.success(request, f"The set is signed off by {name}. Thank you!")
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
        messages.error(request, str(error))
    else:
        called = f"{timezone.localtime(outcome.call.called_at):%H:%M}"
        messages.success(
            request,
            "The director is called: stay at the table, they will come."
            if outcome.created
            else f"The director was called already at {called}: they will come.",
        )
    return HttpResponseRedirect(_link(page, "director"))


@require_safe
def table_live(request: HttpRequest, token: str) -> HttpResponse:
    """The table page's clock and call, for its script: a 304 while neither changed."""
    table = Table.objects.filter(access_token=token).only("pk", "round_id").first()
    if table is None:
        raise Http404("No table has this link.")
    live = table_live_get(table=table)
    etag = f'"{live.stamp}"'
    if get_conditional_response(request, etag=etag) is not None:
        return _private(_stamped(HttpResponseNotModified(), etag))
    response = render(request, "scoring/_table_live.html", {"table_live": live, "token": token})
    return _private(_stamped(response, etag))


def _stamped(response: HttpResponse, etag: str) -> HttpResponse:
    response.headers["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response
