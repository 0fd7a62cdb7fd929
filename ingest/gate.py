"""Turns at one store file among the threads of one process.

DuckDB lets one process open a file, and every connection of that process shares one
database instance, opened either read-only or read-write: a thread that asks for the
other mode while a connection is open is refused ("a different configuration"). And
two transactions of one instance that both append read the same head of the event
chain, so the second to commit fails ("Conflict on update", or a duplicate position).
A server — the dashboard with ten phones recording and thirty spectators reading —
runs exactly such jobs side by side, one thread a session. Left to DuckDB, taps failed
and readers waited on each other's mode (issue 29).

:class:`Gate` gives the jobs of one process their turns before DuckDB sees them:

- **One writing job at a time.** A job that writes waits for the one before it to end:
  appends are made one after another, each reading the head the last one left, so an
  append never fails on another's position. (Another *process* is kept out by DuckDB's
  lock on the file, which :meth:`ingest.store.Store.connect` waits for.)
- **Readers join the instance that is open.** While a writing job has the file open
  read-write, a reading job opens its connection in that mode too (it still writes
  nothing: :meth:`~ingest.store.Store.connect` keeps its read-only checks), so it never
  waits for the writer, nor the writer for it. Only when nobody writes does a reader
  open the file read-only, as every reading command does, leaving it untouched.
- **A writer is not starved.** A writing job waiting for read-only connections to end
  holds back new readers, who then join it once it is in; so thirty spectators polling
  the standings cannot keep a tap waiting for more than the readers' current queries.
- **Nested jobs never deadlock.** A thread that already holds a connection joins the
  open instance without waiting (a reader inside a writer, or a reader inside a reader
  while a writer waits).

- **A server keeps the file open while it is busy** (:func:`linger`, which ``saboteur
  dashboard`` turns on). Opening and closing the file for every job — DuckDB reading its
  catalogue, then writing a checkpoint at the close — was three quarters of a phone's
  append (40 of 52 ms, then 12 ms kept open). The gate keeps one connection to the open
  instance for a moment after the last job, and lets go at once when another process
  waits for the file (its ``.waiting`` marker), holding this process's new jobs back
  until the other has had its turn: a ``saboteur ingest`` beside a busy dashboard gets
  in between the taps, as it did when every job closed the file. Commands run once and
  exit; they keep nothing.

- **What changed, for the pages' caches.** The dashboard keeps its query results under
  a stamp of the file (its size and time, and its write-ahead log's: :func:`stamp`).
  Each tap at each table changes the file, so with ten tables tapping every page's
  every cached result went stale several times a second, and each spectator's page run
  read the standings, the seating and the tournaments anew. :meth:`Gate.records` counts
  the changes to the *records* instead: it moves with every change of the file but
  those this process made by appending to drafts alone (a job that says so:
  ``Store.connect(drafts_only=True)``). A change it cannot account for — another
  process's write, DuckDB's checkpoint — moves it too.

The gate knows nothing of DuckDB: it hands out the mode to open in, counts, and holds
the connection it is given to keep.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Final, Protocol

READ: Final = "read"
WRITE: Final = "write"

LOOK: Final = 0.05
"""Seconds between two looks of a kept file's watcher: whether it is idle past the
linger, or another process waits for it."""
OTHERS_TURN: Final = 0.5
"""Seconds this process's jobs stay back after letting the file go for another process
that waits for it: that one tries again every 0.1–0.2 s (:data:`ingest.store.OPEN_RETRY`),
and would otherwise lose the race to the next tap."""

_linger = 0.0


def linger(seconds: float) -> None:
    """Keep each store file open for ``seconds`` after this process's last job on it (0:
    close it after every job, as a command does). A server's setting, for the process."""
    global _linger
    _linger = max(0.0, seconds)


def lingering() -> float:
    """The seconds each store file stays open after this process's last job on it."""
    return _linger


Stamp = tuple[int, ...]
"""A file's state as the file system sees it: changes whenever anything is written."""


