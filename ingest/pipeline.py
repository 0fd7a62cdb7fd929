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
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Final

import duckdb

from events.findings import Code, Finding
from events.folders import walk
from events.logfile import MAX_FILE_BYTES, UnreadableLog
from events.said import Said, problem, say, stored
from ingest.differences import difference
from ingest.readmodels import GameRow, Tables, as_columns
from ingest.revisions import current, kept_records, marker, stood_on
from ingest.schema import UploadRow
from ingest.sources import LogEvents, Prepared, prepare, project_tournament, unforeseen
from ingest.sources.files import counted, with_sentences
from ingest.stats import IngestStats, lap
from ingest.store import (
    ROOM_FROM,
    ROW_GROUP,
    Append,
    Appending,
    NewEvent,
    RowsRefused,
    Store,
    StoreError,
    checkpoint_unmerged,
    interrupted,
    one_thread,
    room_for,
    settle,
    streaming,
)
from ingest.tables import ArrowColumns, TableColumns, arrow_columns, joined
from ingest.workers import process_pool, size_of, workers_for

_LOGGER = logging.getLogger(__name__)
SUFFIXES: Final = (".jsonl", ".jsonl.gz", ".csv", ".json")
BATCH_FILES: Final = 128
"""The files of a run's first batch: its results are stored (and seen by the dashboard)
soon."""
MOST_FILES: Final = 1024
"""The files of every later batch, at most: a batch is a transaction, and a checkpoint
when the store is closed after it, so a long run writes few, large batches (1,000
games in batches of 128 spent a fifth of their time in checkpoints); its events and
bytes bound it first."""
BATCH_EVENTS: Final = 2 * ROW_GROUP
"""A batch is written once its files hold this many events: two of DuckDB's row groups.
A transaction's rows that fill a row group are written straight into the file; the
rest go through the write-ahead log and are written again at the checkpoint (1,000
games written as batches of 128 → 1,024 files took half again as long as in one)."""
BATCH_BYTES: Final = 64 * 2**20
"""A batch is written once its files weigh this much (:func:`weight`), whatever their
number: a file of 64 MiB is refused with its bytes kept."""
RUN_FILES: Final = 128
"""The files the writer decides and appends at a time within a batch's transaction:
one query of the store for their contents and streams, and their rows in one insert
each, while the workers audit the files after them (a batch written only once all its
files were audited left the workers idle through its write, and the writer idle
through their audit)."""
FIRST_RUN_FILES: Final = 16
"""The files of the first run of an ingest's first batch: one task's (:data:`TASK_FILES`).
The writer is the one step of an ingest that cannot be shared, and it starts only once
that run is audited; the runs after it double up to :data:`RUN_FILES`. Later batches
find their files audited while the one before was written (and a lake's batches are
audited before they are written), so they start at :data:`RUN_FILES`: a run costs some
ten queries of its own."""
WRITER: Final = "writer, a batch in all"
"""The step of :class:`IngestStats` that holds every step of the writer's batches, the
waits for the workers' files among them (or, with no pool, their audit): the time beside
theirs is the store's opening and its closing (with a checkpoint, unless the batch made
one of its own: :func:`ingest.store.checkpoint_unmerged`)."""
TURN: Final = 0.25
"""Seconds the writer leaves the store closed after a batch when more files follow and a
job is waiting for the file (:meth:`ingest.store.Store.someone_waiting`): with the next
batch audited while one is written, it would otherwise open the file again at once, and
a dashboard page or another command waiting for it (trying again every 0.2 s at most:
:data:`ingest.store.OPEN_RETRY`) would wait for the whole run. Left after every batch,
the pause cost a run of 10,000 games 2.5 s of its serial step."""
WINDOW: Final = MOST_FILES
"""Files sent to the pool and not yet written, at most: a whole batch, so the workers
audit on while the writer stores a run, commits a batch and leaves the store its turn
(more are sent for as the writer takes each run; with a window of 64 files, the workers
stood idle through most of each write)."""
TASK_FILES: Final = 16
"""Files a worker audits in one task. The pool's feeder runs in a thread of the
writer's process and waits for its turn at the interpreter lock, which the writer holds
while it hashes and decides: sent one at a time, files left both workers idle between
them for a quarter of the run (1,000 games: 1.5 s of each worker's 5 s)."""
TASK_BYTES: Final = 2 * 2**20
"""A task's bytes on disk, at most (one file more), so a task of large logs is one
file or a few."""
IN_FLIGHT: Final = MAX_FILE_BYTES * 3 // 4
"""Files sent to the pool and not yet written may be this many bytes on disk (12 MiB)
before no more are sent for: some 480 simulated games, enough to keep every worker busy
through a write (1,000 games took 3.26–3.40 s with two workers, as at 24 MiB), but one
log of 12 MiB or more at a time, so a worker auditing such a log (some 110 MiB) and the
writer storing the one before never meet: four logs at the format's limit (16 MiB) took
the ingest to 456–516 MiB of RSS at 24 MiB in flight, two at a time (525–537 MiB at 32,
three at a time), and to 275 MiB here, audited one after another in the writer's own
process (:func:`in_flight_at_most` then starts no pool), in 16.8 s rather than 11.5."""


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
    said: Said | None = None
    """``message`` as a sentence, for another language (:mod:`events.said`)."""


