"""The store's writing side: events appended to their streams at the versions their
writers read, with the uploads they came in and the read-model rows they make, in one
transaction (:meth:`Writing.append_batch`), or a run at a time within one
(:meth:`Writing.appending`).

Deciding what to append is the caller's job; the store checks each stream against the
version its writer read (:class:`~ingest.store.errors.StaleAppend`), chains the events
(:mod:`ingest.store.chained`), replaces the streams' read-model rows, moves the
projection position to the new head and links each upload to it: all or none.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pyarrow as pa

from ingest.chain import ReceivedUpload, StoredEvent
from ingest.readmodels import PROJECTED, ROW_TYPES, Rows
from ingest.schema import READ_MODELS, UploadLink, UploadRow
from ingest.stats import IngestStats, lap
from ingest.store import chunks
from ingest.store.chained import Append, NewEvent, chain, links
from ingest.store.commits import transaction
from ingest.store.errors import StaleAppend
from ingest.store.reading import Reading, stamped_head
from ingest.tables import ArrowColumns, Columns, Row, TableColumns, arrow_table, row_columns

_T = TypeVar("_T")
NewRows = Mapping[str, Sequence[Any] | TableColumns]
"""Read-model rows by table, as row objects or as columns (:class:`~ingest.tables.Columns`,
:class:`~ingest.tables.ArrowColumns`)."""


class Writing(Reading):
    """The writing side of :class:`~ingest.store.Store` (which reads too): each method
    writes over the connection of a job (:meth:`~ingest.store.Store.connect`)."""

    path: Path
    """The store's file."""

    @property
    def _wal(self) -> Path:
        """DuckDB's write-ahead log of the store, beside it while commits wait for a
        checkpoint: none after a commit says DuckDB made a checkpoint of it."""
        return self.path.with_name(self.path.name + ".wal")

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
        inserted :data:`~ingest.store.chunks.READ_CHUNK` at a time, and a writer appending a 16 MiB log (some
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
        with transaction(con, stats, self._wal):
            appending = Appending(self, con, keep=keep, stats=stats)
            yield appending
            appending.finish()

    def rebuild(self, con: duckdb.DuckDBPyConnection, batches: Iterable[Rows]) -> int:
        """Drop every read model and make it anew from row batches: one transaction.
        Returns the event position the new read models reflect."""
        position, _ = self.head(con)
        with transaction(con):
            create_read_models(con, position)
            for rows in batches:
                insert_rows(con, rows)
        return position


class Appending:
    """The appends of one open transaction (:meth:`Writing.appending`), a run at a time.

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
        self, store: Writing, con: duckdb.DuckDBPyConnection, *, keep: bool = True, stats: IngestStats | None = None
    ) -> None:
        self.store = store
        self.con = con
        self.keep = keep
        self.stats = stats
        self.head, last = stamped_head(con)
        # never before the events already stored, whatever the clock says (an NTP step
        # back, a laptop's clock set right at the venue): --as-of a time reads the store
        # by these, and a later transaction stamped earlier showed a store that never was
        now = datetime.now(UTC)
        self.now = now if last is None or now >= last else last.astimezone(UTC)
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
        all those new: :meth:`~Reading.stream_versions` reads the whole ``stream``
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
                insert_uploads(con, uploads)
                self.received.extend(u.received() for u in uploads)
            self.next_upload = first + len(uploads)
        before = {s: v for s, (v, _) in self.versions(a.stream for a in appends).items()}
        moved_on = dict(before)
        chained = chain(appends, moved_on, self.head, self.now)
        if sum(len(a.events) for a in appends) > chunks.READ_CHUNK:
            chained = ahead(chained)  # a chunk hashed while DuckDB inserts the one before
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
                insert(con, UploadLink, links(prev, self.received, position, head))


def ahead(items: Iterator[_T]) -> Generator[_T, None, None]:
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


def create_read_models(con: duckdb.DuckDBPyConnection, position: int) -> None:
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
            insert(con, ROW_TYPES[table], table_rows)


def insert_uploads(con: duckdb.DuckDBPyConnection, uploads: Sequence[UploadRow]) -> None:
    """Upload rows inserted in bulk, a run of them at a time: a run's raw bytes are
    copied once more, into Arrow, before DuckDB copies them, so a run holds at most
    :data:`~ingest.store.chunks.UPLOAD_RUN_BYTES` of them (or one upload, whatever its size: up to 64 MiB)."""
    run: list[UploadRow] = []
    held = 0
    for upload in uploads:
        size = len(upload.raw or b"")
        if run and held + size > chunks.UPLOAD_RUN_BYTES:
            insert(con, UploadRow, run)
            run, held = [], 0
        run.append(upload)
        held += size
    insert(con, UploadRow, run)


def insert(con: duckdb.DuckDBPyConnection, row_type: type[Row], rows: Sequence[Any]) -> None:
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
