"""The DuckDB event store: one file, opened only for as long as each job needs it.

A DuckDB file admits one writing process and no other process beside it, so the store
never holds a connection between operations: the dashboard and a second ``saboteur
ingest`` get their turn between our transactions. When another process holds the file,
opening waits (with back-off) and then fails with :class:`StoreBusy`. A job opens a
connection (:meth:`Store.connect`) and passes it to the store's methods.

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

import os
import random
import time
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final
from zoneinfo import ZoneInfo

import duckdb

from ingest.chain import GENESIS, StoredEvent, canonical, link, moment_text
from ingest.readmodels import PROJECTED, ROW_TYPES, Rows
from ingest.schema import LOG_TABLES, READ_MODELS, SCHEMA_VERSION, UploadRow
from ingest.tables import Row, frame, names

DEFAULT_DB: Final = "saboteur.duckdb"
_TIME: Final = names(StoredEvent).index("recorded_at")
_ENVELOPE: Final = ", ".join(f"epoch_us({n})" if n == "recorded_at" else n for n in names(StoredEvent))
"""The events' columns as read: the time as microseconds since 1970, made a datetime
once per distinct time (:func:`_events`)."""
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)

Moment = int | datetime | None
"""An event position, a time, or ``None`` for now."""


def _one(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> tuple[Any, ...] | None:
    """The first row of a query, with the result read to its end (DuckDB 2 refuses
    further work on a connection while a result is unfinished)."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


def _config() -> dict[str, Any]:
    """DuckDB settings: a memory ceiling (``$SABOTEUR_DB_MEMORY``, default 384MB; DuckDB
    spills to disk past it) so an ingest stays well under 1 GiB whatever its size."""
    return {"memory_limit": os.environ.get("SABOTEUR_DB_MEMORY", "384MB")}


class StoreBusy(RuntimeError):
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


