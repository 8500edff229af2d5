"""The public pages: who sees them, the live leaderboard, the projector and the tournament home.

The Open is published; ten players sit at two tables in round 1. Alice directs the Open, Bob
directs another tournament; visitors are not signed in. Games are played through the real
services (tests/scoring/playing.py) and the standings refreshed as the pipeline would.
"""

import re

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.test import Client

from scoring.rulings import ruling_reverse
from tables.models import Table
from tests.factories import TournamentFactory
from tests.hall.conftest import refreshed
from tests.scoring.playing import (
    director_of,
    disqualification_ruling,
    entry,
    penalty_ruling,
    play,
    play_set,
    published_round,
    rounds_over,
    seated,
    seated_round,
    tournament_with,
)
from tournament.models import Entry, Round, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hall.urls")]

PAGES = [
    "/p/{slug}/",
    "/p/{slug}/leaderboard",
    "/p/{slug}/leaderboard/rows",
    "/p/{slug}/projector",
    "/p/{slug}/tables/1/1",
    "/p/{slug}/players/{entry}",
    "/p/{slug}/results.csv",
    "/p/{slug}/games.csv",
    "/api/tournaments/{slug}/standings",
]


def url(template: str, tournament: Tournament) -> str:
    return template.format(slug=tournament.slug, entry=tournament.entries.first().pk)


def rows_of(html: str) -> list[dict[str, str]]:
    """The leaderboard's rows as {column class: text}, in order."""
    rows = []
    for row in re.findall(r'<tr id="entry-\d+".*?</tr>', html, re.S):
        cells = re.findall(r'<td class="(?:num )?(\w+)[^"]*"[^>]*>(.*?)</td>', row, re.S)
        rows.append({name: re.sub(r"<[^>]+>", "", text).strip() for name, text in cells})
    return rows


class TestWhoSeesThePages:
    @pytest.mark.parametrize("page", PAGES)
    def test_every_page_is_a_404_while_the_tournament_is_unpublished(
        self, client: Client, draft: Tournament, page: str
    ) -> None:
        seated_round(draft)
        assert client.get(url(page, draft)).status_code == 404

    @pytest.mark.parametrize("page", PAGES)
    def test_every_page_is_open_to_anyone_once_published(
        self, client: Client, tournament: Tournament, page: str
    ) -> None:
        assert client.get(url(page, tournament)).status_code == 200

    def test_a_signed_in_director_sees_a_404_too_unless_asking_for_a_preview(
        self, client: Client, draft: Tournament
    ) -> None:
        client.force_login(director_of(draft, "alice"))
        assert client.get("/p/draft/leaderboard").status_code == 404
        response = client.get("/p/draft/leaderboard?preview=1")
        assert response.status_code == 200
        assert "Preview: this tournament is not published" in response.content.decode()
        assert "no-store" in response["Cache-Control"] and "ETag" not in response
        assert 'data-rows-url="/p/draft/leaderboard/rows?preview=1"' in response.content.decode()

    @pytest.mark.usefixtures("draft")
    def test_a_preview_is_only_for_the_tournaments_own_directors(self, client: Client) -> None:
        client.force_login(director_of(TournamentFactory(), "bob"))
        assert client.get("/p/draft/leaderboard?preview=1").status_code == 404
        client.logout()
        assert client.get("/p/draft/?preview=1").status_code == 404

    def test_the_standings_api_has_no_preview(self, client: Client, draft: Tournament) -> None:
        client.force_login(director_of(draft, "alice"))
        response = client.get("/api/tournaments/draft/standings?preview=1")
        assert response.status_code == 404
        assert response.json()["errors"][0]["message"]

    def test_unpublishing_shows_once_the_cached_facts_expire(
        self, client: Client, tournament: Tournament
    ) -> None:
        assert client.get("/p/open/leaderboard").status_code == 200
        Tournament.objects.filter(pk=tournament.pk).update(is_published=False)
        assert client.get("/p/open/leaderboard").status_code == 200  # FACTS_SECONDS at most
        cache.delete("public:tournament:open")
        assert client.get("/p/open/leaderboard").status_code == 404

    @pytest.mark.parametrize("page", PAGES[:-1])
    def test_the_pages_only_read(self, client: Client, tournament: Tournament, page: str) -> None:
        assert client.post(url(page, tournament)).status_code == 405

    def test_an_unknown_address_is_a_404(self, client: Client) -> None:
        assert client.get("/p/nowhere/leaderboard").status_code == 404


