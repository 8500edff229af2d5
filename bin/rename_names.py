"""One name per idea (issue 31): the renames as rules, applied to the tree as it stands.

    python bin/rename_names.py [--root DIR] [--dry-run]

The words (README's "Words"):
- The scorekeeper's room is `scorekeeper/` (was `entry/`: "entry" is a tournament's entry), its
  URL namespace `scorekeeper` (was `table`); the public's room `hall/` has namespace `hall` (was
  `public`). Its templates and tests follow: `templates/scorekeeper/`, `tests/scorekeeper/`.
- What a table reports for one deal is a **report** (was a deal's "entry"): `DealReport`,
  `SideReport`, Kalooki's `GameReport` and `HandReport`, and the modules that read them.
URL paths (`/t/<token>/...`), API field names and the database do not change.

Rules, not a list of lines, so that code written since (a new `{% url 'public:...' %}`, a new
`from entry.x import`) is renamed too: folders and modules are moved with `git mv` (a plain rename
outside git), then every text file is rewritten by the rules below. Running it twice changes
nothing the second time. It prints each move and each file changed, then runs ruff's import
sorting and formatter on the Python files it changed, and lists any line left over 100 columns.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Callable, Iterable
from pathlib import Path

OLD_ROOM, NEW_ROOM = "entry", "scorekeeper"
FOLDERS = [  # (old, new), moved whole
    (OLD_ROOM, NEW_ROOM),
    (f"templates/{OLD_ROOM}", f"templates/{NEW_ROOM}"),
    (f"tests/{OLD_ROOM}", f"tests/{NEW_ROOM}"),
]
MODULES = {  # dotted old -> dotted new, each a file moved
    "games.kalooki.deal_entries": "games.kalooki.deal_reports",
    "games.kalooki.entries": "games.kalooki.reports",
    "games.parcellus.entries": "games.parcellus.reports",
    "games.hand_and_foot.entry": "games.hand_and_foot.report",
    "tests.games.hand_and_foot.test_entry": "tests.games.hand_and_foot.test_report",
}
NAMESPACES = {  # old namespace -> (new namespace, the room whose urls.py names its URLs)
    "table": ("scorekeeper", NEW_ROOM),
    "public": ("hall", "hall"),
}
# Import aliases that said an old namespace (`from entry import views as table_page`).
OLD_ALIASES = {"table_page", "public"}
# Identifiers (whole words; underscores join, so `_deal_entry` and `as_deal_entries` go too).
WORDS = {
    "DealEntry": "DealReport",
    "SideEntry": "SideReport",
    "GameEntry": "GameReport",
    "HandEntry": "HandReport",
    "ReadEntry": "ReadReport",
    "EntryCheck": "ReportCheck",
    "EntryRefused": "ReportRefused",
    "deal_entries": "deal_reports",
    "deal_entry": "deal_report",
    "side_entries": "side_reports",
    "side_entry": "side_report",
    "game_entry": "game_report",
    "hand_entry": "hand_report",
    "example_entry": "example_report",
    "check_entry": "check_report",
    "read_entry": "read_report",
}
# Prose, in Markdown and in Python's comments and docstrings only (never in messages).
PHRASES = {
    "deal entries": "deal reports",
    "deal entry": "deal report",
    "game entries": "game reports",
    "game entry": "game report",
    "hand entries": "hand reports",
    "hand entry": "hand report",
}
TEXT = {".py", ".html", ".txt", ".md", ".toml", ".cfg", ".ini", ".js", ".css", ".po", ".json"}
TEXT_NAMES = {"Makefile", "Procfile", "run"}
SKIP_PARTS = {".git", ".venv", "node_modules", "var", "__pycache__", "mutants", ".hypothesis"}
# This script and its test hold the old names as data.
EXEMPT = {"bin/rename_names.py", "tests/test_rename_names.py"}


# --- moving files ---------------------------------------------------------------------------------


def in_git(root: Path) -> bool:
    return (root / ".git").exists()


def move(root: Path, old: str, new: str, log: list[str]) -> None:
    """`git mv old new` (a plain rename outside git), parents made; merged into `new` if it is
    there already (a file someone added to the old folder since)."""
    source, target = root / old, root / new
    if not source.exists():
        return
    if source.is_dir() and target.is_dir():
        for child in sorted(source.iterdir()):
            if child.name != "__pycache__":
                move(root, f"{old}/{child.name}", f"{new}/{child.name}", log)
        return
    if target.exists():
        raise SystemExit(f"rename_names: both {old} and {new} exist; merge them by hand")
    target.parent.mkdir(parents=True, exist_ok=True)
    if in_git(root) and tracked(root, old):
        subprocess.run(["git", "-C", str(root), "mv", old, new], check=True)
    else:
        source.rename(target)
    log.append(f"moved {old} -> {new}")


def tracked(root: Path, path: str) -> bool:
    found = subprocess.run(
        ["git", "-C", str(root), "ls-files", "--", path], capture_output=True, text=True
    )
    return bool(found.stdout.strip())


def module_path(dotted: str) -> str:
    return dotted.replace(".", "/") + ".py"


def move_all(root: Path, log: list[str]) -> None:
    for old, new in FOLDERS:
        move(root, old, new, log)
    for old, new in MODULES.items():
        move(root, module_path(old), module_path(new), log)


# --- which files ----------------------------------------------------------------------------------


def text_files(root: Path) -> Iterable[Path]:
    if in_git(root):
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-co", "--exclude-standard"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        paths = sorted({root / line for line in listed})
    else:
        paths = sorted(path for path in root.rglob("*") if path.is_file())
    for path in paths:
        relative = path.relative_to(root)
        if set(relative.parts) & SKIP_PARTS or relative.as_posix() in EXEMPT:
            continue
        if path.is_file() and (path.suffix in TEXT or path.name in TEXT_NAMES):
            yield path


# --- the rules ------------------------------------------------------------------------------------


def url_names(root: Path, room: str) -> set[str]:
    """The URL names a room's urls.py gives (`name="..."`): what its namespace prefixes."""
    names: set[str] = set()
    for folder in {room, OLD_ROOM if room == NEW_ROOM else room}:
        urls = root / folder / "urls.py"
        if urls.exists():
            names |= set(re.findall(r"""\bname\s*=\s*["']([\w-]+)["']""", urls.read_text()))
    return names


