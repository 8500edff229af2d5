"""The game protocol: everything the apps know about a card game, and all they may know.

Terms, the same for every game:

- A **side** scores together at a table: one player (Kalooki, Parcellus) or a team of partners
  (Hand and Foot). A tournament's entries are sides; a side's result is stored per entry.
- A **member** is one player of a side, in one seat. A side of one player has one member. Partners
  sit opposite: member ``m`` of side ``s`` (both from 0) is at seat ``s + m × sides + 1``.
- A **deal** is one hand of cards played out and scored, numbered from 1 in its match (Kalooki
  calls it a game, Hand and Foot a hand). A deal may end **void**, scoring nothing (Kalooki R9.2);
  it is recorded and dealt again as the next **attempt** of the same number.
- A **match** is what one table plays in one round: a Kalooki set of nine games, a Hand and Foot
  game of three hands, a Parcellus match to 30. Its **schedule** is a fixed list of deals, a
  target score, or a list of deals cut short when the director calls time.
- A **ruleset** is every setting of a game as data (a frozen dataclass of the game's own); a
  **preset** is a named ruleset. A tournament stores its ruleset whole (``Game.dump``), so a later
  change of presets or defaults never rescores it. A request names a preset and only the settings
  that differ: ``{"preset": "asaj-2025", "table_size": 4}`` (``Game.ruleset``).
- **Fields** are what a scorekeeper enters for a deal: per deal, per side or per member. A game
  **evaluates** an entry: its **errors** refuse it, its **warnings** need a confirmation and flag
  the deal for the director, and each **problem** cites its rule ("R10.3", "HF5.2", "PA3.1").
- **Stats** are the whole numbers a match gives each side for the standings (``"total"`` always;
  ``"games_won"``, ``"match_points"``, ... as the game needs). The standings add them over rounds
  and the game ranks the sides by them (``Rules.rank``), low or high first as the game says.

A game is a package under ``games/`` with a ``GAME`` object (a ``Game``); ``games.get(key)`` finds
it. ``Game.rules(ruleset)`` gives the ``Rules`` that answer every question of one tournament. The
apps call only what is here; nothing of this module, or of any game, imports Django.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import field as dataclass_field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

# --- problems -----------------------------------------------------------------------------------


class Phrase(str):
    """English words that remember how they were made, so an app can say them in another language.

    A phrase *is* its English (``template`` formatted with ``params``); ``template`` is the
    sentence a translator sees ("{player} went out, so scores 0 card points, not {points}") and
    ``params`` fill it. A param that is itself a phrase ("hand", "the foot", a contract's name) is
    translated too. Make one with ``gettext_noop``.
    """

    template: str
    params: dict[str, Any]


def gettext_noop(template: str, /, **params: Any) -> Phrase:
    """Marks ``template`` for translation (xgettext knows this name) and fills it in, in English.

    The games know no language but English; an app that speaks others translates ``template`` and
    formats it with ``params`` (``Phrase``). Whole sentences only: a translator cannot reorder
    fragments glued together after the fact.
    """
    phrase = Phrase(template.format(**params))
    phrase.template = template
    phrase.params = params
    return phrase


@dataclass(frozen=True, slots=True)
class Problem:
    """One error or warning. ``message`` is a sentence a person can act on, ending with its rule.

    ``player`` names whose hand it is about (the label the app gave the side or member); ``field``,
    ``side`` and ``member`` (indexes from 0) say where an entry form should show it. A message made
    with ``gettext_noop`` keeps its ``Phrase`` as ``phrase`` (without the rule appended), so that
    an app can translate it; the rule citation itself is never translated.
    """

    rule: str
    message: str
    player: str | None = None
    field: str | None = None
    side: int | None = None
    member: int | None = None
    phrase: Phrase | None = dataclass_field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.message, Phrase) and self.phrase is None:
            object.__setattr__(self, "phrase", self.message)
        # A message is often shown on its own (a toast, a log line), so it must say where to look.
        if self.rule and self.rule not in self.message:
            object.__setattr__(self, "message", f"{self.message} ({self.rule})")

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"rule": self.rule, "message": self.message, "player": self.player}
        for name in ("field", "side", "member"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        return data


class RulesError(ValueError):
    """A question the rules cannot answer at all; ``problem`` says which rule and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem

    @property
    def rule(self) -> str:
        return self.problem.rule


class RulesetInvalid(ValueError):
    """A ruleset that cannot be played: one problem per bad setting, each naming its ``field``."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


def and_list(words: Iterable[str], last: str = "and") -> str:
    """Words joined as a sentence lists them: "A, 2 and 3" (or "A, 2 or 3"), as a ``Phrase``."""
    words = list(words)
    if len(words) < 2:
        return "".join(words)
    head = ", ".join(words[:-1])
    if last == "or":
        return gettext_noop("{head} or {last}", head=head, last=words[-1])
    return gettext_noop("{head} and {last}", head=head, last=words[-1])


# --- settings of a ruleset ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting of a game's rulesets, as tools and set-up pages see it.

    ``schema`` is a JSON Schema fragment of the allowed values (``{"type": "integer", "minimum":
    3}``); ``rule`` the rule it changes; ``help`` what it means, in words.
    """

    name: str
    label: str
    schema: Mapping[str, Any]
    help: str = ""
    rule: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "schema": dict(self.schema),
            "help": self.help,
            "rule": self.rule,
        }


