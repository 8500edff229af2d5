"""Rule numbers on pages shared by every game: `{{ tournament|cited:"first_dealer" }}`.

A page that every game shows (the seating board, a table's page, the director's round page) cites
the tournament's own game (`Rules.cites`): " (R4.3)" for Kalooki, " (PA2.4)" for Parcellus, and
nothing where the game's rules number no such rule, so that no page cites another game's rule.
"""

from typing import Any

from django import template

register = template.Library()


@register.filter
def cite(tournament: Any, topic: str) -> str:
    """The rule the tournament's game numbers for `topic` (``Rules.cites``), or ""."""
    rules = getattr(tournament, "rules", None)
    return rules().cites(topic) if callable(rules) else ""


@register.filter
def cited(tournament: Any, topic: str) -> str:
    """`cite` in brackets after a space, ready to follow a sentence's words; "" for none."""
    rule = cite(tournament, topic)
    return f" ({rule})" if rule else ""
