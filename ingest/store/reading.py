"""The store's reading side: every question put to the events and the uploads, and the
answers as typed :class:`~ingest.chain.StoredEvent` and
:class:`~ingest.chain.ReceivedUpload` records.

No module outside ``ingest/`` reads the ``events`` table with its own SQL: what the
pages and commands need of the events is asked here (:func:`first_stored` for the time
a stream began). Whatever may be long — every event, a long stream, every upload — is
read a chunk at a time (:mod:`ingest.store.chunks`) on a cursor of its own.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Generator, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from itertools import groupby, islice
from operator import attrgetter
from typing import Any, Final, overload
from zoneinfo import ZoneInfo

import duckdb

from ingest.chain import GENESIS, ReceivedUpload, StoredEvent
from ingest.schema import UploadLink
from ingest.store import chunks
from ingest.tables import columns, names

_TIME: Final = names(StoredEvent).index("recorded_at")
_ENVELOPE: Final = ", ".join(
    "epoch_us(recorded_at)" if c.name == "recorded_at" else c.read for c in columns(StoredEvent)
)
"""The events' columns as read: the hashes as hex text, the time as microseconds since
1970, made a datetime once per distinct time (:func:`_events`)."""
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)

Moment = int | datetime | None
"""An event position, a time, or ``None`` for now."""

STREAMS_PER_READ = 1_000
"""Streams read by one query of :meth:`Reading.read_many` (a test may make it small)."""


def one(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> tuple[Any, ...] | None:
    """The first row of a query, with the result read to its end (DuckDB 2 refuses
    further work on a connection while a result is unfinished)."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


