"""``saboteur archive build``: files audited into the lake as Dask tasks.

The client lists the files (a folder, or an fsspec URL) and cuts the listing into
batches, each keyed by its files' names, sizes and versions (when each was last written;
:func:`~ingest.lake.batch.batch_key`), so the same listing gives the same batches in
every run, and a file written anew since makes its batch another; their uploads are numbered on
from the lake's last (:func:`plan`). The client holds neither the listing nor its
batches whole: it reads the listing once to cut it (:func:`cut`: each batch's key and
the place of its first file, and how many files), and again for the batches' files,
taken a few at a time as the cluster is ready for them (:meth:`Cuts.batches`). A batch
already in the manifest is skipped. Every
other one is three tasks, run on any worker of the cluster (a local one of worker
processes, or an existing one at a scheduler's address):

1. :func:`survey` reads and audits the batch's files, and keeps them in the worker's
   memory;
2. :func:`claims` sends the client only what they claim: content hashes and streams;
3. :func:`run_batch` writes them (:mod:`ingest.lake.batch`): its parts, then its entry.
   The client submits it with what came before the batch (:class:`~ingest.lake.ledger.Held`),
   so the writer decides each file as ``saboteur ingest`` would, given the same files in
   the same order: a content seen before is a duplicate, a game stored before rejected.

**Nothing is stored twice**, however the batches run side by side. Before it submits a
batch's write, the client waits for the writes of every earlier batch (in the listing)
that claims one of the batch's contents or streams, and hands the batch their outcomes
(the client's ledger holds them, from the manifest and from each write as it ends).
Batches that share nothing are written at the same time; two that share a game are
written one after the other, in the listing's order, the later told of the earlier.
Each batch's decisions are thus made once its predecessors' are final, never from a
race of two commits, and a batch's parts and entry depend only on its files and what
came before it: a worker lost mid-task has its tasks run again elsewhere (Dask's
doing) and writes the same bytes under the same names; a client killed and run again
reads the committed entries and decides the rest as the first run would have. One
build writes a lake at a time.
"""

from __future__ import annotations

import heapq
import logging
import os
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

import fsspec

from events.folders import walk
from events.said import Refusal, Said, say
from ingest.drafts import ACCEPTED
from ingest.lake.batch import batch_key, write_batch
from ingest.lake.layout import Lake, opened, reaching
from ingest.lake.ledger import Held, Ledger
from ingest.lake.lock import LakeLost
from ingest.lake.manifest import Entry, SourceFile, committed
from ingest.pipeline import SUFFIXES, weight
from ingest.sources import Prepared, prepare, prepare_bytes

if TYPE_CHECKING:
    from distributed import Client, Future

BATCH_FILES: Final = 64
"""Files in a batch: about 16,000 events of simulated games, a task of a few seconds."""
BATCH_BYTES: Final = 16 * 2**20
"""Bytes of files in a batch, at most (a file of more is a batch alone). A batch is
written through a store held in its worker's memory, and four logs of 16 MiB in one
batch (1.5 million events) took that worker to 669 MiB. A batch of 64 simulated games
is some 2 MiB, so a listing of such games is cut as by :data:`BATCH_FILES` alone, and
its batches keep their keys."""


class Job(Protocol):
    """A task's work: a key naming it in every run, and how many files it makes."""

    @property
    def key(self) -> str: ...

    @property
    def size(self) -> int: ...


Listed = tuple[str, int] | tuple[str, int, str]
"""A file as the listing finds it: its path or URL, its size (-1: unknown) and, where the
file system tells it, its version (the time it was last written, or an object store's
ETag). A batch's key is made of them (:func:`_key`): a file written anew since a batch
was committed — at the same size, a game id corrected — makes another batch, audited as
``saboteur ingest`` would audit it, not one skipped as committed."""


