"""Where an ingest's time goes: seconds by step, for ``benchmarks/ingest.py``.

An ingest given an :class:`IngestStats` adds up the time of each step of its run — the
workers' audits (summed over workers), the writer's wait for them, its decisions, the
chain (events made and hashed), each table's writes and the commit — timed a batch (or
a file) at a time, so the timing costs nothing beside the work. Given none, nothing is
timed: :func:`lap` is then a context that does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class IngestStats:
    """Seconds by step of one ingest run, and how many workers it used."""

    seconds: dict[str, float] = field(default_factory=dict)
    workers: int = 0
    """The processes that audited the files (1: the ingest's own)."""

    def add(self, step: str, seconds: float) -> None:
        self.seconds[step] = self.seconds.get(step, 0.0) + seconds


@contextmanager
def lap(stats: IngestStats | None, step: str) -> Iterator[None]:
    """Time the block as ``step`` of ``stats`` (nothing when ``stats`` is ``None``)."""
    if stats is None:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        stats.add(step, time.perf_counter() - started)