def event_head(con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
    """The newest event's position and hash (0 and the genesis hash when empty)."""
    return stamped_head(con)[0]


def stamped_head(con: duckdb.DuckDBPyConnection) -> tuple[tuple[int, str], datetime | None]:
    """The newest event's position and hash, and when it was recorded (``None`` when
    the store is empty)."""
    row = one(con, "SELECT position, lower(hex(hash)), recorded_at FROM events ORDER BY position DESC LIMIT 1")
    return ((int(row[0]), str(row[1])), row[2]) if row else ((0, GENESIS), None)


class Reading:
    """The reading side of :class:`~ingest.store.Store`: each method reads over the
    connection of a job (:meth:`~ingest.store.Store.connect`) and changes nothing."""

    def head(self, con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
        """The newest event's position and hash (0 and the genesis hash when empty)."""
        return event_head(con)

    def read(self, con: duckdb.DuckDBPyConnection, stream: str, *, until: Moment = None) -> list[StoredEvent]:
        """A stream's events in version order (every revision: see
        :func:`ingest.revisions.current`), up to a position or a time if given."""
        condition, params = _until(until)
        sql = f"SELECT {_ENVELOPE} FROM events WHERE stream = ? AND {condition} ORDER BY version"
        return list(_events(con, sql, [stream, *params]))

    def streams_naming(
        self, con: duckdb.DuckDBPyConnection, types: Collection[str], key: str, value: str, *, until: Moment = None
    ) -> set[str]:
        """The streams with an event of one of ``types``, up to a position or a time if
        given, whose payload holds the string ``value`` at its top-level ``key``: found by
        DuckDB in the payloads, not by reading every such event into Python (a
        tournament's games, among 7,200 games' headers of a store of seasons: 1.1 s)."""
        condition, params = _until(until)
        sql = (
            "SELECT DISTINCT stream FROM events WHERE type IN (SELECT unnest(?::VARCHAR[])) "
            f"AND json_extract_string(payload, ?) = ? AND {condition}"
        )
        path = "$." + json.dumps(key)  # a key of any characters, quoted as a JSON path takes it
        return {str(stream) for (stream,) in con.execute(sql, [list(types), path, value, *params]).fetchall()}

    def read_many(
        self,
        con: duckdb.DuckDBPyConnection,
        streams: Collection[str],
        *,
        until: Moment = None,
        at_most: int | None = None,
    ) -> Generator[list[StoredEvent], None, None]:
        """The events of each of ``streams``, as :meth:`read` gives them, a stream at a
        time in stream order (a stream with no events up to then is left out).

        The events have no key, so each query reads the whole ``stream`` column: one
        query per :data:`STREAMS_PER_READ` streams, not one per stream (a tournament's
        2,000 games read one by one: 8 s). A stream is held whole, as :meth:`read` holds it.
        ``at_most``: no event past this position either (a read in several jobs, up to a
        time, stays where the store stood when it began)."""
        wanted = sorted(set(streams))
        condition, params = _until(until)
        if at_most is not None:
            condition += " AND position <= ?"
            params.append(at_most)
        sql = (
            f"SELECT {_ENVELOPE} FROM events WHERE stream IN (SELECT unnest(?::VARCHAR[])) AND {condition} "
            "ORDER BY stream, version"
        )
        for start in range(0, len(wanted), STREAMS_PER_READ):
            yield from _by_stream(_events(con, sql, [wanted[start : start + STREAMS_PER_READ], *params]))

    def stream(self, con: duckdb.DuckDBPyConnection, stream: str) -> StreamEvents:
        """A stream's events in version order (every revision), as :meth:`read` gives
        them but read a chunk at a time whenever they are read: for a stream that may be
        long (a 16 MiB log is some 400,000 events)."""
        found = one(con, "SELECT count(*) FROM events WHERE stream = ?", [stream])
        return StreamEvents(con, stream, int(found[0]) if found else 0)

    def read_all(
        self, con: duckdb.DuckDBPyConnection, after: int = 0, *, until: Moment = None, types: Collection[str] = ()
    ) -> Generator[StoredEvent, None, None]:
        """Every event after position ``after``, in position order, up to a position or
        a time if given, only of the given ``types`` if any; read a chunk at a time (a
        reader that stops early closes it before its job ends)."""
        condition, params = _until(until)
        if types:
            condition += " AND type IN (SELECT unnest(?::VARCHAR[]))"
            params.append(list(types))
        yield from _in_order(con, condition, params, after)

    def read_streams(self, con: duckdb.DuckDBPyConnection) -> Iterator[Sequence[StoredEvent]]:
        """Every stream's events, a stream at a time (in stream order, each in version
        order): what a rebuild projects, without holding the whole store.

        Streams are read a run of :data:`~ingest.store.chunks.READ_CHUNK` events at a time, each as a list;
        a stream longer than :data:`~ingest.store.chunks.LONG_STREAM` (a 16 MiB log is some 400,000 events)
        comes as a :class:`StreamEvents`, read a chunk at a time whenever it is read.
        """
        cursor = con.cursor()
        try:
            cursor.execute("SELECT stream, count(*) FROM events GROUP BY stream ORDER BY stream")
            run: list[str] = []
            size = 0
            while counted := cursor.fetchmany(10_000):
                for stream, count in counted:
                    if count > chunks.LONG_STREAM:
                        yield from _streams(con, run)
                        run, size = [], 0
                        yield StreamEvents(con, stream, count)
                        continue
                    run.append(stream)
                    size += count
                    if size >= chunks.READ_CHUNK:
                        yield from _streams(con, run)
                        run, size = [], 0
            yield from _streams(con, run)
        finally:
            cursor.close()

    def uploads_head(self, con: duckdb.DuckDBPyConnection) -> tuple[int, str]:
        """The newest upload's id and link hash (0 and the genesis hash when none)."""
        row = one(con, "SELECT upload_id, hash FROM upload_chain ORDER BY upload_id DESC LIMIT 1")
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
                    yield received(row[1:15]), _link(row[15:])
        finally:
            cursor.close()

    def projected(self, con: duckdb.DuckDBPyConnection) -> int | None:
        """The last event position the read models reflect (``None``: never recorded)."""
        row = one(con, "SELECT position FROM projection WHERE name = 'read_models'")
        return int(row[0]) if row else None

    def known_uploads(self, con: duckdb.DuckDBPyConnection, shas: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Earlier uploads of these contents: sha → (upload id, outcome), an accepted
        one preferred over a rejected one, and the latest of them (a content stored
        twice, the second time to put an earlier version back: the one standing)."""
        if not shas:
            return {}
        rows = con.execute(
            "SELECT sha256, upload_id, outcome FROM uploads WHERE outcome <> 'duplicate' AND sha256 IN "
            "(SELECT unnest(?::VARCHAR[])) ORDER BY (outcome = 'rejected'), upload_id DESC",
            [list(shas)],
        ).fetchall()
        found: dict[str, tuple[int, str]] = {}
        for sha, upload_id, outcome in rows:
            found.setdefault(str(sha), (int(upload_id), str(outcome)))
        return found

    def stream_versions(self, con: duckdb.DuckDBPyConnection, streams: Sequence[str]) -> dict[str, tuple[int, int]]:
        """Current version and newest upload of each stream that exists (upload 0: only
        commands have written to it).

        Neither query can use an index (the events have no key), so each
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

    def upload_file(self, con: duckdb.DuckDBPyConnection, upload_id: int) -> tuple[str, bytes] | None:
        """The name and bytes of an upload as received (``None``: no such upload, or
        one kept without its bytes)."""
        row = one(con, "SELECT name, raw FROM uploads WHERE upload_id = ?", [upload_id])
        if row is None or row[1] is None:
            return None
        return str(row[0]), bytes(row[1])

    def next_upload_id(self, con: duckdb.DuckDBPyConnection) -> int:
        """The id the next upload recorded must have."""
        return int(one(con, "SELECT coalesce(max(upload_id), 0) FROM uploads")[0]) + 1  # type: ignore[index]


def first_stored(con: duckdb.DuckDBPyConnection, type_: str) -> list[tuple[str, datetime]]:
    """When each stream's first event of ``type_`` was stored, by stream: when a
    tournament was created (``tournament_created``), say. Over any connection with an
    ``events`` table of the store's columns: a store's, or a lake's
    (:func:`analytics.lake.connect`)."""
    rows = con.execute(
        "SELECT stream, min(recorded_at) FROM events WHERE type = ? GROUP BY stream ORDER BY stream", [type_]
    ).fetchall()
    return [(str(stream), moment) for stream, moment in rows]


RECEIVED: Final = (
    "u.upload_id, u.sha256, u.name, u.size, u.received_at, u.kind, u.outcome, u.status, u.game_ids, "
    "u.duplicate_of, u.supersedes, u.reason, sha256(u.report), sha256(u.raw)"
)
"""An upload's columns as its link covers them (:class:`~ingest.chain.ReceivedUpload`)."""
_UPLOADS_WITH_LINKS: Final = f"""
SELECT coalesce(u.upload_id, l.upload_id) AS id, {RECEIVED}, l.upload_id, l.position, l.head, l.prev_hash, l.hash
FROM uploads u FULL OUTER JOIN upload_chain l ON l.upload_id = u.upload_id
ORDER BY id
"""


def received(row: Sequence[Any]) -> ReceivedUpload | None:
    """An upload as :data:`RECEIVED` reads it (``None``: no such row)."""
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
        zone = ZoneInfo(str(one(cursor, "SELECT current_setting('TimeZone')")[0]))  # type: ignore[index]
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
    read :data:`~ingest.store.chunks.READ_CHUNK` positions at a time: each query sorts no more than that,
    and finds them in the few row groups that hold those positions (over a gap in the
    positions, it moves on to the next event there is)."""
    chunk = f"SELECT {_ENVELOPE} FROM events WHERE position > ? AND position <= ? AND {condition} ORDER BY position"
    following = f"SELECT min(position) FROM events WHERE position > ? AND {condition}"
    start: int | None = after
    while start is not None:
        read = False
        for event in _events(con, chunk, [start, start + chunks.READ_CHUNK, *params]):
            read = True
            yield event
        start += chunks.READ_CHUNK
        if not read:
            with con.cursor() as cursor:
                found = one(cursor, following, [start, *params])
            start = None if found is None or found[0] is None else int(found[0]) - 1


def _streams(con: duckdb.DuckDBPyConnection, run: Sequence[str]) -> Iterator[list[StoredEvent]]:
    """The events of a run of streams (consecutive in stream order), a stream at a time."""
    if not run:
        return
    sql = f"SELECT {_ENVELOPE} FROM events WHERE stream BETWEEN ? AND ? ORDER BY stream, position"
    yield from _by_stream(_events(con, sql, [run[0], run[-1]]))


def _by_stream(events: Iterable[StoredEvent]) -> Iterator[list[StoredEvent]]:
    """Events ordered by stream, a list per stream."""
    for _, stream in groupby(events, key=attrgetter("stream")):
        yield list(stream)


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