@dataclass(frozen=True)
class Batch:
    """A batch of the listing: its key, its files (paths or URLs), the upload id of its
    first file, the build's time its events are recorded at, and its files' bytes as
    listed (what the build holds ahead is counted in them)."""

    key: str
    sources: tuple[str, ...]
    first_upload: int
    at: datetime
    bytes: int = 0

    @property
    def size(self) -> int:
        return len(self.sources)


@dataclass(frozen=True)
class Done:
    """What a task did: its batch's files, the events and games it stored (none if the
    batch was committed before the run: skipped), each file's outcome as ``saboteur ingest``
    names it (none if skipped: this run did not audit it), and the files as the batch's
    entry lists them — for the client's ledger, which lets them go (:func:`build`)."""

    key: str
    files: int
    events: int
    games: int
    skipped: bool = False
    outcomes: tuple[str, ...] = ()
    sources: tuple[SourceFile, ...] = ()
    rejected: tuple[tuple[str, Said], ...] = ()
    """Each file rejected, by name, with why: for the command to say, as ``ingest`` does."""
    lost: Said | None = None
    """Why the batch was not committed: the run's lock was taken over
    (:class:`~ingest.lake.lock.LakeLost`, raised by the client: a task that raised it
    had its worker log a traceback of it)."""

    def ended(self) -> Done:
        """This, unless the run lost its lock: then :class:`~ingest.lake.lock.LakeLost`."""
        if self.lost is not None:
            raise LakeLost(self.lost)
        return self

    @classmethod
    def of(cls, entry: Entry) -> Done:
        """What a batch committed as ``entry`` holds."""
        files = entry.files
        games = sum(len(f.game_ids) for f in files if f.outcome in ACCEPTED)
        return cls(entry.batch, len(files), entry.events, games, False, tuple(f.outcome for f in files), files)


def listing(sources: Sequence[str]) -> Iterator[Listed]:
    """Every file named or under the folders named, with its size, in the order
    ``saboteur ingest`` takes them (:func:`ingest.pipeline.collect`): local paths, or
    fsspec URLs (``s3://bucket/logs/``), each URL's files after the local ones.

    Found as they are taken, not listed whole first: a folder's tree is walked a
    directory at a time, each directory's entries sorted (the names of the directories
    on the way down to the file taken are all that is held), once for the ``.json``
    files (which come first) and once for the others. A URL's tree is walked the same
    way, one listing of a directory (a prefix, on an object store) at a time, that
    listing whole."""
    local = [s for s in sources if "://" not in s or s.startswith("file://")]
    return chain(
        _local([Path(s.removeprefix("file://")) for s in local]), *map(_remote, (s for s in sources if s not in local))
    )


def _local(paths: Sequence[Path]) -> Iterator[Listed]:
    """What :func:`ingest.pipeline.collect` gives of ``paths``, in its order (the
    ``.json`` files first, then the others, each by their paths as strings), with the
    files' sizes."""
    folders = [(path, path.is_dir()) for path in paths]  # a path named twice is taken twice, as collect takes it
    for first in (True, False):
        named = sorted(str(p) for p, folder in folders if not folder and _is_json(p.name) == first)
        # a folder that cannot be read is given once, with the logs, as collect gives it
        walks = [walk(path, _taker(first), unreadable=not first) for path, folder in folders if folder]
        for name in heapq.merge(iter(named), *walks):
            yield name, *_size_and_version(name)


def _taker(json: bool) -> Callable[[str], bool]:
    """Which names ``collect`` takes (those of :data:`SUFFIXES`), the ``.json`` ones or
    the others."""
    return lambda name: name.lower().endswith(SUFFIXES) and _is_json(name) == json


def _is_json(name: str) -> bool:
    return name.lower().endswith(".json")


def _size_and_version(path: str) -> tuple[int, str]:
    """A file's size and the time it was last written (-1 and none if it cannot be
    looked at: it is rejected with why when read)."""
    try:
        found = os.stat(path)
    except OSError:
        return -1, ""
    return found.st_size, str(found.st_mtime_ns)


