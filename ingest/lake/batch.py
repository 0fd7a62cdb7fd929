"""One batch of files into the lake, through the store's own writer.

A batch is written into a store held in memory by the very code ``saboteur ingest``
runs — :func:`ingest.sources.prepare` audits and projects each file (one visitor walk,
the one ``saboteur audit`` uses), :class:`ingest.pipeline.Writer` decides each upload
(duplicates, rejections) and the store chains the events and replaces the read models
— and that store's tables become the batch's Parquet parts. The rows of a lake are
thus the rows of a store by construction, not by a second projection that could drift.

The store answers the writer's questions — is this content stored already, is this
game — for the batch's own files and, through the :class:`~ingest.lake.ledger.Held` it
is given, for every file before the batch (:mod:`ingest.lake.ledger`): a file is a
duplicate of, or rejected for a game stored by, an earlier batch as it would be by
``saboteur ingest``. Uploads are numbered from the batch's first file's place in the
whole listing (after every build before), so a lake built from the files ``saboteur
ingest`` was given holds the same upload ids. Each
batch's events form a chain of their own, from the genesis hash, stamped with the
build's time: the same batch written again gives the same bytes, hence the same part
names.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import duckdb
import pyarrow as pa

from events.said import Said, problem, say
from ingest.arrays import array, repeated
from ingest.chain import GENESIS, StoredEvent, canonical, link, moment_text
from ingest.lake.layout import DATASETS, LEFT_OUT, Lake
from ingest.lake.ledger import Held, preferred
from ingest.lake.manifest import Entry, Part, SourceFile, commit, write_part
from ingest.pipeline import Writer, is_already_stored, write_all
from ingest.sources import Prepared
from ingest.store import Store
from ingest.tables import columns, names

PART_EVENTS: Final = 20_000
"""Events of a batch made into one Parquet part at most: a batch of 64 simulated games
is some 16,000 events, one part, but a 16 MiB log is 381,000. Made into one table, as
Python rows first, four such logs in a batch took a Dask worker past 2 GiB; a part
of 100,000 events at a time, one log took the batch's write to 552 MiB, and of 20,000
to 407 MiB (from 137 MiB with the log audited)."""


class BatchStore(Store):
    """A store in memory for one batch, its uploads numbered from ``first_upload``,
    holding besides its own what came before it (``held``).

    A :class:`~ingest.store.Store` opens its database for each job, as any store does;
    this one's is a DuckDB database in memory named for it, which lives while a
    connection to it is open: :func:`write_batch` holds one for the batch's whole write,
    so the writer's jobs, each opening and closing its own, all land in it."""

    def __init__(self, first_upload: int, held: Held | None = None) -> None:
        super().__init__(Path(f":memory:batch{uuid.uuid4().hex}"))
        self.first_upload = first_upload
        self.held = held if held is not None else Held()

    def next_upload_id(self, con: duckdb.DuckDBPyConnection) -> int:
        return max(super().next_upload_id(con), self.first_upload)

    def known_uploads(self, con: duckdb.DuckDBPyConnection, shas: Sequence[str]) -> dict[str, tuple[int, str]]:
        found = super().known_uploads(con, shas)
        for sha in shas:
            earlier = self.held.uploads.get(sha)
            if earlier is not None and (sha not in found or preferred(earlier) < preferred(found[sha])):
                found[sha] = earlier
        return found

    def stream_versions(self, con: duckdb.DuckDBPyConnection, streams: Sequence[str]) -> dict[str, tuple[int, int]]:
        """A stream held from before the batch continues here without its first event,
        which :meth:`Store.stream_versions` looks for, so its versions are read directly
        (:meth:`Store._versions`)."""
        held = [s for s in streams if s in self.held.streams]
        earlier = {s: self.held.streams[s] for s in held}
        new = [s for s in streams if s not in self.held.streams]
        return earlier | self._versions(con, held) | super().stream_versions(con, new)


def as_a_lake_says(said: Said) -> Said:
    """Why a file was rejected, as a lake's build says it: a game stored before is
    rejected as ``saboteur ingest`` rejects it (the lake's uploads keep the store's
    reason, row for row), but ``archive build`` has no ``--supersede`` to offer."""
    if is_already_stored(said):
        return say(
            "%(games)s is already in the lake, which keeps the first version of a game it took",
            games=said.named["games"],
        )
    return said


def batch_key(*parts: object) -> str:
    """A batch's key from what defines it (its files' names, sizes and versions, or a
    simulation's seed and settings): the same batch has the same key in every run."""
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8", "backslashreplace")).hexdigest()[:32]


