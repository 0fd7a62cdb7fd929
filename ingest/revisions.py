"""A stream's revisions: a game stored again (``ingest --supersede``) starts a new one.

The store never rewrites a stream. Superseding appends a ``<kind>_superseded`` marker
(:func:`marker`) and then the new version's events, so the stream keeps every
revision; readers take the current one, the events after the last marker
(:func:`current`). This module is the one place that says so.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.chain import StoredEvent
from ingest.store import NewEvent


def marker_type(kind: str) -> str:
    """The type of the marker that starts a new revision of a ``kind`` stream
    (``game`` → ``game_superseded``)."""
    return f"{kind}_superseded"


def marker(stream: str, reason: str | None, replaced_upload: int | None) -> NewEvent:
    """The event that starts a new revision of ``stream``, saying why and which
    upload's version it replaces."""
    kind, name = stream.split(":", 1)
    payload = {"game_id": name, "reason": reason, "replaced_upload": replaced_upload}
    return NewEvent(stream, marker_type(kind), json.dumps(payload))


@dataclass(frozen=True, slots=True)
class Revision:
    """The current revision of a stream: its number (1 for a stream never superseded)
    and its events."""

    number: int
    events: Sequence[StoredEvent]

    @property
    def upload_id(self) -> int | None:
        """The upload that brought this revision (``None``: a command began it, or it
        has no events)."""
        return self.events[0].upload_id if self.events else None


def current(events: Sequence[StoredEvent]) -> Revision:
    """The current revision of a stream whose events (every revision, in version order)
    are ``events``: those after its last marker."""
    markers = [i for i, event in enumerate(events) if event.type.endswith("_superseded")]
    return Revision(len(markers) + 1, events[markers[-1] + 1 :] if markers else events)
