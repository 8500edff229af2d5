"""House rules: a ruleset from a request, from storage, back to a request, and in words (R13).

A **request** names a preset and only the settings that differ from it: ``{"preset":
"club-four", "call_limit": 2}``; ``card_values`` may name only the values that change. Two settings
**follow** another unless the request sets them: ``max_copies`` follows ``packs`` (one card per
pack, R1.2) and ``assumed_calls_when_unknown`` follows ``call_limit`` (R10.4). A **stored**
ruleset is the whole ``Ruleset.to_dict`` (older data without a newer setting takes its default).
Every refusal is a ``RulesetInvalid`` naming each bad setting; nothing here raises anything else,
whatever a client sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Problem, RulesetInvalid, and_list, gettext_noop

from .ruleset import DEFAULT_PRESET, PRESETS, GameSpec, Ruleset
from .settings import BY_NAME, CARD_VALUE_NAMES, ruleset_problems

FOLLOWERS = {"packs": "max_copies", "call_limit": "assumed_calls_when_unknown"}
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def ruleset_from_request(request: Mapping[str, Any] | None) -> Ruleset:
    """The ruleset a request asks for; ``RulesetInvalid`` names every bad setting."""
    if request is None:
        request = {}
    if not isinstance(request, Mapping):
        raise RulesetInvalid(
            [Problem("R13", gettext_noop("a ruleset request is an object of settings"))]
        )
    preset, problems = _preset(request.get("preset", DEFAULT_PRESET))
    changes = {key: value for key, value in request.items() if key != "preset"}
    problems += _unknown(changes, "in a request")
    if problems:
        raise RulesetInvalid(problems)
    return _checked(_merged(preset.to_dict(), changes))


def ruleset_from_storage(stored: Mapping[str, Any]) -> Ruleset:
    """A stored ruleset read back; ``RulesetInvalid`` if it cannot be played."""
    if not isinstance(stored, Mapping):
        raise RulesetInvalid(
            [Problem("R13", gettext_noop("a stored ruleset is an object of settings"))]
        )
    problems = _unknown(stored, "in stored data")
    if "preset" in stored:
        problems += _preset(stored["preset"])[1]
    if problems:
        raise RulesetInvalid(problems)
    return _checked({**Ruleset(name="defaults").to_dict(), **stored})


def ruleset_changes(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset as a request: its preset and only the settings that differ from it."""
    base = PRESETS.get(ruleset.preset, PRESETS[DEFAULT_PRESET])
    mine, theirs = ruleset.to_dict(), base.to_dict()
    changes: dict[str, Any] = {"preset": base.preset}
    for name, value in mine.items():
        if name == "preset" or value == theirs[name]:
            continue
        if name == "card_values":
            value = {key: v for key, v in value.items() if v != theirs[name][key]}
        changes[name] = value
    return changes


def _preset(name: Any) -> tuple[Ruleset, list[Problem]]:
    if isinstance(name, str) and name in PRESETS:
        return PRESETS[name], []
    known = and_list(sorted(PRESETS), "or")
    text = gettext_noop(
        "there is no preset called {name}: choose {known}", name=repr(str(name)[:40]), known=known
    )
    return PRESETS[DEFAULT_PRESET], [Problem("R13.10", text, field="preset")]


def _unknown(data: Mapping[Any, Any], where: str) -> list[Problem]:
    names = [key for key in data if key != "preset" and key not in BY_NAME]
    return [
        Problem(
            "R13",
            gettext_noop(
                "there is no setting called {name} {where}", name=repr(str(key)[:40]), where=where
            ),
            field=str(key),
        )
        for key in names
    ]