def collect(paths: Iterable[Path]) -> list[Path]:
    """The files named and those under the folders named: tournament descriptions first
    (so a tournament exists before its games), then the rest in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            # every entry but a folder: a FIFO, a dangling link or a loop of links is
            # rejected with its reason, as it is when named, not passed over unsaid; and
            # so is a folder that cannot be read
            found.extend(map(Path, walk(path, _taken)))
        else:
            found.append(path)
    return sorted(found, key=lambda p: (not p.name.lower().endswith(".json"), str(p)))


def _taken(name: str) -> bool:
    return name.lower().endswith(SUFFIXES)


def _prepared(
    files: list[Path], pool: ProcessPoolExecutor | None, stats: IngestStats | None = None
) -> Iterator[Prepared]:
    """Audited files in order — by ``pool`` (``None``: in this process), sent to it a
    task of files at a time (:func:`_tasks`), with at most :data:`WINDOW` files in
    flight, and no more sent for while those in flight are :data:`IN_FLIGHT` bytes or
    more on disk."""
    if pool is None:
        for path in files:
            prepared, seconds = audited(path)
            if stats is not None:
                stats.add("audit (workers, summed)", seconds)
            yield prepared
        return
    pending: deque[tuple[Future[AuditedTask], int, int]] = deque()
    held = flying = 0
    tasks = _tasks(files)
    while True:
        while flying < WINDOW and held < IN_FLIGHT and (task := next(tasks, None)) is not None:
            paths, size = task
            pending.append((pool.submit(audited_all, paths), size, len(paths)))
            held += size
            flying += len(paths)
        if not pending:
            return
        future, size, count = pending.popleft()
        with lap(stats, "waiting for workers"):
            done = future.result()
        held -= size
        flying -= count
        for prepared, seconds in done.unpacked():
            if stats is not None:
                stats.add("audit (workers, summed)", seconds)
            yield prepared


def _tasks(files: Iterable[Path]) -> Iterator[tuple[list[Path], int]]:
    """Files as the pool's tasks, with their bytes on disk: :data:`TASK_FILES` files at
    most, or :data:`TASK_BYTES` (one file more, at most)."""
    task: list[Path] = []
    size = 0
    for path in files:
        task.append(path)
        size += _size(path)
        if len(task) >= TASK_FILES or size >= TASK_BYTES:
            yield task, size
            task, size = [], 0
    if task:
        yield task, size


def in_flight_at_most(files: Iterable[Path]) -> int:
    """The most tasks :func:`_prepared` can have sent to the pool at once for ``files``
    (a task is sent while those before it in flight are under :data:`WINDOW` files and
    :data:`IN_FLIGHT` bytes): workers past it would never be busy. Python's pool forks
    every worker at its first task, each a copy of the writer as it stands: four
    workers given four 16 MiB logs, fewer of them in flight at once, kept the rest idle
    at 70 MiB of RSS each."""
    tasks = [(len(paths), size) for paths, size in _tasks(files)]
    most = start = flying = held = 0
    for end, (count, size) in enumerate(tasks):
        # the fewest tasks before this one that may still be in flight when it is sent
        while start < end and not (flying < WINDOW and held < IN_FLIGHT):
            flying -= tasks[start][0]
            held -= tasks[start][1]
            start += 1
        flying += count
        held += size
        most = max(most, end - start + 1)
    return most


def audited_all(paths: list[Path]) -> AuditedTask:
    """A task's files audited (:func:`audited`), in order, their rows packed as one Arrow
    table per table (:class:`AuditedTask`)."""
    return AuditedTask.packed([audited(path) for path in paths])


@dataclass(frozen=True, slots=True)
class AuditedTask:
    """A worker's task of files audited, as it is sent to the writer: each file without
    its rows, with the seconds its audit took and its rows' count in each table, and
    the task's rows of each table as one Arrow table, in the files' order.

    The writer is an ingest's one serial step, and rows of plain values cost it their
    unpickling and their conversion into Arrow (:class:`~ingest.tables.ArrowColumns`);
    made into Arrow here, in the worker, a task's rows come as a few buffers, and each
    file gets its rows back as a slice of them (:meth:`unpacked`)."""

    files: list[tuple[Prepared, float]]
    counts: list[dict[str, int]]
    tables: dict[str, ArrowColumns]

    @classmethod
    def packed(cls, done: list[tuple[Prepared, float]]) -> AuditedTask:
        """``done``'s rows packed (the packing counted in the last file's seconds)."""
        started = time.perf_counter()
        parts: dict[str, list[TableColumns]] = {}
        counts: list[dict[str, int]] = []
        for prepared, _ in done:
            counts.append({table: len(columns) for table, columns in prepared.rows.items()})
            for table, columns in prepared.rows.items():
                parts.setdefault(table, []).append(columns)
        if not parts:
            return cls(done, counts, {})
        tables = {table: arrow_columns(columns) for table, columns in parts.items()}
        files = [(replace(prepared, rows={}), seconds) for prepared, seconds in done]
        files[-1] = (files[-1][0], files[-1][1] + time.perf_counter() - started)
        return cls(files, counts, tables)

    def unpacked(self) -> Iterator[tuple[Prepared, float]]:
        """Each file with its rows again, each table's a slice of the task's (no copy)."""
        offsets = dict.fromkeys(self.tables, 0)
        for (prepared, seconds), count in zip(self.files, self.counts, strict=True):
            if count:
                rows: Tables = {}
                for table, length in count.items():
                    rows[table] = self.tables[table].slice(offsets[table], length)
                    offsets[table] += length
                prepared = replace(prepared, rows=rows)
            yield prepared, seconds


def audited(path: Path) -> tuple[Prepared, float]:
    """A file read and audited (:func:`~ingest.sources.prepare`), with the seconds it took."""
    started = time.perf_counter()
    prepared = prepare(path)
    return prepared, time.perf_counter() - started


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def weight(prepared: Prepared) -> int:
    """About the bytes an audited file holds in memory: its raw bytes, and some 200
    bytes for each read-model row and each event it holds as an object (a log's
    events are made from its bytes only as they are appended: one byte a line)."""
    rows = sum(len(columns) for columns in prepared.rows.values())
    events = sum(len(e) * (1 if isinstance(e, LogEvents) else 200) for e in prepared.streams.values())
    return len(prepared.raw) + 200 * rows + events


@dataclass
class _Decided:
    """One file's upload row, with the appends and read-model rows it brings when
    accepted, and the revision each game it stores starts (the rows are stamped with
    the upload's id and those revisions as a run's rows are joined: :func:`_add`)."""

    upload: UploadRow
    appends: list[Append] = field(default_factory=list)
    rows: Tables = field(default_factory=dict)
    revisions: dict[str, int] = field(default_factory=dict)
    said: Said | None = None
    """The upload's ``reason`` as a sentence, for another language."""


