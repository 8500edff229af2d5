"""A club at scale, written straight to the tables the season, ratings and member pages read:
`members` members, `events` finished nights with a locked round each, a season over them
(its table computed by the real points scale), a rating for everyone and a history for one."""

import datetime
import random

from clubs.models import Club, Member
from seasons.models import Rating, RatingChange, Season, SeasonTable
from seasons.points import MemberSeason, event_points, season_rows
from tournament.models import Round, Tournament


def club_at_scale(members: int, events: int, slug: str) -> tuple[Club, Season, Member]:
    club = Club.objects.create(name=slug, slug=slug)
    register = Member.objects.bulk_create(
        Member(club=club, name=f"Member {n}", number=f"N{n}") for n in range(members)
    )
    day = datetime.date(2026, 1, 1)
    nights = Tournament.objects.bulk_create(
        Tournament(club=club, name=f"{slug} night {n}", slug=f"{slug}-night-{n}",
                   starts_on=day + datetime.timedelta(days=7 * n),
                   ends_on=day + datetime.timedelta(days=7 * n), status="finished")
        for n in range(events)
    )  # fmt: skip
    rounds = Round.objects.bulk_create(Round(tournament=t, number=1, status="locked")
                                       for t in nights)  # fmt: skip
    season = Season.objects.create(club=club, name="Season", slug="season", game="kalooki")
    season.tournaments.set(nights)
    shuffled, lines = random.Random(members), {m.pk: MemberSeason(m.pk, m.name) for m in register}
    for night in nights:
        order = [m.pk for m in register]
        shuffled.shuffle(order)
        for place, member in enumerate(order, start=1):
            lines[member].results.append((night.pk, place, event_points(place, len(order))))
    events_rows = [
        {
            "id": t.pk,
            "name": t.name,
            "slug": t.slug,
            "starts_on": t.starts_on.isoformat(),
            "field": members,
        }
        for t in nights
    ]
    SeasonTable.objects.create(season=season, version=1, rows=season_rows(list(lines.values()),
                               None), events=events_rows)  # fmt: skip
    Rating.objects.bulk_create(
        Rating(club=club, game="kalooki", member=m, mu=25 + n % 7, sigma=3, display=16 + n % 7,
               games=events) for n, m in enumerate(register)
    )  # fmt: skip
    viewed = register[0]
    RatingChange.objects.bulk_create(
        RatingChange(club=club, game="kalooki", member=viewed, round=r, table=1, seq=n, place=1,
                     mu=25 + n, sigma=3, display=16 + n) for n, r in enumerate(rounds)
    )  # fmt: skip
    return club, season, viewed
