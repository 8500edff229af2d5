"""Writes to deals and results: the one adapter between the database and a game's rules.

Each use case builds the game's entry (``games.base.DealReport``) from the table's seats and what
the scorekeeper sent, asks the game to check and score it (``Rules.evaluate``), and saves the
outcome with a new **revision**, in one transaction that locks the table's row, so two
phones at one table are served one after the other. The game says which deal comes next
(``Rules.next_deal``) and when the match is over (``Rules.match_over``); a void deal (Kalooki
R9.2) is stored as an attempt and the same number is dealt again.

- `result_record`: enter the next deal's result (or a void attempt).
- `result_submit`: what a client sends: a new result, or a **correction** of a stored one based on
  the **version** the client saw; a stale version is a `ResultConflict` carrying the stored deal.
- `result_confirm`: a second person confirms a result, when the tournament asks for it.
- `table_sign_off`: the table signs its finished match off; after that only a ruling changes it.

A side's input is generic (`SideInput`: per-side values and per-member values, keyed by the
game's field names); `HandInput` is the per-seat Kalooki shape that tests and the demo use.
A refusal raises `ResultRefused` carrying the problems, each citing its rule where one applies
and saying where a form should show it (`field`, `side`, `member`). Nothing is overwritten:
every version stays as a `ResultRevision` (who, when, what, why).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.base import DealReport, DealScore, Evaluation, Problem, Rules, SideReport
from scoring.matches import (
    deal_noun,
    deal_title,
    match_noun,
    played,
    said_noun,
    said_progress,
    said_title,
    seated_as_shaped,
    sides_of,
)
from scoring.models import Deal, DealResult, ResultRevision
from scoring.standings_queue import standings_changed
from scoring.store import store
from tables.models import Seat, Table
from tournament.models import Round, Tournament


class ResultRefused(Exception):
    """The result cannot be saved; `problems` say why, each with its rule."""

    def __init__(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()) -> None:
        self.problems = tuple(problems)
        self.warnings = tuple(warnings)
        super().__init__("; ".join(problem.message for problem in self.problems))


class WarningsNotConfirmed(ResultRefused):
    """The result raised warnings (R10.6, R10.7) that the scorekeeper has not confirmed."""


def _refused(message: str, rule: str = "", **where: Any) -> ResultRefused:
    """A refusal that is not the game's; `rule` is empty where no rule applies (a setting)."""
    return ResultRefused([Problem(rule, message, **where)])


class ResultConflict(Exception):
    """Someone else saved first, or the deal changed since the version the client saw.

    `deal` is the stored deal, so the client can show it instead of its own."""

    def __init__(self, deal: Deal, message: str) -> None:
        self.deal = deal
        super().__init__(message)


@dataclass(frozen=True)
class ResultOutcome:
    deal: Deal
    created: bool


@dataclass(frozen=True)
class SideInput:
    """One side's part of a deal as a scorekeeper enters it: the side named by the entry id of
    any of its members, its SIDE ``values`` and, per member in seat order, the MEMBER values,
    each keyed by the game's field names (``Rules.fields``)."""

    entry_id: int
    values: Mapping[str, Any] = field(default_factory=dict)
    members: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class HandInput:
    """One seated Kalooki player's result, per seat (see the game's side fields): a convenience
    for tests, the demo and the Kalooki-shaped forms; `side()` is what the adapter takes."""

    entry_id: int
    went_out: bool = False
    cards: str | None = None
    points: int | None = None
    calls: int | None = None
    failed_come_downs: int = 0
    overcall_penalty: bool = False
    challenge: str | None = None  # R13.9, only under a ruleset with the 18-card challenge

    def side(self) -> SideInput:
        values: dict[str, Any] = {
            "went_out": self.went_out,
            "cards": self.cards,
            "points": self.points,
            "calls": self.calls,
            "failed_come_downs": self.failed_come_downs,
            "overcall_penalty": self.overcall_penalty,
        }
        if self.challenge:
            values["challenge"] = self.challenge
        return SideInput(self.entry_id, values)


