"""The hash chain that makes the event log tamper-evident.

Each stored event's hash covers the previous event's hash and the event's canonical
JSON (its envelope and its payload as uploaded), so altering, removing or reordering
any stored event breaks every hash after it. ``saboteur verify`` recomputes the chain.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

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
    recorded_at: datetime,
    upload_id: int | None,
    line: int | None,
) -> str:
    """The event's canonical JSON: sorted keys, no spaces, the payload as text."""
    return json.dumps(
        {
            "position": position,
            "stream": stream,
            "version": version,
            "type": type_,
            "payload": payload,
            "recorded_at": moment_text(recorded_at),
            "upload_id": upload_id,
            "line": line,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def link(prev_hash: str, canonical_json: str) -> str:
    """The hash of an event whose predecessor's hash is ``prev_hash``."""
    return hashlib.sha256((prev_hash + canonical_json).encode("utf-8", "surrogatepass")).hexdigest()
