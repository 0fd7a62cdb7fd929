"""``saboteur audit`` on one core and on every core: how the audit scales.

    python benchmarks/audit.py [--games 1000] [--seed 1] [--archive DIR] [--repeat 3]

Takes the archive of :mod:`benchmarks.ingest` (written once, then reused) and audits it
as ``saboteur audit --workers N`` does (:func:`cli.main.audit_all`: the same pool, the
reports back in order), for N = 1 and N = every core, turn about, ``--repeat`` rounds;
the command's start-up (about a second of imports) is left out. It prints the best
throughput of each in events a second, every round's times, and the scaling from one
worker to all of them (goal ≥ 1.7× on two cores) of the best times and of the median
round. The baseline of the audit's single-core speed is ``benchmarks/replay.py``
(python-chess); this one only says what the pool adds.

The baseline of the scaling is the machine's own, for the same work: the files dealt
between N processes that each audit their share and send back nothing but a count,
timed in each round with the others. Two processes busy at once are each slower than one
alone on a machine whose cores share what they run on (a virtual machine's two cores
may be one core's two threads on the host), and a core's speed moves from one second to
the next: the pool's scaling is printed against that ceiling, round by round, as well as
against the goal. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.games import archive
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


def _share(job: tuple[list[Path], int, int]) -> int:
    """One process's share of the files (every ``step``-th from ``start``), audited;
    only their number sent back."""
    files, start, step = job
    return sum(1 for _ in audit_all(files[start::step], strict=False, workers=1))


def _dealt(files: list[Path], workers: int) -> float:
    """Seconds to audit ``files`` dealt between ``workers`` processes that share nothing:
    the ceiling of the pool's scaling on this machine, for this work."""
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        audited = sum(pool.map(_share, [(files, start, workers) for start in range(workers)], chunksize=1))
    seconds = time.perf_counter() - started
    if audited != len(files):
        raise SystemExit(f"{audited} audits for {len(files)} files")
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
    rounds: list[dict[str, float]] = []
    for _ in range(args.repeat):  # turn about, so each round's times share the machine's mood
        times = {f"{workers} worker(s)": _audit(files, workers) for workers in sorted({1, cores})}
        if cores > 1:
            times["dealt"] = _dealt(files, cores)
        rounds.append(times)
    console.print(f"archive {folder}: {args.games:,} games, {events:,} events; {cores} cores; {args.repeat} rounds")
    best = {name: min(r[name] for r in rounds) for name in rounds[0]}
    for workers in sorted({1, cores}):
        seconds = best[f"{workers} worker(s)"]
        console.print(f"audit on {workers} worker(s), best: {seconds:.2f} s = {events / seconds:,.0f} events/s")
    if cores > 1:
        one, many = "1 worker(s)", f"{cores} worker(s)"
        console.print(f"the files dealt between {cores} processes sharing nothing, best: {best['dealt']:.2f} s")
        for number, r in enumerate(rounds, start=1):
            console.print(
                f"  round {number}: 1 worker {r[one]:.2f} s, {cores} workers {r[many]:.2f} s, "
                f"dealt {r['dealt']:.2f} s: scaling {r[one] / r[many]:.2f}×, "
                f"the machine's own {r[one] / r['dealt']:.2f}×"
            )
        scaling = best[one] / best[many]
        middle = statistics.median(r[one] / r[many] for r in rounds)
        ceiling = statistics.median(r[one] / r["dealt"] for r in rounds)
        console.print(
            f"scaling 1 → {cores} workers: {scaling:.2f}× of the best times, {middle:.2f}× the median round "
            f"(goal ≥ 1.7×); the machine's own for this work, the median round: {ceiling:.2f}×, "
            f"so the pool reaches {middle / ceiling:.0%} of it"
        )


if __name__ == "__main__":
    main()
