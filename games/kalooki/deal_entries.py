"""Deal entries of the game protocol read into the engine's game entries, and problems mapped back.

A protocol **deal entry** (``games.base.DealEntry``) holds plain JSON values from any client, keyed
by field name: per deal ``down_and_out`` and ``void``; per side ``went_out``, ``cards``,
``points``, ``calls``, ``failed_come_downs``, ``overcall_penalty`` and, under the 18-card
challenge (R13.9), ``challenge``. Reading one checks each value's type and range first (a wrong
type is an error naming its field and side, never an exception), then builds the engine's
``GameEntry`` from the values that can be read, so the R10 checks run on what is there.

A side is named in messages by its label; sides without a label, or whose label another side also
has, are named by seat ("Seat 3"), so every problem can be traced back to its side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.base import DealEntry, Problem, SideEntry, gettext_noop

from .cards import Card, format_cards
from .entries import CHALLENGE_OUTCOMES, GameEntry, HandEntry
from .ruleset import Ruleset
from .settings import is_whole

MAX_CARD_TEXT = 400  # more than any hand: 16 dealt + 2 × many calls, written out in full
MAX_COUNT = 20  # calls or failed come-downs in one game: far beyond any real one
MAX_POINTS = 100_000
DEAL_FIELDS = ("down_and_out", "void")
SIDE_FIELDS = (
    "went_out",
    "cards",
    "points",
    "calls",
    "failed_come_downs",
    "overcall_penalty",
    "challenge",
)


@dataclass(frozen=True, slots=True)
class ReadEntry:
    """A deal entry as read: the engine's entry, the values read per deal and per side, and the
    errors found before the R10 checks (wrong types, unknown fields)."""

    game: GameEntry
    deal: dict[str, Any]
    sides: tuple[dict[str, Any], ...]
    errors: tuple[Problem, ...]
    labels: tuple[str, ...]


def read_deal(entry: DealEntry, ruleset: Ruleset) -> ReadEntry:
    """Read a protocol entry; never raises on bad values."""
    labels = side_labels(entry.sides)
    errors: list[Problem] = []
    deal = _read_deal_values(entry.values, errors)
    read = [
        _read_side(side.values, index, label, ruleset, errors)
        for index, (side, label) in enumerate(zip(entry.sides, labels, strict=True))
    ]
    hands = tuple(hand for _, hand in read)
    game = GameEntry(entry.number, hands, deal["down_and_out"], deal["void"])
    return ReadEntry(game, deal, tuple(values for values, _ in read), tuple(errors), labels)


def canonical(
    entry: DealEntry, read: ReadEntry, hands: tuple[tuple[Card, ...] | None, ...]
) -> DealEntry:
    """The entry as it will be stored: the values as read, each hand's cards in the one
    canonical spelling (R11.5) where they could be read."""
    sides = []
    for side, values, cards in zip(entry.sides, read.sides, hands, strict=True):
        if cards is not None and values.get("cards") is not None:
            values["cards"] = format_cards(cards)  # the dict is this reading's own
        sides.append(SideEntry(side.label, values, side.members, side.member_labels))
    return DealEntry(entry.number, tuple(sides), read.deal)


def side_labels(sides: tuple[SideEntry, ...]) -> tuple[str, ...]:
    raw = [side.label.strip() if isinstance(side.label, str) else "" for side in sides]
    return tuple(
        label if label and raw.count(label) == 1 else f"Seat {seat}"
        for seat, label in enumerate(raw, start=1)
    )


# The field each rule's problems are about, for an entry form to show them next to it.
FIELD_BY_RULE = {
    "R11": "cards",
    "R10.3": "cards",
    "R10.2": "cards",
    "R8.2": "cards",
    "R10.6": "cards",
    "R9.2": "cards",
    "R10.4": "points",
    "R6.2": "calls",
    "R10.7": "calls",
    "R10.5": "overcall_penalty",
    "R5.4": "failed_come_downs",
    "R13.9": "challenge",
}


def placed(
    problem: Problem, labels: tuple[str, ...], sides: tuple[dict[str, Any], ...] = ()
) -> Problem:
    """An engine problem with the side it is about, found from the player it names, and the
    field it is about, from its rule (``sides``: the values read, per side)."""
    if problem.player is None or problem.side is not None or problem.player not in labels:
        return problem
    side = labels.index(problem.player)
    field = problem.field
    if field is None:
        field = FIELD_BY_RULE.get(problem.rule)
        values = sides[side] if side < len(sides) else {}
        if field == "cards" and problem.rule == "R10.2" and not values.get("cards"):
            field = "points"  # "went out, so scores 0 card points, not 12"
    return replace(problem, side=side, field=field)


# --- the values, one by one ---------------------------------------------------------------------


def _read_deal_values(values: Mapping[str, Any], errors: list[Problem]) -> dict[str, Any]:
    read = {}
    for name in _unknown(values, DEAL_FIELDS):
        errors.append(
            Problem(
                "R10",
                gettext_noop("a deal has no field called {name}", name=repr(name)),
                field=name,
            )
        )
    values = values if isinstance(values, Mapping) else {}
    rules = {"down_and_out": "R8.3", "void": "R9.2"}
    for name in DEAL_FIELDS:
        read[name] = _flag(values.get(name), name, rules[name], None, errors)
    return read


def _read_side(
    values: Mapping[str, Any], side: int, label: str, ruleset: Ruleset, errors: list[Problem]
) -> tuple[dict[str, Any], HandEntry]:
    quick = _well_formed(values, label, ruleset)
    if quick is not None:  # the usual case, read without a check per value
        return quick
    found: list[Problem] = []
    known = SIDE_FIELDS if ruleset.card_challenge else SIDE_FIELDS[:-1]
    for name in _unknown(values, known):
        found.append(
            Problem(
                "R10",
                gettext_noop("a player's result has no field called {name}", name=repr(name)),
                field=name,
            )
        )
    values = values if isinstance(values, Mapping) else {}
    read = {
        "went_out": _flag(values.get("went_out"), "went_out", "R8.1", label, found),
        "cards": _cards(values.get("cards"), label, found),
        "points": _whole(values.get("points"), "points", "R10.4", label, found, MAX_POINTS),
        "calls": _whole(values.get("calls"), "calls", "R6.2", label, found, MAX_COUNT),
        "failed_come_downs": _whole(
            values.get("failed_come_downs"), "failed_come_downs", "R5.4", label, found, MAX_COUNT
        )
        or 0,
        "overcall_penalty": _flag(
            values.get("overcall_penalty"), "overcall_penalty", "R6.3", label, found
        ),
    }
    if ruleset.card_challenge:
        read["challenge"] = _challenge(values.get("challenge"), label, found)
    errors += [replace(problem, side=side, player=label) for problem in found]
    return read, _hand(label, read)


_KNOWN = frozenset(SIDE_FIELDS[:-1])
_KNOWN_WITH_CHALLENGE = frozenset(SIDE_FIELDS)


def _well_formed(
    values: Any, label: str, ruleset: Ruleset
) -> tuple[dict[str, Any], HandEntry] | None:
    """The values as read when every one has its type and range, else None (read one by one)."""
    if not isinstance(values, dict):
        return None
    known = _KNOWN_WITH_CHALLENGE if ruleset.card_challenge else _KNOWN
    if not known.issuperset(values):
        return None
    get = values.get
    went_out, cards, overcall = get("went_out", False), get("cards"), get("overcall_penalty", False)
    points, calls, failed = get("points"), get("calls"), get("failed_come_downs", 0)
    challenge = get("challenge") or None
    if not (
        went_out.__class__ is bool
        and overcall.__class__ is bool
        and (cards is None or (cards.__class__ is str and len(cards) <= MAX_CARD_TEXT))
        and (points is None or (points.__class__ is int and -MAX_POINTS <= points <= MAX_POINTS))
        and (calls is None or (calls.__class__ is int and -MAX_COUNT <= calls <= MAX_COUNT))
        and (failed.__class__ is int and -MAX_COUNT <= failed <= MAX_COUNT)
        and (challenge is None or challenge in CHALLENGE_OUTCOMES)
    ):
        return None
    read = {
        "went_out": went_out,
        "cards": cards,
        "points": points,
        "calls": calls,
        "failed_come_downs": failed,
        "overcall_penalty": overcall,
    }
    if ruleset.card_challenge:
        read["challenge"] = challenge
    hand = HandEntry(label, went_out, cards, points, calls, failed, overcall, 0, challenge)
    return read, hand


def _hand(label: str, read: dict[str, Any]) -> HandEntry:
    return HandEntry(
        player=label,
        went_out=read["went_out"],
        cards=read["cards"],
        points=read["points"],
        calls=read["calls"],
        failed_come_downs=read["failed_come_downs"],
        overcall_penalty=read["overcall_penalty"],
        challenge=read.get("challenge"),
    )


def _unknown(values: Mapping[str, Any], known: tuple[str, ...]) -> list[str]:
    if not isinstance(values, Mapping):
        return ["values"]
    return [str(name)[:40] for name in values if name not in known]


def _flag(value: Any, name: str, rule: str, label: str | None, errors: list[Problem]) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    what = name.replace("_", " ")
    if label:
        text = gettext_noop("{player}'s {what} is yes or no", player=label, what=what)
    else:
        text = gettext_noop("{what} is yes or no", what=what)
    errors.append(Problem(rule, text, field=name))
    return False


def _whole(
    value: Any, name: str, rule: str, label: str, errors: list[Problem], most: int
) -> int | None:
    if value is None or (is_whole(value) and -most <= value <= most):
        return value
    what = name.replace("_", " ")
    text = gettext_noop(
        "{label}'s {what} must be a whole number up to {most}, not {shown}",
        label=label,
        what=what,
        most=most,
        shown=_shown(value),
    )
    errors.append(Problem(rule, text, field=name))
    return None


def _cards(value: Any, label: str, errors: list[Problem]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_CARD_TEXT:
        text = gettext_noop(
            "{label}'s cards must be card text of at most {max_card_text} characters",
            label=label,
            max_card_text=MAX_CARD_TEXT,
        )
        errors.append(Problem("R11", text, field="cards"))
        return None
    return value  # read by the R10 checks, which quote an unreadable token and its place


def _challenge(value: Any, label: str, errors: list[Problem]) -> str | None:
    if value in (None, ""):
        return None
    if value in CHALLENGE_OUTCOMES:
        return value
    choices = " or ".join(CHALLENGE_OUTCOMES)
    text = gettext_noop(
        "{label}'s challenge is {choices}, or empty, not {shown}",
        label=label,
        choices=choices,
        shown=_shown(value),
    )
    errors.append(Problem("R13.9", text, field="challenge"))
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
