"""Writes to games and results: the adapter between the database and the rules engine.

Each use case builds the engine's entry from the table's seats, asks the engine to check (R10) and
score (R8) it, and saves the outcome with a new **revision**, in one transaction that holds the
table's row lock, so two phones at one table are served one after the other.

- `result_record`: enter the next game's result (or a void attempt, R9.2).
- `result_submit`: what a client sends: a new result, or a **correction** of a stored one based on
  the **version** the client saw; a stale version is a `ResultConflict` carrying the stored game.
- `result_confirm`: a second person confirms a result, when the tournament asks for it.
- `table_sign_off`: the table signs its finished set off; after that only a ruling changes it.

A refusal raises `ResultRefused` carrying the problems, each citing its rule where one applies.
Nothing is overwritten: every version stays as a `ResultRevision` (who, when, what, why).
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone

from games.kalooki import (
    EntryCheck,
    GameEntry,
    GameScore,
    HandEntry,
    Problem,
    evaluate,
    parse_cards,
)
from scoring.models import Game, HandResult, ResultRevision
from scoring.standings_queue import standings_changed
from tables.models import Seat, Table
from tables.selectors import seats_prefetch
from tournament.models import Round


class ResultRefused(Exception):
    """The result cannot be saved; `problems` say why, each with its rule."""

    def __init__(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()) -> None:
        self.problems = tuple(problems)
        self.warnings = tuple(warnings)
        super().__init__("; ".join(problem.message for problem in self.problems))


class WarningsNotConfirmed(ResultRefused):
    """The result raised warnings (R10.6, R10.7) that the scorekeeper has not confirmed."""


def _refused(message: str, rule: str = "") -> ResultRefused:
    """A refusal that is not the engine's; `rule` is empty where no rule applies (a setting)."""
    return ResultRefused([Problem(rule, message)])


class ResultConflict(Exception):
    """Someone else saved first, or the game changed since the version the client saw.

    `game` is the stored game, so the client can show it instead of its own."""

    def __init__(self, game: Game, message: str) -> None:
        self.game = game
        super().__init__(message)


@dataclass(frozen=True)
class ResultOutcome:
    game: Game
    created: bool


@dataclass(frozen=True)
class HandInput:
    """One seated player's result, as a scorekeeper enters it (see `games.kalooki.HandEntry`)."""

    entry_id: int
    went_out: bool = False
    cards: str | None = None
    points: int | None = None
    calls: int | None = None
    failed_come_downs: int = 0
    overcall_penalty: bool = False


SCOREABLE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
CORRECTABLE_ROUNDS = (*SCOREABLE_ROUNDS, Round.Status.COMPLETE)
PLAYED_ROUNDS = (Round.Status.IN_PLAY, Round.Status.COMPLETE, Round.Status.LOCKED)


@dataclass(frozen=True)
class HeldTable:
    """A table as a result service finds it under its lock: the seats and every game attempt,
    each read once per call."""

    table: Table
    seats: list[Seat]
    games: list[Game]

    @property
    def entry_ids(self) -> list[int]:
        return [seat.entry_id for seat in self.seats]

    def played(self) -> set[int]:
        return {game.number for game in self.games if not game.is_void}

    def scored(self, number: int) -> Game | None:
        return next((g for g in self.games if g.number == number and not g.is_void), None)

    def next_attempt(self, number: int) -> int:
        return 1 + max((g.attempt for g in self.games if g.number == number), default=0)


@transaction.atomic
def result_record(
    *,
    table: Table,
    number: int,
    hands: Sequence[HandInput] = (),
    down_and_out: bool = False,
    void: bool = False,
    by: AbstractBaseUser | None = None,
    via: str,
    confirm_warnings: bool = False,
) -> Game:
    """Record the result of game `number` at `table` (a void attempt when `void`, R9.2)."""
    held = _hold(table)
    entry = GameEntry(number, (), down_and_out, void)
    return _create(held, entry, hands, by, via, confirm_warnings)


@transaction.atomic
def result_submit(
    *,
    table: Table | HeldTable,
    number: int,
    hands: Sequence[HandInput] = (),
    down_and_out: bool = False,
    void: bool = False,
    by: AbstractBaseUser | None = None,
    via: str,
    confirm_warnings: bool = False,
    base_version: int | None = None,
    reason: str = "",
) -> ResultOutcome:
    """Save game `number` as a client sent it: a new result, or a correction of the stored one
    when `base_version` names the version the client corrected. `table` may be held already
    (`table_hold`)."""
    held = _hold(table)
    entry = GameEntry(number, (), down_and_out, void)
    current = held.scored(number)
    if current is None:
        if base_version:
            raise _refused(f"Game {number} has no result to correct: enter it instead", "R4.1")
        return ResultOutcome(_create(held, entry, hands, by, via, confirm_warnings), True)
    _check_base_version(current, base_version)
    if void:
        raise _refused(
            f"Game {number} is already scored: a void game is entered before its replay, not "
            "over a result; ask the director for a ruling",
            "R9.2",
        )
    game = _correct(held, current, entry, hands, by, via, confirm_warnings, reason)
    return ResultOutcome(game, False)