# --- the table, the schedule, a deal ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableShape:
    """Who sits at one table: ``sides`` as usual, from ``min_sides`` to ``max_sides``, each of
    ``members`` players (2: partners, sitting opposite)."""

    sides: int
    min_sides: int
    max_sides: int
    members: int = 1

    @property
    def seats(self) -> int:
        return self.sides * self.members

    def seat(self, side: int, member: int = 0, sides: int | None = None) -> int:
        """The seat (from 1, clockwise) of ``member`` of ``side`` (both from 0)."""
        return side + member * (sides or self.sides) + 1


@dataclass(frozen=True, slots=True)
class TablePlan:
    """How a number of sides is seated: table sizes in sides, largest first, and the byes."""

    sizes: tuple[int, ...]
    byes: int = 0


class ScheduleKind(StrEnum):
    FIXED = "fixed"  # a fixed list of deals (Kalooki's nine games)
    TARGET = "target"  # deals until someone reaches a target score (Parcellus: 30)
    TIMED = "timed"  # a fixed list of deals, unless the director calls time first (Hand and Foot)


@dataclass(frozen=True, slots=True)
class Schedule:
    kind: ScheduleKind
    deals: int | None = None  # how many deals, for FIXED and TIMED
    target: int | None = None  # the score to reach, for TARGET
    minutes: int | None = None  # the time allowed, for TIMED
    warning_minutes: int | None = None  # the players are warned this long before time, for TIMED
    words: str = ""  # "a set of nine games", "a match to 30 points"


@dataclass(frozen=True, slots=True)
class DealSpec:
    """One deal of the schedule as a table sees it: "Game 3", "11 cards: one three and two fours".

    ``dealer_step`` is how many seats clockwise from the first dealer this deal's dealer sits (None
    where the game has no dealer); ``facts`` the game's own numbers (``{"dealt": 11, "contract":
    "344"}``), for pages and score sheets.
    """

    number: int
    title: str
    summary: str
    dealer_step: int | None = None
    notes: tuple[str, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)


# --- what a scorekeeper enters ------------------------------------------------------------------


class Scope(StrEnum):
    DEAL = "deal"  # once per deal (Kalooki: down and out, void)
    SIDE = "side"  # once per side (Hand and Foot: red books)
    MEMBER = "member"  # once per player (Hand and Foot: the cards left in each partner's hand)


class FieldKind(StrEnum):
    FLAG = "flag"  # yes or no
    COUNT = "count"  # a whole number from ``minimum`` to ``maximum``
    POINTS = "points"  # points, whole, from ``minimum`` (may be negative) to ``maximum``
    CARDS = "cards"  # card text in the game's notation; ``keypad`` says which keys to offer
    CHOICE = "choice"  # one of ``choices``


@dataclass(frozen=True, slots=True)
class CardKey:
    """One key of a card keypad: the ``token`` it adds to the cards' text, and its points."""

    token: str
    label: str
    points: int


