"""Where the test suite's time goes: the README's test command, each test timed.

    python benchmarks/suite.py [--files 25] [--tests 20] [--json] [-- PYTEST ARGS]

Runs ``python -m pytest`` (the README's command, its workers as ``pyproject.toml`` sets
them) with :mod:`benchmarks.suite_clock`, which writes each test's wall time and the
processor time it spent in its worker and in the processes it started (servers,
Chromium, ``saboteur`` commands). Then prints:

- the suite's wall time, and the processor time of the whole run (``os.times`` of its
  reaped process tree) against what the machine's cores could give in that time: how
  busy they were;
- **the floor**: that processor time spread over every core with none idle (the suite
  cannot end sooner without spending less), and the suite's wall time against it;
- the files, and the tests, that spend the most, by wall and by processor time.

Run on demand, never in the tests: it runs the whole suite (some 8 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.suite_clock import FOLDER

ROOT = Path(__file__).resolve().parent.parent


def run_suite(extra: list[str], folder: Path) -> tuple[float, float, int]:
    """The suite's wall seconds, its process tree's processor seconds, and its exit status."""
    before, started = os.times(), time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "benchmarks.suite_clock", *extra],
        cwd=ROOT,
        env={
            **os.environ,
            FOLDER: str(folder),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        },
        stdout=sys.stderr,  # pytest's own report; this one's goes to standard output
        check=False,
    )
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return time.monotonic() - started, cpu, done.returncode


def timed(folder: Path) -> list[dict[str, Any]]:
    """Every test's record, from every worker's file."""
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=25, help="files to list, the costliest first")
    parser.add_argument("--tests", type=int, default=20, help="tests to list, the longest first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("pytest", nargs="*", help="arguments for pytest (after --)")
    args = parser.parse_args(argv)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as scratch:
        wall, cpu, status = run_suite(args.pytest, Path(scratch))
        tests = timed(Path(scratch))
    by_file: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for test in tests:
        row = by_file[test["test"].split("::")[0]]
        row[0] += test["wall"]
        row[1] += test["own"]
        row[2] += test["children"]
        row[3] += 1
    summary = {
        "exit_status": status,
        "tests": len(tests),
        "cores": cores,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "busy": round(cpu / (wall * cores), 3),
        "floor_s": round(cpu / cores, 1),
        "over_floor": round(wall / max(cpu / cores, 1e-9), 2),
        "tests_wall_s": round(sum(t["wall"] for t in tests), 1),
        "tests_cpu_s": round(sum(t["own"] + t["children"] for t in tests), 1),
    }
    files = sorted(by_file.items(), key=lambda item: -(item[1][1] + item[1][2]))[: args.files]
    slowest = sorted(tests, key=lambda t: -t["wall"])[: args.tests]
    if args.json:
        summary["files"] = [
            {"file": name, "tests": int(n), "wall_s": round(w, 1), "own_s": round(o, 1), "children_s": round(c, 1)}
            for name, (w, o, c, n) in files
        ]
        summary["slowest"] = slowest
        print(json.dumps(summary))
        return
    console = Console()
    console.print(
        f"{summary['tests']:,} tests in {wall:.0f} s on {cores} cores; their processes spent {cpu:.0f} s of "
        f"processor time: the cores were {summary['busy']:.0%} busy. Floor (that time on every core, none "
        f"idle): {summary['floor_s']:.0f} s; the suite took {summary['over_floor']:.2f}× it. Exit status {status}."
    )
    table = Table(title="files, the costliest first (seconds summed over their tests)")
    for head in ("file", "tests", "wall", "worker CPU", "children's CPU"):
        table.add_column(head, justify="left" if head == "file" else "right")
    for name, (w, o, c, n) in files:
        table.add_row(name, str(int(n)), f"{w:.1f}", f"{o:.1f}", f"{c:.1f}")
    console.print(table)
    longest = Table(title="tests, the longest first (seconds)")
    for head in ("test", "wall", "worker CPU", "children's CPU"):
        longest.add_column(head, justify="left" if head == "test" else "right")
    for test in slowest:
        longest.add_row(test["test"], f"{test['wall']:.1f}", f"{test['own']:.1f}", f"{test['children']:.1f}")
    console.print(longest)


if __name__ == "__main__":
    main()
