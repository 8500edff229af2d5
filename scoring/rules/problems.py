"""Problems: what the rules engine says when something is not allowed.

A **problem** is one refusal, error or warning. It names the rule it comes from (``rule``: an
R-number of RULES.md such as ``"R3.5"``), says in one sentence a person understands what is wrong
(``message``, which always cites the rule: "two jokers side by side in a four (R3.5)") and, when
it is about one player's hand, whose hand it is (``player``).

A **rules error** is an exception carrying a problem. The engine raises one only when a question
cannot be answered at all (an unknown game number, unreadable card text given where cards are
required); an illegal meld or a doubtful score entry is an ordinary answer, reported as problems.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    rule: str
    message: str
    player: str | None = None

    def __post_init__(self) -> None:
        # A message is often shown on its own (a toast, a log line), so it must say where to look.
        if self.rule not in self.message:
            object.__setattr__(self, "message", f"{self.message} ({self.rule})")

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, str | None]:
        return {"rule": self.rule, "message": self.message, "player": self.player}


class RulesError(ValueError):
    """A question the rules cannot answer; ``problem`` says which rule and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem

    @property
    def rule(self) -> str:
        return self.problem.rule


class UnknownGameError(RulesError):
    """A game number that the ruleset's set does not have (R4)."""


def and_list(words: Iterable[str], last: str = "and") -> str:
    """Words joined as a sentence lists them: "A, 2 and 3" (or "A, 2 or 3")."""
    words = list(words)
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