class _Batch:
    """What the writer knows while it decides one batch: the store as read in the
    batch's transaction — each run's contents and streams read as the run comes
    (:meth:`learn`) —, and what the files before in the batch claimed."""

    def __init__(self, store: Store, con: duckdb.DuckDBPyConnection, appending: Appending) -> None:
        self.store = store
        self.con = con
        self.appending = appending
        self.received_at = datetime.now(UTC)
        self.known: dict[str, tuple[int, str]] = {}
        """Contents stored before the batch: sha → (upload id, outcome)."""
        self.newest: dict[str, int] = {}
        """Each stream's newest upload (0: only commands have written to it), as stored
        and as decided so far."""
        self.claimed: dict[str, int] = {}
        """Every stream's version once the files decided so far are appended."""
        self.next_upload = store.next_upload_id(con)
        self.seen: dict[str, int] = {}
        """Contents met in this batch: sha → the upload that brought them first."""
        self.rejected: set[str] = set()
        """The contents met in this batch whose file was rejected: another file of the
        same content is judged anew (:meth:`Writer._decide`), as it is in a later run."""
        self.revisions: dict[str, int] = {}
        """Streams superseded in this batch: the revision each is at."""

    def learn(self, run: Sequence[Prepared]) -> None:
        """Read what the store holds of a run's contents and streams, but those the
        batch has met already (which the batch's own decisions answer)."""
        shas = [p.sha256 for p in run if p.sha256 and p.sha256 not in self.seen and p.sha256 not in self.known]
        self.known |= self.store.known_uploads(self.con, shas)
        streams = sorted({s for p in run for s in p.streams if s not in self.claimed})
        for stream, (version, upload_id) in self.appending.versions(streams).items():
            self.claimed[stream] = version
            self.newest[stream] = upload_id

    def next_revision(self, stream: str) -> int:
        """The number of the revision a new version of ``stream`` starts: one past the
        revision it is at (:func:`ingest.revisions.current`, read the first time: in the
        batch's transaction, so a revision the batch appended counts)."""
        if stream not in self.revisions:
            self.revisions[stream] = current(self.store.stream(self.con, stream)).number
        self.revisions[stream] += 1
        return self.revisions[stream]


