"""A Dask preload for a local cluster's worker processes: Ctrl-C is the command's.

The terminal sends Ctrl-C to every process of the command, the workers of its local
cluster too: each printed a traceback of its own (four for one keypress) while the
command itself ended the run and closed its cluster. Loaded by each worker as it
starts (``LocalCluster(preload=[...])``), this has it ignore the signal; the command
hears it and stops them.
"""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    """Ignore Ctrl-C in this worker's process (a signal's handler is set from the main
    thread only, where a worker process runs its event loop)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
