"""A stream's revisions: a game stored again (``ingest --supersede``) starts a new one.

The store never rewrites a stream. Superseding appends a ``<kind>_superseded`` marker
(:func:`marker`) and then the new version's events, so the stream keeps every
revision; readers take the current one, the events after the last marker
(:func:`current`). A tournament stands on more than its file: what the organiser
recorded by command (penalties, corrections, dismissals, draws, codes…) in a revision
before goes on counting after a new ``tournament.json`` is stored (:func:`standing`).
This module is the one place that says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

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


T = TypeVar("T")

SUPERSEDED_BY_THE_FILE: Final = frozenset({"tournament_created"})
"""A command's record a new tournament file always replaces: the file creates the tournament anew."""


def standing(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The events a stream's read models stand on, in the order they apply.

    A game: its current revision. A tournament: the current revision's first event (the
    file's ``tournament_created``), then every record a command made in the revisions
    before (an event no upload brought: a penalty, a correction, an accepted replay, a
    dismissal, a draw at the cut, a code issued or revoked, a player registered or a
    round seated by hand), then the rest of the current revision. So a supersede that
    fixes a typo in the tournament's name undoes no penalty; and what the new file
    itself says — its registrations, its seatings — comes after the records it may
    contradict, so the file's word holds where the two disagree, as a later record's
    does (``seq``)."""
    revision = current(events)
    if revision.number == 1 or not revision.events or not revision.events[0].stream.startswith("tournament:"):
        return list(revision.events)
    return stood_on(list(revision.events), kept_records(events[: len(events) - len(revision.events)]))


def stood_on(current: Sequence[T], kept: Sequence[T]) -> list[T]:
    """A tournament's current revision (its file's events, then later commands' records)
    with the ``kept`` records of the revisions before placed after its creation: the
    order :func:`standing` gives, for stored events or for a file's about to be stored."""
    first, *rest = current
    return [first, *kept, *rest]


def kept_records(earlier: Iterable[StoredEvent]) -> list[StoredEvent]:
    """Of a tournament's events before its current revision, the records commands made
    (no upload brought them), which a new file does not undo; markers and the
    tournament's creation left out."""
    return [
        event
        for event in earlier
        if event.upload_id is None
        and not event.type.endswith("_superseded")
        and event.type not in SUPERSEDED_BY_THE_FILE
    ]
