"""The DuckDB event store: one file, opened only for as long as each job needs it.

A DuckDB file admits one writing process and no other process beside it, so the store
never holds a connection between operations: the dashboard and a second ``saboteur
ingest`` get their turn between our transactions. When another process holds the file,
opening waits (with back-off) and then fails with :class:`StoreBusy`.

Everything written goes through :meth:`Store.write`, in one transaction: the uploads,
the events (hash-chained, appended at expected stream versions) and the read-model rows
derived from them, with the projection position. A crash at any moment leaves the store
as it was before that transaction.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import duckdb
import polars as pl

from ingest.chain import GENESIS, canonical, link, moment_text
from ingest.schema import GAME_TABLES, LOG_TABLES, READ_MODELS, SCHEMA_VERSION, TOURNAMENT_TABLES

DEFAULT_DB: Final = "saboteur.duckdb"
READ_MODEL_NAMES: Final = tuple(READ_MODELS)


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
    """A stream moved on since its version was read (optimistic concurrency)."""


def default_path() -> Path:
    """``--db``'s default: ``$SABOTEUR_DB``, else ``./saboteur.duckdb``."""
    return Path(os.environ.get("SABOTEUR_DB") or DEFAULT_DB)


@dataclass
class NewEvent:
    """An event to append: the store gives it its position, version, time and hashes."""

    stream: str
    type: str
    payload: str
    line: int | None = None


@dataclass
class NewUpload:
    """An upload to record, with the events and read-model rows it brings."""

    sha256: str
    name: str
    size: int
    kind: str
    outcome: str
    status: str
    report: str
    raw: bytes | None
    game_ids: list[str] = field(default_factory=list)
    events: list[NewEvent] = field(default_factory=list)
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    duplicate_of: int | None = None
    supersedes: int | None = None
    reason: str | None = None
    replaces: list[str] = field(default_factory=list)
    """Read-model keys (``game:<id>``, ``tournament:<id>``) whose rows this upload replaces."""
    expected_versions: dict[str, int] = field(default_factory=dict)
    """For each stream appended to: the version it must be at (0: a new stream)."""
    upload_id: int = 0


