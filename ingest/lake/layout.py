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
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
from fsspec import AbstractFileSystem

from events.said import Refusal, say
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
COMPACTIONS: Final = "_compactions"
"""The folder of the compaction records, one file per compaction (:mod:`ingest.lake.compact`)."""
REFUSING_CLIENTS: Final = (
    ("botocore.exceptions", "BotoCoreError"),  # S3: no credentials, an endpoint down or timing out
    ("aiohttp", "ClientError"),  # a store spoken to over HTTP (gcsfs, http) that cannot be reached
    ("google.auth.exceptions", "GoogleAuthError"),  # Google Cloud Storage without credentials
    ("paramiko", "SSHException"),  # SFTP: a host that refuses the session
)
"""The errors of an object store's client that say the store cannot be used at all, by
the module that defines them (a client not loaded has raised none). Named one by one, so
that an error of this program's own is never taken for a store that cannot be reached."""


class Unusable(Refusal):
    """A lake or a source at a URL whose file system cannot be used at all: its fsspec
    package is not installed, no package knows its scheme, or the object store refuses
    the client (no credentials) or cannot be reached (an endpoint down). Said in one line
    naming the URL, with the library's own reason; each gave a traceback of 100 to 580
    lines."""


def _refusing_client(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`REFUSING_CLIENTS`."""
    for module, name in REFUSING_CLIENTS:
        found = getattr(sys.modules.get(module), name, None)
        if isinstance(found, type) and isinstance(exc, found):
            return True
    return False


def unusable(url: str, exc: BaseException) -> Unusable:
    """The refusal of ``url``, the library's reason quoted (its first line)."""
    reason = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
    return Unusable(say("%(url)s cannot be used: %(problem)s", url=url, problem=reason))


def opened(url: str) -> tuple[AbstractFileSystem, str]:
    """The file system of ``url`` and the path in it (:func:`fsspec.core.url_to_fs`), or
    :class:`Unusable` when there is none: a scheme whose fsspec package is not installed
    (``gs://`` without gcsfs) or that no package knows (a typo)."""
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:
        raise unusable(url, exc) from None
    return fs, str(path)


@contextmanager
def reaching(url: str) -> Iterator[None]:
    """The block's requests to the file system of ``url``: an object store that refuses
    the client or cannot be reached raises :class:`Unusable`; any other error stays what
    it is (a file the system refuses, ``OSError``, names its file itself)."""
    try:
        yield
    except Exception as exc:
        if not (_refusing_client(exc) or _refused_remotely(url, exc)):
            raise
        raise unusable(url, exc) from None


def _refused_remotely(url: str, exc: BaseException) -> bool:
    """Whether an object store refused the client its files (s3fs makes a 403 a bare
    ``PermissionError("Forbidden")``, which names no file: said so, it named nothing);
    a local file the system refuses names itself (``OSError``'s own line)."""
    remote = "://" in url and not url.startswith("file://")
    return remote and isinstance(exc, PermissionError) and not exc.filename


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
        fs, root = opened(url)
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
        with reaching(self.url):
            self.fs.makedirs(posixpath.dirname(target), exist_ok=True)
            if not self.local:
                self.fs.pipe_file(target, data)
                return
            aside = f"{target}.{uuid.uuid4().hex}.part"
            self.fs.pipe_file(aside, data)
            self.fs.mv(aside, target)

    def read(self, relative: str) -> bytes:
        with reaching(self.url):
            data: bytes = self.fs.cat_file(self.path(relative))
        return data

    def read_many(self, relatives: list[str]) -> dict[str, bytes]:
        """Files read whole, by their place in the lake."""
        if not relatives:
            return {}
        with reaching(self.url):
            found = self.fs.cat([self.path(relative) for relative in relatives])
        return {relative: found[_bare(self.fs, self.path(relative))] for relative in relatives}

    def exists(self, relative: str) -> bool:
        with reaching(self.url):
            return bool(self.fs.exists(self.path(relative)))

    def files(self, folder: str) -> list[str]:
        """The files under ``folder``, relative to the root, in name order (none if
        there is no such folder)."""
        base = self.path(folder)
        self.fs.invalidate_cache(base)  # an object store's listing, cached, misses other writers' files
        with reaching(self.url):
            if not self.fs.exists(base):
                return []
            found = self.fs.find(base)
        return sorted(posixpath.relpath(_bare(self.fs, path), self.root) for path in found)


def require_folders(lake: Lake) -> None:
    """:class:`Unusable` when a file stands where the lake keeps a folder (``events``,
    ``_manifest``…): a build met it at its first batch's parts, the cluster started,
    and ended with the system's bare "…/events: File exists". Asked of a folder alone:
    on an object store a key and a prefix of the same name live side by side."""
    if not lake.local:
        return
    for folder in (MANIFEST, COMPACTIONS, *DATASETS):
        if lake.fs.isfile(lake.path(folder)):
            said = say(
                "%(lake)s: %(file)s is a file where the lake keeps a folder: not a lake", lake=lake.url, file=folder
            )
            raise Unusable(said)


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
