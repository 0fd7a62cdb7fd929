"""The audit report of event-log.md: one verdict per log file.

An audit is a full checking replay of one file; the report lists every finding (errors
and warnings) in line order and the outcome the rules give for every round that ended,
whatever the log claimed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from events.findings import Code, Finding, ReplayError, Tally, Unlisted
from events.folders import walk as walk_folder
from events.logfile import UnreadableLog, parse_structs_block
from events.replay import Replay, Source
from events.said import say
from events.shown import safe_name
from events.state import Outcome
from events.visitor import ReplayVisitor, walk

Status = Literal["clean", "violations", "unreadable"]
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


class AuditReport(BaseModel):
    """One line of ``saboteur audit --json``."""

    model_config = ConfigDict(frozen=True)

    file: str
    game_id: str | None
    status: Status
    errors: int
    """Every finding of severity ``error``, listed or not."""
    warnings: int
    counts: dict[str, int]
    """Every finding by code, listed or not: ``violations`` lists the first 1,000 of each
    code and one ``more_findings`` for the rest (event-log.md, "Violations")."""
    violations: list[dict[str, Any]]
    rounds: list[dict[str, Any]]


class Audit:
    """The result of auditing one log, with the findings as objects.

    ``findings`` are those listed, in line order: every finding, unless a code had
    more than :data:`~events.findings.MAX_LISTED`; then ``unlisted`` counts the rest.
    ``errors`` (by round in ``errors_by_round``) and ``warnings`` count them all.
    """

    def __init__(
        self,
        file: str,
        game_id: str | None,
        tally: Tally,
        outcomes: list[Outcome],
        unreadable: bool,
        unscored: int = 0,
    ) -> None:
        self.file = file
        self.game_id = game_id
        self.findings = sorted(tally.listed, key=lambda f: f.line)
        self.unlisted = tally.unlisted
        self.errors_by_round = tally.errors
        self.counts = tally.counts
        self.errors = tally.errors.total()
        self.warnings = tally.warnings
        self.outcomes = outcomes
        self.unreadable = unreadable
        self.rounds_over = len(outcomes) + unscored
        """The rounds played to their end, with those nothing in the log scores
        (:attr:`~events.state.GameState.unscored`), which ``outcomes`` leave out."""

    @property
    def status(self) -> Status:
        if self.unreadable:
            return "unreadable"
        if self.errors:
            return "violations"
        return "clean"

    def listed(self) -> list[Finding | Unlisted]:
        """What the report lists, in line order: the findings, and ``more_findings`` at
        the line where the unlisted ones begin, after the findings of that line (it
        came last, after findings hundreds of lines below it)."""
        if self.unlisted is None:
            return list(self.findings)
        cut = bisect_right([f.line for f in self.findings], self.unlisted.line)
        return [*self.findings[:cut], self.unlisted, *self.findings[cut:]]

    def report(self) -> AuditReport:
        violations = [f.as_report() for f in self.listed()]
        return AuditReport(
            file=self.file,
            game_id=self.game_id,
            status=self.status,
            errors=self.errors,
            warnings=self.warnings,
            counts=self.counts,
            violations=violations,
            rounds=[o.as_report() for o in self.outcomes],
        )


class Auditor(ReplayVisitor[Audit]):
    """The audit as a visitor of :func:`~events.visitor.walk`: the verdict of the walk's
    checking replay, whatever else rides on the same walk. The one maker of an
    :class:`Audit`: ``saboteur audit`` and the ingest judge a log through it alike."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._replay: Replay | None = None
        self._unreadable: UnreadableLog | None = None

    def begin_game(self, replay: Replay) -> None:
        self._replay = replay

    def handle_error(self, error: UnreadableLog | ReplayError) -> None:
        """An unreadable log is a verdict; so is a strict replay's first error, which is
        already among the findings."""
        if isinstance(error, UnreadableLog):
            self._unreadable = error

    def result(self) -> Audit:
        error = self._unreadable
        if error is not None:
            tally = Tally()
            tally.append(Finding(Code.MALFORMED, error.line, error.message, said=error.said))
            return Audit(self.name, None, tally, [], unreadable=True)
        replay = self._replay
        assert replay is not None and replay.state.game is not None, "walk the log first"
        state, game = replay.state, replay.state.game
        return Audit(self.name, game.game_id, replay.findings, state.outcomes, False, state.unscored)


def audit(source: Source, *, name: str = "", strict: bool = False) -> Audit:
    """Replay a log under every rule and collect its verdict. Never raises for bad
    input: an unreadable log is an :class:`Audit` with status ``unreadable``. The lines
    are read as msgspec Structs (``events.structs``): the verdict reads no event."""
    auditor = Auditor(name)
    walk(source, auditor, strict=strict, block_parser=parse_structs_block)
    return auditor.result()


def audit_file(path: Path, *, strict: bool = False) -> Audit:
    """Audit one file (``.jsonl`` or ``.jsonl.gz``), named in its report as a name
    safe to show (:func:`events.shown.safe_name`: a name's bytes that are not UTF-8
    made the report's JSON line invalid UTF-8). A file named otherwise is no log
    (event-log.md: a log is ``.jsonl``, or ``.jsonl.gz``), unreadable at line 1 whatever
    it holds, as ``saboteur ingest`` refuses it: a ``game.txt`` was clean to the audit
    and refused by the ingest."""
    name = safe_name(str(path))
    # a folder or a missing file: its audit says why; /dev/stdin (or /dev/fd/N) given a
    # log by the shell is a link to the log, whose name is the one that counts
    if not _is_log(path.name) and path.is_file() and not _is_log(path.resolve().name):
        auditor = Auditor(name)
        said = say("not a game log: a log's file name ends in .jsonl or .jsonl.gz")
        auditor.handle_error(UnreadableLog(said, 1))
        return auditor.result()
    return audit(path, name=name, strict=strict)


def log_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files named, and every ``*.jsonl`` / ``*.jsonl.gz`` under the folders named,
    in a stable order. A path that does not exist is passed on (its audit says so), and
    so is a folder that cannot be read (:func:`events.folders.walk`)."""
    for path in paths:
        if path.is_dir():
            yield from map(Path, walk_folder(path, _is_log))
        else:
            yield path


def _is_log(name: str) -> bool:
    return name.lower().endswith(LOG_SUFFIXES)
