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

from games.base import Problem, RulesError, and_list, gettext_noop

__all__ = ["Problem", "RulesError", "UnknownGameError", "and_list", "gettext_noop"]


class UnknownGameError(RulesError):
    """A game number that the ruleset's set does not have (R4)."""
