"""Read models from the events alone: ``saboteur rebuild`` and the check in ``verify``.

Every stream is read from the store and its current revision
(:func:`ingest.revisions.current`) projected — a game log's lines, a score sheet's
records, a tournament's stream — through the same projection functions the ingest
uses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, Final

import duckdb

from ingest.chain import StoredEvent
from ingest.projection import project_log
from ingest.readmodels import Rows, typed
from ingest.revisions import current
from ingest.sources import project_sheet_game, project_tournament, stored_lines
from ingest.store import Store

STREAMS_PER_BATCH: Final = 500


def project_stream(events: Sequence[StoredEvent]) -> Rows:
    """The read-model rows of one stream, from its stored events (every revision)."""
    revision = current(events)
    if not revision.events:
        return {}
    stream, first = revision.events[0].stream, revision.events[0]
    if stream.startswith("tournament:"):
        return typed(project_tournament([json.loads(e.payload) for e in revision.events], revision.upload_id))
    upload_id = revision.upload_id or 0
    if first.type == "score_sheet_game":
        stored = [json.loads(e.payload) | {"line": e.line} for e in revision.events]
        return typed(project_sheet_game(stored, upload_id, revision.number)[1])
    lines = stored_lines((e.type, e.payload, e.line) for e in revision.events)
    _, rows = project_log(lines, name=stream, upload_id=upload_id, revision=revision.number)
    return rows.tables()


def project_store(store: Store, con: duckdb.DuckDBPyConnection) -> Iterator[Rows]:
    """Read-model rows of every stream, a batch of streams at a time (bounded memory)."""
    batch: Rows = {}
    streams = 0
    for events in store.read_streams(con):
        for table, rows in project_stream(events).items():
            batch.setdefault(table, []).extend(rows)
        streams += 1
        if streams >= STREAMS_PER_BATCH:
            yield batch
            batch, streams = {}, 0
    if batch:
        yield batch


def rebuild(store: Store) -> dict[str, Any]:
    """Drop and rebuild every read model from the events; their row counts after."""
    with store.connect(read_models=False) as con:  # the read models are made anew: they may be gone
        position = store.rebuild(con, project_store(store, con))
        counts = {
            table: int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
            for table in ("games", "rounds", "round_players", "findings", "cards_played", "tournaments")
        }
    return {"position": position, **counts}
