"""Director pages of the scoring app."""

from typing import Any

from django.contrib.auth.decorators import login_required, user_passes_test
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.forms import ContractForm, GameForm, HandFormSet, MeldForm
from scoring.rules import ASAJ_2025, check_contract, check_meld, evaluate
from tournament.permissions import is_director


def _meld(request: HttpRequest) -> dict[str, Any]:
    form = MeldForm(request.POST)
    if not form.is_valid():
        return {"meld_form": form}
    data = form.cleaned_data
    result = check_meld(data["cards"], ASAJ_2025, data["kind"] or None, as_laid=data["as_laid"])
    return {"meld_form": form, "meld": result}


def _contract(request: HttpRequest) -> dict[str, Any]:
    form = ContractForm(request.POST)
    if not form.is_valid():
        return {"contract_form": form}
    result = check_contract(form.cleaned_data["game"], form.cleaned_data["groups"], ASAJ_2025)
    return {"contract_form": form, "contract": result}


def _game(request: HttpRequest) -> dict[str, Any]:
    form, hands = GameForm(request.POST), HandFormSet(request.POST, prefix="hands")
    if not (form.is_valid() and hands.is_valid()):
        return {"game_form": form, "hand_forms": hands}
    check, score = evaluate(form.to_entry(hands), ASAJ_2025)
    return {"game_form": form, "hand_forms": hands, "game_check": check, "game_score": score}


CHECKS = {"meld": _meld, "contract": _contract, "game": _game}


@login_required
@user_passes_test(is_director)
def rule_check(request: HttpRequest) -> HttpResponse:
    """Settle a dispute at the table: check a meld, a lay-down or a game's scores (R3-R10)."""
    context: dict[str, Any] = {
        "meld_form": MeldForm(),
        "contract_form": ContractForm(),
        "game_form": GameForm(),
        "hand_forms": HandFormSet(prefix="hands"),
        "ruleset": ASAJ_2025,
    }
    check = CHECKS.get(request.POST.get("check", "")) if request.method == "POST" else None
    if check is not None:
        context |= check(request) | {"checked": request.POST["check"]}
    return render(request, "scoring/rule_check.html", context)
