"""Ruleset settings: what each one means, which values it allows, and the checks of a whole ruleset.

A **setting** is one key of a ruleset's data (``Ruleset.to_dict``): ``table_size``, ``games``,
``card_values``, ``joker_exchange``, ... Each has a label, the rule it belongs to (R1 to R13), a
help text and its **allowed values** as a JSON Schema fragment, for set-up pages and tools.

``ruleset_problems`` checks ruleset data from any source, a stored tournament or a hostile client:
first each setting on its own (type and range), then the settings together (a contract needing
more cards than are dealt, a table of 2, a deck too small to deal every hand). Each problem names
its ``field``; nothing here raises on bad values. It knows nothing of ``Ruleset`` itself, so the
ruleset module can import it without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.base import gettext_noop

from .problems import Problem

TIE_BREAKS = ("games_won", "down_and_outs", "latest_round_score")
CARD_VALUE_NAMES = (
    "joker",
    "black_ace",
    "red_ace",
    "king",
    "queen",
    "jack",
    "ten",
    "nine",
    "eight",
    "seven",
    "six",
    "five",
    "four",
    "three",
    "two",
)
LEAST_TABLE, LARGEST_TABLE = 3, 8  # R13.1
MOST_GAMES = 20  # R13.4: a set of more games than this is no set a table plays in a session
MOST_POINTS = 1000  # any card value or penalty: far above any rule we know
STOCK_LEFT = 2  # R13.4: after the deal, a card to turn up and at least one to draw

Check = Callable[[Any], str | None]  # why a value is not allowed, or None


@dataclass(frozen=True, slots=True)
class SettingSpec:
    name: str
    label: str
    rule: str
    schema: Mapping[str, Any]
    check: Check
    help: str = ""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(least: int, most: int) -> Check:
    def check(value: Any) -> str | None:
        if is_whole(value) and least <= value <= most:
            return None
        return f"a whole number from {least} to {most}, not {_shown(value)}"

    return check


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"true or false, not {_shown(value)}"


def _whole_or_none(least: int, most: int) -> Check:
    whole = _whole(least, most)
    return lambda value: None if value is None else whole(value)


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip() and len(value) <= 120:
        return None
    return f"a name of 1 to 120 characters, not {_shown(value)}"


def _tie_breaks(value: Any) -> str | None:
    known = ", ".join(TIE_BREAKS)
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return f"a list of tie-breaks from {known}, not {_shown(value)}"
    unknown = sorted(set(value) - set(TIE_BREAKS))
    if unknown:
        return f"tie-breaks from {known}; unknown tie-breaks: {', '.join(unknown)}"
    if len(set(value)) != len(value):
        return "a list of tie-breaks, each at most once"
    return None


def _card_values(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return f"an object of card values, not {_shown(value)}"
    unknown = sorted(set(value) - set(CARD_VALUE_NAMES), key=str)
    if unknown:
        return f"values of {', '.join(CARD_VALUE_NAMES)}; unknown: {_shown(unknown)}"
    return None


def _games(value: Any) -> str | None:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MOST_GAMES:
        return f"a list of 1 to {MOST_GAMES} games, not {_shown(value)}"
    for place, spec in enumerate(value, start=1):
        if not isinstance(spec, Mapping) or set(spec) != {"number", "dealt", "contract"}:
            return f'game {place} must be {{"number", "dealt", "contract"}}, not {_shown(spec)}'
        problem = _game_problem(spec)
        if problem:
            return f"game {place}: {problem}"
    return None


def _game_problem(spec: Mapping[str, Any]) -> str | None:
    if not is_whole(spec["number"]) or not is_whole(spec["dealt"]):
        return "its number and cards dealt are whole numbers"
    if not 1 <= spec["dealt"] <= 30:
        return f"deals 1 to 30 cards, not {spec['dealt']}"
    contract = spec["contract"]
    if not isinstance(contract, str) or not 1 <= len(contract) <= 8 or set(contract) - {"3", "4"}:
        return f'a contract is 1 to 8 digits 3 (a three) and 4 (a four), like "334", not {_shown(contract)}'  # noqa: E501
    return None


_GAMES_SCHEMA = {
    "type": "array",
    "minItems": 1,
    "maxItems": MOST_GAMES,
    "items": {
        "type": "object",
        "required": ["number", "dealt", "contract"],
        "additionalProperties": False,
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "dealt": {"type": "integer", "minimum": 1, "maximum": 30},
            "contract": {"type": "string", "pattern": "^[34]{1,8}$"},
        },
    },
}


def _integer_schema(least: int, most: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": least, "maximum": most}


def _spec(name: str, label: str, rule: str, help: str, least: int, most: int) -> SettingSpec:
    return SettingSpec(name, label, rule, _integer_schema(least, most), _whole(least, most), help)


def _switch(name: str, label: str, rule: str, help: str) -> SettingSpec:
    return SettingSpec(name, label, rule, {"type": "boolean"}, _flag, help)


SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("name", "Ruleset name", "R13.10",
                {"type": "string", "minLength": 1, "maxLength": 120}, _text,
                "What the ruleset is called on pages and score sheets."),
    SettingSpec("games", "The games of a set", "R13.4", _GAMES_SCHEMA, _games,
                "Each game's number, cards dealt and contract: 3 for a three, 4 for a four."),
    _spec("table_size", "Players at a table", "R13.1",
          "The usual number of players at a table.", LEAST_TABLE, LARGEST_TABLE),
    _spec("min_table_size", "Fewest players at a table", "R13.1",
          "The smallest table when the players do not fill whole tables.", LEAST_TABLE,
          LARGEST_TABLE),
    _spec("max_table_size", "Most players at a table", "R13.1",
          "The largest table when the players do not fill whole tables.", LEAST_TABLE,
          LARGEST_TABLE),
    SettingSpec("card_values", "Card values", "R13.3", {
        "type": "object",
        "additionalProperties": False,
        "properties": {name: _integer_schema(0, MOST_POINTS) for name in CARD_VALUE_NAMES},
    }, _card_values, "What each card left in hand costs (R2)."),
    _spec("packs", "Packs", "R13.2", "Standard 52-card packs in the deck.", 1, 4),
    _spec("jokers", "Jokers", "R13.2", "Jokers in the deck.", 0, 12),
    _spec("max_copies", "Copies of a card", "R13.2",
          "How many times one card exists in the deck: one per pack.", 1, 4),
    _spec("min_naturals_in_three", "Naturals in a three", "R13.5",
          "Natural (non-joker) cards a three must hold: 2 (R3.2), 1 (9-Jk-Jk is a three), or 3 "
          "(no joker in a three).", 1, 3),
    SettingSpec("max_jokers_in_three", "Most jokers in a three", "R3.2",
                {"type": ["integer", "null"], "minimum": 0, "maximum": 12},
                _whole_or_none(0, 12), "No limit when empty (null)."),
    _switch("aces_at_both_ends", "An ace at both ends of a four", "R3.4",
            "One four may run from a low ace to a high ace (A-2-...-K-A)."),
    _switch("extra_melds_allowed", "More melds than the contract", "R5.3",
            "A player coming down may lay more melds than the contract asks for."),
    _spec("call_limit", "Calls per game", "R13.7", "The most calls a player may make in a game.",
          0, 10),
    _spec("failed_come_down_penalty", "Failed come-down penalty", "R13.8",
          "Points for each failed come-down (R5.4).", 0, MOST_POINTS),
    _spec("overcall_penalty", "Overcall penalty", "R13.8",
          "Points for an overcall (R6.3).", 0, MOST_POINTS),
    _switch("double_penalties_on_down_and_out", "Penalties doubled on down and out", "R13.8",
            "Down and out doubles the penalties too, not only the card points (R8.4)."),
    _spec("assumed_calls_when_unknown", "Calls assumed when not entered", "R10.4",
          "How many calls the R10.4 check assumes when none are entered.", 0, 20),
    SettingSpec("tie_breaks", "Tie-breaks", "R12.3", {
        "type": "array", "uniqueItems": True, "items": {"enum": list(TIE_BREAKS)},
    }, _tie_breaks, "Ties on total are broken by these, in order."),
    _switch("double_on_down_and_out", "Down and out doubles", "R13.8",
            "Going down and out doubles every other player's card points (R8.3)."),
    _switch("calls_after_coming_down", "Calls after coming down", "R13.7",
            "A player who has come down may still call (R6.1)."),
    _switch("joker_exchange", "Joker exchange", "R13.6",
            "The real card takes a joker's place in a four: the joker goes into the hand from "
            "one's own four, or to either end of another's (R7.3)."),
    _switch("card_challenge", "18-card challenge", "R13.9",
            "A player may be challenged for holding more cards than the limit."),
    _spec("challenge_limit", "Challenge limit", "R13.9",
          "A challenged player loses when holding more than this many cards.", 1, 100),
    _spec("challenge_penalty", "Challenge penalty", "R13.9",
          "Points added to the cards of whoever was wrong.", 0, MOST_POINTS),
)  # fmt: skip
BY_NAME = {spec.name: spec for spec in SETTINGS}


def ruleset_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Every problem of ruleset data (``Ruleset.to_dict`` form), each naming its ``field``."""
    problems = [*_value_problems(data)]
    bad = {problem.field for problem in problems}
    problems += _games_numbering(data, bad)
    problems += _table_problems(data, bad)
    problems += _deck_problems(data, bad)
    return problems


