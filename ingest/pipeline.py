"""``saboteur ingest``: files in, audited in a process pool, written by one writer.

Workers read and audit files (:func:`ingest.sources.prepare`); the writer decides each
file's outcome against the store — a content already received is a *duplicate*, a game
already stored is *rejected* unless superseded, an unreadable file is *rejected* with
its bytes kept — and writes a batch of files in one transaction, in bulk. At most a
bounded window of files is in flight, so memory does not grow with their number. A
killed run leaves the store as it was before the batch being written; running the same
command again completes the job with nothing doubled (contents are recognised by hash).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ingest.sources import Prepared, prepare
from ingest.store import NewEvent, NewUpload, Store

SUFFIXES: Final = (".jsonl", ".jsonl.gz", ".csv", ".json")
BATCH_FILES: Final = 128
BATCH_EVENTS: Final = 150_000


@dataclass(frozen=True, slots=True)
class FileResult:
    """What became of one file."""

    name: str
    outcome: str  # accepted | accepted_with_findings | rejected | duplicate
    kind: str
    status: str
    game_ids: tuple[str, ...]
    upload_id: int
    errors: int
    message: str


def collect(paths: Iterable[Path]) -> list[Path]:
    """The files named and those under the folders named: tournament descriptions first
    (so a tournament exists before its games), then the rest in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(SUFFIXES)))
        else:
            found.append(path)
    return sorted(found, key=lambda p: (not p.name.lower().endswith(".json"), str(p)))


def _prepared(files: list[Path], workers: int) -> Iterator[Prepared]:
    """Audited files in order, at most ``4 × workers`` in flight."""
    if workers <= 1 or len(files) <= 1:
        for path in files:
            yield prepare(path)
        return
    window = 4 * workers
    with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent) as pool:
        pending: list[Future[Prepared]] = []
        queue = iter(files)
        for path in queue:
            pending.append(pool.submit(prepare, path))
            if len(pending) >= window:
                break
        while pending:
            done = pending.pop(0)
            nxt = next(queue, None)
            if nxt is not None:
                pending.append(pool.submit(prepare, nxt))
            yield done.result()


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the ingest that started it dies (a kill -9
    of the ingest must not leave its pool behind); elsewhere nothing happens."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the call above
            os._exit(1)
    except (OSError, AttributeError):
        pass


