"""Start-up benchmark: how long a ``saboteur`` command takes before it does anything.

    python benchmarks/startup.py [--runs 20] [--json]

It times, in one run and interleaved, ``saboteur --help`` and ``saboteur audit`` of a
one-round log against the baseline of ``python -c "import typer, pydantic, rich"``
(the libraries every command needs), each in a fresh process, and prints the medians
and their ratios to the baseline. Goal: both within 3× of the baseline. Which modules a
command may import is tested (``tests/test_startup.py``); the time is measured here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.logfile import write_log
from events.simulate.game import quick_game

GOAL = 3.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="runs of each command")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    python = sys.executable
    script = Path(python).with_name("saboteur")
    saboteur = [str(script)] if script.exists() else [python, "-m", "cli.main"]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "one-round.jsonl"
        log.write_text(write_log(quick_game(players=5, rounds=1, seed=1)), encoding="utf-8")
        commands = {
            "baseline: import typer, pydantic, rich": [python, "-c", "import typer, pydantic, rich"],
            "saboteur --help": [*saboteur, "--help"],
            "saboteur audit (one round)": [*saboteur, "audit", str(log)],
        }
        seconds: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                started = time.perf_counter()
                subprocess.run(command, capture_output=True, check=False)
                seconds[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(times) for name, times in seconds.items()}
    base = medians["baseline: import typer, pydantic, rich"]
    figures = {name: {"median_ms": round(m * 1000), "ratio": round(m / base, 2)} for name, m in medians.items()}
    if args.json:
        print(json.dumps(figures))
        return
    table = Table(title=f"start-up, median of {args.runs} runs each")
    for column in ("command", "median", "× baseline", "goal"):
        table.add_column(column)
    for name, figure in figures.items():
        goal = "" if name.startswith("baseline") else f"≤ {GOAL:.0f}×"
        table.add_row(name, f"{figure['median_ms']} ms", f"{figure['ratio']:.1f}×", goal)
    Console().print(table)


if __name__ == "__main__":
    main()
