"""The audit report of event-log.md: one verdict per log file.

An audit is a full checking replay of one file; the report lists every finding (errors
and warnings) in line order and the outcome the rules give for every round that ended,
whatever the log claimed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from events.findings import Code, Finding, ReplayError
from events.logfile import UnreadableLog
from events.replay import Replay, Source, log_lines
from events.state import Outcome

Status = Literal["clean", "violations", "unreadable"]
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


class AuditReport(BaseModel):
    """One line of ``saboteur audit --json``."""

    model_config = ConfigDict(frozen=True)

    file: str
    game_id: str | None
    status: Status
    violations: list[dict[str, Any]]
    rounds: list[dict[str, Any]]


class Audit:
    """The result of auditing one log, with the findings as objects."""

    def __init__(
        self, file: str, game_id: str | None, findings: list[Finding], outcomes: list[Outcome], unreadable: bool
    ) -> None:
        self.file = file
        self.game_id = game_id
        self.findings = sorted(findings, key=lambda f: f.line)
        self.outcomes = outcomes
        self.unreadable = unreadable

    @property
    def status(self) -> Status:
        if self.unreadable:
            return "unreadable"
        if any(f.severity == "error" for f in self.findings):
            return "violations"
        return "clean"

    def report(self) -> AuditReport:
        return AuditReport(
            file=self.file,
            game_id=self.game_id,
            status=self.status,
            violations=[f.as_report() for f in self.findings],
            rounds=[o.as_report() for o in self.outcomes],
        )


def audit(source: Source, *, name: str = "", strict: bool = False) -> Audit:
    """Replay a log under every rule and collect its verdict. Never raises for bad
    input: an unreadable log is an :class:`Audit` with status ``unreadable``."""
    engine = Replay(strict=strict)
    try:
        for log_line in log_lines(source):
            engine.feed(log_line)
        if engine.state.game is None:
            raise UnreadableLog("empty log: a log starts with a game_started line")
        engine.finish()
    except UnreadableLog as exc:
        finding = Finding(Code.MALFORMED, exc.line, exc.message)
        return Audit(name, None, [finding], [], unreadable=True)
    except ReplayError:
        pass  # strict: the finding that stopped the replay is already collected
    game = engine.state.game
    return Audit(name, game.game_id if game else None, engine.findings, engine.state.outcomes, unreadable=False)


def audit_file(path: Path, *, strict: bool = False) -> Audit:
    """Audit one file (``.jsonl`` or ``.jsonl.gz``)."""
    return audit(path, name=str(path), strict=strict)


def log_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files named, and every ``*.jsonl`` / ``*.jsonl.gz`` under the folders named,
    in a stable order. A path that does not exist is passed on (its audit says so)."""
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(LOG_SUFFIXES))
            yield from found
        else:
            yield path