def room_modules(root: Path) -> set[str]:
    """The modules and packages of the scorekeeper's room, wherever it is now."""
    found: set[str] = set()
    for folder in (root / NEW_ROOM, root / OLD_ROOM):
        if folder.is_dir():
            found |= {p.stem for p in folder.iterdir() if p.suffix == ".py" or p.is_dir()}
    return found - {"__pycache__"}


class Rules:
    """Every text rule, built once from the tree (its URL names and the room's modules)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.names = {old: url_names(root, room) for old, (_, room) in NAMESPACES.items()}
        modules = "|".join(sorted(room_modules(root), key=len, reverse=True)) or "(?!)"
        self.dotted = re.compile(rf"(?<![\w.\-/]){OLD_ROOM}\.({modules})(?![\w-])")
        self.imports = re.compile(rf"^(\s*)(from|import) {OLD_ROOM}(?=[\s.])", re.M)
        self.folders = re.compile(rf"(?<![\w.\-/])(templates|tests)/{OLD_ROOM}(?![\w.\-])")
        self.room_path = re.compile(rf"(?<![\w.\-/<]){OLD_ROOM}/([\w.\-/]*[\w])")
        self.room_bare = re.compile(rf"(?<=[`'\"(\s]){OLD_ROOM}/(?=[`'\"\s)])")
        words = "|".join(sorted(WORDS, key=len, reverse=True))
        self.words = re.compile(rf"(?<![A-Za-z0-9])({words})(?![A-Za-z0-9])")
        phrases = "|".join(sorted(PHRASES, key=len, reverse=True))
        self.phrases = re.compile(rf"\b({phrases})\b", re.I)

    # -- one rule each

    def namespaces(self, text: str) -> str:
        for old, (new, _) in NAMESPACES.items():
            names = "|".join(sorted(self.names[old], key=len, reverse=True)) or "(?!)"
            text = re.sub(rf"""(["'])({old}):({names})\1""", rf"\1{new}:\3\1", text)
            text = re.sub(rf"""(["'`]){old}:\.\.\.""", rf"\1{new}:...", text)
        return text

    def app_name(self, path: Path, text: str) -> str:
        if path.name != "urls.py":
            return text
        for old, (new, room) in NAMESPACES.items():
            if path.parent == self.root / room:
                text = re.sub(
                    rf"""^app_name = ["']{old}["']""", f'app_name = "{new}"', text, flags=re.M
                )
        return text

    def modules(self, text: str) -> str:
        text = self.imports.sub(rf"\1\2 {NEW_ROOM}", text)
        text = re.sub(rf"(?<![\w.])tests\.{OLD_ROOM}(?!\w)", f"tests.{NEW_ROOM}", text)
        text = self.dotted.sub(rf"{NEW_ROOM}.\1", text)
        for old, new in MODULES.items():
            text = re.sub(rf"(?<![\w.]){re.escape(old)}(?!\w)", new, text)
            text = re.sub(rf"(?<![\w/]){re.escape(module_path(old))}", module_path(new), text)
            package, _, name = old.rpartition(".")
            moved = new.rpartition(".")[2]
            text = re.sub(
                rf"^(\s*from {re.escape(package)} import .*)\b{name}\b",
                rf"\1{moved}",
                text,
                flags=re.M,
            )
        return text

    def relative_modules(self, path: Path, text: str) -> str:
        """`from .entries import` and `from . import entries` inside the moved module's package."""
        for old, new in MODULES.items():
            package, _, name = old.rpartition(".")
            if path.parent != self.root / package.replace(".", "/"):
                continue
            moved = new.rpartition(".")[2]
            text = re.sub(rf"(``?){name}\1(?!`)", rf"\1{moved}\1", text)  # named in prose
            text = re.sub(rf"^(\s*from \.){name}(?= import)", rf"\1{moved}", text, flags=re.M)
            pattern = rf"^(\s*from \. import [^\n]*?)\b{name}\b"
            if re.search(pattern, text, re.M):
                text = re.sub(pattern, rf"\1{moved}", text, flags=re.M)
                text = re.sub(rf"(?<![\w.]){name}\.(?=[A-Za-z_])", f"{moved}.", text)
        return text

    def paths(self, text: str) -> str:
        text = self.folders.sub(rf"\1/{NEW_ROOM}", text)
        text = self.room_bare.sub(f"{NEW_ROOM}/", text)
        return self.room_path.sub(self._room_path, text)

    def _room_path(self, match: re.Match[str]) -> str:
        rest = match.group(1)
        first = rest.split("/")[0].removesuffix(".py")
        for room in (NEW_ROOM, OLD_ROOM):  # the old, for a dry run
            base, templates = self.root / room, self.root / "templates" / room
            if any(
                (folder / name).exists()
                for folder in (base, templates)
                for name in (rest, first, f"{first}.py")
            ):
                return f"{NEW_ROOM}/{rest}"
        return match.group(0)

    def identifiers(self, text: str) -> str:
        return self.words.sub(lambda m: WORDS[m.group(1)], text)

    def prose(self, text: str) -> str:
        return self.phrases.sub(_phrase, text)

    def aliases(self, text: str) -> str:
        """`from scorekeeper import views as table_page` -> `... import views`, uses renamed."""
        rooms = "|".join({NEW_ROOM, *(room for _, room in NAMESPACES.values())})
        pattern = rf"^(from (?:{rooms})[\w.]* import )(\w+) as ({'|'.join(OLD_ALIASES)})$"
        for match in list(re.finditer(pattern, text, re.M)):
            module, alias = match.group(2), match.group(3)
            rest = text.replace(match.group(0), "")
            room = match.group(1).split()[1].split(".")[0]
            name = next((n for n in (module, f"{room}_{module}") if not _bound(n, rest)), None)
            if name is None:
                continue
            line = f"{match.group(1)}{module}" + (f" as {name}" if name != module else "")
            text = text.replace(match.group(0), line)
            text = re.sub(rf"(?<![\w.\"']){alias}\.(?=[A-Za-z_])", f"{name}.", text)
        return text

    def may_import(self, path: Path, text: str) -> str:
        """A top-level package's docstring names the rooms it may import: `entry` among them."""
        if path.name != "__init__.py" or path.parent.parent != self.root:
            return text
        return re.sub(rf"(?<!`)`{OLD_ROOM}`(?!`)", f"`{NEW_ROOM}`", text)

    def toml(self, text: str) -> str:
        """The room in pyproject's lists: root packages, layers (`a | entry | b`), mutmut."""
        return re.sub(rf"""(?<=["'|]) ?{OLD_ROOM}(?= ?["'|])""", _keep_space(NEW_ROOM), text)

    # -- a file

    def apply(self, path: Path, text: str) -> str:
        suffix = path.suffix
        if suffix == ".po":
            return _on_lines(text, lambda line: line.startswith("#:"), self.paths)
        text = self.paths(text)
        if suffix == ".toml":
            text = self.toml(text)
        if suffix != ".js":
            text = self.namespaces(text)
        text = self.modules(text)
        text = self.identifiers(text)
        if suffix == ".py":
            text = self.relative_modules(path, text)
            text = self.app_name(path, text)
            text = self.may_import(path, text)
            text = self.aliases(text)
            if "/migrations/" not in path.as_posix():
                text = python_prose(text, self.prose)
        elif suffix == ".md":
            text = self.prose(text)
        return text


def _bound(name: str, text: str) -> bool:
    """Whether `name` is already a name in the module: imported, assigned or used as one."""
    return bool(re.search(rf"(?<![\w.]){name}\.|\b(import|as) {name}\b|^{name} =", text, re.M))


def _keep_space(word: str) -> Callable[[re.Match[str]], str]:
    return lambda match: (" " if match.group(0).startswith(" ") else "") + word


def _phrase(match: re.Match[str]) -> str:
    found = match.group(1)
    new = PHRASES[found.lower()]
    return new[0].upper() + new[1:] if found[0].isupper() else new


def _on_lines(text: str, which: Callable[[str], bool], rule: Callable[[str], str]) -> str:
    return "".join(rule(line) if which(line) else line for line in text.splitlines(True))


def python_prose(text: str, rule: Callable[[str], str]) -> str:
    """`rule` applied to comments and triple-quoted strings (docstrings) only: a message shown
    to a person keeps its words."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    lines = text.splitlines(True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits = []
    for token in tokens:
        is_doc = token.type == tokenize.STRING and token.string.lstrip("rbuRBU").startswith(
            ('"""', "'''")
        )
        if token.type == tokenize.COMMENT or is_doc:
            start = offsets[token.start[0] - 1] + token.start[1]
            end = offsets[token.end[0] - 1] + token.end[1]
            edits.append((start, end, rule(token.string)))
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text