def game_current(*, table: Table, number: int) -> Game | None:
    """The scored (not void) attempt of game `number` at `table`, if it has been entered."""
    return table.games.filter(number=number, is_void=False).first()


def _lock(table: Table) -> Table:
    """The table's row, locked until the transaction ends, with its round and tournament.

    Results at one table are served one after the other. Only the table's row is locked
    (`of=self`): the tables of a round save their results in parallel. The round's row is held
    in share mode, so a round step (completing or locking it, R12.4) waits for the results in
    flight, and none is saved into a round that was locked meanwhile. Every caller takes the
    round's lock before the table's, so that no two wait for each other.
    """
    _start_round(table)
    _hold_round_of(table.pk)
    tables = Table.objects.select_for_update(of=("self",), no_key=True).select_related(
        "round__tournament"
    )
    return tables.get(pk=table.pk)


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


def _hold_round_of(table_id: int) -> None:
    """PostgreSQL: `FOR SHARE` on the table's round, before its status is read. (SQLite has one
    writer at a time and no row locks, so there is nothing to hold.)"""
    if connection.vendor != "postgresql":
        return
    rounds, tables = Round._meta.db_table, Table._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.id FROM {rounds} r JOIN {tables} t ON t.round_id = r.id "
            "WHERE t.id = %s FOR SHARE OF r",
            [table_id],
        )


def table_hold(table: Table) -> HeldTable:
    """The table locked until the transaction ends (`_lock`), with its seats and game attempts:
    for a caller that needs the seats before it calls `result_submit` (to find players by
    seat), so that both read them once, under the lock. The seats are also prefetched on the
    held table (`tables.selectors.seats_prefetch`)."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("Hold a table inside a transaction.")
    return _hold(table)


def _hold(table: Table | HeldTable) -> HeldTable:
    """The table locked (`_lock`), with its seats and game attempts: three queries, none when
    the caller holds it already (`table_hold`)."""
    if isinstance(table, HeldTable):
        return table
    table = _lock(table)
    prefetch_related_objects([table], seats_prefetch())
    seats = list(table.seats.all())
    return HeldTable(table, seats, list(table.games.order_by("number", "attempt")))


def _create(
    held: HeldTable,
    entry: GameEntry,
    hands: Sequence[HandInput],
    by: AbstractBaseUser | None,
    via: str,
    confirm_warnings: bool,
) -> Game:
    table = held.table
    _check_table_open(held, entry.game)
    entry, check, score = _evaluated(held, entry, hands, confirm_warnings)
    game = _save_game(held, entry, check, score)
    _save_revision(game, held.entry_ids, entry, check, score, by, via)
    standings_changed(table.round.tournament_id)
    return game


def _evaluated(
    held: HeldTable, entry: GameEntry, hands: Sequence[HandInput], confirm_warnings: bool
) -> tuple[GameEntry, EntryCheck, GameScore | None]:
    """The entry with the seated players' hands, checked and scored; refused if it must be."""
    entry = entry.with_hands(_hand_entries(held.seats, hands, entry.void))
    check, score = evaluate(entry, held.table.round.tournament.rules().ruleset)
    _refuse_if_needed(check, confirm_warnings)
    return entry, check, score


def _check_base_version(game: Game, base_version: int | None) -> None:
    if base_version is None:
        raise ResultConflict(
            game,
            f"Game {game.number} was saved meanwhile (version {game.version}): here is the "
            "stored result; correct it if it is wrong",
        )
    if base_version != game.version:
        raise ResultConflict(
            game,
            f"Game {game.number} changed since you opened it (you had version "
            f"{base_version}, it is now version {game.version}): here is the stored result",
        )


def _check_table_open(held: HeldTable, number: int) -> None:
    """A new result: the round is being played, the set is not signed off, games go in order."""
    table, round = held.table, held.table.round
    if round.status not in SCOREABLE_ROUNDS:
        state = round.get_status_display().lower()
        raise _refused(
            f"Round {round.number} is {state}: no result can be entered; only a director ruling "
            "changes a score",
            "R12.4",
        )
    _check_not_signed_off(table)
    played = held.played()
    if number in played:
        raise _refused(
            f"Game {number} at {table} is already recorded; correct it instead of entering it "
            "again",
            "R4.1",
        )
    expected = min(
        set(range(1, len(round.tournament.rules().ruleset.games) + 1)) - played, default=None
    )
    if number != expected:
        raise _refused(
            f"Game {number} cannot be entered yet: the nine games are played in order and game "
            f"{expected} comes next",
            "R4.1",
        )