@dataclass(frozen=True, slots=True)
class Field:
    """One value a scorekeeper enters.

    ``exclusive``: at most one side (or member) of the table sets this flag (who went out).
    ``alternative_to``: this field is entered instead of the named one (points instead of cards).
    ``advanced``: rarely needed, shown behind a "more" per row.
    ``short``: a word or two for a compact line on a phone ("In hand" for "Points in hand"); the
    label when empty. A row's fields with a ``short`` are the ones its compact line shows.
    ``implied_by``: a flag set whenever the named exclusive flag of the same row is (going out
    implies the foot was played, HF5.3): a form sets it, the scorekeeper need not.
    """

    name: str
    label: str
    kind: FieldKind
    scope: Scope
    rule: str = ""
    help: str = ""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    exclusive: bool = False
    alternative_to: str | None = None
    advanced: bool = False
    keypad: tuple[CardKey, ...] = ()
    short: str = ""
    implied_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = {
            "name": self.name,
            "label": self.label,
            "kind": str(self.kind),
            "scope": str(self.scope),
            "rule": self.rule,
            "help": self.help,
            "required": self.required,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "default": self.default,
            "choices": [list(choice) for choice in self.choices],
            "exclusive": self.exclusive,
            "alternative_to": self.alternative_to,
            "advanced": self.advanced,
            "implied_by": self.implied_by or None,
        }
        if self.keypad:
            data["keypad"] = [
                {"token": key.token, "label": key.label, "points": key.points}
                for key in self.keypad
            ]
        return data


@dataclass(frozen=True, slots=True)
class SideEntry:
    """One side's part of a deal's entry: its ``values`` (SIDE fields) and, per member in seat
    order, the MEMBER fields. ``label`` and ``member_labels`` are names for messages."""

    label: str
    values: Mapping[str, Any] = field(default_factory=dict)
    members: tuple[Mapping[str, Any], ...] = ()
    member_labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DealEntry:
    """What a scorekeeper entered for deal ``number``: the DEAL fields and each side's entry, in
    the table's seat order. Values are JSON values: bools, whole numbers, text, or None."""

    number: int
    sides: tuple[SideEntry, ...]
    values: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "values": dict(self.values),
            "sides": [
                {"label": side.label, "values": dict(side.values), "members": list(side.members)}
                for side in self.sides
            ],
        }


# --- what a deal scores -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideScore:
    """What one side scores in one deal: ``points`` (signed), whether a member went out, the
    ``reasons`` behind the number (for "why 184?"), and ``detail``: the game's own breakdown, JSON
    values only, kept with the stored result."""

    points: int
    went_out: bool = False
    reasons: tuple[str, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "went_out": self.went_out,
            "reasons": list(self.reasons),
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True)
class DealScore:
    """A deal as scored: one ``SideScore`` per side, in the entry's order. A void deal scores 0."""

    number: int
    sides: tuple[SideScore, ...]
    void: bool = False
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "void": self.void,
            "detail": dict(self.detail),
            "sides": [side.to_dict() for side in self.sides],
        }


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A game's answer to an entry: the ``entry`` as it will be stored (cards in one canonical
    spelling), its errors and warnings, and its ``score`` (None when there are errors)."""

    entry: DealEntry
    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    score: DealScore | None = None

    @property
    def ok(self) -> bool:
        return not self.errors


# --- the match and the standings ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side's result of a match: ``place`` from 1 (``shared`` when level), whether it ``won``,
    and its ``stats`` for the standings (``"total"`` always)."""

    place: int
    won: bool
    stats: Mapping[str, int]
    shared: bool = False

    @property
    def total(self) -> int:
        return self.stats["total"]


@dataclass(frozen=True, slots=True)
class Column:
    """A standings column: the ``stat`` it shows, its heading, and which way is better."""

    stat: str
    label: str
    higher_is_better: bool
    help: str = ""


@dataclass(frozen=True, slots=True)
class SideSums:
    """One side's scored deals of a match, summed (void deals apart): its ``points``, the deals
    it ``went_out`` in, and of those the ones whose deal detail has the game's flag true
    (``Rules.sums_flag``; Kalooki: down and out; JSON ``true`` only, as the database reads it).
    A game whose match result follows from these alone (``Rules.scores_from_sums``) lets the
    standings have the database sum a tournament's results, instead of reading every result of
    every deal."""

    points: int = 0
    went_out: int = 0
    flagged: int = 0


def side_sums(played: Sequence[DealScore], flag: str | None) -> list[SideSums]:
    """Each side's sums of ``played``, in side order: what the database's sums must equal."""
    count = max((len(deal.sides) for deal in played), default=0)
    points, out, flagged = [0] * count, [0] * count, [0] * count
    for deal in played:
        if deal.void:
            continue
        for side, score in enumerate(deal.sides):
            points[side] += score.points
            if score.went_out:
                out[side] += 1
                flagged[side] += flag is not None and deal.detail.get(flag) is True
    return [SideSums(*sums) for sums in zip(points, out, flagged, strict=True)]


