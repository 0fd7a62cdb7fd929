"""Where the lake keeps what: one Parquet dataset per table of the store, each part
named by the SHA-256 of its own bytes.

A dataset per table means a statistic reads the tables its SQL names and, Parquet
being columnar, the columns it selects; nothing else is fetched, locally or from an
object store. A part's name is its content's hash, so the same batch written twice
(a worker lost after its parts and before its manifest entry, a build run again)
writes the same names: nothing is ever stored twice, and a part cannot be swapped
unseen for another.

The lake holds the uploads' metadata without their bytes (``uploads.raw``): an
archive of millions of games keeps its logs where they came from, and the events
hold every line of them.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import uuid
from dataclasses import dataclass
from typing import Final

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
from fsspec import AbstractFileSystem

from ingest.chain import StoredEvent
from ingest.readmodels import GAME_TABLES, ROW_TYPES, TOURNAMENT_TABLES
from ingest.schema import UploadRow
from ingest.tables import Row

DATASETS: Final[dict[str, type[Row]]] = {
    StoredEvent.TABLE: StoredEvent,
    UploadRow.TABLE: UploadRow,
    **{name: ROW_TYPES[name] for name in (*GAME_TABLES, *TOURNAMENT_TABLES)},
}
"""Every dataset of the lake by name: the store's table of that name and its row type."""
LEFT_OUT: Final = {UploadRow.TABLE: ("raw",)}
"""Columns of the store the lake does not keep: an upload's bytes."""
MANIFEST: Final = "_manifest"
"""The folder of the manifest's entries, one per committed batch."""


@dataclass(frozen=True)
class Lake:
    """A lake's root: a local folder or an fsspec URL, with its file system."""

    url: str
    fs: AbstractFileSystem
    root: str

    @classmethod
    def at(cls, url: str) -> Lake:
        """The lake at ``url`` (a folder, ``file://…``, ``s3://…``; fsspec's settings,
        such as ``$FSSPEC_S3_ENDPOINT_URL``, say how to reach it)."""
        fs, root = fsspec.core.url_to_fs(url)
        return cls(url, fs, root.rstrip("/"))

    @property
    def local(self) -> bool:
        return "file" in _protocols(self.fs)

    def path(self, relative: str) -> str:
        """A file of the lake, as its file system names it."""
        return posixpath.join(self.root, relative)

    def address(self, relative: str) -> str:
        """A file of the lake as DuckDB reads it: a local path, or a URL whose protocol
        is the file system DuckDB is given (:func:`analytics.lake.connect`)."""
        path = self.path(relative)
        return path if self.local else f"{_protocols(self.fs)[0]}://{path}"

    def write(self, relative: str, data: bytes) -> None:
        """Write a file whole: a reader sees it complete or not at all (a local file is
        written aside and renamed; an object store's put is whole by nature)."""
        target = self.path(relative)
        self.fs.makedirs(posixpath.dirname(target), exist_ok=True)
        if not self.local:
            self.fs.pipe_file(target, data)
            return
        aside = f"{target}.{uuid.uuid4().hex}.part"
        self.fs.pipe_file(aside, data)
        self.fs.mv(aside, target)

    def read(self, relative: str) -> bytes:
        data: bytes = self.fs.cat_file(self.path(relative))
        return data

    def read_many(self, relatives: list[str]) -> dict[str, bytes]:
        """Files read whole, by their place in the lake."""
        if not relatives:
            return {}
        found = self.fs.cat([self.path(relative) for relative in relatives])
        return {relative: found[_bare(self.fs, self.path(relative))] for relative in relatives}

    def exists(self, relative: str) -> bool:
        return bool(self.fs.exists(self.path(relative)))

    def files(self, folder: str) -> list[str]:
        """The files under ``folder``, relative to the root, in name order (none if
        there is no such folder)."""
        base = self.path(folder)
        self.fs.invalidate_cache(base)  # an object store's listing, cached, misses other writers' files
        if not self.fs.exists(base):
            return []
        found = self.fs.find(base)
        return sorted(posixpath.relpath(_bare(self.fs, path), self.root) for path in found)


def _protocols(fs: AbstractFileSystem) -> tuple[str, ...]:
    protocol = fs.protocol
    return (protocol,) if isinstance(protocol, str) else tuple(protocol)


def _bare(fs: AbstractFileSystem, path: str) -> str:
    bare: str = fs._strip_protocol(path)
    return bare


def part_name(dataset: str, data: bytes) -> str:
    """A part's place in the lake, from its bytes: ``games/part-<sha256>.parquet``."""
    return f"{dataset}/part-{hashlib.sha256(data).hexdigest()}.parquet"


def parquet(table: pa.Table) -> bytes:
    """A table as Parquet bytes: the same rows always give the same bytes (so the same
    part name)."""
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd", write_statistics=True)
    return sink.getvalue()
