"""Setting a tournament's stages (`tournament.stages`): qualifying rounds, then cuts.

`stages_set` replaces the plan whole. It is refused, with nothing changed, when a cut is larger
than the field or than the stage before it, when a table the game does not allow would be
needed (R12.2), or when a stage already begun would change: a stage's settings are fixed once
its first round is published, or once its cut is made (`StageLocked`, a conflict with the
tournament's state rather than bad input).
"""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games.base import Rules, RulesError, TablePlan
from tournament.models import Tournament
from tournament.services import TournamentError, audit_record
from tournament.stages import Stage, stage_bounds

Kind, Scoring, Seats = Stage.Kind, Stage.Scoring, Stage.Seats


class StageError(TournamentError):
    """A stage plan or a cut that cannot be made as asked; the message says why."""


class StageLocked(StageError):
    """The tournament's state is in the way: a stage already begun (its first round published,
    or its cut made) cannot change, and a cut waits for the stage before it to be complete."""


@dataclass(frozen=True)
class StagePlan:
    """One stage as the director asks for it; `size` is blank for the qualifying stage."""

    kind: str
    rounds: int
    size: int | None = None
    scoring: str = Scoring.FRESH
    carry_percent: int = 100
    seats: str = Seats.DRAWN

    def values(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rounds": self.rounds,
            "size": self.size,
            "scoring": self.scoring,
            "carry_percent": self.carry_percent,
            "seats": self.seats,
        }


