"""The hash chain that makes the event log tamper-evident.

Each stored event's hash covers the previous event's hash and the event's canonical
JSON (its envelope and its payload as uploaded), so altering, removing or reordering
any stored event breaks every hash after it. ``saboteur verify`` recomputes the chain.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

import orjson

GENESIS: Final = "0" * 64
"""The ``prev_hash`` of the first event."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event with its envelope, as the ``events`` table holds it."""

    position: int
    stream: str
    version: int
    type: str
    payload: str
    recorded_at: datetime
    upload_id: int | None
    line: int | None
    prev_hash: str
    hash: str


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


def link(prev_hash: str, canonical_json: bytes) -> str:
    """The hash of an event whose predecessor's hash is ``prev_hash``: SHA-256 of the
    previous hash (hex, ASCII) followed by the event's canonical JSON."""
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json).hexdigest()