def _check_not_signed_off(table: Table) -> None:
    if table.is_signed_off():
        raise _refused(
            f"{table} signed its set off: only a director ruling changes a score now", "R12.4"
        )


def _check_correctable(table: Table) -> None:
    """Corrections are the table's own until sign-off, and end when the round is locked."""
    round = table.round
    if round.status not in CORRECTABLE_ROUNDS:
        state = round.get_status_display().lower()
        raise _refused(
            f"Round {round.number} is {state}: only a director ruling changes a score", "R12.4"
        )
    _check_not_signed_off(table)


def _correct(
    held: HeldTable,
    game: Game,
    entry: GameEntry,
    hands: Sequence[HandInput],
    by: AbstractBaseUser | None,
    via: str,
    confirm_warnings: bool,
    reason: str,
) -> Game:
    """A new version of a stored result; the old versions stay as superseded revisions."""
    table = held.table
    _check_correctable(table)
    entry, check, score = _evaluated(held, entry, hands, confirm_warnings)
    before = dict(game.hands.values_list("entry_id", "total"))
    game.hands.all().delete()
    game.revisions.exclude(status=ResultRevision.Status.SUPERSEDED).update(
        status=ResultRevision.Status.SUPERSEDED
    )
    _update_game(game, table, entry, check)
    after = _save_hands(game, held.entry_ids, entry, score)
    why = reason.strip() or _changes(before, after, _labels(held.seats))
    _save_revision(game, held.entry_ids, entry, check, score, by, via, reason=why)
    standings_changed(table.round.tournament_id)
    return game


def _update_game(game: Game, table: Table, entry: GameEntry, check: EntryCheck) -> None:
    game.version += 1
    game.down_and_out = entry.down_and_out
    game.status = _initial_status(table)
    game.is_flagged = bool(check.warnings)
    game.warnings = [problem.to_dict() for problem in check.warnings]
    game.save()


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
    *, game: Game, by: AbstractBaseUser | None, via: str, base_version: int | None = None
) -> Game:
    """A second person confirms a pending result; the one who entered it cannot. With
    `base_version`, only the version the confirmer saw is confirmed (checked under the lock)."""
    table = _lock(game.table)
    game = Game.objects.select_for_update(of=("self",)).get(pk=game.pk)
    game.table = table
    if base_version is not None and base_version != game.version:
        raise ResultConflict(
            game,
            f"Game {game.number} was corrected since you saw it (you had version "
            f"{base_version}, it is now version {game.version}): check it before confirming",
        )
    if game.status != Game.Status.PENDING:
        raise ResultConflict(game, f"Game {game.number} at {game.table} is already confirmed")
    _check_correctable(game.table)
    revision = game.revisions.get(version=game.version)
    if _same_person(revision, by, via):
        raise _refused(
            f"Game {game.number} was entered by {revision.entered_via}: someone else at the "
            "table, or the director, must confirm it"
        )
    revision.status = ResultRevision.Status.CONFIRMED
    revision.confirmed_by = by if by is not None and by.is_authenticated else None
    revision.confirmed_via = via
    revision.confirmed_at = timezone.now()
    revision.save()
    game.status = Game.Status.CONFIRMED
    game.save(update_fields=["status", "updated_at"])
    standings_changed(game.table.round.tournament_id)
    return game


def _same_person(revision: ResultRevision, by: AbstractBaseUser | None, via: str) -> bool:
    signed_in = by is not None and by.is_authenticated
    if signed_in and revision.entered_by_id is not None:
        return revision.entered_by_id == by.pk
    return revision.entered_via.strip().casefold() == via.strip().casefold()


@transaction.atomic
def table_sign_off(*, table: Table, by: AbstractBaseUser | None, via: str, signer: str) -> Table:
    """The table signs its finished set off: nine scored games, all confirmed (R4.1)."""
    table = _lock(table)
    _check_not_signed_off(table)
    games = len(table.round.tournament.rules().ruleset.games)
    scored = table.games.filter(is_void=False)
    if scored.count() < games:
        raise _refused(
            f"{table} has played {scored.count()} of {games} games: sign off when the set is "
            "finished",
            "R4.1",
        )
    waiting = scored.filter(status=Game.Status.PENDING).order_by("number").first()
    if waiting is not None:
        raise _refused(f"Game {waiting.number} awaits confirmation: confirm it before signing off")
    table.signed_off_at = timezone.now()
    table.signed_off_by = f"{signer.strip()[:80]} ({via})"[:120]
    table.save(update_fields=["signed_off_at", "signed_off_by"])
    return table


