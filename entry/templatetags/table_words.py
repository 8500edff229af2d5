"""The games' own words for their deals and matches, in the reader's language, for the table's
pages: `{{ page.deal_noun|noun }}` ("game", "hand", "deal"; "set", "match") and
`{{ result.title|deal_title }}` ("Game 3", "Hand 2", "Deal 4").

The games name their deals in English (`games/`, Django-free); these are the few words the
table's sentences put their nouns in. Every one is feminine in Spanish and French (partida, mano,
serie; partie, main, donne, série), so that a sentence holding one agrees whatever the game.
"""

from __future__ import annotations

import re

from django import template
from django.utils.translation import pgettext, pgettext_lazy

register = template.Library()

NOUNS = {
    # Translators: a Kalooki deal (one of a set's nine games) or a Hand and Foot match: feminine.
    "game": pgettext_lazy("deal noun", "game"),
    "games": pgettext_lazy("deal noun", "games"),
    # Translators: one hand of Hand and Foot: feminine (mano, main).
    "hand": pgettext_lazy("deal noun", "hand"),
    "hands": pgettext_lazy("deal noun", "hands"),
    # Translators: one deal of Parcellus: feminine (mano, donne).
    "deal": pgettext_lazy("deal noun", "deal"),
    "deals": pgettext_lazy("deal noun", "deals"),
    # Translators: Kalooki's nine games at one table: feminine (serie, série).
    "set": pgettext_lazy("deal noun", "set"),
    # Translators: a Parcellus match to 30: feminine (partida, partie).
    "match": pgettext_lazy("deal noun", "match"),
}
TITLE = re.compile(r"^(Game|Hand|Deal) (\d+)$")


@register.filter
def noun(word: str) -> str:
    """A game's noun ("game", "hands", "set") in the reader's language; any other word as it is."""
    return str(NOUNS.get(str(word), word))


@register.filter
def deal_title(title: str) -> str:
    """ "Game 3", "Hand 2", "Deal 4" in the reader's language; any other title as it is."""
    found = TITLE.match(str(title))
    if not found:
        return title
    titles = {
        "Game": pgettext("deal title", "Game %(number)s"),
        "Hand": pgettext("deal title", "Hand %(number)s"),
        "Deal": pgettext("deal title", "Deal %(number)s"),
    }
    return titles[found[1]] % {"number": found[2]}


@register.filter
def numbers(results: object) -> str:
    """The deals' numbers as one list ("2, 5"), for a sentence that names them."""
    return ", ".join(str(result.number) for result in results)  # type: ignore[attr-defined]