def stamp(path: Path) -> Stamp:
    """Size and modification time of the database file and of its write-ahead log."""
    parts: list[int] = []
    for candidate in (path, path.with_name(path.name + ".wal")):
        try:
            info = os.stat(candidate)
        except OSError:
            parts.extend((0, 0))
        else:
            parts.extend((info.st_mtime_ns, info.st_size))
    return tuple(parts)


class Kept(Protocol):
    """A connection the gate keeps open: it only ever closes it."""

    def close(self) -> None: ...


class Gate:
    """The turns at one file within this process (one per file: :func:`gate`)."""

    def __init__(self, others_waiting: Callable[[], bool] = lambda: False) -> None:
        self._others_waiting = others_waiting
        self._turns = threading.Condition()
        self._kept: tuple[str, Kept] | None = None  # the connection kept open between jobs, and its mode
        self._last = 0.0  # when the last job ended
        self._back_until = 0.0  # new jobs wait until then: another process's turn
        self._watcher: threading.Thread | None = None
        self._known: Stamp | None = None  # the file's stamp as last accounted for
        self._records = 0  # changes to the records, as far as this process can tell
        self._mode: str | None = None  # the mode the open instance has, while any connection is open
        self._open = 0  # connections open in this process
        self._held: dict[int, int] = {}  # connections open, by thread
        self._writer: int | None = None  # the thread whose writing job is in
        self._depth = 0  # that thread's writing jobs, one inside another
        self._writers_waiting = 0
        self._readers_waiting = 0
        self._tickets = 0  # writing jobs that asked for a turn, ever
        self._served = 0  # of them, those whose turn has come: first come, first served
        self._abandoned: set[int] = set()  # tickets of jobs that stopped waiting (interrupted)

    def records(self, now: Stamp) -> int:
        """The count of changes to the records, given the file's stamp ``now``: moved
        on by any change of the file this process cannot account for."""
        with self._turns:
            if now != self._known:
                self._records += 1
                self._known = now
            return self._records

    def wrote(self, before: Stamp, after: Stamp, *, drafts_only: bool) -> None:
        """A writing job of this process ended, the file at ``before`` when it began and
        at ``after`` now: unless it appended to drafts alone, onto a file as last
        accounted for, the records changed."""
        with self._turns:
            if not drafts_only or before != self._known:
                self._records += 1
            self._known = after

    def waiting(self) -> bool:
        """Whether a job of this process waits for its turn (a long writer asks, to
        leave the file a moment between its transactions)."""
        with self._turns:
            return self._writers_waiting > 0 or self._readers_waiting > 0

    @contextmanager
    def turn(self, *, write: bool) -> Iterator[bool]:
        """Wait for this job's turn and hold it for the block; what is given is whether
        to open the file read-only (a reader while nobody writes)."""
        me = threading.get_ident()
        with self._turns:
            while not self._held.get(me) and (left := self._back_until - time.monotonic()) > 0:
                self._turns.wait(left)  # another process's turn with the file
            mode = self._enter_writer(me) if write else self._enter_reader(me)
            self._open += 1
            self._held[me] = self._held.get(me, 0) + 1
            self._mode = mode
        try:
            yield mode == READ
        finally:
            with self._turns:
                self._open -= 1
                self._held[me] -= 1
                if not self._held[me]:
                    del self._held[me]
                if write and self._writer == me and mode == WRITE:
                    self._depth -= 1
                    if not self._depth:
                        self._writer = None
                if not self._open:
                    self._mode = None if self._kept is None else self._kept[0]
                    self._last = time.monotonic()
                self._turns.notify_all()

    def keep(self, mode_read_only: bool, open_kept: Callable[[], Kept]) -> None:
        """After a job that went well, still inside its turn: keep a connection to the
        open instance (``open_kept`` makes one, in the job's mode), if this process
        lingers and keeps none in that mode yet."""
        if _linger <= 0:
            return
        mode = READ if mode_read_only else WRITE
        with self._turns:
            if self._kept is not None and self._kept[0] == mode:
                return
            old, self._kept = self._kept, None
        if old is not None:
            _close(old[1])
        kept = open_kept()
        spare: Kept | None = kept
        with self._turns:
            if self._kept is None:
                self._kept, spare = (mode, kept), None
            if self._watcher is None or not self._watcher.is_alive():
                self._watcher = threading.Thread(target=self._watch, name="store-gate", daemon=True)
                self._watcher.start()
        if spare is not None:  # another job kept one first
            _close(spare)

    def _watch(self) -> None:
        """Close the kept connection once idle past the linger, or at once when another
        process waits for the file (then hold new jobs back for its turn)."""
        while True:
            time.sleep(LOOK)
            others = self._others_waiting()
            with self._turns:
                if self._kept is None:
                    self._watcher = None
                    return
                idle = not self._open and time.monotonic() - self._last > _linger
                if not (idle or others):
                    continue
                if others:
                    self._back_until = time.monotonic() + OTHERS_TURN
                kept, self._kept = self._kept[1], None
                if not self._open:
                    self._mode = None
            _close(kept)
            with self._turns:
                self._turns.notify_all()

    def _enter_reader(self, me: int) -> str:
        if self._held.get(me):  # this thread is inside a job already: join it, never wait for itself
            return self._mode or READ
        self._readers_waiting += 1
        try:
            # a writer waiting for the read-only instance to close goes first; readers
            # then join its read-write instance
            self._turns.wait_for(lambda: not (self._writers_waiting and self._mode != WRITE))
        finally:
            self._readers_waiting -= 1
        return self._mode or READ

    def _enter_writer(self, me: int) -> str:
        if self._writer == me:
            self._depth += 1
            return WRITE
        if self._held.get(me) and self._mode == READ:
            # this thread holds a read-only connection and cannot wait for itself to
            # close it: its job gets the read-only instance, and DuckDB refuses its first
            # write at once (a mistake in the caller, never a wait of a minute)
            return READ
        if self._kept is not None and self._kept[0] == READ:
            # the read-only connection kept open must go before the file opens read-write
            kept, self._kept = self._kept[1], None
            if not self._open:
                self._mode = None
            _close(kept)
        ticket = self._tickets
        self._tickets += 1
        self._writers_waiting += 1
        try:
            # one writing job at a time, in the order they came (ten phones' taps: none
            # waits behind later ones); and a read-only instance must close first
            self._turns.wait_for(
                lambda: self._served == ticket and self._writer is None and not (self._open and self._mode == READ)
            )
        except BaseException:  # interrupted while waiting: its turn passes to the next
            self._abandoned.add(ticket)
            self._serve()
            raise
        finally:
            self._writers_waiting -= 1
        self._served += 1
        self._serve()
        self._writer, self._depth = me, 1
        return WRITE

    def _serve(self) -> None:
        """Pass over the turns of writing jobs that stopped waiting."""
        while self._served in self._abandoned:
            self._abandoned.discard(self._served)
            self._served += 1
        self._turns.notify_all()


