"""The Kalooki rules engine: cards, melds, contracts, entry checks and scores, in plain Python.

It knows cards, hands, melds and numbers, never players' records, tables or a database, and it
imports nothing from Django. Every refusal is a ``Problem`` citing a rule of RULES.md (R1 to R12).
Modules: ``cards`` (R1, R2, R11), ``ruleset`` (every number, as data), ``melds`` (R3),
``contracts`` (R4, R5), ``tacking`` (R7), ``reports`` and ``checks`` (R10), ``scoring`` (R8, R9),
``standings`` (R12.3) and ``seating`` (R12.2); ``settings`` and ``house_rules`` (R13: rulesets
as requests, validated field by field, and in words), ``points`` (R2 values and the R1.2 deck),
``tools`` (the dispute checks) and ``game`` (``GAME``: all of it behind the game protocol of
``games.base``, through ``deal_reports``).
"""

from .cards import (
    JOKER,
    Card,
    CardParseError,
    Colour,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from .checks import ReportCheck, check_report, hand_size, max_hand_points
from .contracts import ContractCheck, check_contract
from .game import GAME, KalookiGame, KalookiRules
from .melds import MeldCheck, check_four, check_meld, check_three
from .points import card_points, deck, hand_points
from .problems import Problem, RulesError, UnknownGameError
from .reports import CHALLENGED, CHALLENGER, GameReport, HandReport
from .ruleset import ASAJ_2025, CLUB_FOUR, FOUR, PRESETS, THREE, CardValues, GameSpec, Ruleset
from .scoring import (
    GameScore,
    PlayerScore,
    PlayerSetScore,
    ReportRefused,
    SetScore,
    evaluate,
    score_game,
    score_set,
)
from .seating import table_sizes
from .standings import Placing, StandingLine, rank_standings
from .tacking import JokerMove, TackCheck, check_discard, check_tack_on, replace_joker

__all__ = [
    "ASAJ_2025",
    "CHALLENGED",
    "CHALLENGER",
    "CLUB_FOUR",
    "FOUR",
    "GAME",
    "JOKER",
    "PRESETS",
    "THREE",
    "Card",
    "CardParseError",
    "CardValues",
    "Colour",
    "ContractCheck",
    "GameReport",
    "GameScore",
    "GameSpec",
    "HandReport",
    "JokerMove",
    "KalookiGame",
    "KalookiRules",
    "MeldCheck",
    "Placing",
    "PlayerScore",
    "PlayerSetScore",
    "Problem",
    "Rank",
    "ReportCheck",
    "ReportRefused",
    "RulesError",
    "Ruleset",
    "SetScore",
    "StandingLine",
    "Suit",
    "TackCheck",
    "UnknownGameError",
    "card_points",
    "check_contract",
    "check_discard",
    "check_four",
    "check_meld",
    "check_report",
    "check_tack_on",
    "check_three",
    "deck",
    "evaluate",
    "format_cards",
    "hand_points",
    "hand_size",
    "max_hand_points",
    "parse_card",
    "parse_cards",
    "rank_standings",
    "replace_joker",
    "score_game",
    "score_set",
    "table_sizes",
]
