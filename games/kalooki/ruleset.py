"""Rulesets: every number and choice the rules leave to a tournament, held as data.

A **game spec** is one game of a set (R4): its ``number`` (1 to 9), how many cards are ``dealt``
and its ``contract``, written as one digit per meld the first lay-down must hold: ``3`` for a
**three** (3+ cards of one rank, R3.1) and ``4`` for a **four** (a run of 4+ cards of one suit,
R3.3). So ``"334"`` is "two threes and one four", and a digit is also that meld's least length.

**Card values** are the R2 penalty points of the cards left in hand.

A **ruleset** holds the nine game specs, the card values, the deck (``packs``, ``jokers``), the
penalties, the doubling and tie-break choices, the switches for each **Interpretation** of
RULES.md and the **house rules** of R13 (joker exchange, calls after coming down, down-and-out
doubling, the 18-card challenge). A tournament stores its ruleset as JSON (``to_dict``) and reads
it back (``from_dict``), so a later change of the defaults here never rescores an old tournament.
A **preset** is a named ruleset (``PRESETS``); a ruleset remembers the preset it was made from.

``ruleset_problems`` checks ruleset data (the ``to_dict`` form, from any client) setting by setting:
every problem names its ``field`` and the rule it breaks, so a set-up page can show each one beside
its input. ``SETTINGS`` says each setting's label, allowed values (a JSON Schema fragment) and rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.base import gettext_noop

from .cards import JOKER, NATURALS, Card, Colour, Rank, suitless
from .problems import Problem, RulesError, UnknownGameError
from .settings import SETTINGS, TIE_BREAKS, ruleset_problems

THREE = "three"
FOUR = "four"
MELD_BY_DIGIT = {"3": THREE, "4": FOUR}
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True, slots=True)
class GameSpec:
    number: int
    dealt: int
    contract: str

    def __post_init__(self) -> None:
        if not self.contract or set(self.contract) - set(MELD_BY_DIGIT):
            raise ValueError(
                f"game {self.number}: a contract is digits 3 and 4, not {self.contract!r}"
            )
        if self.number < 1 or self.dealt < 1:
            raise ValueError(f"game {self.number}: numbers and cards dealt start at 1")

    @property
    def threes(self) -> int:
        return self.contract.count("3")

    @property
    def fours(self) -> int:
        return self.contract.count("4")

    @property
    def contract_cards(self) -> int:
        """The fewest cards that satisfy the contract (R4.2: as many as are dealt, for ASAJ)."""
        return 3 * self.threes + 4 * self.fours

    def describe(self) -> str:
        """The contract in words: "two threes and one four"."""
        return describe_melds(self.threes, self.fours)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "dealt": self.dealt, "contract": self.contract}


def describe_melds(threes: int, fours: int) -> str:
    """Counts of melds in words: "two threes and one four", "no melds"."""
    parts = [_count(threes, THREE), _count(fours, FOUR)]
    return " and ".join(part for part in parts if part) or "no melds"


def _count(n: int, meld: str) -> str:
    if n == 0:
        return ""
    word = _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)
    return f"{word} {meld}" + ("s" if n > 1 else "")


ASAJ_GAMES = tuple(
    GameSpec(number, dealt, contract)
    for number, dealt, contract in (
        (1, 9, "333"),
        (2, 10, "334"),
        (3, 11, "344"),
        (4, 12, "444"),
        (5, 12, "3333"),
        (6, 13, "3334"),
        (7, 14, "3344"),
        (8, 15, "3444"),
        (9, 16, "4444"),
    )
)


@dataclass(frozen=True, slots=True)
class CardValues:
    """R2 penalty points; ``table`` maps every card to its points, built once."""

    joker: int = 50
    black_ace: int = 15
    red_ace: int = 1
    king: int = 10
    queen: int = 10
    jack: int = 10
    ten: int = 10
    nine: int = 9
    eight: int = 8
    seven: int = 7
    six: int = 6
    five: int = 5
    four: int = 4
    three: int = 3
    two: int = 2
    table: dict[Card, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        table = {card: self._points(card.rank, card.colour) for card in NATURALS}
        # Suitless cards (R11.3, R11.4): a rank alone, or with its colour, costs what its suited
        # cards cost; a bare ace only where both colours of ace cost the same.
        for colour in (None, *Colour):
            for rank in _RANK_FIELDS:
                table[suitless(rank, colour)] = getattr(self, _RANK_FIELDS[rank])
            table[suitless(Rank.ACE, colour)] = self._points(Rank.ACE, colour)
        if self.black_ace != self.red_ace:
            del table[suitless(Rank.ACE)]
        object.__setattr__(self, "table", table | {JOKER: self.joker})

    def _points(self, rank: Rank, colour: Colour | None) -> int:
        if rank is Rank.ACE:
            return self.black_ace if colour is Colour.BLACK else self.red_ace
        return getattr(self, _RANK_FIELDS[rank])

    def knows(self, card: Card) -> bool:
        """Whether ``card`` has a value here: a bare ace has none when aces differ by colour."""
        return card in self.table

    def to_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}


_RANK_FIELDS = {
    Rank.KING: "king",
    Rank.QUEEN: "queen",
    Rank.JACK: "jack",
    Rank.TEN: "ten",
    Rank.NINE: "nine",
    Rank.EIGHT: "eight",
    Rank.SEVEN: "seven",
    Rank.SIX: "six",
    Rank.FIVE: "five",
    Rank.FOUR: "four",
    Rank.THREE: "three",
    Rank.TWO: "two",
}


NATURAL_THREE = 3  # R13.5: a three of three naturals, the least three, holds no joker


@dataclass(frozen=True)
class Ruleset:
    name: str
    games: tuple[GameSpec, ...] = ASAJ_GAMES
    table_size: int = 5  # R1.1
    # R12.2: tables of four (and, for 6 or 11 players, of three or six) are normal.
    min_table_size: int = 3
    max_table_size: int = 6
    card_values: CardValues = field(default_factory=CardValues)  # R2
    packs: int = 3  # R1.2
    jokers: int = 6  # R1.2
    max_copies: int = 3  # R1.2, R10.3: one natural card per pack
    min_naturals_in_three: int = 2  # R3.2
    max_jokers_in_three: int | None = None  # R3.2 Interpretation: no limit once two naturals
    aces_at_both_ends: bool = True  # R3.4 Interpretation: A-2-...-K-A is one four
    extra_melds_allowed: bool = True  # R5.3 Interpretation
    call_limit: int = 3  # R6.2
    failed_come_down_penalty: int = 50  # R5.4
    overcall_penalty: int = 50  # R6.3
    double_penalties_on_down_and_out: bool = False  # R8.4 Interpretation
    assumed_calls_when_unknown: int = 3  # R10.4
    tie_breaks: tuple[str, ...] = TIE_BREAKS  # R12.3 Interpretation
    # House rules (R13); the defaults are the ASAJ 2025 rules.
    double_on_down_and_out: bool = True  # R8.3, R13.8
    calls_after_coming_down: bool = False  # R6.1, R13.7
    joker_exchange: bool = False  # R7.3, R13.6
    card_challenge: bool = False  # R13.9: the 18-card challenge
    challenge_limit: int = 18  # R13.9
    challenge_penalty: int = 50  # R13.9
    preset: str = "asaj-2025"  # the preset this ruleset was made from (R13.10)

    def __post_init__(self) -> None:
        problems = ruleset_problems(self.to_dict())
        if problems:
            raise RulesError(problems[0])

    def game(self, number: int) -> GameSpec:
        """The spec of game ``number``; an ``UnknownGameError`` if the set has no such game."""
        if isinstance(number, int) and 1 <= number <= len(self.games):
            return self.games[number - 1]
        message = gettext_noop(
            "there is no game {number}: a set has games 1 to {count}",
            number=repr(number),
            count=len(self.games),
        )
        raise UnknownGameError(Problem("R4", message))

    @property
    def natural_threes(self) -> bool:
        """Whether a three is natural cards only, no joker in it (R13.5: three naturals)."""
        return self.min_naturals_in_three >= NATURAL_THREE

    @property
    def deck_size(self) -> int:
        return 52 * self.packs + self.jokers

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; ``Ruleset.from_dict`` gives back an equal ruleset."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["games"] = [spec.to_dict() for spec in self.games]
        data["card_values"] = self.card_values.to_dict()
        data["tie_breaks"] = list(self.tie_breaks)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Read stored ruleset data; a key left out takes today's default, an unknown key fails."""
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise RulesError(
                Problem(
                    "R1",
                    gettext_noop(
                        "unknown ruleset settings: {names}", names=", ".join(sorted(unknown))
                    ),
                )
            )
        values = dict(data)
        if "games" in values:
            values["games"] = tuple(GameSpec(**spec) for spec in values["games"])
        if "card_values" in values:
            values["card_values"] = CardValues(**values["card_values"])
        if "tie_breaks" in values:
            values["tie_breaks"] = tuple(values["tie_breaks"])
        return cls(**values)


ASAJ_2025 = Ruleset(name="ASAJ Kalooki Tournament 2025")
# A club's four-handed game (R13.10): four at a table (three to five when the numbers need it),
# two packs and four jokers (108 cards: game 9 deals 16 each to five and still leaves a stock of
# 27), so a card exists at most twice; and the 18-card challenge, which clubs play. Everything
# else is as ASAJ 2025, so players moving between the two meet only those differences.
CLUB_FOUR = Ruleset(
    name="Club Kalooki, four at a table",
    table_size=4,
    min_table_size=3,
    max_table_size=5,
    packs=2,
    jokers=4,
    max_copies=2,
    card_challenge=True,
    preset="club-four",
)
PRESETS: dict[str, Ruleset] = {"asaj-2025": ASAJ_2025, "club-four": CLUB_FOUR}
DEFAULT_PRESET = "asaj-2025"

__all__ = [
    "ASAJ_2025",
    "CLUB_FOUR",
    "DEFAULT_PRESET",
    "FOUR",
    "PRESETS",
    "SETTINGS",
    "THREE",
    "TIE_BREAKS",
    "CardValues",
    "GameSpec",
    "Ruleset",
    "describe_melds",
    "ruleset_problems",
]
