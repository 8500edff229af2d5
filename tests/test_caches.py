"""Every cache between the stored snapshot and the screen is named in `config/caches.py`, and
each lets a saved result (or a changed fact) through once what invalidates it happens.

A cache anywhere else must be a pure function of the code's own constants, listed below with
the reason nothing a tournament does can make it stale.
"""

import ast
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

from config import caches
from config.caches import MISSING, forget_process_caches
from hall.middleware import _shortcut_view
from hall.selectors import leader_rows, tournament_public_get
from hall.views import _rows_drawn
from scoring.selectors import round_progress
from scoring.standings import (
    _decoded,
    standings_current,
    standings_head,
    standings_kept,
    standings_refresh,
)
from tables.models import Table
from tests.scoring.playing import play, play_set, published_round, tables_of, tournament_with
from tournament.models import Tournament, default_ruleset

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("config", "director", "scorekeeper", "hall", "games", "clubs", "tournament", "tables")
ROOMS += ("scoring", "seasons")

CONSTANT = "a pure function of the code's constants"
PURE = {
    ("config/postgresql/base.py", "_adapters"): "Django's adapters of a connection: code",
    ("scorekeeper/assets.py", "_styles"): "the shipped stylesheets (read afresh while DEBUG)",
    ("scorekeeper/assets.py", "inline_icon"): "the shipped icon",
    ("scorekeeper/pwa.py", "_worker_source"): "the shipped service worker",
    ("scorekeeper/shapes.py", "shape"): "a serializer class's fields: code",
    ("games/hand_and_foot/books.py", "_fewest_wilds"): "deck arithmetic of a ruleset",
    ("games/hand_and_foot/books.py", "_rank_options"): "deck arithmetic of a ruleset",
    ("games/hand_and_foot/books.py", "_least_worth"): "deck arithmetic of a ruleset",
    ("games/hand_and_foot/books.py", "_rank_uses"): "deck arithmetic of a ruleset",
    ("games/hand_and_foot/fields.py", "hand_fields"): "a ruleset's form fields",
    ("games/kalooki/checks.py", "_cheapest_totals"): "deck arithmetic of a ruleset",
    ("games/kalooki/checks.py", "_best_totals"): "deck arithmetic of a ruleset",
    ("tournament/stored.py", "_attnames"): "a model's columns: code",
    ("tables/designs.py", "galois_field"): "combinatorics",
    ("tables/designs.py", "affine_lines"): "combinatorics",
    ("tables/designs.py", "transversal"): "combinatorics",
    ("tables/designs.py", "kirkman"): "combinatorics",
    ("tables/designs.py", "one_rotational"): "combinatorics",
    ("tables/designs.py", "doubled_flats"): "combinatorics",
    ("tables/designs.py", "round_robin"): "combinatorics",
    ("config/i18n.py", "_digest"): "a shipped catalogue's digest: changes only with a deploy",
    ("scoring/store/batch.py", "_insert_fields"): "a model's columns: code",
    ("scoring/store/batch.py", "_json_columns"): "a model's columns: code",
    ("scoring/store/batch.py", "_insert_text"): "SQL text of a model and a vendor: code",
    ("scoring/store/batch.py", "_table_deals_sql"): "SQL text of a vendor: code",
}


def _memoised(tree: ast.Module) -> Iterator[str]:
    """Functions decorated with `lru_cache` or `cache`, and module-level empty dicts."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = getattr(target, "attr", None) or getattr(target, "id", "")
                if name in ("lru_cache", "cache"):
                    yield node.name
    for node in tree.body:
        value = getattr(node, "value", None)
        empty = isinstance(value, ast.Dict) and not value.keys
        empty = empty or (
            isinstance(value, ast.Call)
            and getattr(value.func, "id", "") in ("dict", "defaultdict", "OrderedDict")
        )
        if isinstance(node, ast.Assign | ast.AnnAssign) and empty:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            yield getattr(target, "id", "?")


def caches_outside() -> set[tuple[str, str]]:
    found = set()
    for room in ROOMS:
        for path in (ROOT / room).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or relative == "config/caches.py":
                continue
            found |= {(relative, name) for name in _memoised(ast.parse(path.read_text()))}
    return found


def test_every_cache_outside_config_caches_is_a_pure_function_of_constants() -> None:
    assert caches_outside() == set(PURE), "name the cache in config/caches.py, or list it here"


def test_the_cache_module_documents_every_cache_it_names() -> None:
    table = caches.__doc__ or ""
    for name, named in caches.CACHES.items():
        assert f"| {name} (" in table and f"- {name}: " in table
        assert named.key and named.invalidated_by


# --- each cache lets a change through ------------------------------------------------------------

TESTED: set[str] = set()


def invalidates(*names: str) -> Callable[[Callable], Callable]:
    TESTED.update(names)
    return lambda test: test


def test_every_named_cache_has_a_test_of_what_invalidates_it() -> None:
    assert set(caches.CACHES) == TESTED


@pytest.fixture(autouse=True)
def _afresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Start and leave the caches empty: the next test's tournament may have the same slug."""
    cache.clear()
    forget_process_caches()
    monkeypatch.setattr(caches.PUBLIC_RECENT, "seconds", 0)
    yield
    cache.clear()
    forget_process_caches()


