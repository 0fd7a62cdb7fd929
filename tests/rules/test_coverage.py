"""Every rule the replay enforces has its tests: a legal and an illegal case each.

A test names its rule in its name (``test_r_p5_…``) or docstring (``R-P5``); this test
fails when a rule of :data:`events.rules.RULES` is named by no test at all, or by
tests that never assert a violation.
"""

from __future__ import annotations

import re
from pathlib import Path

from events.findings import Code
from events.rules import RULES

TESTS = Path(__file__).resolve().parent.parent


def _sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py") if p.name != "test_coverage.py")


def test_every_rule_is_named_by_tests() -> None:
    text = _sources()
    missing = [rule for rule in RULES if rule not in text and f"test_{rule.lower().replace('-', '_')}" not in text]
    assert not missing, f"rules with no test: {missing}"


def test_every_rule_has_a_legal_and_an_illegal_case() -> None:
    """Within the tests naming a rule, one expects no error and one expects a code."""
    text = _sources()
    functions = re.split(r"\n(?=def test_)", text)
    lacking = []
    for rule in RULES:
        slug = f"test_{rule.lower().replace('-', '_')}"
        mine = [f for f in functions if f.startswith(f"def {slug}") or (f.startswith("def test_") and rule in f)]
        illegal = any(any(code.value in f for code in Code) for f in mine)
        legal = any(
            marker in f
            for f in mine
            for marker in ("== []", "not errors(", '== "clean"', "clean(", "legal(", "assert not ")
        )
        if not (illegal and legal):
            lacking.append((rule, "legal" if not legal else "illegal"))
    assert not lacking, f"rules lacking a case: {lacking}"