# --- the run --------------------------------------------------------------------------------------


def rename(root: Path, *, dry_run: bool = False) -> list[str]:
    """Moves and rewrites under `root`; returns what it did, one line each."""
    log: list[str] = []
    if not dry_run:
        move_all(root, log)
    rules = Rules(root)
    changed = []
    for path in text_files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = rules.apply(path, text)
        if new != text:
            changed.append(path)
            log.append(f"edited {path.relative_to(root).as_posix()}")
            if not dry_run:
                path.write_text(new, encoding="utf-8")
    if changed and not dry_run:
        log += tidy(root, [p for p in changed if p.suffix == ".py"])
    return log + bare_namespaces(root)


def bare_namespaces(root: Path) -> list[str]:
    """Lines that compare a namespace with an old one as a bare word (`namespace == "public"`):
    a word that means other things too, so a person looks (read the room's `app_name`)."""
    old = "|".join(NAMESPACES)
    said = re.compile(rf"""namespace.*["']({old})["']|["']({old})["'].*namespace""")
    found = []
    for path in text_files(root):
        if path.suffix != ".py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if said.search(line):
                found.append(f"check by hand: {path.relative_to(root).as_posix()}:{number}")
    return found


def tidy(root: Path, paths: list[Path]) -> list[str]:
    """Prose lines that grew past WIDTH re-wrapped, imports re-sorted and code formatted where
    names changed length; any line still too long listed for a person to shorten."""
    for path in paths:
        text = path.read_text(encoding="utf-8")
        wrapped = rewrap(text)
        if wrapped != text:
            path.write_text(wrapped, encoding="utf-8")
    ruff = root / ".venv" / "bin" / "ruff"
    if not paths or not ruff.exists():
        return []
    names = [str(p) for p in paths]
    subprocess.run([ruff, "check", "--fix", "--select", "I001,RUF022", "-q", *names], cwd=root)
    subprocess.run([ruff, "format", "-q", *names], cwd=root)
    left = subprocess.run(
        [ruff, "check", "--select", "E501", "--output-format", "concise", "-q", *names],
        cwd=root,
        capture_output=True,
        text=True,
    )
    return [f"too long, shorten by hand: {line}" for line in left.stdout.splitlines() if line]


