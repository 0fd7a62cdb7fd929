"""What an uploaded file becomes: its audit, its events and its read-model rows.

:func:`prepare` runs in a worker process, away from the store: it reads one file
(bounded), audits it, and returns everything the writer needs — the raw bytes, the
report, the events per stream and the rows. The same projection functions rebuild the
read models from stored events, so both paths give the same rows.

The package is split by stream kind: :mod:`.logs`, :mod:`.sheets`, :mod:`.tournaments`,
with what they share in :mod:`.files`.

Kinds: ``.jsonl``/``.jsonl.gz`` game logs, ``.csv`` score sheets, ``.json`` tournament
descriptions (as ``saboteur simulate tournament`` writes them).
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

from events.findings import Code, Finding
from events.folders import cannot_read
from events.logfile import UnreadableLog, open_regular
from events.said import say
from ingest.limits import MAX_UPLOAD_BYTES
from ingest.readmodels import Rows
from ingest.sources.files import Prepared, kind_of, report_json, safe_name, too_large, unforeseen, unreadable
from ingest.sources.logs import UNPARSED, LogEvents, prepare_log, read_stored, stored_lines, stored_texts
from ingest.sources.sheets import prepare_sheet, project_sheet_game
from ingest.sources.tournaments import prepare_tournament, project_tournament

_LOGGER = logging.getLogger(__name__)

__all__ = [
    "UNPARSED",
    "LogEvents",
    "Prepared",
    "Rows",
    "kind_of",
    "prepare",
    "prepare_bytes",
    "prepare_log",
    "prepare_sheet",
    "prepare_tournament",
    "project_sheet_game",
    "project_tournament",
    "read_stored",
    "safe_name",
    "stored_lines",
    "stored_texts",
    "unforeseen",
]


def prepare(path: Path) -> Prepared:
    """Read and audit one file (in a worker); never raises for bad input.

    The file is opened as :func:`~events.logfile.open_regular` opens a log (a FIFO or a
    device is refused at once, not waited on; a symbolic link is not followed) and
    measured before it is read: one over the upload limit is refused with its true
    size, unread."""
    name = safe_name(str(path))
    try:
        # a link is not followed: one under a folder could hand the store (which keeps
        # every file received, for good) a file from anywhere, /etc/shadow included
        with open_regular(path, follow_links=False) as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > MAX_UPLOAD_BYTES:
                return unreadable(name, kind_of(name), too_large(size), size=size)
            raw = stream.read(MAX_UPLOAD_BYTES + 1)  # one byte more shows a file that grew
    except OSError as exc:
        said = cannot_read(path, exc)
        finding = Finding(Code.MALFORMED, 1, said.english(), said=said)
        return Prepared(
            name,
            "",
            0,
            b"",
            kind_of(name),
            "unreadable",
            report_json(name, "unreadable", [finding]),
            message=finding.message,
            said=finding.said,
        )
    return prepare_bytes(name, raw)


def prepare_bytes(name: str, raw: bytes) -> Prepared:
    """Audit bytes received under ``name`` (the dashboard's uploads come this way); bytes
    over the upload limit are refused, and not kept."""
    name = safe_name(name)
    kind = kind_of(name)
    if len(raw) > MAX_UPLOAD_BYTES:
        return unreadable(name, kind, too_large(len(raw)), size=len(raw))
    sha = hashlib.sha256(raw).hexdigest()
    try:
        if kind == "log":
            return prepare_log(name, raw, sha)
        if kind == "score_sheet":
            return prepare_sheet(name, raw, sha)
        if kind == "tournament":
            return prepare_tournament(name, raw, sha)
        raise UnreadableLog(say("not a game log (.jsonl, .jsonl.gz), score sheet (.csv) or tournament file (.json)"))
    except UnreadableLog as exc:
        return unreadable(name, kind, exc, size=len(raw), raw=raw, sha=sha)
    except Exception as exc:  # one file's surprise is that file's rejection, not the run's end
        _LOGGER.exception("auditing %s failed unexpectedly", name)
        return unreadable(name, kind, unforeseen(exc, "audit"), size=len(raw), raw=raw, sha=sha)
