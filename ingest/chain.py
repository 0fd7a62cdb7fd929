"""The hash chains that make the event log and the uploads tamper-evident.

Each stored event's hash covers the previous event's hash and the event's canonical
JSON (its envelope and its payload as uploaded), so altering, removing or reordering
any stored event breaks every hash after it. Each upload's link
(:class:`~ingest.schema.UploadLink`) does the same for the files received: its hash
covers the previous upload's, every column of the upload with its bytes and report by
their SHA-256 (:class:`ReceivedUpload`), and the event head its transaction left, so an
upload is tied to the events that came from it. ``saboteur verify`` recomputes both
and checks them against heads published outside the file (``docs/chain.md``).
"""

from __future__ import annotations

import hashlib
from binascii import hexlify
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import count
from typing import Final

import orjson

from events.said import Said, say
from ingest.tables import BigInt, Digest, Row, table

GENESIS: Final = "0" * 64
"""The ``prev_hash`` of the first event."""


@table("events", frozen=True, kw_only=False)
class StoredEvent(Row):
    """An event with its envelope, as the ``events`` table holds it (the table is
    declared by these fields).

    ``position`` orders every event of the store; ``version`` counts the events of
    one ``stream`` (``game:<id>``, ``tournament:<id>``) from 1. The table has no key:
    every append moves the projection's one row to the new head in the same
    transaction (:meth:`ingest.store.writing.Appending.finish`), so of two transactions
    that read the same head DuckDB refuses the later ("Conflict on update"), and
    ``verify`` checks the positions and every stream's versions through the chain. A key
    on the position, there until schema version 9, refused nothing more, and DuckDB keeps
    a key's index in memory until the commit: a 16 MiB log of blank lines (sixteen
    million events, which the format allows) failed its commit past the writer's
    memory ceiling, and the run with it. A unique key on ``(stream, version)``, there
    until schema version 5, cost a third of the insert. ``payload`` is the
    event's JSON as uploaded (a log line) or as the store wrote it; ``line`` is its line
    in the upload, if any.
    The two hashes are hex text here and 32 bytes in the table (:data:`~ingest.tables.Digest`).
    """

    position: BigInt
    stream: str
    version: int
    type: str
    payload: str
    recorded_at: datetime
    upload_id: BigInt | None
    line: int | None
    prev_hash: Digest
    hash: Digest

    def canonical(self) -> bytes:
        """This event's canonical JSON, as its hash covers it."""
        return canonical(
            self.position,
            self.stream,
            self.version,
            self.type,
            self.payload,
            moment_text(self.recorded_at),
            self.upload_id,
            self.line,
        )


def moment_text(moment: datetime) -> str:
    """A time as the chain hashes it: UTC, microseconds, ISO 8601."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical(
    position: int,
    stream: str,
    version: int,
    type_: str,
    payload: str,
    recorded_at: str,
    upload_id: int | None,
    line: int | None,
) -> bytes:
    """The event's canonical JSON, UTF-8: sorted keys, no spaces, the payload as text,
    the time as :func:`moment_text` writes it."""
    return orjson.dumps(
        {
            "line": line,
            "payload": payload,
            "position": position,
            "recorded_at": recorded_at,
            "stream": stream,
            "type": type_,
            "upload_id": upload_id,
            "version": version,
        },
        option=orjson.OPT_SORT_KEYS,
    )


HashRun = Callable[[bytes, int, int, Sequence[str], Sequence[str], Sequence[int | None]], list[bytes]]
"""Hashes a run of events of one stream: ``(prev, position, version, types, payloads,
lines)``, the hash and the position and version before the run's first event; each
event's hash, in order (see :func:`linker`)."""


