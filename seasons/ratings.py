"""Ratings: each club and game's OpenSkill Plackett-Luce ratings, from the stored results.

**Order**: the club's locked rounds of the game, by the time each was locked (then its id);
within a round, its tables by number. Each table's match is one rating event: its sides (a
player, or a Hand and Foot team, HF1.2) ranked by their places in the match as the game scored
it, rulings included (the standings snapshot's ``tables``). A member is rated through every
player record of theirs (``Player.member``).

**Reproducible**: the same facts in the same order give identical numbers: a full recompute
(``ratings_recompute``) starts every member at the model's defaults and replays every match.
**Incremental**: ``ratings_refresh`` keeps what it read (`RatingState`: each rated round's
digest and each tournament's snapshot version) and, when the rounds already rated are unchanged
and only new ones follow, rates just those; anything else (a ruling in a rated round, a merge of
members) replays everything. Either way, a run with nothing new writes nothing.

**Shown**: the conservative rating ``mu - 3 sigma`` (the model's ordinal: 0 for a newcomer),
the matches rated, and "provisional" under ``PROVISIONAL_UNDER`` of them.
"""

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection, models, transaction
from django.db.models import Count, Max, Sum
from openskill.models import PlackettLuce

from clubs.models import Club
from clubs.pages import club_pages_changed
from scoring.models import StandingsSnapshot
from seasons.models import Rating, RatingChange, RatingState
from seasons.services import entry_members
from tournament.models import EntryMember, Player, Round

PROVISIONAL_UNDER = 5  # matches: fewer, and the rating is shown as provisional
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Match:
    """One table's match to rate: its round, table number and sides (members, place)."""

    round: int
    table: int
    sides: tuple[tuple[tuple[int, ...], int], ...]  # ((member ids), place) per side


@dataclass
class Facts:
    """What the ratings are computed from, read in a fixed number of queries."""

    rounds: list[tuple[int, int, int]]  # (round id, tournament id, round number) in order
    versions: dict[int, int]  # tournament id -> its newest snapshot's version
    members: dict[int, tuple[int, ...]]  # entry id -> the members it is (tournaments read)
    tables: dict[int, list[dict[str, Any]]]  # round id -> its snapshot table rows (when read)

    def rated_mapping(self, rated: Iterable[int]) -> str:
        """The fingerprint of who is which member in the tournaments of the `rated` rounds."""
        rated = set(rated)
        return _mapping({t for r, t, _n in self.rounds if r in rated})


def _mapping(tournaments: set[int]) -> str:
    """A fingerprint of the players' links to members in these tournaments, summed in the
    database (one row back): a merge, which relinks players, changes it."""
    linked = Player.objects.filter(tournament__in=tournaments).aggregate(
        n=Count("member"), total=Sum("member"), top=Max("pk")
    )
    partners = EntryMember.objects.filter(entry__tournament__in=tournaments).aggregate(
        n=Count("pk"), total=Sum("player__member"), top=Max("pk")
    )
    # PostgreSQL sums as Decimal: whole numbers either way.
    return _digest([{k: int(v or 0) for k, v in part.items()} for part in (linked, partners)])


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_UNDER


def locked_rounds(club: Club, game: str) -> list[tuple[int, int, int]]:
    rounds = Round.objects.filter(
        tournament__club=club, tournament__game=game, status=Round.Status.LOCKED
    ).order_by("locked_at", "pk")
    return list(rounds.values_list("pk", "tournament_id", "number"))


def _versions(rounds: list[tuple[int, int, int]]) -> dict[int, int]:
    """Each tournament of these rounds and its newest snapshot's version."""
    return dict(
        StandingsSnapshot.objects.filter(tournament__in={t for _r, t, _n in rounds})
        .values("tournament")
        .annotate(v=Max("version"))
        .values_list("tournament", "v")
    )


def _facts(
    club: Club,
    game: str,
    read: Iterable[int] | None = None,
    known: tuple[list[tuple[int, int, int]], dict[int, int]] | None = None,
) -> Facts:
    """The facts; the snapshots of the tournaments `read` only (all, when None); the rounds
    and versions as `known` already, when they are."""
    if known is None:
        rounds = locked_rounds(club, game)
        known = rounds, _versions(rounds)
    rounds, versions = known
    tournaments = {t for _r, t, _n in rounds}
    wanted = tournaments if read is None else set(read) & tournaments
    tables = _tables(rounds, {t: versions[t] for t in wanted if t in versions})
    return Facts(rounds, versions, entry_members(wanted), tables)