OPENING: Final = threading.Lock()
"""Held while this process opens a connection to a store file, or closes one that may be
the last of its DuckDB instance: one instance of a file at a time in a process.

DuckDB locks the file with a POSIX lock, which belongs to the process: closing *any*
descriptor of the file lets go of it, whichever instance holds it. A new instance
opens the file twice to read its header before it locks it; an instance closing
checkpoints and then closes its descriptor. Overlapped in two threads of a server (a
job's close of the last connection while the next job opens one), the one could let go
of the lock the other holds while it writes on (DuckDB's own connect was seen to wait
for such a close, but nothing promises it). Opening and closing here one at a time, an
instance is closed for good before the next is made; :class:`FileHold` keeps other
processes out whatever becomes of DuckDB's lock.

The first connection to a file also makes the process's DuckDB instance, and only then
registers on it the scan by which a query reads a Python Arrow table (every insert of
the store goes through one: :mod:`ingest.store.writing`); DuckDB handed the instance to
another thread's connection opened meanwhile, whose inserts then failed ("Table
Function with name python_arrow_scan does not exist"). Opening takes milliseconds (a
try refused by another process's lock returns at once, and the wait before the next is
outside); closing the last connection, its checkpoint."""


def _close(kept: Kept) -> None:
    """Close a kept connection (maybe its instance's last: :data:`OPENING`); one already
    broken is closed all the same."""
    with OPENING, suppress(Exception):
        kept.close()