SCOREABLE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
CORRECTABLE_ROUNDS = (*SCOREABLE_ROUNDS, Round.Status.COMPLETE)
PLAYED_ROUNDS = (Round.Status.IN_PLAY, Round.Status.COMPLETE, Round.Status.LOCKED)


@dataclass(frozen=True)
class LockedTable:
    """A table as a result service finds it under its lock: the seats and every deal attempt
    with its results, each read once per call. Its rules and sides are worked out once (the
    table's tournament and seats do not change under the lock)."""

    table: Table
    seats: list[Seat]
    deals: list[Deal]

    @cached_property
    def rules(self) -> Rules[Any]:
        return self.table.round.tournament.rules()

    @cached_property
    def sides(self) -> list[tuple[Seat, ...]]:
        return sides_of(self.rules, self.seats)

    @cached_property
    def entry_ids(self) -> list[int]:
        """Each side's entry, in side order: the entry its results are stored under."""
        return [side[0].entry_id for side in self.sides]

    def played(self, before: int | None = None) -> list[DealScore]:
        """The deals entered so far as the game scored them (only those numbered before
        `before`, when given: what a deal's checks may depend on)."""
        return [s for s in self._played if before is None or s.number < before]

    @cached_property
    def _played(self) -> list[DealScore]:
        return played(self.deals)

    def numbers(self) -> set[int]:
        return {deal.number for deal in self.deals if not deal.is_void}

    def scored(self, number: int) -> Deal | None:
        return next((d for d in self.deals if d.number == number and not d.is_void), None)

    def next_attempt(self, number: int) -> int:
        return 1 + max((d.attempt for d in self.deals if d.number == number), default=0)


def _deal_values(
    values: Mapping[str, Any] | None, down_and_out: bool, void: bool
) -> dict[str, Any]:
    """The DEAL values; `down_and_out` and `void` are Kalooki's flags (R8.3, R9.2), kept as
    keywords for its callers, and sent only when set so that other games never see them."""
    deal = dict(values or {})
    if down_and_out:
        deal["down_and_out"] = True
    if void:
        deal["void"] = True
    return deal


@transaction.atomic
def result_record(
    *,
    table: Table,
    number: int,
    sides: Sequence[SideInput | HandInput] = (),
    hands: Sequence[HandInput] = (),
    values: Mapping[str, Any] | None = None,
    down_and_out: bool = False,
    void: bool = False,
    by: AbstractBaseUser | None = None,
    via: str,
    confirm_warnings: bool = False,
) -> Deal:
    """Record the result of deal `number` at `table` (a void attempt when the game scores it
    void, Kalooki R9.2). `sides` (or Kalooki's `hands`) name each side by an entry id."""
    locked = _locked(table)
    inputs = _side_inputs([*sides, *hands])
    deal_values = _deal_values(values, down_and_out, void)
    return _create(locked, number, deal_values, inputs, by, via, confirm_warnings)


def result_submit(
    *,
    table: Table | LockedTable,
    number: int,
    sides: Sequence[SideInput | HandInput] = (),
    hands: Sequence[HandInput] = (),
    values: Mapping[str, Any] | None = None,
    down_and_out: bool = False,
    void: bool = False,
    by: AbstractBaseUser | None = None,
    via: str,
    confirm_warnings: bool = False,
    base_version: int | None = None,
    reason: str = "",
) -> ResultOutcome:
    """Save deal `number` as a client sent it: a new result, or a correction of the stored one
    when `base_version` names the version the client corrected. `table` may be locked already
    (`table_lock`): then its transaction is the caller's, without a savepoint of its own (a
    refusal undoes the caller's transaction, as the API's is). Inside the store's `batched()`
    the rows are stored when that block ends, with what the caller inserts after (the API's
    idempotency record)."""
    with transaction.atomic(savepoint=not isinstance(table, LockedTable)):
        return _submit(
            _locked(table), number, [*sides, *hands], values, down_and_out, void, by, via,
            confirm_warnings, base_version, reason,
        )  # fmt: skip


