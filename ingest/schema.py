"""The store's tables: the event log, the uploads, and the read models derived from them.

``events``, ``uploads`` and ``upload_chain`` are append-only: no code path updates or
deletes a row of any of them. The read models (``games``, ``rounds``, ``round_players``, ``findings``,
``cards_played``, ``tournaments``…) are derived from the events and can be dropped and
rebuilt at any time (``saboteur rebuild``); ``projection`` records the last event
position they reflect, written in the same transaction as their rows.

Every table is declared once, by its row type (:mod:`ingest.tables`): the events by
:class:`~ingest.chain.StoredEvent`, the uploads by :class:`UploadRow` and their links
by :class:`UploadLink`, the read models in :mod:`ingest.readmodels`.

Schema versions: 1, the tables above but ``upload_chain``; 2, the uploads chained
too; 3, the read models of the observed recording (``games.recording``, a
``cards_played.card`` that may be null, ``penalties.finding``); 4, the referee codes'
read model (``referee_codes``); 5, the events' hashes as bytes; 6, no unique key on a
stream's versions; 7, each finding's sentence and values (``findings.said``), so a page
can say it in the reader's language; 8, a correction's star; 9, a tournament's
semi-final cut, and no key on the events' position; 10, each penalty's number and its
withdrawal (``penalty_withdrawn``); 11, a player's withdrawal from the tournament
(``tournament_players.withdrawn_seq``, ``player_withdrawn``); 12, no star in a round its
log ended before it was over. A store of an older version is upgraded by the
first command that writes to it (:meth:`ingest.store.Store.connect`): from 1 it links
every upload it holds; from 2 its read models take the new columns; from 3 it gets the
new table, empty; from 6 its findings take the new column, filled in as a rebuild
would fill it (every log audited again from its events).
"""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import datetime
from typing import Final

from ingest.chain import ReceivedUpload, StoredEvent
from ingest.readmodels import GAME_TABLES, ROW_TYPES, TOURNAMENT_TABLES
from ingest.tables import BigInt, Row, create_table, table

__all__ = [
    "GAME_TABLES",
    "LOG_TABLES",
    "LOG_TABLE_NAMES",
    "READ_MODELS",
    "SCHEMA_VERSION",
    "TOURNAMENT_TABLES",
    "UploadLink",
    "UploadRow",
]

SCHEMA_VERSION: Final = 12


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

    def received(self) -> ReceivedUpload:
        """The upload as its link covers it: its columns as they are, its bytes and its
        report by their SHA-256 (hashed here)."""
        columns = {f.name: getattr(self, f.name) for f in dataclasses.fields(ReceivedUpload) if hasattr(self, f.name)}
        columns.update(
            game_ids=tuple(self.game_ids),
            report_sha256=hashlib.sha256(self.report.encode("utf-8")).hexdigest(),
            raw_sha256=hashlib.sha256(self.raw).hexdigest() if self.raw is not None else None,
        )
        return ReceivedUpload(**columns)


@table("upload_chain", key=("upload_id",), frozen=True)
class UploadLink(Row):
    """An upload's link in the upload chain (:mod:`ingest.chain`): the event head its
    transaction left (``position`` and that event's ``head`` hash; 0 and the genesis
    hash before any event), the previous upload's link hash, and this link's hash."""

    upload_id: BigInt
    position: BigInt
    head: str
    prev_hash: str
    hash: str


LOG_TABLE_TYPES: Final = (MetaRow, UploadRow, UploadLink, StoredEvent)
LOG_TABLES: Final = ";\n".join(create_table(t, if_not_exists=True) for t in LOG_TABLE_TYPES) + ";"
"""The append-only tables' DDL, made once when the store is created."""
LOG_TABLE_NAMES: Final = tuple(t.TABLE for t in LOG_TABLE_TYPES)

READ_MODELS: Final[dict[str, str]] = {table: create_table(row_type) for table, row_type in ROW_TYPES.items()}
"""Read models' DDL, in the order they are built; each is dropped and made anew by a rebuild."""
