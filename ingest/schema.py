"""The store's tables: the event log, the uploads, and the read models derived from them.

``events`` and ``uploads`` are append-only: no code path updates or deletes a row of
either. The read models (``games``, ``rounds``, ``round_players``, ``findings``,
``cards_played``, ``tournaments``…) are derived from the events and can be dropped and
rebuilt at any time (``saboteur rebuild``); ``projection`` records the last event
position they reflect, written in the same transaction as their rows.

Every table is declared once, by its row type (:mod:`ingest.tables`): the events by
:class:`~ingest.chain.StoredEvent`, the uploads by :class:`UploadRow`, the read models
in :mod:`ingest.readmodels`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from ingest.chain import StoredEvent
from ingest.readmodels import GAME_TABLES, ROW_TYPES, TOURNAMENT_TABLES
from ingest.tables import BigInt, Row, create_table, table

__all__ = ["GAME_TABLES", "LOG_TABLES", "READ_MODELS", "SCHEMA_VERSION", "TOURNAMENT_TABLES", "UploadRow"]

SCHEMA_VERSION: Final = 1


@table("meta", key=("key",), frozen=True)
class MetaRow(Row):
    """A fact about the store itself: its schema version, when it was created."""

    key: str
    value: str


@table("uploads", key=("upload_id",), frozen=True)
class UploadRow(Row):
    """A file received, whatever became of it, with every byte of it."""

    upload_id: BigInt
    sha256: str
    name: str
    size: BigInt
    received_at: datetime
    kind: str  # log | score_sheet | tournament | unknown
    outcome: str  # accepted | accepted_with_findings | rejected | duplicate
    status: str  # the audit's: clean | violations | unreadable
    game_ids: list[str]
    duplicate_of: BigInt | None
    supersedes: BigInt | None
    reason: str | None
    report: str  # the audit report(s), JSON
    raw: bytes | None  # every byte received (null only for a duplicate: see duplicate_of)


LOG_TABLES: Final = ";\n".join(create_table(t, if_not_exists=True) for t in (MetaRow, UploadRow, StoredEvent)) + ";"
"""The append-only tables' DDL, made once when the store is created."""

READ_MODELS: Final[dict[str, str]] = {table: create_table(row_type) for table, row_type in ROW_TYPES.items()}
"""Read models' DDL, in the order they are built; each is dropped and made anew by a rebuild."""