def _submit(
    locked: LockedTable,
    number: int,
    given: Sequence[SideInput | HandInput],
    values: Mapping[str, Any] | None,
    down_and_out: bool,
    void: bool,
    by: AbstractBaseUser | None,
    via: str,
    confirm_warnings: bool,
    base_version: int | None,
    reason: str,
) -> ResultOutcome:
    inputs = _side_inputs(given)
    deal_values = _deal_values(values, down_and_out, void)
    current = locked.scored(number)
    if current is None:
        if base_version:
            title = deal_title(locked.rules, number)
            raise _refused(
                gettext("{title} has no result to correct: enter it instead").format(
                    title=said_title(title)
                ),
                locked.rules.cites("order"),
            )
        deal = _create(locked, number, deal_values, inputs, by, via, confirm_warnings)
        return ResultOutcome(deal, True)
    _check_base_version(locked.rules, current, base_version)
    deal = _correct(locked, current, deal_values, inputs, by, via, confirm_warnings, reason)
    return ResultOutcome(deal, False)


def deal_current(*, table: Table, number: int) -> Deal | None:
    """The scored (not void) attempt of deal `number` at `table`, if it has been entered."""
    return table.deals.filter(number=number, is_void=False).first()


def _side_inputs(inputs: Sequence[SideInput | HandInput]) -> list[SideInput]:
    return [item.side() if isinstance(item, HandInput) else item for item in inputs]


def _lock(table: Table) -> Table:
    """The table's row, locked until the transaction ends, with its round and tournament.

    Results at one table are served one after the other. Only the table's row is locked: the
    tables of a round save their results in parallel. The round's row is locked in share mode
    (where the database has share locks), so a round step (completing or locking it, R12.4)
    waits for the results in flight, and none is saved into a round that was locked meanwhile.
    Every caller takes the round's lock before the table's, so that no two wait for each other.
    """
    _start_round(table)
    return store().lock_table(table.pk)


def _start_round(table: Table) -> None:
    """The first result at any table puts a published round in play, as `round_start` would.

    It locks the round's row until the transaction ends (undone with it if the result is
    refused); results at the round's other tables wait for it only this once. Taking the round
    in share mode first and updating it later could deadlock two tables' first results.
    """
    if Table.round.is_cached(table) and table.round.status in PLAYED_ROUNDS:
        return  # no round goes back to published once played
    # The status is checked on the round's own row (not in a subquery), so a round taken back
    # to draft meanwhile is seen as a draft once its lock is released.
    published = Round.objects.filter(pk=table.round_id, status=Round.Status.PUBLISHED)
    published.update(status=Round.Status.IN_PLAY)