def _remote(url: str) -> Iterator[Listed]:
    """The files of an fsspec URL: the file it names, or those under it, the ``.json``
    ones first, then the others, each by name (as :meth:`fsspec.AbstractFileSystem.find`
    and a sort would give them), with their sizes."""
    fs, root = opened(url)
    protocol = url.split("://", 1)[0]
    with reaching(url):  # an object store out of reach: one line naming the URL
        if not fs.isdir(root):
            info = fs.info(root)
            yield f"{protocol}://{root}", int(info["size"]), _version(info)
            return
        for first in (True, False):
            for path, *rest in _remote_walk(fs, root, first):
                yield (f"{protocol}://{path}", *rest)


_VERSIONS: Final = ("ETag", "etag", "md5Hash", "mtime", "LastModified", "updated", "created")
"""Where fsspec's file systems say which version of a file they hold (S3's ETag, GCS's
hash, a local or SFTP file's time), the first one given counting."""


def _version(info: Mapping[str, Any]) -> str:
    """The version of a file as its file system's listing describes it ("" if none)."""
    return next((str(info[field]) for field in _VERSIONS if info.get(field) is not None), "")


def _remote_walk(fs: Any, folder: str, json: bool) -> Iterator[Listed]:
    """:func:`events.folders.walk` on a filesystem of fsspec: a directory's listing at a
    time, let go of by the filesystem's cache once read (an object store's client would
    keep every listing of the tree)."""
    entries: list[Listed] = []
    taken = _taker(json)
    for info in fs.ls(folder, detail=True):
        name = str(info["name"])
        if info["type"] == "directory":
            if name.rstrip("/") != folder.rstrip("/"):
                entries.append((name.rstrip("/") + "/", 0))
        elif taken(name):
            entries.append((name, int(info["size"]), _version(info)))
    fs.invalidate_cache(folder)
    entries.sort()
    for entry in entries:
        if entry[0].endswith("/"):
            yield from _remote_walk(fs, entry[0][:-1], json)
        else:
            yield entry


def plan(
    files: Iterable[Listed],
    at: datetime,
    batch_files: int = BATCH_FILES,
    entries: Mapping[str, Entry] | None = None,
    batch_bytes: int = BATCH_BYTES,
) -> list[Batch]:
    """The listing cut into batches of ``batch_files`` files or ``batch_bytes`` bytes
    at most (:func:`_cuts`), their uploads numbered on
    from the last upload of ``entries`` (the lake's committed batches: upload 1 in a new
    lake) that are not the listing's own. The listing's own batches committed by a run
    before keep their numbers, and the others are numbered around them (the same build
    run again); but if they were numbered otherwise (a listing that shares batches with
    one built before, such as a folder grown since), every other batch is numbered
    after every upload of the lake. Never twice the same number, and each file's
    earlier files — those it may repeat — numbered below it.

    Every batch at once, the listing held whole: :func:`cut` and :meth:`Cuts.batches`
    give the same batches holding a batch at a time (what ``archive build`` does)."""
    held = files if isinstance(files, Sequence) else list(files)
    return list(cut(held, batch_files, batch_bytes).batches(held, at, entries or {}))