def _labels(seats: Sequence[Seat]) -> dict[int, str]:
    """Each seated entry's name as the engine's player label, made unique by seat if needed."""
    names = [seat.entry.player.name for seat in seats]
    return {
        seat.entry_id: name if names.count(name) == 1 else f"{name} (seat {seat.position})"
        for seat, name in zip(seats, names, strict=True)
    }


def _hand_entries(
    seats: Sequence[Seat], hands: Sequence[HandInput], void: bool
) -> tuple[HandEntry, ...]:
    labels = _labels(seats)
    by_entry = {hand.entry_id: hand for hand in hands}
    strangers = set(by_entry) - set(labels)
    if strangers:
        raise ResultRefused([Problem("R12.1", f"Entries {sorted(strangers)} are not seated here")])
    missing = [labels[e] for e in labels if e not in by_entry]
    if missing and not void:
        raise ResultRefused(
            [
                Problem(
                    "R8.2",
                    f"No result for {', '.join(missing)}: every player at the table needs one",
                    player=missing[0],
                )
            ]
        )
    return tuple(_hand_entry(labels[e], by_entry.get(e, HandInput(e))) for e in labels)


def _hand_entry(label: str, hand: HandInput) -> HandEntry:
    return HandEntry(
        player=label,
        went_out=hand.went_out,
        cards=hand.cards,
        points=hand.points,
        calls=hand.calls,
        failed_come_downs=hand.failed_come_downs,
        overcall_penalty=hand.overcall_penalty,
    )


def _refuse_if_needed(check: EntryCheck, confirm_warnings: bool) -> None:
    if check.errors:
        raise ResultRefused(check.errors, check.warnings)
    if check.warnings and not confirm_warnings:
        raise WarningsNotConfirmed(check.warnings, check.warnings)


def _save_game(
    held: HeldTable,
    entry: GameEntry,
    check: EntryCheck,
    score: GameScore | None,
) -> Game:
    table = held.table
    game = Game.objects.create(
        table=table,
        number=entry.game,
        attempt=held.next_attempt(entry.game),
        is_void=entry.void,
        down_and_out=entry.down_and_out and not entry.void,
        status=_initial_status(table),
        is_flagged=bool(check.warnings),
        warnings=[problem.to_dict() for problem in check.warnings],
    )
    if score is not None and not entry.void:
        _save_hands(game, held.entry_ids, entry, score)
    return game


def _initial_status(table: Table) -> str:
    """A new version counts at once, unless the tournament asks a second person to confirm it."""
    if table.round.tournament.requires_confirmation:
        return Game.Status.PENDING
    return Game.Status.CONFIRMED


def _save_hands(
    game: Game, entry_ids: list[int], entry: GameEntry, score: GameScore
) -> dict[int, int]:
    """The game's hands as scored; each entry's total."""
    hands = HandResult.objects.bulk_create(
        HandResult(
            game=game,
            entry_id=entry_id,
            went_out=line.went_out,
            cards=hand.cards or "",
            card_count=len(parse_cards(hand.cards)) if hand.cards is not None else None,
            card_points=line.card_points,
            doubled=line.doubled,
            calls=hand.calls,
            failed_come_downs=hand.failed_come_downs,
            overcall_penalty=hand.overcall_penalty,
            penalty_points=line.penalties,
            total=line.total,
        )
        for entry_id, hand, line in zip(entry_ids, entry.hands, score.scores, strict=True)
    )
    return {hand.entry_id: hand.total for hand in hands}


def _entry_record(entry: GameEntry, entry_ids: list[int]) -> dict[str, Any]:
    """The entry as submitted, JSON-ready, each hand keyed by its entry id."""
    hands = [
        {"entry": entry_id, **asdict(hand)}
        for entry_id, hand in zip(entry_ids, entry.hands, strict=True)
    ]
    return {
        "game": entry.game,
        "down_and_out": entry.down_and_out,
        "void": entry.void,
        "hands": hands,
    }


def _save_revision(
    game: Game,
    entry_ids: list[int],
    entry: GameEntry,
    check: EntryCheck,
    score: GameScore | None,
    by: AbstractBaseUser | None,
    via: str,
    reason: str = "",
) -> ResultRevision:
    pending = game.status == Game.Status.PENDING
    return ResultRevision.objects.create(
        game=game,
        version=game.version,
        status=ResultRevision.Status.PENDING if pending else ResultRevision.Status.CONFIRMED,
        entry=_entry_record(entry, entry_ids),
        scores=score.to_dict()["scores"] if score is not None else [],
        warnings=[problem.to_dict() for problem in check.warnings],
        reason=reason[:300],
        entered_by=by if by is not None and by.is_authenticated else None,
        entered_via=via[:120],
    )
