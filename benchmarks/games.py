"""The simulated archive the benchmarks read: games of every table size and ruleset,
written once into a folder (a file each, a thousand to a subfolder) and kept there for
the next run (``complete-GAMES-SEED`` marks it whole). ``ingest.py``, ``audit.py``,
``archive.py`` and ``memory.py`` share it.
"""

from __future__ import annotations

import os
import time
from multiprocessing import Pool
from pathlib import Path

from rich.console import Console

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
