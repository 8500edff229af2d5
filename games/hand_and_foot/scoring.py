"""What a hand scores, for each team (HF6): the sum of its **parts**.

The parts, each a signed number of points: ``books`` (HF6.1), ``laid_down`` (HF6.2), ``left``
(cards left in hands and unplayed feet, HF6.3), ``red_threes`` (HF6.4), ``going_out`` (HF6.5),
``dealt_26`` (HF6.6) and ``failed_melds`` (HF6.7). A team's points are exactly their sum, and the
score's ``detail`` keeps them with the counts behind them, for score sheets and disputes.
"""

from __future__ import annotations

from typing import Any

from games.base import DealScore, SideScore

from .report import Hand, Player, Team
from .ruleset import Ruleset

PARTS = ("books", "laid_down", "left", "red_threes", "going_out", "dealt_26", "failed_melds")
DRAW_PILE = "draw_pile"  # HF2.4: how a hand ends when no one went out
WENT_OUT = "went_out"


def score_hand(hand: Hand, ruleset: Ruleset) -> DealScore:
    out = [
        [side, member]
        for side, team in enumerate(hand.teams)
        for member, player in enumerate(team.players)
        if player.went_out
    ]
    detail = {
        "ended": WENT_OUT if out else DRAW_PILE,
        "meld": ruleset.meld(hand.number),
        "out": out[0] if out else None,
    }
    sides = tuple(score_team(team, ruleset) for team in hand.teams)
    return DealScore(hand.number, sides, detail=detail)


def score_team(team: Team, ruleset: Ruleset) -> SideScore:
    counts = _counts(team)
    parts = _parts(team, counts, ruleset)
    detail: dict[str, Any] = {
        **counts,
        "laid_down": team.laid_down,
        "parts": parts,
        "players": [_player_detail(player) for player in team.players],
    }
    return SideScore(sum(parts.values()), team.went_out, _reasons(counts, parts), detail)


def _counts(team: Team) -> dict[str, int]:
    return {
        "red_books": team.red_books,
        "black_books": team.black_books,
        "red_threes": sum(player.red_threes for player in team.players),
        "dealt_26": sum(player.dealt_26 for player in team.players),
        "failed_melds": sum(player.failed_melds for player in team.players),
    }


def _parts(team: Team, counts: dict[str, int], ruleset: Ruleset) -> dict[str, int]:
    return {
        "books": counts["red_books"] * ruleset.red_book_points
        + counts["black_books"] * ruleset.black_book_points,
        "laid_down": team.laid_down,
        "left": -sum(player.left for player in team.players),
        "red_threes": -counts["red_threes"] * ruleset.red_three_penalty,
        "going_out": ruleset.going_out_bonus if team.went_out else 0,
        "dealt_26": counts["dealt_26"] * ruleset.dealt_26_bonus,
        "failed_melds": -counts["failed_melds"] * ruleset.failed_meld_penalty,
    }


def _player_detail(player: Player) -> dict[str, Any]:
    return {
        "went_out": player.went_out,
        "left": player.left,
        "foot_played": player.foot_played,
        "red_threes": player.red_threes,
        "dealt_26": player.dealt_26,
        "failed_melds": player.failed_melds,
    }


def _reasons(counts: dict[str, int], parts: dict[str, int]) -> tuple[str, ...]:
    words = {
        "books": (f"{counts['red_books']} red and {counts['black_books']} black books", "HF6.1"),
        "laid_down": ("cards laid down", "HF6.2"),
        "left": ("cards left in hands and feet", "HF6.3"),
        "red_threes": (_times(counts["red_threes"], "red three") + " left in hand", "HF6.4"),
        "going_out": ("went out", "HF6.5"),
        "dealt_26": (_times(counts["dealt_26"], "deal") + " of exactly 26 cards", "HF6.6"),
        "failed_melds": (_times(counts["failed_melds"], "failed meld"), "HF6.7"),
    }
    return tuple(
        f"{words[name][0]}: {parts[name]:+d} ({words[name][1]})" for name in PARTS if parts[name]
    )


def _times(count: int, thing: str) -> str:
    return f"{count} {thing}{'s' if count != 1 else ''}"
