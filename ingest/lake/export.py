"""``saboteur archive export``: a store's events and read models into the lake.

The store is read once, read-only, table by table in parts of at most
:data:`PART_ROWS` rows (a store of millions of events is never held whole), and the
parts become one batch whose entry carries the store's chain head: ``archive verify``
then walks the exported events from the genesis hash to that head. The events keep the
store's own positions, times and hashes; the uploads their metadata, not their bytes.
"""

from __future__ import annotations

from typing import Final

import pyarrow as pa

from events.said import Said, say
from ingest.chain import StoredEvent
from ingest.lake.batch import appended_streams
from ingest.lake.layout import DATASETS, LEFT_OUT, Lake
from ingest.lake.manifest import Entry, Part, SourceFile, commit, committed, write_part
from ingest.store import Store
from ingest.tables import selected

PART_ROWS: Final = 1_000_000
"""Rows in a part of an exported table at most."""


class LakeNotEmpty(ValueError):
    """The lake holds batches other than this store's export: the store's events,
    exported whole, would stand in it twice (a build before, or an earlier head)."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.english())
        self.said = said


def export(store: Store, lake: Lake) -> Entry:
    """Write the store's tables into ``lake`` as one batch, keyed by the store's head;
    its entry. Exporting the same store twice writes the same parts and entry. The
    lake must be empty or hold this very export (:class:`LakeNotEmpty` otherwise): a
    store is exported whole, and into a lake a build filled, or that holds an export
    of an earlier head, every game both hold was stored twice."""
    with store.connect(read_only=True) as con:
        con.execute("SET TimeZone = 'UTC'")
        position, head = store.head(con)
        others = sorted(key for key in committed(lake) if key != f"export-{head[:32]}")
        if others:
            raise LakeNotEmpty(
                say(
                    "the lake holds %(count)s batch already (%(first)s…): a store is exported whole, into an "
                    "empty lake of its own, or its games would stand in it twice",
                    "the lake holds %(count)s batches already (%(first)s…): a store is exported whole, into an "
                    "empty lake of its own, or its games would stand in it twice",
                    "count",
                    count=len(others),
                    first=others[0],
                )
            )
        parts: list[Part] = []
        for dataset, row_type in DATASETS.items():
            kept = selected(row_type, but=LEFT_OUT.get(dataset, ()))  # the hashes as hex text
            order = "position" if dataset == StoredEvent.TABLE else "ALL"
            reader = con.sql(f"SELECT {kept} FROM {dataset} ORDER BY {order}").to_arrow_reader(PART_ROWS)
            for chunk in reader:
                if chunk.num_rows:
                    parts.append(write_part(lake, dataset, pa.Table.from_batches([chunk])))
        appended = appended_streams(con)
        uploads = con.execute("SELECT upload_id, name, sha256, size, outcome, game_ids FROM uploads ORDER BY upload_id")
        columns = [column[0] for column in uploads.description]
        files = tuple(
            SourceFile.model_validate(dict(zip(columns, row, strict=True)) | {"streams": appended.get(row[0], {})})
            for row in uploads.fetchall()
        )
        commands = con.execute(
            "SELECT stream, max(version) FROM events GROUP BY stream HAVING bool_or(upload_id IS NULL) ORDER BY stream"
        ).fetchall()
    entry = Entry(
        batch=f"export-{head[:32]}",
        files=files,
        parts=tuple(parts),
        events=position,
        head_position=position,
        head_hash=head,
        streams={str(stream): int(version) for stream, version in commands},
    )
    commit(lake, entry)
    return entry
