"""A table's match as its game sees it: the stored deals read back in the protocol's shapes.

Terms
- **played**: the deals a table has stored, each as the game's ``DealScore`` (a void attempt
  as a void score with no sides), in the order they were entered; what ``Rules.next_deal``,
  ``Rules.match_over`` and ``Rules.match_result`` take.
- **sides**: the seats of a table grouped as the game's table shape says (``TableShape``): one
  seat a side for Kalooki and Parcellus, partners sitting opposite for Hand and Foot. Side ``s``
  holds the seats ``s``, ``s + sides``, ... in seat order; its first member's entry is the entry
  its results are stored under.
- **deal words**: how the game names its deals ("Game 3", "Hand 2", "Deal 4"), from
  ``Rules.deal(n).title``, its match ("set", "game", "match", from the schedule's words), and a
  match's progress ("6 of 9 games", "4 deals" for a match to a
  target score). They are English, as stored and cached; the ``said_*`` functions say the same
  words in the request's language (gettext) for sentences a person reads ("Partida 3").
"""

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.utils.translation import gettext, pgettext

from games.base import DealScore, Rules, RulesError, ScheduleKind, SideScore

SeatT = TypeVar("SeatT")


def deal_score(
    *, number: int, void: bool, detail: dict[str, Any], results: Iterable[Any]
) -> DealScore:
    """A stored deal as the game scored it; ``results`` are its rows (``side``, ``points``,
    ``went_out``, ``detail``) in any order."""
    if void:
        return DealScore(number, (), void=True, detail=detail)
    ordered = sorted(results, key=lambda result: result.side)
    sides = tuple(SideScore(r.points, r.went_out, (), r.detail) for r in ordered)
    return DealScore(number, sides, detail=detail)


def played(deals: Iterable[Any]) -> list[DealScore]:
    """The deals (``scoring.models.Deal`` with their results prefetched) as the game scored them,
    in the order they were entered."""
    ordered = sorted(deals, key=lambda deal: (deal.number, deal.attempt))
    return [
        deal_score(
            number=deal.number,
            void=deal.is_void,
            detail=deal.detail,
            results=deal.results.all(),
        )
        for deal in ordered
    ]


def side_count(rules: Rules[Any], seats: int) -> int:
    """How many sides sit in ``seats`` seats: a seat a side up to the game's most sides (a
    player, or a team entry, HF1.2), else ``members`` seats a side (see ``sides_of``)."""
    if seats <= rules.shape().max_sides:
        return seats
    return seats // max(rules.shape().members, 1)


def sides_of(rules: Rules[Any], seats: Sequence[SeatT]) -> list[tuple[SeatT, ...]]:
    """The seats (in seat order) grouped by side: partners sit opposite (``games.base``). A
    team entry (HF1.2) takes one seat for the pair, so a table of as many seats as sides holds
    one side a seat; a table seated partner by partner holds ``members`` seats a side."""
    shape = rules.shape()
    members = max(shape.members, 1)
    if len(seats) <= shape.max_sides:
        return [(seat,) for seat in seats]
    count = len(seats) // members
    return [tuple(seats[side + m * count] for m in range(members)) for side in range(count)]


def seated_as_shaped(rules: Rules[Any], seats: int) -> bool:
    """Whether a table of ``seats`` seats can be read as the game's sides."""
    shape = rules.shape()
    members = max(shape.members, 1)
    if shape.min_sides <= seats <= shape.max_sides:
        return True  # a seat a side: a player, or a team entry (HF1.2)
    return seats % members == 0 and shape.min_sides <= seats // members <= shape.max_sides


# --- words -------------------------------------------------------------------------------------


def deal_title(rules: Rules[Any], number: int) -> str:
    """ "Game 3", "Hand 2", "Deal 4": the game's own name for deal ``number``."""
    try:
        return rules.deal(number).title
    except RulesError:
        return f"{deal_noun(rules).capitalize()} {number}"


def deal_noun(rules: Rules[Any], count: int = 1) -> str:
    """ "game" / "games" (Kalooki), "hand" / "hands", "deal" / "deals": from the first deal's
    title, which every game names "<Noun> 1"."""
    try:
        noun = rules.deal(1).title.rsplit(" ", 1)[0].lower() or "deal"
    except RulesError:
        noun = "deal"
    return noun if count == 1 else f"{noun}s"


def match_noun(rules: Rules[Any]) -> str:
    """What the game calls a table's match: "set" (Kalooki), "game" (Hand and Foot), "match",
    from the schedule's words ("a set of nine games")."""
    words = rules.schedule().words.split()
    return words[1] if len(words) > 1 and words[0] in ("a", "an") else "match"


def deals_in_match(rules: Rules[Any]) -> int | None:
    """How many deals a match has: the schedule's count, None for a match to a target score."""
    schedule = rules.schedule()
    if schedule.kind == ScheduleKind.TARGET:
        return None
    return schedule.deals


def progress(rules: Rules[Any], scored: int) -> str:
    """ "6 of 9 games" for a fixed schedule, "4 deals" for a match to a target."""
    total = deals_in_match(rules)
    if total is None:
        return f"{scored} {deal_noun(rules, scored)}"
    return f"{scored} of {total} {deal_noun(rules, total)}"


def said_title(title: str) -> str:
    """A deal's English title ("Game 3", from ``deal_title``) in the request's language."""
    noun, _, number = title.rpartition(" ")
    if not number.isdigit():
        return title  # a game's own title, not "<Noun> <n>": said as the game says it
    if noun == "Game":
        return pgettext("a deal", "Game {number}").format(number=number)
    if noun == "Hand":
        return pgettext("a deal", "Hand {number}").format(number=number)
    if noun == "Deal":
        return pgettext("a deal", "Deal {number}").format(number=number)
    return title


def said_noun(noun: str) -> str:
    """A deal's or a match's English noun (``deal_noun``, ``match_noun``) in the request's
    language; Kalooki's "game" is a deal, Hand and Foot's a match, one word in each language."""
    words = {
        "game": pgettext("a deal", "game"),
        "games": pgettext("deals", "games"),
        "hand": pgettext("a deal", "hand"),
        "hands": pgettext("deals", "hands"),
        "deal": pgettext("a deal", "deal"),
        "deals": pgettext("deals", "deals"),
        "set": pgettext("a match", "set"),
        "match": pgettext("a match", "match"),
    }
    return words.get(noun, noun)


def said_progress(rules: Rules[Any], scored: int) -> str:
    """``progress`` in the request's language: "6 de 9 partidas"."""
    total = deals_in_match(rules)
    if total is None:
        return gettext("{count} {deals}").format(
            count=scored, deals=said_noun(deal_noun(rules, scored))
        )
    return gettext("{count} of {total} {deals}").format(
        count=scored, total=total, deals=said_noun(deal_noun(rules, total))
    )


def ranking_words(rules: Rules[Any]) -> str:
    """How the game ranks the standings, in its own words ("Lowest total first; ties broken by
    more games won, ... (R12.3)"), from the line of ``Rules.describe`` that says so."""
    line = next((line for line in rules.describe() if line.startswith("Standings:")), "")
    words = line.removeprefix("Standings:").strip().rstrip(".")
    return words[:1].upper() + words[1:] if words else "Ranked as the game ranks"
