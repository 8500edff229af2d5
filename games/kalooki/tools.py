"""Dispute tools: the checks a director runs on a disputed meld, lay-down or tack-on (R3 to R7).

Each tool takes a **request** of plain JSON values and answers a ``ToolAnswer``: ``valid``, the
``errors`` (each citing its rule) and the tool's own detail. Requests come from any client, so
every value is checked for its type first; a bad one is an error naming its field, never an
exception. A ``ruleset`` key is the caller's (it chose the rules this runs under) and is ignored.

- ``meld``: ``{"cards": "5H JK 7H 8H", "kind": "four", "as_laid": true}``: a three or a four
  (R3), within the deck's limits (R1.2). A four is checked **as laid** unless ``as_laid`` is
  false, when the best arrangement of the cards is looked for.
- ``contract``: ``{"game": 3, "groups": ["5H 5C 5D", "3C 4C 5C 6C", "8D 9D 10D JD"]}``: does the
  lay-down satisfy the game's contract (R4, R5), within the deck's limits (R1.2)?
- ``tack-on``: ``{"card": "7H", "meld": "4H 5H 6H", "kind": "four", "end": "high"}``: may the card
  go onto the meld (R7.1, R7.2)? With ``"replaces_joker": true`` the card is the real card that
  takes a joker's place in a four (R7.3); under the joker exchange (R13.6) ``"own_meld": true``
  sends the joker to the hand, else ``end`` says where it goes. ``has_come_down`` (default true):
  only a player who has laid their contract may tack on (R7.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from games.base import Problem, RulesError, ToolAnswer, gettext_noop

from .cards import CardParseError, parse_card, parse_cards
from .contracts import check_contract
from .deal_entries import MAX_CARD_TEXT
from .melds import check_meld
from .ruleset import FOUR, THREE, Ruleset
from .settings import is_whole
from .tacking import HIGH, LOW, check_tack_on, replace_joker

KINDS = (None, THREE, FOUR)
ENDS = (None, LOW, HIGH)
MOST_GROUPS = 12


class BadRequest(Exception):
    """A request value of the wrong type or shape: the problems say which."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = problems


def check_tool(tool: str, request: Mapping[str, Any], ruleset: Ruleset) -> ToolAnswer:
    run, keys = _TOOLS[tool]
    try:
        values = _read(request, keys)
        return run(values, ruleset)
    except BadRequest as bad:
        return ToolAnswer(False, tuple(bad.problems))
    except CardParseError as error:
        return ToolAnswer(False, (error.problem,))


# --- each tool ----------------------------------------------------------------------------------


def _meld(values: dict[str, Any], ruleset: Ruleset) -> ToolAnswer:
    cards = _cards(values, "cards")
    meld = check_meld(cards, ruleset, values["kind"], as_laid=values["as_laid"])
    detail = {"kind": meld.kind, "arrangement": list(meld.arrangement)}
    return ToolAnswer(meld.valid, meld.reasons, detail)


def _contract(values: dict[str, Any], ruleset: Ruleset) -> ToolAnswer:
    try:
        spec = ruleset.game(values["game"])
    except RulesError as error:
        raise BadRequest([_at(error.problem, "game")]) from None
    groups = values["groups"]
    for place, group in enumerate(groups):
        _cards({"group": group}, "group", field=f"groups.{place}")
    contract = check_contract(spec.number, groups, ruleset, as_laid=values["as_laid"])
    detail = {
        "game": spec.number,
        "contract": spec.describe(),
        "melds": [_meld_detail(meld) for meld in contract.melds],
    }
    return ToolAnswer(contract.valid, contract.reasons, detail)


def _meld_detail(meld: Any) -> dict[str, Any]:
    data = meld.to_dict()
    data["errors"] = data.pop("reasons")
    return data


def _tack_on(values: dict[str, Any], ruleset: Ruleset) -> ToolAnswer:
    card = _one_card(values["card"])
    meld = _cards(values, "meld")
    if values["replaces_joker"]:
        return _joker_move(card, meld, values, ruleset)
    tack = check_tack_on(
        card,
        meld,
        ruleset,
        kind=values["kind"],
        end=values["end"],
        has_come_down=values["has_come_down"],
    )
    detail = {"kind": tack.kind, "end": tack.end, "meld_after": [str(c) for c in tack.meld_after]}
    return ToolAnswer(tack.valid, tack.reasons, detail)