def already_stored(games: str, differing: Said | None = None) -> Said:
    """Why a file of ``games`` stored before is rejected, ``--supersede`` not given,
    with where it differs from the stored version when that is known
    (:func:`ingest.differences.difference`; a lake's build says it its own way:
    :func:`ingest.lake.batch.as_a_lake_says`)."""
    if differing is None:
        return say(
            '%(games)s is already stored; to replace it, ingest again with --supersede --reason "…"', games=games
        )
    return say(
        "%(games)s is already stored, and this file differs from the stored version %(difference)s; "
        'to replace it, ingest again with --supersede --reason "…"',
        games=games,
        difference=(differing,),
    )


def grown_sheet(games: str, fresh: list[str]) -> Said:
    """Why a score sheet holding games stored before and games not stored yet (a sheet
    kept through the day, exported again after each round) is rejected: it is stored
    whole, as one upload, so the new games come in a sheet of their own. Told where it
    differs from the stored sheet, the organiser read "first at line 20": the first row
    of a new game, as if the stored one had changed."""
    return say(
        "%(games)s is already stored, and this sheet also holds %(fresh)s, not stored yet: a sheet is stored whole, "
        "so put the new games in a sheet of their own",
        games=games,
        fresh=tuple(fresh),
    )


def is_already_stored(said: Said | None) -> bool:
    """Whether ``said`` is :func:`already_stored`'s sentence (said otherwise where
    ``--supersede`` is not how to replace a game)."""
    return said is not None and said.text in {already_stored("").text, already_stored("", problem("")).text}


