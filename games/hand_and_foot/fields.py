"""What a scorekeeper enters for a hand (HF8): per team, and per player of each team.

Per **team** (side): its red and black books and the points of the cards it laid down. Per
**player** (member): who went out, what is left in hand (cards, or their points), whether the
foot was played and, if not, the foot (cards, or points), red threes left in hand or foot that
are entered as points, a 26-card deal and failed melds. The **keypad** offers one key per kind
(HF1.3); a key's points are what that card costs when left in hand.
"""

from __future__ import annotations

from functools import lru_cache

from games.base import CardKey, Field, FieldKind, Scope, gettext_noop

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
            gettext_noop("Red books"),
            rule="HF6.1",
            help=gettext_noop(
                "Books of seven natural cards ({red_book_points} each).",
                red_book_points=ruleset.red_book_points,
            ),
            maximum=most_books(deck.counts, black=False),
            **count,
            short=gettext_noop("Red books"),
        ),
        Field(
            "black_books",
            gettext_noop("Black books"),
            rule="HF6.1",
            help=gettext_noop(
                "Books with one to three wild cards ({black_book_points} each).",
                black_book_points=ruleset.black_book_points,
            ),
            maximum=most_books(deck.counts, black=True),
            **count,
            short=gettext_noop("Black books"),
        ),
        Field(
            "laid_down",
            gettext_noop("Points laid down"),
            FieldKind.POINTS,
            Scope.SIDE,
            rule="HF6.2",
            help=(
                gettext_noop(
                    "The count of every card the team laid down, books included; 0, or at least "
                    "the meld minimum of hand {number} ({meld}).",
                    number=number,
                    meld=ruleset.meld(number),
                )
            ),
            minimum=0,
            maximum=deck.worth,
            default=0,
            short=gettext_noop("Laid down"),
        ),
    )


def _player_fields(ruleset: Ruleset) -> tuple[Field, ...]:
    deck = ruleset.deck
    return (
        Field(
            "went_out",
            gettext_noop("Went out"),
            FieldKind.FLAG,
            Scope.MEMBER,
            rule="HF5.2",
            help=gettext_noop(
                "The player who went out, if anyone did; no one means a draw-pile end."
            ),
            default=False,
            exclusive=True,
        ),
        Field(
            "hand",
            gettext_noop("Cards in hand"),
            FieldKind.CARDS,
            Scope.MEMBER,
            rule="HF6.3",
            help=gettext_noop(
                "The cards left in hand at the end (from the foot, once it is played)."
            ),
            keypad=keypad(ruleset),
        ),
        Field(
            "hand_points",
            gettext_noop("Points in hand"),
            FieldKind.POINTS,
            Scope.MEMBER,
            rule="HF6.3",
            help=gettext_noop(
                "The count of the cards left in hand, red threes aside (enter those below)."
            ),
            minimum=0,
            maximum=deck.worth,
            alternative_to="hand",
            short=gettext_noop("In hand"),
        ),
        Field(
            "foot_played",
            gettext_noop("Foot played"),
            FieldKind.FLAG,
            Scope.MEMBER,
            rule="HF2.3",
            help=gettext_noop(
                "The player picked up the foot; if not, its cards count against the team."
            ),
            default=False,
            short=gettext_noop("Foot played"),
            implied_by="went_out",  # the player who goes out has played the foot (HF5.3)
        ),
        Field(
            "foot",
            gettext_noop("Cards in foot"),
            FieldKind.CARDS,
            Scope.MEMBER,
            rule="HF6.3",
            help=gettext_noop("The {stack} cards of a foot not played.", stack=STACK),
            keypad=keypad(ruleset),
        ),
        Field(
            "foot_points",
            gettext_noop("Points in foot"),
            FieldKind.POINTS,
            Scope.MEMBER,
            rule="HF6.3",
            help=gettext_noop(
                "The count of a foot not played, red threes aside (enter those below)."
            ),
            minimum=0,
            maximum=deck.dearest(STACK),
            alternative_to="foot",
            short=gettext_noop("In foot"),
        ),
        Field(
            "red_threes",
            gettext_noop("Red threes (points entry)"),
            FieldKind.COUNT,
            Scope.MEMBER,
            rule="HF6.4",
            help=(
                gettext_noop(
                    "Red threes left in a hand or foot entered as points, -{red_three_penalty} "
                    "each; those in cards are counted from them.",
                    red_three_penalty=ruleset.red_three_penalty,
                )
            ),
            minimum=0,
            maximum=deck.counts[Kind.RED_THREE],
            default=0,
            advanced=True,
        ),
        Field(
            "dealt_26",
            gettext_noop("Dealt exactly 26"),
            FieldKind.FLAG,
            Scope.MEMBER,
            rule="HF6.6",
            help=gettext_noop(
                "Picked up and dealt exactly 26 cards (+{dealt_26_bonus}).",
                dealt_26_bonus=ruleset.dealt_26_bonus,
            ),
            default=False,
            advanced=True,
        ),
        Field(
            "failed_melds",
            gettext_noop("Failed melds"),
            FieldKind.COUNT,
            Scope.MEMBER,
            rule="HF6.7",
            help=(
                gettext_noop(
                    "Times the player exposed a hand to meld without the count "
                    "(-{failed_meld_penalty} each).",
                    failed_meld_penalty=ruleset.failed_meld_penalty,
                )
            ),
            minimum=0,
            maximum=deck.draw_turns,
            default=0,
            advanced=True,
        ),
    )
