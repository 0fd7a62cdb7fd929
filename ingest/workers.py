"""The processes a run audits its files in: how many, and the pool itself.

Kept apart from :mod:`ingest.pipeline` so that ``saboteur audit``, which needs a pool
and nothing of the store, imports none of DuckDB, Polars or pyarrow.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor


SHARE_BYTES: Final = 2 * 2**20
"""The bytes of files on disk that pay for a worker of their own when ``--workers`` is
not given. A pool costs its start (a fork, the workers' first task, their results sent
back) and gains only once the audit is longer: ``saboteur ingest`` of 6 simulated games
(184 KB) or 42 (1.2 MB) took as long or longer with two workers as with none, of 162
(4.7 MB) 0.1–0.2 s less. On a busy machine the pool's workers, which yield the
processor (:data:`WORKER_NICENESS`), made a small run wait seconds for them."""


def workers_for(files: int, workers: int | None = None, size: int | None = None) -> int:
    """The processes that audit ``files`` files of ``size`` bytes on disk: ``workers``
    if given, else one per core this process may run on and at most one per
    :data:`SHARE_BYTES` of ``size``; never more than the files (one file, or one worker,
    is audited in this process)."""
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        if size is not None:
            workers = min(workers, -(-size // SHARE_BYTES))
    return max(1, min(workers, files))


def size_of(paths: Iterable[Path]) -> int:
    """The bytes ``paths`` hold on disk (a file that cannot be read counts for nothing:
    the audit says why it cannot be read)."""
    total = 0
    for path in paths:
        with suppress(OSError):
            total += path.stat().st_size
    return total


@contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    """A run's pool of ``workers`` processes (``None`` for one: the run's own process
    does the work), each dying with the process that started it and yielding the
    processor to it (:func:`_start_worker`)."""
    if workers <= 1:
        yield None
        return
    from concurrent.futures import ProcessPoolExecutor  # a run on one core needs no pool

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)  # Ctrl-C or a failure: the files not begun stay so
        raise
    pool.shutdown(wait=True)


WORKER_NICENESS: Final = 10
"""How much a worker yields the processor to the writer (``nice``). The writer is the
run's one serial step, and as much work as the workers together: shared evenly, three
processes on two cores, it fell behind while they audited and wrote on alone after they
had finished (1,000 games on 2 cores: 6.7 s on average over four runs, 6.2 s over five
with the workers at niceness 5 or 10)."""


def _start_worker() -> None:
    """A worker's start: it dies with the ingest, yields the processor to it, and leaves
    Ctrl-C to it. The terminal sends the signal to every process of the command: a
    worker that took it died mid-task with a traceback of its own, and the ingest could
    wait for it for ever; now the ingest stops the run, and its workers with it."""
    _die_with_parent()
    with suppress(ValueError):  # not the main thread: no signal handlers there
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    with suppress(OSError, AttributeError):  # no nice(): not a Unix
        os.nice(WORKER_NICENESS)


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the ingest that started it dies (a kill -9
    of the ingest must not leave its pool behind); elsewhere nothing happens."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the call above
            os._exit(1)
    except (OSError, AttributeError):
        pass
