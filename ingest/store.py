"""The DuckDB event store: one file, opened only for as long as each job needs it.

A DuckDB file admits one writing process and no other process beside it, so the store
never holds a connection between operations: the dashboard and a second ``saboteur
ingest`` get their turn between our transactions. When another process holds the file,
opening waits (with back-off) and then fails with :class:`StoreBusy`. A job opens a
connection (:meth:`Store.connect`) and passes it to the store's methods.

Opening is where a file is judged: a job that only reads opens it read-only and never
changes it, and the file must be a store of this program's schema version with every
table in place; a job that writes also creates a store in a new file and upgrades one
of an older version. Whatever is wrong, and whatever DuckDB raises during the job, comes
out as a :class:`StoreError`: one line naming the file and what is wrong.

The store has two sides, as eventsourcing's recorders do:

- **Writing** — :meth:`Store.append` appends events to one stream at the version the
  writer read, :meth:`Store.append_batch` to many streams with the uploads they came
  in; a stream that moved on since refuses the append (:class:`StaleAppend`). Events are
  hash-chained (:mod:`ingest.chain`). The read-model rows of the streams appended to
  come with the append and replace theirs, and the projection position moves to the
  new head: one transaction, all or none. A crash at any moment leaves the store as it
  was before that transaction. Deciding what to append is the caller's job.
- **Reading** — :meth:`Store.read` gives one stream's events, :meth:`Store.read_all`
  every event after a position, :meth:`Store.read_streams` every stream in turn, as
  typed :class:`~ingest.chain.StoredEvent` records. No module outside ``ingest/`` reads the
  ``events`` table with its own SQL.
"""

from __future__ import annotations

import functools
import os
import queue
import random
import re
import threading
import time
from collections.abc import Collection, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import islice
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar, overload, runtime_checkable
from zoneinfo import ZoneInfo

import duckdb
import polars as pl
import pyarrow as pa

from ingest.chain import GENESIS, ReceivedUpload, StoredEvent, link, linker, moment_text
from ingest.gate import Stamp, gate, stamp
from ingest.readmodels import PROJECTED, ROW_TYPES, RefereeCodeRow, Rows
from ingest.schema import LOG_TABLE_NAMES, LOG_TABLES, READ_MODELS, SCHEMA_VERSION, UploadLink, UploadRow
from ingest.stats import IngestStats, lap
from ingest.tables import (
    ArrowColumns,
    Columns,
    Row,
    TableColumns,
    arrow_table,
    columns,
    create_table,
    digests,
    names,
    row_columns,
)

DEFAULT_DB: Final = "saboteur.duckdb"
_TIME: Final = names(StoredEvent).index("recorded_at")
_ENVELOPE: Final = ", ".join(
    "epoch_us(recorded_at)" if c.name == "recorded_at" else c.read for c in columns(StoredEvent)
)
"""The events' columns as read: the hashes as hex text, the time as microseconds since
1970, made a datetime once per distinct time (:func:`_events`)."""
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)

_T = TypeVar("_T")
NewRows = Mapping[str, Sequence[Any] | TableColumns]
"""Read-model rows by table, as row objects or as columns (:class:`~ingest.tables.Columns`,
:class:`~ingest.tables.ArrowColumns`)."""

Moment = int | datetime | None
"""An event position, a time, or ``None`` for now."""

READ_CHUNK: Final = 20_000
"""Events read, made or inserted at a time: a reader of the whole store, or a writer of
a 16 MiB log, holds a chunk of them, never all."""
LONG_STREAM: Final = 50_000
"""Events of a stream past which :meth:`Store.read_streams` gives it as a
:class:`StreamEvents` read a chunk at a time, not as a list."""


