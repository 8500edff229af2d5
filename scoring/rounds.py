"""The round lifecycle (R12.1): draft → published → in play → complete → locked.

- **draft**: the seating is drawn and edited freely (`tables.services`); nothing is public.
- **published**: the seating is final and the table cards printable; a change is now a ruling.
  A published round goes back to draft (`round_unpublish`) while no result is entered: that is
  the "undoable until it is published" of the issue, stretched to the moment play begins.
- **in play**: results are being entered. `round_start` says so; the first result recorded at
  any table does it too (`scoring.services.result_record`).
- **complete**: every table has played its match (Kalooki: nine games, R4.1) and no result
  awaits confirmation.
  `round_reopen` takes it back to in play for a late correction, until it is locked.
- **locked**: the scores are final; only a director's ruling changes them (R12.4).

Each step is one service: it locks the round, refuses with a reason a director can act on
(`RoundError`), and leaves an entry in the audit log.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext

from scoring.matches import match_noun, played, said_noun, said_progress, seated_as_shaped
from scoring.models import Deal, DealResult, Ruling
from scoring.signals import results_settled
from scoring.standings_queue import standings_changed
from tables.models import Bye, Seat
from tournament.models import Entry, Round, Tournament
from tournament.services import audit_record, tournament_start_on_publish
from tournament.stages import stage_waiting_for_cut

Status = Round.Status

# How a step names the state it starts from, in "only ... can be published".
_FROM_WORDS = {
    Status.DRAFT: "a draft round",
    Status.PUBLISHED: "a published round",
    Status.IN_PLAY: "a round in play",
    Status.COMPLETE: "a complete round",
}


class RoundError(Exception):
    """A round step that cannot be taken now; the message says why and what to do instead."""


def _locked(round: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)


def _require(round: Round, state: str, verb: str) -> None:
    if round.status != state:
        raise RoundError(
            gettext("Round {number} is {state}: only {states} can be {verb}.").format(
                number=round.number,
                state=round.status.replace("_", " "),
                states=_FROM_WORDS[state],
                verb=verb,
            )
        )


def _step(round: Round, to: str, *, by: AbstractBaseUser | None, action: str) -> Round:
    before = round.status
    round.status = to
    round.save(update_fields=["status", "published_at", "locked_at"])
    standings_changed(round.tournament_id)  # a round in play or completed re-ranks (standings)
    audit_record(
        tournament=round.tournament,
        actor=by,
        action=f"round.{action}",
        summary=f"Round {round.number}: {before.replace('_', ' ')} → {to.replace('_', ' ')}",
        detail={"round": round.number, "from": before, "to": to},
    )
    return round


# --- adding and removing rounds -------------------------------------------------------------


@transaction.atomic
def round_add(*, tournament: Tournament, by: AbstractBaseUser | None) -> Round:
    """Add the tournament's next round, as a draft.

    Refused beyond the number of rounds planned (the director raises it in the set-up first: an
    extra round is a decision, not a slip of the mouse), and while the latest round is still a
    draft, because a round is seated to avoid the meetings of the rounds before it (R12.1).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    latest = tournament.rounds.order_by("-number").first()
    number = latest.number + 1 if latest else 1
    if number > tournament.rounds_planned:
        raise RoundError(
            gettext(
                "{tournament} plans {rounds_planned} round(s): raise the number of rounds "
                "in the tournament's set-up to add round {number}."
            ).format(
                tournament=tournament.name,
                rounds_planned=tournament.rounds_planned,
                number=number,
            )
        )
    if latest is not None and latest.status == Status.DRAFT:
        raise RoundError(
            gettext(
                "Round {number} is still a draft: publish it before adding round {number2}, so "
                "that round {number2} is seated knowing who met in round {number}."
            ).format(number=latest.number, number2=number)
        )
    waiting = stage_waiting_for_cut(tournament, number)
    if waiting is not None:
        raise RoundError(
            gettext(
                "Round {number} is the first of the {state}: make its cut on the stages page, "
                "which adds the round and seats the entries that made it."
            ).format(number=number, state=waiting.name.lower())
        )
    round = Round.objects.create(tournament=tournament, number=number)
    audit_record(
        tournament=tournament,
        actor=by,
        action="round.add",
        summary=f"Added round {number}",
        detail={"round": number},
    )
    return round


