"""The director's stages page: the plan (qualifying rounds, then a final table or semi-finals,
its scoring and seats, in words) and the cut that starts each later stage.

Each action is a POST that calls one service (`tournament.stage_services.stages_set`,
`scoring.stages.stage_cut`) and comes back here with what was done, or why it was refused with
nothing changed. The API (`director.stage_api`) takes any chain of stages; this page plans the
qualifying stage and one cut after it.
"""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring.stages import CutTie, stage_cut
from tournament.models import Entry, Tournament
from tournament.permissions import tournament_for_director
from tournament.stage_services import StageError, StagePlan, stages_set
from tournament.stages import Stage, stage_bounds

LATER_KINDS = [("", gettext_lazy("No cut: every round is played by the whole field"))] + [
    (kind.value, kind.label) for kind in (Stage.Kind.FINAL, Stage.Kind.SEMI_FINALS)
]


class StagesForm(forms.Form):
    qualifying_rounds = forms.IntegerField(
        min_value=1, max_value=50, label=gettext_lazy("Qualifying rounds")
    )
    kind = forms.ChoiceField(choices=LATER_KINDS, required=False, label=gettext_lazy("Then"))
    size = forms.IntegerField(
        min_value=2, max_value=10_000, required=False, label=gettext_lazy("Cut to"),
        help_text=gettext_lazy(
            "How many go through, by the standings and their tie-breaks (R12.3)."
        ),
    )  # fmt: skip
    rounds = forms.IntegerField(
        min_value=1,
        max_value=20,
        initial=1,
        label=gettext_lazy("Rounds after the cut"),
    )
    scoring = forms.ChoiceField(
        choices=Stage.Scoring.choices, label=gettext_lazy("Scoring after the cut")
    )
    carry_percent = forms.IntegerField(
        min_value=1, max_value=100, initial=100, label=gettext_lazy("Share carried over (%)"),
        help_text=gettext_lazy(
            "For “carry over a share”: the share of the qualifying totals that counts."
        ),
    )  # fmt: skip
    seats = forms.ChoiceField(
        choices=Stage.Seats.choices, label=gettext_lazy("Seats after the cut")
    )

    def plan(self) -> list[StagePlan]:
        data = self.cleaned_data
        plan = [StagePlan(Stage.Kind.QUALIFYING, data["qualifying_rounds"])]
        if data["kind"]:
            plan.append(
                StagePlan(
                    data["kind"],
                    data["rounds"],
                    data["size"],
                    data["scoring"],
                    data["carry_percent"],
                    data["seats"],
                )
            )
        return plan


class CutForm(forms.Form):
    seed = forms.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, label=gettext_lazy("Seed of the draw"),
        help_text=gettext_lazy("Blank: a new draw. The same seed draws the same seats."),
    )  # fmt: skip


def _initial(stages: list[Stage], tournament: Tournament) -> dict[str, Any]:
    if not stages:
        return {"qualifying_rounds": tournament.rounds_planned, "rounds": 1, "carry_percent": 100}
    later = stages[1] if len(stages) > 1 else None
    initial: dict[str, Any] = {"qualifying_rounds": stages[0].rounds}
    if later is not None:
        initial |= {
            "kind": later.kind,
            "size": later.size,
            "rounds": later.rounds,
            "scoring": later.scoring,
            "carry_percent": later.carry_percent,
            "seats": later.seats,
        }
    return initial


def _lines(stages: list[Stage]) -> list[dict[str, Any]]:
    bounds = stage_bounds(stages)
    entrants: dict[int, list[str]] = {stage.number: [] for stage in stages}
    for number, team, name in (
        Entry.objects.filter(stage_places__stage__in=stages)
        .order_by("stage_places__seed")
        .values_list("stage_places__stage__number", "team_name", "player__name")
    ):
        entrants[number].append(team or name)
    return [
        {
            "stage": stage,
            "first": bounds[stage.number].start,
            "last": bounds[stage.number].stop - 1,
            "entrants": entrants[stage.number],
        }
        for stage in stages
    ]


