"""Ingest benchmark: a seeded archive into a fresh store, against DuckDB's own load.

    python benchmarks/ingest.py [--games 10000] [--seed 1] [--archive DIR]

Writes (once, then reuses) an archive of simulated games — every ruleset and table
size, about 300 events each, so 10,000 games are about 3 million events — and then, in
the same run:

- ``saboteur ingest ARCHIVE --db fresh.duckdb`` as a subprocess (the real command: a
  process pool auditing, one writer storing), timed, with the peak resident memory of
  its whole process tree sampled from /proc;
- DuckDB's ``read_json`` of the same files into a table, timed.

It prints both throughputs (events/s), their ratio (goal: ingest ≥ 1/10 of DuckDB's
raw load) and the peak memory (goal: under 1 GiB). Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing import Pool
from pathlib import Path

import duckdb
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.proctree import tree_memory
from events.logfile import write_log
from events.simulate.game import quick_game

TABLES = [("tournament", n) for n in range(5, 11)] + [("base", n) for n in range(3, 11)]


def _write_game(job: tuple[Path, int, int]) -> int:
    folder, index, seed = job
    ruleset, players = TABLES[index % len(TABLES)]
    events = quick_game(players, ruleset, 3, seed * 1_000_003 + index)
    path = folder / f"{index // 1000:03d}" / f"game-{index:06d}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_log(events, path)
    return len(events)


def archive(folder: Path, games: int, seed: int, console: Console) -> int:
    """The archive's number of events, writing whatever games are missing."""
    marker = folder / f"complete-{games}-{seed}"
    if marker.exists():
        return int(marker.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with Pool(os.cpu_count() or 1) as pool:
        counts = pool.map(_write_game, [(folder, i, seed) for i in range(games)], chunksize=50)
    total = sum(counts)
    marker.write_text(str(total))
    console.print(f"archive: {games} games, {total:,} events written in {time.perf_counter() - started:.0f} s")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archive", type=Path, default=Path(tempfile.gettempdir()) / "saboteur-bench-archive")
    args = parser.parse_args()
    console = Console()
    folder = args.archive / f"{args.games}-{args.seed}"
    events = archive(folder, args.games, args.seed, console)
    files = args.games
    console.print(f"archive {folder}: {files:,} games, {events:,} events")

    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "fresh.duckdb"
        command = [str(Path(sys.executable).with_name("saboteur")), "ingest", str(folder), "--db", str(db)]
        peak = 0
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, tree_memory(process.pid)[0])
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = process.wait()
        done.set()
        sampler.join()
        ours = time.perf_counter() - started
        if code != 0:
            console.print(process.stderr.read().decode() if process.stderr else "")
            raise SystemExit(f"ingest exited {code}")
        with duckdb.connect(str(db), read_only=True) as con:
            stored = con.execute("SELECT count(*) FROM events").fetchone()[0]  # type: ignore[index]

        raw_db = Path(scratch) / "raw.duckdb"
        started = time.perf_counter()
        with duckdb.connect(str(raw_db)) as con:
            con.execute(
                "CREATE TABLE raw AS SELECT * FROM read_json(?, format = 'newline_delimited', "
                "union_by_name = true, sample_size = -1)",
                [str(folder / "*" / "*.jsonl")],
            )
            loaded = con.execute("SELECT count(*) FROM raw").fetchone()[0]  # type: ignore[index]
        theirs = time.perf_counter() - started

    console.print(
        f"saboteur ingest : {files:,} files, {stored:,} events stored in {ours:.1f} s "
        f"= {stored / ours:,.0f} events/s; peak memory {peak / 2**20:,.0f} MiB (goal < 1024)"
    )
    console.print(f"duckdb read_json: {loaded:,} rows in {theirs:.1f} s = {loaded / theirs:,.0f} rows/s")
    console.print(f"ratio ingest / read_json = {(stored / ours) / (loaded / theirs):.3f} (goal ≥ 0.100)")


if __name__ == "__main__":
    main()