def linker(stream: str, recorded_at: str, upload_id: int | None) -> HashRun:
    """The hashes of each run of events appended to ``stream`` at ``recorded_at`` from
    ``upload_id``: each ``link(prev, canonical(...))``, the previous hash and the
    result as hex digits in ASCII bytes.

    The writer hashes every event it appends, one after another, so the chain's cost is
    this function's: what the events share is encoded once into a template of
    :func:`canonical`'s bytes (its keys sorted, no spaces, each value as orjson writes
    it); a run's texts are made in one comprehension and then hashed in a loop that
    does nothing else, each hash leading the next text (a call per event cost a sixth
    more); and the chain stays in bytes, made text a chunk at a time by the store
    (``tests/ingest/test_chain_links.py`` holds it to :func:`link` of :func:`canonical`).
    """

    def fixed(value: object) -> bytes:  # a value in the template, its % signs kept
        return orjson.dumps(value).replace(b"%", b"%%")

    shared = b'"recorded_at":%b,"stream":%b,"type":%%b,"upload_id":%b,"version":%%d}' % (
        fixed(recorded_at),
        fixed(stream),
        fixed(upload_id),
    )
    numbered = b'{"line":%d,"payload":%b,"position":%d,' + shared
    unnumbered = b'{"line":null,"payload":%b,"position":%d,' + shared
    dumps, sha256 = orjson.dumps, hashlib.sha256

    def hashes_of(
        prev: bytes,
        position: int,
        version: int,
        types: Sequence[str],
        payloads: Sequence[str],
        lines: Sequence[int | None],
    ) -> list[bytes]:
        names = {type_: dumps(type_) for type_ in set(types)}
        events = zip(types, payloads, lines, range(position + 1, position + 1 + len(types)), strict=True)
        texts = [
            unnumbered % (dumps(payload), at, names[type_], number)
            if line is None
            else numbered % (line, dumps(payload), at, names[type_], number)
            for (type_, payload, line, at), number in zip(events, count(version + 1))
        ]
        hashes: list[bytes] = []
        append = hashes.append
        for text in texts:
            prev = hexlify(sha256(prev + text).digest())
            append(prev)
        return hashes

    return hashes_of


def link(prev_hash: str, canonical_json: bytes) -> str:
    """The hash of an event whose predecessor's hash is ``prev_hash``: SHA-256 of the
    previous hash (hex, ASCII) followed by the event's canonical JSON."""
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json).hexdigest()


@dataclass
class ChainVerdict:
    """What a walk of a chain found wrong: the store's ``verify`` and the lake's each
    add what they count beside it."""

    said: list[Said] = field(default_factory=list)
    """What was found wrong, as sentences (:mod:`events.said`): put into the reader's
    language where they are shown."""

    @property
    def problems(self) -> list[str]:
        """What was found wrong, in English."""
        return [s.english() for s in self.said]

    @property
    def ok(self) -> bool:
        return not self.said


def broken_link(prev_hash: str, versions: dict[str, int], event: StoredEvent) -> Said | None:
    """Why ``event`` does not follow in a chain whose last hash is ``prev_hash`` and whose
    streams stand at ``versions``: it names another event before it (one removed or
    reordered), its hash is not its own (altered), or its stream skips a version. None
    when it follows, and then ``versions`` holds its version. The store's ``verify`` and
    the lake's walk their chains with it, so both judge a link alike."""
    at = str(event.position)  # a place in the chain, written as the store numbers it
    if event.prev_hash != prev_hash:
        return say(
            "event at position %(position)s does not follow the event before it: removed or reordered", position=at
        )
    if link(prev_hash, event.canonical()) != event.hash:
        return say(
            "event at position %(position)s (%(stream)s v%(version)s) was altered",
            position=at,
            stream=event.stream,
            version=str(event.version),
        )
    if event.version != versions.get(event.stream, 0) + 1:
        return say(
            "event at position %(position)s: %(stream)s jumps to version %(version)s",
            position=at,
            stream=event.stream,
            version=str(event.version),
        )
    versions[event.stream] = event.version
    return None


@dataclass(frozen=True, slots=True)
class ReceivedUpload:
    """An upload as its link covers it: every column of its row, with its raw bytes
    and its audit report by their SHA-256, so a link is checked without holding them
    (``raw_sha256`` is ``None`` where no bytes are kept: a duplicate). The link names
    the event head (``position``, ``head``) its transaction left."""

    upload_id: int
    sha256: str
    name: str
    size: int
    received_at: datetime
    kind: str
    outcome: str
    status: str
    game_ids: tuple[str, ...]
    duplicate_of: int | None
    supersedes: int | None
    reason: str | None
    report_sha256: str
    raw_sha256: str | None

    def canonical(self, position: int, head: str) -> bytes:
        """The upload's canonical JSON as its link's hash covers it: sorted keys, the
        time as :func:`moment_text` writes it."""
        return orjson.dumps(
            {
                "duplicate_of": self.duplicate_of,
                "game_ids": list(self.game_ids),
                "head": head,
                "kind": self.kind,
                "name": self.name,
                "outcome": self.outcome,
                "position": position,
                "raw_sha256": self.raw_sha256,
                "reason": self.reason,
                "received_at": moment_text(self.received_at),
                "report_sha256": self.report_sha256,
                "sha256": self.sha256,
                "size": self.size,
                "status": self.status,
                "supersedes": self.supersedes,
                "upload_id": self.upload_id,
            },
            option=orjson.OPT_SORT_KEYS,
        )
