"""The clock's warning before time, as the tournament's game gives it:
`{% with warning=tournament|clock_warning %}`, or in the shared clock fragment
`{% clock_warning_here as warning %}` (Hand and Foot warns 15 minutes before time, HF2.2).
"""

from dataclasses import dataclass
from typing import Any

from django import template
from django.template import Context

register = template.Library()


@dataclass(frozen=True)
class Warning:
    seconds: int
    rule: str

    @property
    def minutes(self) -> int:
        return self.seconds // 60


@register.filter
def clock_warning(source: Any) -> Warning | None:
    """The warning of `source`'s game: a tournament (anything with `rules()`), or a table's live
    part that carries it (`warn_seconds`, `warn_rule`); None where the game gives none."""
    if hasattr(source, "warn_seconds"):
        seconds, rule = source.warn_seconds, source.warn_rule
    elif callable(getattr(source, "rules", None)):
        rules = source.rules()
        seconds, rule = (rules.schedule().warning_minutes or 0) * 60, rules.cites("warning")
    else:
        return None
    return Warning(seconds, rule) if seconds else None


@register.simple_tag(takes_context=True)
def clock_warning_here(context: Context) -> Warning | None:
    """The warning of the clock being drawn (templates/scoring/_clock.html): from the
    `warning_source` its include names (a table's live part), else from the page's `tournament`.
    Read from the context, never as a filter's argument: a fragment drawn on its own (the table
    page's live part) has no tournament, and a missing argument would fail the whole page."""
    return clock_warning(context.get("warning_source") or context.get("tournament"))