def table_lock(table: Table, *, read_now: bool = False) -> LockedTable:
    """The table locked until the transaction ends (`_lock`), with its seats and deal attempts:
    for a caller that needs the seats before it calls `result_submit` (to find players by
    seat), so that both read them once, under the lock. The seats are also prefetched on the
    locked table (`tables.selectors.seats_prefetch`). `read_now`: the caller read `table` with
    its round and tournament in this same request (the API, by the table's link), and the lock
    keeps that tournament instead of reading it again: a result does not lock the tournament's
    row, so a read a moment earlier is as good, and its game and ruleset do not change once a
    round exists (`tournament_update`)."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("Lock a table inside a transaction.")
    return _locked(table, table.round.tournament if read_now else None)


def _locked(table: Table | LockedTable, tournament: Tournament | None = None) -> LockedTable:
    """The table locked (`_lock`), with its seats and deal attempts and their results, as the
    store reads them; as it is when the caller locked it already (`table_lock`); its
    `tournament` as the caller has it, if given."""
    if isinstance(table, LockedTable):
        return table
    _start_round(table)
    table, seats, deals = store().lock_table_with_seats(table.pk, tournament)
    for deal in deals:
        deal.table = table
    return LockedTable(table, seats, deals)


def _create(
    locked: LockedTable,
    number: int,
    values: dict[str, Any],
    inputs: Sequence[SideInput],
    by: AbstractBaseUser | None,
    via: str,
    confirm_warnings: bool,
) -> Deal:
    table = locked.table
    _check_table_open(locked, number)
    evaluation = _evaluated(locked, number, values, inputs, confirm_warnings)
    deal = _save_deal(locked, number, evaluation, by, via)
    standings_changed(table.round.tournament_id)
    return deal


def _evaluated(
    locked: LockedTable,
    number: int,
    values: dict[str, Any],
    inputs: Sequence[SideInput],
    confirm_warnings: bool,
) -> Evaluation:
    """The game's answer to the entry built from the table's sides; refused if it must be."""
    _check_seated(locked)
    entry, missing = _deal_report(locked, number, values, inputs)
    evaluation = locked.rules.evaluate(entry, locked.played(before=number))
    score = evaluation.score
    if missing and not (score is not None and score.void):
        raise _missing(locked, missing)
    _refuse_if_needed(evaluation, confirm_warnings)
    return evaluation


def _check_seated(locked: LockedTable) -> None:
    """A table whose seats the game cannot read as its sides takes no result."""
    if not seated_as_shaped(locked.rules, len(locked.seats)):
        shape = locked.rules.shape()
        raise _refused(
            gettext(
                "{table} has {seats} seats: {game} is played by {least} to {most} sides of "
                "{members}; seat the table again"
            ).format(
                table=locked.table,
                seats=len(locked.seats),
                game=locked.rules.game.name,
                least=shape.min_sides,
                most=shape.max_sides,
                members=shape.members,
            )
        )


def _missing(locked: LockedTable, missing: list[int]) -> ResultRefused:
    labels = _labels(locked)
    names = [labels[index] for index in missing]
    who = "player" if locked.rules.shape().members == 1 else "team"
    return ResultRefused(
        [
            Problem(
                "",
                (
                    gettext("No result for {names}: every player at the table needs one")
                    if who == "player"
                    else gettext("No result for {names}: every team at the table needs one")
                ).format(names=", ".join(names)),
                player=names[0],
                side=missing[0],
            )
        ]
    )


def _check_base_version(rules: Rules[Any], deal: Deal, base_version: int | None) -> None:
    title = deal_title(rules, deal.number)
    if base_version is None:
        raise ResultConflict(
            deal,
            gettext(
                "{title} was saved meanwhile (version {version}): here is the stored result; "
                "correct it if it is wrong"
            ).format(title=said_title(title), version=deal.version),
        )
    if base_version != deal.version:
        raise ResultConflict(
            deal,
            gettext(
                "{title} changed since you opened it (you had version {base}, it is now "
                "version {version}): here is the stored result"
            ).format(title=said_title(title), base=base_version, version=deal.version),
        )


def _check_table_open(locked: LockedTable, number: int) -> None:
    """A new result: the round is being played, the match is not signed off, and the deal is
    the one the game says comes next."""
    table, round, rules = locked.table, locked.table.round, locked.rules
    if round.status not in SCOREABLE_ROUNDS:
        state = round.get_status_display().lower()
        raise _refused(
            gettext(
                "Round {number} is {state}: no result can be entered; only a director ruling "
                "changes a score"
            ).format(number=round.number, state=state),
            rules.cites("ruling"),
        )
    _check_not_signed_off(table, rules)
    title = deal_title(rules, number)
    if number in locked.numbers():
        raise _refused(
            gettext(
                "{title} at {table} is already recorded; correct it instead of entering it again"
            ).format(title=said_title(title), table=table),
            rules.cites("order"),
        )
    expected = rules.next_deal(locked.played(), time_called=table.time_called)
    if expected is None and table.time_called:
        raise _refused(
            gettext(
                "{title} cannot be entered: time was called at {table} after {progress}: the "
                "{match} is over"
            ).format(
                title=said_title(title),
                table=table,
                progress=said_progress(rules, len(locked.numbers())),
                match=said_noun(match_noun(rules)),
            ),
            rules.cites("order"),
        )
    if expected is None:
        raise _refused(
            gettext(
                "{title} cannot be entered: the {match} at {table} is over ({progress} played)"
            ).format(
                title=said_title(title),
                match=said_noun(match_noun(rules)),
                table=table,
                progress=said_progress(rules, len(locked.numbers())),
            ),
            rules.cites("order"),
        )
    if number != expected:
        noun = deal_noun(rules, 2)
        raise _refused(
            gettext(
                "{title} cannot be entered yet: the {deals} are played in order and {next} "
                "comes next"
            ).format(
                title=said_title(title),
                deals=said_noun(noun),
                next=said_title(deal_title(rules, expected)).lower(),
            ),
            rules.cites("order"),
        )


def _check_not_signed_off(table: Table, rules: Rules[Any]) -> None:
    if table.is_signed_off():
        raise _refused(
            gettext(
                "{table} signed its {match} off: only a director ruling changes a score now"
            ).format(table=table, match=said_noun(match_noun(rules))),
            rules.cites("ruling"),
        )


def _check_correctable(table: Table) -> None:
    """Corrections are the table's own until sign-off, and end when the round is locked."""
    round, rules = table.round, table.round.tournament.rules()
    if round.status not in CORRECTABLE_ROUNDS:
        state = round.get_status_display().lower()
        raise _refused(
            gettext("Round {number} is {state}: only a director ruling changes a score").format(
                number=round.number, state=state
            ),
            rules.cites("ruling"),
        )
    _check_not_signed_off(table, rules)


