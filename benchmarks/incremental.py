"""One game more: into a store of many games against into an empty store.

    python benchmarks/incremental.py [--games 10000] [--seed 1] [--archive DIR] [--runs 5]

During a tournament a game comes in every few minutes — a file uploaded, or a game
ended on the Record page — into a store that grows through the day and over seasons.
Issue 31's goal: taking in one more game costs at most 1.5× as much in a store of
10,000 games as in an empty one. In one run, on the simulated archive the other
benchmarks share (:mod:`benchmarks.games`) and a store made of it by ``saboteur
ingest`` itself (kept beside the archive for the next run):

- **a file:** ``saboteur ingest GAME --db STORE`` of one game the store does not hold,
  a fresh interpreter each time (the command's start-up counts, as it does for the
  organiser), into a fresh copy of the full store and into a fresh empty one, in turn;
- **the Record page:** the same game recorded line by line into a draft
  (:func:`ingest.drafts.record_line`, what each tap does) and ended
  (:func:`ingest.drafts.finish_draft`), in a fresh interpreter per run, the mean entry
  and the ending timed apart.

Each figure is the median of ``--runs``, the two stores taken in turn so that the
machine's drift falls on both alike. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.games import archive
from events.logfile import write_log
from events.simulate.game import quick_game

GOAL: Final = 1.5
ROOT: Final = Path(__file__).resolve().parent.parent

RECORDED: Final = """
import json, sys, time
from pathlib import Path
from ingest.drafts import finish_draft, record_line, start_draft
from ingest.store import Store

store = Store(Path(sys.argv[1]))
lines = Path(sys.argv[2]).read_text().splitlines()
draft = start_draft(store, json.loads(lines[0])["game_id"], lines[0])
began = time.perf_counter()
for line in lines[1:]:
    draft = record_line(store, draft, line)
entered = time.perf_counter()
_, result = finish_draft(store, draft, "record-page.jsonl")
ended = time.perf_counter()
assert result.outcome in ("accepted", "accepted_with_findings"), result
print(json.dumps({"entry": (entered - began) / (len(lines) - 1), "finish": ended - entered}))
"""
"""The Record page's work for one game, in a fresh interpreter: a tap a line, then the end."""


def full_store(folder: Path, games: int, seed: int, console: Console) -> Path:
    """The store of the whole archive, made once by ``saboteur ingest`` and kept."""
    db = folder / f"store-{games}-{seed}.duckdb"
    if db.exists():
        return db
    began = time.perf_counter()
    partial = db.with_name(db.name + ".part")
    partial.unlink(missing_ok=True)
    _saboteur("ingest", str(folder), "--db", str(partial), "--workers", "2")
    partial.rename(db)
    console.print(
        f"store: {games} games ingested in {time.perf_counter() - began:.0f} s, {db.stat().st_size >> 20} MiB"
    )
    return db


def _saboteur(*args: str) -> float:
    """Run a command in a fresh interpreter; its wall time."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"saboteur {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return took


def _recorded(db: Path, game: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", RECORDED, str(db), str(game)], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"recording into {db} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def _fresh(scratch: Path, full: Path | None) -> Path:
    """A store for one run: a copy of the full one, or a path where none is yet."""
    db = scratch / "run.duckdb"
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    if full is not None:
        shutil.copyfile(full, db)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archive", type=Path, default=Path(tempfile.gettempdir()) / "saboteur-bench-archive")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    console = Console()
    folder = args.archive / f"{args.games}-{args.seed}"
    events = archive(folder, args.games, args.seed, console)
    full = full_store(folder, args.games, args.seed, console)
    console.print(f"the full store: {args.games:,} games, {events:,} events, {full.stat().st_size >> 20} MiB")

    with tempfile.TemporaryDirectory(dir=args.archive) as scratch_name:
        scratch = Path(scratch_name)
        game = scratch / "one-more.jsonl"
        write_log(quick_game(6, "tournament", 4, seed=987_654_321), game)  # an id the archive does not hold
        times: dict[str, dict[str, list[float]]] = {"empty": {}, "full": {}}
        for _ in range(args.runs):
            for kind, source in (("empty", None), ("full", full)):
                runs = times[kind]
                db = _fresh(scratch, source)
                runs.setdefault("ingest", []).append(_saboteur("ingest", str(game), "--db", str(db), "--workers", "1"))
                db = _fresh(scratch, source)
                for step, took in _recorded(db, game).items():
                    runs.setdefault(step, []).append(took)

    table = Table(title=f"one game more (median of {args.runs}; goal: full ≤ {GOAL}× empty)")
    for head in ("step", "empty store", f"{args.games:,} games", "ratio"):
        table.add_column(head, justify="right" if head != "step" else "left")
    labels = {
        "ingest": "saboteur ingest of one game",
        "entry": "an entry on the Record page",
        "finish": "the game ended on the Record page",
    }
    for step, label in labels.items():
        empty, loaded = statistics.median(times["empty"][step]), statistics.median(times["full"][step])
        ratio = loaded / empty
        shown = f"[{'green' if ratio <= GOAL else 'red'}]{ratio:.2f}×[/]"
        table.add_row(label, f"{empty * 1000:.0f} ms", f"{loaded * 1000:.0f} ms", shown)
    console.print(table)


if __name__ == "__main__":
    main()