def _tables(rounds: list[tuple[int, int, int]], versions: dict[int, int]) -> dict:
    snapshots = StandingsSnapshot.objects.filter(
        tournament__in=versions, version__in=set(versions.values())
    ).values_list("tournament", "version", "data")
    data = {t: d for t, v, d in snapshots if versions.get(t) == v}
    tables: dict[int, list[dict[str, Any]]] = {}
    for round_id, tournament, number in rounds:
        if tournament in data:
            rows = [row for row in data[tournament]["tables"] if row["round"] == number]
            tables[round_id] = sorted(rows, key=lambda row: row["table"])
    return tables


def _matches(round_id: int, rows: list[dict[str, Any]], members: dict) -> list[Match]:
    matches = []
    for row in rows:
        sides = tuple(
            (tuple(m for entry in side["entries"] for m in members.get(entry, ())), side["place"])
            for side in row.get("sides", [])
        )
        sides = tuple(side for side in sides if side[0])
        if len(sides) >= 2:
            matches.append(Match(round_id, row["table"], sides))
    return matches


# --- computing ---------------------------------------------------------------------------------


@dataclass
class Book:
    """Ratings while they are computed: each member's (mu, sigma, games), and the changes."""

    ratings: dict[int, tuple[float, float, int]]
    changes: list[tuple]  # RatingChange rows, in CHANGE_COLUMNS' order
    seq: int

    def rate(self, match: Match, club: Club, game: str) -> None:
        teams = [
            [MODEL.rating(*self.ratings.get(m, (None, None, 0))[:2]) for m in members]
            for members, _place in match.sides
        ]
        rated = MODEL.rate(teams, ranks=[place for _members, place in match.sides])
        self.seq += 1
        for (members, place), team in zip(match.sides, rated, strict=True):
            for member, rating in zip(members, team, strict=True):
                games = self.ratings.get(member, (0, 0, 0))[2] + 1
                self.ratings[member] = (rating.mu, rating.sigma, games)
                shown = display(rating.mu, rating.sigma)
                self.changes.append((club.pk, game, member, match.round, match.table, self.seq,
                                     place, rating.mu, rating.sigma, shown))  # fmt: skip


def display(mu: float, sigma: float) -> float:
    """The conservative rating shown: the model's ordinal, mu - 3 sigma."""
    return round(mu - 3 * sigma, 4)


def ratings_recompute(*, club: Club, game: str) -> RatingState:
    """Every rating of the club and game from scratch (see the module); written whole."""
    facts = _facts(club, game)
    return _replay(club, game, facts)


@transaction.atomic
def _replay(club: Club, game: str, facts: Facts) -> RatingState:
    book = Book({}, [], 0)
    for round_id, _t, _n in facts.rounds:
        for match in _matches(round_id, facts.tables.get(round_id, []), facts.members):
            book.rate(match, club, game)
    RatingChange.objects.filter(club=club, game=game).delete()
    _insert(RatingChange, CHANGE_COLUMNS, book.changes)
    Rating.objects.filter(club=club, game=game).delete()
    _write_ratings(club, game, book.ratings)
    club_pages_changed(club.slug)
    return _state_save(club, game, facts)


def _write_ratings(club: Club, game: str, ratings: dict[int, tuple[float, float, int]]) -> None:
    rows = [(club.pk, game, member, mu, sigma, display(mu, sigma), games)
            for member, (mu, sigma, games) in ratings.items()]  # fmt: skip
    _insert(Rating, RATING_COLUMNS, rows)


CHANGE_COLUMNS = ("club_id", "game", "member_id", "round_id", "table", "seq", "place", "mu",
                  "sigma", "display")  # fmt: skip
RATING_COLUMNS = ("club_id", "game", "member_id", "mu", "sigma", "display", "games")