def _correct(
    locked: LockedTable,
    deal: Deal,
    values: dict[str, Any],
    inputs: Sequence[SideInput],
    by: AbstractBaseUser | None,
    via: str,
    confirm_warnings: bool,
    reason: str,
) -> Deal:
    """A new version of a stored result; the old versions stay as superseded revisions."""
    table = locked.table
    _check_correctable(table)
    evaluation = _evaluated(locked, deal.number, values, inputs, confirm_warnings)
    if evaluation.score is not None and evaluation.score.void:
        title = deal_title(locked.rules, deal.number)
        raise _refused(
            gettext(
                "{title} is already scored: a void deal is entered before its replay, not over "
                "a result; ask the director for a ruling"
            ).format(title=said_title(title)),
            locked.rules.cites("void"),
        )
    before = {result.entry_id: result.points for result in deal.results.all()}
    _update_deal(deal, table, evaluation)
    results = _results_of(locked.entry_ids, evaluation)
    after = {result.entry_id: result.points for result in results}
    why = reason.strip() or _changes(before, after, _entry_labels(locked))
    revision = _revision(deal, locked.entry_ids, evaluation, by, via, reason=why)
    # The old results go, the old versions are superseded, the deal takes the new version.
    store().replace_deal(deal, UPDATED, results, revision)
    standings_changed(table.round.tournament_id)
    return deal


UPDATED = ("version", "detail", "status", "is_flagged", "warnings", "updated_at")


def _update_deal(deal: Deal, table: Table, evaluation: Evaluation) -> None:
    """The deal's next version, in memory (the store's `replace_deal` stores it)."""
    deal.version += 1
    deal.detail = dict(evaluation.score.detail) if evaluation.score is not None else {}
    deal.status = _initial_status(table)
    deal.is_flagged = bool(evaluation.warnings)
    deal.warnings = [problem.to_dict() for problem in evaluation.warnings]


def _changes(before: dict[int, int], after: dict[int, int], labels: dict[int, str]) -> str:
    """What a correction changed, in words: "Ben 67 → 77, Cy 44 → 34"."""
    changed = [
        f"{labels[entry_id]} {before.get(entry_id)} → {total}"
        for entry_id, total in after.items()
        if before.get(entry_id) != total
    ]
    return "corrected: " + (", ".join(changed) if changed else "no total changed")


