"""Memory of a process tree, read from /proc: what a benchmark of a job with worker
processes must count (the workers hold memory too), and a command run while its tree's
memory is sampled (``ingest.py`` and ``memory.py`` both measure so)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass


def tree_memory(root: int) -> tuple[int, int]:
    """Resident bytes (RSS, and PSS) of a process and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    rss = pss = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1]) * 1024
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1]) * 1024
        except OSError:
            continue
    return rss, pss


@dataclass(frozen=True)
class Peak:
    """What one command took at its peak, and how long it ran."""

    rss: int
    pss: int
    seconds: float


def measure(command: list[str], *, env: dict[str, str] | None = None, every: float = 0.02) -> Peak:
    """Run ``command``, sampling its process tree's memory ``every`` seconds (a sample
    costs some 2 ms of a core); fails loudly when it exits with a status above 1 (1 is
    a verdict: findings, a rejection)."""
    rss = pss = 0
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    done = threading.Event()

    def sample() -> None:
        nonlocal rss, pss
        while not done.is_set():
            now_rss, now_pss = tree_memory(process.pid)
            rss, pss = max(rss, now_rss), max(pss, now_pss)
            time.sleep(every)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, errors = process.communicate()
    seconds = time.perf_counter() - started  # not the sampler's last sleep
    done.set()
    sampler.join()
    if process.returncode > 1:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}:\n{errors.decode(errors='replace')}")
    return Peak(rss, pss, seconds)
