"""How the store's writes reach the file: DuckDB's settings, one transaction at a time,
and DuckDB's checkpoints (with or without its vacuum).

A transaction is all or none (:func:`transaction`); what DuckDB does after a commit — a
checkpoint once its write-ahead log is long enough, with a vacuum that merges row
groups — decides much of what a long ingest costs (:func:`checkpoint_unmerged`) and how
large the file grows with small writes."""

from __future__ import annotations

import _thread
import contextlib
import functools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import duckdb

from ingest.stats import IngestStats


def config() -> dict[str, Any]:
    """DuckDB settings: a memory ceiling (``$SABOTEUR_DB_MEMORY``, default 384MB; DuckDB
    spills to disk past it) so an ingest stays well under 1 GiB whatever its size; and no
    extension loaded or fetched on its own (a SQLite file named as the store would
    otherwise send DuckDB looking for its reader). DuckDB's vacuum is left on: see
    :func:`checkpoint_unmerged` for the one job that turns it off. (Its progress bar is a
    connection's setting: :meth:`ingest.store.files.StoreFile._open` turns it off.)"""
    return {
        "memory_limit": os.environ.get("SABOTEUR_DB_MEMORY", "384MB"),
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
    }


@functools.cache
def settings() -> frozenset[str]:
    """The settings this DuckDB knows (the package allows versions before some)."""
    with duckdb.connect(":memory:") as con:
        return frozenset(str(name) for (name,) in con.execute("SELECT name FROM duckdb_settings()").fetchall())


ROW_GROUP: Final = 122_880
"""DuckDB's rows to a row group: a transaction's rows that fill one are written straight
into the file."""


def checkpoint_unmerged(con: duckdb.DuckDBPyConnection) -> None:
    """A checkpoint that leaves the row groups as the transactions wrote them, for a
    batch that filled row groups of its own (:data:`ROW_GROUP`).

    At a checkpoint DuckDB's vacuum merges neighbouring row groups that fit in fewer.
    That is what a store of small writes needs — a phone's line, a command, one upload:
    each transaction's rows become a row group of their own when written, and left
    unmerged a game recorded line by line made 194 row groups and a file of 52 MB,
    every query slower by each. But a batch of an ingest leaves full row groups and a
    part-full last one, and the vacuum at the checkpoint after the next batch (DuckDB
    2.0 vacuums tables with indexes too) merged the two batches' into fewer and wrote
    them all again: about a second of every batch of 245,760 events, a fifth of the
    ingest of 10,000 games. So such a batch is checkpointed without the vacuum, and the
    setting (the database's, not the connection's) is put back at once. The run merges
    what its batches left part full at its end (:func:`settle`). A DuckDB without the
    setting gets a plain checkpoint."""
    if "max_vacuum_tasks" not in settings():
        con.execute("CHECKPOINT")
        return
    con.execute("SET max_vacuum_tasks = 0")
    try:
        con.execute("CHECKPOINT")
    finally:
        con.execute("RESET max_vacuum_tasks")


SETTLE_ROUNDS: Final = 4
"""Most vacuuming checkpoints :func:`settle` makes (two sufficed after 10,000 games)."""
SETTLED_TABLES: Final = ("events", "cards_played", "round_players", "rounds")
"""The tables whose row groups a long ingest leaves part full: those it fills most."""


def settle(con: duckdb.DuckDBPyConnection) -> None:
    """Merge the part-full row groups :func:`checkpoint_unmerged` left, now rather than
    at the next write.

    DuckDB's vacuum merges them only at a checkpoint with something to write, and a few
    neighbours at a time: after 10,000 simulated games, ``cards_played`` went from 15
    row groups to 13 at one checkpoint and to 12 at the next (0.55 s and 0.18 s), and
    nothing after. Left alone, the first writes after the ingest paid that — a game
    uploaded during the tournament, or a phone's entry. So the end of a long ingest
    makes vacuuming checkpoints until one merges nothing, each given something to write
    by a row added to ``meta`` and taken away again (a row the store never reads; one
    left by a kill between the two is taken away by the next)."""
    before = _row_groups(con)
    for _ in range(SETTLE_ROUNDS):
        con.execute("DELETE FROM meta WHERE key = 'settling'")
        con.execute("INSERT INTO meta VALUES ('settling', '')")
        con.execute("DELETE FROM meta WHERE key = 'settling'")
        con.execute("CHECKPOINT")
        after = _row_groups(con)
        if after == before:
            return
        before = after


