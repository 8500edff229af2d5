"""RULES.md and the code agree: every rule the code cites is written down, and every rule
written down is tested."""

import re
from pathlib import Path

import games.parcellus

PACKAGE = Path(games.parcellus.__file__).parent
TESTS = Path(__file__).parent
RULE = re.compile(r"\bPA\d+(?:\.\d+)?\b")
TEST_NAME = re.compile(r"\bdef (test_\w+)")
NAME_RULE = re.compile(r"(?<=_)pa(\d+)_(\d+)(?=_)")  # test_pa3_1_pa3_4_... cites PA3.1 and PA3.4


def rules_in(paths):
    return {rule for path in paths for rule in RULE.findall(path.read_text())}


def rules_in_test_names(paths):
    names = [name for path in paths for name in TEST_NAME.findall(path.read_text())]
    return {f"PA{a}.{b}" for name in names for a, b in NAME_RULE.findall(name)}


def written():
    return set(re.findall(r"^- (PA\d+\.\d+) ", (PACKAGE / "RULES.md").read_text(), re.M))


def test_rules_md_numbers_its_rules_in_order():
    numbers = re.findall(r"^- PA(\d+)\.(\d+) ", (PACKAGE / "RULES.md").read_text(), re.M)
    pairs = [(int(a), int(b)) for a, b in numbers]
    assert pairs == sorted(pairs) and len(pairs) == len(set(pairs)) == 34


def test_every_rule_the_code_cites_is_in_rules_md():
    cited = rules_in(PACKAGE.glob("*.py"))
    sections = {rule.split(".")[0] for rule in written()}
    assert cited <= written() | sections


def test_every_rule_in_rules_md_is_cited_by_a_test():
    tests = list(TESTS.glob("test_*.py"))
    tested = rules_in(tests) | rules_in_test_names(tests)
    assert written() - tested == set()