@transaction.atomic
def stages_set(
    *, tournament: Tournament, plan: list[StagePlan], by: AbstractBaseUser | None
) -> list[Stage]:
    """Replace the tournament's stages by `plan` (qualifying first) and plan its rounds to match.

    An empty plan removes the stages (one undivided event). Stages already begun must be asked
    for exactly as they are."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_plan(tournament, plan)
    stages = {stage.number: stage for stage in tournament.stages.all()}
    _check_unbegun(tournament, stages, plan)
    Stage.objects.filter(tournament=tournament, number__gt=len(plan)).delete()
    saved = [_save(tournament, stages.get(n), n, asked) for n, asked in enumerate(plan, 1)]
    if plan:
        tournament.rounds_planned = sum(asked.rounds for asked in plan)
        tournament.save(update_fields=["rounds_planned", "updated_at"])
    audit_record(
        tournament=tournament,
        actor=by,
        action="stages.set",
        summary="Stages: " + ("; ".join(_words(stage) for stage in saved) or "none"),
        detail={"stages": [asked.values() for asked in plan]},
    )
    return saved


def _save(tournament: Tournament, stage: Stage | None, number: int, asked: StagePlan) -> Stage:
    if stage is None:
        return Stage.objects.create(tournament=tournament, number=number, **asked.values())
    for name, value in asked.values().items():
        setattr(stage, name, value)
    stage.save()
    return stage


def _words(stage: Stage) -> str:
    rounds = f"{stage.rounds} round{'s' if stage.rounds != 1 else ''}"
    cut = f", the best {stage.size}" if stage.size else ""
    return f"{stage.name} ({rounds}{cut})"


def _check_unbegun(tournament: Tournament, stages: dict[int, Stage], plan: list[StagePlan]) -> None:
    """A stage whose first round is published, or whose cut is made, keeps its settings."""
    asked = {number: wanted.values() for number, wanted in enumerate(plan, 1)}
    bounds = stage_bounds(list(stages.values()))
    begun = set(
        tournament.rounds.exclude(status="draft").values_list("number", flat=True)
    )  # the published rounds
    for number, stage in stages.items():
        if asked.get(number) == _values(stage):
            continue
        if stage.cut_at is not None or begun & set(bounds[number][:1]):
            why = _("its cut is made") if stage.cut_at else _("its first round is published")
            raise StageLocked(
                _(
                    "The {stage} (stage {number}) cannot change: {why}. Its settings are fixed "
                    "from then on, so that nobody's place is decided by a rule changed mid-stage."
                ).format(stage=stage.name.lower(), number=number, why=why),
                field="stages",
            )


def _values(stage: Stage) -> dict[str, Any]:
    return StagePlan(
        stage.kind, stage.rounds, stage.size, stage.scoring, stage.carry_percent, stage.seats
    ).values()


def _check_plan(tournament: Tournament, plan: list[StagePlan]) -> None:
    if not plan:
        return
    rules = tournament.rules()
    field_size = tournament.entries.active().count()
    before, knockout = field_size, False
    for number, asked in enumerate(plan, 1):
        _check_stage(rules, number, asked, before, field_size)
        if knockout and asked.size != before // 2:
            raise StageError(
                _(
                    "Stage {number} follows a knockout of {before}: the {winners} winners of "
                    "its tables go through, so its cut is to {winners}."
                ).format(number=number, before=before, winners=before // 2),
                field="size",
            )
        before, knockout = asked.size or before, asked.kind == Kind.KNOCKOUT


def _check_stage(
    rules: Rules[Any], number: int, asked: StagePlan, before: int, field_size: int
) -> None:
    where = _("Stage {number}").format(number=number)
    if asked.rounds < 1:
        raise StageError(
            _("{where} plays no round: it plays one or more.").format(where=where), field="rounds"
        )
    if asked.scoring not in Scoring.values or asked.seats not in Seats.values:
        raise StageError(
            _("{where}: choose its scoring and seats from the list.").format(where=where),
            field="scoring",
        )
    if not 1 <= asked.carry_percent <= 100:
        raise StageError(
            _("{where}: a share carried over is 1% to 100%.").format(where=where),
            field="carry_percent",
        )
    if number == 1:
        if asked.kind != Kind.QUALIFYING or asked.size is not None:
            raise StageError(
                _("Stage 1 is the qualifying stage, played by the whole field: it has no cut."),
                field="size",
            )
        return
    _check_cut(rules, where, asked, before, field_size)


def _check_cut(
    rules: Rules[Any], where: str, asked: StagePlan, before: int, field_size: int
) -> None:
    if asked.kind not in (Kind.FINAL, Kind.SEMI_FINALS, Kind.KNOCKOUT):
        raise StageError(
            _("{where} after qualifying is a final, semi-finals or a knockout.").format(
                where=where
            ),
            field="kind",
        )
    if asked.size is None or asked.size < 2:
        raise StageError(
            _("{where}: say how many make the cut (two or more).").format(where=where),
            field="size",
        )
    if asked.size > before:
        if before == field_size:
            larger = _(
                "{where}: a cut to {size} is larger than the field ({before} entered): choose "
                "{before} or fewer."
            )
        else:
            larger = _(
                "{where}: a cut to {size} is larger than the stage before ({before} entered): "
                "choose {before} or fewer."
            )
        raise StageError(
            larger.format(where=where, size=asked.size, before=before),
            field="size",
        )
    _check_tables(rules, where, asked)


def _check_tables(rules: Rules[Any], where: str, asked: StagePlan) -> None:
    """A final is one table of a size the game allows; semi-finals are two tables or more of
    the game's plan, without byes; a knockout is tables of two (R12.2, HF1.2)."""
    shape, size = rules.shape(), asked.size or 0
    rule = rules.cites("table") or rules.game.name
    if asked.kind == Kind.FINAL and not shape.min_sides <= size <= shape.max_sides:
        raise StageError(
            _(
                "{where}: a final table of {size} is not allowed: a {game} table seats "
                "{low} to {high} ({rule})."
            ).format(
                where=where,
                size=size,
                game=rules.game.name,
                low=shape.min_sides,
                high=shape.max_sides,
                rule=rule,
            ),
            field="size",
        )
    try:
        plan = rules.table_plan(size)
    except RulesError:
        plan = TablePlan(())
    if asked.kind == Kind.KNOCKOUT and (plan.byes or set(plan.sizes) != {2}):
        raise StageError(
            _(
                "{where}: a knockout seats two a table, each table's winner going on; "
                "{game} seats {size} otherwise ({rule}): choose a final or semi-finals."
            ).format(where=where, game=rules.game.name, size=size, rule=rule),
            field="kind",
        )
    if asked.kind == Kind.SEMI_FINALS and (len(plan.sizes) < 2 or plan.byes):
        raise StageError(
            _(
                "{where}: semi-finals of {size} do not make two full tables or more of "
                "{game} ({rule}): choose a final table, or another size."
            ).format(where=where, size=size, game=rules.game.name, rule=rule),
            field="size",
        )