class Writer:
    """Decides outcomes and writes batches; one per ingest run.

    Every decision is the writer's — each upload's id and outcome, the original a
    duplicate repeats, the revision a game stored anew starts, the rows' upload id —
    and the store appends what it is given, at the versions the writer read.
    """

    def __init__(
        self, store: Store, *, supersede: bool = False, reason: str | None = None, stats: IngestStats | None = None
    ) -> None:
        self.store = store
        self.supersede = supersede
        self.reason = reason
        self.stats = stats
        self.results: list[FileResult] = []
        self.unmerged = False
        """Whether a batch of this run left its row groups unmerged (:func:`settle`)."""

    def write(self, batch: Iterable[Prepared], *, first_run: int = RUN_FILES) -> list[FileResult]:
        """Write a batch of files in one transaction, a run of files at a time as they
        come — ``first_run`` files, then twice as many each run up to :data:`RUN_FILES`
        (``batch`` is read lazily: while one run is stored, the workers audit the
        next); the results of its files, once it is committed."""
        taken: list[Prepared] = []
        decided: list[_Decided] = []
        with lap(self.stats, WRITER):  # the wait for the first run too: the writer's whole part
            runs = _runs(iter(batch), first_run)
            run = next(runs, None)
            if run is None:
                return []
            with self.store.connect() as con, one_thread(con):
                streaming(con)
                roomy = False  # DuckDB's ceiling raised for a large file (room_for)
                with self.store.appending(con, keep=False, stats=self.stats) as appending:
                    state = _Batch(self.store, con, appending)
                    while run is not None:
                        roomy = room_for(con, max(len(p.raw) for p in run)) or roomy
                        decided.extend(self._append_run(run, state, appending))
                        taken.extend(run)
                        run = next(runs, None)
                if roomy:  # stored now, while there is room: not left to the next write's checkpoint
                    con.execute("CHECKPOINT")
                    streaming(con)
                elif appending.appended >= ROW_GROUP:  # its row groups left as written
                    with lap(self.stats, "checkpoint (no vacuum)"):
                        checkpoint_unmerged(con)
                    self.unmerged = True
        results = []
        for prepared, decision in zip(taken, decided, strict=True):
            upload = decision.upload
            said = prepared.said if prepared.message else decision.said
            message = prepared.message or (said.english() if said is not None else upload.reason or "")
            if upload.outcome == "duplicate":
                said = (
                    say("the same content as upload %(upload)s", upload=str(upload.duplicate_of))
                    if upload.duplicate_of
                    else say("a duplicate")
                )
                message = said.english()
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
                    said,
                )
            )
        self.results.extend(results)
        return results

    def settle(self) -> None:
        """At the run's end, merge the part-full row groups its batches left unmerged
        (:func:`ingest.store.settle`), as part of the run that left them. Left to the next
        write, they were merged by whoever wrote next — the one game an organiser
        uploads, or a phone's entry — at 0.7 s after 10,000 games, as long as that one
        game's whole ingest (``benchmarks/incremental.py``)."""
        if not self.unmerged:
            return
        with lap(self.stats, "checkpoints merging the row groups"), self.store.connect() as con:
            settle(con)
        self.unmerged = False

    def _append_run(self, run: list[Prepared], state: _Batch, appending: Appending) -> list[_Decided]:
        """Decide a run's files and append them: in one go, unless a file stores anew a
        game a file before it in the run stores (the run so far is appended first, so
        the game's revision and rows are those of the files before)."""
        with lap(self.stats, "decide"):
            state.learn(run)
        decided: list[_Decided] = []
        decisions: list[_Decided] = []
        appended: set[str] = set()
        for prepared in run:
            if not appended.isdisjoint(prepared.streams):
                _add(appending, decisions)
                decisions, appended = [], set()
            with lap(self.stats, "decide"):
                decision = self._decide(prepared, state)
            if decision.upload.outcome == "rejected" and prepared.sha256:
                state.rejected.add(prepared.sha256)
            elif decision.upload.outcome != "duplicate":
                state.rejected.discard(prepared.sha256)
            decisions.append(decision)
            appended.update(a.stream for a in decision.appends)
            decided.append(decision)
        _add(appending, decisions)
        return decided

    @staticmethod
    def _difference(batch: _Batch, stream: str, prepared: Prepared) -> Said | None:
        """Where ``prepared`` differs from the version of ``stream`` stored (``None``:
        its file is not at hand, as in a lake's batch, or a command wrote it)."""
        newest = batch.newest.get(stream)
        stored = batch.store.upload_file(batch.con, newest) if newest else None
        if stored is None:
            return None
        return difference(stored, (prepared.name, prepared.raw), prepared.kind)

    def _decide(self, prepared: Prepared, batch: _Batch) -> _Decided:
        """The outcome of one file: a duplicate, rejected, or accepted with its events
        appended at the versions claimed so far (a game stored before gets a marker
        starting its new revision)."""
        upload_id = batch.next_upload
        batch.next_upload += 1

        def upload(
            outcome: str,
            *,
            reason: str | None = None,
            report: str = prepared.report,
            raw: bytes | None = prepared.raw,
            duplicate_of: int | None = None,
            supersedes: int | None = None,
        ) -> UploadRow:
            return UploadRow(
                upload_id=upload_id,
                sha256=prepared.sha256,
                name=prepared.name,
                size=prepared.size,
                received_at=batch.received_at,
                kind=prepared.kind,
                outcome=outcome,
                status=prepared.status,
                game_ids=list(prepared.game_ids),
                duplicate_of=duplicate_of,
                supersedes=supersedes,
                reason=reason,
                report=report,
                raw=raw,
            )

        earlier = batch.known.get(prepared.sha256)
        # Judged anew, not a duplicate: a content rejected before (rejected again for
        # the same reason, or taken now that it may be: it was counted a duplicate, and
        # exit 0 told a retrying script it was stored); and, with --supersede, an earlier
        # version of a game that a later one replaced (it becomes the game's version
        # again: "a duplicate" left the later one standing and said nothing).
        replaced = (
            earlier is not None
            and self.supersede
            and bool(prepared.streams)
            and any(batch.newest.get(stream) != earlier[0] for stream in prepared.streams)
        )
        retry = earlier is not None and (earlier[1] == "rejected" or replaced)
        seen_stored = prepared.sha256 in batch.seen and prepared.sha256 not in batch.rejected
        if (earlier is not None and not retry) or seen_stored:
            original = earlier[0] if earlier is not None and not retry else batch.seen[prepared.sha256]
            return _Decided(upload("duplicate", raw=None, duplicate_of=original))
        if prepared.sha256:
            batch.seen[prepared.sha256] = upload_id
        if prepared.status == "unreadable":
            report = _with_reason(prepared.report, prepared.said) if prepared.said is not None else prepared.report
            return _Decided(upload("rejected", reason=prepared.message, report=report))
        taken = [s for s in prepared.streams if s in batch.claimed]
        if taken and not self.supersede:
            what = ", ".join(s.split(":", 1)[1] for s in taken)
            # where the file differs is said to whoever sent it, not stored: the upload's
            # reason is the one a lake's build records, row for row, without the bytes
            # of the version it holds (ingest.lake.batch)
            kept = already_stored(what)
            said = already_stored(what, self._difference(batch, taken[0], prepared))
            fresh = [s.split(":", 1)[1] for s in prepared.streams if s not in batch.claimed]
            if fresh and prepared.kind == "score_sheet":  # a sheet that grew through the day
                said = grown_sheet(what, fresh)
            report = _with_reason(prepared.report, kept, prepared.rows)
            return _Decided(upload("rejected", reason=kept.english(), report=report), said=said)
        if taken and not self.reason:
            said = say("--supersede needs a --reason")
            reason = said.english()
            return _Decided(
                upload("rejected", reason=reason, report=_with_reason(prepared.report, said, prepared.rows)), said=said
            )
        appends: list[Append] = []
        revisions: dict[str, int] = {}
        supersedes = None
        for stream, events in prepared.streams.items():
            expected = batch.claimed.get(stream, 0)
            revisions[stream] = 1
            if stream in batch.claimed:
                revisions[stream] = batch.next_revision(stream)
                supersedes = batch.newest.get(stream)
                appends.append(Append(stream, expected, [marker(stream, self.reason, supersedes)], upload_id))
                expected += 1
            appends.append(Append(stream, expected, events, upload_id))  # read only as it is appended
            batch.claimed[stream] = expected + len(events)
            batch.newest[stream] = upload_id
        outcome = "accepted_with_findings" if prepared.status == "violations" else "accepted"
        decided = upload(outcome, supersedes=supersedes, reason=self.reason if taken else None)
        rows = prepared.rows
        for stream in taken:
            if stream.startswith("tournament:"):  # the organiser's records go on counting
                rows = {**rows, **_standing_tournament(batch, stream, prepared.streams[stream])}
        return _Decided(decided, appends, rows, revisions)


