"""What a scorekeeper enters for a hand (HF8): per team, and per player of each team.

Per **team** (side): its red and black books and the points of the cards it laid down. Per
**player** (member): who went out, what is left in hand (cards, or their points), whether the
foot was played and, if not, the foot (cards, or points), red threes left in hand or foot that
are entered as points, a 26-card deal and failed melds. The **keypad** offers one key per kind
(HF1.3); a key's points are what that card costs when left in hand.
"""

from __future__ import annotations

from functools import lru_cache

from games.base import CardKey, Field, FieldKind, Scope

from .books import most_books
from .deck import STACK, Kind
from .ruleset import Ruleset

# The text each key adds: suits do not matter (HF1.3) except a three's colour (HF9).
_KEYS = (
    (Kind.JOKER, "JK", "JK"),
    (Kind.TWO, "2S", "2"),
    (Kind.ACE, "AS", "A"),
    (Kind.KING, "KS", "K"),
    (Kind.QUEEN, "QS", "Q"),
    (Kind.JACK, "JS", "J"),
    (Kind.TEN, "10S", "10"),
    (Kind.NINE, "9S", "9"),
    (Kind.EIGHT, "8S", "8"),
    (Kind.SEVEN, "7S", "7"),
    (Kind.SIX, "6S", "6"),
    (Kind.FIVE, "5S", "5"),
    (Kind.FOUR, "4S", "4"),
    (Kind.BLACK_THREE, "3S", "3♠"),
    (Kind.RED_THREE, "3H", "3♥"),
)
SIDE_FIELDS = ("red_books", "black_books", "laid_down")
MEMBER_FIELDS = (
    "went_out",
    "hand",
    "hand_points",
    "foot_played",
    "foot",
    "foot_points",
    "red_threes",
    "dealt_26",
    "failed_melds",
)


def keypad(ruleset: Ruleset) -> tuple[CardKey, ...]:
    values = ruleset.card_values | {Kind.RED_THREE: ruleset.red_three_penalty}
    return tuple(CardKey(token, label, values[kind]) for kind, token, label in _KEYS)


@lru_cache(maxsize=64)
def hand_fields(ruleset: Ruleset, number: int) -> tuple[Field, ...]:
    """The fields of hand ``number``: the same for every hand; the help names its minimum.
    Worked out once per ruleset and hand: their ranges come from the deck (HF4.3)."""
    return _team_fields(ruleset, number) + _player_fields(ruleset)


def _team_fields(ruleset: Ruleset, number: int) -> tuple[Field, ...]:
    deck = ruleset.deck
    count = dict(kind=FieldKind.COUNT, scope=Scope.SIDE, minimum=0, default=0)
    return (
        Field(
            "red_books",
            "Red books",
            rule="HF6.1",
            help=f"Books of seven natural cards ({ruleset.red_book_points} each).",
            maximum=most_books(deck.counts, black=False),
            **count,
            short="Red books",
        ),
        Field(
            "black_books",
            "Black books",
            rule="HF6.1",
            help=f"Books with one to three wild cards ({ruleset.black_book_points} each).",
            maximum=most_books(deck.counts, black=True),
            **count,
            short="Black books",
        ),
        Field(
            "laid_down",
            "Points laid down",
            FieldKind.POINTS,
            Scope.SIDE,
            rule="HF6.2",
            help=(
                "The count of every card the team laid down, books included; 0, or at least "
                f"the meld minimum of hand {number} ({ruleset.meld(number)})."
            ),
            minimum=0,
            maximum=deck.worth,
            default=0,
            short="Laid down",
        ),
    )


def _player_fields(ruleset: Ruleset) -> tuple[Field, ...]:
    deck = ruleset.deck
    return (
        Field(
            "went_out",
            "Went out",
            FieldKind.FLAG,
            Scope.MEMBER,
            rule="HF5.2",
            help="The player who went out, if anyone did; no one means a draw-pile end.",
            default=False,
            exclusive=True,
        ),
        Field(
            "hand",
            "Cards in hand",
            FieldKind.CARDS,
            Scope.MEMBER,
            rule="HF6.3",
            help="The cards left in hand at the end (from the foot, once it is played).",
            keypad=keypad(ruleset),
        ),
        Field(
            "hand_points",
            "Points in hand",
            FieldKind.POINTS,
            Scope.MEMBER,
            rule="HF6.3",
            help="The count of the cards left in hand, red threes aside (enter those below).",
            minimum=0,
            maximum=deck.worth,
            alternative_to="hand",
            short="In hand",
        ),
        Field(
            "foot_played",
            "Foot played",
            FieldKind.FLAG,
            Scope.MEMBER,
            rule="HF2.3",
            help="The player picked up the foot; if not, its cards count against the team.",
            default=False,
            short="Foot played",
            implied_by="went_out",  # the player who goes out has played the foot (HF5.3)
        ),
        Field(
            "foot",
            "Cards in foot",
            FieldKind.CARDS,
            Scope.MEMBER,
            rule="HF6.3",
            help=f"The {STACK} cards of a foot not played.",
            keypad=keypad(ruleset),
        ),
        Field(
            "foot_points",
            "Points in foot",
            FieldKind.POINTS,
            Scope.MEMBER,
            rule="HF6.3",
            help="The count of a foot not played, red threes aside (enter those below).",
            minimum=0,
            maximum=deck.dearest(STACK),
            alternative_to="foot",
            short="In foot",
        ),
        Field(
            "red_threes",
            "Red threes (points entry)",
            FieldKind.COUNT,
            Scope.MEMBER,
            rule="HF6.4",
            help=(
                f"Red threes left in a hand or foot entered as points, -{ruleset.red_three_penalty}"
                " each; those in cards are counted from them."
            ),
            minimum=0,
            maximum=deck.counts[Kind.RED_THREE],
            default=0,
            advanced=True,
        ),
        Field(
            "dealt_26",
            "Dealt exactly 26",
            FieldKind.FLAG,
            Scope.MEMBER,
            rule="HF6.6",
            help=f"Picked up and dealt exactly 26 cards (+{ruleset.dealt_26_bonus}).",
            default=False,
            advanced=True,
        ),
        Field(
            "failed_melds",
            "Failed melds",
            FieldKind.COUNT,
            Scope.MEMBER,
            rule="HF6.7",
            help=(
                "Times the player exposed a hand to meld without the count "
                f"(-{ruleset.failed_meld_penalty} each)."
            ),
            minimum=0,
            maximum=deck.draw_turns,
            default=0,
            advanced=True,
        ),
    )
