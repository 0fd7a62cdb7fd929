"""Ingest benchmark: a seeded archive into a fresh store, against DuckDB's own load.

    python benchmarks/ingest.py [--games 1000] [--seed 1] [--archive DIR] [--workers 1,2]

Writes (once, then reuses) an archive of simulated games — every ruleset and table
size, about 250 events each, so 1,000 games are about 250,000 events — and then, in
the same run, into fresh files in the same folder:

- the baseline: DuckDB's ``read_ndjson_objects('…/**/*.jsonl', filename=true)`` into a
  table (``CREATE TABLE AS``) — each line's JSON stored with its file's name, the job
  the store does before its own work, done the fastest way DuckDB knows (all cores);
  timed before and after the ingests, the faster time kept;
- a second, weaker baseline, labelled: ``read_json(union_by_name=true,
  sample_size=-1)``, which spends its time inferring one schema across the files;
- the ingest (:func:`ingest.pipeline.ingest`, what ``saboteur ingest`` runs: a pool of
  workers auditing, one writer storing) in a child process per worker count, timed,
  with the peak resident memory of its process tree sampled from /proc (and the
  largest single process, from ``getrusage`` of the children), and where its time
  went (:class:`ingest.stats.IngestStats`; the workers' audit split into parsing,
  checking replay and projection by timing a sample of the files each way here), with
  its processor time and the cores that kept busy on average;
- the ceiling: every row the ingest stored (its events with their hashes, the uploads
  with their bytes, the read models), read back into Arrow and inserted by DuckDB
  into a new store in one transaction, checkpointed — no Python per row; and that
  beside the bare audit of every line (parsing and the checking replay, timed on a
  sample) shared on every core. No ingest that keeps these guarantees can be faster
  than either, so they bound the ratio any work on the ingest can reach.

- the floor: ``saboteur audit --workers N`` of the same files, as a command (its
  start-up included, as the ingest's is), plus DuckDB storing the same lines (the
  baseline above).

It prints each throughput with both ratios to the baselines, the ingest against its
floor (goal: at most 1.5× with two workers at 10,000 games), the ceilings' ratios, the
scaling from one worker to two (goal ≥ 1.7×) with the most the writer lets it reach
(the start-up and the writer's processor time are not shared by more workers), and the
peak memory of the process tree (goal: under 512 MiB). Run on demand, never in the
tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.games import archive
from events.logfile import LogLine


def _child(folder: Path, db: Path, workers: int, timings: Path) -> None:
    """The ingest itself, in this (child) process: its timings as JSON into ``timings``."""
    from ingest.pipeline import WRITER, ingest
    from ingest.stats import IngestStats
    from ingest.store import Store

    stats = IngestStats()
    started = time.perf_counter()
    own = resource.getrusage(resource.RUSAGE_SELF)
    results = ingest([folder], Store(db), workers=workers, stats=stats)
    wall = time.perf_counter() - started
    mine, pool = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    with duckdb.connect(str(db), read_only=True) as con:
        stored = int(con.execute("SELECT count(*) FROM events").fetchone()[0])  # type: ignore[index]
    timings.write_text(
        json.dumps(
            {
                "wall": wall,
                "files": len(results),
                "stored": stored,
                "workers": stats.workers,
                "writer": WRITER,
                "cpu": {
                    "writer": mine.ru_utime + mine.ru_stime - own.ru_utime - own.ru_stime,
                    "workers": pool.ru_utime + pool.ru_stime,
                },
                **stats.seconds,
            }
        )
    )


def _ingest(folder: Path, db: Path, workers: int) -> tuple[float, dict[str, Any], int, int]:
    """One ingest in a child process: seconds, its timings, the peak memory of its
    process tree (sampled every 0.1 s) and of its largest process (getrusage), in bytes."""
    from benchmarks.proctree import measure

    timings = db.with_suffix(".json")
    command = [sys.executable, __file__, "--child", str(folder), str(db), str(workers), str(timings)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    peak = measure(command, env=env, every=0.1)
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return peak.seconds, json.loads(timings.read_text()), peak.rss, largest


def _audit_command(folder: Path, workers: int) -> float:
    """Seconds ``saboteur audit --workers N`` takes over the archive, as a command (its
    start-up included, as the ingest's is): the audit half of the ingest's floor."""
    command = [sys.executable, "-m", "cli.main", "audit", str(folder), "--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode > 1:  # 1 is a verdict: findings
        raise RuntimeError(f"saboteur audit failed: {done.stderr.decode(errors='replace')[-2000:]}")
    return time.perf_counter() - started


def _baseline(folder: Path, db: Path, sql: str) -> tuple[float, int]:
    """Seconds to load the archive's lines into a table with ``sql``, and the rows."""
    started = time.perf_counter()
    with duckdb.connect(str(db)) as con:
        con.execute(sql, [str(folder / "**" / "*.jsonl")])
        rows = int(con.execute("SELECT count(*) FROM raw").fetchone()[0])  # type: ignore[index]
    return time.perf_counter() - started, rows


STRONGEST = "CREATE TABLE raw AS SELECT * FROM read_ndjson_objects(?, filename = true)"
INFERRING = "format = 'newline_delimited', union_by_name = true, sample_size = -1"
SCHEMA_INFERRED = f"CREATE TABLE raw AS SELECT * FROM read_json(?, {INFERRING})"


def _ceiling(stored: Path, scratch: Path, rounds: int = 2) -> tuple[float, float]:
    """DuckDB alone storing what an ingest stored: every row of the store at ``stored``
    (but its two bookkeeping tables, which a new store already has), read into Arrow,
    inserted by name into a new store's tables in one transaction, committed,
    checkpointed and closed — no Python per row. Wall and processor seconds of this
    process, the best of ``rounds``: no ingest that stores these rows, with their
    hashes, raw bytes and read models, writes them faster than this."""
    from ingest.store import Store

    with duckdb.connect(str(stored), read_only=True) as con:
        names = [str(name) for (name,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        tables = {name: con.sql(f"SELECT * FROM {name}").to_arrow_table() for name in names if name not in BOOKKEEPING}
    best = (float("inf"), float("inf"))
    for round_ in range(rounds):
        path = scratch / f"ceiling-{round_}.duckdb"
        with Store(path).connect():  # the store's tables, created as an ingest finds them
            pass
        wall, cpu = time.perf_counter(), time.process_time()
        with duckdb.connect(str(path)) as con:
            con.execute("BEGIN")
            for name, rows in tables.items():
                if rows.num_rows:
                    con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM rows")
            con.execute("COMMIT")
            con.execute("CHECKPOINT")
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
        path.unlink()
    return best


BOOKKEEPING = frozenset({"meta", "projection"})
"""The tables a new store is created with rows in (its schema version, its read models'
position): not rows an ingest adds."""


def _audit_split(folder: Path, sample: int = 100, rounds: int = 3) -> tuple[dict[str, float], float]:
    """The workers' audit split by share: parsing the lines, the checking replay, the
    projection into rows (and the rest: reading and hashing the file, the report), from
    a sample of files audited each way in this process; and the bare audit's seconds a
    line on one core (parsing and the checking replay, nothing else: what no ingest can
    skip)."""
    from events.audit import Auditor
    from events.logfile import parse_data, parse_structs_block
    from events.visitor import walk
    from ingest.projection import project_log
    from ingest.sources import prepare

    files = sorted(folder.rglob("*.jsonl"))[:sample]
    raws = [(str(path), path.read_bytes()) for path in files]

    def lines(raw: bytes) -> Iterator[LogLine]:  # as the ingest reads them: Structs
        return parse_data(raw, parse_structs_block)

    jobs: dict[str, Callable[[str, bytes], object]] = {
        "parse": lambda name, raw: sum(1 for _ in lines(raw)),
        "audit": lambda name, raw: walk(lines(raw), Auditor(name)),
        "project": lambda name, raw: project_log(lines(raw), name=name, upload_id=0),
        "whole": lambda name, raw: prepare(Path(name)),
    }
    # Each file is taken through the four jobs one after another, three times over: a
    # core's speed here moves from one second to the next, and timed one job after
    # the other the shares once added up to more than the whole (-12% for the rest).
    spent = dict.fromkeys(jobs, 0.0)
    for _ in range(rounds):
        for name, raw in raws:
            for job, run in jobs.items():
                started = time.perf_counter()
                run(name, raw)
                spent[job] += time.perf_counter() - started
    parse, audit, project = spent["parse"], spent["audit"], spent["project"]
    whole = max(spent["whole"], project)  # each job holds the one before
    sampled = sum(raw.count(b"\n") for _, raw in raws)
    shares = {
        "parsing lines": parse / whole,
        "checking replay": max(audit - parse, 0) / whole,
        "projection into rows": max(project - audit, 0) / whole,
    }
    return shares, audit / rounds / max(sampled, 1)


def _where(console: Console, timings: dict[str, Any], wall: float, split: dict[str, float]) -> None:
    """Where an ingest's time went: the writer's steps (in its process) and the
    workers' audit (summed over workers, split by share), and the processor time of
    each side (the writer is the run's one serial step) with the cores they kept busy
    on average (near all of them, only less processor time makes a run faster)."""
    writer_total = timings.pop(timings.pop("writer"))
    cpu = timings.pop("cpu")
    inline = timings["workers"] == 1  # one worker: the ingest's own process audits
    for key in ("wall", "files", "stored", "workers"):
        timings.pop(key)
    audit = timings.pop("audit (workers, summed)", 0.0)
    waiting = timings.pop("waiting for workers", 0.0)
    steps = sum(timings.values())
    # the writer's part holds its waits for the workers' files (with no pool, their audit)
    inside = audit if inline else waiting
    together = cpu["writer"] + cpu["workers"]
    cores = _cores()
    busy = together / wall
    full = "; every core near full: only less processor time makes it faster" if busy > 0.9 * cores else ""
    console.print(
        f"  processor time: writer {cpu['writer']:.2f} s, workers {cpu['workers']:.2f} s "
        f"(together {together:.2f} s in {wall:.2f} s wall: {busy:.2f} of {cores} cores busy on average{full})"
    )
    console.print(f"  writer process ({wall:.1f} s wall):")
    for step, seconds in sorted(timings.items(), key=lambda item: -item[1]):
        console.print(f"    {step:<32} {seconds:6.2f} s")
    console.print(f"    {'open + close (its checkpoint)':<32} {writer_total - steps - inside:6.2f} s")
    if inline:
        console.print(f"    {'audit (below)':<32} {audit:6.2f} s")
    else:
        console.print(f"    {'waiting for workers':<32} {waiting:6.2f} s")
    console.print(f"    {'other (collect, turns, pool)':<32} {wall - writer_total:6.2f} s")
    whose = "audit, in the writer" if inline else "workers' audit, summed"
    console.print(f"  {whose}: {audit:.2f} s")
    for step, share in split.items():
        console.print(f"    {step:<32} {audit * share:6.2f} s ({share:.0%})")
    rest = 1 - sum(split.values())
    console.print(f"    {'reading, hashing, report, other':<32} {audit * rest:6.2f} s ({rest:.0%})")


def _cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _ceilings(console: Console, baseline: float, wall: float, cpu: float, audit: float) -> None:
    """The most any ingest of these guarantees could reach on this machine: DuckDB
    storing what the ingest stores (:func:`_ceiling`), and that beside the bare audit
    of every line (parsing and the checking replay, on every core): the ingest's other
    steps — the projection, the chain's hashes, the decisions, the start-up — come on
    top of both."""
    cores = _cores()
    console.print(
        f"ceiling: DuckDB inserting every row the ingest stored (from Arrow, no Python; one transaction, "
        f"checkpointed): {wall:.2f} s wall, {cpu:.2f} s processor → ratio {baseline / wall:.3f} at most"
    )
    together = max(wall, (cpu + audit) / cores)
    console.print(
        f"  with the bare audit of every line ({audit:.2f} s on one core: parsing and the checking replay, "
        f"from the sample below) shared on {cores} cores: {together:.2f} s → ratio {baseline / together:.3f} at most"
    )


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        _child(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5]))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archive", type=Path, default=Path(tempfile.gettempdir()) / "saboteur-bench-archive")
    parser.add_argument("--workers", default=f"1,{os.cpu_count() or 1}", help="worker counts to run, e.g. 1,2")
    args = parser.parse_args()
    console = Console(soft_wrap=True, highlight=False)
    folder = args.archive / f"{args.games}-{args.seed}"
    events = archive(folder, args.games, args.seed, console)
    console.print(f"archive {folder}: {args.games:,} games, {events:,} events; {os.cpu_count()} cores")
    counts = sorted({int(n) for n in args.workers.split(",")})

    with tempfile.TemporaryDirectory(dir=args.archive) as scratch:
        fresh = iter(Path(scratch) / f"{n}.duckdb" for n in range(100))
        before, loaded = _baseline(folder, next(fresh), STRONGEST)
        stores = {n: next(fresh) for n in counts}
        runs = {n: _ingest(folder, stores[n], n) for n in counts}
        audits = {n: _audit_command(folder, n) for n in counts}
        after, _ = _baseline(folder, next(fresh), STRONGEST)
        inferred, _ = _baseline(folder, next(fresh), SCHEMA_INFERRED)
        store_wall, store_cpu = _ceiling(stores[max(counts)], Path(scratch))
    baseline = min(before, after)
    console.print(
        f"baseline read_ndjson_objects → table: {loaded:,} rows in {baseline:.2f} s = {loaded / baseline:,.0f} rows/s "
        f"(before the ingests {before:.2f} s, after {after:.2f} s)"
    )
    console.print(
        f"second baseline read_json(union_by_name, sample_size=-1): {inferred:.2f} s = {loaded / inferred:,.0f} rows/s"
    )
    split, audit_per_line = _audit_split(folder)
    _ceilings(console, baseline, store_wall, store_cpu, audit_per_line * events)
    unshared = {n: seconds - timings["wall"] + timings["cpu"]["writer"] for n, (seconds, timings, _, _) in runs.items()}
    for n, (seconds, timings, peak, largest) in runs.items():
        stored = int(timings["stored"])
        rate = stored / seconds
        floor = audits[n] + baseline
        console.print(
            f"saboteur ingest, {timings['workers']:g} worker(s): {stored:,} events stored in {seconds:.2f} s "
            f"= {rate:,.0f} events/s; "
            f"ratio to read_ndjson_objects {rate / (loaded / baseline):.3f}, "
            f"to read_json {rate / (loaded / inferred):.3f}; peak memory of the process tree "
            f"{peak / 2**20:,.0f} MiB (goal < 512), largest process {largest / 2**20:,.0f} MiB"
        )
        console.print(
            f"  against its floor: saboteur audit --workers {n} {audits[n]:.2f} s + DuckDB storing the lines "
            f"{baseline:.2f} s = {floor:.2f} s → {seconds / floor:.2f}× (goal ≤ 1.5×)"
        )
        _where(console, timings, timings["wall"], split)
    if len(runs) > 1:
        low, high = min(runs), max(runs)
        console.print(f"scaling {low} → {high} workers: {runs[low][0] / runs[high][0]:.2f}× (goal ≥ 1.7×)")
        console.print(
            f"  what more workers do not share, on {high}: the start-up and the writer's processor time, "
            f"{unshared[high]:.2f} s; with it the scaling is about {runs[low][0] / unshared[high]:.2f}× at most"
        )


if __name__ == "__main__":
    main()