@transaction.atomic
def result_confirm(
    *, deal: Deal, by: AbstractBaseUser | None, via: str, base_version: int | None = None
) -> Deal:
    """A second person confirms a pending result; the one who entered it cannot. With
    `base_version`, only the version the confirmer saw is confirmed (checked under the lock)."""
    table = _lock(deal.table)
    deal = Deal.objects.select_for_update(of=("self",)).get(pk=deal.pk)
    deal.table = table
    title = deal_title(table.round.tournament.rules(), deal.number)
    if base_version is not None and base_version != deal.version:
        raise ResultConflict(
            deal,
            gettext(
                "{title} was corrected since you saw it (you had version {base}, it is now "
                "version {version}): check it before confirming"
            ).format(title=said_title(title), base=base_version, version=deal.version),
        )
    if deal.status != Deal.Status.PENDING:
        raise ResultConflict(
            deal,
            gettext("{title} at {table} is already confirmed").format(
                title=said_title(title), table=deal.table
            ),
        )
    _check_correctable(deal.table)
    revision = deal.revisions.get(version=deal.version)
    if _same_person(revision, by, via):
        raise _refused(
            gettext(
                "{title} was entered by {who}: someone else at the table, or the director, "
                "must confirm it"
            ).format(title=said_title(title), who=revision.entered_via)
        )
    revision.status = ResultRevision.Status.CONFIRMED
    revision.confirmed_by = by if by is not None and by.is_authenticated else None
    revision.confirmed_via = via
    revision.confirmed_at = timezone.now()
    revision.save()
    deal.status = Deal.Status.CONFIRMED
    deal.save(update_fields=["status", "updated_at"])
    standings_changed(deal.table.round.tournament_id)
    return deal


def _same_person(revision: ResultRevision, by: AbstractBaseUser | None, via: str) -> bool:
    signed_in = by is not None and by.is_authenticated
    if signed_in and revision.entered_by_id is not None:
        return revision.entered_by_id == by.pk
    return revision.entered_via.strip().casefold() == via.strip().casefold()


@transaction.atomic
def table_sign_off(*, table: Table, by: AbstractBaseUser | None, via: str, signer: str) -> Table:
    """The table signs its finished match off: the game says it is over, every deal confirmed."""
    locked = _locked(table)
    table, rules = locked.table, locked.rules
    _check_not_signed_off(table, rules)
    if not rules.match_over(locked.played(), time_called=table.time_called):
        raise _refused(
            gettext("{table} has played {progress}: sign off when the {match} is finished").format(
                table=table,
                progress=said_progress(rules, len(locked.numbers())),
                match=said_noun(match_noun(rules)),
            ),
            rules.cites("order"),
        )
    waiting = next(
        (d for d in locked.deals if not d.is_void and d.status == Deal.Status.PENDING), None
    )
    if waiting is not None:
        title = deal_title(rules, waiting.number)
        raise _refused(
            gettext("{title} awaits confirmation: confirm it before signing off").format(
                title=said_title(title)
            )
        )
    table.signed_off_at = timezone.now()
    table.signed_off_by = f"{signer.strip()[:80]} ({via})"[:120]
    table.save(update_fields=["signed_off_at", "signed_off_by"])
    return table


def _labels(locked: LockedTable) -> list[str]:
    """Each side's name for messages: its players' names (partners joined by "&"), made unique
    by seat where two sides would read alike."""
    names = [" & ".join(seat.entry.name for seat in side) for side in locked.sides]
    return [
        name if names.count(name) == 1 else f"{name} (seat {side[0].position})"
        for side, name in zip(locked.sides, names, strict=True)
    ]


def _entry_labels(locked: LockedTable) -> dict[int, str]:
    return dict(zip(locked.entry_ids, _labels(locked), strict=True))


def _deal_report(
    locked: LockedTable, number: int, values: dict[str, Any], inputs: Sequence[SideInput]
) -> tuple[DealReport, list[int]]:
    """The game's entry for the table's sides in side order, and the sides nobody entered."""
    index = {seat.entry_id: i for i, side in enumerate(locked.sides) for seat in side}
    strangers = sorted({item.entry_id for item in inputs} - set(index))
    if strangers:
        raise _refused(
            gettext("Entries {entries} are not seated at {table}").format(
                entries=strangers, table=locked.table
            )
        )
    given: dict[int, SideInput] = {}
    for item in inputs:
        side = index[item.entry_id]
        if side in given:
            label = _labels(locked)[side]
            raise _refused(
                gettext("{label} has two results in this entry").format(label=label), side=side
            )
        given[side] = item
    labels = _labels(locked)
    sides = tuple(
        _side_report(locked.sides[i], labels[i], given.get(i)) for i in range(len(labels))
    )
    missing = [i for i in range(len(labels)) if i not in given]
    return DealReport(number, sides, values), missing


