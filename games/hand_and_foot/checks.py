"""The checks of a hand read from an entry (HF8.2 to HF8.10): errors and warnings.

An **error** refuses the entry (the hand cannot have happened under the rules); a **warning**
asks the scorekeeper to confirm and flags the hand for the director (it could have happened, but
an entry slip is likelier). The **table's cards** are every card written in a hand or foot at the
table; the **supply** is the deck less those cards: what the books can be made of (HF4.3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from games.base import Problem, and_list, gettext_noop

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
        message = gettext_noop(
            "no one went out, so the hand is scored as a draw-pile end: confirm, or mark "
            "who went out"
        )
        found.append(Problem("HF8.8", message, field="went_out"))
    for side, team in enumerate(hand.teams):
        for member, player in enumerate(team.players):
            found += _player_warnings(player, side, member)
    return found


def _player_warnings(player: Player, side: int, member: int) -> list[Problem]:
    found = []
    if not player.went_out and player.hand is not None and player.hand.kinds == ():
        message = gettext_noop(
            "{player} holds no card but did not go out; a player keeps a card to discard",
            player=player.label,
        )
        found.append(Problem("HF8.9", message, player.label, "hand", side, member))
    if player.failed_melds > DOUBTFUL_FAILED_MELDS:
        message = gettext_noop(
            "{player} failed to meld {failed_melds} times in one hand",
            player=player.label,
            failed_melds=player.failed_melds,
        )
        found.append(Problem("HF8.10", message, player.label, "failed_melds", side, member))
    return found


# --- going out ----------------------------------------------------------------------------------


def _going_out_errors(hand: Hand, ruleset: Ruleset) -> Iterator[Problem]:
    out = [player for player in hand.players if player.went_out]
    if len(out) > 1:
        names = and_list(player.label for player in out)
        yield Problem(
            "HF5.2",
            gettext_noop("only one player goes out in a hand, not {names}", names=names),
            field="went_out",
        )
        return
    for side, team in enumerate(hand.teams):
        if team.went_out:
            yield from _books_to_go_out(team, side, ruleset)


def _books_to_go_out(team: Team, side: int, ruleset: Ruleset) -> Iterator[Problem]:
    red, black = ruleset.red_books_to_go_out, ruleset.black_books_to_go_out
    if team.red_books < red or team.black_books < black:
        message = gettext_noop(
            "{team} went out with {red_books} red and {black_books} black books; going out "
            "needs {red} red and {black} black",
            team=team.label,
            red_books=team.red_books,
            black_books=team.black_books,
            red=red,
            black=black,
        )
        yield Problem("HF5.1", message, team.label, "red_books", side)


def _out_player_errors(player: Player, side: int, member: int) -> Iterator[Problem]:
    held = player.left > 0 or any(part.kinds for part in player.parts) or player.red_threes
    if held:
        message = gettext_noop(
            "{player} went out, so holds no card and no red three", player=player.label
        )
        yield Problem("HF5.3", message, player.label, "hand", side, member)
    if not player.foot_played:
        message = gettext_noop("{player} went out, so has played the foot", player=player.label)
        yield Problem("HF5.3", message, player.label, "foot_played", side, member)


# --- one player ---------------------------------------------------------------------------------


def _player_errors(player: Player, side: int, member: int, ruleset: Ruleset) -> list[Problem]:
    found = list(_out_player_errors(player, side, member)) if player.went_out else []
    if not player.went_out and player.hand is None:
        message = gettext_noop(
            "{player} did not go out: enter the cards or points left in hand", player=player.label
        )
        found.append(Problem("HF8.2", message, player.label, "hand", side, member))
    found += _foot_errors(player, side, member, ruleset)
    found += _unit_errors(player, side, member, ruleset)
    if player.red_threes_entered and all(part.is_cards for part in player.parts):
        message = gettext_noop(
            "{player}'s red threes are counted from the cards; enter a number of red "
            "threes only for a hand or foot entered as points",
            player=player.label,
        )
        found.append(Problem("HF8.2", message, player.label, "red_threes", side, member))
    return found


def _foot_errors(player: Player, side: int, member: int, ruleset: Ruleset) -> list[Problem]:
    foot = player.foot
    where = (player.label, "foot", side, member)
    if player.foot_played:
        if foot is None:
            return []
        return [
            Problem(
                "HF8.2",
                gettext_noop("{player} played the foot: enter no foot", player=player.label),
                *where,
            )
        ]
    if foot is None:
        message = gettext_noop(
            "{player} did not play the foot: enter its cards or points", player=player.label
        )
        return [Problem("HF8.2", message, *where)]
    if foot.kinds is not None and len(foot.kinds) != STACK:
        message = gettext_noop(
            "{player}'s foot holds {stack} cards, not {count}",
            player=player.label,
            stack=STACK,
            count=len(foot.kinds),
        )
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
    if points < least:
        message = gettext_noop(
            "{player}'s foot of {stack} cards counts at least {least}, not {points} "
            "(with {threes} red threes)",
            player=player.label,
            stack=STACK,
            least=least,
            points=points,
            threes=player.red_threes_entered,
        )
        return [Problem("HF8.5", message, player.label, *where)]
    in_foot = 0 if player.hand is not None and not player.hand.is_cards else threes
    most = ruleset.deck.dearest(STACK - in_foot)
    if points > most:
        if in_foot:
            cards = gettext_noop(
                "{cards} cards besides its {threes} red threes",
                cards=STACK - in_foot,
                threes=in_foot,
            )
        else:
            cards = gettext_noop("{cards} cards", cards=STACK)
        message = gettext_noop(
            "{player}'s foot counts at most {most}, not {points}: {cards} are worth no more",
            player=player.label,
            most=most,
            points=points,
            cards=cards,
        )
        return [Problem("HF8.5", message, player.label, *where)]
    return []


def _unit_errors(player: Player, side: int, member: int, ruleset: Ruleset) -> list[Problem]:
    unit = ruleset.deck.hand_unit
    found = []
    for name, part in (("hand", player.hand), ("foot", player.foot)):
        if part is not None and not part.is_cards and unit and part.points % unit:
            message = _unit_message(name, player.label, part.points, unit)
            found.append(Problem("HF8.5", message, player.label, f"{name}_points", side, member))
    return found


def _unit_message(name: str, player: str, points: int, unit: int) -> str:
    if name == "hand":
        return gettext_noop(
            "{player}'s hand counts {points}, but every card counts a multiple of {unit}",
            player=player,
            points=points,
            unit=unit,
        )
    return gettext_noop(
        "{player}'s foot counts {points}, but every card counts a multiple of {unit}",
        player=player,
        points=points,
        unit=unit,
    )


# --- one team -----------------------------------------------------------------------------------


def _team_errors(team: Team, side: int, number: int, ruleset: Ruleset) -> list[Problem]:
    laid, unit, meld = team.laid_down, ruleset.deck.unit, ruleset.meld(number)
    where = (team.label, "laid_down", side)
    if unit and laid % unit:
        message = gettext_noop(
            "{team} laid down {laid}, but every card counts a multiple of {unit}",
            team=team.label,
            laid=laid,
            unit=unit,
        )
        return [Problem("HF8.5", message, *where)]
    if 0 < laid < meld:
        message = gettext_noop(
            "{team} laid down {laid}, but a team that melds lays down at least hand "
            "{number}'s minimum of {meld}",
            team=team.label,
            laid=laid,
            number=number,
            meld=meld,
        )
        return [Problem("HF3.5", message, *where)]
    if laid == 0 and (team.books or team.went_out or any(p.foot_played for p in team.players)):
        message = gettext_noop(
            "{team} laid down nothing, yet has a book, went out or played a foot; enter "
            "the points laid down",
            team=team.label,
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
        message = gettext_noop(
            "the table's hands and feet hold {held} {kind}, but the deck has {counts}",
            held=held[kind],
            kind=_plural(kind),
            counts=deck.counts[kind],
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
        message = gettext_noop(
            "{red} red and {black} black books at the table are more than the deck can "
            "make with the cards left in hands and feet",
            red=red,
            black=black,
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
        message = gettext_noop(
            "{team}'s {red_books} red and {black_books} black books hold cards worth at "
            "least {least}, more than the {laid_down} laid down: a book is seven cards of "
            "one rank",
            team=team.label,
            red_books=team.red_books,
            black_books=team.black_books,
            least=least,
            laid_down=team.laid_down,
        )
        yield Problem("HF8.6", message, team.label, "laid_down", side)


def _worth_errors(hand: Hand, ruleset: Ruleset) -> Iterator[Problem]:
    laid = sum(team.laid_down for team in hand.teams)
    left = sum(player.left for player in hand.players)
    worth = ruleset.deck.worth
    if laid + left > worth:
        message = gettext_noop(
            "the table laid down {laid} and holds {left} in hands and feet, more than the "
            "whole deck is worth ({worth})",
            laid=laid,
            left=left,
            worth=worth,
        )
        yield Problem("HF8.3", message, field="laid_down")
    failed = sum(player.failed_melds for player in hand.players)
    if failed > ruleset.deck.draw_turns:
        message = gettext_noop(
            "{failed} failed melds at the table, but the draw pile has only {draw_turns} "
            "turns of drawing two cards",
            failed=failed,
            draw_turns=ruleset.deck.draw_turns,
        )
        yield Problem("HF8.7", message, field="failed_melds")


def _plural(kind: Kind) -> str:
    return _PLURALS[kind]


_PLURALS = {
    Kind.JOKER: gettext_noop("jokers"),
    Kind.TWO: gettext_noop("twos"),
    Kind.ACE: gettext_noop("aces"),
    Kind.KING: gettext_noop("kings"),
    Kind.QUEEN: gettext_noop("queens"),
    Kind.JACK: gettext_noop("jacks"),
    Kind.TEN: gettext_noop("tens"),
    Kind.NINE: gettext_noop("nines"),
    Kind.EIGHT: gettext_noop("eights"),
    Kind.SEVEN: gettext_noop("sevens"),
    Kind.SIX: gettext_noop("sixes"),
    Kind.FIVE: gettext_noop("fives"),
    Kind.FOUR: gettext_noop("fours"),
    Kind.BLACK_THREE: gettext_noop("black threes"),
    Kind.RED_THREE: gettext_noop("red threes"),
}
