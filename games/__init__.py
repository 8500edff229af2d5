"""The games: each card game's rules in plain Python, behind one protocol (``games.base``).

One package per game (``games/kalooki``, ...), each with a ``GAME`` object and a ``RULES.md`` that
numbers its rules; ``games.base`` holds the protocol and the shapes the apps exchange with a game.
Nothing here imports Django or anything of the apps, and no game imports another: what games
share lives at this level. ``get(key)`` finds a game; ``GAME_KEYS`` lists them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from games.base import Game, Problem, RulesError, gettext_noop

# The games the product runs, by key: the package under games/ of the same name holds each.
GAME_KEYS: tuple[str, ...] = ("kalooki", "hand_and_foot", "parcellus")


def get(key: str) -> Game[Any]:
    """The game called ``key``; a ``RulesError`` naming the games there are for any other key."""
    if key not in GAME_KEYS:
        known = ", ".join(GAME_KEYS)
        raise RulesError(
            Problem(
                "",
                gettext_noop(
                    "there is no game called {key}; the games are: {known}",
                    key=repr(key),
                    known=known,
                ),
            )
        )
    return import_module(f"games.{key}").GAME


def all_games() -> tuple[Game[Any], ...]:
    return tuple(get(key) for key in GAME_KEYS)
