"""Planning benchmark (issue 34, last point): the client's memory while ``saboteur
archive build`` plans, the list-based plan against the plan in pieces, in the same run.

    python benchmarks/lake_plan.py [--files 1000000] [--batch-files 64] [--tree 0] [--scratch DIR]

- ``--files`` made-up names of a bucket (``s3://…/day-NNNN/table-NN/game-….jsonl``, sizes
  of simulated games), planned as the build did before — the listing a list, every
  batch made at once — and as it does now: :func:`~ingest.lake.build.cut` reading the
  listing once, then :meth:`~ingest.lake.build.Cuts.batches` reading it again, a batch
  at a time (the build takes a few ahead of its writes: a constant);
- with ``--tree N``, a folder of ``N`` empty logs (made once in ``--scratch``, then
  reused), listed and planned both ways: the old listing by
  :func:`ingest.pipeline.collect` (its paths held, then sorted), the new walking the
  tree a directory at a time.

Each is run twice: once timed, once under :mod:`tracemalloc` for the peak of what
Python allocates (slower: its time is not the figure). The goal: the plan in pieces
holds a few bytes a batch (24), not a few hundred a file, whatever the listing's
length. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.lake.build import cut, listing
from ingest.pipeline import SUFFIXES, collect
from tests.ingest.test_lake_plan import listed_plan  # the list-based plan as it was: the baseline

AT = datetime(2026, 1, 1, tzinfo=UTC)


def names(count: int) -> Iterator[tuple[str, int]]:
    """``count`` made-up files of a bucket with the sizes of simulated games."""
    for i in range(count):
        yield f"s3://saboteur-archive/logs/day-{i // 5_000:04}/table-{i % 97:02}/game-{i:09}.jsonl", 20_000 + i % 40_000


def listed(folder: Path) -> list[tuple[str, int]]:
    """The listing of a folder as it was before: ``collect``'s paths, then each one's size."""
    found = [(str(path), path.stat().st_size) for path in collect([folder])]
    return [(name, size) for name, size in found if name.lower().endswith(SUFFIXES)]


def in_pieces(files: Callable[[], Iterable[tuple[str, int]]], batch_files: int) -> int:
    """The plan as ``archive build`` makes it now; how many files its batches hold."""
    cuts = cut(files(), batch_files)
    return sum(batch.size for batch in cuts.batches(files(), AT, {}))


def measured(work: Callable[[], int]) -> tuple[int, float, int]:
    """What ``work`` returns, its seconds, and the peak of Python's allocations meanwhile
    (a second run, traced)."""
    started = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - started
    tracemalloc.start()
    try:
        assert work() == result
        return result, seconds, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def tree(scratch: Path, count: int, console: Console) -> Path:
    """A folder of ``count`` empty logs, a hundred folders of them; kept for the next run."""
    root = scratch / f"tree-{count}"
    done = root.with_suffix(".complete")
    if done.exists():
        return root
    for index in range(count):
        folder = root / f"day-{index % 100:03}"
        if index < 100:
            folder.mkdir(parents=True, exist_ok=True)
        (folder / f"game-{index:09}.jsonl").touch()
    done.touch()
    console.print(f"tree {root}: {count:,} empty logs")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=1_000_000, help="made-up files to plan")
    parser.add_argument("--batch-files", type=int, default=64)
    parser.add_argument("--tree", type=int, default=0, help="files of a real folder to list and plan (0: none)")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "saboteur-bench-plan")
    args = parser.parse_args()
    console = Console()
    count, batch_files = args.files, args.batch_files
    runs: list[tuple[str, int, Callable[[], int], Callable[[], int]]] = [
        (
            f"{count:,} made-up names",
            count,
            lambda: sum(b.size for b in listed_plan(list(names(count)), AT, batch_files)),
            lambda: in_pieces(lambda: names(count), batch_files),
        )
    ]
    if args.tree:
        folder = tree(args.scratch, args.tree, console)
        runs.append(
            (
                f"a folder of {args.tree:,} logs",
                args.tree,
                lambda: sum(b.size for b in listed_plan(listed(folder), AT, batch_files)),
                lambda: in_pieces(lambda: listing([str(folder)]), batch_files),
            )
        )
    table = Table(title=f"the client's peak memory (tracemalloc) while it plans, {batch_files} files a batch")
    for column in ("listing", "plan", "peak MiB", "bytes a file", "seconds", "× less"):
        table.add_column(column, justify="left" if column in ("listing", "plan") else "right")
    for label, files, old, new in runs:
        old_files, old_seconds, old_peak = measured(old)
        new_files, new_seconds, new_peak = measured(new)
        assert old_files == new_files == files, (old_files, new_files, files)
        table.add_row(
            label,
            "list (before)",
            f"{old_peak / 2**20:,.1f}",
            f"{old_peak / files:,.1f}",
            f"{old_seconds:.1f}",
            "1",
        )
        table.add_row(
            label,
            "in pieces",
            f"{new_peak / 2**20:,.2f}",
            f"{new_peak / files:,.2f}",
            f"{new_seconds:.1f}",
            f"{old_peak / new_peak:,.0f}",
        )
    console.print(table)
    console.print(
        "in pieces, the listing is read twice (each batch's key computed twice): the seconds say what that costs"
    )


if __name__ == "__main__":
    main()