def _standing_tournament(batch: _Batch, stream: str, new: Sequence[NewEvent]) -> Tables:
    """The read-model rows of a tournament a new file supersedes: the file's events with
    the records commands made before (:func:`ingest.revisions.standing`, which the
    rebuild and the record commands read the same way)."""
    kept = [json.loads(event.payload) for event in kept_records(batch.store.stream(batch.con, stream))]
    return as_columns(project_tournament(stood_on([json.loads(event.payload) for event in new], kept), upload_id=0))


def _add(appending: Appending, decisions: Sequence[_Decided]) -> None:
    """Append files decided: their uploads, their events and their rows, the rows of a
    table joined into one insert (:func:`_stamped`)."""
    parts: dict[str, list[TableColumns]] = {}
    owners: dict[str, list[tuple[int, int]]] = {}
    for decision in decisions:
        for table, columns in decision.rows.items():
            parts.setdefault(table, []).append(columns)
            owners.setdefault(table, []).append((decision.upload.upload_id, len(columns)))
    revisions = {stream: number for decision in decisions for stream, number in decision.revisions.items()}
    rows: Tables = {
        table: _stamped(table, joined(columns), owners[table], revisions) for table, columns in parts.items()
    }
    appending.add([a for d in decisions for a in d.appends], rows=rows, uploads=[d.upload for d in decisions])