class Store:
    """The event store in one DuckDB file."""

    def __init__(self, path: Path | str | None = None, *, wait: float = 60.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.wait = wait

    # -- connections -------------------------------------------------------------

    @contextmanager
    def connect(self, *, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one job, created and migrated on first use, closed after.

        A read-only connection to a store that was never set up (or whose setup a
        crash cut short) first sets it up with a writable one.
        """
        if read_only and not self.path.exists():
            with self.connect():
                pass
        con = self._open(read_only)
        try:
            if not read_only:
                self._migrate(con)
            elif self._version(con) is None:
                con.close()
                with self.connect():
                    pass
                con = self._open(read_only)
            yield con
        finally:
            con.close()

    def _open(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """Open the file, waiting with back-off while another process holds it."""
        deadline = time.monotonic() + self.wait
        pause = 0.02
        while True:
            try:
                return duckdb.connect(str(self.path), read_only=read_only, config=_config())
            except duckdb.IOException as exc:
                if "lock" not in str(exc).lower():
                    raise
                if time.monotonic() >= deadline:
                    raise StoreBusy(
                        f"database busy: another process is using {self.path} "
                        f"(waited {self.wait:g} s); try again when it has finished"
                    ) from None
                time.sleep(pause * (1 + random.random()))
                pause = min(pause * 2, 0.5)

    @staticmethod
    def _version(con: duckdb.DuckDBPyConnection) -> int | None:
        """The schema version recorded, ``None`` if the store was never fully set up."""
        try:
            found = _one(con, "SELECT value FROM meta WHERE key = 'schema_version'")
        except duckdb.CatalogException:
            return None
        return int(found[0]) if found else None

    def _migrate(self, con: duckdb.DuckDBPyConnection) -> None:
        """Set the store up in one transaction (a crash leaves nothing half made)."""
        version = self._version(con)
        if version is None:
            with _transaction(con):
                con.execute(LOG_TABLES)
                _create_read_models(con, 0)
                con.execute("DELETE FROM meta")  # a setup cut short: meta holds no version yet
                con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
                con.execute("INSERT INTO meta VALUES ('created_at', ?)", [datetime.now(UTC).isoformat()])
        elif version > SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} has schema version {version}, newer than this program's {SCHEMA_VERSION}")

    # -- reading -----------------------------------------------------------------

    def head(self, con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
        """The newest event's position and hash (0 and the genesis hash when empty)."""
        row = _one(con, "SELECT position, hash FROM events ORDER BY position DESC LIMIT 1")
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

    def read(self, con: duckdb.DuckDBPyConnection, stream: str, *, until: Moment = None) -> list[StoredEvent]:
        """A stream's events in version order (every revision: see
        :func:`ingest.revisions.current`), up to a position or a time if given."""
        condition, params = _until(until)
        sql = f"SELECT {_ENVELOPE} FROM events WHERE stream = ? AND {condition} ORDER BY version"
        return list(_events(con, sql, [stream, *params]))

    def read_all(
        self, con: duckdb.DuckDBPyConnection, after: int = 0, *, until: Moment = None, types: Collection[str] = ()
    ) -> Iterator[StoredEvent]:
        """Every event after position ``after``, in position order, up to a position or
        a time if given, only of the given ``types`` if any; read a chunk at a time."""
        condition, params = _until(until)
        if types:
            condition += " AND type IN (SELECT unnest(?::VARCHAR[]))"
            params.append(list(types))
        yield from _events(
            con,
            f"SELECT {_ENVELOPE} FROM events WHERE position > ? AND {condition} ORDER BY position",
            [after, *params],
        )

    def read_streams(self, con: duckdb.DuckDBPyConnection) -> Iterator[list[StoredEvent]]:
        """Every stream's events, a stream at a time (in stream order, each in version
        order): what a rebuild projects, without holding the whole store."""
        stream: list[StoredEvent] = []
        for event in _events(con, f"SELECT {_ENVELOPE} FROM events ORDER BY stream, position", []):
            if stream and event.stream != stream[0].stream:
                yield stream
                stream = []
            stream.append(event)
        if stream:
            yield stream

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
        commands have written to it)."""
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
        rows: Rows,
        uploads: Sequence[UploadRow] = (),
    ) -> list[StoredEvent]:
        """Record ``uploads`` (numbered on from :meth:`next_upload_id`) and append to
        every stream of ``appends`` at its expected version, with the read-model rows of
        the streams appended to (replacing theirs): one transaction, all or none. The
        events as stored, in position order."""
        if not appends and not uploads:
            return []
        with _transaction(con):
            if uploads:
                first = self.next_upload_id(con)
                if [u.upload_id for u in uploads] != list(range(first, first + len(uploads))):
                    raise StaleAppend(f"the next upload is {first}, not {uploads[0].upload_id}")
                _insert(con, UploadRow, uploads)
            stored = self._chain(con, appends)
            _insert(con, StoredEvent, stored)
            _replace(con, [a.stream for a in appends], rows)
            if stored:
                con.execute("UPDATE projection SET position = ? WHERE name = 'read_models'", [stored[-1].position])
        return stored

    def _chain(self, con: duckdb.DuckDBPyConnection, appends: Sequence[Append]) -> list[StoredEvent]:
        """The appended events with their positions, versions, time and hashes, each
        stream checked against the version its writer read."""
        position, prev = self.head(con)
        versions = {s: v for s, (v, _) in self.stream_versions(con, sorted({a.stream for a in appends})).items()}
        now = datetime.now(UTC)
        stamp = moment_text(now)
        stored: list[StoredEvent] = []
        for append in appends:
            stream, version, upload_id = append.stream, versions.get(append.stream, 0), append.upload_id
            if version != append.expected_version:
                raise StaleAppend(f"{stream} is at version {version}, not {append.expected_version}")
            for event in append.events:
                if event.stream != stream:
                    raise ValueError(f"an event of {event.stream} appended to {stream}")
                position += 1
                version += 1
                text = canonical(position, stream, version, event.type, event.payload, stamp, upload_id, event.line)
                digest = link(prev, text)
                stored.append(
                    StoredEvent(
                        position, stream, version, event.type, event.payload, now, upload_id, event.line, prev, digest
                    )
                )
                prev = digest
            versions[stream] = version
        return stored

    def rebuild(self, con: duckdb.DuckDBPyConnection, batches: Iterable[Rows]) -> int:
        """Drop every read model and make it anew from row batches: one transaction.
        Returns the event position the new read models reflect."""
        position, _ = self.head(con)
        with _transaction(con):
            _create_read_models(con, position)
            for rows in batches:
                insert_rows(con, rows)
        return position


@contextmanager
def _transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """One transaction: committed at the end of the block, rolled back if it raises."""
    con.execute("BEGIN")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


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


def _create_read_models(con: duckdb.DuckDBPyConnection, position: int) -> None:
    """Every read model made anew, empty, reflecting the events up to ``position``."""
    for name, ddl in READ_MODELS.items():
        con.execute(f"DROP TABLE IF EXISTS {name}")
        con.execute(ddl)
    con.execute("INSERT INTO projection VALUES ('read_models', ?)", [position])


def _replace(con: duckdb.DuckDBPyConnection, streams: Sequence[str], rows: Rows) -> None:
    """The read-model rows of these streams replaced by ``rows``."""
    for kind, (column, tables) in PROJECTED.items():
        ids = [s.split(":", 1)[1] for s in streams if s.split(":", 1)[0] == kind]
        if ids:
            for table in tables:
                con.execute(f"DELETE FROM {table} WHERE {column} IN (SELECT unnest(?::VARCHAR[]))", [ids])
    insert_rows(con, rows)


def insert_rows(con: duckdb.DuckDBPyConnection, rows: Mapping[str, Sequence[Any]]) -> None:
    """Read-model rows inserted, table by table (``con`` may be any database holding
    the read models, such as an in-memory snapshot)."""
    for table, table_rows in rows.items():
        _insert(con, ROW_TYPES[table], table_rows)


def _insert(con: duckdb.DuckDBPyConnection, row_type: type[Row], rows: Sequence[Any]) -> None:
    """One INSERT of a whole table's rows, by column name (Arrow underneath): never row
    by row. The frame stays registered when the insert fails (unregistering in the
    aborted transaction would fail too, hiding the insert's own error); the next
    insert's registration replaces it."""
    if not rows:
        return
    con.register("bulk_frame", frame(row_type, rows))
    con.execute(f"INSERT INTO {row_type.TABLE} BY NAME SELECT * FROM bulk_frame")
    con.unregister("bulk_frame")
