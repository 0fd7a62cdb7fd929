"""Memory benchmark: peak resident memory of audit, ingest and verify, against DuckDB's
own load of the same log.

    python benchmarks/memory.py [--events 10000000] [--scratch DIR] [--workers N]

Builds (once, then reuses from ``--scratch``) a 16 MiB log of draw lines — a valid
``game_started`` and ``round_started``, then one short line after another, each a
finding: the most lines, and the most findings, a log can hold — and a store of
``--events`` events (simulated games, copied under new game ids and stored by
``saboteur ingest`` itself, so the store is what the product makes). Then, in the same
run, each command as a subprocess with the peak resident memory of its whole process
tree (the ingest's pool of workers included) sampled from ``/proc``:

- ``saboteur audit LOG``, ``saboteur ingest LOG`` into a fresh store, ``saboteur
  ingest`` of four such logs (the pool at work; and with ``--workers 8``, more workers
  than the files in flight can keep busy), ``saboteur verify`` and ``saboteur rebuild``
  of the store the log went into;
- ``saboteur ingest`` of a score sheet at its 4 MiB limit, of the shortest rows (the
  most rows a sheet can hold, each a player's round: it is read whole);
- ``saboteur verify`` of the store of ``--events`` events;
- ``saboteur archive build`` of the four logs into a new lake (a local Dask cluster of
  two workers, the scheduler and the workers in the tree), and of the simulated games
  the store is made of;
- DuckDB's ``read_ndjson_objects`` of the same log into a table: the baseline.

RSS adds up each process's resident pages; PSS shares the pages processes share (the
workers are forked from the ingest) among them, so it is what the tree really holds.
The goal: RSS under 512 MiB for every command. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

import duckdb
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.games import archive
from benchmarks.proctree import measure
from events.builder import LogBuilder
from events.logfile import MAX_FILE_BYTES
from ingest.limits import MAX_SHEET_BYTES

GOAL: Final = 512 * 2**20
BASE_GAMES: Final = 2_000
"""Simulated games written once; the store is made of copies of them."""


def draw_log(path: Path, game_id: str = "bench:memory") -> int:
    """A log of at most 16 MiB: a game and a round dealt, then draw lines to the limit.
    Returns its number of lines."""
    log = LogBuilder(players=3, ruleset="base", game_id=game_id).deal(start="ann")
    head = "".join(line + "\n" for line in log.lines).encode()
    draw = b'{"type":"draw","player":"ann","card":"map"}\n'
    count = (MAX_FILE_BYTES - len(head)) // len(draw)
    path.write_bytes(head + draw * count)
    return len(log.lines) + count


def score_sheet(path: Path) -> int:
    """A score sheet of at most :data:`~ingest.limits.MAX_SHEET_BYTES`: the example
    sheet's game (six players, three rounds) again and again, each under a short id of
    its own and its players by one letter, no tournament or table. Returns its rows."""
    example = (Path(__file__).resolve().parent.parent / "examples" / "score-sheet.csv").read_text().splitlines()
    rows = [line.split(",") for line in example[1:] if line.strip()]
    header = example[0] + "\n"
    games, size, count = [], len(header), 0
    while True:
        game = "".join(f",,,{count:x},{row[4]},{row[5][0]},{row[6]},{row[7]},{row[8]}\n" for row in rows)
        if size + len(game) > MAX_SHEET_BYTES:
            break
        games.append(game)
        size += len(game)
        count += 1
    path.write_text(header + "".join(games), newline="")
    return count * len(rows)


def events_in(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        return int(con.execute("SELECT count(*) FROM events").fetchall()[0][0])


def big_store(scratch: Path, events: int, console: Console) -> Path:
    """A store of at least ``events`` events, made by ingesting copies of simulated
    games (each copy under new game ids); kept in ``scratch`` for the next run."""
    db = scratch / f"store-{events}.duckdb"
    done = db.with_suffix(".complete")
    if done.exists():
        return db
    db.unlink(missing_ok=True)
    base = scratch / "games"
    archive(base, BASE_GAMES, 1, console)
    games = sorted(base.rglob("*.jsonl"))
    stored, copy = 0, 0
    started = time.perf_counter()
    while stored < events:
        folder = scratch / f"copy-{copy}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for game in games:
            text = game.read_text(encoding="utf-8")
            (folder / game.name).write_text(text.replace('"game_id":"', f'"game_id":"c{copy}:', 1), encoding="utf-8")
        measure(_saboteur("ingest", str(folder), "--db", str(db)))
        shutil.rmtree(folder)
        stored = events_in(db)
        copy += 1
        console.print(f"store: {stored:,} events ({time.perf_counter() - started:.0f} s)")
    done.write_text(str(stored))
    return db


def _saboteur(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def _duckdb_load(log: Path, db: Path) -> list[str]:
    script = (
        "import duckdb, sys\n"
        "with duckdb.connect(sys.argv[2]) as con:\n"
        "    con.execute('CREATE TABLE raw AS SELECT * FROM read_ndjson_objects(?)', [sys.argv[1]])\n"
    )
    return [sys.executable, "-c", script, str(log), str(db)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000_000, help="events in the large store")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "saboteur-bench-memory")
    parser.add_argument("--workers", type=int, default=None, help="the ingest's --workers (default: one per core)")
    args = parser.parse_args()
    console = Console()
    scratch: Path = args.scratch
    scratch.mkdir(parents=True, exist_ok=True)
    logs = scratch / "logs"
    logs.mkdir(exist_ok=True)
    log = logs / "draws.jsonl"
    lines = draw_log(log)
    four = scratch / "four"
    four.mkdir(exist_ok=True)
    for index in range(4):
        draw_log(four / f"draws-{index}.jsonl", game_id=f"bench:memory:{index}")
    console.print(f"log {log}: {log.stat().st_size:,} bytes, {lines:,} lines")
    sheet = scratch / "sheet.csv"
    sheet_rows = score_sheet(sheet)
    console.print(f"score sheet {sheet}: {sheet.stat().st_size:,} bytes, {sheet_rows:,} rows")
    games = scratch / "games"
    archive(games, BASE_GAMES, 1, console)
    store = big_store(scratch, args.events, console)
    stored = events_in(store)
    workers = ["--workers", str(args.workers)] if args.workers else []

    with tempfile.TemporaryDirectory(dir=scratch) as work:
        fresh, many, raw = Path(work) / "log.duckdb", Path(work) / "four.duckdb", Path(work) / "raw.duckdb"
        lake = Path(work) / "lake"
        runs = [
            ("audit (16 MiB log)", _saboteur("audit", str(log))),
            ("ingest (16 MiB log)", _saboteur("ingest", str(log), "--db", str(fresh), *workers)),
            ("ingest (four 16 MiB logs)", _saboteur("ingest", str(four), "--db", str(many), *workers)),
            (
                "ingest (four 16 MiB logs, --workers 8)",
                _saboteur("ingest", str(four), "--db", str(Path(work) / "eight.duckdb"), "--workers", "8"),
            ),
            (
                "ingest (4 MiB score sheet)",
                _saboteur("ingest", str(sheet), "--db", str(Path(work) / "sheet.duckdb"), *workers),
            ),
            ("verify (16 MiB log stored)", _saboteur("verify", "--db", str(fresh))),
            ("rebuild (16 MiB log stored)", _saboteur("rebuild", "--db", str(fresh))),
            (f"verify ({stored:,} events)", _saboteur("verify", "--db", str(store))),
            ("archive build (four 16 MiB logs)", _saboteur("archive", "build", str(four), "--to", str(lake))),
            (
                f"archive build ({BASE_GAMES:,} simulated games)",
                _saboteur("archive", "build", str(games), "--to", str(Path(work) / "games-lake")),
            ),
        ]
        baseline = measure(_duckdb_load(log, raw))
        table = Table(title=f"peak memory of the process tree (goal: RSS < {GOAL // 2**20} MiB)")
        for column in ("command", "RSS MiB", "PSS MiB", "× DuckDB", "seconds", "goal"):
            table.add_column(column, justify="left" if column == "command" else "right")
        table.add_row(
            "duckdb read_ndjson_objects (16 MiB log)",
            f"{baseline.rss / 2**20:,.0f}",
            f"{baseline.pss / 2**20:,.0f}",
            "1.00",
            f"{baseline.seconds:.1f}",
            "",
        )
        for label, command in runs:
            peak = measure(command)
            table.add_row(
                label,
                f"{peak.rss / 2**20:,.0f}",
                f"{peak.pss / 2**20:,.0f}",
                f"{peak.rss / baseline.rss:.2f}",
                f"{peak.seconds:.1f}",
                "ok" if peak.rss < GOAL else "OVER",
            )
    console.print(table)


if __name__ == "__main__":
    main()
