"""Kalooki behind the game protocol (``games.base``): the one engine, answering a tournament.

``KalookiGame`` is the game (its presets, settings and rulesets, R13); ``KalookiRules`` answers
every question of one tournament under one ruleset by calling the engine's modules: the table
shape and plan (R1.1, R12.2), the set of games (R4), the fields a scorekeeper fills in, the R10
checks and R8 scoring of a deal (``evaluate``), the set's result (R4.1, R8.6), the standings
(R12.3) and the dispute tools (``meld``, ``contract``, ``tack-on``). Nothing is computed twice:
where the engine already answers, this module only translates.

A **side** is one player. A **deal** is one game of the set; a void game (R9.2) scores nothing and
is dealt again as the next attempt of the same number. **Stats** per set: ``total`` (points, lower
is better), ``wins`` (1 for the set's winner, R4.1), ``games_won`` (games gone out in) and
``down_and_outs`` (games gone out in down and out); the standings add ``latest_round_score`` (the
latest round's total) for the R12.3 tie-break.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from games.base import (
    CardKey,
    Column,
    DealEntry,
    DealScore,
    DealSpec,
    Evaluation,
    Field,
    FieldKind,
    Game,
    Placing,
    Problem,
    Rules,
    RulesError,
    Schedule,
    ScheduleKind,
    Scope,
    Setting,
    SideEntry,
    SideResult,
    SideScore,
    SideSums,
    StandingLine,
    TablePlan,
    TableShape,
    Tool,
    ToolAnswer,
    gettext_noop,
    side_sums,
)

from . import standings as legacy_standings
from .cards import Card, format_cards
from .checks import hand_size, max_hand_points, read_entry
from .deal_entries import MAX_COUNT, canonical, placed, read_deal
from .entries import CHALLENGED, CHALLENGER
from .house_rules import describe, ruleset_changes, ruleset_from_request, ruleset_from_storage
from .points import deck, hand_points
from .ruleset import DEFAULT_PRESET, PRESETS, Ruleset
from .scoring import GameScore, score_read
from .seating import table_sizes
from .settings import SETTINGS
from .tools import check_tool

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


class KalookiGame(Game[Ruleset]):
    key = "kalooki"
    name = "Kalooki"
    higher_wins = False
    default_preset = DEFAULT_PRESET
    citations = {
        "order": "R4.1",
        "ruling": "R12.4",
        "void": "R9.2",
        "table": "R12.2",
        "first_dealer": "R4.3",
        "round": "R12.1",
        "ranking": "R12.3",
        "went_out": "R8.1",
        "flag": "R10.6, R10.7",
    }

    def presets(self) -> Mapping[str, Ruleset]:
        return dict(PRESETS)

    def settings(self) -> tuple[Setting, ...]:
        return tuple(Setting(s.name, s.label, s.schema, s.help, s.rule) for s in SETTINGS)

    def ruleset(self, request: Mapping[str, Any] | None = None) -> Ruleset:
        return ruleset_from_request(request)

    def load(self, stored: Mapping[str, Any]) -> Ruleset:
        return ruleset_from_storage(stored)

    def dump(self, ruleset: Ruleset) -> dict[str, Any]:
        return ruleset.to_dict()

    def changes(self, ruleset: Ruleset) -> dict[str, Any]:
        return ruleset_changes(ruleset)

    def rules(self, ruleset: Ruleset) -> KalookiRules:
        return KalookiRules(self, ruleset)


class KalookiRules(Rules[Ruleset]):
    scores_from_sums = True  # a set's result is its totals and games gone out in (R8.6, R12.3)
    sums_flag = "down_and_out"  # R8.3, counted for the player who went out
    match_win_stats = ("wins",)  # a set is won when it is over (R4.1)

    def describe(self) -> tuple[str, ...]:
        return describe(self.ruleset)

    # --- the table and the set ------------------------------------------------------------------

    def shape(self) -> TableShape:
        r = self.ruleset
        return TableShape(r.table_size, r.min_table_size, r.max_table_size, members=1)

    def table_plan(self, sides: int) -> TablePlan:
        """R12.2: tables of the usual size and as few one short as needed; Kalooki has no byes."""
        return TablePlan(table_sizes(sides, self.ruleset), byes=0)

    def schedule(self) -> Schedule:
        count = len(self.ruleset.games)
        word = _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)
        return Schedule(ScheduleKind.FIXED, deals=count, words=f"a set of {word} games")

    def deal(self, number: int) -> DealSpec:
        spec = self.ruleset.game(number)  # UnknownGameError (a RulesError, R4) otherwise
        return DealSpec(
            number=spec.number,
            title=f"Game {spec.number}",
            summary=f"{spec.dealt} cards: {spec.describe()}",
            dealer_step=spec.number - 1,  # R4.3: the deal passes one seat clockwise per game
            notes=("A void game is dealt again by the same dealer (R4.3, R9.2).",),
            facts={"dealt": spec.dealt, "contract": spec.contract},
        )

    def fields(self, number: int) -> tuple[Field, ...]:
        return self._fields[self.ruleset.game(number).number]

    @cached_property
    def _fields(self) -> dict[int, tuple[Field, ...]]:
        return {spec.number: self._deal_fields(spec.number) for spec in self.ruleset.games}

    def _deal_fields(self, number: int) -> tuple[Field, ...]:
        r, spec = self.ruleset, self.ruleset.game(number)
        most = max_hand_points(hand_size(spec, MAX_COUNT, r), r)
        fields = [
            Field(
                "down_and_out",
                gettext_noop("Down and out"),
                FieldKind.FLAG,
                Scope.DEAL,
                "R8.3",
                _down_and_out_help(r),
                default=False,
            ),
            Field(
                "void",
                gettext_noop("Void game"),
                FieldKind.FLAG,
                Scope.DEAL,
                "R9.2",
                gettext_noop("The stock ran out twice: nobody scores and the game is dealt again."),
                default=False,
                advanced=True,
            ),
            Field(
                "went_out",
                gettext_noop("Went out"),
                FieldKind.FLAG,
                Scope.SIDE,
                "R8.1",
                gettext_noop("The one player who went out (scores 0)."),
                default=False,
                exclusive=True,
            ),
            Field(
                "cards",
                gettext_noop("Cards left"),
                FieldKind.CARDS,
                Scope.SIDE,
                "R11",
                gettext_noop(
                    "The cards left in hand; the suit only where it matters (K, AB, AR, JK)."
                ),
                keypad=self.keypad(),
            ),
            Field(
                "points",
                gettext_noop("Points"),
                FieldKind.POINTS,
                Scope.SIDE,
                "R10.4",
                gettext_noop(
                    "The cards' points before any doubling, when the cards were not written down."
                ),
                minimum=1,
                maximum=most,
                alternative_to="cards",
            ),
            Field(
                "calls",
                gettext_noop("Calls"),
                FieldKind.COUNT,
                Scope.SIDE,
                "R6.2",
                _calls_help(r),
                minimum=0,
                maximum=MAX_COUNT,
            ),
            Field(
                "failed_come_downs",
                gettext_noop("Failed come-downs"),
                FieldKind.COUNT,
                Scope.SIDE,
                "R5.4",
                gettext_noop("{penalty} points each.", penalty=r.failed_come_down_penalty),
                minimum=0,
                maximum=MAX_COUNT,
                default=0,
                advanced=True,
            ),
            Field(
                "overcall_penalty",
                gettext_noop("Overcalled"),
                FieldKind.FLAG,
                Scope.SIDE,
                "R6.3",
                gettext_noop(
                    "Challenged and found with more than {limit} calls: {penalty} points.",
                    limit=r.call_limit,
                    penalty=r.overcall_penalty,
                ),
                default=False,
                advanced=True,
            ),
        ]
        if r.card_challenge:
            fields.append(self._challenge_field())
        return tuple(fields)

    def _challenge_field(self) -> Field:
        limit, penalty = self.ruleset.challenge_limit, self.ruleset.challenge_penalty
        return Field(
            "challenge",
            gettext_noop("Lost the {limit}-card challenge", limit=limit),
            FieldKind.CHOICE,
            Scope.SIDE,
            "R13.9",
            gettext_noop(
                "Scores their cards plus {penalty} and takes no further part in the game.",
                penalty=penalty,
            ),
            choices=(
                ("", gettext_noop("No")),
                (CHALLENGED, gettext_noop("Challenged, held more than {limit}", limit=limit)),
                (
                    CHALLENGER,
                    gettext_noop(
                        "Challenged wrongly (the other held {limit} or fewer)", limit=limit
                    ),
                ),
            ),
            default="",
            advanced=True,
        )

    def keypad(self) -> tuple[CardKey, ...]:
        """One key per value class the ruleset tells apart (R2, R11.3, R11.4)."""
        v = self.ruleset.card_values
        aces = (
            (CardKey("AB", "black A", v.black_ace), CardKey("AR", "red A", v.red_ace))
            if v.black_ace != v.red_ace
            else (CardKey("A", "A", v.black_ace),)
        )
        ranks = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
        names = ("king", "queen", "jack", "ten", "nine", "eight", "seven", "six", "five", "four",
                 "three", "two")  # fmt: skip
        values = v.to_dict()
        plain = tuple(
            CardKey(rank, rank, values[name]) for rank, name in zip(ranks, names, strict=True)
        )
        return (CardKey("JK", "JK", v.joker), *aces, *plain)

    # --- a deal ---------------------------------------------------------------------------------

    def evaluate(self, entry: DealEntry, played: Sequence[DealScore] = ()) -> Evaluation:
        read = read_deal(entry, self.ruleset)
        check, hands = read_entry(read.game, self.ruleset, unreadable="R11")
        taken = {(problem.side, problem.field) for problem in read.errors}
        errors = [*read.errors] + [
            problem
            for problem in (placed(p, read.labels, read.sides) for p in check.errors)
            if (problem.side, problem.field) not in taken or problem.side is None
        ]
        warnings = tuple(placed(p, read.labels, read.sides) for p in check.warnings)
        stored = canonical(entry, read, hands)
        if errors:
            return Evaluation(stored, tuple(errors), warnings)
        score = _deal_score(score_read(read.game, hands, self.ruleset))
        return Evaluation(stored, (), warnings, score)

    def next_deal(self, played: Sequence[DealScore], *, time_called: bool = False) -> int | None:
        """The lowest game of the set not yet scored; a void game is dealt again (R9.2)."""
        scored = {deal.number for deal in played if not deal.void}
        return next((s.number for s in self.ruleset.games if s.number not in scored), None)

    def match_result(
        self,
        played: Sequence[DealScore],
        *,
        adjustments: Sequence[int] = (),
        decided_for: int | None = None,
        time_called: bool = False,
    ) -> tuple[SideResult, ...]:
        """Each player's set from its games, by their sums (R8.6)."""
        sums = side_sums(played, self.sums_flag)
        return self.match_result_from_sums(sums, adjustments=adjustments, decided_for=decided_for)

    def match_result_from_sums(
        self,
        sums: Sequence[SideSums],
        *,
        adjustments: Sequence[int] = (),
        decided_for: int | None = None,
        time_called: bool = False,
    ) -> tuple[SideResult, ...]:
        """Each player's set (R8.6): lowest total wins (R4.1); level totals share a place
        unless a ruling decided for one of them."""
        stats = _set_stats(sums, adjustments)
        keys = [(line["total"], index != decided_for) for index, line in enumerate(stats)]
        ordered = sorted(keys)
        results = []
        for key, line in zip(keys, stats, strict=True):
            place = 1 + bisect_left(ordered, key)  # one more than the sides strictly ahead
            won = place == 1
            shared = ordered.count(key) > 1
            results.append(SideResult(place, won, {**line, "wins": int(won)}, shared))
        return tuple(results)

    # --- the standings --------------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        chain = [_COLUMNS[name] for name in self.ruleset.tie_breaks]
        rest = [column for name, column in _COLUMNS.items() if column not in chain]
        return (_TOTAL, *chain, *[c for c in rest if c.stat != "total"])

    def stats(self, lines: Sequence[StandingLine]) -> dict[str, Mapping[str, int]]:
        """Each line's sums, as ``rank`` gives them (R12.3), without placing them."""
        return {line.key: _summed(line) for line in lines}

    def rank(self, lines: Sequence[StandingLine]) -> tuple[Placing, ...]:
        """R12.3 through the engine's ranking: lowest total, then the ruleset's tie-breaks."""
        summed = {line.key: _summed(line) for line in lines}
        legacy = [
            legacy_standings.StandingLine(
                key, s["total"], s["games_won"], s["down_and_outs"], s["latest_round_score"]
            )
            for key, s in summed.items()
        ]
        return tuple(
            Placing(place, line.player, summed[line.player], shared)
            for place, line, shared in legacy_standings.places(legacy, self.ruleset)
        )

    # --- dispute tools --------------------------------------------------------------------------

    def tools(self) -> tuple[Tool, ...]:
        return _TOOLS

    def check(self, tool: str, request: Mapping[str, Any]) -> ToolAnswer:
        if tool not in {t.name for t in _TOOLS}:
            names = ", ".join(t.name for t in _TOOLS)
            raise RulesError(
                Problem(
                    "",
                    gettext_noop(
                        "Kalooki has no check called {tool}: it has {names}",
                        tool=repr(tool),
                        names=names,
                    ),
                )
            )
        return check_tool(tool, request, self.ruleset)

    # --- demos, benchmarks and tests ------------------------------------------------------------

    def example_entry(self, number: int, sides: int, rng: random.Random) -> DealEntry:
        """A plausible entry: one player went out, the others hold their cards from one shuffled
        deck, some entered as points, with calls; now and then down and out."""
        spec = self.ruleset.game(number)
        stock = list(deck(self.ruleset))
        rng.shuffle(stock)
        winner = rng.randrange(sides)
        down_and_out = rng.random() < 0.1
        entries = [
            SideEntry(
                f"Player {seat + 1}",
                self._example_side(spec.dealt, seat == winner, stock, rng, sides),
            )
            for seat in range(sides)
        ]
        return DealEntry(number, tuple(entries), {"down_and_out": down_and_out, "void": False})

    def _example_side(
        self, dealt: int, went_out: bool, stock: list[Card], rng: random.Random, sides: int
    ) -> dict[str, Any]:
        if went_out:
            return {"went_out": True, "cards": "", "calls": rng.randint(0, self.ruleset.call_limit)}
        spare = max(len(stock) // sides - dealt, 0) // 2
        calls = rng.randint(0, min(self.ruleset.call_limit, spare))
        full = dealt + 2 * calls
        came_down = calls > 0 and rng.random() < 0.4
        held = [stock.pop() for _ in range(rng.randint(1, 2 * calls) if came_down else full)]
        if rng.random() < 0.25:
            return {"points": hand_points(held, self.ruleset), "calls": calls}
        return {"cards": format_cards(held), "calls": calls}


def _down_and_out_help(ruleset: Ruleset) -> str:
    if not ruleset.double_on_down_and_out:
        return gettext_noop(
            "Went out on the turn they came down; this ruleset doubles nothing (R13.8)."
        )
    return gettext_noop("Went out on the turn they came down: the others' card points are doubled.")


def _calls_help(ruleset: Ruleset) -> str:
    if ruleset.calls_after_coming_down:
        return gettext_noop(
            "Calls received, also after coming down; at most {limit} without an overcall.",
            limit=ruleset.call_limit,
        )
    return gettext_noop(
        "Calls received, before coming down; at most {limit} without an overcall.",
        limit=ruleset.call_limit,
    )


def _deal_score(game: GameScore) -> DealScore:
    sides = tuple(
        SideScore(
            points=score.total,
            went_out=score.went_out,
            reasons=score.reasons,
            detail={
                "card_points": score.card_points,
                "doubled": score.doubled,
                "doubled_points": score.doubled_points,
                "penalties": score.penalties,
            },
        )
        for score in game.scores
    )
    return DealScore(game.game, sides, game.void, {"down_and_out": game.down_and_out})


_UNPLAYED = SideSums()  # frozen: one for every side that has played nothing


def _set_stats(sums: Sequence[SideSums], adjustments: Sequence[int]) -> list[dict[str, int]]:
    """Each player's set: the points (with any ruling's), the games gone out in, and of those
    the ones gone out down and out (R8.3)."""
    unplayed = [_UNPLAYED] * (len(adjustments) - len(sums))  # a ruling before any game
    stats = [
        {"total": side.points, "games_won": side.went_out, "down_and_outs": side.flagged}
        for side in [*sums, *unplayed]
    ]
    for line, points in zip(stats, adjustments, strict=False):
        line["total"] += points
    return stats


def _summed(line: StandingLine) -> dict[str, int]:
    totals: dict[str, int] = {"total": 0, "wins": 0, "games_won": 0, "down_and_outs": 0}
    latest = 0
    for stats in line.rounds:
        if stats is None:
            continue  # Kalooki has no byes: a round not played adds nothing
        for stat, value in stats.items():
            if stat in totals:
                totals[stat] += value
            else:
                totals[stat] = value
        latest = stats.get("total", 0)
    return {**totals, "latest_round_score": latest}


_TOTAL = Column("total", "Total", False, "The sum of set scores; lowest first (R12.3).")
_COLUMNS = {
    "total": _TOTAL,
    "games_won": Column("games_won", "Games won", True, "Games gone out in (R12.3)."),
    "down_and_outs": Column("down_and_outs", "Down and outs", True, "Went out down and out."),
    "latest_round_score": Column(
        "latest_round_score", "Latest round", False, "The latest round's set score (R12.3)."
    ),
    "wins": Column("wins", "Sets won", True, "Sets with the lowest total at the table (R4.1)."),
}
_TOOLS = (
    Tool("meld", "Meld check", "Is this a valid three or four? (R3, R1.2)"),
    Tool("contract", "Contract check", "Do these melds satisfy the game's contract? (R4, R5)"),
    Tool("tack-on", "Tack-on check", "May this card go onto this meld, or replace a joker? (R7)"),
)

GAME = KalookiGame()