RoundStats = Mapping[str, int] | None  # one round's stats for a side; None for a bye


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One side's tournament: ``key`` identifies it to the caller; ``rounds`` holds the stats of
    each round it played (oldest first, a bye as None)."""

    key: str
    rounds: tuple[RoundStats, ...]


@dataclass(frozen=True, slots=True)
class Placing:
    """A side's place in the standings (``shared`` when level) and the stats it was ranked by."""

    place: int
    key: str
    stats: Mapping[str, int]
    shared: bool = False


# --- dispute tools ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tool:
    """A check a director can run in a dispute (Kalooki: "meld", "contract", "tack-on")."""

    name: str
    label: str
    help: str = ""


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    valid: bool
    errors: tuple[Problem, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": [problem.to_dict() for problem in self.errors],
            **dict(self.detail),
        }


# --- the protocol -------------------------------------------------------------------------------

R = TypeVar("R")  # a game's own ruleset type


class Rules(ABC, Generic[R]):
    """One game under one ruleset: every question a tournament asks of its game."""

    game: Game[R]
    ruleset: R

    def __init__(self, game: Game[R], ruleset: R) -> None:
        self.game = game
        self.ruleset = ruleset

    @property
    def higher_wins(self) -> bool:
        return self.game.higher_wins

    @abstractmethod
    def describe(self) -> tuple[str, ...]:
        """The ruleset in words, one line per setting that matters to players."""

    @abstractmethod
    def shape(self) -> TableShape: ...

    @abstractmethod
    def table_plan(self, sides: int) -> TablePlan:
        """Table sizes (in sides) and byes for ``sides`` sides; ``RulesError`` if impossible."""

    @abstractmethod
    def schedule(self) -> Schedule: ...

    @abstractmethod
    def deal(self, number: int) -> DealSpec:
        """Deal ``number`` of the schedule; ``RulesError`` if the match has no such deal."""

    @abstractmethod
    def fields(self, number: int) -> tuple[Field, ...]:
        """What a scorekeeper enters for deal ``number``."""

    @abstractmethod
    def evaluate(self, entry: DealEntry, played: Sequence[DealScore] = ()) -> Evaluation:
        """Check an entry (errors, warnings) and score it when it has no errors. ``played`` are the
        match's deals scored before it, for checks that depend on them."""

    @abstractmethod
    def next_deal(self, played: Sequence[DealScore], *, time_called: bool = False) -> int | None:
        """The number of the deal to enter next, or None when the match is over."""

    def match_over(self, played: Sequence[DealScore], *, time_called: bool = False) -> bool:
        return self.next_deal(played, time_called=time_called) is None

    @abstractmethod
    def match_result(
        self,
        played: Sequence[DealScore],
        *,
        adjustments: Sequence[int] = (),
        decided_for: int | None = None,
        time_called: bool = False,
    ) -> tuple[SideResult, ...]:
        """Each side's result of the match so far (in the entry's side order). ``adjustments``
        are ruling points per side, counted in its total; ``decided_for`` is the side a ruling
        declared the winner of a tie (a play-off, a high-card draw)."""

    #: Whether a match's result follows from each side's ``SideSums`` alone; if so, the game
    #: gives ``match_result_from_sums``, ``match_result`` is that of ``side_sums(played)``, and
    #: ``next_deal`` reads only the deals' numbers and whether they are void.
    scores_from_sums: ClassVar[bool] = False
    #: The deal-detail flag counted for the side that went out, in ``SideSums.flagged``.
    sums_flag: ClassVar[str | None] = None
    #: The stats that credit a side with winning the match (Kalooki's sets won, Hand and Foot's
    #: games won): the standings count them only once the match is over, never for the side
    #: leading a match still being played.
    match_win_stats: ClassVar[tuple[str, ...]] = ()

    def match_result_from_sums(
        self,
        sums: Sequence[SideSums],
        *,
        adjustments: Sequence[int] = (),
        decided_for: int | None = None,
        time_called: bool = False,
    ) -> tuple[SideResult, ...]:
        """``match_result`` from each side's sums, for a game that ``scores_from_sums``."""
        raise NotImplementedError(f"{type(self).__name__} scores a match from its deals")

    @abstractmethod
    def columns(self) -> tuple[Column, ...]:
        """The standings columns, the ranking's order first."""

    @abstractmethod
    def rank(self, lines: Sequence[StandingLine]) -> tuple[Placing, ...]:
        """Every side placed by the ruleset's order and tie-breaks; level sides share a place
        (1, 2, 2, 4) and are listed by key."""

    def stats(self, lines: Sequence[StandingLine]) -> dict[str, Mapping[str, int]]:
        """Each line's stats by its key, as ``rank`` gives them, for a caller that needs them
        without the places. A game whose stats come from each line alone may give them without
        ranking (Kalooki)."""
        return {placing.key: placing.stats for placing in self.rank(lines)}

    def cites(self, topic: str) -> str:
        """The rule the apps cite when they refuse an entry for a reason every game has, by
        ``topic``: ``"order"`` (deals are entered in the schedule's order, none after the match
        is over), ``"ruling"`` (once a match is signed off or its round locked, only a
        director's ruling changes a score), ``"void"`` (a void deal is entered before it is
        dealt again, never over a result), ``"table"`` (how many sit at a table),
        ``"first_dealer"`` (who deals first and how the deal moves), ``"round"`` (what a round
        seats), ``"ranking"`` (how the standings rank), ``"went_out"`` (going out), ``"flag"``
        (the warnings a result may be saved over), ``"warning"`` (the clock's warning before
        time). Empty where the game's rules number none, so that a page never cites another
        game's rule."""
        return self.game.citations.get(topic, "")

    def bye_words(self) -> str:
        """How the standings score a bye under this ruleset, in words with its rule number;
        empty where the game's table plan leaves no byes (Kalooki)."""
        return ""

    def tools(self) -> tuple[Tool, ...]:
        """The dispute checks this game offers; none by default."""
        return ()

    def check(self, tool: str, request: Mapping[str, Any]) -> ToolAnswer:
        """Run dispute check ``tool``; ``RulesError`` for a tool the game does not have."""
        text = gettext_noop(
            "{game} has no check called {tool}", game=self.game.name, tool=repr(tool)
        )
        raise RulesError(Problem("", text))

    @abstractmethod
    def example_entry(self, number: int, sides: int, rng: random.Random) -> DealEntry:
        """A plausible, valid entry for deal ``number`` at a table of ``sides`` sides: for demos,
        benchmarks and tests."""


