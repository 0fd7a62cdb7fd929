"""How a process of the ledger gives memory back: large blocks returned to the system
when they are freed, not kept for later.

glibc serves a large allocation (128 KiB and up) with a mapping of its own and unmaps it
when it is freed, but it raises that threshold to the size of every such block freed, up
to 32 MiB: after a few chunks of events have come and gone, the next ones are carved
from the heap, and the heap keeps what they leave. An ingest allocates and frees
blocks of megabytes all the time (each chunk of events as Arrow, each batch of rows
from the workers, DuckDB's buffers for an insert) and its writer grew by some 50 MiB
that way (``benchmarks/memory.py``: 10,000 games, the process tree's peak from 704
to 654 MiB; four 16 MiB logs, from 571 to 522 MiB), for no time measured. Fixing the
threshold at its starting value keeps it from rising.
"""

from __future__ import annotations

import sys
from typing import Final

MMAP_THRESHOLD: Final = 256 * 2**10
"""Bytes from which an allocation gets a mapping of its own, returned to the system when
freed (glibc's ``M_MMAP_THRESHOLD``)."""
_M_MMAP_THRESHOLD: Final = -3
"""The ``mallopt`` parameter for it, from glibc's ``malloc.h``."""


def give_back_large_blocks() -> bool:
    """Fix glibc's threshold for large blocks at :data:`MMAP_THRESHOLD`, for this process
    and the workers it forks from now on. Whether it was set: nothing happens on a
    system without glibc (macOS, Windows, musl), whose allocators do not move the
    threshold this way."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # no mallopt: not glibc
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
