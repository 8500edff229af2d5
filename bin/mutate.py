#!/usr/bin/env python3
"""`make mutate`: mutation testing (mutmut) of the modules that decide the scores, one at a time.

For each module: mutmut makes its mutants (small slips: a sign flipped, a word of a reason
changed, a comparison turned round), runs against each the tests that reach its function (the
selection in pyproject.toml's [tool.mutmut]), and records whether a test failed (killed) or not
(survived). Then this prints the module's score and its surviving mutants, each with its diff.

    bin/mutate.py                      every module, every mutant (hours: run it overnight)
    bin/mutate.py scoring.standings    one module (its dotted name, or its path)
    bin/mutate.py --sample 10 ...      about one mutant in ten (those numbered ...3): a quick look
    bin/mutate.py --report             print the scores of what was run, run nothing

One process (`--max-children 1`): the machines are shared. Results are kept in mutants/ (a
whole-run leaves the mutants already judged alone; a module or a sample named runs again).
Not part of `make test`.
"""

import argparse
import json
import os
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = str(Path(sys.executable).parent / "mutmut")
MODULES = [
    "games/kalooki/scoring.py",
    "games/kalooki/checks.py",
    "games/hand_and_foot/scoring.py",
    "games/hand_and_foot/checks.py",
    "games/parcellus/scoring.py",
    "games/parcellus/checks.py",
    "scoring/standings.py",
    "scoring/services.py",
]
# mutmut's exit codes of a mutant's test run (mutmut.stats.status_by_exit_code).
KILLED = {1, 3}
SURVIVED = {0}
TIMEOUT = {24, -24, 36, 152, 255}
NO_TESTS = {5, 33}
SAMPLES = {10: "3", 5: "[38]", 2: "[13579]"}  # one in n: the mutants whose number ends so


def dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def chosen(names: list[str]) -> list[str]:
    if not names:
        return MODULES
    found = []
    for name in names:
        path = name if name.endswith(".py") else name.replace(".", "/") + ".py"
        if path not in MODULES:
            sys.exit(f"{name}: not one of the modules mutated ({', '.join(map(dotted, MODULES))})")
        found.append(path)
    return found


def pattern(path: str, sample: int | None) -> str:
    return f"{dotted(path)}.*" + (f"__mutmut_*{SAMPLES[sample]}" if sample else "")


def run(paths: list[str], sample: int | None, named: bool) -> int:
    """mutmut on the modules' mutants, in one run (the tests are collected and checked once);
    `named` (modules or a sample asked for): every one of them judged again, else only those
    not judged yet."""
    print(f"\n=== mutating {', '.join(map(dotted, paths))}: one process ===", flush=True)
    command = [MUTMUT, "run", "--max-children", "1"]
    if named:
        command += [pattern(path, sample) for path in paths]
    return subprocess.run(command, cwd=ROOT).returncode


def results(path: str, sample: int | None) -> dict[str, int | None]:
    meta = ROOT / "mutants" / f"{path}.meta"
    if not meta.exists():
        return {}
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    wanted = pattern(path, sample)
    return {name: code for name, code in codes.items() if fnmatch(name, wanted)}


def report(path: str, sample: int | None, show: bool) -> tuple[int, int]:
    codes = results(path, sample)
    judged = {name: code for name, code in codes.items() if code is not None}
    killed = [name for name, code in judged.items() if code in KILLED | TIMEOUT]
    survived = sorted(name for name, code in judged.items() if code in SURVIVED)
    untested = sorted(name for name, code in judged.items() if code in NO_TESTS)
    other = sorted(set(judged) - set(killed) - set(survived) - set(untested))
    score = 100 * len(killed) / len(judged) if judged else 0.0
    print(
        f"{dotted(path):32} {len(killed):5} killed of {len(judged):5} judged  {score:5.1f}%"
        f"  ({len(survived)} survived, {len(untested)} no test reaches, {len(other)} other;"
        f" {len(codes) - len(judged)} not run)"
    )
    for name in survived + untested + other:
        status = "survived" if name in survived else "no tests" if name in untested else "other"
        print(f"    {status:9} {name}")
        if show:
            diff = subprocess.run([MUTMUT, "show", name], cwd=ROOT, capture_output=True, text=True)
            lines = [line for line in diff.stdout.splitlines() if line[:1] in "+-"][2:]
            print("\n".join(f"        {line}" for line in lines))
    return len(killed), len(judged)


def main() -> int:
    os.environ.setdefault("DEBUG", "1")  # the settings' development defaults, as `make test`
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="e.g. scoring.standings (default: all)")
    parser.add_argument("--sample", type=int, choices=sorted(SAMPLES), help="one mutant in n")
    parser.add_argument("--report", action="store_true", help="print the scores only")
    parser.add_argument("--no-diff", action="store_true", help="survivors' names only")
    args = parser.parse_args()
    modules = chosen(args.modules)
    named = bool(args.modules) or args.sample is not None
    if not args.report and run(modules, args.sample, named) != 0:
        print(
            "mutmut stopped before the end: the scores below are of what it judged", file=sys.stderr
        )
    print("\n=== mutation scores (killed / judged; a timeout counts as killed) ===")
    totals = [report(path, args.sample, show=not args.no_diff) for path in modules]
    killed, judged = sum(k for k, _ in totals), sum(j for _, j in totals)
    score = 100 * killed / max(judged, 1)
    print(f"{'all':32} {killed:5} killed of {judged:5} judged  {score:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