def _joker_move(card: Any, meld: str, values: dict[str, Any], ruleset: Ruleset) -> ToolAnswer:
    move = replace_joker(
        meld,
        card,
        ruleset,
        has_come_down=values["has_come_down"],
        own=values["own_meld"],
        end=values["end"],
    )
    detail = {
        "meld_after": [str(c) for c in move.meld_after],
        "joker_from": move.joker_from,
        "joker_to": move.joker_to,
        "to_hand": move.to_hand,
    }
    return ToolAnswer(move.valid, move.reasons, detail)


# --- reading a request --------------------------------------------------------------------------

Reader = Callable[[Any, str], Any]


def _text(value: Any, name: str) -> str:
    if isinstance(value, str) and len(value) <= MAX_CARD_TEXT:
        return value
    raise BadRequest(
        [
            Problem(
                "R11",
                gettext_noop(
                    "{name} is card text of at most {most} characters",
                    name=name,
                    most=MAX_CARD_TEXT,
                ),
                field=name,
            )
        ]
    )


def _choice(options: tuple[Any, ...]) -> Reader:
    def read(value: Any, name: str) -> Any:
        if value in options and (value is None or isinstance(value, str)):
            return value
        allowed = ", ".join(repr(option) for option in options if option) + " or null"
        text = gettext_noop(
            "{name} is {allowed}, not {value}", name=name, allowed=allowed, value=repr(value)[:40]
        )
        raise BadRequest([Problem("", text, field=name)])

    return read


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    raise BadRequest(
        [
            Problem(
                "",
                gettext_noop(
                    "{name} is true or false, not {value}", name=name, value=repr(value)[:40]
                ),
                field=name,
            )
        ]
    )


def _game(value: Any, name: str) -> int:
    if is_whole(value):
        return value
    raise BadRequest(
        [
            Problem(
                "R4",
                gettext_noop("game is a game's number, not {value}", value=repr(value)[:40]),
                field=name,
            )
        ]
    )


def _groups(value: Any, name: str) -> list[str]:
    if isinstance(value, list) and 1 <= len(value) <= MOST_GROUPS:
        return [_text(group, f"{name}.{place}") for place, group in enumerate(value)]
    text = gettext_noop(
        "groups is a list of 1 to {most} card texts, one per meld", most=MOST_GROUPS
    )
    raise BadRequest([Problem("R5.1", text, field=name)])


_REQUIRED = object()  # marks a required key in the tables below
_Spec = dict[str, tuple[Reader, Any]]


def _read(request: Mapping[str, Any], keys: _Spec) -> dict[str, Any]:
    if not isinstance(request, Mapping):
        raise BadRequest([Problem("", gettext_noop("a check's request is an object"))])
    problems = [
        Problem(
            "",
            gettext_noop("this check has no field called {name}", name=repr(str(key)[:40])),
            field=str(key)[:40],
        )
        for key in request
        if key not in keys and key != "ruleset"
    ]
    problems += [
        Problem("", gettext_noop("{key} is required", key=key), field=key)
        for key, (_, default) in keys.items()
        if default is _REQUIRED and key not in request
    ]
    if problems:
        raise BadRequest(problems)
    values, bad = {}, []
    for key, (reader, default) in keys.items():
        try:
            values[key] = reader(request[key], key) if key in request else default
        except BadRequest as error:
            bad += error.problems
    if bad:
        raise BadRequest(bad)
    return values


def _cards(values: dict[str, Any], key: str, *, field: str | None = None) -> str:
    """Card text that reads (R11), or the parse error as a problem naming its field."""
    try:
        parse_cards(values[key])
    except CardParseError as error:
        raise BadRequest([_at(error.problem, field or key)]) from None
    return values[key]


def _one_card(text: str) -> Any:
    try:
        return parse_card(text)
    except RulesError as error:
        raise BadRequest([_at(error.problem, "card")]) from None


def _at(problem: Problem, field: str) -> Problem:
    return replace(problem, field=field)


_TOOLS: dict[str, tuple[Callable[[dict[str, Any], Ruleset], ToolAnswer], _Spec]] = {
    "meld": (
        _meld,
        {
            "cards": (_text, _REQUIRED),
            "kind": (_choice(KINDS), None),
            "as_laid": (_flag, True),
        },
    ),
    "contract": (
        _contract,
        {
            "game": (_game, _REQUIRED),
            "groups": (_groups, _REQUIRED),
            "as_laid": (_flag, True),
        },
    ),
    "tack-on": (
        _tack_on,
        {
            "card": (_text, _REQUIRED),
            "meld": (_text, _REQUIRED),
            "kind": (_choice(KINDS), None),
            "end": (_choice(ENDS), None),
            "has_come_down": (_flag, True),
            "replaces_joker": (_flag, False),
            "own_meld": (_flag, False),
        },
    ),
}
