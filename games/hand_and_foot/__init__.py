"""Hand and Foot for teams of two, as a club's tournament rule sheet plays it (RULES.md, HF1-HF11).

``GAME`` is the game behind the protocol of ``games.base``. Modules: ``deck`` (HF1, HF7: kinds of
card and their values), ``ruleset`` (every number as data, presets, settings), ``books`` (HF4.3:
what the deck allows), ``fields`` and ``report`` (what a scorekeeper enters, HF8.1, HF8.2),
``checks`` (HF8), ``scoring`` (HF6), ``match`` (HF2, HF10), ``standings`` (HF11), ``tools``
(dispute checks: a book, an opening meld, a count), ``examples`` (plausible entries) and
``game`` (the protocol's classes). It imports nothing of Django and no other game.
"""

from .game import HandAndFoot, HandAndFootRules
from .ruleset import CLUB_SHEET, FOUR_HANDS, PRESETS, Ruleset

GAME = HandAndFoot()

__all__ = [
    "CLUB_SHEET",
    "FOUR_HANDS",
    "GAME",
    "PRESETS",
    "HandAndFoot",
    "HandAndFootRules",
    "Ruleset",
]