@transaction.atomic
def round_remove(*, round: Round, by: AbstractBaseUser | None) -> None:
    """Undo `round_add`: delete the latest round, with its draft seating, while it is a draft."""
    round = _locked(round)
    _require(round, Status.DRAFT, "removed")
    if round.tournament.rounds.filter(number__gt=round.number).exists():
        raise RoundError(
            gettext("Round {number} is not the latest round: remove the later first.").format(
                number=round.number
            )
        )
    number = round.number
    round.delete()
    audit_record(
        tournament=round.tournament,
        actor=by,
        action="round.remove",
        summary=f"Removed round {number} (a draft)",
        detail={"round": number},
    )


# --- publishing ----------------------------------------------------------------------------------


@transaction.atomic
def round_publish(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Make the seating final and visible: the table cards can be printed."""
    round = _locked(round)
    _require(round, Status.DRAFT, "published")
    _check_not_finished(round.tournament)
    _check_earlier_rounds_published(round)
    _check_seating(round)
    round.published_at = timezone.now()
    tournament_start_on_publish(tournament=round.tournament, by=by)
    return _step(round, Status.PUBLISHED, by=by, action="publish")


def _check_not_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise RoundError(
            gettext(
                "{tournament} is finished: set it running again on its overview page "
                "before publishing another round."
            ).format(tournament=tournament.name)
        )


def _check_earlier_rounds_published(round: Round) -> None:
    draft = round.tournament.rounds.filter(number__lt=round.number, status=Status.DRAFT).first()
    if draft is not None:
        raise RoundError(
            gettext("Round {number} is still a draft: publish it first.").format(
                number=draft.number
            )
        )


def _check_seating(round: Round) -> None:
    """Every table is seated as the game's table shape says (Kalooki R12.2), and every seated
    player still plays."""
    tables = list(round.tables.annotate(players=Count("seats")).order_by("number"))
    if not tables:
        raise RoundError(
            gettext("Round {number} has no tables: seat it first.").format(number=round.number)
        )
    rules = round.tournament.rules()
    shape = rules.shape()
    for table in tables:
        if not seated_as_shaped(rules, table.players):
            seats = f"{shape.min_sides * shape.members} to {shape.max_sides * shape.members}"
            raise RoundError(
                gettext(
                    "Table {number} seats {players} players; a table seats {seats} ({value}): move "
                    "players, or seat the round again."
                ).format(
                    number=table.number,
                    players=table.players,
                    seats=seats,
                    value=rules.cites("table") or rules.game.name,
                )
            )
    gone = (
        Seat.objects.filter(round=round)
        .exclude(entry__status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN])
        .select_related("entry__player", "table")
        .first()
    )
    if gone is not None:
        raise RoundError(
            gettext(
                "{player} is {state} but seated at table {number}: seat the round again."
            ).format(
                player=gone.entry.name,
                state=gone.entry.get_status_display().lower(),
                number=gone.table.number,
            )
        )
    bye = (
        Bye.objects.filter(round=round)
        .exclude(entry__status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN])
        .select_related("entry__player")
        .first()
    )
    if bye is not None:
        raise RoundError(
            gettext(
                "{player} is {state} but has a bye in round {number}: seat the round again."
            ).format(
                player=bye.entry.name,
                state=bye.entry.get_status_display().lower(),
                number=round.number,
            )
        )


@transaction.atomic
def round_unpublish(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Take a published round back to draft, to change its seating, while nothing is played."""
    round = _locked(round)
    _require(round, Status.PUBLISHED, "taken back to draft")
    if Deal.objects.filter(table__round=round).exists():
        raise RoundError(
            gettext(
                "Round {number} has results already: its seats change only by a ruling."
            ).format(number=round.number)
        )
    if _has_rulings(round):
        raise RoundError(
            gettext(
                "Round {number} has rulings already (R12.4): they stay with its seating, which "
                "now changes only by a ruling."
            ).format(number=round.number)
        )
    round.published_at = None
    return _step(round, Status.DRAFT, by=by, action="unpublish")


def _has_rulings(round: Round) -> bool:
    """A ruling names the round, one of its tables or one of its deals."""
    names = Q(round=round) | Q(table__round=round) | Q(deal__table__round=round)
    return Ruling.objects.filter(names).exists()


# --- play --------------------------------------------------------------------------------------


@transaction.atomic
def round_start(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Announce that play has begun (the first result does it too)."""
    round = _locked(round)
    _require(round, Status.PUBLISHED, "started")
    return _step(round, Status.IN_PLAY, by=by, action="start")


@transaction.atomic
def round_complete(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Close play: every table has played its match (the game says it is over) and every result
    is confirmed."""
    round = _locked(round)
    _require(round, Status.IN_PLAY, "completed")
    unfinished = _unfinished_tables(round)
    if unfinished:
        raise RoundError(
            "; ".join(unfinished)
            + f". Round {round.number} is complete when every table has played its "
            + match_noun(round.tournament.rules())
            + _cited(round, "order")
            + "."
        )
    return _step(round, Status.COMPLETE, by=by, action="complete")


def _cited(round: Round, topic: str) -> str:
    rule = round.tournament.rules().cites(topic)
    return f" ({rule})" if rule else ""


def _unfinished_tables(round: Round) -> list[str]:
    """What each unfinished table still lacks, in words: "Table 3 has played 6 of 9 games".
    A table has finished when its game says its match is over (two queries)."""
    rules = round.tournament.rules()
    results = Prefetch("results", queryset=DealResult.objects.order_by("side"))
    deals = Prefetch("deals", queryset=Deal.objects.prefetch_related(results))
    lacks = []
    for table in round.tables.prefetch_related(deals).order_by("number"):
        stored = list(table.deals.all())
        scored = sum(1 for deal in stored if not deal.is_void)
        pending = sum(1 for deal in stored if deal.status == Deal.Status.PENDING)
        if not rules.match_over(played(stored), time_called=table.time_called):
            lacks.append(
                gettext("Table {number} has played {progress}").format(
                    number=table.number, progress=said_progress(rules, scored)
                )
            )
        elif pending:
            lacks.append(
                gettext("Table {number} has {pending} result(s) to confirm").format(
                    number=table.number, pending=pending
                )
            )
    return lacks


@transaction.atomic
def round_reopen(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Put a complete round back in play, for a correction before it is locked."""
    round = _locked(round)
    _require(round, Status.COMPLETE, "reopened")
    return _step(round, Status.IN_PLAY, by=by, action="reopen")


@transaction.atomic
def round_lock(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Make the round's scores final: from now on only a ruling changes them (R12.4)."""
    round = _locked(round)
    if round.status == Status.IN_PLAY:
        playing = gettext("Round {number} is in play").format(number=round.number)
        raise RoundError(
            gettext(
                "{tables}. Complete round {number} before locking it: every table plays its "
                "{match} first{cited}."
            ).format(
                tables="; ".join(_unfinished_tables(round) or [playing]),
                number=round.number,
                match=said_noun(match_noun(round.tournament.rules())),
                cited=_cited(round, "order"),
            )
        )
    _require(round, Status.COMPLETE, "locked")
    round.locked_at = timezone.now()
    round = _step(round, Status.LOCKED, by=by, action="lock")
    results_settled.send(sender=Round, tournament_id=round.tournament_id)
    return round
