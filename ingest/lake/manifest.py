"""The lake's manifest: one entry per committed batch, written after its parts.

An entry names the batch's files with their SHA-256, the parts it wrote (path, rows,
SHA-256: the name says it too) and the head of its events' chain. Readers use only
the parts an entry names, so a batch cut short before its entry — parts written, entry
not — is as if it never ran, and a build run again writes it whole (the same names: the
parts are named by their bytes) and then its entry. Each entry is one file of its own,
written whole (:meth:`~ingest.lake.layout.Lake.write`), so two writers never lose each
other's work the way two rewrites of one manifest file could.
"""

from __future__ import annotations

import hashlib
import posixpath
from typing import TypeVar

import pyarrow as pa
from pydantic import BaseModel, ConfigDict, ValidationError

from events.said import say
from ingest.lake.layout import MANIFEST, Lake, Unusable, parquet, part_name, require_folders


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceFile(_Record):
    """A file of the batch: its name, contents, upload and what became of it, and the
    streams its events were appended to, each with its version after them (none unless
    it was accepted): what a later batch asks of it (:mod:`ingest.lake.ledger`)."""

    name: str
    sha256: str
    size: int
    upload_id: int
    outcome: str
    game_ids: tuple[str, ...] = ()
    streams: dict[str, int] = {}


class Part(_Record):
    """A Parquet part the batch wrote."""

    dataset: str
    path: str
    rows: int
    sha256: str


class Entry(_Record):
    """A committed batch. ``head_position`` and ``head_hash``: the last event of the
    batch's chain (0 and the genesis hash when it has none); for a store exported
    whole, the store's own head."""

    batch: str
    files: tuple[SourceFile, ...]
    parts: tuple[Part, ...]
    events: int
    head_position: int
    head_hash: str
    streams: dict[str, int] = {}
    """Streams written by commands, not by a file (a store exported: its tournaments
    created by ``saboteur tournament create``…), with their versions."""


R = TypeVar("R", bound=_Record)


class LakeUnreadable(Unusable):
    """A record of the lake (a manifest entry, a compaction record) that is not one this
    program wrote: which file, and why. Nothing is read past it: a lake whose records
    cannot be read is restored from a copy."""


def read_record(kind: type[R], path: str, data: bytes) -> R:
    """The record ``data`` holds (the file ``path`` of the lake), or :class:`LakeUnreadable`."""
    try:
        return kind.model_validate_json(data)
    except ValidationError as exc:
        problem = exc.errors()[0]["msg"] if exc.errors() else str(exc)
        raise LakeUnreadable(
            say(
                "%(file)s: not a record of the lake this program wrote (%(problem)s): restore it from a copy",
                file=path,
                problem=problem,
            )
        ) from None


def entry_path(batch: str) -> str:
    return f"{MANIFEST}/{batch}.json"


def write_part(lake: Lake, dataset: str, table: pa.Table) -> Part:
    """Write a table of ``dataset`` as a part named by its bytes; the part."""
    data = parquet(table)
    path = part_name(dataset, data)
    lake.write(path, data)
    return Part(dataset=dataset, path=path, rows=table.num_rows, sha256=hashlib.sha256(data).hexdigest())


def commit(lake: Lake, entry: Entry, lock: str | None = None) -> None:
    """Record ``entry``: the batch's parts must all be written before. With ``lock``
    (the token of the run's lock), only while the run still holds it
    (:func:`ingest.lake.lock.still_held`)."""
    if lock is not None:
        from ingest.lake.lock import still_held

        still_held(lake, lock)
    lake.write(entry_path(entry.batch), entry.model_dump_json(indent=1).encode("utf-8"))


def committed(lake: Lake) -> dict[str, Entry]:
    """Every committed batch by its key (the entries fetched together: an object
    store's file system fetches them side by side, not one round trip after another)."""
    paths = [path for path in lake.files(MANIFEST) if path.endswith(".json")]
    found = lake.read_many(paths)
    return {posixpath.basename(path).removesuffix(".json"): read_record(Entry, path, found[path]) for path in paths}


def require_lake(lake: Lake, url: str) -> None:
    """:class:`LakeUnreadable` unless ``lake`` holds a manifest folder, which every
    build, simulation and export makes: a mistyped path, read as an empty lake, gave
    statistics of nothing and a verify that said "ok"."""
    require_folders(lake)
    if not lake.exists(MANIFEST):
        raise LakeUnreadable(
            say(
                "%(lake)s: no lake here (no %(folder)s folder): saboteur archive build, simulate or export makes one",
                lake=url,
                folder=MANIFEST,
            )
        )


def is_committed(lake: Lake, batch: str) -> bool:
    return lake.exists(entry_path(batch))


def entry_of(lake: Lake, batch: str) -> Entry | None:
    """The batch's entry, if it is committed."""
    if not is_committed(lake, batch):
        return None
    return read_record(Entry, entry_path(batch), lake.read(entry_path(batch)))