def _stamped(
    table: str, columns: TableColumns, owners: list[tuple[int, int]], revisions: dict[str, int]
) -> TableColumns:
    """A run's rows of one table with what the writer decided for them, a column at
    once: each file's upload id on its rows (``owners``: each file's id and its count
    of rows, in order), and each game's revision. (A game is stored by one file of a
    run at most: a file storing anew a game of the run starts another.)"""
    if "upload_id" in columns:
        columns = columns.with_column("upload_id", [upload_id for upload_id, count in owners for _ in range(count)])
    if table == GameRow.TABLE:
        games = zip(columns.values("game_id"), columns.values("revision"), strict=True)
        columns = columns.with_column("revision", [revisions.get(f"game:{g}", r) for g, r in games])
    return columns


def _with_reason(report: str, said: Said, rows: Tables | None = None) -> str:
    """The audit report kept with a file refused for ``said``: why, in English
    (``rejected``), and as the sentence a page says in its reader's language
    (``rejected_said``, :func:`events.said.stored`). A file read and audited but not
    stored (already stored; no reason to supersede) keeps its findings' sentences too
    (``said`` beside each one's ``message``, from its ``rows``): no ``findings`` row is
    stored for it, and the Upload page lists them in its reader's language."""
    data = json.loads(report)
    data["rejected"] = said.english()
    data["rejected_said"] = stored(said)
    if rows is not None and isinstance(data.get("violations"), list):
        data["violations"] = with_sentences(data["violations"], rows)
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
    stats: IngestStats | None = None,
) -> list[FileResult]:
    """Ingest every file under ``paths`` into ``store``; the result of each file.
    ``workers`` processes audit the files (default: one per core, one per 2 MiB of
    files at most: :func:`workers_for`; never more than can be busy at once:
    :func:`in_flight_at_most`);
    ``stats`` adds up where the time goes (:mod:`ingest.stats`)."""
    files = collect(paths)
    if on_total is not None:
        on_total(len(files))
    count = workers_for(len(files), workers, size_of(files) if workers is None else None)
    count = min(count, max(1, in_flight_at_most(files)))
    if stats is not None:
        stats.workers = count
    writer = Writer(store, supersede=supersede, reason=reason, stats=stats)
    with process_pool(count) as pool:
        return write_all(_prepared(files, pool, stats), writer, on_file)


def write_all(
    prepared: Iterable[Prepared], writer: Writer, on_file: Callable[[FileResult], None] | None = None
) -> list[FileResult]:
    """Write audited files in batches of at most :data:`BATCH_FILES` files — the first
    batch, then :data:`MOST_FILES` —, :data:`BATCH_EVENTS` events or
    :data:`BATCH_BYTES` bytes (one file more, at most), each batch one transaction; the
    results of the run.

    ``saboteur ingest`` feeds it files audited in a pool; the dashboard, files uploaded
    (:func:`ingest.sources.prepare_bytes`). ``prepared`` is read lazily, a run of files
    at a time as the writer stores them, so only one batch is held at a time. An error
    reading ``prepared`` (a worker that died) ends the run, with the batch being written
    rolled back: every batch before it is stored, and nothing of it.
    """
    items = iter(prepared)
    files, first_run = BATCH_FILES, FIRST_RUN_FILES
    while True:
        batch = _Taken(items, files)
        try:
            _write_isolated(writer, batch, on_file, first_run)
        except _Unread as unread:
            raise unread.error from None
        if not batch.full:
            writer.settle()
            return writer.results
        files, first_run = MOST_FILES, RUN_FILES
        if writer.store.someone_waiting():
            time.sleep(TURN)  # another job's turn with the store