def _row_groups(con: duckdb.DuckDBPyConnection) -> list[int]:
    return [
        int(con.execute(f"SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('{table}')").fetchall()[0][0])
        for table in SETTLED_TABLES
    ]


STREAMING_MEMORY: Final = "128MB"
"""DuckDB's memory ceiling for a job that streams through the store (an ingest, a
rebuild, a verify): past the little such a job asks of DuckDB at once, DuckDB's memory
is a cache of blocks already read, which a lower ceiling costs it no time
(``benchmarks/memory.py``); the statistics' joins want more (at a million rounds, twice
as fast with 384MB)."""


ROOM_FROM: Final = 16 * 1024 * 1024
"""A file larger than this (any log is at most 16 MiB; a refused file up to the upload
limit is kept byte for byte too) gets DuckDB the memory to store it (:func:`room_for`)."""


def room_for(con: duckdb.DuckDBPyConnection, size: int) -> bool:
    """Let DuckDB hold a value of ``size`` bytes: its commit and checkpoint allocate a
    block of that size whole, twice over, which a streaming job's ceiling
    (:data:`STREAMING_MEMORY`) cannot hold for a file of 60 MiB ("could not allocate
    block of size 60.0 MiB"): the batch failed, and the write-ahead log it left failed
    every write after it. Whether the ceiling was raised (only for a file over
    :data:`ROOM_FROM`, and not under ``$SABOTEUR_DB_MEMORY``, the user's own)."""
    if size <= ROOM_FROM or os.environ.get("SABOTEUR_DB_MEMORY"):
        return False
    needed = 128 + 3 * -(-size // (1024 * 1024))  # MiB: the streaming ceiling, and three times the value
    con.execute(f"SET memory_limit = '{needed}MB'")
    return True


def streaming(con: duckdb.DuckDBPyConnection) -> None:
    """Lower DuckDB's memory ceiling to :data:`STREAMING_MEMORY` for a streaming job,
    unless ``$SABOTEUR_DB_MEMORY`` chose one."""
    if not os.environ.get("SABOTEUR_DB_MEMORY"):
        con.execute(f"SET memory_limit = '{STREAMING_MEMORY}'")


@contextmanager
def one_thread(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """DuckDB on one thread for a writer's job, and back to its default after.

    A writer's inserts and checkpoints gain nothing from DuckDB's threads beside the
    workers auditing the next files on the same cores, and each thread keeps memory of
    its own: ``saboteur ingest --workers 2`` of 10,000 games peaked at 663–727 MiB for
    its process tree with DuckDB's two threads here and at 641–646 MiB with one for the
    writer's jobs, a little faster (``docs/scale.md``). The setting is the database's:
    it is put back when the job ends, so the pages a server shows later read with every
    thread."""
    con.execute("SET threads = 1")
    try:
        yield
    finally:
        with contextlib.suppress(duckdb.Error):  # a connection the job's failure closed
            con.execute("RESET threads")


@contextmanager
def transaction(
    con: duckdb.DuckDBPyConnection, stats: IngestStats | None = None, wal: Path | None = None
) -> Iterator[None]:
    """One transaction: committed at the end of the block, rolled back if it raises.

    ``stats`` times the commit; given the store's write-ahead log (``wal``), a commit
    after which DuckDB left none is timed apart (:data:`CHECKPOINTED_COMMIT`). The
    timing is taken once the commit stands, and cannot fail it (``os.path.exists``
    says no for a file it cannot look at)."""
    con.execute("BEGIN")
    try:
        yield
        started = time.perf_counter()
        con.execute("COMMIT")
    except BaseException as error:
        # DuckDB may have ended the transaction itself (an interrupted query, one out of
        # memory): nothing of it stands, and the first error says why ("cannot rollback
        # - no transaction is active" said the store had failed)
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")
        if interrupted(error):
            raise KeyboardInterrupt from error
        raise
    if stats is not None:
        checkpointed = wal is not None and not os.path.exists(wal)
        stats.add(CHECKPOINTED_COMMIT if checkpointed else "commit", time.perf_counter() - started)


_CTRL_C: Final = threading.Event()
"""Set by the handler :func:`ctrl_c_noted` installs, when the user presses Ctrl-C."""


@contextmanager
def ctrl_c_noted() -> Iterator[None]:
    """While a command writes, note a Ctrl-C before Python raises its
    ``KeyboardInterrupt``, so that :func:`interrupted` knows whatever error DuckDB made
    of it, and so that no Ctrl-C is lost.

    Python swallows an exception raised while it runs an object's ``__del__`` (a Dask
    ``Future``'s, when the client lets one go), printing "Exception ignored in" and
    going on: an ``archive build`` so stopped ran to its end and said exit 0. Here the
    swallowed ``KeyboardInterrupt`` prints nothing, and is raised again in the main
    thread a moment later, out of the destructor (:func:`_ctrl_c_again`); a Ctrl-C
    noted whose ``KeyboardInterrupt`` never left the block is raised as it ends. (Only
    the main thread can set a handler; elsewhere nothing is noted.)"""
    _CTRL_C.clear()
    try:
        before = signal.signal(signal.SIGINT, _note_ctrl_c)
    except ValueError:  # not the main thread
        yield
        return
    hook = sys.unraisablehook
    sys.unraisablehook = _quiet_ctrl_c(hook)
    try:
        yield
        if _CTRL_C.is_set():
            raise KeyboardInterrupt
    finally:
        for timer in _AGAIN:
            timer.cancel()
        _AGAIN.clear()
        signal.signal(signal.SIGINT, before)
        sys.unraisablehook = hook
        _CTRL_C.clear()


def _note_ctrl_c(signum: int, frame: object) -> None:
    _CTRL_C.set()
    raise KeyboardInterrupt


def _quiet_ctrl_c(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """``hook``, but for the ``KeyboardInterrupt`` of a Ctrl-C noted: no traceback, and
    the Ctrl-C sent again."""

    def unraisable(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and _CTRL_C.is_set():
            _ctrl_c_again()
            return None
        return hook(unraisable)

    return unraisable


CTRL_C_AGAIN_SECONDS: Final = 0.01
"""How long after a destructor swallowed a Ctrl-C it is raised again: from another
thread, so that the main thread is out of the destructor (were it in another, that one
swallows it too, and it is sent again)."""
_AGAIN: Final[list[threading.Timer]] = []
"""The Ctrl-C sent again and not yet raised, cancelled as :func:`ctrl_c_noted` ends."""


def _ctrl_c_again() -> None:
    """Raise the Ctrl-C in the main thread again, as the signal does
    (:func:`_thread.interrupt_main`: the handler runs at its next instruction; a main
    thread that waits wakes within Dask's own poll, a tenth of a second)."""
    timer = threading.Timer(CTRL_C_AGAIN_SECONDS, _thread.interrupt_main)
    timer.daemon = True
    _AGAIN.append(timer)
    timer.start()


def interrupted(error: BaseException) -> bool:
    """Whether ``error`` is DuckDB's word for a Ctrl-C. A query running when the signal
    comes stops with ``InterruptException`` (from some calls, a ``RuntimeError`` saying
    "Query interrupted"; while it reads a Python object by name, a ``CatalogException``
    that the object does not exist), and Python's ``KeyboardInterrupt`` is spent on it:
    taken for a failure, it had a batch written again file by file, or a store reported
    broken ("cannot rollback - no transaction is active"), where the user had asked to
    stop. Under :func:`ctrl_c_noted`, any error after a Ctrl-C is one."""
    return (
        _CTRL_C.is_set()
        or isinstance(error, duckdb.InterruptException)
        or (isinstance(error, RuntimeError) and str(error) == "Query interrupted")
    )


CHECKPOINTED_COMMIT: Final = "commit + DuckDB's checkpoint"
"""The step of :class:`IngestStats` for a commit that DuckDB made a checkpoint of, with its
vacuum (its write-ahead log past ``checkpoint_threshold``): at the end of a long ingest it
merges the part-full row groups every batch left (:func:`checkpoint_unmerged`), which
took 3.9 s of a run of 10,000 games, where every other commit took 0.2 s."""
