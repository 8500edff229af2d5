"""The games are plain Python: importing them loads nothing of Django (DESIGN, STYLE)."""

import ast
import subprocess
import sys
from pathlib import Path

import games

PACKAGE = Path(games.__file__).parent
PROJECT_ROOT = PACKAGE.parent


def test_no_module_of_any_game_imports_django():
    for module in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [alias.name for alias in getattr(node, "names", [])]
            names += [getattr(node, "module", None) or ""]
            assert not any(name.startswith("django") for name in names), module


def test_importing_every_game_loads_no_django_module():
    program = (
        "import sys, importlib, games; "
        "[importlib.import_module(f'games.{key}') for key in games.GAME_KEYS]; "
        "loaded = sorted(m for m in sys.modules if m.partition('.')[0] == 'django'); "
        "print(loaded); sys.exit(1 if loaded else 0)"
    )
    run = subprocess.run(
        [sys.executable, "-c", program],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
