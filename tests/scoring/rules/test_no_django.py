"""The rules engine is plain Python: importing it loads nothing of Django (DESIGN, STYLE)."""

import ast
import subprocess
import sys
from pathlib import Path

import scoring.rules

PACKAGE = Path(scoring.rules.__file__).parent
PROJECT_ROOT = PACKAGE.parent.parent


def test_no_module_of_the_rules_engine_imports_django():
    for module in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [alias.name for alias in getattr(node, "names", [])]
            names += [getattr(node, "module", None) or ""]
            assert not any(name.startswith("django") for name in names), module.name


def test_importing_the_rules_engine_loads_no_django_module():
    program = (
        "import sys; import scoring.rules; "
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