@dataclass
class Append:
    """Events a command appends (no file behind them: a penalty, a seating…), with the
    read-model rows of the streams they change."""

    events: list[NewEvent]
    expected_versions: dict[str, int]
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    replaces: list[str] = field(default_factory=list)


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
            con.execute("BEGIN")
            try:
                con.execute(LOG_TABLES)
                for name, ddl in READ_MODELS.items():
                    con.execute(f"DROP TABLE IF EXISTS {name}")
                    con.execute(ddl)
                con.execute("INSERT INTO projection VALUES ('read_models', 0)")
                con.execute("DELETE FROM meta")  # a setup cut short: meta holds no version yet
                con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
                con.execute("INSERT INTO meta VALUES ('created_at', ?)", [datetime.now(UTC).isoformat()])
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        elif version > SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} has schema version {version}, newer than this program's {SCHEMA_VERSION}")

    # -- reading -----------------------------------------------------------------

    def head(self, con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
        """The newest event's position and hash (0 and the genesis hash when empty)."""
        row = _one(con, "SELECT position, hash FROM events ORDER BY position DESC LIMIT 1")
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

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

    # -- writing -----------------------------------------------------------------

    def write(self, con: duckdb.DuckDBPyConnection, uploads: list[NewUpload], appends: Sequence[Append] = ()) -> None:
        """Record uploads, append their events and rows (and those of commands): one
        transaction, all or none."""
        if not uploads and not appends:
            return
        con.execute("BEGIN")
        try:
            self._write(con, uploads, appends)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def _write(self, con: duckdb.DuckDBPyConnection, uploads: list[NewUpload], appends: Sequence[Append] = ()) -> None:
        now = datetime.now(UTC)
        next_upload = int(_one(con, "SELECT coalesce(max(upload_id), 0) FROM uploads")[0]) + 1  # type: ignore[index]
        position, prev = self.head(con)
        streams = sorted({e.stream for u in uploads for e in u.events} | {e.stream for a in appends for e in a.events})
        versions = {s: v for s, (v, _) in self.stream_versions(con, streams).items()}
        upload_rows: list[dict[str, Any]] = []
        event_cols: dict[str, list[Any]] = {
            k: []
            for k in (
                "position",
                "stream",
                "version",
                "type",
                "payload",
                "recorded_at",
                "upload_id",
                "line",
                "prev_hash",
                "hash",
            )
        }
        rows: dict[str, list[dict[str, Any]]] = {name: [] for name in READ_MODELS if name != "projection"}
        chain = _Chain(versions, event_cols, now)
        replaced: list[str] = []
        originals: dict[str, int] = {}
        for upload in uploads:
            upload.upload_id = next_upload
            next_upload += 1
            if upload.outcome == "duplicate" and upload.duplicate_of is None:
                upload.duplicate_of = originals.get(upload.sha256)
            elif upload.outcome != "duplicate":
                originals.setdefault(upload.sha256, upload.upload_id)
            position, prev = chain.extend(upload.events, upload.expected_versions, upload.upload_id, position, prev)
            replaced.extend(upload.replaces)
            for table, table_rows in upload.rows.items():
                for row in table_rows:
                    if "upload_id" in row:
                        row["upload_id"] = upload.upload_id
                rows[table].extend(table_rows)
            upload_rows.append(
                {
                    "upload_id": upload.upload_id,
                    "sha256": upload.sha256,
                    "name": upload.name,
                    "size": upload.size,
                    "received_at": now,
                    "kind": upload.kind,
                    "outcome": upload.outcome,
                    "status": upload.status,
                    "game_ids": upload.game_ids,
                    "duplicate_of": upload.duplicate_of,
                    "supersedes": upload.supersedes,
                    "reason": upload.reason,
                    "report": upload.report,
                    "raw": upload.raw,
                }
            )
        for append in appends:
            position, prev = chain.extend(append.events, append.expected_versions, None, position, prev)
            replaced.extend(append.replaces)
            for table, table_rows in append.rows.items():
                rows[table].extend(table_rows)
        if upload_rows:
            _bulk_insert(con, "uploads", pl.DataFrame(upload_rows, schema=_UPLOAD_SCHEMA))
        if event_cols["position"]:
            _bulk_insert(con, "events", pl.DataFrame(event_cols, schema=_EVENT_SCHEMA))
        self._replace_rows(con, replaced)
        self._insert_rows(con, rows)
        con.execute("UPDATE projection SET position = ? WHERE name = 'read_models'", [position])

    def _replace_rows(self, con: duckdb.DuckDBPyConnection, keys: list[str]) -> None:
        games = [k.removeprefix("game:") for k in keys if k.startswith("game:")]
        tournaments = [k.removeprefix("tournament:") for k in keys if k.startswith("tournament:")]
        if games:
            for table in GAME_TABLES:
                con.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest(?::VARCHAR[]))", [games])
        if tournaments:
            for table in TOURNAMENT_TABLES:
                con.execute(f"DELETE FROM {table} WHERE tournament IN (SELECT unnest(?::VARCHAR[]))", [tournaments])

    def _insert_rows(self, con: duckdb.DuckDBPyConnection, rows: dict[str, list[dict[str, Any]]]) -> None:
        for table, table_rows in rows.items():
            if not table_rows:
                continue
            columns = [c[0] for c in con.execute(f"DESCRIBE {table}").fetchall()]
            frame = pl.DataFrame(table_rows, schema=_schema_for(table), strict=False).select(columns)
            _bulk_insert(con, table, frame)

    def rebuild(self, con: duckdb.DuckDBPyConnection, batches: Iterable[dict[str, list[dict[str, Any]]]]) -> int:
        """Drop every read model and make it anew from row batches: one transaction.
        Returns the event position the new read models reflect."""
        position, _ = self.head(con)
        con.execute("BEGIN")
        try:
            for name, ddl in READ_MODELS.items():
                con.execute(f"DROP TABLE IF EXISTS {name}")
                con.execute(ddl)
            con.execute("INSERT INTO projection VALUES ('read_models', ?)", [position])
            for rows in batches:
                self._insert_rows(con, rows)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return position


