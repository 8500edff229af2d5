"""The checks of a hand read from an entry (HF8.2 to HF8.10): errors and warnings.

An **error** refuses the entry (the hand cannot have happened under the rules); a **warning**
asks the scorekeeper to confirm and flags the hand for the director (it could have happened, but
an entry slip is likelier). The **table's cards** are every card written in a hand or foot at the
table; the **supply** is the deck less those cards: what the books can be made of (HF4.3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from games.base import Problem, and_list

from .books import books_fit, least_worth, worth_within
from .deck import STACK, Kind
from .entry import Hand, Player, Team
from .ruleset import Ruleset

DOUBTFUL_FAILED_MELDS = 2  # HF8.10


def errors(hand: Hand, ruleset: Ruleset) -> list[Problem]:
    found = list(_going_out_errors(hand, ruleset))
    for side, team in enumerate(hand.teams):
        found += _team_errors(team, side, hand.number, ruleset)
        for member, player in enumerate(team.players):
            found += _player_errors(player, side, member, ruleset)
    return found + list(_deck_errors(hand, ruleset))


def warnings(hand: Hand) -> list[Problem]:
    found = []
    if not any(player.went_out for player in hand.players):
        message = (
            "no one went out, so the hand is scored as a draw-pile end: confirm, or mark who "
            "went out"
        )
        found.append(Problem("HF8.8", message, field="went_out"))
    for side, team in enumerate(hand.teams):
        for member, player in enumerate(team.players):
            found += _player_warnings(player, side, member)
    return found


def _player_warnings(player: Player, side: int, member: int) -> list[Problem]:
    found = []
    if not player.went_out and player.hand is not None and player.hand.kinds == ():
        message = (
            f"{player.label} holds no card but did not go out; a player keeps a card to discard"
        )
        found.append(Problem("HF8.9", message, player.label, "hand", side, member))
    if player.failed_melds > DOUBTFUL_FAILED_MELDS:
        message = f"{player.label} failed to meld {player.failed_melds} times in one hand"
        found.append(Problem("HF8.10", message, player.label, "failed_melds", side, member))
    return found


# --- going out ----------------------------------------------------------------------------------


def _going_out_errors(hand: Hand, ruleset: Ruleset) -> Iterator[Problem]:
    out = [player for player in hand.players if player.went_out]
    if len(out) > 1:
        names = and_list(player.label for player in out)
        yield Problem("HF5.2", f"only one player goes out in a hand, not {names}", field="went_out")
        return
    for side, team in enumerate(hand.teams):
        if team.went_out:
            yield from _books_to_go_out(team, side, ruleset)


def _books_to_go_out(team: Team, side: int, ruleset: Ruleset) -> Iterator[Problem]:
    red, black = ruleset.red_books_to_go_out, ruleset.black_books_to_go_out
    if team.red_books < red or team.black_books < black:
        message = (
            f"{team.label} went out with {team.red_books} red and {team.black_books} black "
            f"books; going out needs {red} red and {black} black"
        )
        yield Problem("HF5.1", message, team.label, "red_books", side)


def _out_player_errors(player: Player, side: int, member: int) -> Iterator[Problem]:
    held = player.left > 0 or any(part.kinds for part in player.parts) or player.red_threes
    if held:
        message = f"{player.label} went out, so holds no card and no red three"
        yield Problem("HF5.3", message, player.label, "hand", side, member)
    if not player.foot_played:
        message = f"{player.label} went out, so has played the foot"
        yield Problem("HF5.3", message, player.label, "foot_played", side, member)


# --- one player ---------------------------------------------------------------------------------


def _player_errors(player: Player, side: int, member: int, ruleset: Ruleset) -> list[Problem]:
    found = list(_out_player_errors(player, side, member)) if player.went_out else []
    if not player.went_out and player.hand is None:
        message = f"{player.label} did not go out: enter the cards or points left in hand"
        found.append(Problem("HF8.2", message, player.label, "hand", side, member))
    found += _foot_errors(player, side, member, ruleset)
    found += _unit_errors(player, side, member, ruleset)
    if player.red_threes_entered and all(part.is_cards for part in player.parts):
        message = (
            f"{player.label}'s red threes are counted from the cards; enter a number of red "
            "threes only for a hand or foot entered as points"
        )
        found.append(Problem("HF8.2", message, player.label, "red_threes", side, member))
    return found


def _foot_errors(player: Player, side: int, member: int, ruleset: Ruleset) -> list[Problem]:
    foot = player.foot
    where = (player.label, "foot", side, member)
    if player.foot_played:
        if foot is None:
            return []
        return [Problem("HF8.2", f"{player.label} played the foot: enter no foot", *where)]
    if foot is None:
        message = f"{player.label} did not play the foot: enter its cards or points"
        return [Problem("HF8.2", message, *where)]
    if foot.kinds is not None and len(foot.kinds) != STACK:
        message = f"{player.label}'s foot holds {STACK} cards, not {len(foot.kinds)}"
        return [Problem("HF2.3", message, *where)]
    if foot.kinds is None:
        return _foot_points_errors(player, foot.points, side, member, ruleset)
    return []


def _foot_points_errors(
    player: Player, points: int, side: int, member: int, ruleset: Ruleset
) -> list[Problem]:
    """A foot entered as points is 13 cards (HF2.3) less its red threes, which count HF6.4's
    penalty instead: its points lie between what the cheapest and the dearest of them count.
    Red threes entered beside a hand also entered as points may be in the hand: only the foot's
    least is then known."""
    threes = min(STACK, player.red_threes_entered)
    least, where = ruleset.deck.cheapest(STACK - threes), ("foot_points", side, member)
    with_threes = f"(with {player.red_threes_entered} red threes)"
    if points < least:
        message = f"{player.label}'s foot of {STACK} cards counts at least {least}, not {points}"
        return [Problem("HF8.5", f"{message} {with_threes}", player.label, *where)]
    in_foot = 0 if player.hand is not None and not player.hand.is_cards else threes
    most = ruleset.deck.dearest(STACK - in_foot)
    if points > most:
        cards = f"{STACK - in_foot} cards besides its {in_foot} red threes" if in_foot else ""
        message = (
            f"{player.label}'s foot counts at most {most}, not {points}: "
            f"{cards or f'{STACK} cards'} are worth no more"
        )
        return [Problem("HF8.5", message, player.label, *where)]
    return []


def _unit_errors(player: Player, side: int, member: int, ruleset: Ruleset) -> list[Problem]:
    unit = ruleset.deck.hand_unit
    found = []
    for name, part in (("hand", player.hand), ("foot", player.foot)):
        if part is not None and not part.is_cards and unit and part.points % unit:
            message = (
                f"{player.label}'s {name} counts {part.points}, but every card counts a "
                f"multiple of {unit}"
            )
            found.append(Problem("HF8.5", message, player.label, f"{name}_points", side, member))
    return found


# --- one team -----------------------------------------------------------------------------------


def _team_errors(team: Team, side: int, number: int, ruleset: Ruleset) -> list[Problem]:
    laid, unit, meld = team.laid_down, ruleset.deck.unit, ruleset.meld(number)
    where = (team.label, "laid_down", side)
    if unit and laid % unit:
        message = f"{team.label} laid down {laid}, but every card counts a multiple of {unit}"
        return [Problem("HF8.5", message, *where)]
    if 0 < laid < meld:
        message = (
            f"{team.label} laid down {laid}, but a team that melds lays down at least hand "
            f"{number}'s minimum of {meld}"
        )
        return [Problem("HF3.5", message, *where)]
    if laid == 0 and (team.books or team.went_out or any(p.foot_played for p in team.players)):
        message = (
            f"{team.label} laid down nothing, yet has a book, went out or played a foot; enter "
            "the points laid down"
        )
        return [Problem("HF5.4", message, *where)]
    return []


# --- the deck's limits --------------------------------------------------------------------------


def _deck_errors(hand: Hand, ruleset: Ruleset) -> Iterator[Problem]:
    deck = ruleset.deck
    held = Counter(kind for p in hand.players for part in p.parts for kind in part.kinds or ())
    held[Kind.RED_THREE] += sum(player.red_threes_entered for player in hand.players)
    over = [kind for kind in Kind if held[kind] > deck.counts[kind]]
    for kind in over:
        message = (
            f"the table's hands and feet hold {held[kind]} {_plural(kind)}, but the deck has "
            f"{deck.counts[kind]}"
        )
        yield Problem("HF8.3", message, field="red_threes" if kind is Kind.RED_THREE else "hand")
    if over:
        return
    supply = {kind: deck.counts[kind] - held[kind] for kind in Kind}
    yield from _book_errors(hand, ruleset, supply)
    yield from _worth_errors(hand, ruleset)


def _book_errors(hand: Hand, ruleset: Ruleset, supply: dict[Kind, int]) -> Iterator[Problem]:
    red = sum(team.red_books for team in hand.teams)
    black = sum(team.black_books for team in hand.teams)
    if not books_fit(supply, red, black):
        message = (
            f"{red} red and {black} black books at the table are more than the deck can make "
            "with the cards left in hands and feet"
        )
        yield Problem("HF4.3", message, field="red_books")
        return
    for side, team in enumerate(hand.teams):
        if team.laid_down < ruleset.meld(hand.number) or not team.books:
            continue  # nothing, or too little to meld: _team_errors said so already
        books = (ruleset.card_values, team.red_books, team.black_books)
        if worth_within(supply, *books, team.laid_down):
            continue
        least = least_worth(supply, *books)
        message = (
            f"{team.label}'s {team.red_books} red and {team.black_books} black books hold "
            f"cards worth at least {least}, more than the {team.laid_down} laid down: a book "
            "is seven cards of one rank"
        )
        yield Problem("HF8.6", message, team.label, "laid_down", side)


def _worth_errors(hand: Hand, ruleset: Ruleset) -> Iterator[Problem]:
    laid = sum(team.laid_down for team in hand.teams)
    left = sum(player.left for player in hand.players)
    worth = ruleset.deck.worth
    if laid + left > worth:
        message = (
            f"the table laid down {laid} and holds {left} in hands and feet, more than the "
            f"whole deck is worth ({worth})"
        )
        yield Problem("HF8.3", message, field="laid_down")
    failed = sum(player.failed_melds for player in hand.players)
    if failed > ruleset.deck.draw_turns:
        message = (
            f"{failed} failed melds at the table, but the draw pile has only "
            f"{ruleset.deck.draw_turns} turns of drawing two cards"
        )
        yield Problem("HF8.7", message, field="failed_melds")


def _plural(kind: Kind) -> str:
    return {Kind.SIX: "sixes"}.get(kind, kind.value.replace("_", " ") + "s")