def _value_problems(data: Mapping[str, Any]) -> list[Problem]:
    problems = []
    for name, value in data.items():
        spec = BY_NAME.get(name)
        why = spec.check(value) if spec else None
        if why:
            problems.append(
                Problem(
                    spec.rule, gettext_noop("{spec}: {why}", spec=spec.label, why=why), field=name
                )
            )
        if name == "card_values" and not why:
            problems += _card_value_problems(value)
    return problems


def _card_value_problems(values: Mapping[str, Any]) -> list[Problem]:
    check = _whole(0, MOST_POINTS)
    return [
        Problem(
            "R13.3",
            gettext_noop(
                "the value of a {card}: {check}",
                card=name.replace("_", " "),
                check=check(value),
            ),
            field=f"card_values.{name}",
        )
        for name, value in values.items()
        if check(value)
    ]


def _games_numbering(data: Mapping[str, Any], bad: set[str | None]) -> list[Problem]:
    if "games" not in data or "games" in bad:
        return []
    games = data["games"]
    numbers = [spec["number"] for spec in games]
    if numbers != list(range(1, len(numbers) + 1)):
        text = gettext_noop(
            "games must be numbered 1, 2, 3, ... in order, not {numbers}", numbers=numbers
        )
        return [Problem("R4", text, field="games")]
    return [
        Problem("R13.4", _contract_too_big(spec), field="games")
        for spec in games
        if 3 * spec["contract"].count("3") + 4 * spec["contract"].count("4") > spec["dealt"]
    ]