def _one(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> tuple[Any, ...] | None:
    """The first row of a query, with the result read to its end (DuckDB 2 refuses
    further work on a connection while a result is unfinished)."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


def _config() -> dict[str, Any]:
    """DuckDB settings: a memory ceiling (``$SABOTEUR_DB_MEMORY``, default 384MB; DuckDB
    spills to disk past it) so an ingest stays well under 1 GiB whatever its size; and no
    extension loaded or fetched on its own (a SQLite file named as the store would
    otherwise send DuckDB looking for its reader). DuckDB's vacuum is left on: see
    :func:`checkpoint_unmerged` for the one job that turns it off. (Its progress bar is a
    connection's setting: :meth:`Store._open` turns it off.)"""
    return {
        "memory_limit": os.environ.get("SABOTEUR_DB_MEMORY", "384MB"),
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
    }


@functools.cache
def _settings() -> frozenset[str]:
    """The settings this DuckDB knows (the package allows versions before some)."""
    with duckdb.connect(":memory:") as con:
        return frozenset(str(name) for (name,) in con.execute("SELECT name FROM duckdb_settings()").fetchall())


ROW_GROUP: Final = 122_880
"""DuckDB's rows to a row group: a transaction's rows that fill one are written straight
into the file."""


def checkpoint_unmerged(con: duckdb.DuckDBPyConnection) -> None:
    """A checkpoint that leaves the row groups as the transactions wrote them, for a
    batch that filled row groups of its own (:data:`ROW_GROUP`).

    At a checkpoint DuckDB's vacuum merges neighbouring row groups that fit in fewer.
    That is what a store of small writes needs — a phone's line, a command, one upload:
    each transaction's rows become a row group of their own when written, and left
    unmerged a game recorded line by line made 194 row groups and a file of 52 MB,
    every query slower by each. But a batch of an ingest leaves full row groups and a
    part-full last one, and the vacuum at the checkpoint after the next batch (DuckDB
    2.0 vacuums tables with indexes too) merged the two batches' into fewer and wrote
    them all again: about a second of every batch of 245,760 events, a fifth of the
    ingest of 10,000 games. So such a batch is checkpointed without the vacuum, and the
    setting (the database's, not the connection's) is put back at once. The next small
    write's checkpoint merges what the ingest left part full, once (some 1.3 s of
    rewriting after 1,000 simulated games; 6 s after 10,000). A DuckDB without the
    setting gets a plain checkpoint."""
    if "max_vacuum_tasks" not in _settings():
        con.execute("CHECKPOINT")
        return
    con.execute("SET max_vacuum_tasks = 0")
    try:
        con.execute("CHECKPOINT")
    finally:
        con.execute("RESET max_vacuum_tasks")


OPEN_RETRY: Final = 0.1
"""The longest pause (before a jitter of up to as much again) between two tries to open a
file another process holds: short enough to land in the turn an ingest leaves between
its batches (:data:`ingest.pipeline.TURN`)."""

WAITING_FRESH: Final = 1.0
"""Seconds a job waiting for the file (:meth:`Store.someone_waiting`) is believed after it
last said so: it says so at every try to open the file, some five times a second, and
one that was killed stops saying so."""

STREAMING_MEMORY: Final = "128MB"
"""DuckDB's memory ceiling for a job that streams through the store (an ingest, a
rebuild, a verify): past the little such a job asks of DuckDB at once, DuckDB's memory
is a cache of blocks already read, which a lower ceiling costs it no time
(``benchmarks/memory.py``); the statistics' joins want more (at a million rounds, twice
as fast with 384MB)."""


def streaming(con: duckdb.DuckDBPyConnection) -> None:
    """Lower DuckDB's memory ceiling to :data:`STREAMING_MEMORY` for a streaming job,
    unless ``$SABOTEUR_DB_MEMORY`` chose one."""
    if not os.environ.get("SABOTEUR_DB_MEMORY"):
        con.execute(f"SET memory_limit = '{STREAMING_MEMORY}'")


class StoreError(RuntimeError):
    """The store could not do a job: ``str()`` is one line naming the file and what is
    wrong; ``problem`` says what is wrong without the file's path (for a public page)."""

    def __init__(self, path: Path, problem: str, line: str | None = None) -> None:
        super().__init__(line or f"{path}: {problem}")
        self.path = path
        self.problem = problem


class StoreUnusable(StoreError):
    """The file cannot serve as this program's store: there is no such file, it is not
    a DuckDB database, not a store, a store of another schema version, or damaged.
    Nothing was changed."""


class StoreBusy(StoreError):
    """Another process holds the database file for longer than we were willing to wait."""


class StaleAppend(RuntimeError):
    """A stream (or the uploads) moved on since its version was read (optimistic
    concurrency)."""


def default_path() -> Path:
    """``--db``'s default: ``$SABOTEUR_DB``, else ``./saboteur.duckdb``."""
    return Path(os.environ.get("SABOTEUR_DB") or DEFAULT_DB)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: the store gives it its position, version, time and hashes."""

    stream: str
    type: str
    payload: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Append:
    """Events to append to one stream, which must be at ``expected_version`` (0: a new
    stream); ``upload_id`` is the upload they came in (``None``: a command's)."""

    stream: str
    expected_version: int
    events: Sequence[NewEvent]
    upload_id: int | None = None


Run = tuple[list[str], list[str], list[int | None]]
"""Events of one stream as three lists: their types, payloads and lines."""

RUN_EVENTS: Final = 4096
"""Events of a stream made at a time (:func:`_stream_runs`): lists of them cost the chain less
than a tuple each, and a 16 MiB log is never made whole."""


@runtime_checkable
class EventRuns(Protocol):
    """Events of one stream that give their types, payloads and lines a run at a time
    without an object each (:class:`~ingest.sources.LogEvents`, cut from a log's bytes
    as they are read)."""

    stream: str

    def runs(self, size: int) -> Iterator[Run]: ...


def _stream_runs(stream: str, events: Sequence[NewEvent]) -> Iterator[Run]:
    """The events appended to ``stream`` (each must be of it), :data:`RUN_EVENTS` at a
    time."""
    if isinstance(events, EventRuns):
        if events.stream != stream:
            raise ValueError(f"events of {events.stream} appended to {stream}")
        yield from events.runs(RUN_EVENTS)
        return
    for start in range(0, len(events), RUN_EVENTS):
        run = events[start : start + RUN_EVENTS]
        for event in run:
            if event.stream != stream:
                raise ValueError(f"an event of {event.stream} appended to {stream}")
        yield [e.type for e in run], [e.payload for e in run], [e.line for e in run]


class _Chained:
    """Events chained, as the columns of the ``events`` table: what differs from event
    to event (type, payload, line, hash) extended a run of a stream's events at a time,
    and what runs on through a stream's events (position, version) or stays (stream,
    upload, time, the previous hash but the first) filled in once the stream's events
    so far are added (:meth:`run`). Hashes are kept as
    :func:`~ingest.chain.linker` makes them, hex digits in ASCII bytes, and become
    a digest column's bytes a chunk at a time (:func:`~ingest.tables.digests`)."""

    def __init__(self, now: datetime, prev: bytes) -> None:
        self.now = now
        self.prev = prev
        """The hash before the chunk's first event."""
        self.position: list[int] = []
        self.stream: list[str] = []
        self.version: list[int] = []
        self.upload_id: list[int | None] = []
        self.type: list[str] = []
        self.payload: list[str] = []
        self.line: list[int | None] = []
        self.hash: list[bytes] = []

    def run(self, stream: str, upload_id: int | None, position: int, version: int) -> None:
        """The events added since the last run are of ``stream``, from ``upload_id``, the
        first at ``position`` and ``version``."""
        count = len(self.hash) - len(self.position)
        self.position.extend(range(position, position + count))
        self.version.extend(range(version, version + count))
        self.stream.extend([stream] * count)
        self.upload_id.extend([upload_id] * count)

    @property
    def head(self) -> tuple[int, str]:
        """The last event's position and hash."""
        return self.position[-1], self.hash[-1].decode("ascii")

    def columns(self) -> dict[str, Sequence[Any] | pa.Array]:
        """The chunk as the columns inserted: the hashes and the time as Arrow arrays,
        made at once."""
        hashes = b"".join(self.hash)
        fixed: dict[str, Sequence[Any] | pa.Array] = {
            "recorded_at": pl.repeat(_micros(self.now), len(self.hash), dtype=pl.Int64, eager=True)
            .cast(_MOMENT)
            .to_arrow(),
            "prev_hash": digests(self.prev + hashes[: -len(self.prev)], "prev_hash"),
            "hash": digests(hashes),
        }
        return {name: fixed[name] if name in fixed else getattr(self, name) for name in names(StoredEvent)}

    def events(self) -> list[StoredEvent]:
        hashes = [h.decode("ascii") for h in self.hash]
        prevs = [self.prev.decode("ascii"), *hashes[:-1]]
        return [
            StoredEvent(position, stream, version, type_, payload, self.now, upload_id, line, prev, digest)
            for position, stream, version, type_, payload, upload_id, line, prev, digest in zip(
                self.position,
                self.stream,
                self.version,
                self.type,
                self.payload,
                self.upload_id,
                self.line,
                prevs,
                hashes,
                strict=True,
            )
        ]


_MOMENT: Final = pl.Datetime("us", "UTC")


def _micros(moment: datetime) -> int:
    """A time as microseconds since 1970 (Polars repeats a number at once; a time
    with its zone, some 15 ms a chunk)."""
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


class Store:
    """The event store in one DuckDB file."""

    def __init__(self, path: Path | str | None = None, *, wait: float = 60.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.wait = wait

    # -- connections -------------------------------------------------------------

    @contextmanager
    def connect(
        self, *, read_only: bool = False, read_models: bool = True, drafts_only: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one job, closed after.

        The file must be a store of this program's schema version holding every table
        of it (``read_models=False``: but the read models, which a rebuild makes anew).
        A read-only connection changes nothing; a writing one first creates the store in
        a new file (or one whose creation was cut short) and upgrades a store of an
        older version. Anything else is refused, and whatever DuckDB raises during the
        job comes out, as a :class:`StoreError` naming the file. A writing job that
        appends to drafts alone says so (``drafts_only``): the pages' caches of the
        records then stay good (:meth:`ingest.gate.Gate.records`).
        """
        if read_only and not self.path.exists():
            raise StoreUnusable(self.path, "no such file (saboteur ingest or tournament create makes a store)")
        turns = gate(self.path, self._others_waiting)
        with turns.turn(write=not read_only) as open_read_only:
            # the mode the process's instance has: a reader joins a writer's read-write
            # instance (it still writes nothing) rather than wait for it (ingest.gate)
            con = self._open(open_read_only)
            before = stamp(self.path) if not read_only else ()
            try:
                self._prepare(con, read_only=read_only, read_models=read_models)
                yield con
            except duckdb.Error as exc:
                failure = self._failure(con, exc)
                _close(con)
                self._wrote(before, read_only=read_only, drafts_only=False)
                raise failure from exc
            except BaseException:
                _close(con)
                self._wrote(before, read_only=read_only, drafts_only=False)
                raise
            try:
                # a server keeps the instance open a moment (ingest.gate.linger); else the
                # close is a checkpoint: where a write meets damage the job did not read
                turns.keep(open_read_only, lambda: self._open(open_read_only))
                con.close()
            except duckdb.Error as exc:
                self._wrote(before, read_only=read_only, drafts_only=False)
                raise self._failure(con, exc) from exc
            self._wrote(before, read_only=read_only, drafts_only=drafts_only)

    def _wrote(self, before: Stamp, *, read_only: bool, drafts_only: bool) -> None:
        """Tell this process's gate what a writing job did to the file (still in its turn)."""
        if not read_only:
            gate(self.path).wrote(before, stamp(self.path), drafts_only=drafts_only)

    def records_changes(self) -> int:
        """How many times the records have changed, as far as this process can tell: a
        key for caches of anything but the drafts (:meth:`ingest.gate.Gate.records`)."""
        return gate(self.path, self._others_waiting).records(stamp(self.path))

    def _open(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """Open the file, waiting with back-off while another process holds it, and
        saying so at every try (:meth:`someone_waiting`)."""
        deadline = time.monotonic() + self.wait
        pause = 0.02
        waited = False
        while True:
            try:
                con = duckdb.connect(str(self.path), read_only=read_only, config=_config())
            except duckdb.Error as exc:
                if not _LOCKED.search(str(exc)):
                    self._done_waiting(waited)
                    raise self._unopened(exc) from exc
                if time.monotonic() >= deadline:
                    self._done_waiting(waited)
                    raise StoreBusy(
                        self.path,
                        "database busy: another process is using the file",
                        f"database busy: another process is using {self.path} "
                        f"(waited {self.wait:g} s); try again when it has finished",
                    ) from None
                waited = self._say_waiting() or waited
                time.sleep(pause * (1 + random.random()))
                pause = min(pause * 2, OPEN_RETRY)
                continue
            self._done_waiting(waited)
            # DuckDB draws a progress bar of its own on the terminal for a query past two
            # seconds, through the command's output (an upgrade of 2.45 million events
            # drew one through saboteur ingest's); it is a connection's setting
            con.execute("SET enable_progress_bar = false")
            return con

    @property
    def _wal(self) -> Path:
        """DuckDB's write-ahead log of the store, beside it while commits wait for a
        checkpoint."""
        return self.path.with_name(self.path.name + ".wal")

    # -- taking turns -------------------------------------------------------------

    @property
    def _waiting(self) -> Path:
        """The file beside the store whose time says a job is waiting for the store."""
        return self.path.with_name(self.path.name + ".waiting")

    def someone_waiting(self) -> bool:
        """Whether a job (of any process) is waiting to open the file: a long job asks
        between its transactions, and leaves the file closed for a while only then
        (:data:`ingest.pipeline.TURN`; a pause after every batch cost an ingest of
        10,000 games 2.5 s, all of it in the run's one serial step)."""
        return gate(self.path).waiting() or self._others_waiting()  # this process's: a phone's tap in the dashboard

    def _others_waiting(self) -> bool:
        """Whether a job has said lately that it waits to open the file (one of this
        process says so only while another process holds it)."""
        try:
            return time.time() - self._waiting.stat().st_mtime < WAITING_FRESH
        except OSError:  # none waits, or none could say so
            return False

    def _say_waiting(self) -> bool:
        """Say this job is waiting for the file; whether it could (a folder it may not
        write to: then it waits for the file's holder to finish)."""
        try:
            self._waiting.touch()
        except OSError:
            return False
        return True

    def _done_waiting(self, waited: bool) -> None:
        """This job waits no more (another still waiting says so again at its next try)."""
        if waited:
            with suppress(OSError):
                self._waiting.unlink()

    def _prepare(self, con: duckdb.DuckDBPyConnection, *, read_only: bool, read_models: bool) -> None:
        """Judge the file: set up or upgrade it first when the job writes, then refuse it
        unless it is a store of this schema version with every table the job needs."""
        tables = _tables(con)
        version = _version(con, tables)
        if not read_only and version is None and _unstarted(con, tables):
            self._create(con)
        elif not read_only and version is not None and version < SCHEMA_VERSION:
            self._upgrade(con, version)
        else:
            self._refuse(version, tables, read_models=read_models)
            return
        tables = _tables(con)
        self._refuse(_version(con, tables), tables, read_models=read_models)

    def _refuse(self, version: int | None, tables: set[str], *, read_models: bool) -> None:
        """Raise :class:`StoreUnusable` unless the file is a store of this program's
        schema version with every table needed."""
        if version is None:
            raise StoreUnusable(self.path, "not a Saboteur Ledger store (no schema version in a meta table)")
        if version > SCHEMA_VERSION:
            raise StoreUnusable(
                self.path, f"a store of schema version {version}, newer than this program's {SCHEMA_VERSION}"
            )
        if version < SCHEMA_VERSION:
            raise StoreUnusable(
                self.path,
                f"a store of schema version {version}, older than this program's {SCHEMA_VERSION}: "
                "saboteur rebuild upgrades it",
            )
        missing = [t for t in (*LOG_TABLE_NAMES, *(READ_MODELS if read_models else ())) if t not in tables]
        if missing:
            raise StoreUnusable(self.path, _missing(missing))

    def _create(self, con: duckdb.DuckDBPyConnection) -> None:
        """Set the store up in one transaction (a crash leaves nothing half made)."""
        with _transaction(con):
            con.execute(LOG_TABLES)
            _create_read_models(con, 0)
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
            con.execute("INSERT INTO meta VALUES ('created_at', ?)", [datetime.now(UTC).isoformat()])

    def _upgrade(self, con: duckdb.DuckDBPyConnection, version: int) -> None:
        """From ``version`` to this program's, in one transaction. 1 to 2: every upload
        held is linked, in order, to the event head as it stands (so the chain covers
        them from now on). 2 to 3: the read models' columns of the observed recording
        (:func:`_observed_columns`). 3 to 4: the referee codes' read model, empty (a
        store of version 3 holds no referee code: their events came with version 4). 4
        to 5: the events' hashes as bytes; 5 to 6: no unique key on a stream's versions
        (both :func:`_events_as_declared`)."""
        with _transaction(con):
            if version < 2:
                con.execute(create_table(UploadLink, if_not_exists=True))
                position, head = self.head(con)
                rows = con.execute(f"SELECT {_RECEIVED} FROM uploads u ORDER BY u.upload_id").fetchall()
                held = [upload for upload in map(_received, rows) if upload is not None]
                _insert(con, UploadLink, _links(GENESIS, held, position, head))
            if version < 3:
                _observed_columns(con)
            if version < 4:
                con.execute(create_table(RefereeCodeRow, if_not_exists=True))
            if version < 6:
                self._events_as_declared(con, version)
            con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])

    def _events_as_declared(self, con: duckdb.DuckDBPyConnection, version: int) -> None:
        """Schema versions 4 and 5 to 6: the ``events`` table as :class:`StoredEvent`
        declares it now. Until version 4 ``prev_hash`` and ``hash`` were hex text, and
        they become their 32 bytes (:data:`~ingest.tables.Digest`); until version 5 the
        table had a unique key on ``(stream, version)`` as well as its key on
        ``position``, and it has only the position's now (:class:`StoredEvent` says
        why). DuckDB changes no column's type and drops no key of a table, so the events
        are copied into a table made anew, in position order, and it takes the old one's
        place: every event keeps its every value, and the chain reads the same. A hash
        that is not 64 lowercase hex digits was never written by this program: the
        upgrade refuses the store, naming the event, and leaves it as it was."""
        types = dict(
            con.execute(
                "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() "
                "AND schema_name = 'main' AND table_name = 'events'"
            ).fetchall()
        )
        as_text = types.get("hash") != "BLOB"
        unique = _one(
            con,
            "SELECT count(*) FROM duckdb_constraints() WHERE database_name = current_database() "
            "AND schema_name = 'main' AND table_name = 'events' AND constraint_type = 'UNIQUE'",
        )
        if not as_text and not (unique and unique[0]):  # made so already
            return
        if as_text:
            pattern = "'^[0-9a-f]{64}$'"
            bad = _one(
                con,
                f"SELECT min(position) FROM events WHERE NOT regexp_matches(hash, {pattern}) "
                f"OR NOT regexp_matches(prev_hash, {pattern})",
            )
            if bad is not None and bad[0] is not None:
                raise StoreUnusable(
                    self.path,
                    f"the event at position {bad[0]} has a hash that is not 64 lowercase hex digits, which this "
                    f"program never writes: the store was altered, and is left as it was (schema version {version})",
                )
        copied = ", ".join(f"unhex({c.name})" if c.digest and as_text else c.name for c in columns(StoredEvent))
        con.execute(create_table(StoredEvent, name="events_declared"))
        con.execute(f"INSERT INTO events_declared SELECT {copied} FROM events ORDER BY position")
        con.execute("DROP TABLE events")
        con.execute("ALTER TABLE events_declared RENAME TO events")

    def _unopened(self, exc: duckdb.Error) -> StoreUnusable:
        """What is wrong with a file DuckDB would not open."""
        text = str(exc)
        if "not a valid DuckDB database" in text or "Extension" in text:
            return StoreUnusable(self.path, "not a DuckDB database file")
        if isinstance(exc, duckdb.IOException) and _REFUSED.search(text):
            return StoreUnusable(self.path, f"cannot be opened: {self._detail(exc)}")
        return StoreUnusable(self.path, _damaged(self._detail(exc)))

    def _failure(self, con: duckdb.DuckDBPyConnection, exc: duckdb.Error) -> StoreError:
        """What DuckDB raised during a job, as a :class:`StoreError`: a missing table or
        damage found in the file make the store unusable; anything else is the job's."""
        if isinstance(exc, duckdb.CatalogException):
            try:
                missing = [t for t in (*LOG_TABLE_NAMES, *READ_MODELS) if t not in _tables(con)]
            except duckdb.Error:
                missing = []
            if missing:
                return StoreUnusable(self.path, _missing(missing))
        if isinstance(exc, duckdb.IOException) and _REFUSED.search(str(exc)):
            return StoreError(self.path, f"the file system refused: {self._detail(exc)}")
        if isinstance(exc, _DAMAGE) or type(exc) is duckdb.Error:
            return StoreUnusable(self.path, _damaged(self._detail(exc)))
        return StoreError(self.path, f"the database failed: {self._detail(exc)}")

    def _detail(self, exc: duckdb.Error) -> str:
        """DuckDB's first line, with the file named by its name and no other path."""
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        for spelling in {str(self.path.resolve()), str(self.path)}:
            first = first.replace(spelling, self.path.name)
        return _PATH.sub("…", first)[:300]

    # -- reading -----------------------------------------------------------------

    def head(self, con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
        """The newest event's position and hash (0 and the genesis hash when empty)."""
        row = _one(con, "SELECT position, lower(hex(hash)) FROM events ORDER BY position DESC LIMIT 1")
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

    def read(self, con: duckdb.DuckDBPyConnection, stream: str, *, until: Moment = None) -> list[StoredEvent]:
        """A stream's events in version order (every revision: see
        :func:`ingest.revisions.current`), up to a position or a time if given."""
        condition, params = _until(until)
        sql = f"SELECT {_ENVELOPE} FROM events WHERE stream = ? AND {condition} ORDER BY version"
        return list(_events(con, sql, [stream, *params]))

    def stream(self, con: duckdb.DuckDBPyConnection, stream: str) -> StreamEvents:
        """A stream's events in version order (every revision), as :meth:`read` gives
        them but read a chunk at a time whenever they are read: for a stream that may be
        long (a 16 MiB log is some 400,000 events)."""
        found = _one(con, "SELECT count(*) FROM events WHERE stream = ?", [stream])
        return StreamEvents(con, stream, int(found[0]) if found else 0)

    def read_all(
        self, con: duckdb.DuckDBPyConnection, after: int = 0, *, until: Moment = None, types: Collection[str] = ()
    ) -> Iterator[StoredEvent]:
        """Every event after position ``after``, in position order, up to a position or
        a time if given, only of the given ``types`` if any; read a chunk at a time."""
        condition, params = _until(until)
        if types:
            condition += " AND type IN (SELECT unnest(?::VARCHAR[]))"
            params.append(list(types))
        yield from _in_order(con, condition, params, after)

    def read_streams(self, con: duckdb.DuckDBPyConnection) -> Iterator[Sequence[StoredEvent]]:
        """Every stream's events, a stream at a time (in stream order, each in version
        order): what a rebuild projects, without holding the whole store.

        Streams are read a run of :data:`READ_CHUNK` events at a time, each as a list;
        a stream longer than :data:`LONG_STREAM` (a 16 MiB log is some 400,000 events)
        comes as a :class:`StreamEvents`, read a chunk at a time whenever it is read.
        """
        cursor = con.cursor()
        try:
            cursor.execute("SELECT stream, count(*) FROM events GROUP BY stream ORDER BY stream")
            run: list[str] = []
            size = 0
            while counted := cursor.fetchmany(10_000):
                for stream, count in counted:
                    if count > LONG_STREAM:
                        yield from _streams(con, run)
                        run, size = [], 0
                        yield StreamEvents(con, stream, count)
                        continue
                    run.append(stream)
                    size += count
                    if size >= READ_CHUNK:
                        yield from _streams(con, run)
                        run, size = [], 0
            yield from _streams(con, run)
        finally:
            cursor.close()

    def uploads_head(self, con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
        """The newest upload's id and link hash (0 and the genesis hash when none)."""
        row = _one(con, "SELECT upload_id, hash FROM upload_chain ORDER BY upload_id DESC LIMIT 1")
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

    def read_uploads(self, con: duckdb.DuckDBPyConnection) -> Iterator[tuple[ReceivedUpload | None, UploadLink | None]]:
        """Every upload and its link, in upload order (``None`` for either missing),
        the bytes and the report hashed by DuckDB: what ``verify`` checks, a chunk at a
        time without holding the bytes."""
        cursor = con.cursor()
        try:
            cursor.execute(_UPLOADS_WITH_LINKS)
            while chunk := cursor.fetchmany(1_000):
                for row in chunk:
                    yield _received(row[1:15]), _link(row[15:])
        finally:
            cursor.close()

    def projected(self, con: duckdb.DuckDBPyConnection) -> int | None:
        """The last event position the read models reflect (``None``: never recorded)."""
        row = _one(con, "SELECT position FROM projection WHERE name = 'read_models'")
        return int(row[0]) if row else None

    def known_uploads(self, con: duckdb.DuckDBPyConnection, shas: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Earlier uploads of these contents: sha → (upload id, outcome), an accepted
        one preferred over a rejected one."""
        if not shas:
            return {}
        rows = con.execute(
            "SELECT sha256, upload_id, outcome FROM uploads WHERE outcome <> 'duplicate' AND sha256 IN "
            "(SELECT unnest(?::VARCHAR[])) ORDER BY (outcome = 'rejected'), upload_id",
            [list(shas)],
        ).fetchall()
        found: dict[str, tuple[int, str]] = {}
        for sha, upload_id, outcome in rows:
            found.setdefault(str(sha), (int(upload_id), str(outcome)))
        return found

    def stream_versions(self, con: duckdb.DuckDBPyConnection, streams: Sequence[str]) -> dict[str, tuple[int, int]]:
        """Current version and newest upload of each stream that exists (upload 0: only
        commands have written to it).

        Neither query can use an index (the events' one key is ``position``), so each
        reads the whole ``stream`` column. Which streams exist is asked of the events at version 1
        only — every stream has one, and events are never deleted —, which DuckDB
        filters on the number first, so it compares a name only at each stream's first
        event (the store of 10,000 simulated games, 2.45 million events: 11.5 ms for 128
        new streams, against 31 ms); the versions are then read only for the streams
        found, which an ingest of new games does not have."""
        return self._versions(con, self._begun(con, streams)) if streams else {}

    @staticmethod
    def _begun(con: duckdb.DuckDBPyConnection, streams: Sequence[str]) -> list[str]:
        """Those of ``streams`` whose first event is stored."""
        rows = con.execute(
            "SELECT stream FROM events WHERE version = 1 AND stream IN (SELECT unnest(?::VARCHAR[]))", [list(streams)]
        ).fetchall()
        return [str(stream) for (stream,) in rows]

    @staticmethod
    def _versions(con: duckdb.DuckDBPyConnection, streams: Sequence[str]) -> dict[str, tuple[int, int]]:
        """The version and newest upload of each of ``streams`` with events stored."""
        if not streams:
            return {}
        rows = con.execute(
            "SELECT stream, max(version), max(upload_id) FROM events WHERE stream IN "
            "(SELECT unnest(?::VARCHAR[])) GROUP BY stream",
            [list(streams)],
        ).fetchall()
        return {str(s): (int(v), int(u) if u is not None else 0) for s, v, u in rows}

    def next_upload_id(self, con: duckdb.DuckDBPyConnection) -> int:
        """The id the next upload recorded must have."""
        return int(_one(con, "SELECT coalesce(max(upload_id), 0) FROM uploads")[0]) + 1  # type: ignore[index]

    # -- writing -----------------------------------------------------------------

    def append(
        self,
        con: duckdb.DuckDBPyConnection,
        stream: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        rows: Rows,
    ) -> list[StoredEvent]:
        """Append ``events`` to ``stream``, which must be at ``expected_version``, with
        the stream's read-model rows as they stand after them: one transaction."""
        return self.append_batch(con, [Append(stream, expected_version, events)], rows=rows)

    def append_batch(
        self,
        con: duckdb.DuckDBPyConnection,
        appends: Sequence[Append],
        *,
        rows: NewRows,
        uploads: Sequence[UploadRow] = (),
        keep: bool = True,
        stats: IngestStats | None = None,
    ) -> list[StoredEvent]:
        """Record ``uploads`` (numbered on from :meth:`next_upload_id`) and append to
        every stream of ``appends`` at its expected version, with the read-model rows of
        the streams appended to (replacing theirs): one transaction, all or none. The
        events as stored, in position order — none if ``keep`` is off: they are made and
        inserted :data:`READ_CHUNK` at a time, and a writer appending a 16 MiB log (some
        400,000 events) needs none of them back. ``stats`` adds up the time of each step
        (:mod:`ingest.stats`)."""
        if not appends and not uploads:
            return []
        with self.appending(con, keep=keep, stats=stats) as appending:
            appending.add(appends, rows=rows, uploads=uploads)
        return appending.stored

    @contextmanager
    def appending(
        self, con: duckdb.DuckDBPyConnection, *, keep: bool = True, stats: IngestStats | None = None
    ) -> Iterator[Appending]:
        """One transaction of appends made a run at a time (:meth:`Appending.add`), as
        :meth:`append_batch` makes them at once: committed when the block ends, all or
        none. An ingest appends each run of files as the workers hand them over, so its
        writer stores one run while they audit the next."""
        with _transaction(con, stats, self._wal):
            appending = Appending(self, con, keep=keep, stats=stats)
            yield appending
            appending.finish()

    @staticmethod
    def _chain(
        appends: Sequence[Append], versions: dict[str, int], head: tuple[int, str], now: datetime
    ) -> Iterator[_Chained]:
        """The appended events with their positions, versions, time and hashes, after
        the event ``head`` (position, hash), each stream checked against the version its
        writer read (``versions``: each stream's as stored, moved on as it is appended
        to), recorded at ``now``, made as they are read: :data:`READ_CHUNK` at a time
        (or a run of :data:`RUN_EVENTS` more), as columns (an object
        per event would cost more than its hash). It reads nothing from the store, so it
        may run in a thread of its own (:func:`_ahead`)."""
        position, prev = head[0], head[1].encode("ascii")
        stamp = moment_text(now)
        chunk = _Chained(now, prev)
        for append in appends:
            stream, version, upload_id = append.stream, versions.get(append.stream, 0), append.upload_id
            if version != append.expected_version:
                raise StaleAppend(f"{stream} is at version {version}, not {append.expected_version}")
            hashes_of = linker(stream, stamp, upload_id)
            start = position, version  # before the run's first event
            for types, payloads, lines in _stream_runs(stream, append.events):
                hashes = hashes_of(prev, position, version, types, payloads, lines)
                if hashes:
                    prev = hashes[-1]
                    position += len(hashes)
                    version += len(hashes)
                chunk.hash.extend(hashes)
                chunk.type.extend(types)
                chunk.payload.extend(payloads)
                chunk.line.extend(lines)
                if len(chunk.hash) >= READ_CHUNK:
                    chunk.run(stream, upload_id, start[0] + 1, start[1] + 1)
                    yield chunk
                    chunk, start = _Chained(now, prev), (position, version)
            chunk.run(stream, upload_id, start[0] + 1, start[1] + 1)
            versions[stream] = version
        if chunk.hash:
            yield chunk

    def rebuild(self, con: duckdb.DuckDBPyConnection, batches: Iterable[Rows]) -> int:
        """Drop every read model and make it anew from row batches: one transaction.
        Returns the event position the new read models reflect."""
        position, _ = self.head(con)
        with _transaction(con):
            _create_read_models(con, position)
            for rows in batches:
                insert_rows(con, rows)
        return position


class Appending:
    """The appends of one open transaction (:meth:`Store.appending`), a run at a time.

    It reads the event head, the next upload id and the uploads' chain head once, and
    moves them on itself as runs are added; each run's streams are checked against the
    versions as they stand in the transaction (the runs before included: each stream
    read from the store once, :meth:`versions`, then followed here), so a stale
    append fails at its run and the whole transaction is rolled back. Every event of
    the transaction shares one time. When the transaction ends (:meth:`finish`), the
    projection position moves to the new head and every upload recorded is linked
    to it: a link names the event head its transaction left.
    """

    def __init__(
        self, store: Store, con: duckdb.DuckDBPyConnection, *, keep: bool = True, stats: IngestStats | None = None
    ) -> None:
        self.store = store
        self.con = con
        self.keep = keep
        self.stats = stats
        self.now = datetime.now(UTC)
        self.head = store.head(con)
        self.appended = 0
        """Events appended in the transaction so far (if any, the projection position
        moves)."""
        self.next_upload: int | None = None
        self.received: list[ReceivedUpload] = []
        self.stored: list[StoredEvent] = []
        """The events appended, in position order, if kept."""
        self.known: dict[str, tuple[int, int] | None] = {}
        """Streams read or appended to: version and newest upload (``None``: no such
        stream)."""

    def versions(self, streams: Iterable[str]) -> dict[str, tuple[int, int]]:
        """The version and newest upload of each of ``streams`` that exists, as it
        stands in the transaction (upload 0: only commands have written to it). A
        stream is read from the store the first time it is asked for (one query for
        all those new: :meth:`Store.stream_versions` reads the whole ``stream``
        column), and followed as the transaction appends to it."""
        streams = sorted(set(streams))
        unread = [s for s in streams if s not in self.known]
        if unread:
            found = self.store.stream_versions(self.con, unread)
            self.known.update((s, found.get(s)) for s in unread)
        return {s: known for s in streams if (known := self.known[s]) is not None}

    def add(self, appends: Sequence[Append], *, rows: NewRows, uploads: Sequence[UploadRow] = ()) -> None:
        """Record ``uploads`` (numbered on from the last one recorded) and append to every
        stream of ``appends`` at its expected version, with the read-model rows of the
        streams appended to, which replace theirs."""
        con, stats = self.con, self.stats
        if uploads:
            if self.next_upload is None:
                self.next_upload = self.store.next_upload_id(con)
            first = self.next_upload
            if [u.upload_id for u in uploads] != list(range(first, first + len(uploads))):
                raise StaleAppend(f"the next upload is {first}, not {uploads[0].upload_id}")
            with lap(stats, "write uploads"):
                _insert_uploads(con, uploads)
                self.received.extend(u.received() for u in uploads)
            self.next_upload = first + len(uploads)
        before = {s: v for s, (v, _) in self.versions(a.stream for a in appends).items()}
        moved_on = dict(before)
        chained = self.store._chain(appends, moved_on, self.head, self.now)
        if sum(len(a.events) for a in appends) > READ_CHUNK:
            chained = _ahead(chained)  # a chunk hashed while DuckDB inserts the one before
        while True:
            with lap(stats, "chain (events made, hashed)"):
                chunk = next(chained, None)
            if chunk is None:
                break
            with lap(stats, "write events"):
                _insert_columns(con, StoredEvent, chunk.columns())
            self.head = chunk.head
            self.appended += len(chunk.hash)
            if self.keep:
                self.stored.extend(chunk.events())
        for append in appends:  # the newest upload: this one, unless a command appended
            earlier = self.known.get(append.stream)
            newest = append.upload_id if append.upload_id is not None else earlier[1] if earlier else 0
            self.known[append.stream] = moved_on[append.stream], newest
        with lap(stats, "write read models"):
            # a stream new in this transaction has no rows to replace
            _replace(con, [a.stream for a in appends if a.stream in before], rows)

    def finish(self) -> None:
        """The transaction's end: the projection position moved to the new head, and
        every upload recorded linked to it."""
        con = self.con
        if self.appended:
            con.execute("UPDATE projection SET position = ? WHERE name = 'read_models'", [self.head[0]])
        if self.received:
            with lap(self.stats, "write uploads"):
                position, head = self.head
                prev = self.store.uploads_head(con)[1]
                _insert(con, UploadLink, _links(prev, self.received, position, head))


def _ahead(items: Iterator[_T]) -> Generator[_T, None, None]:
    """``items``, made in a thread of their own one item ahead of the reader.

    The writer hashes the chain in Python, holding the interpreter lock, and DuckDB
    inserts the chunk before without it: made ahead, the next chunk's hashes cost the
    writer no time of its own. An error making an item is raised to the reader at that
    item; a reader that stops early (its insert failed) stops the thread.
    """
    handoff: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def put(entry: tuple[bool, Any]) -> bool:
        while not stop.is_set():
            try:
                handoff.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def make() -> None:
        try:
            for item in items:
                if not put((True, item)):
                    return
        except BaseException as error:  # handed to the reader, who raises it
            put((False, error))
        else:
            put((False, None))

    thread = threading.Thread(target=make, name="chain ahead", daemon=True)
    thread.start()
    try:
        while True:
            more, item = handoff.get()
            if not more:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        stop.set()
        thread.join()


_LOCKED: Final = re.compile(r"Could not set lock|Conflicting lock|same database file with a different configuration")
"""DuckDB's words for a file another process holds (not "block": damage names blocks),
or another thread of this one in the other mode (a dashboard page reading while the
recording page writes, in the same server): either lets go after its one job."""
_REFUSED: Final = re.compile(r"No such file|Permission denied|Is a directory|No space left|Read-only file system")
"""DuckDB passing on the file system's refusal: not damage."""
_DAMAGE: Final = (duckdb.IOException, duckdb.SerializationException, duckdb.InternalException, duckdb.FatalException)
"""What DuckDB raises reading a damaged file (a failed checksum is a plain ``duckdb.Error``)."""
_PATH: Final = re.compile(r"(?:[A-Za-z]:)?[\\/][^\s'\"]*[\\/][^\s'\"]*")
"""A file system path with a folder in it: not for a page the public sees."""
_RECEIVED: Final = (
    "u.upload_id, u.sha256, u.name, u.size, u.received_at, u.kind, u.outcome, u.status, u.game_ids, "
    "u.duplicate_of, u.supersedes, u.reason, sha256(u.report), sha256(u.raw)"
)
"""An upload's columns as its link covers them (:class:`~ingest.chain.ReceivedUpload`)."""
_UPLOADS_WITH_LINKS: Final = f"""
SELECT coalesce(u.upload_id, l.upload_id) AS id, {_RECEIVED}, l.upload_id, l.position, l.head, l.prev_hash, l.hash
FROM uploads u FULL OUTER JOIN upload_chain l ON l.upload_id = u.upload_id
ORDER BY id
"""


def _received(row: Sequence[Any]) -> ReceivedUpload | None:
    """An upload as :data:`_RECEIVED` reads it (``None``: no such row)."""
    if row[0] is None:
        return None
    upload_id, sha, name, size, received_at, kind, outcome, status, game_ids, *rest = row
    duplicate_of, supersedes, reason, report_sha256, raw_sha256 = rest
    return ReceivedUpload(
        upload_id,
        sha,
        name,
        size,
        received_at,
        kind,
        outcome,
        status,
        tuple(game_ids),
        duplicate_of,
        supersedes,
        reason,
        report_sha256,
        raw_sha256,
    )


def _link(row: Sequence[Any]) -> UploadLink | None:
    """An upload's link as :data:`_UPLOADS_WITH_LINKS` reads it (``None``: no link)."""
    if row[0] is None:
        return None
    upload_id, position, head, prev_hash, digest = row
    return UploadLink(upload_id=upload_id, position=position, head=head, prev_hash=prev_hash, hash=digest)


def _close(con: duckdb.DuckDBPyConnection) -> None:
    """Close a connection whose job failed already (a second failure says no more)."""
    with suppress(duckdb.Error):
        con.close()


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables of the file's main schema."""
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'"
    ).fetchall()
    return {str(name) for (name,) in rows}


def _version(con: duckdb.DuckDBPyConnection, tables: set[str]) -> int | None:
    """The schema version the store records, ``None`` if it records none."""
    if "meta" not in tables:
        return None
    found = _one(con, "SELECT value FROM meta WHERE key = 'schema_version'")
    return int(found[0]) if found and str(found[0]).isdigit() else None


def _unstarted(con: duckdb.DuckDBPyConnection, tables: set[str]) -> bool:
    """Whether the file is one a store may be created in: no table at all, or only the
    log's tables, empty (a creation killed before it committed, by an older program)."""
    return tables <= set(LOG_TABLE_NAMES) and all(
        _one(con, f"SELECT count(*) FROM {table}") == (0,) for table in sorted(tables)
    )


def _damaged(detail: str) -> str:
    """What a damaged file is, in words, with DuckDB's own."""
    if "Could not read enough bytes" in detail:
        return f"damaged: the file is cut short ({detail})"
    if "checksum" in detail:
        return f"damaged: a block of the file fails its checksum ({detail})"
    return f"damaged: {detail}"


def _missing(tables: Sequence[str]) -> str:
    """What a store missing ``tables`` is, and what mends it."""
    names = ", ".join(tables)
    said = f"damaged: its {names} table{' is' if len(tables) == 1 else 's are'} missing"
    if set(tables) <= set(READ_MODELS):
        return f"{said} (saboteur rebuild makes the read models anew)"
    return f"{said} (restore the file from a copy)"


def _links(prev: str, uploads: Iterable[ReceivedUpload], position: int, head: str) -> list[UploadLink]:
    """The links of ``uploads``, in order, after the link whose hash is ``prev``, each
    naming the event head ``position``/``head``."""
    links: list[UploadLink] = []
    for upload in uploads:
        digest = link(prev, upload.canonical(position, head))
        links.append(UploadLink(upload_id=upload.upload_id, position=position, head=head, prev_hash=prev, hash=digest))
        prev = digest
    return links


@contextmanager
def _transaction(
    con: duckdb.DuckDBPyConnection, stats: IngestStats | None = None, wal: Path | None = None
) -> Iterator[None]:
    """One transaction: committed at the end of the block, rolled back if it raises.

    ``stats`` times the commit; given the store's write-ahead log (``wal``), a commit
    after which DuckDB left none is timed apart (:data:`CHECKPOINTED_COMMIT`). The
    timing is taken once the commit stands, and cannot fail it (``os.path.exists``
    says no for a file it cannot look at)."""
    con.execute("BEGIN")
    try:
        yield
        started = time.perf_counter()
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    if stats is not None:
        checkpointed = wal is not None and not os.path.exists(wal)
        stats.add(CHECKPOINTED_COMMIT if checkpointed else "commit", time.perf_counter() - started)


CHECKPOINTED_COMMIT: Final = "commit + DuckDB's checkpoint"
"""The step of :class:`IngestStats` for a commit that DuckDB made a checkpoint of, with its
vacuum (its write-ahead log past ``checkpoint_threshold``): at the end of a long ingest it
merges the part-full row groups every batch left (:func:`checkpoint_unmerged`), which
took 3.9 s of a run of 10,000 games, where every other commit took 0.2 s."""


def _until(moment: Moment) -> tuple[str, list[Any]]:
    """The condition on events up to a position or a time (none for ``None``)."""
    if moment is None:
        return "TRUE", []
    return ("position <= ?", [moment]) if isinstance(moment, int) else ("recorded_at <= ?", [moment])


def _events(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> Iterator[StoredEvent]:
    """Stored events from a query of :data:`_ENVELOPE`, fetched a chunk at a time on a
    cursor of their own (the connection stays free for other work meanwhile).

    Every event of a transaction shares its time, so each distinct time is made a
    datetime once, in the session's time zone as DuckDB would give it: DuckDB's own
    conversion, row by row, costs more than the rest of the row together.
    """
    moments: dict[int, datetime] = {}
    cursor = con.cursor()
    try:
        zone = ZoneInfo(str(_one(cursor, "SELECT current_setting('TimeZone')")[0]))  # type: ignore[index]
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(20_000):
            for row in chunk:
                values = list(row)
                micros = values[_TIME]
                moment = moments.get(micros)
                if moment is None:
                    moment = moments[micros] = (_EPOCH + timedelta(microseconds=micros)).astimezone(zone)
                values[_TIME] = moment
                yield StoredEvent(*values)
    finally:
        cursor.close()


def _in_order(
    con: duckdb.DuckDBPyConnection, condition: str, params: list[Any], after: int = 0
) -> Iterator[StoredEvent]:
    """The events after position ``after`` that meet ``condition``, in position order,
    read :data:`READ_CHUNK` positions at a time: each query sorts no more than that,
    and finds them in the few row groups that hold those positions (over a gap in the
    positions, it moves on to the next event there is)."""
    chunk = f"SELECT {_ENVELOPE} FROM events WHERE position > ? AND position <= ? AND {condition} ORDER BY position"
    following = f"SELECT min(position) FROM events WHERE position > ? AND {condition}"
    start: int | None = after
    while start is not None:
        read = False
        for event in _events(con, chunk, [start, start + READ_CHUNK, *params]):
            read = True
            yield event
        start += READ_CHUNK
        if not read:
            with con.cursor() as cursor:
                found = _one(cursor, following, [start, *params])
            start = None if found is None or found[0] is None else int(found[0]) - 1


def _streams(con: duckdb.DuckDBPyConnection, run: Sequence[str]) -> Iterator[list[StoredEvent]]:
    """The events of a run of streams (consecutive in stream order), a stream at a time."""
    if not run:
        return
    stream: list[StoredEvent] = []
    sql = f"SELECT {_ENVELOPE} FROM events WHERE stream BETWEEN ? AND ? ORDER BY stream, position"
    for event in _events(con, sql, [run[0], run[-1]]):
        if stream and event.stream != stream[0].stream:
            yield stream
            stream = []
        stream.append(event)
    if stream:
        yield stream


class StreamEvents(Sequence[StoredEvent]):
    """The events of one long stream in version order, read from the store a chunk at a
    time each time they are read (on the connection they came from, so only while it
    is open); ``skip`` leaves out the first ones (a slice: a stream's current revision).
    An index is found by reading up to it."""

    def __init__(self, con: duckdb.DuckDBPyConnection, stream: str, size: int, skip: int = 0) -> None:
        self.con = con
        self.stream = stream
        self.size = size
        self.skip = skip

    def __len__(self) -> int:
        return max(self.size - self.skip, 0)

    def __iter__(self) -> Iterator[StoredEvent]:
        return islice(self._read(), self.skip, None)

    def _read(self) -> Iterator[StoredEvent]:
        return _in_order(self.con, "stream = ?", [self.stream])

    @overload
    def __getitem__(self, index: int) -> StoredEvent: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[StoredEvent]: ...

    def __getitem__(self, index: int | slice) -> StoredEvent | Sequence[StoredEvent]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if stop == len(self) and step == 1:
                return StreamEvents(self.con, self.stream, self.size, self.skip + start)
            return list(islice(self, start, stop, step))
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return next(islice(self, index % len(self), None))


_OBSERVED_COLUMNS: Final = {
    "games": "ALTER TABLE games ADD COLUMN IF NOT EXISTS recording VARCHAR",
    "cards_played": "ALTER TABLE cards_played ALTER COLUMN card DROP NOT NULL",
    "penalties": "ALTER TABLE penalties ADD COLUMN IF NOT EXISTS finding VARCHAR",
}
"""What schema version 3 changed in the read models: each game's recording, a discard
whose card nobody saw, the finding a penalty was given for."""
_RECORDING: Final = """
UPDATE games g SET recording = coalesce(
    (SELECT json_extract_string(e.payload, '$.recording') FROM events e
     WHERE e.stream = 'game:' || g.game_id AND e.type = 'game_started' ORDER BY e.position DESC LIMIT 1),
    'full')
WHERE g.source = 'log' AND g.recording IS NULL
"""
"""Each stored log's recording, as its newest ``game_started`` says (``full`` unless it
says otherwise), for the games a store of version 2 holds."""


def _observed_columns(con: duckdb.DuckDBPyConnection) -> None:
    """Schema version 2 to 3: the read models that are there (a rebuild makes missing
    ones anew) take the observed recording's columns, filled in as a rebuild would."""
    present = _tables(con)
    for name, ddl in _OBSERVED_COLUMNS.items():
        if name in present:
            con.execute(ddl)
    if "games" in present:
        con.execute(_RECORDING)


def _create_read_models(con: duckdb.DuckDBPyConnection, position: int) -> None:
    """Every read model made anew, empty, reflecting the events up to ``position``."""
    for name, ddl in READ_MODELS.items():
        con.execute(f"DROP TABLE IF EXISTS {name}")
        con.execute(ddl)
    con.execute("INSERT INTO projection VALUES ('read_models', ?)", [position])


def _replace(con: duckdb.DuckDBPyConnection, streams: Sequence[str], rows: NewRows) -> None:
    """The read-model rows of these streams replaced by ``rows``."""
    for kind, (column, tables) in PROJECTED.items():
        ids = [s.split(":", 1)[1] for s in streams if s.split(":", 1)[0] == kind]
        if ids:
            for table in tables:
                con.execute(f"DELETE FROM {table} WHERE {column} IN (SELECT unnest(?::VARCHAR[]))", [ids])
    insert_rows(con, rows)


def insert_rows(con: duckdb.DuckDBPyConnection, rows: NewRows) -> None:
    """Read-model rows inserted, table by table, each as row objects or as
    :class:`~ingest.tables.Columns` (``con`` may be any database holding the read
    models, such as an in-memory snapshot)."""
    for table, table_rows in rows.items():
        if isinstance(table_rows, Columns):
            if len(table_rows):
                _insert_columns(con, table_rows.row_type, table_rows.data)
        elif isinstance(table_rows, ArrowColumns):
            if len(table_rows):
                _insert_table(con, table_rows.row_type, table_rows.table)
        else:
            _insert(con, ROW_TYPES[table], table_rows)


def _insert_uploads(con: duckdb.DuckDBPyConnection, uploads: Sequence[UploadRow]) -> None:
    """Upload rows inserted in bulk, a run of them at a time: a run's raw bytes are
    copied once more, into Arrow, before DuckDB copies them, so a run holds at most
    :data:`UPLOAD_RUN_BYTES` of them (or one upload, whatever its size: up to 64 MiB)."""
    run: list[UploadRow] = []
    held = 0
    for upload in uploads:
        size = len(upload.raw or b"")
        if run and held + size > UPLOAD_RUN_BYTES:
            _insert(con, UploadRow, run)
            run, held = [], 0
        run.append(upload)
        held += size
    _insert(con, UploadRow, run)


UPLOAD_RUN_BYTES: Final = 8 * 2**20


def _insert(con: duckdb.DuckDBPyConnection, row_type: type[Row], rows: Sequence[Any]) -> None:
    """One INSERT of a whole table's rows (:func:`_insert_columns`): never row by row."""
    if rows:
        _insert_columns(con, row_type, row_columns(row_type, rows))


def _insert_columns(
    con: duckdb.DuckDBPyConnection, row_type: type[Row], data: Mapping[str, Sequence[Any] | pa.Array]
) -> None:
    """One INSERT of a table's columns, by name, made an Arrow table (:func:`_insert_table`)."""
    _insert_table(con, row_type, arrow_table(row_type, data))


def _insert_table(con: duckdb.DuckDBPyConnection, row_type: type[Row], bulk_table: pa.Table) -> None:
    """One INSERT of an Arrow table of a row type's columns, by name. DuckDB reads the
    table by its name in this scope (a replacement scan): registering it instead
    (``con.register``) keeps memory that grows with every row ever inserted, some 200
    bytes a row, until the process ends."""
    con.execute(f"INSERT INTO {row_type.TABLE} BY NAME SELECT * FROM bulk_table")
    del bulk_table