class _Unread(BaseException):
    """Reading the files to write failed: not the batch's fault, so no file of it is
    written one by one (:func:`_write_isolated`); :func:`write_all` raises ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class _Taken:
    """One batch's files, read from ``items`` as the writer asks for them until the
    batch is full (:func:`write_all`'s limits), each kept: the results are told in
    its order, and a batch that fails is written again file by file."""

    def __init__(self, items: Iterator[Prepared], files: int) -> None:
        self.items = items
        self.files = files
        self.taken: list[Prepared] = []
        self.events = 0
        self.held = 0
        self.full = False
        self.ended = False

    def __iter__(self) -> Iterator[Prepared]:
        while not self.full and not self.ended:
            try:
                item = next(self.items)
            except StopIteration:
                self.ended = True
                return
            except Exception as exc:
                raise _Unread(exc) from exc
            self.taken.append(item)
            self.events += sum(len(e) for e in item.streams.values())
            self.held += weight(item)
            # a file too large for DuckDB's streaming ceiling ends its batch (room_for): two
            # of 60 MiB in one took the ingest to 766 MiB
            self.full = (
                len(self.taken) >= self.files
                or self.events >= BATCH_EVENTS
                or self.held >= BATCH_BYTES
                or len(item.raw) > ROOM_FROM
            )
            yield item

    def rest(self) -> list[Prepared]:
        """Every file of the batch, those not read yet read now."""
        for _ in self:
            pass
        return self.taken


def _runs(items: Iterator[Prepared], first: int) -> Iterator[list[Prepared]]:
    """``items`` in runs of ``first`` files, twice as many each run after, up to
    :data:`RUN_FILES`, each read as it is asked for."""
    size = min(first, RUN_FILES)
    while run := list(islice(items, size)):
        yield run
        size = min(2 * size, RUN_FILES)


def _write_isolated(
    writer: Writer, batch: _Taken, on_file: Callable[[FileResult], None] | None, first_run: int
) -> None:
    """Write a batch in one transaction; if that fails in a way nobody foresaw, write
    its files one by one, so only the file at fault is affected — and that one is stored
    as a rejected upload, its bytes kept, with the reason. A store that cannot be used
    (or is busy) is no file's fault and ends the run, as does a file that cannot even be
    stored as rejected (every file before it has its result by then)."""
    try:
        results = writer.write(batch, first_run=first_run)
    except Exception as exc:
        if isinstance(exc, StoreError) and not isinstance(exc, RowsRefused):
            raise
        if interrupted(exc):  # Ctrl-C: no file's fault, and the user asked to stop
            raise KeyboardInterrupt from exc
        items = batch.rest()
        _LOGGER.exception("writing a batch of %d files failed; writing them one by one", len(items))
        for item in items:
            try:
                (result,) = writer.write([item])
            except Exception as exc:
                if isinstance(exc, StoreError) and not isinstance(exc, RowsRefused):
                    raise
                if interrupted(exc):
                    raise KeyboardInterrupt from exc
                _LOGGER.exception("writing %s failed unexpectedly", item.name)
                (result,) = writer.write([_rejected(item, unforeseen(exc, "storing"))])
            if on_file is not None:
                on_file(result)
        return
    for result in results:
        if on_file is not None:
            on_file(result)


def _rejected(item: Prepared, why: UnreadableLog) -> Prepared:
    """``item`` as a rejected upload: its bytes and the reason; no events, no rows."""
    finding = Finding(Code.MALFORMED, why.line, why.message, said=why.said)
    report = json.dumps(
        {"file": item.name, "status": "unreadable", **counted([finding]), "violations": [finding.as_report()]}
    )
    return replace(
        item,
        status="unreadable",
        report=report,
        game_ids=[],
        streams={},
        rows={},
        errors=1,
        message=why.message,
        said=why.said,
    )
