"""Events to append, and the same events chained: given their positions, versions, time
and hashes (:mod:`ingest.chain`), as the columns of the ``events`` table.

Chaining reads nothing from the store, so it may run in a thread of its own while
DuckDB inserts the chunk before (:func:`ingest.store.writing.ahead`). It makes the
events a run at a time, as columns: an object per event would cost more than its hash.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import pyarrow as pa

from ingest.arrays import repeated
from ingest.chain import ReceivedUpload, StoredEvent, link, linker, moment_text
from ingest.schema import UploadLink
from ingest.store import chunks
from ingest.store.errors import StaleAppend
from ingest.tables import digests, names


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


@runtime_checkable
class EventRuns(Protocol):
    """Events of one stream that give their types, payloads and lines a run at a time
    without an object each (:class:`~ingest.sources.LogEvents`, cut from a log's bytes
    as they are read)."""

    stream: str

    def runs(self, size: int) -> Iterator[Run]: ...


def stream_runs(stream: str, events: Sequence[NewEvent]) -> Iterator[Run]:
    """The events appended to ``stream`` (each must be of it), :data:`~ingest.store.chunks.RUN_EVENTS` at a
    time."""
    if isinstance(events, EventRuns):
        if events.stream != stream:
            raise ValueError(f"events of {events.stream} appended to {stream}")
        yield from events.runs(chunks.RUN_EVENTS)
        return
    for start in range(0, len(events), chunks.RUN_EVENTS):
        run = events[start : start + chunks.RUN_EVENTS]
        for event in run:
            if event.stream != stream:
                raise ValueError(f"an event of {event.stream} appended to {stream}")
        yield [e.type for e in run], [e.payload for e in run], [e.line for e in run]


def chain(
    appends: Sequence[Append], versions: dict[str, int], head: tuple[int, str], now: datetime
) -> Iterator[Chained]:
    """The appended events with their positions, versions, time and hashes, after
    the event ``head`` (position, hash), each stream checked against the version its
    writer read (``versions``: each stream's as stored, moved on as it is appended
    to), recorded at ``now``, made as they are read: :data:`~ingest.store.chunks.READ_CHUNK` at a time
    (or a run of :data:`~ingest.store.chunks.RUN_EVENTS` more), as columns (an object
    per event would cost more than its hash). It reads nothing from the store, so it
    may run in a thread of its own (:func:`~ingest.store.writing.ahead`)."""
    position, prev = head[0], head[1].encode("ascii")
    stamp = moment_text(now)
    chunk = Chained(now, prev)
    for append in appends:
        stream, version, upload_id = append.stream, versions.get(append.stream, 0), append.upload_id
        if version != append.expected_version:
            raise StaleAppend(f"{stream} is at version {version}, not {append.expected_version}")
        hashes_of = linker(stream, stamp, upload_id)
        start = position, version  # before the run's first event
        for types, payloads, lines in stream_runs(stream, append.events):
            hashes = hashes_of(prev, position, version, types, payloads, lines)
            if hashes:
                prev = hashes[-1]
                position += len(hashes)
                version += len(hashes)
            chunk.hash.extend(hashes)
            chunk.type.extend(types)
            chunk.payload.extend(payloads)
            chunk.line.extend(lines)
            if len(chunk.hash) >= chunks.READ_CHUNK:
                chunk.run(stream, upload_id, start[0] + 1, start[1] + 1)
                yield chunk
                chunk, start = Chained(now, prev), (position, version)
        chunk.run(stream, upload_id, start[0] + 1, start[1] + 1)
        versions[stream] = version
    if chunk.hash:
        yield chunk


class Chained:
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
            "recorded_at": repeated(self.now, len(self.hash)),
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


def links(prev: str, uploads: Iterable[ReceivedUpload], position: int, head: str) -> list[UploadLink]:
    """The links of ``uploads``, in order, after the link whose hash is ``prev``, each
    naming the event head ``position``/``head``."""
    links: list[UploadLink] = []
    for upload in uploads:
        digest = link(prev, upload.canonical(position, head))
        links.append(UploadLink(upload_id=upload.upload_id, position=position, head=head, prev_hash=prev, hash=digest))
        prev = digest
    return links
