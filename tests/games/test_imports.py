"""The games' modules import each other without cycles, TYPE_CHECKING imports included."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import games

PACKAGE = Path(games.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            found.add(f"{base}.{node.module}" if node.module else base)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_module_under_games_is_part_of_an_import_cycle():
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = {
        name: {other for other in _imports(path, name) if other in modules and other != name}
        for name, path in modules.items()
        if path.name != "__init__.py"  # a package re-exporting its modules is no cycle
    }
    graph = {name: {d for d in deps if d in graph} for name, deps in graph.items()}
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as cycle:
        raise AssertionError(f"import cycle: {' -> '.join(cycle.args[1])}") from None
