"""The games' problems are translatable: every message a game builds is a ``Phrase`` made by
``gettext_noop`` from a literal template (so that xgettext finds it), its English is the message
the games always gave, and Spanish and French have every template, citing the same rules.

The games import no Django; the catalogues are read here through Django's own loader.
"""

import ast
import re
from pathlib import Path

import pytest

import games
from games.base import Phrase, Problem, and_list, gettext_noop

PACKAGE = Path(games.__file__).parent
CITATION = re.compile(r"\b(?:R|HF|PA)\d+(?:\.\d+)?\b")


def _calls(name: str) -> list[tuple[Path, ast.Call]]:
    found = []
    for module in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name:
                found.append((module, node))
    return found


def _templates() -> set[str]:
    return {
        node.args[0].value
        for _module, node in _calls("gettext_noop")
        if isinstance(node.args[0], ast.Constant)
    }


def test_no_problem_is_made_from_an_english_string_literal() -> None:
    literal = [
        f"{module.relative_to(PACKAGE)}:{node.lineno}"
        for module, node in _calls("Problem")
        if len(node.args) > 1 and isinstance(node.args[1], ast.Constant | ast.JoinedStr)
    ]
    assert not literal, "wrap these messages in gettext_noop: " + ", ".join(literal)


def test_every_template_is_a_literal_xgettext_can_read() -> None:
    computed = [
        f"{module.relative_to(PACKAGE)}:{node.lineno}"
        for module, node in _calls("gettext_noop")
        if not (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))
    ]
    assert not computed, computed


def test_a_phrase_is_its_english_and_a_problem_keeps_it_without_the_rule() -> None:
    phrase = gettext_noop(
        "{player} went out, so holds no cards, but {held} are entered", player="Ann", held=2
    )
    problem = Problem("R10.2", phrase, "Ann", "cards")
    assert problem.message == "Ann went out, so holds no cards, but 2 are entered (R10.2)"
    assert problem.phrase is phrase and problem.phrase.params == {"player": "Ann", "held": 2}
    assert problem == Problem(
        "R10.2", "Ann went out, so holds no cards, but 2 are entered", "Ann", "cards"
    )


def test_a_list_of_names_is_a_phrase_of_its_own() -> None:
    names = and_list(["Ann", "Ben", "Cy"])
    assert isinstance(names, Phrase) and names == "Ann, Ben and Cy"
    assert names.template == "{head} and {last}" and names.params["head"] == "Ann, Ben"


@pytest.mark.parametrize("language", ["es", "fr"])
def test_every_template_of_the_games_is_translated_citing_the_same_rules(language: str) -> None:
    from django.utils.translation import trans_real

    catalog = trans_real.translation(language)._catalog
    missing = sorted(template for template in _templates() if not catalog.get(template))
    assert not missing, missing
    for template in _templates():
        said = catalog[template]
        assert CITATION.findall(said) == CITATION.findall(template), (template, said)
        assert set(re.findall(r"\{\w*\}", said)) == set(re.findall(r"\{\w*\}", template))
