"""`bin/rename_names.py`: the renames of issue 31 as rules, on small trees written here.

Each rule is shown on a sample of the code it must meet, code written since included (a new
template's `{% url 'public:...' %}`, a new `from entry.x import`); a second run changes nothing;
and what must not change (URL paths, a cache key that starts like a namespace, a phone's storage
prefix, messages shown to people, migrations' prose) does not.
"""

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bin" / "rename_names.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rename_names", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["rename_names"] = module
    spec.loader.exec_module(module)
    return module


rename_names = _script()

FILES = {
    "entry/__init__.py": '"""The scorekeeper\'s room. Pages are reversed as "table:...".\n"""\n',
    "entry/urls.py": """\
        from django.urls import path

        from entry import views as table_page

        app_name = "table"

        urlpatterns = [
            path("t/<str:token>/", table_page.table_link, name="link"),
            path("t/<str:token>/deals/<int:number>/correct", table_page.fix, name="correct"),
        ]
        """,
    "entry/views.py": """\
        from django.urls import reverse

        from entry.access import Access
        from games.base import DealEntry, SideEntry


        def link(token: str) -> str:
            return reverse("table:link", args=[token])


        def page() -> str:
            return render("entry/link.html", {"home": reverse("public:index")})


        def _deal_entry(entry: DealEntry) -> tuple[SideEntry, ...]:
            # a deal entry's sides (`entry/views.py`)
            return entry.sides
        """,
    "entry/access.py": "Access = object\n",
    "hall/__init__.py": '"""The hall. May import the domain; never `director` or `entry`."""\n',
    "hall/urls.py": """\
        from django.urls import path

        from hall import seating_views as hall_views
        from hall import views as public

        app_name = "public"

        urlpatterns = [
            path("", public.index, name="index"),
            path("p/<slug:slug>/leaderboard", public.leaderboard, name="leaderboard"),
            path("p/<slug:slug>/seating", hall_views.seating, name="seating"),
        ]
        """,
    "hall/views.py": """\
        def leaderboard_key(slug: str) -> str:
            return f"public:tournament:{slug}"  # a cache key, not a URL name
        """,
    "templates/entry/link.html": """\
        {% load i18n %}
        <a href="{% url 'public:leaderboard' slug %}">{% translate "Leaderboard" %}</a>
        <a href="{% url "table:correct" token 1 %}">{% trans "Correct" %}</a>
        {% include "entry/_live.html" %}
        """,
    "templates/entry/_live.html": "<p>live</p>\n",
    "static/js/table-entry.js": 'var PREFIX = "table:" + config.token + ":";\n',
    "games/__init__.py": "",
    "games/base.py": '''\
        """The protocol: a deal entry is what the table reports."""


        class SideEntry:
            pass


        class DealEntry:
            """What a scorekeeper entered for a deal: each side's entry."""


        def example_entry() -> DealEntry:
            raise ValueError("This deal entry is refused.")  # a message keeps its words
        ''',
    "games/parcellus/__init__.py": '"""Parcellus: ``entries`` (reading a deal), ``checks``."""\n',
    "games/parcellus/entries.py": "CARDS = 'cards'\n",
    "games/parcellus/game.py": """\
        from . import checks, entries


        def fields(entries_seen: int) -> str:
            return entries.CARDS
        """,
    "games/kalooki/__init__.py": (
        '__all__ = ["GameEntry", "HandEntry"]\n\nfrom .entries import GameEntry, HandEntry\n'
    ),
    "games/kalooki/entries.py": "class HandEntry: ...\n\n\nclass GameEntry: ...\n",
    "tests/entry/__init__.py": "",
    "tests/entry/test_page.py": """\
        from entry.urls import app_name
        from tests.entry.helpers import table

        URL = "/t/abc/games/1/correct"  # the old path still answers
        """,
    "tournament/migrations/0002_entry.py": '"""A deal entry, as history says it."""\n',
    "pyproject.toml": """\
        root_packages = ["config", "director", "entry", "hall"]
        layers = [
            "director | entry | hall",
        ]
        """,
    "README.md": "| `entry/` | the phone page (`entry/views.py`), a deal entry (`DealEntry`) |\n",
    "locale/es/LC_MESSAGES/django.po": (
        '#: entry/views.py:12 templates/entry/link.html:2\nmsgid "entry/"\nmsgstr ""\n'
    ),
}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def read(root: Path, name: str) -> str:
    return (root / name).read_text()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path, FILES)
    rename_names.rename(tmp_path)
    return tmp_path


def test_the_scorekeepers_room_its_templates_and_tests_move(tree: Path) -> None:
    assert (tree / "scorekeeper" / "views.py").exists() and not (tree / "entry").exists()
    assert (tree / "templates" / "scorekeeper" / "link.html").exists()
    assert (tree / "tests" / "scorekeeper" / "test_page.py").exists()
    assert not (tree / "templates" / "entry").exists() and not (tree / "tests" / "entry").exists()


def test_imports_dotted_modules_and_paths_name_the_new_room(tree: Path) -> None:
    views = read(tree, "scorekeeper/views.py")
    assert "from scorekeeper.access import Access" in views
    assert 'render("scorekeeper/link.html"' in views
    assert "(`scorekeeper/views.py`)" in views
    test = read(tree, "tests/scorekeeper/test_page.py")
    assert "from scorekeeper.urls import app_name" in test
    assert "from tests.scorekeeper.helpers import table" in test
    assert '{% include "scorekeeper/_live.html" %}' in read(tree, "templates/scorekeeper/link.html")


