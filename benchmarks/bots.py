"""The strong bots against the basic ones, paired on the same deals (issue 32).

    python benchmarks/bots.py [--rounds 2000] [--workers N] [--json]

For each ruleset and table size (base 3–10, tournament 5–10) it plays ``--rounds``
one-round games, seeds 0 to N−1, with every lineup below, and reports:

- **strong against basic, role by role:** the role's win rate with the strong bot
  playing it and every other role basic, against every role basic, on the same deals:
  the paired difference with its 95% interval. The goal: every interval above zero.
- **every bot strong:** each role's win rate with its Wilson interval.
- **cost:** the time per round of all-strong lineups against all-basic ones (the
  simulator's cost is the bots' plus the checking replay's).

Trials are counted as ``stats roles`` counts them (``events.simulate.study``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table as RichTable

from analytics.intervals import wilson
from events.simulate.lineup import BASIC, ROLES, STRONG, Lineup
from events.simulate.study import paired, trials
from events.tables import PLAYER_RANGE, TOURNAMENT_ROLES

CHUNK = 50
Job = tuple[str, int, str, int, int]
"""(ruleset, players, lineup as text, first seed, seeds)."""


def roles_at(ruleset: str, players: int) -> list[str]:
    if ruleset == "tournament":
        saboteurs, diggers, dwarfs = TOURNAMENT_ROLES[players]
        return [r for r, k in zip(ROLES, (diggers, saboteurs, dwarfs), strict=True) if k]
    return ["gold_digger", "saboteur"]


def lineups_at(ruleset: str, players: int) -> list[Lineup]:
    """All basic, each role strong alone, all strong."""
    alone = [Lineup(**{role: "strong"}) for role in roles_at(ruleset, players)]  # type: ignore[arg-type]
    return [BASIC, *alone, STRONG]


def run(job: Job) -> tuple[Job, dict[str, list[bool]], float]:
    """Play one chunk of deals: each role's trials, seed after seed, and the CPU time."""
    ruleset, players, lineup, first, count = job
    chosen = Lineup.parse(lineup)
    started = time.process_time()
    found: dict[str, list[bool]] = defaultdict(list)
    for seed in range(first, first + count):
        for role, wins in trials(ruleset, players, seed, chosen).items():
            found[role].extend(wins)
    return job, dict(found), time.process_time() - started


def machine() -> str:
    """The CPU model, its cores and the Python that ran the benchmark."""
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def table_sizes(text: str) -> range:
    """``6`` or ``5-7``, as ``--sizes`` takes it (a usage error otherwise)."""
    low, _, high = text.partition("-")
    try:
        return range(int(low), int(high or low) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a table size or a range such as 5-7") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2000, help="deals per ruleset and table size")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rulesets", default="base,tournament")
    parser.add_argument("--sizes", type=table_sizes, default="3-10", help="table sizes, e.g. 6 or 5-7")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    sizes = args.sizes
    console = Console(stderr=args.json)
    cells = [
        (ruleset, n)
        for ruleset in args.rulesets.split(",")
        for n in sizes
        if PLAYER_RANGE[ruleset][0] <= n <= PLAYER_RANGE[ruleset][1]
    ]
    jobs: list[Job] = [
        (ruleset, n, str(lineup), first, min(CHUNK, args.rounds - first))
        for ruleset, n in cells
        for lineup in lineups_at(ruleset, n)
        for first in range(0, args.rounds, CHUNK)
    ]
    results: dict[tuple[str, int, str], dict[int, dict[str, list[bool]]]] = defaultdict(dict)
    cpu: dict[str, float] = defaultdict(float)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for done, (job, found, seconds) in enumerate(pool.map(run, jobs, chunksize=1), start=1):
            ruleset, n, lineup, first, _ = job
            results[(ruleset, n, lineup)][first] = found
            cpu[lineup] += seconds
            if not args.json and done % 50 == 0:
                console.print(f"  {done}/{len(jobs)} chunks, {time.perf_counter() - started:.0f} s", highlight=False)
    wall = time.perf_counter() - started

    def joined(ruleset: str, n: int, lineup: Lineup) -> dict[str, list[bool]]:
        out: dict[str, list[bool]] = defaultdict(list)
        for first in sorted(results[(ruleset, n, str(lineup))]):
            for role, wins in results[(ruleset, n, str(lineup))][first].items():
                out[role].extend(wins)
        return out

    against: list[dict[str, object]] = []
    every: list[dict[str, object]] = []
    for ruleset, n in cells:
        basic = joined(ruleset, n, BASIC)
        strong = joined(ruleset, n, STRONG)
        for role in roles_at(ruleset, n):
            alone = joined(ruleset, n, Lineup(**{role: "strong"}))  # type: ignore[arg-type]
            if not basic.get(role):
                continue
            d = paired(basic[role], alone[role])
            against.append(
                {"ruleset": ruleset, "players": n, "role": role, "trials": d.n, "basic": d.first,
                 "strong": d.second, "difference": d.mean, "low": d.low, "high": d.high}
            )  # fmt: skip
            wins, total = sum(strong[role]), len(strong[role])
            interval = wilson(wins, total) or (0.0, 0.0)
            every.append(
                {"ruleset": ruleset, "players": n, "role": role, "trials": total, "rate": wins / total,
                 "low": interval[0], "high": interval[1]}
            )  # fmt: skip
    met = sum(1 for row in against if float(row["low"]) > 0)  # type: ignore[arg-type]
    basic_cpu, strong_cpu = cpu[str(BASIC)], cpu[str(STRONG)]
    cost = {
        "basic_cpu_s": basic_cpu,
        "strong_cpu_s": strong_cpu,
        "ratio": strong_cpu / basic_cpu if basic_cpu else None,
    }
    if args.json:
        figures = {"rounds": args.rounds, "machine": machine(), "against_basic": against, "every_strong": every}
        figures["cost"] = cost
        print(json.dumps({**figures, "goal_met": met, "goal_cells": len(against), "wall_s": wall}, indent=2))
        return
    table = RichTable(title=f"Strong against basic, paired on {args.rounds} deals per table size")
    for column in ("ruleset", "players", "role", "trials", "basic", "strong", "difference [95%]", ""):
        table.add_column(column, justify="right" if column in ("players", "trials") else "left")
    for row in against:
        table.add_row(
            str(row["ruleset"]), str(row["players"]), str(row["role"]), str(row["trials"]),
            f"{row['basic']:.3f}", f"{row['strong']:.3f}",
            f"{row['difference']:+.3f} [{row['low']:+.3f}, {row['high']:+.3f}]",
            "ok" if float(row["low"]) > 0 else "NOT MET",  # type: ignore[arg-type]
        )  # fmt: skip
    console.print(table)
    table = RichTable(title="Every bot strong: win rate per role (Wilson 95%)")
    for column in ("ruleset", "players", "role", "trials", "rate [95%]"):
        table.add_column(column)
    for row in every:
        table.add_row(
            str(row["ruleset"]), str(row["players"]), str(row["role"]), str(row["trials"]),
            f"{row['rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}]",
        )  # fmt: skip
    console.print(table)
    console.print(
        f"goal (every interval above zero): {met} of {len(against)} cells"
        f" · cost: all-strong {cost['strong_cpu_s']:.1f} CPU s against all-basic {cost['basic_cpu_s']:.1f}"
        f" on the same deals, {cost['ratio']:.2f}× · {wall:.0f} s wall on {args.workers} workers · {machine()}",
        highlight=False,
    )


if __name__ == "__main__":
    main()