def _insert(model: type[models.Model], columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Rows written as plain tuples, in one statement: a full recompute writes tens of
    thousands, and making a model instance of each cost more than the rating maths."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table, names = quote(model._meta.db_table), ", ".join(quote(column) for column in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # one COPY stream, not a statement a row
            with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(columns))
        cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


def _round_digests(facts: Facts) -> list[list[Any]]:
    return [
        [round_id, _digest(facts.tables.get(round_id, []))]
        for round_id, _t, _n in facts.rounds
        if round_id in facts.tables
    ]


def _state_save(club: Club, game: str, facts: Facts) -> RatingState:
    state, _ = RatingState.objects.select_for_update().get_or_create(club=club, game=game)
    state.rounds = _round_digests(facts)
    state.stamp = facts.rated_mapping(round_id for round_id, _digest in state.rounds)
    state.versions = {str(t): v for t, v in facts.versions.items()}
    state.save()
    return state


def ratings_refresh(*, club_id: int, game: str) -> RatingState:
    """The ratings brought up to date with the stored results: incrementally when only new
    rounds follow the ones rated, else from scratch (see the module). Idempotent."""
    club = Club.objects.get(pk=club_id)
    with transaction.atomic():
        state, _ = RatingState.objects.select_for_update().get_or_create(club=club, game=game)
        known = state.versions or {}
        rounds = locked_rounds(club, game)
        versions = _versions(rounds)
        changed = {t for t, v in versions.items() if known.get(str(t)) != v}
        rated = {round_id for round_id, _digest in state.rounds}
        unrated = {t for r, t, _n in rounds if r not in rated}
        facts = _facts(club, game, read=changed | unrated, known=(rounds, versions))
        if facts.rated_mapping(rated) != state.stamp:
            return _replay(club, game, _facts(club, game))
        return _catch_up(club, game, state, facts, changed)


def _catch_up(
    club: Club, game: str, state: RatingState, facts: Facts, changed: set[int]
) -> RatingState:
    """Only the rounds after those rated, if the rated ones are unchanged; else a replay."""
    rated = {round_id: digest for round_id, digest in state.rounds}
    order = [r for r, _t, _n in facts.rounds]
    done = [r for r in order if r in rated]
    if done != order[: len(done)] or len(done) != len(rated):
        return _replay(club, game, _facts(club, game))
    for round_id, tournament, _n in facts.rounds:
        moved = _digest(facts.tables.get(round_id, [])) != rated.get(round_id)
        if round_id in rated and tournament in changed and moved:
            return _replay(club, game, _facts(club, game))
    new = [r for r in order[len(done) :] if r in facts.tables]
    if not new and state.versions == {str(t): v for t, v in facts.versions.items()}:
        return state
    matches = [m for r in new for m in _matches(r, facts.tables[r], facts.members)]
    book = _book(club, game, {member for m in matches for side, _p in m.sides for member in side})
    for match in matches:
        book.rate(match, club, game)
    _insert(RatingChange, CHANGE_COLUMNS, book.changes)
    touched = {change[2] for change in book.changes}
    Rating.objects.filter(club=club, game=game, member__in=touched).delete()
    _write_ratings(club, game, {m: book.ratings[m] for m in touched})
    club_pages_changed(club.slug)
    state.rounds = state.rounds + [[r, _digest(facts.tables[r])] for r in new]
    state.versions = {str(t): v for t, v in facts.versions.items()}
    if _tournaments_of(facts, new) - _tournaments_of(facts, rated):  # else the same mapping
        state.stamp = facts.rated_mapping(round_id for round_id, _digest in state.rounds)
    state.save()
    return state


def _tournaments_of(facts: Facts, rounds: Iterable[int]) -> set[int]:
    wanted = set(rounds)
    return {t for r, t, _n in facts.rounds if r in wanted}


def _book(club: Club, game: str, members: set[int]) -> Book:
    """The ratings of the `members` who play next, and the last match's position."""
    rated = Rating.objects.filter(club=club, game=game, member__in=members)
    ratings = {
        member: (mu, sigma, games)
        for member, mu, sigma, games in rated.values_list("member_id", "mu", "sigma", "games")
    }
    last = RatingChange.objects.filter(club=club, game=game).aggregate(s=Max("seq"))["s"] or 0
    return Book(ratings, [], last)
