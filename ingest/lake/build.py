"""``saboteur archive build``: files audited into the lake as Dask tasks.

The client lists the files (a folder, or an fsspec URL) and cuts the listing into
batches, each keyed by its files' names and sizes (:func:`~ingest.lake.batch.batch_key`),
so the same listing gives the same batches in every run. A batch already in the
manifest is skipped; every other one is a task, run on any worker of the cluster: a
local one of worker processes, or an existing one at a scheduler's address. A task
reads its files, writes its parts and then its entry (:mod:`ingest.lake.batch`); a
worker lost mid-task has its batch run again elsewhere (Dask's doing), and since parts
are named by their bytes, nothing is ever stored twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

import fsspec

from ingest.lake.batch import batch_key, write_batch
from ingest.lake.layout import Lake
from ingest.lake.manifest import Entry, committed, is_committed
from ingest.pipeline import SUFFIXES, collect
from ingest.sources import Prepared, prepare, prepare_bytes

if TYPE_CHECKING:
    from distributed import Client

BATCH_FILES: Final = 64
"""Files in a batch: about 16,000 events of simulated games, a task of a few seconds."""


class Job(Protocol):
    """A task's work: a key naming it in every run, and how many files it makes."""

    @property
    def key(self) -> str: ...

    @property
    def size(self) -> int: ...


@dataclass(frozen=True)
class Batch:
    """A batch of the listing: its key, its files (paths or URLs), the upload id of its
    first file, and the build's time its events are recorded at."""

    key: str
    sources: tuple[str, ...]
    first_upload: int
    at: datetime

    @property
    def size(self) -> int:
        return len(self.sources)


@dataclass(frozen=True)
class Done:
    """What a task did: its batch's files, events and games (none if it found the batch
    committed already)."""

    key: str
    files: int
    events: int
    games: int
    skipped: bool = False
    outcomes: tuple[str, ...] = ()
    """Each file's outcome, as ``saboteur ingest`` names it (none if skipped)."""

    @classmethod
    def of(cls, entry: Entry) -> Done:
        """What a batch just committed as ``entry`` holds."""
        files = entry.files
        return cls(
            entry.batch,
            len(files),
            entry.events,
            sum(len(f.game_ids) for f in files),
            False,
            tuple(f.outcome for f in files),
        )


def listing(sources: Sequence[str]) -> list[tuple[str, int]]:
    """Every file named or under the folders named, with its size, in the order
    ``saboteur ingest`` takes them (:func:`ingest.pipeline.collect`): local paths, or
    fsspec URLs (``s3://bucket/logs/``)."""
    local = [s for s in sources if "://" not in s or s.startswith("file://")]
    found = [(str(path), _size(path)) for path in collect(Path(s.removeprefix("file://")) for s in local)]
    for url in (s for s in sources if s not in local):
        fs, root = fsspec.core.url_to_fs(url)
        protocol = url.split("://", 1)[0]
        details = fs.find(root, detail=True) if fs.isdir(root) else {root: fs.info(root)}
        named = [(f"{protocol}://{path}", int(info["size"])) for path, info in details.items()]
        found.extend(sorted(named, key=lambda item: (not item[0].lower().endswith(".json"), item[0])))
    return [(name, size) for name, size in found if name.lower().endswith(SUFFIXES) or name in sources]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1


def plan(files: Sequence[tuple[str, int]], at: datetime, batch_files: int = BATCH_FILES) -> list[Batch]:
    """The listing cut into batches of ``batch_files`` files, numbered on from upload 1."""
    batches = []
    for start in range(0, len(files), batch_files):
        chunk = files[start : start + batch_files]
        key = batch_key("files", start, *(f"{name}|{size}" for name, size in chunk))
        batches.append(Batch(key, tuple(name for name, _ in chunk), start + 1, at))
    return batches


def run_batch(lake_url: str, batch: Batch) -> Done:
    """A task: audit the batch's files and write them into the lake (unless a run
    before committed it)."""
    lake = Lake.at(lake_url)
    if is_committed(lake, batch.key):
        return Done(batch.key, len(batch.sources), 0, 0, skipped=True)
    entry = write_batch(lake, batch.key, map(_prepared, batch.sources), first_upload=batch.first_upload, at=batch.at)
    return Done.of(entry)


def _prepared(source: str) -> Prepared:
    """A file audited as ``saboteur ingest`` audits it, read from wherever it is."""
    if "://" not in source:
        return prepare(Path(source))
    with fsspec.open(source, "rb") as stream:
        return prepare_bytes(source, stream.read())


@contextmanager
def cluster(scheduler: str | None = None, workers: int = 2) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a local one with ``workers``
    worker processes of one thread each (the audit is pure Python: processes, not
    threads, run it side by side), closed after. (Dask is imported here, not with the
    module: every ``saboteur`` command imports this one, and Dask takes half a second.)"""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as local,
        Client(local) as client,  # type: ignore[no-untyped-call]
    ):
        yield client


J = TypeVar("J", bound=Job)


def run(
    client: Client,
    lake_url: str,
    batches: Sequence[J],
    task: Callable[[str, J], Done],
    on_done: Callable[[Done], None] | None = None,
) -> list[Done]:
    """Run the batches not yet committed as tasks on ``client``'s cluster; what each
    did. A task's key is its batch's key, so one batch never runs twice at once."""
    from distributed import as_completed

    done_before = committed(Lake.at(lake_url))
    results = [Done(b.key, b.size, 0, 0, skipped=True) for b in batches if b.key in done_before]
    for result in results:
        if on_done is not None:
            on_done(result)
    futures = [
        client.submit(task, lake_url, batch, key=f"archive-{batch.key}", pure=False)
        for batch in batches
        if batch.key not in done_before
    ]
    for future in as_completed(futures):  # type: ignore[no-untyped-call]
        result = future.result()
        results.append(result)
        if on_done is not None:
            on_done(result)
    return results
