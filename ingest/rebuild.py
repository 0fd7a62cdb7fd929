"""Read models from the events alone: ``saboteur rebuild`` and the check in ``verify``.

Every stream is read from the store and its current revision
(:func:`ingest.revisions.current`) projected — a game log's lines, a score sheet's
records, a tournament's stream — through the same projection functions the ingest
uses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import duckdb

from ingest.chain import StoredEvent
from ingest.projection import project_log
from ingest.readmodels import Rows
from ingest.revisions import Revision, current, standing
from ingest.sources import project_sheet_game, project_tournament, read_stored
from ingest.store import Store, streaming

EVENTS_PER_BATCH: Final = 100_000
"""Events whose streams' rows are projected and written (or compared) together: the
rows of a batch are all a rebuild or a verify holds at once."""


@dataclass
class Projected:
    """The read-model rows of a batch of streams, and the ids of those streams by kind
    (``game``, ``tournament``: see :data:`~ingest.readmodels.PROJECTED`)."""

    ids: dict[str, list[str]] = field(default_factory=dict)
    rows: Rows = field(default_factory=dict)
    events: int = 0


def project_stream(events: Sequence[StoredEvent]) -> Rows:
    """The read-model rows of one stream, from its stored events (every revision)."""
    revision = current(events)
    return project_revision(revision, events) if revision.events else {}


def project_revision(revision: Revision, events: Sequence[StoredEvent] = ()) -> Rows:
    """The read-model rows of a stream's current revision, from its stored events, read
    as they come: a long stream is never held whole. A tournament's are made from what
    it stands on (:func:`ingest.revisions.standing`), out of all its ``events``."""
    first = revision.events[0]
    if first.stream.startswith("draft:"):
        return {}  # a game being recorded: its log is projected once it is taken in
    if first.stream.startswith("tournament:"):
        stands = standing(events) if events else revision.events
        return project_tournament([json.loads(e.payload) for e in stands], first.upload_id)
    upload_id = first.upload_id or 0
    if first.type == "score_sheet_game":
        stored = [json.loads(e.payload) | {"line": e.line} for e in revision.events]
        return project_sheet_game(stored, upload_id, revision.number)[1]
    lines = read_stored((e.type, e.payload, e.line) for e in revision.events)
    _, rows = project_log(lines, name=first.stream, upload_id=upload_id, revision=revision.number)
    return rows.tables()


def project_store(store: Store, con: duckdb.DuckDBPyConnection) -> Iterator[Projected]:
    """Read-model rows of every stream, a batch of streams at a time (bounded memory:
    about :data:`EVENTS_PER_BATCH` events' worth of rows at once)."""
    batch = Projected()
    for events in store.read_streams(con):
        revision = current(events)
        if revision.events:
            kind, name = revision.events[0].stream.split(":", 1)
            batch.ids.setdefault(kind, []).append(name)
            for table, rows in project_revision(revision, events).items():
                batch.rows.setdefault(table, []).extend(rows)
        batch.events += len(events)
        if batch.events >= EVENTS_PER_BATCH:
            yield batch
            batch = Projected()
    if batch.events:
        yield batch


def rebuild(store: Store) -> dict[str, Any]:
    """Drop and rebuild every read model from the events; their row counts after."""
    with store.connect(read_models=False) as con:  # the read models are made anew: they may be gone
        streaming(con)
        position = store.rebuild(con, (batch.rows for batch in project_store(store, con)))
        counts = {
            table: int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
            for table in ("games", "rounds", "round_players", "findings", "cards_played", "tournaments")
        }
    return {"position": position, **counts}
