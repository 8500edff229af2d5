"""The game's own nouns in the page's language: `{{ tournament.deals_noun|deals_word }}`.

Each game names its deals ("games" in Kalooki, "hands" in Hand and Foot, "deals") and a table's
match ("set", "game", "match") in English words that the pages put into sentences
(`scoring.matches.deal_noun`, `match_noun`). These filters translate them, with a context that
tells a deal from a match (Hand and Foot's match is a "game" too); every Spanish and French noun
chosen is feminine where a sentence agrees with it (partida, mano; partie, main, donne).
"""

from datetime import date
from typing import Any

from django import template
from django.utils.functional import Promise
from django.utils.translation import gettext, npgettext, pgettext_lazy

register = template.Library()

DEALS: dict[str, tuple[Promise, Promise]] = {
    "game": (pgettext_lazy("a deal", "game"), pgettext_lazy("deals", "games")),
    "hand": (pgettext_lazy("a deal", "hand"), pgettext_lazy("deals", "hands")),
    "deal": (pgettext_lazy("a deal", "deal"), pgettext_lazy("deals", "deals")),
}
MATCHES: dict[str, Promise] = {
    "set": pgettext_lazy("a table's match", "set"),
    "game": pgettext_lazy("a table's match", "game"),
    "match": pgettext_lazy("a table's match", "match"),
}


def _singular(noun: str) -> str:
    return noun[:-1] if noun.endswith("s") and noun[:-1] in DEALS else noun


@register.filter
def deal_word(noun: str) -> str:
    """A deal's noun, one of them ("games" or "game" gives "game", translated)."""
    words = DEALS.get(_singular(noun))
    return str(words[0]) if words else noun


@register.filter
def deals_word(noun: str) -> str:
    """A deal's noun, more than one ("game" or "games" gives "games", translated)."""
    words = DEALS.get(_singular(noun))
    return str(words[1]) if words else noun


@register.filter
def match_word(noun: str) -> str:
    """A table's match ("set", "game", "match"), translated."""
    word = MATCHES.get(noun)
    return str(word) if word else noun


@register.filter
def as_date(day: str | date) -> date | str:
    """A day stored as ISO text (a season's events) as a date, for `|date` to write it in the
    page's language; text that is no date stays as it is."""
    if isinstance(day, date):
        return day
    try:
        return date.fromisoformat(day)
    except (TypeError, ValueError):
        return day


@register.filter
def deals_counted(noun: str, count: int) -> str:
    """A deal's noun for `count` of them, by the page's language's own plural rule (French
    writes "0 partie", English "0 games")."""
    one = _singular(noun)
    if one == "game":
        return npgettext("deals", "game", "games", count)
    if one == "hand":
        return npgettext("deals", "hand", "hands", count)
    if one == "deal":
        return npgettext("deals", "deal", "deals", count)
    return noun


@register.filter
def counted_sentence(standings: dict[str, Any]) -> str:
    """What the places count while a round is live, in the page's language, from a snapshot's
    `counted_up_to` and its deal noun; the snapshot's own `counted_words` stay English (the API's
    answer). "" when every deal counts."""
    up_to = standings.get("counted_up_to") or {}
    if not up_to:
        return ""
    round, deals = max((int(number), deals) for number, deals in up_to.items())
    noun = deal_word(standings.get("deal_noun") or "deal")
    if not deals:
        words = gettext("Round {round} counts from when every table has played {noun} 1")
    else:
        words = gettext("Round {round} counts up to {noun} {deals}, which every table has played")
    return words.format(round=round, noun=noun, deals=deals)
