"""A local Dask cluster for the lake's tests, started whatever ``__main__`` is.

Dask starts its worker processes by ``spawn``, which runs the parent's ``__main__``
again in each child. Streamlit's ``AppTest`` (the dashboard's tests, earlier in the same
session) leaves a page script there, which a worker cannot run; a bare module stands
in for it while the workers start (``python -m pytest`` alone leaves pytest's, which
any child may run).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager

from distributed import LocalCluster


@contextmanager
def bare_main() -> Iterator[None]:
    """``__main__`` a module of nothing, for processes spawned meanwhile."""
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = saved


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[str]:
    """A scheduler and ``workers`` worker processes on loopback; the scheduler's address."""
    with (
        bare_main(),
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as c,
    ):
        yield str(c.scheduler_address)