@dataclass(frozen=True)
class Cuts:
    """A listing's batches as a first reading of it finds them (:func:`cut`): how many
    files, and each batch's key and the place of its first file — 24 bytes a batch,
    not the files' names (a batch is a file at least, 64 as a rule): enough to number
    the batches' uploads (:func:`first_upload`). :meth:`batches` reads the listing
    again for their files."""

    files: int
    batch_files: int
    batch_bytes: int
    keys: bytes
    """Each batch's key (hex, :func:`~ingest.lake.batch.batch_key`) as its 16 bytes."""
    starts: array[int]

    def __len__(self) -> int:
        return len(self.starts)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        """Each batch's key and the place of its first file, in the listing's order."""
        for index, start in enumerate(self.starts):
            yield self.keys[_KEY * index : _KEY * (index + 1)].hex(), start

    def first_upload(self, entries: Mapping[str, Entry]) -> int:
        """The upload id of the listing's first file, given the lake's committed
        ``entries`` (:func:`first_upload`: of the listing's batches, those the lake
        holds are all it reads)."""
        return first_upload(entries, [(key, start) for key, start in self if key in entries])

    def batches(self, files: Iterable[Listed], at: datetime, entries: Mapping[str, Entry]) -> Iterator[Batch]:
        """The batches (see :func:`plan`), ``files`` the listing read again: one at a
        time, as they are asked for.

        Each is the batch of the first reading, or the listing changed meanwhile (a file
        added, removed or grown): from the first batch that is not, the batches are
        numbered after every upload of the lake and of the batches before it, as a
        listing that shares batches with an earlier build is; never a number twice, and
        each file's earlier files numbered below it. (A batch built again keeps its key,
        and is skipped, whatever its number.)"""
        first = self.first_upload(entries)
        changed = False
        for index, (start, chunk) in enumerate(_cuts(files, self.batch_files, self.batch_bytes)):
            key = _key(start, chunk)
            if not changed and (
                index >= len(self) or self.keys[_KEY * index : _KEY * (index + 1)] != bytes.fromhex(key)
            ):
                changed = True  # this batch's first file numbered past the lake's uploads and this run's before it
                past = 1 + max((f.upload_id for e in entries.values() for f in e.files), default=0)
                first = max(first, past - start)
            yield Batch(
                key, tuple(file[0] for file in chunk), first + start, at, sum(max(file[1], 0) for file in chunk)
            )


_KEY: Final = 16
"""Bytes of a batch's key (32 hex digits)."""


def cut(files: Iterable[Listed], batch_files: int = BATCH_FILES, batch_bytes: int = BATCH_BYTES) -> Cuts:
    """The listing's batches (:func:`_cuts`), read once and held as :class:`Cuts`."""
    keys = bytearray()
    starts = array("q")
    count = 0
    for start, chunk in _cuts(files, batch_files, batch_bytes):
        keys += bytes.fromhex(_key(start, chunk))
        starts.append(start)
        count = start + len(chunk)
    return Cuts(count, batch_files, batch_bytes, bytes(keys), starts)


def _key(start: int, chunk: Sequence[Listed]) -> str:
    return batch_key("files", start, *("|".join(map(str, file)) for file in chunk))


def _cuts(files: Iterable[Listed], batch_files: int, batch_bytes: int) -> Iterator[tuple[int, tuple[Listed, ...]]]:
    """The listing's batches, each with the place of its first file: a batch ends before
    the file that would make it ``batch_files`` files or more than ``batch_bytes``
    bytes (a file larger than that is a batch of its own; a size unknown counts 0).
    One batch at a time: the listing is read as it comes."""
    chunk: list[Listed] = []
    start = held = 0
    for index, file in enumerate(files):
        size = max(file[1], 0)
        if chunk and (len(chunk) >= batch_files or held + size > batch_bytes):
            yield start, tuple(chunk)
            chunk, start, held = [], index, 0
        chunk.append(file)
        held += size
    if chunk:
        yield start, tuple(chunk)


def first_upload(entries: Mapping[str, Entry], starts: Sequence[tuple[str, int]]) -> int:
    """The upload id of a run's first file, its batches ``starts`` (each batch's key and
    the place of its first file in the run; those the lake does not hold may be left
    out), given the lake's committed ``entries`` (see :func:`plan`; ``archive simulate``
    numbers its games the same way)."""
    ours = dict(starts)
    after = 1 + max((f.upload_id for key, e in entries.items() if key not in ours for f in e.files), default=0)
    kept = all(e.files[0].upload_id == after + ours[key] for key, e in entries.items() if key in ours and e.files)
    return after if kept else 1 + max((f.upload_id for e in entries.values() for f in e.files), default=0)


