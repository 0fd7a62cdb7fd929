"""What every uploaded file becomes before its kind matters: the :class:`Prepared` the
writer takes, its kind by name, a name safe to show, and the verdict of a file refused
whole."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from events.findings import Code, Finding
from events.logfile import UnreadableLog
from events.said import Said, say, sentence
from events.shown import safe_name as safe_name
from ingest.kinds import kind_of as kind_of
from ingest.limits import MAX_UPLOAD_MIB
from ingest.readmodels import FindingRow, Tables
from ingest.store import NewEvent


@dataclass
class Prepared:
    """One audited file, ready for the writer."""

    name: str
    sha256: str
    size: int
    raw: bytes
    kind: str
    status: str
    report: str
    game_ids: list[str] = field(default_factory=list)
    streams: Mapping[str, Sequence[NewEvent]] = field(default_factory=dict)
    rows: Tables = field(default_factory=dict)
    """Its read-model rows, as columns (a row object each would cost the writer more)."""
    errors: int = 0
    message: str = ""
    said: Said | None = None
    """``message`` as a sentence, for another language (:mod:`events.said`)."""


def report_json(name: str, status: str, findings: Iterable[Finding], **extra: Any) -> str:
    """A file's audit report, as ``saboteur audit --json`` writes a log's: its findings
    and their counts (every one is listed: a score sheet or a refused file has few)."""
    listed = list(findings)
    return json.dumps(
        {"file": name, "status": status, **extra, **counted(listed), "violations": [f.as_report() for f in listed]},
        ensure_ascii=False,
    )


def counted(findings: Sequence[Finding]) -> dict[str, object]:
    """``errors``, ``warnings`` and ``counts`` (by code) of findings all listed."""
    codes: dict[str, int] = {}
    for finding in findings:
        codes[finding.code.value] = codes.get(finding.code.value, 0) + 1
    errors = sum(finding.severity == "error" for finding in findings)
    return {"errors": errors, "warnings": len(findings) - errors, "counts": dict(sorted(codes.items()))}


def with_sentences(violations: Iterable[dict[str, Any]], rows: Tables) -> list[dict[str, Any]]:
    """A report's findings, each with its sentence as the store keeps it (``said``,
    :func:`events.said.stored`, from the file's ``findings`` rows), so that a page can
    say it in its reader's language; a finding with no row (a file refused whole: it
    has none) keeps its English message alone."""
    found = rows.get(FindingRow.TABLE)
    if found is None or "said" not in found:
        return list(violations)
    where = zip(found.values("line"), found.values("code"), found.values("message"), strict=True)
    sentence = dict(zip(where, found.values("said"), strict=True))
    return [
        {**violation, "said": sentence.get((violation.get("line"), violation.get("code"), violation.get("message")))}
        for violation in violations
    ]


def too_large(size: int) -> UnreadableLog:
    said = say("%(size)s bytes: more than %(limit)s MiB, the limit of an upload", size=size, limit=MAX_UPLOAD_MIB)
    return UnreadableLog(said)


UNHANDLED: Final = sentence("could not be handled (%(problem)s); nothing of it was stored")
"""A file the ingest's caller could not hand to it (the dashboard's upload: the kind of error only)."""
_UNFORESEEN: Final = {
    "audit": sentence("the audit of this file failed unexpectedly (%(error)s); details are logged"),
    "storing": sentence("the storing of this file failed unexpectedly (%(error)s); details are logged"),
}


def unforeseen(exc: BaseException, step: str) -> UnreadableLog:
    """What a file's verdict says when its ``step`` failed in a way nobody foresaw: the
    kind of error only (its details, which may name server paths, go to the log)."""
    said = say(_UNFORESEEN.get(step, _UNFORESEEN["audit"]), error=type(exc).__name__)
    return UnreadableLog(said)


def unreadable(name: str, kind: str, exc: UnreadableLog, *, size: int, raw: bytes = b"", sha: str = "") -> Prepared:
    """A file refused whole: its ``malformed`` finding, and its bytes if they were read."""
    finding = Finding(Code.MALFORMED, exc.line, exc.message, said=exc.said)
    report = report_json(name, "unreadable", [finding], game_id=None, rounds=[])
    return Prepared(name, sha, size, raw, kind, "unreadable", report, errors=1, message=exc.message, said=exc.said)