def _contract_too_big(spec: Mapping[str, Any]) -> str:
    needs = 3 * spec["contract"].count("3") + 4 * spec["contract"].count("4")
    return (
        f"game {spec['number']}: contract {spec['contract']} needs at least {needs} cards, "
        f"but only {spec['dealt']} are dealt"
    )


def _table_problems(data: Mapping[str, Any], bad: set[str | None]) -> list[Problem]:
    names = ("min_table_size", "table_size", "max_table_size")
    if any(name in bad or name not in data for name in names):
        return []
    least, usual, most = (data[name] for name in names)
    if least <= usual <= most:
        return []
    field = "min_table_size" if least > usual else "max_table_size"
    text = gettext_noop(
        "table sizes must run min <= usual <= max, not {value}", value=(least, usual, most)
    )
    return [Problem("R1.1", text, field=field)]


def _deck_problems(data: Mapping[str, Any], bad: set[str | None]) -> list[Problem]:
    names = ("packs", "jokers", "max_copies", "max_table_size", "games")
    if any(name in bad or name not in data for name in names):
        return []
    problems = []
    if data["max_copies"] > data["packs"]:
        text = gettext_noop("a card cannot exist more times than there are packs")
        problems.append(Problem("R1.2", text, field="max_copies"))
    deck = 52 * data["packs"] + data["jokers"]
    dealt = max(spec["dealt"] for spec in data["games"])
    players = data["max_table_size"]
    if players * dealt + STOCK_LEFT > deck:
        text = gettext_noop(
            "a deck of {packs} and {jokers} ({deck} cards) cannot deal {dealt} cards to "
            "each of {players} players and leave a stock",
            packs=_plural(data["packs"], "pack"),
            jokers=_plural(data["jokers"], "joker"),
            deck=deck,
            dealt=dealt,
            players=players,
        )
        problems.append(Problem("R13.4", text, field="packs"))
    return problems


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