@dataclass(frozen=True)
class Audited:
    """A batch's files read and audited, kept by the worker that audited them for the
    task that writes them. Dask weighs them by :func:`ingest.pipeline.weight` (it would
    count a few bytes an object, and move them between workers as if that cost
    nothing)."""

    files: tuple[Prepared, ...]

    def __sizeof__(self) -> int:
        return sum(map(weight, self.files))


def survey(sources: Sequence[str]) -> Audited:
    """A task: the batch's files read and audited."""
    return Audited(tuple(_prepared(source) for source in sources))


def claims(audited: Audited) -> frozenset[str]:
    """A task: what the batch's files may hold that another file holds too — their
    contents' SHA-256 and their streams (``game:…``, ``tournament:…``; never confused
    with a hash, which has no colon)."""
    files = audited.files
    return frozenset({p.sha256 for p in files if p.sha256} | {s for p in files for s in p.streams})


def run_batch(
    lake_url: str, batch: Batch, held: Held | None = None, audited: Audited | None = None, lock: str | None = None
) -> Done:
    """A task: write the batch's files, audited already or read now, into the lake,
    ``held`` being what came before them, committed while the run holds the lake's
    ``lock``.

    A build sends no batch the lake held as it began (:func:`build`), so an entry found
    here was committed by this very task, run before on a worker that died after the
    commit and before it reported. The batch is written again — the same bytes under
    the same names, and the same entry — for what it did: skipped as "already
    committed", its files' outcomes and a rejected file's reason (and the build's exit
    1) were left out of the run's count."""
    lake = Lake.at(lake_url)
    files = audited.files if audited is not None else map(_prepared, batch.sources)
    rejected: list[tuple[str, Said]] = []
    try:
        entry = write_batch(
            lake,
            batch.key,
            files,
            first_upload=batch.first_upload,
            at=batch.at,
            held=held,
            rejected=rejected,
            lock=lock,
        )
    except LakeLost as lost:
        return Done(batch.key, len(batch.sources), 0, 0, lost=lost.said)
    return replace(Done.of(entry), rejected=tuple(rejected))


def _prepared(source: str) -> Prepared:
    """A file audited as ``saboteur ingest`` audits it, read from wherever it is."""
    if "://" not in source:
        return prepare(Path(source))
    with fsspec.open(source, "rb") as stream:
        return prepare_bytes(source, stream.read())


QUIET_WORKER: Final = "ingest.lake.quiet"
"""The preload that has a local cluster's workers leave Ctrl-C to the command."""

WORKER_ENV: Final = {"ARROW_DEFAULT_MEMORY_POOL": "system"}
"""The environment of a local cluster's workers: their Arrow buffers from the C
library's allocator, not Arrow's own pool (mimalloc), which kept what each batch's
parts had used: a build of 1,000 simulated games peaked at 612 MiB for its tree against
659 MiB (set in the worker once it was running, the pool had kept it already)."""


SCHEDULER_TIMEOUT: Final = "10s"
"""How long a client tries to reach a scheduler named by ``--scheduler``."""


class SchedulerUnreachable(Refusal):
    """The scheduler ``--scheduler`` names cannot be reached (or is no address at all)."""


