"""Contracts: what a player's first lay-down must hold (R4, R5).

A game's **contract** is its minimum of melds: so many threes and so many fours (R4), e.g. "two
threes and one four" in game 2. A **lay-down** is the **groups** of cards one player puts on the
table when coming down, each group meant as one meld. It **satisfies the contract** when every group
is a valid meld (R3), there are at least as many threes and as many fours as the contract asks
(R5.1), more melds only where the ruleset allows them (R5.3), and the player's fours are all of
different suits and threes all of different ranks (R5.2).

The whole lay-down is held to the deck too (R1.2): its groups together hold no more copies of a
card, nor jokers, than one deck has.

Which kind a group is needs no guessing: no group of cards is both a three and a four. A three's
natural cards share one rank, while a four without two jokers side by side has at least two
natural cards of different ranks (its only repeatable card, the ace at both ends of A-...-A, needs
twelve cards between).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.base import gettext_noop

from .cards import Card, CardParseError, as_cards, format_cards
from .melds import MeldCheck, check_meld, deck_problems
from .problems import Problem
from .ruleset import FOUR, THREE, GameSpec, Ruleset, describe_melds


@dataclass(frozen=True, slots=True)
class ContractCheck:
    valid: bool
    reasons: tuple[Problem, ...]
    melds: tuple[MeldCheck, ...] = ()
    game: GameSpec | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "melds": [meld.to_dict() for meld in self.melds],
        }


def check_contract(
    game: int,
    groups: Sequence[str | Iterable[Card]],
    ruleset: Ruleset,
    *,
    as_laid: bool = False,
) -> ContractCheck:
    """Does this lay-down (one group of cards per meld) satisfy the contract of ``game``?"""
    spec = ruleset.game(game)
    try:
        card_groups = [as_cards(group) for group in groups]
    except CardParseError as error:
        return ContractCheck(False, (error.problem,), (), spec)
    melds = tuple(check_meld(cards, ruleset, as_laid=as_laid) for cards in card_groups)
    reasons = (
        *_group_problems(melds),
        *_lay_down_deck_problems(card_groups, melds, ruleset),
        *_variety_problems(melds),
        *_count_problems(melds, spec, ruleset),
    )
    return ContractCheck(not reasons, reasons, melds, spec)


def _group_problems(melds: tuple[MeldCheck, ...]) -> list[Problem]:
    return [
        Problem(
            reason.rule,
            gettext_noop(
                "group {number} ({cards}): {message}",
                number=number,
                cards=format_cards(meld.cards),
                message=reason.message,
            ),
        )
        for number, meld in enumerate(melds, start=1)
        for reason in meld.reasons
    ]


def _lay_down_deck_problems(
    groups: list[tuple[Card, ...]], melds: tuple[MeldCheck, ...], ruleset: Ruleset
) -> tuple[Problem, ...]:
    """The deck's limits across groups, unless one group alone already breaks them."""
    if any(reason.rule == "R1.2" for meld in melds for reason in meld.reasons):
        return ()
    return deck_problems((card for group in groups for card in group), ruleset, "this lay-down")


def _variety_problems(melds: tuple[MeldCheck, ...]) -> list[Problem]:
    suits = Counter(meld.suit for meld in melds if meld.valid and meld.kind == FOUR)
    ranks = Counter(meld.rank for meld in melds if meld.valid and meld.kind == THREE)
    problems = [
        Problem(
            "R5.2",
            gettext_noop(
                "{count} fours in {suit}: one player's fours differ in suit",
                count=count,
                suit=suit.name.lower(),
            ),
        )
        for suit, count in suits.items()
        if suit is not None and count > 1
    ]
    problems += [
        Problem(
            "R5.2",
            gettext_noop(
                "{count} threes of rank {rank}: one player's threes differ in rank",
                count=count,
                rank=rank.label,
            ),
        )
        for rank, count in ranks.items()
        if rank is not None and count > 1
    ]
    return problems


def _count_problems(
    melds: tuple[MeldCheck, ...], spec: GameSpec, ruleset: Ruleset
) -> list[Problem]:
    threes = sum(meld.valid and meld.kind == THREE for meld in melds)
    fours = sum(meld.valid and meld.kind == FOUR for meld in melds)
    laid = describe_melds(threes, fours)
    if threes < spec.threes or fours < spec.fours:
        text = gettext_noop(
            "game {number} asks for {contract}; this lay-down has {laid}",
            number=spec.number,
            contract=spec.describe(),
            laid=laid,
        )
        return [Problem("R5.1", text)]
    if (threes, fours) != (spec.threes, spec.fours) and not ruleset.extra_melds_allowed:
        text = gettext_noop(
            "game {number} asks for exactly {contract}; this lay-down has {laid}",
            number=spec.number,
            contract=spec.describe(),
            laid=laid,
        )
        return [Problem("R5.3", text)]
    return []