@pytest.fixture
def tournament(db: None) -> Tournament:
    """The Open at /p/open/: published, ten players at two tables, round 1 published."""
    tournament = tournament_with(10, slug="open", is_published=True)
    published_round(tournament)
    return tournament


@pytest.fixture
def table_one(tournament: Tournament) -> Table:
    return tables_of(tournament.rounds.get())[0]


@invalidates("standings", "standings.head")
def test_a_newer_snapshot_replaces_the_cached_one_and_its_head(
    tournament: Tournament, table_one: Table
) -> None:
    first = standings_refresh(tournament_id=tournament.pk)
    assert standings_current(tournament=tournament)["version"] == first.version
    play(table_one, 1)
    second = standings_refresh(tournament_id=tournament.pk)
    assert cache.get(caches.STANDINGS.key_of(tournament=tournament.pk))["version"] == second.version
    assert standings_head(tournament=tournament)["version"] == second.version > first.version


@invalidates("standings.kept")
def test_the_kept_standings_are_read_again_at_a_new_head(
    tournament: Tournament, table_one: Table
) -> None:
    standings_refresh(tournament_id=tournament.pk)
    kept = standings_kept(tournament=tournament)
    assert standings_kept(tournament=tournament) is kept
    play(table_one, 1)
    newer = standings_refresh(tournament_id=tournament.pk)
    assert standings_kept(tournament=tournament)["version"] == newer.version


@invalidates("public.facts")
def test_a_new_name_shows_once_the_facts_expire(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caches.PUBLIC_FACTS, "seconds", 1)
    assert tournament_public_get(slug="open").name == tournament.name
    Tournament.objects.filter(pk=tournament.pk).update(name="Kingston Open")
    assert tournament_public_get(slug="open").name == tournament.name  # within the lifetime
    time.sleep(1.2)
    assert tournament_public_get(slug="open").name == "Kingston Open"


@invalidates("public.recent")
def test_a_process_reuses_the_facts_only_for_its_seconds(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caches.PUBLIC_RECENT, "seconds", 60)
    assert tournament_public_get(slug="open").name == tournament.name
    Tournament.objects.filter(pk=tournament.pk).update(name="Kingston Open")
    cache.clear()
    assert tournament_public_get(slug="open").name == tournament.name  # reused
    monkeypatch.setattr(caches.PUBLIC_RECENT, "seconds", 0)
    assert tournament_public_get(slug="open").name == "Kingston Open"


@pytest.mark.urls("tests.hall.urls")
@invalidates("public.drawn")
def test_the_rows_drawn_for_a_version_are_drawn_again_at_the_next(
    client: Client, tournament: Tournament, table_one: Table
) -> None:
    standings_refresh(tournament_id=tournament.pk)
    before = client.get("/p/open/leaderboard/rows").content.decode()
    assert "(1/9)" not in before
    play(table_one, 1)
    standings_refresh(tournament_id=tournament.pk)
    after = client.get("/p/open/leaderboard/rows").content.decode()
    assert "(1/9)" in after  # a player's deals this round: the saved result shows


@invalidates("public.rows")
def test_a_changed_row_and_new_facts_are_drawn_again(
    tournament: Tournament, table_one: Table
) -> None:
    facts = tournament_public_get(slug="open")
    _rows_drawn(facts, leader_rows(standings_refresh(tournament_id=tournament.pk).data["players"]))
    play(table_one, 1)
    rows = leader_rows(standings_refresh(tournament_id=tournament.pk).data["players"])
    assert "(1/9)" in "".join(_rows_drawn(facts, rows))
    Tournament.objects.filter(pk=tournament.pk).update(name="Kingston Open")
    cache.clear()  # the facts' seconds later
    renamed = tournament_public_get(slug="open")
    assert caches.PUBLIC_ROWS.get(tournament.pk, renamed) is MISSING
    assert caches.PUBLIC_ROWS.get(tournament.pk, facts) is not MISSING


