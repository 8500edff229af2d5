"""Seasons: their set-up, and their tables recomputed from the events' stored standings.

A season belongs to a club and plays one game; an event (tournament) joins it only when it is
that club's and that game's. Its table counts the **finished** events: a night still running
has no final places. Recomputing is idempotent: the same facts give the same rows, and only a
change moves the table's version on.
"""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

import games
from clubs.csv_files import tidy
from clubs.models import Club
from clubs.pages import club_pages_changed
from clubs.services import ClubError, club_audit
from scoring.models import StandingsSnapshot
from scoring.standings import standings_refresh
from seasons.models import Season, SeasonTable
from seasons.points import MemberSeason, event_points, season_rows
from tournament.models import EntryMember, Player, Tournament

MAX_BEST_OF = 100


@transaction.atomic
def season_create(
    *, club: Club, by: AbstractBaseUser | None, name: str, game: str, best_of: int | None = None
) -> Season:
    name = tidy(name)
    if not name or len(name) > 120:
        raise ClubError(_("A season needs a name of at most 120 characters."), field="name")
    if game not in games.GAME_KEYS:
        no_game = _("“{game}” is no game here: one of {games}.")
        raise ClubError(no_game.format(game=game[:40], games=", ".join(games.GAME_KEYS)),
                        field="game")  # fmt: skip
    _check_best_of(best_of)
    slug = _free_slug(club, slugify(name) or "season")
    season = Season.objects.create(club=club, name=name, slug=slug, game=game, best_of=best_of)
    club_audit(club=club, by=by, action="season.create", summary=f"Created season {name}",
               season=season.pk)  # fmt: skip
    return season


def _check_best_of(best_of: int | None) -> None:
    if best_of is not None and not 1 <= best_of <= MAX_BEST_OF:
        best_of_words = _("Best of counts 1 to {most} events, or every one (blank).")
        raise ClubError(best_of_words.format(most=MAX_BEST_OF), field="best_of")


def _free_slug(club: Club, slug: str) -> str:
    taken = set(club.seasons.values_list("slug", flat=True))
    found, n = slug[:70], 2
    while found in taken:
        found, n = f"{slug[:70]}-{n}", n + 1
    return found


@transaction.atomic
def season_update(*, season: Season, by: AbstractBaseUser | None, best_of: int | None) -> Season:
    _check_best_of(best_of)
    season.best_of = best_of
    season.save(update_fields=["best_of"])
    club_audit(club=season.club, by=by, action="season.update",
               summary=f"{season.name}: best {best_of or 'every'} events count",
               season=season.pk)  # fmt: skip
    transaction.on_commit(lambda: season_refresh(season_id=season.pk))
    return season


@transaction.atomic
def season_add_event(
    *, season: Season, tournament: Tournament, by: AbstractBaseUser | None
) -> None:
    """The tournament joins the season: refused unless it is the club's and plays its game."""
    if tournament.club_id != season.club_id:
        not_ours = _("{tournament} is not an event of {club}.")
        raise ClubError(not_ours.format(tournament=tournament.name, club=season.club.name),
                        field="tournament")  # fmt: skip
    if tournament.game != season.game:
        other_game = _("{tournament} plays {game}; {season} is a season of {season_game}.")
        raise ClubError(
            other_game.format(
                tournament=tournament.name,
                game=games.get(tournament.game).name,
                season=season.name,
                season_game=games.get(season.game).name,
            ),
            field="tournament",
        )
    season.tournaments.add(tournament)
    club_audit(club=season.club, by=by, action="season.add",
               summary=f"{tournament.name} joins {season.name}", season=season.pk,
               tournament=tournament.pk)  # fmt: skip
    transaction.on_commit(lambda: season_refresh(season_id=season.pk))


@transaction.atomic
def season_remove_event(
    *, season: Season, tournament: Tournament, by: AbstractBaseUser | None
) -> None:
    season.tournaments.remove(tournament)
    club_audit(club=season.club, by=by, action="season.remove",
               summary=f"{tournament.name} leaves {season.name}", season=season.pk,
               tournament=tournament.pk)  # fmt: skip
    transaction.on_commit(lambda: season_refresh(season_id=season.pk))


# --- the table ---------------------------------------------------------------------------------


def season_compute(*, season: Season) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The season's rows and the events they count (see ``seasons.points``)."""
    events = list(
        season.tournaments.filter(status=Tournament.Status.FINISHED).order_by("starts_on", "pk")
    )
    members = entry_members({event.pk for event in events})
    table: dict[int, MemberSeason] = {}
    counted = []
    for event in events:
        placed = [row for row in _standings(event)["players"] if row["place"] is not None]
        day = event.starts_on.isoformat()
        counted.append({"id": event.pk, "name": event.name, "slug": event.slug,
                        "starts_on": day, "field": len(placed)})  # fmt: skip
        for row in placed:
            points = event_points(row["place"], len(placed))
            for member in members.get(row["entry"], ()):
                line = table.setdefault(member, MemberSeason(member, str(member)))
                line.results.append((event.pk, row["place"], points))
    return season_rows(list(table.values()), season.best_of), counted


def _standings(event: Tournament) -> dict[str, Any]:
    """The event's newest stored standings, stored now if it has none."""
    latest = StandingsSnapshot.objects.filter(tournament=event).order_by("-version").first()
    return (latest or standings_refresh(tournament_id=event.pk)).data


def entry_members(tournaments: set[int]) -> dict[int, tuple[int, ...]]:
    """Each entry of these tournaments as the members it is (a team: both partners, HF1.2)."""
    found: dict[int, list[int]] = {}
    players = Player.objects.filter(tournament__in=tournaments, member__isnull=False)
    for entry, member in players.values_list("entries__id", "member_id"):
        if entry is not None:
            found.setdefault(entry, []).append(member)
    partners = EntryMember.objects.filter(entry__tournament__in=tournaments)
    teams: dict[int, list[int]] = {}
    rows = partners.order_by("entry", "position").values_list("entry_id", "player__member_id")
    for entry, member in rows:
        if member is not None:
            teams.setdefault(entry, []).append(member)
    found.update(teams)
    return {entry: tuple(members) for entry, members in found.items()}


def season_refresh(*, season_id: int) -> SeasonTable | None:
    """The season's table recomputed; stored (a new version) only when it changed."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        return None
    rows, events = season_compute(season=season)
    with transaction.atomic():
        table, _created = SeasonTable.objects.select_for_update().get_or_create(season=season)
        if table.rows != rows or table.events != events or table.version == 0:
            table.rows, table.events, table.version = rows, events, table.version + 1
            table.save()
            club_pages_changed(season.club.slug)
    return table