class TestLeaderboard:
    def test_players_are_listed_by_place_and_level_players_share_it_r12_3(
        self, client: Client, tournament: Tournament, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1, winner=0)
        play(table_two, 1, winner=0)
        rounds_over(tournament)
        refreshed(tournament)
        rows = rows_of(client.get("/p/open/leaderboard").content.decode())
        places = ["=1", "=1", "=3", "=3", "=5", "=5", "=7", "=7", "=9", "=9"]
        assert [row["place"] for row in rows] == places  # seat n scored 10 + n at both tables
        went_out = {seated(table_one)[0], seated(table_two)[0]}
        assert {rows[0]["player"], rows[1]["player"]} == went_out
        assert rows[0]["total"] == "0" and rows[0]["games"] == "1"

    def test_each_row_shows_club_games_played_last_game_and_total(
        self, client: Client, tournament: Tournament, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1, winner=0, points=10)
        play(table_one, 2, winner=1, points=20)
        refreshed(tournament)
        rows = {row["player"]: row for row in rows_of(client.get("/p/open/leaderboard").text)}
        first = rows[seated(table_one)[0]]  # out in game 1, then 21 points in game 2
        assert (first["games"], first["last"], first["round"]) == ("2", "21", "21 (2/9)")
        assert first["total"] == "0"  # round 1 is being played: no round is complete yet
        assert first["club"] == "Half Way Tree"
        waiting = rows[seated(table_two)[0]]
        assert (waiting["place"], waiting["games"], waiting["last"]) == ("—", "0", "—")

    def test_movement_since_the_previous_round_shows_as_arrows(
        self, client: Client, round_two: Round
    ) -> None:
        [table] = round_two.tables.all()
        play_set(table, winner=4, points=40)
        standings = refreshed(round_two.tournament)
        movement = {row["player"]: row["movement"] for row in standings["players"]}
        rows = rows_of(client.get("/p/league/leaderboard").text)
        shown = {row["player"]: row["move"] for row in rows}
        assert {"▲", "▼"} <= {label[:1] for label in shown.values()}
        for name, places in movement.items():
            expected = "–" if not places else f"▲{places}" if places > 0 else f"▼{-places}"
            assert shown[name] == expected

    def test_withdrawn_and_disqualified_players_are_marked(
        self, client: Client, tournament: Tournament, table_one: Table, table_two: Table
    ) -> None:
        play(table_one, 1)
        play(table_two, 1)  # game 1 at every table: it counts
        quitter, cheat = (entry(tournament, name) for name in seated(table_one)[1:3])
        Entry.objects.filter(pk=quitter.pk).update(status=Entry.Status.WITHDRAWN)
        disqualification_ruling(
            tournament=tournament, entry=cheat, decision="Disqualified for marking cards"
        )
        refreshed(tournament)
        html = client.get("/p/open/leaderboard").text
        rows = {row["player"]: row for row in rows_of(html)}
        assert rows[quitter.player.name + " Withdrawn"]["place"] != "—"
        assert rows[cheat.player.name + " Disqualified"]["place"] == "—"
        assert f'<tr id="entry-{cheat.pk}" class="status-disqualified unplaced">' in html
        assert f'<tr id="entry-{quitter.pk}" class="status-withdrawn">' in html

    def test_a_ruling_counts_in_the_total_and_is_marked_r12_4(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play(table_one, 1)
        ben = entry(tournament, seated(table_one)[1])
        decision = "25 points for a card shown"
        ruling = penalty_ruling(tournament=tournament, points=25, entry=ben, decision=decision)
        rounds_over(tournament)
        refreshed(tournament)
        row = _row(client, ben)
        assert row["total"] == "37 +25R"  # 10 + seat 2 in the game, 25 by the ruling
        ruling_reverse(ruling=ruling, by=None, reason="nobody saw the card")
        refreshed(tournament)
        assert _row(client, ben)["total"] == "12"

    def test_a_new_snapshot_shows_at_the_next_look(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play(table_one, 1)
        refreshed(tournament)
        ben = entry(tournament, seated(table_one)[1])
        assert _row(client, ben)["round"] == "12 (1/9)"
        play(table_one, 2)
        refreshed(tournament)
        assert _row(client, ben)["round"] == "24 (2/9)"
        assert _row(client, ben, "/p/open/leaderboard/rows")["round"] == "24 (2/9)"

    def test_it_refreshes_its_rows_by_script_and_the_whole_page_without(
        self, client: Client, tournament: Tournament
    ) -> None:
        version = refreshed(tournament)["version"]
        html = client.get("/p/open/leaderboard").text
        assert 'data-rows-url="/p/open/leaderboard/rows"' in html
        assert f'data-etag="W/&quot;{tournament.pk}.{version}&quot;"' in html
        assert "js/leaderboard.js" in html
        assert re.search(r'<noscript><meta http-equiv="refresh" content="\d+"></noscript>', html)

    def test_the_rows_alone_are_the_table_body(
        self, client: Client, tournament: Tournament
    ) -> None:
        refreshed(tournament)
        rows = client.get("/p/open/leaderboard/rows").text
        assert rows.lstrip().startswith("<tr id=") and "<html" not in rows
        assert len(rows_of(rows)) == 10

    def test_a_signed_in_director_sees_their_own_header(
        self, client: Client, tournament: Tournament
    ) -> None:
        first = client.get("/p/open/leaderboard")  # drawn once for everyone without a sign-in
        assert "Cookie" in first["Vary"]  # so a browser asks again after signing in
        client.force_login(director_of(tournament, "alice"))
        html = client.get("/p/open/leaderboard").text
        assert "Sign out alice" in html and "Staff sign-in" not in html

    def test_a_visitors_own_messages_never_reach_other_visitors(
        self, client: Client, tournament: Tournament
    ) -> None:
        note = Message(constants.SUCCESS, "Game 3 is saved.")
        client.cookies["messages"] = CookieStorage(None)._encode([note])
        client.get("/p/open/leaderboard")  # the page everyone shares is drawn now
        assert "Game 3 is saved." not in Client().get("/p/open/leaderboard").text


def _row(client: Client, player: Entry, page: str = "/p/open/leaderboard") -> dict[str, str]:
    html = client.get(page).text
    found = re.search(rf'<tr id="entry-{player.pk}".*?</tr>', html, re.S)
    assert found, f"{player.player.name} is not on the leaderboard"
    return rows_of(found.group(0))[0]


class TestProjector:
    def test_it_shows_the_leaderboard_in_large_type_with_no_navigation(
        self, client: Client, tournament: Tournament
    ) -> None:
        refreshed(tournament)
        html = client.get("/p/open/projector").text
        assert 'class="projector"' in html
        assert "<nav" not in html and "site-header" not in html and "<form" not in html
        assert "Staff sign-in" not in html
        buttons = re.findall(r"<button[^>]*>", html)  # only the display switch's (issue 34)
        assert len(buttons) == 2 and all('class="switch"' in button for button in buttons)
        assert len(rows_of(html)) == 10

    def test_it_shows_twelve_rows_a_page_and_moves_on_without_script(self, client: Client) -> None:
        big = tournament_with(30, slug="big", is_published=True)
        published_round(big)
        refreshed(big)
        first = client.get("/p/big/projector").text
        assert len(rows_of(first)) == 12 and "Page 1 of 3" in first
        assert 'content="10;url=?page=2"' in first
        last = client.get("/p/big/projector?page=3").text
        assert len(rows_of(last)) == 6 and 'content="10;url=?page=1"' in last
        assert 'data-per-page="12"' in last and 'data-rows-url="/p/big/leaderboard/rows"' in last

    def test_a_page_out_of_range_shows_the_nearest(self, client: Client) -> None:
        big = tournament_with(30, slug="big", is_published=True)
        refreshed(big)
        assert "Page 3 of 3" in client.get("/p/big/projector?page=9").text
        assert "Page 1 of 3" in client.get("/p/big/projector?page=x").text


class TestTournamentHome:
    def test_it_shows_the_dates_venue_rounds_and_their_tables(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play_set(table_one, games=4)
        seated_round(tournament, number=2, seed=2)
        refreshed(tournament)
        html = client.get("/p/open/").text
        assert "Kingston Open" in html and "21 Nov 2026 – 22 Nov 2026" in html
        assert "Kingston" in html
        assert re.search(r"Round 1 <span[^>]*>In play</span>", html)
        assert re.search(r"Round 2 <span[^>]*>Draft", html) and "being prepared" in html
        assert '<a href="/p/open/tables/1/1">Table 1</a> <span class="muted small">4/9' in html
        assert "/p/open/tables/2/" not in html  # a draft round's seating may still change
        for link in ("leaderboard", "projector", "results.csv", "games.csv"):
            assert f'href="/p/open/{link}"' in html
        assert 'href="/api/tournaments/open/standings"' in html

    def test_it_lists_the_leaders(
        self, client: Client, tournament: Tournament, table_one: Table
    ) -> None:
        play(table_one, 1)
        refreshed(tournament)
        html = client.get("/p/open/").text
        assert seated(table_one)[0] in html and "10 players" in html