WIDTH = 100
QUOTES = ('"""', "'''")


def rewrap(text: str) -> str:
    """Each comment or docstring line over WIDTH gives its last words to the next line of its
    paragraph (a new line where the paragraph ends), and so on down: the rename lengthened it."""
    lines = text.split("\n")
    prose = _prose_lines(text)
    number = 0
    while number < len(lines):
        line = lines[number]
        if len(line) > WIDTH and number in prose:
            cut = line.rfind(" ", 0, WIDTH + 1)
            head, tail = line[:cut].rstrip(), line[cut + 1 :]
            if cut > len(line) - len(line.lstrip()) + 4 and tail:
                lines[number] = head
                _carry(lines, prose, number, tail)
        number += 1
    return "\n".join(lines)


def _carry(lines: list[str], prose: set[int], number: int, tail: str) -> None:
    """`tail` put at the start of the paragraph's next line, or on a line of its own."""
    line = lines[number]
    indent = line[: len(line) - len(line.lstrip())]
    comment = line.lstrip().startswith("#")
    lead = indent + ("# " if comment else "")
    below = lines[number + 1] if number + 1 < len(lines) else ""
    goes_on = (
        number + 1 in prose
        and below.startswith(lead)
        and below.strip() not in ("", "#", *QUOTES)
        and not below[len(lead) :].startswith((" ", "- ", "* ", *QUOTES))
        and comment == below.lstrip().startswith("#")
    )
    if goes_on:
        lines[number + 1] = lead + tail + " " + below[len(lead) :]
        return
    lines.insert(number + 1, lead + tail)
    moved = {index + 1 if index > number else index for index in prose}
    prose.clear()
    prose.update(moved | {number + 1})


def _prose_lines(text: str) -> set[int]:
    """The (0-based) numbers of the lines that are comments or inside a triple-quoted string."""
    found: set[int] = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return found
    for token in tokens:
        if token.type == tokenize.COMMENT and token.line.lstrip().startswith("#"):
            found.add(token.start[0] - 1)
        elif token.type == tokenize.STRING and token.string.lstrip("rbuRBU")[:3] in QUOTES:
            found |= set(range(token.start[0] - 1, token.end[0]))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--dry-run", action="store_true", help="list the files it would edit")
    args = parser.parse_args(argv)
    log = rename(args.root.resolve(), dry_run=args.dry_run)
    print("\n".join(log) if log else "rename_names: nothing to rename")
    return 0


if __name__ == "__main__":
    sys.exit(main())
