"""What keeps the live leaderboard cheap: conditional requests answered from the cache alone, and
the same few queries for ten players as for two thousand.

A phone, a projector and the page's own script all ask again every few seconds; while nothing
changed, each gets a 304 with no body, decided without a database query.
"""

import datetime
import gzip

import pytest
from django.contrib.messages.middleware import MessageMiddleware
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from django.utils.http import http_date

import hall.views as hall_views
from config.caches import forget_process_caches
from hall.middleware import LeaderboardShortcut, _shortcut_view
from hall.selectors import leader_rows, tournament_public_get
from hall.views import LEADERBOARD_PAGE_ROWS, ROW_START, ROWS_TEMPLATE, _rows_drawn
from scoring.models import StandingsSnapshot
from tables.models import Table
from tests.factories import TournamentFactory
from tests.hall.conftest import refreshed
from tests.scoring.playing import director_of, play
from tournament.models import Entry, Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hall.urls")]

SHORTCUT = "hall.middleware.LeaderboardShortcut"
LIVE = ["/p/open/leaderboard", "/p/open/leaderboard/rows", "/api/tournaments/open/standings"]


class TestConditionalRequests:
    @pytest.mark.parametrize("page", LIVE)
    def test_the_same_version_gets_a_304_with_no_body_and_no_query(
        self, client: Client, tournament: Tournament, page: str, django_assert_num_queries
    ) -> None:
        snapshot = refreshed(tournament)
        first = client.get(page)
        etag = f'W/"{tournament.pk}.{snapshot["version"]}"'
        assert first.status_code == 200 and first["ETag"] == etag
        assert first["Last-Modified"] == http_date(
            datetime.datetime.fromisoformat(snapshot["computed_at"]).timestamp()
        )
        assert "no-cache" in first["Cache-Control"]
        with django_assert_num_queries(0):
            again = client.get(page, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again["ETag"] == etag

    @pytest.mark.parametrize("page", LIVE)
    def test_a_new_version_is_sent_whole_with_its_new_etag(
        self, client: Client, tournament: Tournament, table_one: Table, page: str
    ) -> None:
        old = refreshed(tournament)["version"]
        play(table_one, 1)
        new = refreshed(tournament)["version"]
        response = client.get(page, headers={"If-None-Match": f'W/"{tournament.pk}.{old}"'})
        assert response.status_code == 200 and response.content
        assert response["ETag"] == f'W/"{tournament.pk}.{new}"' and new == old + 1

    def test_if_modified_since_the_computation_is_a_304(
        self, client: Client, tournament: Tournament
    ) -> None:
        refreshed(tournament)
        modified = client.get("/p/open/leaderboard")["Last-Modified"]
        again = client.get("/p/open/leaderboard", headers={"If-Modified-Since": modified})
        assert again.status_code == 304
        earlier = http_date((timezone.now() - datetime.timedelta(hours=1)).timestamp())
        older = client.get("/p/open/leaderboard", headers={"If-Modified-Since": earlier})
        assert older.status_code == 200

    def test_the_etag_is_weak_and_matches_without_its_w_too(
        self, client: Client, tournament: Tournament
    ) -> None:
        refreshed(tournament)
        etag = client.get("/p/open/leaderboard/rows")["ETag"]
        assert etag.startswith('W/"')  # the gzipped and the plain body are one version
        again = client.get("/p/open/leaderboard/rows", headers={"If-None-Match": etag[2:]})
        assert again.status_code == 304

    def test_a_web_process_reuses_what_it_read_for_a_moment(
        self,
        client: Client,
        tournament: Tournament,
        table_one: Table,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        monkeypatch.setattr("config.caches.PUBLIC_RECENT.seconds", 60)
        old = refreshed(tournament)["version"]
        assert client.get("/p/open/leaderboard")["ETag"] == f'W/"{tournament.pk}.{old}"'
        play(table_one, 1)
        new = refreshed(tournament)["version"]
        assert client.get("/p/open/leaderboard")["ETag"] == f'W/"{tournament.pk}.{old}"'
        forget_process_caches()  # a moment later
        assert client.get("/p/open/leaderboard")["ETag"] == f'W/"{tournament.pk}.{new}"'

    def test_a_preview_is_never_answered_from_a_browsers_copy(
        self, client: Client, draft: Tournament
    ) -> None:
        client.force_login(director_of(draft, "alice"))
        response = client.get("/p/draft/leaderboard/rows?preview=1", headers={"If-None-Match": "*"})
        assert response.status_code == 200 and "no-store" in response["Cache-Control"]


class TestCompression:
    @pytest.mark.parametrize("page", LIVE[:2])
    def test_a_browser_that_accepts_gzip_gets_the_same_page_gzipped(
        self, client: Client, tournament: Tournament, page: str
    ) -> None:
        refreshed(tournament)
        plain = client.get(page)
        zipped = client.get(page, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert zipped["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
        assert gzip.decompress(zipped.content) == plain.content
        assert "Accept-Encoding" in zipped["Vary"] and "Accept-Encoding" in plain["Vary"]
        assert zipped["ETag"] == plain["ETag"]

    def test_a_2000_player_leaderboard_shrinks_tenfold(self, client: Client) -> None:
        tournament_of(2000)
        plain = client.get("/p/open/leaderboard")
        zipped = client.get("/p/open/leaderboard", headers={"Accept-Encoding": "gzip"})
        assert len(zipped.content) * 10 < len(plain.content)


def tournament_of(players: int) -> Tournament:
    """A published tournament of `players` entries and one snapshot of their standings, stored
    directly (as the pipeline would) to keep a 2,000-player test fast."""
    tournament = TournamentFactory(slug="open", is_published=True)
    people = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {number:04}", club=f"Club {number % 40}")
        for number in range(players)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=person, status=Entry.Status.CHECKED_IN)
        for person in people
    )
    StandingsSnapshot.objects.create(
        tournament=tournament, version=1, source_stamp="test", data=standings_of(entries)
    )
    return tournament


def standings_of(entries: list[Entry]) -> dict:
    players = [
        {
            "entry": entry.pk,
            "player": entry.player.name,
            "club": entry.player.club,
            "status": entry.status,
            "rounds": {"1": 100 + index // 2, "2": 50},
            "games_played": 18,
            "games_won": 2,
            "down_and_outs": 0,
            "ruling_points": 0,
            "last_game": 12,
            "place": index + 1 - index % 2,
            "shared": True,
            "movement": (index % 5) - 2,
            "total": 150 + index // 2,
        }
        for index, entry in enumerate(entries)
    ]
    return {
        "tournament": "open",
        "version": 1,
        "computed_at": timezone.now().isoformat(),
        "latest_round": 2,
        "tie_breaks": ["games_won", "down_and_outs", "latest_round_score"],
        "players": players,
        "tables": [],
    }


# The facts of the tournament (1 query) and its newest snapshot (1 query), whatever its size;
# the limit is 10.
QUERIES = 2


class TestQueryCounts:
    @pytest.mark.parametrize("players", [10, 2000])
    @pytest.mark.parametrize("page", ["/p/open/leaderboard", "/api/tournaments/open/standings"])
    def test_the_leaderboard_and_the_api_run_the_same_queries_for_any_size(
        self, client: Client, players: int, page: str, django_assert_num_queries
    ) -> None:
        tournament_of(players)
        cache.clear()  # the worst case: neither the facts nor the standings are cached
        with django_assert_num_queries(QUERIES):
            response = client.get(page)
        assert response.status_code == 200
        shown = players if page.endswith("standings") else min(players, LEADERBOARD_PAGE_ROWS)
        assert response.content.count(b"Player ") >= shown  # the leaderboard: its first page
        with django_assert_num_queries(0):  # once cached, nothing at all
            assert client.get(page).status_code == 200

    @pytest.mark.parametrize("players", [10, 2000])
    def test_the_rows_and_the_results_export_too(
        self, client: Client, players: int, django_assert_num_queries
    ) -> None:
        tournament_of(players)
        pages = {"/p/open/leaderboard/rows": 0, "/p/open/results.csv": 0, "/p/open/projector": 1}
        for page, more in pages.items():  # the projector: the hall round (none in play here)
            cache.clear()
            with django_assert_num_queries(QUERIES + more):
                response = client.get(page)
                if response.streaming:
                    b"".join(response.streaming_content)
            assert response.status_code == 200


def install_shortcut(settings) -> None:
    stack = list(settings.MIDDLEWARE)
    stack.insert(stack.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1, SHORTCUT)
    settings.MIDDLEWARE = stack


def forbid_the_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request that goes through the whole stack fails (MessageMiddleware is in it)."""

    def ran(*args: object) -> None:
        raise AssertionError("the whole middleware stack ran")

    monkeypatch.setattr(MessageMiddleware, "process_request", ran)


class TestTheCrowdsShortcut:
    """LeaderboardShortcut, right after WhiteNoise: the leaderboard without the rest of the
    stack for visitors without a session, and the whole stack for everyone else."""

    @pytest.fixture
    def shortcut(self, settings) -> None:
        install_shortcut(settings)

    @pytest.fixture
    def no_stack(self, monkeypatch: pytest.MonkeyPatch) -> None:
        forbid_the_stack(monkeypatch)

    @pytest.mark.parametrize("page", LIVE[:2])
    def test_it_answers_as_the_views_do_without_the_stack(
        self, tournament: Tournament, page: str, settings, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        refreshed(tournament)
        through_the_stack = Client().get(page, headers={"Accept-Encoding": "gzip"})
        install_shortcut(settings)
        forbid_the_stack(monkeypatch)
        shortcut = Client().get(page, headers={"Accept-Encoding": "gzip"})
        assert shortcut.content == through_the_stack.content
        for header in ("ETag", "Last-Modified", "Cache-Control", "Content-Encoding"):
            assert shortcut[header] == through_the_stack[header]
        assert shortcut["X-Frame-Options"] == "DENY"
        assert int(shortcut["Content-Length"]) == len(shortcut.content)

    def test_a_304_costs_no_query(
        self, tournament: Tournament, shortcut: None, no_stack: None, django_assert_num_queries
    ) -> None:
        etag = Client().get("/p/open/leaderboard")["ETag"]
        with django_assert_num_queries(0):
            response = Client().get("/p/open/leaderboard", headers={"If-None-Match": etag})
        assert response.status_code == 304

    def test_a_path_is_resolved_once_and_made_up_paths_are_not_kept_for_ever(
        self, tournament: Tournament, shortcut: None, no_stack: None
    ) -> None:
        """The crowd asks the same paths again and again: the shortcut resolves each once, in a
        bounded memory."""
        _shortcut_view.cache_clear()
        etag = Client().get("/p/open/leaderboard")["ETag"]
        for _ in range(3):
            Client().get("/p/open/leaderboard", headers={"If-None-Match": etag})
        assert _shortcut_view.cache_info().misses == 1
        assert _shortcut_view.cache_info().hits == 3
        for number in range(_shortcut_view.cache_info().maxsize + 10):
            _shortcut_view(f"/p/made-up-{number}/leaderboard", None, LeaderboardShortcut.API)
        assert _shortcut_view.cache_info().currsize == _shortcut_view.cache_info().maxsize

    def test_a_signed_in_director_goes_through_the_whole_stack(
        self, tournament: Tournament, shortcut: None
    ) -> None:
        client = Client()
        client.force_login(director_of(tournament, "alice"))
        assert "Sign out alice" in client.get("/p/open/leaderboard").text

    def test_a_preview_goes_through_the_whole_stack(
        self, draft: Tournament, shortcut: None
    ) -> None:
        client = Client()
        client.force_login(director_of(draft, "alice"))
        assert client.get("/p/draft/leaderboard?preview=1").status_code == 200

    def test_an_unknown_tournament_gets_the_sites_404(self, shortcut: None) -> None:
        assert Client().get("/p/nowhere/leaderboard").status_code == 404

    def test_other_pages_go_through_the_whole_stack(
        self, tournament: Tournament, shortcut: None, no_stack: None
    ) -> None:
        with pytest.raises(AssertionError, match="whole middleware stack"):
            Client().get("/p/open/")


class TestRowsDrawnOnce:
    """A result mid-round changes a few players' rows: the others are not drawn again,
    and the rows read exactly as if all were drawn afresh."""

    def test_only_the_changed_rows_are_drawn_and_the_rows_read_the_same(
        self, tournament: Tournament, table_one: Table, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        forget_process_caches()
        facts = tournament_public_get(slug=tournament.slug)
        rows_before = leader_rows(refreshed(tournament)["players"], facts.lead)
        _rows_drawn(facts, rows_before)
        play(table_one, 1)
        rows_after = leader_rows(refreshed(tournament)["players"], facts.lead)
        drawn: list[int] = []
        real = hall_views.render_to_string

        def counting(template: str, context: dict) -> str:
            drawn.append(len(context["rows"]))
            return real(template, context)

        monkeypatch.setattr(hall_views, "render_to_string", counting)
        html = "".join(_rows_drawn(facts, rows_after))
        changed = len(set(rows_after) - set(rows_before))
        assert 0 < changed < len(rows_after) and drawn == [changed]
        afresh = real(ROWS_TEMPLATE, {"tournament": facts, "rows": rows_after})
        assert html == afresh.rstrip("\n") + "\n"
        assert html.count(ROW_START) == len(rows_after) == 10

    def test_a_name_cannot_split_a_row(self, tournament: Tournament) -> None:
        """Names are escaped: a player named like the start of a row stays in their row."""
        forget_process_caches()
        Player.objects.filter(entries__tournament=tournament).update(name='<tr id="entry-1">Eve')
        facts = tournament_public_get(slug=tournament.slug)
        rows = leader_rows(refreshed(tournament)["players"], facts.lead)
        html = "".join(_rows_drawn(facts, rows))
        assert html.count(ROW_START) == len(rows) and "&lt;tr id=&quot;entry-1&quot;&gt;Eve" in html
