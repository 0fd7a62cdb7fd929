"""The DuckDB event store: one file, opened only for as long as each job needs it.

A job opens a connection (:meth:`Store.connect`) and passes it to the store's methods.
Opening is where a file is judged: a job that only reads opens it read-only and never
changes it, and the file must be a store of this program's schema version with every
table in place; a job that writes also creates a store in a new file and upgrades one of
an older version. Whatever is wrong comes out as a :class:`StoreError`.

The store has two sides, as eventsourcing's recorders do, each a module of its own:

- **Writing** (:mod:`ingest.store.writing`) — :meth:`Store.append` appends events to one
  stream at the version the writer read, :meth:`Store.append_batch` to many streams with
  the uploads they came in; a stream that moved on since refuses the append
  (:class:`StaleAppend`). Events are hash-chained (:mod:`ingest.store.chained`). The
  read-model rows of the streams appended to come with the append and replace theirs,
  and the projection position moves to the new head: one transaction, all or none
  (:mod:`ingest.store.commits`). A crash at any moment leaves the store as it was
  before that transaction. Deciding what to append is the caller's job.
- **Reading** (:mod:`ingest.store.reading`) — :meth:`Store.read` gives one stream's
  events, :meth:`Store.read_all` every event after a position, :meth:`Store.read_streams`
  every stream in turn, as typed :class:`~ingest.chain.StoredEvent` records. No module
  outside ``ingest/`` reads the ``events`` table with its own SQL.

The file itself — opening, waiting for another process, judging, creating, upgrading —
is :mod:`ingest.store.files`; what goes wrong, :mod:`ingest.store.errors`; how much a
job holds at once, :mod:`ingest.store.chunks`.
"""

from __future__ import annotations

from ingest.store.chained import Append, EventRuns, NewEvent, Run
from ingest.store.commits import (
    CHECKPOINTED_COMMIT,
    ROOM_FROM,
    ROW_GROUP,
    STREAMING_MEMORY,
    checkpoint_unmerged,
    ctrl_c_noted,
    interrupted,
    one_thread,
    room_for,
    settle,
    streaming,
)
from ingest.store.errors import RowsRefused, StaleAppend, StoreBusy, StoreError, StoreOlder, StoreUnusable
from ingest.store.files import DEFAULT_DB, OPEN_RETRY, WAITING_FRESH, StoreFile, default_path
from ingest.store.reading import Moment, StreamEvents, first_stored
from ingest.store.writing import Appending, NewRows, Writing, insert_rows

__all__ = [
    "CHECKPOINTED_COMMIT",
    "DEFAULT_DB",
    "OPEN_RETRY",
    "ROOM_FROM",
    "ROW_GROUP",
    "STREAMING_MEMORY",
    "WAITING_FRESH",
    "Append",
    "Appending",
    "EventRuns",
    "Moment",
    "NewEvent",
    "NewRows",
    "RowsRefused",
    "Run",
    "StaleAppend",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreOlder",
    "StoreUnusable",
    "StreamEvents",
    "checkpoint_unmerged",
    "ctrl_c_noted",
    "default_path",
    "first_stored",
    "insert_rows",
    "interrupted",
    "one_thread",
    "room_for",
    "settle",
    "streaming",
]


class Store(StoreFile, Writing):
    """The event store in one DuckDB file: its file and connections (:class:`StoreFile`),
    and over a job's connection its writing side (:class:`~ingest.store.writing.Writing`)
    and its reading side (:class:`~ingest.store.reading.Reading`)."""