IN_MEMORY: Final = ":memory:"
"""How DuckDB names a database in memory (a path beginning so names no file)."""


class FileHold:
    """This process's hold on a store file, as other processes see it: a ``flock`` on
    ``<store>.lock`` taken before a connection opens and let go when the last closes
    (shared while every connection reads, exclusive while one may write).

    DuckDB's own lock on the file is a POSIX lock, which belongs to the process: closing
    any descriptor of the file lets go of it, whichever instance holds it, and a server
    was seen holding the file with no lock on it for 126 ms; a command waiting in
    another process then opens it read-write beside the server, and one of the two
    loses what it wrote (a penalty the command said it recorded was gone, twice in
    eleven venue loads). A ``flock`` belongs to its own descriptor, which nothing else
    closes: while the server holds it, no command opens the file, whatever happens to
    DuckDB's lock. Where the lock file cannot be made (a folder one may not write in),
    DuckDB's lock alone stands, as before; a database in memory (an archive batch's
    store, ``:memory:…``) is the process's alone, and has none."""

    def __init__(self, path: Path) -> None:
        self._path = None if path.name.startswith(IN_MEMORY) else path.with_name(path.name + ".lock")
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._exclusive = False
        self._count = 0  # connections open that took the hold

    def take(self, *, write: bool) -> bool:
        """Hold the file for one more connection (``write``: one that may write); False
        when another process holds it (then try again, as when DuckDB's lock refuses)."""
        with self._lock:
            if self._fd is None:
                if self._path is None:  # in memory: no other process can open it
                    self._count += 1
                    return True
                try:
                    fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
                except OSError:  # no lock file can be made here: DuckDB's lock alone
                    self._count += 1
                    return True
                try:
                    fcntl.flock(fd, (fcntl.LOCK_EX if write else fcntl.LOCK_SH) | fcntl.LOCK_NB)
                except BlockingIOError:  # another process holds it
                    os.close(fd)
                    return False
                except OSError:  # a file system without flock: DuckDB's lock alone
                    os.close(fd)
                    self._count += 1
                    return True
                self._fd, self._exclusive = fd, write
            elif write and not self._exclusive:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    # Linux may let go of the shared lock before it finds the exclusive one
                    # taken: take the shared one back for the connections still open
                    with suppress(OSError):
                        fcntl.flock(self._fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    return False
                except OSError:  # the file system failed it: DuckDB's lock alone, as above
                    self._count += 1
                    return True
                self._exclusive = True
            self._count += 1
            return True

    def give_back(self) -> None:
        """One connection that took the hold is closed; the last lets go of it."""
        with self._lock:
            self._count = max(0, self._count - 1)
            if self._count or self._fd is None:
                return
            fd, self._fd, self._exclusive = self._fd, None, False
        with suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


_gates: dict[str, Gate] = {}
_gates_lock = threading.Lock()


def gate(path: Path, others_waiting: Callable[[], bool] = lambda: False) -> Gate:
    """The gate of the file at ``path`` (one for every spelling of the same file);
    ``others_waiting`` tells, when it is first made, whether another process waits for
    the file."""
    key = os.path.realpath(path)
    with _gates_lock:
        found = _gates.get(key)
        if found is None:
            found = _gates[key] = Gate(others_waiting)
        return found


_holds: dict[str, FileHold] = {}
_NO_FILE: Final = FileHold(Path(IN_MEMORY))
"""The hold of every database in memory: it counts, and holds no file."""


def hold(path: Path) -> FileHold:
    """This process's :class:`FileHold` on the file at ``path`` (one for every spelling;
    one that makes no file for every database in memory, which are many and short)."""
    if path.name.startswith(IN_MEMORY):
        return _NO_FILE
    key = os.path.realpath(path)
    with _gates_lock:
        found = _holds.get(key)
        if found is None:
            found = _holds[key] = FileHold(Path(key))
        return found
