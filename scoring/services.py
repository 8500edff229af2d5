"""Writes to games and results: the adapter between the database and the rules engine.

`result_record` builds the engine's entry from the table's seats, asks the engine to check (R10)
and score (R8) it, and saves the outcome with its first revision, all in one transaction. A
refusal raises `ResultRefused` carrying the engine's problems, each citing its rule.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from scoring.models import Game, HandResult, ResultRevision
from scoring.rules import (
    EntryCheck,
    GameEntry,
    GameScore,
    HandEntry,
    Problem,
    evaluate,
    parse_cards,
)
from tables.models import Seat, Table
from tournament.models import Round


class ResultRefused(Exception):
    """The result cannot be saved; `problems` say why, each with its rule."""

    def __init__(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()) -> None:
        self.problems = tuple(problems)
        self.warnings = tuple(warnings)
        super().__init__("; ".join(problem.message for problem in self.problems))


class WarningsNotConfirmed(ResultRefused):
    """The result raised warnings (R10.6, R10.7) that the scorekeeper has not confirmed."""


@dataclass(frozen=True)
class HandInput:
    """One seated player's result, as a scorekeeper enters it (see `scoring.rules.HandEntry`)."""

    entry_id: int
    went_out: bool = False
    cards: str | None = None
    points: int | None = None
    calls: int | None = None
    failed_come_downs: int = 0
    overcall_penalty: bool = False


SCOREABLE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


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
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    _check_table_open(table, number)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    entry = GameEntry(number, _hand_entries(seats, hands, void), down_and_out, void)
    check, score = evaluate(entry, table.round.tournament.rules())
    _refuse_if_needed(check, confirm_warnings)
    _start_round(table.round)
    game = _save_game(table, entry, check, score)
    _save_revision(game, entry, check, score, by, via)
    return game


def _check_table_open(table: Table, number: int) -> None:
    round = table.round
    if round.status not in SCOREABLE_ROUNDS:
        state = round.get_status_display().lower()
        raise ResultRefused(
            [
                Problem(
                    "R12.4",
                    f"Round {round.number} is {state}: no result can be "
                    "entered; only a director ruling changes a score",
                )
            ]
        )
    if table.is_signed_off():
        raise ResultRefused([Problem("R4.1", f"{table} has signed off its set")])
    played = set(table.games.filter(is_void=False).values_list("number", flat=True))
    if number in played:
        raise ResultRefused(
            [
                Problem(
                    "R4.1",
                    f"Game {number} at {table} is already recorded; "
                    "correct it instead of entering it again",
                )
            ]
        )
    expected = min(set(range(1, 10)) - played, default=None)
    if number != expected:
        raise ResultRefused(
            [
                Problem(
                    "R4.1",
                    f"Game {number} cannot be entered yet: the nine games "
                    f"are played in order and game {expected} comes next",
                )
            ]
        )


def _start_round(round: Round) -> None:
    """The first result at any table puts a published round in play, as `round_start` would."""
    if round.status == Round.Status.PUBLISHED:
        Round.objects.filter(pk=round.pk, status=Round.Status.PUBLISHED).update(
            status=Round.Status.IN_PLAY
        )
        round.status = Round.Status.IN_PLAY


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
    table: Table,
    entry: GameEntry,
    check: EntryCheck,
    score: GameScore | None,
) -> Game:
    attempts = table.games.filter(number=entry.game).aggregate(last=Max("attempt"))["last"] or 0
    confirmation = table.round.tournament.requires_confirmation
    game = Game.objects.create(
        table=table,
        number=entry.game,
        attempt=attempts + 1,
        is_void=entry.void,
        down_and_out=entry.down_and_out and not entry.void,
        status=Game.Status.PENDING if confirmation else Game.Status.CONFIRMED,
        is_flagged=bool(check.warnings),
        warnings=[problem.to_dict() for problem in check.warnings],
    )
    if score is not None and not entry.void:
        _save_hands(game, _seated_entry_ids(table), entry, score)
    return game


def _seated_entry_ids(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))


def _save_hands(game: Game, entry_ids: list[int], entry: GameEntry, score: GameScore) -> None:
    HandResult.objects.bulk_create(
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
    entry: GameEntry,
    check: EntryCheck,
    score: GameScore | None,
    by: AbstractBaseUser | None,
    via: str,
) -> ResultRevision:
    pending = game.status == Game.Status.PENDING
    return ResultRevision.objects.create(
        game=game,
        version=game.version,
        status=ResultRevision.Status.PENDING if pending else ResultRevision.Status.CONFIRMED,
        entry=_entry_record(entry, _seated_entry_ids(game.table)),
        scores=score.to_dict()["scores"] if score is not None else [],
        warnings=[problem.to_dict() for problem in check.warnings],
        entered_by=by if by is not None and by.is_authenticated else None,
        entered_via=via,
    )
