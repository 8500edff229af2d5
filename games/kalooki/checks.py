"""Entry checks (R10): whether a game entry can be scored, and what in it looks doubtful.

An **error** refuses the entry, so nothing is saved: R10.1 to R10.5, and entries that make no
sense (a negative count, one player twice, cards and points both given for a hand, a hand with
neither). A **warning** lets the entry through once the scorekeeper confirms it and flags the
game for the director: R10.6 and R10.7.

A player's **hand size** at the end of a game is at most ``dealt + 2 × calls`` cards (R6.1): exactly
that if they never came down, and ``contract_cards`` fewer at least if they did (R4.2: for ASAJ
that leaves at most ``2 × calls``). When calls are not entered, ``assumed_calls_when_unknown`` of
them are assumed (R10.4). The **most a hand can be worth** is the value of that many cards taken
from the top of the deck: the jokers, the black aces, the tens and court cards, the nines, and so
on (R10.4).

The checks count cards per table: all hands of one game together hold at most ``max_copies`` of a
natural card and ``jokers`` jokers, because they come from one deck (R1.2, R10.3); cards written
without their suit count against their rank and colour (R11.5). A player who lost an **18-card
challenge** (R13.9) left the game early and their cards went under the discard pile, from where
they may come back into play (R9.1): their hand is held to the deck's limits on its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from .cards import NATURALS, Card, CardParseError, parse_cards
from .entries import CHALLENGE_OUTCOMES, CHALLENGED, GameEntry, HandEntry
from .points import kind_name, most_copies, over_the_limit
from .problems import Problem, RulesError, and_list, gettext_noop
from .ruleset import CardValues, GameSpec, Ruleset

UNREADABLE = "R10.3"  # the rule today's entry checks cite for unreadable cards (with R11)

Hands = tuple[tuple[Card, ...] | None, ...]  # each hand's cards as read, None where not given


@dataclass(frozen=True, slots=True)
class EntryCheck:
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        """No errors: the entry may be saved (after confirming any warnings)."""
        return not self.errors

    def to_dict(self) -> dict[str, object]:
        """The problems in the shape the rules API has always answered: rule, message, player.
        (The game protocol's evaluation also says each problem's field and side.)"""
        return {
            "errors": [_legacy(problem) for problem in self.errors],
            "warnings": [_legacy(problem) for problem in self.warnings],
        }


def _legacy(problem: Problem) -> dict[str, object]:
    return {"rule": problem.rule, "message": problem.message, "player": problem.player}


def check_entry(entry: GameEntry, ruleset: Ruleset) -> EntryCheck:
    """The R10 errors and warnings of one game entry."""
    return read_entry(entry, ruleset)[0]


def read_entry(
    entry: GameEntry, ruleset: Ruleset, *, unreadable: str = UNREADABLE
) -> tuple[EntryCheck, Hands]:
    """Check an entry and return the cards it reads, so scoring need not read them again.
    ``unreadable`` is the rule an unreadable card cites (the game protocol cites R11 alone)."""
    spec, errors = _game_spec(entry, ruleset)
    read = [_read_cards(hand, ruleset, unreadable) for hand in entry.hands]
    hands = tuple(cards for cards, _ in read)
    errors += _table_problems(entry, ruleset)
    errors += _going_out_problems(entry)
    errors += _challenge_problems(entry, hands, ruleset)
    warnings: list[Problem] = []
    for hand, (cards, unreadable) in zip(entry.hands, read, strict=True):
        errors += [unreadable] if unreadable else []
        errors += _hand_errors(hand, cards, spec, entry, ruleset)
        warnings += _hand_warnings(hand, cards, spec, entry, ruleset)
    errors += _deck_problems(entry, hands, ruleset)
    return EntryCheck(tuple(errors), tuple(warnings)), hands


def _game_spec(entry: GameEntry, ruleset: Ruleset) -> tuple[GameSpec | None, list[Problem]]:
    try:
        return ruleset.game(entry.game), []
    except RulesError as error:
        return None, [error.problem]


def _read_cards(
    hand: HandEntry, ruleset: Ruleset, rule: str
) -> tuple[tuple[Card, ...] | None, Problem | None]:
    if hand.cards is None:
        return None, None
    try:
        cards = tuple(parse_cards(hand.cards))
    except CardParseError as error:
        text = gettext_noop(
            '{player}\'s cards: card {position}, "{token}", is not a card; write the rank then '
            "the suit, like 10H, AS or 7♣, or JK for a joker (R10.3, R11)",
            player=hand.player,
            position=error.position,
            token=error.token,
        )
        return None, Problem(rule, text, hand.player, "cards")
    table = ruleset.card_values.table
    if not all(map(table.__contains__, cards)):
        unknown = next(card for card in cards if card not in table)
        return None, _colourless_ace(hand, cards.index(unknown) + 1, ruleset)
    return cards, None


def _colourless_ace(hand: HandEntry, position: int, ruleset: Ruleset) -> Problem:
    values = ruleset.card_values
    text = gettext_noop(
        "{player}'s cards: card {position}, an ace without its colour, has no value: a black ace "
        "costs {black} and a red ace {red} (R2), so write AB or AR, or the ace with its suit",
        player=hand.player,
        position=position,
        black=values.black_ace,
        red=values.red_ace,
    )
    return Problem("R11.4", text, hand.player, "cards")


# The table as a whole.


def _table_problems(entry: GameEntry, ruleset: Ruleset) -> list[Problem]:
    problems = []
    count, least, most = len(entry.hands), ruleset.min_table_size, ruleset.max_table_size
    if not least <= count <= most:
        text = gettext_noop(
            "a table seats {least} to {most} players, but this entry has {count} hands",
            least=least,
            most=most,
            count=count,
        )
        problems.append(Problem("R1.1", text, field="sides"))
    if any(not hand.player.strip() for hand in entry.hands):
        problems.append(
            Problem("R10", gettext_noop("every hand needs the name of the player who held it"))
        )
    for player, times in Counter(entry.players).items():
        if times > 1 and player.strip():
            text = gettext_noop(
                "{player} has {times} hands in this entry; each player has one",
                player=player,
                times=times,
            )
            problems.append(Problem("R10", text, player))
    return problems


def _going_out_problems(entry: GameEntry) -> list[Problem]:
    out = [hand.player for hand in entry.hands if hand.went_out]
    if entry.void and entry.down_and_out:
        text = gettext_noop("a void game has no score, so it cannot be down and out")
        return [Problem("R9.2", text, field="down_and_out")]
    if entry.void and out:
        text = gettext_noop("nobody goes out in a void game, but {out} did", out=and_list(out))
        return [Problem("R10.1", text, field="went_out")]
    if not entry.void and len(out) != 1:
        who = and_list(out) if out else gettext_noop("nobody")
        text = gettext_noop("exactly one player goes out in a scored game, not {who}", who=who)
        return [Problem("R10.1", text, field="went_out")]
    return []


def _deck_problems(entry: GameEntry, hands: Hands, ruleset: Ruleset) -> list[Problem]:
    out = [hand.challenge is not None for hand in entry.hands]
    if not any(out):
        return _deck_group_problems(entry, hands, ruleset)
    # R13.9: a challenge loser's cards may have come back into play; they count on their own.
    staying = tuple(None if left else cards for cards, left in zip(hands, out, strict=True))
    groups = [staying] + [
        tuple(cards if seat == place else None for seat, cards in enumerate(hands))
        for place, left in enumerate(out)
        if left and hands[place]
    ]
    return [problem for group in groups for problem in _deck_group_problems(entry, group, ruleset)]


def _deck_group_problems(entry: GameEntry, hands: Hands, ruleset: Ruleset) -> list[Problem]:
    too_many = over_the_limit((card for cards in hands if cards for card in cards), ruleset)
    problems = []
    for card, count in sorted(too_many.items()):
        holders = _holders(entry, hands, card)
        text = gettext_noop(
            "the hands hold {count} {kind} ({holders}), but the deck has only {most}",
            count=count,
            kind=kind_name(card),
            holders=holders,
            most=most_copies(card, ruleset),
        )
        problems.append(Problem("R10.3", text, field="cards"))
    return problems


def _holders(entry: GameEntry, hands: Hands, kind: Card) -> str:
    counts = (sum(_is_of(card, kind) for card in cards) if cards else 0 for cards in hands)
    held = zip(entry.players, counts, strict=True)
    return ", ".join(f"{player} {count}" for player, count in held if count)


def _is_of(card: Card, kind: Card) -> bool:
    """Whether ``card`` counts against the limit of ``kind`` (R11.5)."""
    if kind.suit is not None or kind.is_joker:
        return card == kind
    return card.rank is kind.rank and kind.colour in (None, card.colour)


# The 18-card challenge (R13.9).


def _challenge_problems(entry: GameEntry, hands: Hands, ruleset: Ruleset) -> list[Problem]:
    return [
        problem
        for hand, cards in zip(entry.hands, hands, strict=True)
        if hand.challenge is not None
        for problem in _lost_challenge_problems(hand, cards, ruleset)
    ]


def _lost_challenge_problems(
    hand: HandEntry, cards: tuple[Card, ...] | None, ruleset: Ruleset
) -> list[Problem]:
    def problem(text: str) -> list[Problem]:
        return [Problem("R13.9", text, hand.player, "challenge")]

    player = hand.player
    if hand.challenge not in CHALLENGE_OUTCOMES:
        text = gettext_noop(
            "{player} lost a challenge as {outcome}: say challenged or challenger",
            player=player,
            outcome=repr(hand.challenge),
        )
        return problem(text)
    if not ruleset.card_challenge:
        text = gettext_noop(
            "{player} lost an 18-card challenge, but this ruleset has no such challenge",
            player=player,
        )
        return problem(text)
    if hand.went_out:
        text = gettext_noop(
            "{player} went out, so cannot also have lost a challenge and left the game",
            player=player,
        )
        return problem(text)
    limit = ruleset.challenge_limit
    if hand.challenge != CHALLENGED:
        return []
    if cards is not None and len(cards) <= limit:
        text = gettext_noop(
            "{player} lost a challenge as the challenged player, so held more than {limit} "
            "cards, but {held} are entered",
            player=player,
            limit=limit,
            held=len(cards),
        )
        return problem(text)
    least = least_hand_points(limit + 1, ruleset)
    if cards is None and _whole(hand.points) and hand.points < least:
        text = gettext_noop(
            "{player} lost a challenge as the challenged player, so held more than {limit} "
            "cards: {more} cards count at least {least} in this deck, not {points}",
            player=player,
            limit=limit,
            more=limit + 1,
            least=least,
            points=hand.points,
        )
        return [_points_problem(hand, text)]
    return []


def _whole(points: object) -> bool:
    return isinstance(points, int) and not isinstance(points, bool)


def _points_problem(hand: HandEntry, text: str) -> Problem:
    return Problem("R13.9", text, hand.player, "points")


# One hand.


def _hand_errors(
    hand: HandEntry,
    cards: tuple[Card, ...] | None,
    spec: GameSpec | None,
    entry: GameEntry,
    ruleset: Ruleset,
) -> list[Problem]:
    problems = [*_count_problems(hand), *_overcall_problems(hand, ruleset)]
    down_and_out = entry.down_and_out and ruleset.double_on_down_and_out
    if hand.cards is not None and hand.points is not None:
        text = gettext_noop(
            "{player} has both cards and points entered; give one or the other", player=hand.player
        )
        problems.append(Problem("R10.4", text, hand.player, "points"))
    elif entry.void:
        pass  # R9.2: nothing in a void game is scored, so there is nothing to hold it to
    elif hand.went_out:
        problems += _went_out_problems(hand, cards)
    else:
        problems += _still_holding_problems(hand, cards, spec, down_and_out, ruleset)
    return problems


def _count_problems(hand: HandEntry) -> list[Problem]:
    problems = []
    if hand.calls is not None and hand.calls < 0:
        text = gettext_noop("{player}'s calls cannot be negative", player=hand.player)
        problems.append(Problem("R6.2", text, hand.player, "calls"))
    if hand.failed_come_downs < 0:
        text = gettext_noop("{player}'s failed come-downs cannot be negative", player=hand.player)
        problems.append(Problem("R5.4", text, hand.player, "failed_come_downs"))
    return problems


def _overcall_problems(hand: HandEntry, ruleset: Ruleset) -> list[Problem]:
    if not hand.overcall_penalty or (hand.calls or 0) > ruleset.call_limit:
        return []
    limit = ruleset.call_limit
    if hand.calls is None:
        text = gettext_noop(
            "{player} has an overcall penalty but no calls entered: enter the calls "
            "(an overcall is more than {limit} calls, R10.5)",
            player=hand.player,
            limit=limit,
        )
    else:
        text = gettext_noop(
            "{player} has an overcall penalty with only {calls} "
            "(an overcall is more than {limit} calls, R10.5)",
            player=hand.player,
            calls=_calls_count(hand.calls),
            limit=limit,
        )
    return [Problem("R10.5", text, hand.player, "overcall_penalty")]


def _went_out_problems(hand: HandEntry, cards: tuple[Card, ...] | None) -> list[Problem]:
    if cards:
        text = gettext_noop(
            "{player} went out, so holds no cards, but {held} are entered",
            player=hand.player,
            held=len(cards),
        )
        return [Problem("R10.2", text, hand.player, "cards")]
    if hand.points:
        text = gettext_noop(
            "{player} went out, so scores 0 card points, not {points}",
            player=hand.player,
            points=hand.points,
        )
        return [Problem("R10.2", text, hand.player, "points")]
    return []


def _still_holding_problems(
    hand: HandEntry,
    cards: tuple[Card, ...] | None,
    spec: GameSpec | None,
    down_and_out: bool,
    ruleset: Ruleset,
) -> list[Problem]:
    if hand.cards is None and hand.points is None:
        text = gettext_noop(
            "{player} did not go out: enter the cards left in their hand or their points",
            player=hand.player,
        )
        return [Problem("R8.2", text, hand.player, "cards")]
    if cards is not None and not cards:
        text = gettext_noop(
            "{player} did not go out, so holds at least one card; none are entered",
            player=hand.player,
        )
        return [Problem("R10.2", text, hand.player, "cards")]
    if hand.points is not None and spec is not None:
        # R13.9: a challenge loser's cards are counted when they leave, never doubled.
        doubled = down_and_out and hand.challenge is None
        return _points_problems(hand, hand.points, spec, doubled, ruleset)
    return []


def _points_problems(
    hand: HandEntry, points: int, spec: GameSpec, down_and_out: bool, ruleset: Ruleset
) -> list[Problem]:
    if not isinstance(points, int) or isinstance(points, bool):
        text = gettext_noop(
            "{player}'s points must be a whole number, not {points}",
            player=hand.player,
            points=repr(points),
        )
        return [Problem("R10.4", text, hand.player, "points")]
    if points < 1:
        text = gettext_noop(
            "{player} did not go out, so their cards are worth at least 1 point, not {points}",
            player=hand.player,
            points=points,
        )
        return [Problem("R10.4", text, hand.player, "points")]
    size = hand_size(spec, hand.calls, ruleset)
    most = max_hand_points(size, ruleset, doubled=down_and_out)
    # R10.4 bounds the penalty as it will count, so under R8.3 both sides are doubled.
    counted = 2 * points if down_and_out else points
    if counted <= most:
        return []
    calls = _calls_words(hand.calls, ruleset)
    if down_and_out:
        text = gettext_noop(
            "{player}'s {points} points, doubled for down and out to {counted}, are more than "
            "{size} cards can be worth ({calls}): at most {most}",
            player=hand.player,
            points=points,
            counted=counted,
            size=size,
            calls=calls,
            most=most,
        )
    else:
        text = gettext_noop(
            "{player}'s {points} points are more than {size} cards can be worth ({calls}): "
            "at most {most}",
            player=hand.player,
            points=points,
            size=size,
            calls=calls,
            most=most,
        )
    return [Problem("R10.4", text, hand.player, "points")]


def _calls_words(calls: int | None, ruleset: Ruleset) -> str:
    if calls is None:
        assumed = ruleset.assumed_calls_when_unknown
        return gettext_noop("calls not entered, so {assumed} assumed", assumed=assumed)
    return _calls_count(calls)


def _calls_count(calls: int) -> str:
    if calls == 1:
        return gettext_noop("{calls} call", calls=calls)
    return gettext_noop("{calls} calls", calls=calls)


def _hand_warnings(
    hand: HandEntry,
    cards: tuple[Card, ...] | None,
    spec: GameSpec | None,
    entry: GameEntry,
    ruleset: Ruleset,
) -> list[Problem]:
    warnings = []
    if entry.void and (hand.cards or hand.points or hand.failed_come_downs or hand.adjustment):
        text = gettext_noop(
            "{player}: cards, points, penalties and adjustments in a void game do not count",
            player=hand.player,
        )
        warnings.append(Problem("R9.2", text, hand.player))
    # R13.9: a challenge loser left the game early, so their hand size says nothing.
    left_early = hand.challenge is not None
    if (
        cards
        and spec
        and hand.calls is not None
        and not (entry.void or hand.went_out or left_early)
    ):
        warnings += _hand_size_warnings(hand, len(cards), hand.calls, spec)
    if hand.calls is not None and hand.calls > ruleset.call_limit and not hand.overcall_penalty:
        text = gettext_noop(
            "{player} made {calls} calls, more than {limit}, but no overcall penalty is entered",
            player=hand.player,
            calls=hand.calls,
            limit=ruleset.call_limit,
        )
        warnings.append(Problem("R10.7", text, hand.player, "overcall_penalty"))
    return warnings


def _hand_size_warnings(hand: HandEntry, held: int, calls: int, spec: GameSpec) -> list[Problem]:
    full = spec.dealt + 2 * calls
    after_coming_down = full - spec.contract_cards
    if held == full or held <= after_coming_down:
        return []
    if after_coming_down > 0:
        expected = gettext_noop(
            "{full} if they never came down, or at most {after} if they did",
            full=full,
            after=after_coming_down,
        )
    else:
        expected = gettext_noop("{full} if they never came down", full=full)
    text = gettext_noop(
        "{player} holds {held} cards with {calls}; expected {expected}",
        player=hand.player,
        held=held,
        calls=_calls_count(calls),
        expected=expected,
    )
    return [Problem("R10.6", text, hand.player, "cards")]


# The most a hand can be worth (R10.4).


def hand_size(spec: GameSpec, calls: int | None, ruleset: Ruleset) -> int:
    """The most cards a player can hold at the end of this game (R6.1, R10.4)."""
    known = ruleset.assumed_calls_when_unknown if calls is None else calls
    return spec.dealt + 2 * max(known, 0)


def max_hand_points(card_count: int, ruleset: Ruleset, *, doubled: bool = False) -> int:
    """The most ``card_count`` cards from one deck can be worth, doubled under R8.3 if asked."""
    best = _best_totals(ruleset.card_values, ruleset.packs, ruleset.jokers)
    total = best[min(max(card_count, 0), len(best) - 1)]
    return 2 * total if doubled else total


def least_hand_points(card_count: int, ruleset: Ruleset) -> int:
    """The least ``card_count`` cards from one deck can be worth: the cheapest cards first."""
    cheapest = _cheapest_totals(ruleset.card_values, ruleset.packs, ruleset.jokers)
    return cheapest[min(max(card_count, 0), len(cheapest) - 1)]


@lru_cache(maxsize=16)
def _cheapest_totals(values: CardValues, packs: int, jokers: int) -> tuple[int, ...]:
    """``cheapest[n]`` is the value of the n least valuable cards of the deck."""
    naturals = [values.table[card] for card in NATURALS]
    everything = [values.joker] * jokers + naturals * packs
    return (0, *accumulate(sorted(everything)))


@lru_cache(maxsize=16)
def _best_totals(values: CardValues, packs: int, jokers: int) -> tuple[int, ...]:
    """``best[n]`` is the value of the n most valuable cards of the deck."""
    naturals = [values.table[card] for card in NATURALS]
    everything = [values.joker] * jokers + naturals * packs
    return (0, *accumulate(sorted(everything, reverse=True)))