class _Chain:
    """Gives appended events their positions, versions and hashes, column by column."""

    def __init__(self, versions: dict[str, int], columns: dict[str, list[Any]], now: datetime) -> None:
        self.versions = versions
        self.columns = columns
        self.now = now
        self.stamp = moment_text(now)

    def extend(
        self, events: list[NewEvent], expected: dict[str, int], upload_id: int | None, position: int, prev: str
    ) -> tuple[int, str]:
        """Append ``events`` after ``position``/``prev`` at the expected stream versions
        (optimistic concurrency: a stream that moved on refuses the append)."""
        versions = self.versions
        for stream, version in expected.items():
            if versions.get(stream, 0) != version:
                raise StaleAppend(f"{stream} is at version {versions.get(stream, 0)}, not {version}")
        columns = self.columns
        for event in events:
            position += 1
            version = versions.get(event.stream, 0) + 1
            versions[event.stream] = version
            text = canonical(
                position, event.stream, version, event.type, event.payload, self.stamp, upload_id, event.line
            )
            digest = link(prev, text)
            for key, value in (
                ("position", position),
                ("stream", event.stream),
                ("version", version),
                ("type", event.type),
                ("payload", event.payload),
                ("recorded_at", self.now),
                ("upload_id", upload_id),
                ("line", event.line),
                ("prev_hash", prev),
                ("hash", digest),
            ):
                columns[key].append(value)
            prev = digest
        return position, prev


def _bulk_insert(con: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> None:
    """One INSERT of a whole frame (Arrow underneath): never row by row."""
    con.register("bulk_frame", frame)
    try:
        con.execute(f"INSERT INTO {table} SELECT * FROM bulk_frame")
    finally:
        con.unregister("bulk_frame")


_UPLOAD_SCHEMA: Final[dict[str, Any]] = {
    "upload_id": pl.Int64,
    "sha256": pl.String,
    "name": pl.String,
    "size": pl.Int64,
    "received_at": pl.Datetime("us", "UTC"),
    "kind": pl.String,
    "outcome": pl.String,
    "status": pl.String,
    "game_ids": pl.List(pl.String),
    "duplicate_of": pl.Int64,
    "supersedes": pl.Int64,
    "reason": pl.String,
    "report": pl.String,
    "raw": pl.Binary,
}
_EVENT_SCHEMA: Final[dict[str, Any]] = {
    "position": pl.Int64,
    "stream": pl.String,
    "version": pl.Int32,
    "type": pl.String,
    "payload": pl.String,
    "recorded_at": pl.Datetime("us", "UTC"),
    "upload_id": pl.Int64,
    "line": pl.Int32,
    "prev_hash": pl.String,
    "hash": pl.String,
}
_TYPES: Final = {
    "BIGINT": pl.Int64,
    "INTEGER": pl.Int32,
    "VARCHAR": pl.String,
    "BOOLEAN": pl.Boolean,
    "TIMESTAMPTZ": pl.Datetime("us", "UTC"),
    "VARCHAR[]": pl.List(pl.String),
}


def _schema_for(table: str) -> dict[str, Any]:
    """A Polars schema for a read model, from its DDL (so frames match the table)."""
    schema: dict[str, Any] = {}
    body = READ_MODELS[table].split("(", 1)[1]
    for line in body.splitlines():
        parts = line.split("--", 1)[0].strip().rstrip(",").split()
        if len(parts) >= 2 and parts[0].isidentifier() and parts[0].upper() != "PRIMARY":
            kind = parts[1].upper()
            if kind in _TYPES:
                schema[parts[0]] = _TYPES[kind]
    return schema