def test_the_namespaces_follow_the_rooms_in_python_and_templates(tree: Path) -> None:
    views = read(tree, "scorekeeper/views.py")
    assert 'reverse("scorekeeper:link"' in views and 'reverse("hall:index")' in views
    html = read(tree, "templates/scorekeeper/link.html")
    assert "{% url 'hall:leaderboard' slug %}" in html
    assert '{% url "scorekeeper:correct" token 1 %}' in html
    assert '{% trans "Correct" %}' in html and "{% load i18n %}" in html
    assert 'app_name = "scorekeeper"' in read(tree, "scorekeeper/urls.py")
    assert 'app_name = "hall"' in read(tree, "hall/urls.py")
    assert 'reversed as "scorekeeper:..."' in read(tree, "scorekeeper/__init__.py")
    assert "never `director` or `scorekeeper`" in read(tree, "hall/__init__.py")


def test_an_alias_that_said_an_old_namespace_goes(tree: Path) -> None:
    urls = read(tree, "scorekeeper/urls.py")
    assert "from scorekeeper import views\n" in urls and "table_page" not in urls
    assert 'path("t/<str:token>/", views.table_link, name="link")' in urls
    hall = read(tree, "hall/urls.py")
    assert "from hall import views\n" in hall and "public." not in hall
    assert "hall_views.seating" in hall  # another alias, not a namespace's, stays


def test_what_only_looks_like_a_name_is_left_alone(tree: Path) -> None:
    assert 'f"public:tournament:{slug}"' in read(tree, "hall/views.py")  # a cache key
    assert 'var PREFIX = "table:"' in read(tree, "static/js/table-entry.js")  # the phone's drafts
    assert '"t/<str:token>/deals/<int:number>/correct"' in read(tree, "scorekeeper/urls.py")
    assert 'URL = "/t/abc/games/1/correct"' in read(tree, "tests/scorekeeper/test_page.py")
    assert (
        read(tree, "tournament/migrations/0002_entry.py")
        == FILES["tournament/migrations/0002_entry.py"]
    )


def test_a_deals_entry_is_a_report_and_a_tournaments_entry_stays(tree: Path) -> None:
    base = read(tree, "games/base.py")
    assert "class DealReport:" in base and "class SideReport:" in base
    assert "def example_report() -> DealReport:" in base
    assert '"""The protocol: a deal report is what the table reports."""' in base
    assert '"This deal entry is refused."' in base  # a message keeps its words
    views = read(tree, "scorekeeper/views.py")
    assert "def _deal_report(entry: DealReport) -> tuple[SideReport, ...]:" in views
    assert "# a deal report's sides" in views
    assert "return entry.sides" in views  # a variable named `entry` is not guessed at


def test_the_games_modules_of_reports_move_with_their_imports(tree: Path) -> None:
    assert (tree / "games/parcellus/reports.py").exists()
    assert not (tree / "games/parcellus/entries.py").exists()
    game = read(tree, "games/parcellus/game.py")
    assert "from . import checks, reports" in game and "return reports.CARDS" in game
    assert "entries_seen" in game
    assert "``reports`` (reading a deal)" in read(tree, "games/parcellus/__init__.py")
    kalooki = read(tree, "games/kalooki/__init__.py")
    assert '__all__ = ["GameReport", "HandReport"]' in kalooki
    assert "from .reports import GameReport, HandReport" in kalooki


def test_settings_files_docs_and_message_catalogues(tree: Path) -> None:
    toml = read(tree, "pyproject.toml")
    assert '["config", "director", "scorekeeper", "hall"]' in toml
    assert '"director | scorekeeper | hall"' in toml
    readme = read(tree, "README.md")
    assert readme.startswith("| `scorekeeper/` | the phone page (`scorekeeper/views.py`), a deal")
    assert "a deal report (`DealReport`)" in readme
    po = read(tree, "locale/es/LC_MESSAGES/django.po")
    assert "#: scorekeeper/views.py:12 templates/scorekeeper/link.html:2" in po
    assert 'msgid "entry/"' in po  # a message is the translators', not ours


def test_a_second_run_changes_nothing(tree: Path) -> None:
    before = {p: p.read_text() for p in tree.rglob("*") if p.is_file()}
    assert rename_names.rename(tree) == []
    assert {p: p.read_text() for p in tree.rglob("*") if p.is_file()} == before


def test_in_git_it_moves_with_git_mv_and_prints_what_it_did(tmp_path: Path) -> None:
    write(tmp_path, {"entry/__init__.py": "", "entry/views.py": "from entry import access\n"})
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(tmp_path)], capture_output=True, text=True
    )
    assert "moved entry -> scorekeeper" in run.stdout
    assert "edited scorekeeper/views.py" in run.stdout
    status = subprocess.run([*git, "status", "--short"], capture_output=True, text=True).stdout
    assert "R  entry/__init__.py -> scorekeeper/__init__.py" in status
    again = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(tmp_path)], capture_output=True, text=True
    )
    assert again.stdout.strip() == "rename_names: nothing to rename"


def test_a_namespace_compared_as_a_bare_word_is_shown_for_a_person(tmp_path: Path) -> None:
    write(tmp_path, {"tests/urls.py": 'ours = [p for p in site if p.namespace == "public"]\n'})
    assert rename_names.rename(tmp_path) == ["check by hand: tests/urls.py:1"]


def test_a_prose_line_the_rename_lengthened_is_rewrapped() -> None:
    long = "    # " + "word " * 19 + "the `entry/views.py` module,\n    # and the rest.\n"
    wrapped = rename_names.rewrap(long.replace("entry/", "scorekeeper/"))
    lines = wrapped.splitlines()
    assert all(len(line) <= 100 for line in lines)
    assert lines[1] == "    # the `scorekeeper/views.py` module, and the rest."
    code = 'x = "' + "a" * 120 + '"\n'
    assert rename_names.rewrap(code) == code  # code is ruff's, or a person's
