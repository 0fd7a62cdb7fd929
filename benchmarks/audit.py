"""``saboteur audit`` on one core and on every core: how the audit scales.

    python benchmarks/audit.py [--games 1000] [--seed 1] [--archive DIR] [--repeat 3]

Takes the archive of :mod:`benchmarks.ingest` (written once, then reused) and audits it
as ``saboteur audit --workers N`` does (:func:`cli.main.audit_all`: the same pool, the
reports back in order), for N = 1 and N = every core, turn about, keeping each one's
best time; the command's start-up (about a second of imports) is left out. It prints each throughput in events a
second and the scaling from one worker to all of them (goal ≥ 1.7× on two cores). The
baseline of the audit's single-core speed is ``benchmarks/replay.py`` (python-chess);
this one only says what the pool adds. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ingest import archive
from cli.main import audit_all
from events.audit import log_files


def _audit(files: list[Path], workers: int) -> float:
    """Seconds to audit ``files`` on ``workers`` processes, every report back."""
    started = time.perf_counter()
    reports = sum(1 for _ in audit_all(files, strict=False, workers=workers))
    seconds = time.perf_counter() - started
    if reports != len(files):
        raise SystemExit(f"{reports} reports for {len(files)} files")
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
    files = list(log_files([folder]))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    best: dict[int, float] = {}
    for _ in range(args.repeat):
        for workers in sorted({1, cores}):
            best[workers] = min(best.get(workers, float("inf")), _audit(files, workers))
    console.print(f"archive {folder}: {args.games:,} games, {events:,} events; {cores} cores; best of {args.repeat}")
    for workers, seconds in best.items():
        console.print(f"audit on {workers} worker(s): {seconds:.2f} s = {events / seconds:,.0f} events/s")
    if cores > 1:
        console.print(f"scaling 1 → {cores} workers: {best[1] / best[cores]:.2f}× (goal ≥ 1.7×)")


if __name__ == "__main__":
    main()
