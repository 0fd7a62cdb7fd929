"""``saboteur verify``: recompute the hash chain and check the read models.

The chain is walked in position order: every position present once and in order,
every ``prev_hash`` the hash before it, every hash the hash of its event, every stream's
versions 1, 2, 3… The first event altered, removed or reordered is named. Then the read
models are projected anew from the events and compared with the stored tables.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

import duckdb
import polars as pl

from ingest.chain import GENESIS, link
from ingest.readmodels import GAME_TABLES, PROJECTED, ROW_TYPES, TOURNAMENT_TABLES
from ingest.rebuild import project_store
from ingest.store import Store, streaming
from ingest.tables import frame

COMPARED = (*GAME_TABLES, *TOURNAMENT_TABLES)


@dataclass
class Verdict:
    """What ``verify`` found."""

    events: int = 0
    head: str = GENESIS
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_chain(store: Store, con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    expected_position = 1
    prev = GENESIS
    versions: dict[str, int] = {}
    uploads: set[int] = set()
    for event in store.read_all(con):
        position, stream, version = event.position, event.stream, event.version
        if position != expected_position:
            verdict.problems.append(
                f"event at position {expected_position} is missing (the next stored is {position}): removed"
            )
            return
        if event.prev_hash != prev:
            verdict.problems.append(
                f"event at position {position} does not follow the event before it: removed or reordered"
            )
            return
        if link(prev, event.canonical()) != event.hash:
            verdict.problems.append(f"event at position {position} ({stream} v{version}) was altered")
            return
        if version != versions.get(stream, 0) + 1:
            verdict.problems.append(f"event at position {position}: {stream} jumps to version {version}")
            return
        versions[stream] = version
        if event.upload_id is not None:
            uploads.add(event.upload_id)
        prev = event.hash
        expected_position += 1
        verdict.events += 1
    verdict.head = prev
    _check_tail(store, con, verdict, expected_position - 1, uploads)


def _check_tail(store: Store, con: duckdb.DuckDBPyConnection, verdict: Verdict, last: int, uploads: set[int]) -> None:
    """The chain cannot show its own end cut off: the read models' recorded position
    and the accepted uploads (``uploads``: those the events name) can."""
    recorded = store.projected(con)
    if recorded is not None and recorded > last:
        verdict.problems.append(
            f"event at position {last + 1} is missing, and any after it (the read models were built up to "
            f"position {recorded}): removed"
        )
        return
    accepted = con.execute("SELECT upload_id FROM uploads WHERE outcome LIKE 'accepted%' ORDER BY upload_id").fetchall()
    missing = next((upload_id for (upload_id,) in accepted if upload_id not in uploads), None)
    if missing is not None:
        verdict.problems.append(f"the events of accepted upload {missing} are missing: removed")


def _sorted(table: pl.DataFrame) -> pl.DataFrame:
    if table.is_empty():
        return table
    keys = [c for c, t in table.schema.items() if not isinstance(t, pl.List)]
    return table.sort(keys, nulls_last=True)


_KEYS: Final = {table: (kind, column) for kind, (column, tables) in PROJECTED.items() for table in tables}
"""Each read model compared: the kind of stream its rows come from and the column that
names the stream."""


def check_read_models(store: Store, con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    """Project the read models anew from the events and compare them with the stored
    tables, a batch of streams at a time (:func:`~ingest.rebuild.project_store`): each
    batch's rows against the stored rows of its streams; then every table's row count,
    which shows rows of no stream at all."""
    projected: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    differing: set[str] = set()
    for batch in project_store(store, con):
        for table in COMPARED:
            kind, column = _KEYS[table]
            ids, rows = batch.ids.get(kind, []), batch.rows.get(table, [])
            projected[table] += len(rows)
            if not ids:
                continue
            stored = con.sql(
                f"SELECT * FROM {table} WHERE {column} IN (SELECT unnest(?::VARCHAR[]))", params=[ids]
            ).pl()
            matched[table] += stored.height
            wanted = frame(ROW_TYPES[table], rows).select(stored.columns).cast(dict(stored.schema), strict=False)
            if not _sorted(stored).equals(_sorted(wanted)):
                differing.add(table)
    for table in COMPARED:
        stored_rows = int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
        if table in differing or stored_rows != matched[table]:
            verdict.problems.append(
                f"read model {table} differs from the events ({stored_rows} rows stored, "
                f"{projected[table]} projected): run saboteur rebuild"
            )


def verify(store: Store, *, read_models: bool = True) -> Verdict:
    verdict = Verdict()
    with store.connect(read_only=True) as con:
        streaming(con)
        check_chain(store, con, verdict)
        if verdict.ok and read_models:
            check_read_models(store, con, verdict)
    return verdict