@contextmanager
def cluster(scheduler: str | None = None, workers: int = 2) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a local one with ``workers``
    worker processes of one thread each (the audit is pure Python: processes, not
    threads, run it side by side), closed after. (Dask is imported here, not with the
    module: every ``saboteur`` command imports this one, and Dask takes half a second.)"""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            reached = Client(scheduler, timeout=SCHEDULER_TIMEOUT)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            said = say(
                "cannot reach the Dask scheduler at %(address)s: %(problem)s", address=scheduler, problem=problem
            )
            raise SchedulerUnreachable(said) from None
        with reached as client:
            yield client
        return
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env=dict(WORKER_ENV),
            preload=[QUIET_WORKER],  # Ctrl-C is the command's (ingest.lake.quiet)
            # tasks cancelled and heartbeats cut as a run ends are not the reader's (an
            # ERROR with a traceback when Ctrl-C closed the cluster); a task that fails
            # raises in the command, which says so
            silence_logs=logging.CRITICAL,
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
    """Run the batches not yet committed as tasks on ``client``'s cluster, side by side
    and in any order, for batches that cannot hold what another holds (``archive
    simulate``'s: each game drawn once, under its own id); what each did. A task's key
    is its batch's key, so one batch never runs twice at once."""
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
        result = replace(future.result().ended(), sources=())
        results.append(result)
        if on_done is not None:
            on_done(result)
    return results


AHEAD: Final = 4
"""Batches audited and not yet written, at most, for each worker thread of the cluster
(and eight at least): enough to keep every worker busy while the client waits for an
earlier batch, few enough that the workers hold a few batches each, not the listing."""
AHEAD_BYTES: Final = 2 * BATCH_BYTES
"""Bytes of files in batches surveyed and not yet written, at most, for each worker
thread (once each thread has a batch): a batch of simulated games is some 2 MiB, so
:data:`AHEAD` bounds those, but a 16 MiB log audited is some 19 MiB held by its worker
until it is written, and eight of them were held ahead. Two such batches a thread (the
one written, the next surveyed) keep the workers as busy as eight: ten 16 MiB logs took
42 s against 40 s, and 47 s with one a thread."""


def build(
    client: Client,
    lake_url: str,
    batches: Iterable[Batch],
    entries: Mapping[str, Entry],
    on_done: Callable[[Done], None] | None = None,
    lock: str | None = None,
) -> list[Done]:
    """Write the batches not among ``entries`` (the lake's committed batches) on
    ``client``'s cluster, each told of what came before it (see the module); what each
    did. A write's task key is its batch's key, so one batch is never written twice
    at once. The batches are taken as the cluster is ready for more (a few per worker
    ahead of the writes): an iterator of them (:meth:`Cuts.batches`) is never held
    whole."""
    results: list[Done] = []

    def did(result: Done) -> None:
        results.append(result)
        if on_done is not None:
            on_done(result)

    def todo() -> Iterator[Batch]:
        for batch in batches:
            if batch.key in entries:
                did(Done(batch.key, batch.size, 0, 0, skipped=True))
            else:
                yield batch

    # a cluster whose workers have not joined yet counts as one thread: a build never
    # waits with no room ahead
    threads = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
    ahead = _Ahead(max(8, AHEAD * threads), AHEAD_BYTES * threads, threads)
    with Ledger(entries.values()) as ledger:
        for done in _Build(client, lake_url, todo(), ledger, ahead, lock).run():
            did(replace(done, sources=()))
    return results


@dataclass(frozen=True)
class _Ahead:
    """How far a build surveys ahead of its writes: ``batches`` surveyed and not yet
    written at most, and no more once they hold ``bytes`` of files, unless fewer than
    ``least`` are (every worker thread has one)."""

    batches: int
    bytes: int
    least: int

    def room(self, flying: Iterable[Batch]) -> bool:
        held = list(flying)
        if len(held) >= self.batches:
            return False
        return len(held) < self.least or sum(b.bytes for b in held) < self.bytes


_PRIORITY: Final = {"archive": 2, "claims": 1, "survey": 0}
"""Dask's priority of each kind of task (higher first): a batch's write before its
claims, and both before surveying more. Submitted in the listing's order and all of one
priority, eight surveys ran before the first write: the files of every batch ahead were
audited and held before any was written."""


class _Build:
    """The client's side of a build: batches sent to be surveyed, their claims indexed
    in the listing's order, each batch's write sent once every earlier batch sharing a
    claim with it is written (the last of them: that one waited for those before it).
    Batches are numbered here in the order they are taken from ``todo``, and taken as
    those before are written: it holds those surveyed and not yet written, as many as
    ``ahead`` has room for, and of those written only what the ledger records of their
    files."""

    def __init__(
        self, client: Client, lake_url: str, todo: Iterator[Batch], ledger: Ledger, ahead: _Ahead, lock: str | None
    ) -> None:
        from distributed import as_completed

        self.client = client
        self.lake_url = lake_url
        self.todo = todo
        self.ledger = ledger
        self.ahead = ahead
        self.lock = lock
        self.flow = as_completed()  # type: ignore[no-untyped-call]
        self.tasks: dict[str, tuple[str, int]] = {}
        """Each future's key: whether it brings a batch's claims or its write, and which."""
        self.flying: dict[int, Batch] = {}
        """Batches surveyed and not yet written."""
        self.audited: dict[int, Future[Audited]] = {}
        """Batches surveyed and not yet written: their audited files, on a worker."""
        self.claimed: dict[int, frozenset[str]] = {}
        self.holder: dict[str, int] = {}
        """Each claim of a batch not yet written: the last batch indexed that holds it."""
        self.waiting: dict[int, set[int]] = {}
        """Batches indexed, their writes not sent: the batches not yet written they wait for."""
        self.surveyed = 0
        self.indexed = 0

    def run(self) -> Iterator[Done]:
        self._survey_more()
        for future in self.flow:
            kind, index = self.tasks.pop(str(future.key))
            if kind == "claims":
                self.claimed[index] = future.result()
                self._index()
            else:
                done: Done = future.result().ended()
                self._written(index, done)
                yield done
            self._write_ready()
            self._survey_more()

    def _submit(self, kind: str, index: int, function: Callable[..., Any], *args: Any) -> Future[Any]:
        key = f"{kind}-{self.flying[index].key}"
        future: Future[Any] = self.client.submit(function, *args, key=key, pure=False, priority=_PRIORITY[kind])
        return future

    def _survey_more(self) -> None:
        while self.ahead.room(self.flying.values()) and (batch := next(self.todo, None)) is not None:
            index = self.surveyed
            self.flying[index] = batch
            self.audited[index] = self._submit("survey", index, survey, batch.sources)
            found = self._submit("claims", index, claims, self.audited[index])
            self.tasks[str(found.key)] = ("claims", index)
            self.flow.add(found)  # type: ignore[no-untyped-call]
            self.surveyed += 1

    def _index(self) -> None:
        """Index the batches whose claims are in, in the listing's order. A batch waits
        for the holders of its claims: batches not yet written (:meth:`_written`)."""
        while self.indexed in self.claimed:
            index = self.indexed
            keys = self.claimed[index]
            self.waiting[index] = {self.holder[k] for k in keys if k in self.holder}
            self.holder.update(dict.fromkeys(keys, index))
            self.indexed += 1

    def _write_ready(self) -> None:
        """Send the write of every batch whose predecessors are written."""
        for index in sorted(i for i, waits in self.waiting.items() if not waits):
            del self.waiting[index]
            batch = self.flying[index]
            held = self.ledger.before(batch.first_upload, self.claimed[index])
            future = self._submit(
                "archive", index, run_batch, self.lake_url, batch, held, self.audited[index], self.lock
            )
            self.tasks[str(future.key)] = ("write", index)
            self.flow.add(future)  # type: ignore[no-untyped-call]

    def _written(self, index: int, done: Done) -> None:
        """A batch written: its files into the ledger, the batch and its audited files
        let go, and those waiting for it told."""
        self.ledger.record(done.sources)
        del self.flying[index], self.audited[index]
        for waits in self.waiting.values():
            waits.discard(index)
        for key in self.claimed.pop(index):
            if self.holder.get(key) == index:
                del self.holder[key]