@login_required
@require_http_methods(["GET", "POST"])
def stages_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The stages and the form that plans them (a POST sets the plan)."""
    tournament = tournament_for_director(request.user, slug)
    stages = list(tournament.stages.order_by("number"))
    form = StagesForm(request.POST or None, initial=_initial(stages, tournament))
    if request.method == "POST" and _set(request, tournament, form):
        return redirect("director:stages", slug)
    return _page(request, tournament, stages, form)


def _page(
    request: HttpRequest,
    tournament: Tournament,
    stages: list[Stage],
    form: StagesForm | None = None,
    tie: dict[str, Any] | None = None,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "here": "stages",
        "form": form or StagesForm(initial=_initial(stages, tournament)),
        "lines": _lines(stages),
        "cut_form": CutForm(),
        "tie": tie,
    }
    return render(request, "director/stages.html", context)


def _set(request: HttpRequest, tournament: Tournament, form: StagesForm) -> bool:
    if not form.is_valid():
        messages.error(request, _("Nothing was changed: correct the fields marked below."))
        return False
    if form.cleaned_data["kind"] and not form.cleaned_data["size"]:
        form.add_error("size", _("Say how many go through the cut."))
        messages.error(request, _("Nothing was changed: say how many go through the cut."))
        return False
    try:
        stages = stages_set(tournament=tournament, plan=form.plan(), by=request.user)
    except StageError as error:
        messages.error(request, _("Nothing was changed: {why}").format(why=error))
        return False
    words = " ".join(f"{stage.name}: {stage.scoring_words()}" for stage in stages)
    messages.success(request, _("The stages are set. {words}").format(words=words))
    return True


@login_required
@require_POST
def stage_cut_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Make the stage's cut: its first round is added and seated with those who made it."""
    tournament = tournament_for_director(request.user, slug)
    stage = get_object_or_404(Stage, tournament=tournament, number=number)
    form = CutForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was done: the seed is a whole number from 0."))
        return redirect("director:stages", slug)
    seed = form.cleaned_data["seed"]
    try:
        decided = _decided(request.POST)
        round = stage_cut(stage=stage, by=request.user, seed=seed, decided=decided)
    except CutTie as tie:
        messages.error(request, _("Nothing was done: {why}").format(why=tie))
        return _tie_page(request, tournament, stage, tie.tied, seed)
    except StageError as error:
        messages.error(request, _("Nothing was done: {why}").format(why=error))
        return redirect("director:stages", slug)
    messages.success(
        request,
        _(
            "The cut to the {stage} is made: round {number} is seated with the {size} who made "
            "it ({seats}). Publish it next."
        ).format(
            stage=stage.name.lower(),
            number=round.number,
            size=stage.size,
            seats=stage.seats_words().lower(),
        ),
    )
    return redirect("director:round", slug, round.number)


def _decided(data: Any) -> list[int]:
    """The director's order for entries level at the cut line, from the tie form's
    `place_<entry id>` fields (1 for the play-off's winner); empty when the form gave none."""
    places: dict[int, int] = {}
    for name, value in data.items():
        if not name.startswith("place_"):
            continue
        try:
            places[int(name.removeprefix("place_"))] = int(value)
        except ValueError as error:
            raise StageError(
                _(
                    "Give each tied entry its place in the play-off as a whole number: 1, 2, ... "
                    "(R12.3)."
                ),
                field="decided",
            ) from error
    if sorted(places.values()) != list(range(1, len(places) + 1)):
        raise StageError(
            _(
                "Give the {count} tied entries the places 1 to {count}, each once, "
                "as the play-off table finished (R12.3)."
            ).format(count=len(places)),
            field="decided",
        )
    return sorted(places, key=places.__getitem__)


def _tie_page(
    request: HttpRequest, tournament: Tournament, stage: Stage, tied: list[int], seed: int | None
) -> HttpResponse:
    """The stages page with the entries level at the cut line, to be put in order."""
    found = Entry.objects.filter(pk__in=tied).select_related("player")
    names = {entry.pk: entry.name for entry in found}
    tie = {
        "stage": stage,
        "seed": seed,
        "entries": [(entry, names.get(entry, str(entry))) for entry in tied],
    }
    stages = list(tournament.stages.order_by("number"))
    return _page(request, tournament, stages, tie=tie)