@pytest.mark.urls("tests.hall.urls")
@invalidates("public.parts")
def test_a_kept_live_part_is_drawn_again_at_a_new_version(
    client: Client, tournament: Tournament, table_one: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caches.PUBLIC_PARTS, "seconds", 60)
    standings_refresh(tournament_id=tournament.pk)
    page = f"/p/open/tables/1/{table_one.number}?live=1"
    assert client.get(page).status_code == 200
    before = client.get(page)
    assert client.get(page).content == before.content  # kept
    play(table_one, 1)
    standings_refresh(tournament_id=tournament.pk)
    after = client.get(page)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.content != before.content


@invalidates("public.shortcut")
def test_the_shortcut_resolves_a_path_once_per_urlconf(tournament: Tournament) -> None:
    found = _shortcut_view("/p/open/leaderboard", "config.urls", "hall:api-standings")
    assert found is not None and found.url_name == "leaderboard"
    misses = _shortcut_view.cache_info().misses
    _shortcut_view("/p/open/leaderboard", "config.urls", "hall:api-standings")
    assert _shortcut_view.cache_info().misses == misses  # nothing invalidates it
    _shortcut_view("/p/open/leaderboard", "tests.hall.urls", "hall:api-standings")
    assert _shortcut_view.cache_info().misses == misses + 1  # another urlconf is another key


@invalidates("rules")
def test_a_ruleset_is_its_own_key(db: None) -> None:
    ruleset = default_ruleset()
    first = Tournament(game="kalooki", ruleset=ruleset).rules()
    assert Tournament(game="kalooki", ruleset=default_ruleset()).rules() is first
    changed = Tournament(game="kalooki", ruleset={**ruleset, "call_limit": 2}).rules()
    assert changed is not first and changed.ruleset.call_limit == 2


@invalidates("breakdowns")
def test_a_breakdown_is_its_own_key() -> None:
    assert _decoded('{"down_and_out": true}') is _decoded('{"down_and_out": true}')
    assert _decoded('{"down_and_out": false}') == {"down_and_out": False}


@invalidates("matches.over")
def test_a_table_is_read_again_once_a_deal_is_entered(
    tournament: Tournament, table_one: Table
) -> None:
    round = tournament.rounds.get()
    over = {t.id: t.finished for t in round_progress(round=round, seated=False)}
    assert not over[table_one.pk]
    play_set(table_one)
    over = {t.id: t.finished for t in round_progress(round=round, seated=False)}
    assert over[table_one.pk]


@invalidates("club.version", "club.held")
def test_a_club_page_is_drawn_again_once_a_write_it_shows_happens(db: None) -> None:
    from clubs.pages import club_pages_version
    from clubs.services import club_create, member_add

    club = club_create(name="Half Way Tree", by=None)
    member_add(club=club, by=None, name="Ann Lee")
    page = f"/c/{club.slug}/ratings/kalooki"
    first = club_pages_version(club.slug)
    assert club_pages_version(club.slug) == first  # asked again: the same token
    assert "No locked round has been rated yet" in Client().get(page).content.decode()
    assert caches.CLUB_HELD.entries  # held under the club's version
    member_add(club=club, by=None, name="Bo Ray")  # a director's action on the register
    assert club_pages_version(club.slug) != first
    held = next(iter(caches.CLUB_HELD.entries))
    assert caches.CLUB_HELD.get(held, club_pages_version(club.slug)) is MISSING


@invalidates("club.shortcut")
def test_the_club_shortcut_resolves_a_path_once_per_urlconf() -> None:
    from hall.club_cache import _club_view

    found = _club_view("/c/half-way-tree/ratings/kalooki", "config.urls")
    assert found is not None and found.url_name == "ratings"
    misses = _club_view.cache_info().misses
    _club_view("/c/half-way-tree/ratings/kalooki", "config.urls")
    assert _club_view.cache_info().misses == misses  # nothing invalidates it
    assert _club_view("/c/half-way-tree/nothing", "config.urls") is None
