"""``saboteur audit`` on one core and on every core: how the audit scales.

    python benchmarks/audit.py [--games 1000] [--seed 1] [--archive DIR] [--repeat 3]

Takes the archive of :mod:`benchmarks.ingest` (written once, then reused) and runs
``saboteur audit --json --workers N`` on it as a user would, for N = 1 and N = every
core, turn about, keeping each one's best time. It prints each throughput in events a
second and the scaling from one worker to all of them (goal ≥ 1.7× on two cores). The
baseline of the audit's single-core speed is ``benchmarks/replay.py`` (python-chess);
this one only says what the pool adds. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ingest import archive


def _audit(folder: Path, workers: int) -> float:
    """Seconds for ``saboteur audit --json --workers N`` over the archive, the whole
    command (its start-up, the pool's, every report written)."""
    command = [sys.executable, "-m", "cli.main", "audit", "--json", "--workers", str(workers), str(folder)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1) or f"on {workers} core" not in done.stderr:
        raise SystemExit(f"saboteur audit --workers {workers} failed ({done.returncode}): {done.stderr[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archive", type=Path, default=Path(tempfile.gettempdir()) / "saboteur-bench-archive")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    console = Console(highlight=False)
    folder = args.archive / f"{args.games}-{args.seed}"
    events = archive(folder, args.games, args.seed, console)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    best: dict[int, float] = {}
    for _ in range(args.repeat):
        for workers in sorted({1, cores}):
            best[workers] = min(best.get(workers, float("inf")), _audit(folder, workers))
    console.print(f"archive {folder}: {args.games:,} games, {events:,} events; {cores} cores; best of {args.repeat}")
    for workers, seconds in best.items():
        console.print(f"saboteur audit --workers {workers}: {seconds:.2f} s = {events / seconds:,.0f} events/s")
    if cores > 1:
        console.print(f"scaling 1 → {cores} workers: {best[1] / best[cores]:.2f}× (goal ≥ 1.7×)")


if __name__ == "__main__":
    main()