class Game(ABC, Generic[R]):
    """A card game: its name, its presets and settings, and the ``Rules`` for a ruleset."""

    key: ClassVar[str]  # "kalooki"
    name: ClassVar[str]  # "Kalooki"
    higher_wins: ClassVar[bool]  # Kalooki: the lowest total wins; the others: the highest
    default_preset: ClassVar[str]
    # The rules the apps cite for refusals every game shares (``Rules.cites``), by topic.
    citations: ClassVar[Mapping[str, str]] = {}

    @abstractmethod
    def presets(self) -> Mapping[str, R]:
        """The named rulesets, by key."""

    @abstractmethod
    def settings(self) -> tuple[Setting, ...]:
        """Every setting a ruleset request may change, with its allowed values."""

    @abstractmethod
    def ruleset(self, request: Mapping[str, Any] | None = None) -> R:
        """A ruleset from a request: ``{"preset": NAME, SETTING: VALUE, ...}`` (the default preset
        when no preset is named). ``RulesetInvalid`` names every bad setting."""

    @abstractmethod
    def load(self, stored: Mapping[str, Any]) -> R:
        """A stored ruleset (``dump``) read back; ``RulesetInvalid`` if it cannot be played."""

    @abstractmethod
    def dump(self, ruleset: R) -> dict[str, Any]:
        """The whole ruleset as JSON data, preset name included; ``load`` reads it back equal."""

    @abstractmethod
    def changes(self, ruleset: R) -> dict[str, Any]:
        """The ruleset as a request: its preset and only the settings that differ from it."""

    @abstractmethod
    def rules(self, ruleset: R) -> Rules[R]: ...

    def to_dict(self) -> dict[str, Any]:
        """The game for ``GET /api/games``: presets (as requests) and settings."""
        return {
            "key": self.key,
            "name": self.name,
            "higher_wins": self.higher_wins,
            "default_preset": self.default_preset,
            "presets": {key: self.dump(ruleset) for key, ruleset in self.presets().items()},
            "settings": [setting.to_dict() for setting in self.settings()],
        }
