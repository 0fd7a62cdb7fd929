"""Read models from the events alone: ``saboteur rebuild`` and the check in ``verify``.

Every stream is replayed from the store — a game's newest revision (the events after
its last ``…_superseded`` marker), a score sheet's records, a tournament's stream —
through the same projection functions the ingest uses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final

import duckdb

from ingest.projection import project_log
from ingest.sources import Rows, project_sheet_game, project_tournament, stored_lines
from ingest.store import Store

STREAMS_PER_BATCH: Final = 500


def project_stream(stream: str, events: list[tuple[str, str, int | None, int | None]]) -> Rows:
    markers = [i for i, (kind, _, _, _) in enumerate(events) if kind.endswith("_superseded")]
    revision = len(markers) + 1
    current = events[markers[-1] + 1 :] if markers else events
    if not current:
        return {}
    if stream.startswith("tournament:"):
        return project_tournament([json.loads(p) for _, p, _, _ in current], current[0][3])
    upload_id = current[0][3] or 0
    if current[0][0] == "score_sheet_game":
        stored = [json.loads(p) | {"line": line} for _, p, line, _ in current]
        return project_sheet_game(stored, upload_id, revision)[1]
    lines = stored_lines((kind, payload, line) for kind, payload, line, _ in current)
    _, rows = project_log(lines, name=stream, upload_id=upload_id, revision=revision)
    return rows.tables()


def project_store(con: duckdb.DuckDBPyConnection) -> Iterator[Rows]:
    """Read-model rows of every stream, a batch of streams at a time (bounded memory)."""
    cursor = con.cursor()
    cursor.execute("SELECT stream, type, payload, line, upload_id FROM events ORDER BY stream, position")
    batch: Rows = {}
    current: str | None = None
    group: list[tuple[str, str, int | None, int | None]] = []
    streams = 0

    def flush() -> None:
        nonlocal streams
        if current is None:
            return
        for table, rows in project_stream(current, group).items():
            batch.setdefault(table, []).extend(rows)
        streams += 1

    while chunk := cursor.fetchmany(20_000):
        for stream, kind, payload, line, upload_id in chunk:
            if stream != current:
                flush()
                current, group = stream, []
                if streams >= STREAMS_PER_BATCH:
                    yield batch
                    batch, streams = {}, 0
            group.append((kind, payload, line, upload_id))
    flush()
    cursor.close()
    if batch:
        yield batch


def rebuild(store: Store) -> dict[str, Any]:
    """Drop and rebuild every read model from the events; their row counts after."""
    with store.connect() as con:
        position = store.rebuild(con, project_store(con))
        counts = {
            table: int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
            for table in ("games", "rounds", "round_players", "findings", "cards_played", "tournaments")
        }
    return {"position": position, **counts}
