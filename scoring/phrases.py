"""The games' problems in the reader's language.

The games speak English only (they know nothing of Django): a problem made with
``games.base.gettext_noop`` keeps its sentence's template and params as a ``Phrase``. Here the
template is translated with gettext for the request's language and filled with its params, each
param that is itself a phrase ("hand", "the foot", "A, B and C") translated the same way. The rule
citation (R3.5, HF4.2, PA6.2) is never translated: it is appended as the games append it, unless
the translated sentence already cites it. In English the answer is the game's own message.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext

from games.base import Evaluation, Phrase, Problem, ToolAnswer


def say(words: Any) -> Any:
    """``words`` in the active language when it is a ``Phrase``; anything else as it is."""
    if not isinstance(words, Phrase):
        return words
    params = {name: say(value) for name, value in words.params.items()}
    try:
        return gettext(words.template).format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English is still true
        return str(words)


def problem_message(problem: Problem) -> str:
    """The problem's message in the active language, citing its rule as the games do."""
    if problem.phrase is None:
        return problem.message
    message = say(problem.phrase)
    if problem.rule and problem.rule not in message:
        message = f"{message} ({problem.rule})"
    return message


def translated(problem: Problem) -> Problem:
    """The same problem with its message in the active language (for forms and templates)."""
    message = problem_message(problem)
    if message == problem.message:
        return problem
    return dataclasses.replace(problem, message=message)


def translated_answer(answer: ToolAnswer) -> ToolAnswer:
    """A dispute check's answer with its problems in the active language."""
    return dataclasses.replace(answer, errors=tuple(map(translated, answer.errors)))


def translated_evaluation(evaluation: Evaluation) -> Evaluation:
    """A game's evaluation with its errors and warnings in the active language."""
    errors, warnings = tuple(map(translated, evaluation.errors)), evaluation.warnings
    return dataclasses.replace(evaluation, errors=errors, warnings=tuple(map(translated, warnings)))
