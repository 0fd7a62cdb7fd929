"""Shared helpers: audit a builder's log and pick out findings by code."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from events.audit import Audit, audit
from events.builder import LogBuilder
from events.findings import Finding


def run(log: LogBuilder | Sequence[str]) -> Audit:
    """Audit the lines a builder wrote (or any list of lines)."""
    lines = log.lines if isinstance(log, LogBuilder) else list(log)
    return audit(lines, name="test.jsonl")


def errors(log: LogBuilder | Sequence[str]) -> list[Finding]:
    """The error findings of a log (warnings such as ``incomplete`` left out)."""
    return [f for f in run(log).findings if f.severity == "error"]


def codes(log: LogBuilder | Sequence[str]) -> list[tuple[str, int]]:
    """``(code, line)`` of every error finding, in line order."""
    return [(f.code.value, f.line) for f in errors(log)]


def rules_of(log: LogBuilder | Sequence[str]) -> list[str]:
    """The rule of every error finding, in line order."""
    return [f.rule for f in errors(log)]


def spied(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[tuple[Any, ...]]:
    """Every call of ``owner.name`` from now on, its arguments in order (the call still
    runs): how a test sees that a comparison went through ``hmac.compare_digest``."""
    calls: list[tuple[Any, ...]] = []
    original = getattr(owner, name)

    def spy(*args: Any) -> Any:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(owner, name, spy)
    return calls


@pytest.fixture
def six() -> LogBuilder:
    """A tournament game at a table of six: ann, bob, cem, dia, eve, fay."""
    return LogBuilder(players=6, ruleset="tournament")