class Writer:
    """Decides outcomes and writes batches; one per ingest run."""

    def __init__(self, store: Store, *, supersede: bool = False, reason: str | None = None) -> None:
        self.store = store
        self.supersede = supersede
        self.reason = reason
        self.results: list[FileResult] = []

    def write(self, batch: list[Prepared]) -> list[FileResult]:
        if not batch:
            return []
        with self.store.connect() as con:
            known = self.store.known_uploads(con, [p.sha256 for p in batch if p.sha256])
            streams = sorted({s for p in batch for s in p.streams})
            versions = self.store.stream_versions(con, streams)
            superseded_before = dict(
                (str(s), int(n))
                for s, n in con.execute(
                    "SELECT stream, count(*) FROM events WHERE type = 'game_superseded' AND stream IN "
                    "(SELECT unnest(?::VARCHAR[])) GROUP BY stream",
                    [streams],
                ).fetchall()
            )
            uploads: list[NewUpload] = []
            seen_shas: dict[str, NewUpload] = {}
            claimed: dict[str, int] = {s: v for s, (v, _) in versions.items()}
            for prepared in batch:
                uploads.append(self._decide(prepared, known, seen_shas, claimed, versions, superseded_before))
            self.store.write(con, uploads)
        results = []
        for prepared, upload in zip(batch, uploads, strict=True):
            message = prepared.message or upload.reason or ""
            if upload.outcome == "duplicate":
                message = f"the same content as upload {upload.duplicate_of}" if upload.duplicate_of else "a duplicate"
            results.append(
                FileResult(
                    prepared.name,
                    upload.outcome,
                    prepared.kind,
                    prepared.status,
                    tuple(prepared.game_ids),
                    upload.upload_id,
                    prepared.errors,
                    message,
                )
            )
        self.results.extend(results)
        return results

    def _decide(
        self,
        prepared: Prepared,
        known: dict[str, tuple[int, str]],
        seen: dict[str, NewUpload],
        claimed: dict[str, int],
        versions: dict[str, tuple[int, int]],
        superseded_before: dict[str, int],
    ) -> NewUpload:
        base = NewUpload(
            sha256=prepared.sha256,
            name=prepared.name,
            size=prepared.size,
            kind=prepared.kind,
            outcome="rejected",
            status=prepared.status,
            report=prepared.report,
            raw=prepared.raw,
            game_ids=list(prepared.game_ids),
        )
        earlier = known.get(prepared.sha256)
        retry = earlier is not None and earlier[1] == "rejected" and self.supersede and prepared.status != "unreadable"
        if (earlier is not None and not retry) or prepared.sha256 in seen:
            base.outcome = "duplicate"
            base.raw = None
            base.duplicate_of = earlier[0] if earlier is not None else None
            return base
        if prepared.sha256:
            seen[prepared.sha256] = base
        if prepared.status == "unreadable":
            base.reason = prepared.message
            return base
        taken = [s for s in prepared.streams if s in claimed]
        if taken and not self.supersede:
            what = ", ".join(s.split(":", 1)[1] for s in taken)
            base.reason = f'{what} is already stored; to replace it, ingest again with --supersede --reason "…"'
            base.report = _with_reason(prepared.report, base.reason)
            return base
        if taken and not self.reason:
            base.reason = "--supersede needs a --reason"
            return base
        base.outcome = "accepted_with_findings" if prepared.status == "violations" else "accepted"
        base.rows = {table: [dict(row) for row in rows] for table, rows in prepared.rows.items()}
        for stream, events in prepared.streams.items():
            expected = claimed.get(stream, 0)
            appended = list(events)
            revision = 1
            if stream in claimed:
                revision = superseded_before.get(stream, 0) + 2
                superseded_before[stream] = revision - 1
                base.supersedes = versions[stream][1] if stream in versions else None
                base.reason = self.reason
                marker = {"game_id": stream.split(":", 1)[1], "reason": self.reason, "replaced_upload": base.supersedes}
                appended.insert(0, NewEvent(stream, f"{stream.split(':', 1)[0]}_superseded", json.dumps(marker)))
            base.expected_versions[stream] = expected
            base.events.extend(appended)
            base.replaces.append(stream)
            claimed[stream] = expected + len(appended)
            for row in base.rows.get("games", []):
                if f"game:{row['game_id']}" == stream:
                    row["revision"] = revision
        return base


def _with_reason(report: str, reason: str) -> str:
    data = json.loads(report)
    data["rejected"] = reason
    return json.dumps(data, ensure_ascii=False)


def ingest(
    paths: Iterable[Path],
    store: Store,
    *,
    supersede: bool = False,
    reason: str | None = None,
    workers: int | None = None,
    on_file: Callable[[FileResult], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> list[FileResult]:
    """Ingest every file under ``paths`` into ``store``; the result of each file."""
    files = collect(paths)
    if on_total is not None:
        on_total(len(files))
    count = workers if workers is not None else max(1, (os.cpu_count() or 1))
    return write_all(_prepared(files, count), Writer(store, supersede=supersede, reason=reason), on_file)


def write_all(
    prepared: Iterable[Prepared], writer: Writer, on_file: Callable[[FileResult], None] | None = None
) -> list[FileResult]:
    """Write audited files in batches of at most :data:`BATCH_FILES` files or
    :data:`BATCH_EVENTS` events, each batch one transaction; the results of the run.

    ``saboteur ingest`` feeds it files audited in a pool; the dashboard, files uploaded
    (:func:`ingest.sources.prepare_bytes`). ``prepared`` is read lazily, so only one
    batch is held at a time.
    """
    batch: list[Prepared] = []
    events = 0
    for item in prepared:
        batch.append(item)
        events += sum(len(e) for e in item.streams.values())
        if len(batch) >= BATCH_FILES or events >= BATCH_EVENTS:
            for result in writer.write(batch):
                if on_file is not None:
                    on_file(result)
            batch, events = [], 0
    for result in writer.write(batch):
        if on_file is not None:
            on_file(result)
    return writer.results
