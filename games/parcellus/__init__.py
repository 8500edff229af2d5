"""Parcellus: a three-player card game by Matthew Shields (2008), played in matches to 30.

Plain Python, nothing of Django or of another game. Every check and score cites a rule of
``RULES.md`` (PA1 to PA8). Modules: ``deck`` (the 24 cards and the parcel rule, PA1, PA3.2),
``ruleset`` (every setting as data, PA4, PA5, PA7), ``reports`` (the fields and reading what a
client sent, PA6.1), ``checks`` (PA6.2 to PA6.7), ``scoring`` (a deal and a match, PA4, PA5,
PA7.3), ``standings`` (byes and ranking, PA7.2, PA7.4), ``play`` (a deal played out by the rules,
for example entries) and ``game`` (the protocol). ``GAME`` is the game the apps find.
"""

from .game import Parcellus, ParcellusRules
from .ruleset import PRESETS, Ruleset

GAME = Parcellus()

__all__ = ["GAME", "PRESETS", "Parcellus", "ParcellusRules", "Ruleset"]
