"""``saboteur verify``: recompute the hash chain and check the read models.

The chain is walked in position order: every position present once and in order,
every ``prev_hash`` the hash before it, every hash the hash of its event, every stream's
versions 1, 2, 3… The first event altered, removed or reordered is named. Then the read
models are projected anew from the events and compared with the stored tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import duckdb
import polars as pl

from ingest.chain import GENESIS, canonical, link, moment_text
from ingest.rebuild import project_store
from ingest.schema import GAME_TABLES, TOURNAMENT_TABLES
from ingest.store import Store, _schema_for

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


def check_chain(con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    cursor = con.cursor()
    cursor.execute(
        "SELECT position, stream, version, type, payload, recorded_at, upload_id, line, prev_hash, hash "
        "FROM events ORDER BY position"
    )
    expected_position = 1
    prev = GENESIS
    versions: dict[str, int] = {}
    while chunk := cursor.fetchmany(20_000):
        for position, stream, version, kind, payload, recorded_at, upload_id, line, prev_hash, digest in chunk:
            if position != expected_position:
                verdict.problems.append(
                    f"event at position {expected_position} is missing (the next stored is {position}): removed"
                )
                return
            if prev_hash != prev:
                verdict.problems.append(
                    f"event at position {position} does not follow the event before it: removed or reordered"
                )
                return
            text = canonical(position, stream, version, kind, payload, moment_text(recorded_at), upload_id, line)
            if link(prev, text) != digest:
                verdict.problems.append(f"event at position {position} ({stream} v{version}) was altered")
                return
            if version != versions.get(stream, 0) + 1:
                verdict.problems.append(f"event at position {position}: {stream} jumps to version {version}")
                return
            versions[stream] = version
            prev = digest
            expected_position += 1
            verdict.events += 1
    verdict.head = prev
    cursor.close()
    _check_tail(con, verdict, expected_position - 1)


def _check_tail(con: duckdb.DuckDBPyConnection, verdict: Verdict, last: int) -> None:
    """The chain cannot show its own end cut off: the read models' recorded position
    and the accepted uploads can."""
    recorded = con.execute("SELECT position FROM projection WHERE name = 'read_models'").fetchall()
    if recorded and int(recorded[0][0]) > last:
        verdict.problems.append(
            f"event at position {last + 1} is missing, and any after it (the read models were built up to "
            f"position {recorded[0][0]}): removed"
        )
        return
    missing = con.execute(
        "SELECT upload_id FROM uploads WHERE outcome LIKE 'accepted%' AND upload_id NOT IN "
        "(SELECT DISTINCT upload_id FROM events WHERE upload_id IS NOT NULL) ORDER BY upload_id LIMIT 1"
    ).fetchall()
    if missing:
        verdict.problems.append(f"the events of accepted upload {missing[0][0]} are missing: removed")


def _frame(rows: list[dict[str, Any]], table: str) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=_schema_for(table), strict=False)


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    if frame.is_empty():
        return frame
    keys = [c for c, t in frame.schema.items() if not isinstance(t, pl.List)]
    return frame.sort(keys, nulls_last=True)


def check_read_models(con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    expected: dict[str, list[dict[str, Any]]] = {table: [] for table in COMPARED}
    for batch in project_store(con):
        for table, rows in batch.items():
            if table in expected:
                expected[table].extend(rows)
    for table in COMPARED:
        stored = con.sql(f"SELECT * FROM {table}").pl()
        wanted = _frame(expected[table], table).select(stored.columns).cast(dict(stored.schema), strict=False)
        if not _sorted(stored).equals(_sorted(wanted)):
            verdict.problems.append(
                f"read model {table} differs from the events ({stored.height} rows stored, "
                f"{wanted.height} projected): run saboteur rebuild"
            )


def verify(store: Store, *, read_models: bool = True) -> Verdict:
    verdict = Verdict()
    with store.connect(read_only=True) as con:
        check_chain(con, verdict)
        if verdict.ok and read_models:
            check_read_models(con, verdict)
    return verdict