def _side_report(seats: tuple[Seat, ...], label: str, given: SideInput | None) -> SideReport:
    member_labels = tuple(player.name for seat in seats for player in seat.entry.partners())
    if given is None:
        return SideReport(label, {}, (), member_labels)
    return SideReport(label, dict(given.values), tuple(given.members), member_labels)


def _refuse_if_needed(evaluation: Evaluation, confirm_warnings: bool) -> None:
    if evaluation.errors:
        raise ResultRefused(evaluation.errors, evaluation.warnings)
    if evaluation.warnings and not confirm_warnings:
        raise WarningsNotConfirmed(evaluation.warnings, evaluation.warnings)


def _save_deal(
    locked: LockedTable,
    number: int,
    evaluation: Evaluation,
    by: AbstractBaseUser | None,
    via: str,
) -> Deal:
    """The new deal, its results (none for a void attempt) and its first revision, inserted by
    the store (inside the store's `batched()`, when the block ends). The results are left on
    the deal as if prefetched."""
    table, score = locked.table, evaluation.score
    void = score is not None and score.void
    deal = Deal(
        table=table,
        number=number,
        attempt=locked.next_attempt(number),
        is_void=void,
        status=_initial_status(table),
        is_flagged=bool(evaluation.warnings),
        warnings=[problem.to_dict() for problem in evaluation.warnings],
        detail=dict(score.detail) if score is not None else {},
    )
    results = [] if score is None or void else _results_of(locked.entry_ids, evaluation)
    revision = _revision(deal, locked.entry_ids, evaluation, by, via)
    store().insert_deal(deal, results, revision)
    return deal


def _initial_status(table: Table) -> str:
    """A new version counts at once, unless the tournament asks a second person to confirm it."""
    if table.round.tournament.requires_confirmation:
        return Deal.Status.PENDING
    return Deal.Status.CONFIRMED


def _results_of(entry_ids: list[int], evaluation: Evaluation) -> list[DealResult]:
    """A result per side as the game scored it, in side order, not yet saved nor given a deal."""
    entry, score = evaluation.entry, evaluation.score
    return [
        DealResult(
            entry_id=entry_id,
            side=index,
            points=side_score.points,
            went_out=side_score.went_out,
            entered={"values": dict(side.values), "members": [dict(m) for m in side.members]},
            detail=dict(side_score.detail),
        )
        for index, (entry_id, side, side_score) in enumerate(
            zip(entry_ids, entry.sides, score.sides, strict=True)
        )
    ]


def _entry_record(entry: DealReport, entry_ids: list[int]) -> dict[str, Any]:
    """The entry as the game returned it (canonical), JSON-ready, each side keyed by its entry."""
    record = entry.to_dict()
    for side, entry_id in zip(record["sides"], entry_ids, strict=True):
        side["entry"] = entry_id
    return record


def _revision(
    deal: Deal,
    entry_ids: list[int],
    evaluation: Evaluation,
    by: AbstractBaseUser | None,
    via: str,
    reason: str = "",
) -> ResultRevision:
    """The deal's current version as a revision, not yet saved (`deal` may be unsaved too)."""
    pending = deal.status == Deal.Status.PENDING
    score = evaluation.score
    return ResultRevision(
        deal=deal,
        version=deal.version,
        status=ResultRevision.Status.PENDING if pending else ResultRevision.Status.CONFIRMED,
        entry=_entry_record(evaluation.entry, entry_ids),
        scores=score.to_dict() if score is not None else {},
        warnings=[problem.to_dict() for problem in evaluation.warnings],
        reason=reason[:300],
        entered_by=by if by is not None and by.is_authenticated else None,
        entered_via=via[:120],
    )
