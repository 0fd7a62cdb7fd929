"""``saboteur archive compact``: a season's thousands of small parts rewritten into a few
large files, with the same rows, the manifest's promises kept.

A build writes a part per dataset per batch; a lake built batch by batch over a season
is thousands of small Parquet files, and a statistic opens every one. Compaction copies
the parts of the committed batches, in the order the batches were committed, into
files of about :data:`TARGET_BYTES`, each part becoming one *row group* of its file, and
writes a **compaction record** (``_compactions/<id>.json``) saying where each part now
lies: file and row group. The record is written whole, after its files; readers switch
to the large files the moment it exists, and not before, so a compaction cut short
leaves the lake as it was (its files unread, like a batch cut short). Only then are the
small parts removed; a compaction killed while removing them leaves parts no reader uses,
and the next one removes them.

The batches' entries are never rewritten: each still names its parts with their SHA-256
and row counts. A compaction checks each part against its entry before it copies it,
reads its row group back and checks the rows are the part's, and records the row
group's own digest (the SHA-256 of its rows as Arrow's IPC stream: Parquet written again
is not byte for byte the part it was, Arrow's list columns being renamed on the way). So
``archive verify`` checks every batch after a compaction as before (:func:`read_part`):
the compacted file's SHA-256 against its record and its name, each row group's digest
and rows against the record and the entry; a compacted file altered by one byte fails
it.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.parquet as pq

from ingest.lake.layout import COMPACTIONS as COMPACTIONS
from ingest.lake.layout import Lake, part_name
from ingest.lake.manifest import Entry, Part, _Record, committed, read_record

TARGET_BYTES = 64 * 1024 * 1024
"""About how large a compacted file grows (its parts' bytes): large enough that a season
is a handful of files, small enough that one is built in memory and read by a worker."""


class Placed(_Record):
    """Where a batch's part lies in a compacted file: its row group, with the part's
    SHA-256 (as its entry has it) and the row group's digest (:func:`rows_digest`)."""

    part: str
    sha256: str
    rows: int
    row_group: int
    digest: str


class CompactedFile(_Record):
    """A file a compaction wrote: its dataset, place, SHA-256 (its name says it too) and
    the parts it holds, in row-group order."""

    dataset: str
    path: str
    sha256: str
    holds: tuple[Placed, ...]


class Compaction(_Record):
    """One compaction: the files it wrote."""

    compaction: str
    files: tuple[CompactedFile, ...]


@dataclass(frozen=True)
class Placement:
    """Every compacted part of a lake: the file and row group it lies in."""

    at: Mapping[str, tuple[CompactedFile, int]] = field(default_factory=dict)
    _open: dict[str, pq.ParquetFile | None] = field(default_factory=dict, compare=False, repr=False)
    """The compacted file last read (a verify reads its parts one after another)."""

    def reading(self, entries: Mapping[str, Entry], dataset: str) -> list[str]:
        """The files a reader of ``dataset`` opens: each committed part where it lies
        now, a compacted file once, in the order of the batches."""
        paths: dict[str, None] = {}
        for _, entry in sorted(entries.items()):
            for part in entry.parts:
                if part.dataset == dataset:
                    placed = self.at.get(part.path)
                    paths[placed[0].path if placed is not None else part.path] = None
        return list(paths)

    def opened(self, lake: Lake, file: CompactedFile) -> pq.ParquetFile | None:
        """``file`` read and checked once for all the parts in it: ``None`` if it is
        missing or its bytes are not those its record and its name say."""
        if file.path not in self._open:
            self._open.clear()
            found = None
            if lake.exists(file.path):
                data = lake.read(file.path)
                if hashlib.sha256(data).hexdigest() == file.sha256 and file.sha256 in file.path:
                    found = pq.ParquetFile(io.BytesIO(data))
            self._open[file.path] = found
        return self._open[file.path]


def placement(lake: Lake) -> Placement:
    """Where every compacted part lies, from the lake's compaction records."""
    paths = [path for path in lake.files(COMPACTIONS) if path.endswith(".json")]
    at: dict[str, tuple[CompactedFile, int]] = {}
    for path, data in sorted(lake.read_many(paths).items()):
        for file in read_record(Compaction, path, data).files:
            for placed in file.holds:
                at[placed.part] = (file, placed.row_group)
    return Placement(at)


class PartUnreadable(Exception):
    """A part, or the compacted file it lies in, is missing or not what its record says."""


def read_part(lake: Lake, part: Part, where: Placement) -> tuple[bytes | None, pa.Table]:
    """A part's rows, with its bytes when it is read from its own file (to be checked
    against its entry); from a compacted file, its row group, checked here against the
    compaction's record. Raises :class:`PartUnreadable` for a compacted file that is
    missing or altered."""
    placed = where.at.get(part.path)
    if placed is None:
        data = lake.read(part.path)
        return data, pq.read_table(io.BytesIO(data))
    file, row_group = placed
    compacted = where.opened(lake, file)
    if compacted is None or row_group >= compacted.metadata.num_row_groups:
        raise PartUnreadable(file.path)
    table = compacted.read_row_group(row_group)
    held = file.holds[row_group]
    if held.part != part.path or held.sha256 != part.sha256 or rows_digest(table) != held.digest:
        raise PartUnreadable(file.path)
    return None, table


def rows_digest(table: pa.Table) -> str:
    """The SHA-256 of a table's rows as Arrow's IPC stream (one chunk per column)."""
    sink = pa.BufferOutputStream()
    whole = table.combine_chunks()
    with pa.ipc.new_stream(sink, whole.schema) as stream:
        stream.write_table(whole)
    return hashlib.sha256(sink.getvalue().to_pybytes()).hexdigest()


@dataclass
class Compacted:
    """What a compaction did."""

    parts: int = 0
    files: int = 0
    rows: int = 0
    removed: int = 0
    record: str | None = None


def compact(lake: Lake, *, target_bytes: int = TARGET_BYTES) -> Compacted:
    """Compact every committed part not compacted yet (see the module's docstring);
    then remove the parts compactions have copied. The caller holds the lake's lock."""
    entries = committed(lake)
    where = placement(lake)
    done = Compacted()
    files: list[CompactedFile] = []
    groups = list(_groups(lake, entries, where, target_bytes))  # every part looked at before a file is written
    for dataset, group in groups:
        for file in _write(lake, dataset, group):
            files.append(file)
            done.parts += len(file.holds)
            done.rows += sum(placed.rows for placed in file.holds)
    if files:
        record = Compaction(compaction=_identity(files), files=tuple(files))
        path = posixpath.join(COMPACTIONS, f"{record.compaction}.json")
        lake.write(path, record.model_dump_json(indent=1).encode("utf-8"))
        done.files, done.record = len(files), path
        where = placement(lake)
    done.removed = _remove_copied(lake, entries, where)
    return done


def _groups(
    lake: Lake, entries: Mapping[str, Entry], where: Placement, target_bytes: int
) -> Iterator[tuple[str, list[Part]]]:
    """The parts to compact, dataset by dataset, in the batches' order, cut into groups
    of about ``target_bytes``; a part with no rows stays where it is (a row group holds
    at least one row)."""
    by_dataset: dict[str, list[Part]] = {}
    for _, entry in sorted(entries.items()):
        for part in entry.parts:
            if part.path not in where.at and part.rows > 0:
                by_dataset.setdefault(part.dataset, []).append(part)
    for dataset, parts in sorted(by_dataset.items()):
        group: list[Part] = []
        size = 0
        for part in parts:
            try:
                bytes_ = int(lake.fs.size(lake.path(part.path)))
            except FileNotFoundError:  # a part its entry names, gone: nothing is compacted
                raise PartUnreadable(part.path) from None
            if group and size + bytes_ > target_bytes:
                yield dataset, group
                group, size = [], 0
            group.append(part)
            size += bytes_
        if group:
            yield dataset, group


def _write(lake: Lake, dataset: str, parts: list[Part]) -> Iterator[CompactedFile]:
    """The compacted files of ``parts``, each part a row group: one file, or one more
    wherever a part's columns differ from the part's before (a lake written by an older
    version). Each part is checked to be the one its entry names first: an altered part
    is not copied over its own record."""
    sink = io.BytesIO()
    writer: pq.ParquetWriter | None = None
    holds: list[tuple[Part, pa.Table]] = []
    for part in parts:
        try:
            data = lake.read(part.path)
        except FileNotFoundError:  # a part its entry names, gone: archive verify names it
            raise PartUnreadable(part.path) from None
        if hashlib.sha256(data).hexdigest() != part.sha256:
            raise PartUnreadable(part.path)
        table = pq.read_table(io.BytesIO(data))
        if writer is not None and not table.schema.equals(writer.schema, check_metadata=True):
            writer.close()
            yield _written(lake, dataset, sink.getvalue(), holds)
            sink, writer, holds = io.BytesIO(), None, []
        if writer is None:
            writer = pq.ParquetWriter(sink, table.schema, compression="zstd", write_statistics=True)
        writer.write_table(table, row_group_size=max(1, table.num_rows))
        holds.append((part, table))
    if writer is not None:
        writer.close()
        yield _written(lake, dataset, sink.getvalue(), holds)


def _written(lake: Lake, dataset: str, data: bytes, parts: list[tuple[Part, pa.Table]]) -> CompactedFile:
    """A compacted file written whole, named by its bytes as a part is, after reading
    each row group back: the rows of the part it copies, or nothing is written."""
    written = pq.ParquetFile(io.BytesIO(data))
    if written.metadata.num_row_groups != len(parts):
        raise PartUnreadable(parts[0][0].path)
    holds = []
    for index, (part, table) in enumerate(parts):
        back = written.read_row_group(index)
        if not back.cast(table.schema).equals(table):
            raise PartUnreadable(part.path)
        holds.append(
            Placed(part=part.path, sha256=part.sha256, rows=back.num_rows, row_group=index, digest=rows_digest(back))
        )
    path = part_name(dataset, data).replace("/part-", "/compacted-")
    lake.write(path, data)
    return CompactedFile(dataset=dataset, path=path, sha256=hashlib.sha256(data).hexdigest(), holds=tuple(holds))


def _identity(files: list[CompactedFile]) -> str:
    """A compaction's name: the hash of the files it wrote (the same compaction run
    again, cut short before its record, writes the same record)."""
    return hashlib.sha256("".join(f.sha256 for f in files).encode()).hexdigest()[:32]


def _remove_copied(lake: Lake, entries: Mapping[str, Entry], where: Placement) -> int:
    """Remove the committed parts a compaction holds; how many were there."""
    removed = 0
    for _, entry in sorted(entries.items()):
        for part in entry.parts:
            if part.path in where.at and lake.exists(part.path):
                lake.fs.rm(lake.path(part.path))
                removed += 1
    return removed
