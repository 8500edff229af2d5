"""Reads for the season, ratings and member pages and their API: a fixed number of queries each,
whatever the numbers of members and events. Names are shown as each member chose
(``Member.public``): a public page never shows a hidden member's name.
"""

from dataclasses import dataclass, field
from typing import Any

from clubs.models import Club, Member
from seasons.models import Rating, RatingChange, Season, SeasonTable
from seasons.ratings import PROVISIONAL_UNDER, is_provisional
from seasons.services import entry_members
from tournament.models import Player


@dataclass(frozen=True)
class SeasonLine:
    place: int
    member: int
    name: str
    points: int
    all_points: int
    wins: int
    events: int
    results: list[dict[str, Any]]


@dataclass(frozen=True)
class SeasonView:
    season: Season
    version: int
    events: list[dict[str, Any]]
    lines: list[SeasonLine]


def _names(members: dict[int, Member], public: bool) -> dict[int, str]:
    return {pk: (m.public() if public else m.shown_name) for pk, m in members.items()}


def season_get(*, season: Season, public: bool = True) -> SeasonView:
    """The season's table as last computed (3 queries)."""
    table = SeasonTable.objects.filter(season=season).first()
    rows = table.rows if table else []
    # The club's whole register in one query: a list of ids would be batched on SQLite.
    members = {m.pk: m for m in Member.objects.filter(club=season.club_id)} if rows else {}
    names = _names(members, public)
    lines = [
        SeasonLine(row["place"], row["member"], names.get(row["member"], "Name hidden"),
                   row["points"], row["all_points"], row["wins"], row["events"], row["results"])
        for row in rows
    ]  # fmt: skip
    lines.sort(key=lambda line: (line.place, line.name.casefold()))  # level: A to Z as shown
    return SeasonView(season, table.version if table else 0, table.events if table else [], lines)


@dataclass(frozen=True)
class RatingLine:
    rank: int
    member: int
    name: str
    display: float
    mu: float
    sigma: float
    games: int
    provisional: bool


def ratings_list(*, club: Club, game: str, public: bool = True) -> list[RatingLine]:
    """The club's rating list in a game, best conservative rating first (1 query)."""
    ratings = Rating.objects.filter(club=club, game=game).select_related("member")
    ordered = sorted(ratings, key=lambda r: (-r.display, r.member.name.casefold(), r.member_id))
    return [
        RatingLine(rank, r.member_id, r.member.public() if public else r.member.shown_name,
                   round(r.display, 2), round(r.mu, 3), round(r.sigma, 3), r.games,
                   is_provisional(r.games))
        for rank, r in enumerate(ordered, start=1)
    ]  # fmt: skip


@dataclass
class MemberView:
    member: Member
    name: str
    events: list[dict[str, Any]] = field(default_factory=list)
    seasons: list[dict[str, Any]] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    seat: dict[str, Any] | None = None
    provisional_under: int = PROVISIONAL_UNDER


def member_get(*, member: Member, public: bool = True) -> MemberView:
    """A member's events (place and points from the seasons' tables), season standings, ratings
    and rating history, and their seat now (a fixed number of queries)."""
    view = MemberView(member, member.public() if public else member.shown_name)
    tables = SeasonTable.objects.filter(season__club=member.club_id).select_related("season")
    events: dict[int, dict[str, Any]] = {}
    for table in tables:
        names = {event["id"]: event for event in table.events}
        for row in table.rows:
            if row["member"] != member.pk:
                continue
            view.seasons.append({"season": table.season, "place": row["place"],
                                 "points": row["points"], "events": row["events"]})  # fmt: skip
            for result in row["results"]:
                event = names.get(result["event"], {})
                events[result["event"]] = {**event, "place": result["place"],
                                           "points": result["points"]}  # fmt: skip
    view.events = sorted(events.values(), key=lambda e: e.get("starts_on", ""), reverse=True)
    for rating in Rating.objects.filter(member=member).order_by("game"):
        view.ratings.append({"game": rating.game, "display": round(rating.display, 2),
                             "games": rating.games,
                             "provisional": is_provisional(rating.games)})  # fmt: skip
    changes = RatingChange.objects.filter(member=member).order_by("game", "seq")
    for change in changes.values("game", "seq", "display", "place", "round__tournament__name"):
        view.history.setdefault(change["game"], []).append(change)
    view.seat = member_seat_get(member=member)
    return view


def member_seat_get(*, member: Member | int) -> dict[str, Any] | None:
    """Where the member sits in a published round in play now, if anywhere (1 query)."""
    seat = (
        Player.objects.filter(member=member, tournament__status="running")
        .filter(entries__seats__round__status__in=["published", "in_play"])
        .values(
            "tournament__name",
            "tournament__slug",
            "entries__seats__round__number",
            "entries__seats__table__number",
            "entries__seats__position",
        )
        .order_by("-entries__seats__round__number")
        .first()
    )
    if seat is None:
        return None
    return {
        "tournament": seat["tournament__name"],
        "slug": seat["tournament__slug"],
        "round": seat["entries__seats__round__number"],
        "table": seat["entries__seats__table__number"],
        "seat": seat["entries__seats__position"],
    }


def chart_points(history: list[dict[str, Any]], width: int = 600, height: int = 160) -> str:
    """The rating history as an SVG polyline's points (x by match, y by rating)."""
    if not history:
        return ""
    values = [h["display"] for h in history]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    span = (high - low) or 1.0
    step = width / max(len(values) - 1, 1)
    return " ".join(
        f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values)
    )


def entry_ratings(*, tournament: Any) -> dict[int, float]:
    """Each entry's conservative rating in its club and game, for seating by rating: a
    player's own, a team's its partners' mean (HF1.2); an entry of unrated members has none
    (2 queries)."""
    if tournament.club_id is None:
        return {}
    members = entry_members({tournament.pk})
    wanted = {m for team in members.values() for m in team}
    ratings = dict(
        Rating.objects.filter(
            club=tournament.club_id, game=tournament.game, member__in=wanted
        ).values_list("member_id", "display")
    )
    found = {}
    for entry, team in members.items():
        known = [ratings[m] for m in team if m in ratings]
        if known:
            found[entry] = sum(known) / len(known)
    return found