def write_batch(
    lake: Lake,
    key: str,
    prepared: Iterable[Prepared],
    *,
    first_upload: int,
    at: datetime,
    held: Held | None = None,
    rejected: list[tuple[str, Said]] | None = None,
    lock: str | None = None,
) -> Entry:
    """Write a batch's parts, then commit its manifest entry; the entry. ``held``: what
    the files before the batch hold of its contents and streams; ``rejected`` is given
    each file rejected, by name, with why (the entry keeps outcomes, not reasons);
    ``lock``: the run's lock token, the entry committed only while the run holds it."""
    store = BatchStore(first_upload, held)
    tables: dict[str, pa.Table] = {}
    with store.connect() as con:
        con.execute("SET TimeZone = 'UTC'")
        writer = Writer(store)
        for result in write_all(prepared, writer):
            if rejected is not None and result.outcome == "rejected":
                rejected.append((result.name, as_a_lake_says(result.said or problem(result.message))))
        parts: list[Part] = []
        count, head = 0, (0, GENESIS)
        for events in _rechained(con, at):  # a part at a time: a batch of 16 MiB logs holds millions
            parts.append(write_part(lake, StoredEvent.TABLE, events))
            count += events.num_rows
            head = (events["position"][-1].as_py(), events["hash"][-1].as_py())
        for dataset in DATASETS:
            if dataset != StoredEvent.TABLE:
                kept = ", ".join(n for n in names(DATASETS[dataset]) if n not in LEFT_OUT.get(dataset, ()))
                moment = "?::TIMESTAMPTZ AS received_at" if dataset == "uploads" else None
                columns = kept.replace("received_at", moment) if moment else kept
                table = con.sql(f"SELECT {columns} FROM {dataset} ORDER BY ALL", params=[at] if moment else None)
                if table.shape[0]:
                    tables[dataset] = table.to_arrow_table()
        appended = appended_streams(con)
        contents = _contents(con)
    parts.extend(write_part(lake, dataset, table) for dataset, table in tables.items())
    files = tuple(
        SourceFile(
            name=result.name,
            sha256=item_sha,
            size=size,
            upload_id=result.upload_id,
            outcome=result.outcome,
            game_ids=result.game_ids,
            streams=appended.get(result.upload_id, {}),
        )
        for result, (item_sha, size) in zip(writer.results, contents, strict=True)
    )
    entry = Entry(batch=key, files=files, parts=tuple(parts), events=count, head_position=head[0], head_hash=head[1])
    commit(lake, entry, lock)
    return entry


def _contents(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int]]:
    """Each upload's SHA-256 and size, in upload order."""
    return [
        (str(sha), int(size))
        for sha, size in con.execute("SELECT sha256, size FROM uploads ORDER BY upload_id").fetchall()
    ]


def appended_streams(con: duckdb.DuckDBPyConnection) -> dict[int, dict[str, int]]:
    """The streams each upload's events were appended to, with the version each
    reached with them: upload id → stream → version."""
    found: dict[int, dict[str, int]] = {}
    rows = con.execute(
        "SELECT upload_id, stream, max(version) FROM events WHERE upload_id IS NOT NULL GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    for upload_id, stream, version in rows:
        found.setdefault(int(upload_id), {})[str(stream)] = int(version)
    return found


def _rechained(con: duckdb.DuckDBPyConnection, at: datetime) -> Iterator[pa.Table]:
    """The batch's events recorded at ``at`` (the build's time, not each write's) and
    chained anew over it from the genesis hash, as tables of the events' columns of
    :data:`PART_EVENTS` events at most, in position order (none for no events).

    Each part's events are read by a query of their own, those of the next
    :data:`PART_EVENTS` positions: one ``ORDER BY`` of the whole table sorted a copy of
    every event of the batch in DuckDB's memory at once (a 16 MiB log's write peaked at
    355 MiB with it, 316 MiB without), and a window sorts only its own, the row groups
    it does not reach skipped by their positions' bounds. (A batch's positions follow
    one another from 1; were there a gap, its window would only make a smaller part.)
    Each event's hash is :meth:`~ingest.chain.StoredEvent.canonical`'s, made from its
    columns as read (an object per event, made and copied twice, cost more than the
    hashing itself); the columns become Arrow by :func:`ingest.arrays.array`, as the
    store's own rows do."""
    stamp = moment_text(at)
    prev = GENESIS
    read = ("position", "stream", "version", "type", "payload", "upload_id", "line")
    query = f"SELECT {', '.join(read)} FROM events WHERE position > ? AND position <= ? ORDER BY position"
    last = con.execute("SELECT coalesce(max(position), 0) FROM events").fetchall()[0][0]
    for after in range(0, last, PART_EVENTS):
        rows = con.execute(query, [after, after + PART_EVENTS]).fetchall()
        if not rows:
            continue
        prevs: list[str] = []
        hashes: list[str] = []
        for position, stream, version, type_, payload, upload_id, line in rows:
            prevs.append(prev)
            prev = link(prev, canonical(position, stream, version, type_, payload, stamp, upload_id, line))
            hashes.append(prev)
        data: dict[str, Sequence[Any]] = dict(zip(read, zip(*rows, strict=True), strict=True))
        data |= {"prev_hash": prevs, "hash": hashes}
        moment = repeated(at, len(rows))
        yield pa.table(
            {c.name: moment if c.name == "recorded_at" else array(data[c.name], c.arrow) for c in columns(StoredEvent)}
        )
