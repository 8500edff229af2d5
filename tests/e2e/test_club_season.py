"""A club's life in Chromium: the director imports 30 members on the club's page, three Kalooki
nights with overlapping players are played (through the services, as the scorekeepers' phones
would), and the public season table, ratings list and a member's page show what the results
imply: checked against numbers computed here from the `openskill` package directly and the
README's points scale (field - place + 1, best 2 of 3 nights). Desktop and phone, axe-clean.
"""

import pytest
from playwright.sync_api import Page, expect

from clubs.models import Club, Member
from scoring.models import StandingsSnapshot
from seasons.services import season_add_event, season_create
from tests.e2e.axe import assert_accessible
from tests.e2e.steps import sign_in
from tests.factories import UserFactory
from tests.seasons.nights import expected_points, expected_ratings, night

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MEMBERS = "name,number,public_name\n" + "\n".join(
    f"Member {n:02},M{n},{'hidden' if n == 30 else 'full'}" for n in range(1, 31)
)


def test_a_club_season_in_the_browser(live_server, laptop: Page, phone: Page) -> None:
    alice = UserFactory(username="alice")
    club = Club.objects.create(name="Half Way Tree", slug="hwt")
    club.directors.add(alice)
    sign_in(laptop, live_server.url, "alice")
    laptop.goto(f"{live_server.url}/director/clubs/hwt/members")
    laptop.get_by_label("Paste the CSV").fill(MEMBERS)
    laptop.get_by_role("button", name="Import").click()
    expect(laptop.get_by_text("Imported 30 members.")).to_be_visible()
    assert_accessible(laptop)

    season = season_create(club=club, by=alice, name="Autumn league", game="kalooki", best_of=2)
    nights = []
    for day, numbers in ((6, range(1, 16)), (13, range(10, 25)), (20, range(16, 31))):
        nights.append(night(club, alice, day, numbers))
        season_add_event(season=season, tournament=nights[-1], by=alice)

    points: dict[int, list[int]] = {}
    for tournament in nights:
        data = StandingsSnapshot.objects.filter(tournament=tournament).latest().data
        for member, p in expected_points(tournament, data).items():
            points.setdefault(member, []).append(p)
    best_two = {m: sum(sorted(p, reverse=True)[:2]) for m, p in points.items()}
    ratings = expected_ratings(nights)

    laptop.goto(f"{live_server.url}/c/hwt/seasons/{season.slug}")
    for member, total in best_two.items():
        row = laptop.locator(f"tr[data-member='{member}']")
        expect(row.locator("[data-points]")).to_have_text(str(total))
    expect(laptop.locator("tbody tr")).to_have_count(30)
    expect(laptop.get_by_text("Member 30")).to_have_count(0)  # hidden on public pages
    assert_accessible(laptop)

    laptop.goto(f"{live_server.url}/c/hwt/ratings/kalooki")
    for member, (display, _games) in ratings.items():
        cell = laptop.locator(f"tr[data-member='{member}'] [data-rating]")
        expect(cell).to_have_text(f"{display:.2f}")
    assert_accessible(laptop)

    twelve = Member.objects.get(number="M12")  # played nights 6 and 13
    phone.goto(f"{live_server.url}/c/hwt/members/{twelve.pk}")
    expect(phone.get_by_role("heading", name="Member 12")).to_be_visible()
    expect(phone.locator("[data-rating]")).to_have_text(f"{ratings[twelve.pk][0]:.2f}")
    expect(phone.locator("tr [data-points]")).to_have_count(2)
    assert sorted(int(t) for t in phone.locator("tr [data-points]").all_inner_texts()) == sorted(
        points[twelve.pk]
    )
    expect(phone.locator("svg polyline")).to_have_count(1)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(phone)
    phone.screenshot(path="/tmp/h32-shots/member-phone.png", full_page=True)
    laptop.goto(f"{live_server.url}/c/hwt/seasons/{season.slug}")
    laptop.screenshot(path="/tmp/h32-shots/season-laptop.png", full_page=True)