def _merged(base: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    merged = {**base, **changes}
    card_values = changes.get("card_values")
    if isinstance(card_values, Mapping):
        merged["card_values"] = {**base["card_values"], **card_values}
    for leader, follower in FOLLOWERS.items():
        # A follower takes its leader's value only when that value is good, so that one bad
        # value is reported once, under the setting the client sent.
        if (
            leader in changes
            and follower not in changes
            and not BY_NAME[leader].check(changes[leader])
        ):
            merged[follower] = changes[leader]
    return merged


def _checked(data: dict[str, Any]) -> Ruleset:
    problems = ruleset_problems(data)
    missing = set(CARD_VALUE_NAMES) - set(data["card_values"]) if not problems else set()
    problems += [
        Problem(
            "R13.3",
            gettext_noop("the value of a {card} is missing", card=name.replace("_", " ")),
            field=f"card_values.{name}",
        )
        for name in sorted(missing)
    ]
    if problems:
        raise RulesetInvalid(problems)
    return Ruleset.from_dict(data)


# --- the ruleset in words ------------------------------------------------------------------------


def describe(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset as players read it, one line per setting that matters, each with its rule."""
    return (
        f"{ruleset.name} (preset {ruleset.preset}).",
        _tables(ruleset),
        _deck(ruleset),
        _values(ruleset),
        _schedule(ruleset),
        *(f"Game {spec.number}: {spec.dealt} cards, {spec.describe()}." for spec in ruleset.games),
        _threes(ruleset),
        _fours(ruleset),
        _coming_down(ruleset),
        _exchange(ruleset),
        _calls(ruleset),
        _penalties(ruleset),
        _doubling(ruleset),
        _challenge(ruleset),
        _tie_breaks(ruleset),
    )


def _tables(ruleset: Ruleset) -> str:
    usual, least, most = ruleset.table_size, ruleset.min_table_size, ruleset.max_table_size
    spread = (
        f"{least} to {most} when the numbers need it" if (least, most) != (usual, usual) else ""
    )
    return f"{usual} players at a table{f' ({spread})' if spread else ''}, no byes (R1.1, R12.2)."


def _deck(ruleset: Ruleset) -> str:
    return (
        f"{_plural(ruleset.packs, 'pack')} and {_plural(ruleset.jokers, 'joker')}: "
        f"{ruleset.deck_size} cards; one card exists at most {ruleset.max_copies} times (R1.2)."
    )


def _values(ruleset: Ruleset) -> str:
    values = ruleset.card_values.to_dict()
    words = [f"{name.replace('_', ' ')} {points}" for name, points in values.items()]
    return f"Cards left in hand cost: {', '.join(words)} (R2)."


def _schedule(ruleset: Ruleset) -> str:
    count = len(ruleset.games)
    word = _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)
    return f"A set is {word} games, played in order (R4)."


def _threes(ruleset: Ruleset) -> str:
    if ruleset.natural_threes:
        return "A three is natural cards only: no joker in a three, none tacked onto one (R13.5)."
    jokers = ruleset.max_jokers_in_three
    limit = "any number of jokers" if jokers is None else f"at most {_plural(jokers, 'joker')}"
    return (
        f"A three holds at least {ruleset.min_naturals_in_three} natural cards and {limit} (R3.2)."
    )


def _fours(ruleset: Ruleset) -> str:
    both = "may" if ruleset.aces_at_both_ends else "may not"
    return f"One four {both} have an ace at each end (R3.4)."


def _coming_down(ruleset: Ruleset) -> str:
    extra = "more melds than" if ruleset.extra_melds_allowed else "exactly"
    return f"Coming down lays {extra} the contract (R5.3)."


def _exchange(ruleset: Ruleset) -> str:
    if not ruleset.joker_exchange:
        return "No joker exchange: a joker replaced in a four moves to its high end (R7.3)."
    return (
        "Joker exchange: a joker replaced in one's own four goes into the hand, to be reused; "
        "in another's four it moves to either end (R13.6)."
    )


def _calls(ruleset: Ruleset) -> str:
    when = (
        "also after coming down" if ruleset.calls_after_coming_down else "only before coming down"
    )
    return f"At most {_plural(ruleset.call_limit, 'call')} per player per game, {when} (R6, R13.7)."


def _penalties(ruleset: Ruleset) -> str:
    return (
        f"A failed come-down costs {ruleset.failed_come_down_penalty} points (R5.4); an overcall "
        f"{ruleset.overcall_penalty} (R6.3)."
    )


def _doubling(ruleset: Ruleset) -> str:
    if not ruleset.double_on_down_and_out:
        return "Down and out doubles nothing (R13.8)."
    penalties = "and the penalties too" if ruleset.double_penalties_on_down_and_out else "only"
    return f"Down and out doubles the other players' card points {penalties} (R8.3, R8.4)."


def _challenge(ruleset: Ruleset) -> str:
    limit = ruleset.challenge_limit
    if not ruleset.card_challenge:
        return f"No {limit}-card challenge (R13.9)."
    return (
        f"The {limit}-card challenge is played: whoever was wrong scores their cards plus "
        f"{ruleset.challenge_penalty} and takes no further part in that game (R13.9)."
    )


_TIE_BREAK_WORDS = {
    "games_won": "more games won",
    "down_and_outs": "more down-and-outs",
    "latest_round_score": "the lower score in the latest round",
}


def _tie_breaks(ruleset: Ruleset) -> str:
    if not ruleset.tie_breaks:
        return "Standings: lowest total first; players level on total share the place (R12.3)."
    chain = ", then ".join(_TIE_BREAK_WORDS[name] for name in ruleset.tie_breaks)
    return f"Standings: lowest total first; ties broken by {chain} (R12.3)."


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


__all__ = [
    "GameSpec",
    "describe",
    "ruleset_changes",
    "ruleset_from_request",
    "ruleset_from_storage",
]
