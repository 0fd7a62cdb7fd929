"""Replay benchmark: how fast one core audits logs, against two baselines in the same run.

    python benchmarks/replay.py [--games 700] [--seed 1] [--repeat 3]

A fixed, seeded corpus of simulated games (every ruleset and table size, 3 rounds each:
at least 2,000 rounds) is replayed with the full audit — decode, strict validation and
every rule — and timed against

- decoding the same lines with orjson and nothing else (the floor of any JSON reader);
- python-chess reading a PGN corpus of random legal games, which replays and checks
  every move (``chess.pgn.read_game``): plies per second.

The same games are then turned into observed logs (``events.observe``: what a referee
at the table sees, line for line) and audited again in the same run: hands and pile
counted instead of seen, goals learnt from the reveals, roles from ``round_ended``.

It prints events/s and rounds/s, the baselines and the ratios (goal: ≥ 100,000
events/s, ≥ 4× python-chess's plies/s, within 10× of bare orjson, observed no slower
than full). Then it audits one large log file under ``tracemalloc`` and prints the peak
beside the file's size.
Run on demand; not part of the test suite. Needs ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn
import orjson
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.audit import audit, audit_file
from events.logfile import write_log
from events.observe import observe_lines
from events.schema import dump_event
from events.simulate.game import quick_game

TABLES = [("tournament", n) for n in range(5, 11)] + [("base", n) for n in range(3, 11)]


def corpus(games: int, seed: int) -> list[list[bytes]]:
    """``games`` simulated games of 3 rounds, cycling through every ruleset and size."""
    logs = []
    for index in range(games):
        ruleset, players = TABLES[index % len(TABLES)]
        events = quick_game(players, ruleset, 3, seed * 1_000_003 + index)
        logs.append([dump_event(e).encode() for e in events])
    return logs


def pgn_corpus(games: int, seed: int, max_plies: int = 160) -> tuple[str, int]:
    """Random legal chess games as PGN text, and their number of plies."""
    rng = random.Random(seed)
    texts, plies = [], 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < max_plies:
            board.push(rng.choice(list(board.legal_moves)))
        plies += board.ply()
        game = chess.pgn.Game.from_board(board)
        texts.append(str(game))
    return "\n\n".join(texts) + "\n", plies


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The fastest of ``repeat`` timed runs, with the collector quiet during each."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
        gc.enable()
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=700, help="simulated games in the corpus (3 rounds each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chess-games", type=int, default=400)
    args = parser.parse_args()
    console = Console()

    started = time.perf_counter()
    logs = corpus(args.games, args.seed)
    events = sum(len(log) for log in logs)
    rounds = 3 * len(logs)
    console.print(
        f"corpus: {len(logs)} games, {rounds} rounds, {events:,} events (simulated in "
        f"{time.perf_counter() - started:.1f} s)"
    )
    pgn, plies = pgn_corpus(args.chess_games, args.seed)
    console.print(f"chess corpus: {args.chess_games} random legal games, {plies:,} plies")

    def audit_all(corpus: list[list[bytes]]) -> Callable[[], None]:
        def run() -> None:
            for log in corpus:
                result = audit(log)
                if result.status != "clean":
                    raise SystemExit(f"corpus game not clean: {result.findings[:1]}")

        return run

    seen: list[list[bytes]] = []

    def observe_all() -> None:
        seen[:] = [list(observe_lines(log)) for log in logs]

    def decode_all() -> None:
        loads = orjson.loads
        for log in logs:
            for line in log:
                loads(line)

    def chess_all() -> None:
        stream = io.StringIO(pgn)
        while chess.pgn.read_game(stream) is not None:
            pass

    ours = best_of(args.repeat, audit_all(logs))
    bare = best_of(args.repeat, decode_all)
    board = best_of(args.repeat, chess_all)
    projection = best_of(args.repeat, observe_all)
    observed = best_of(args.repeat, audit_all(seen))

    table = Table(title=f"replay on one core (best of {args.repeat})")
    table.add_column("what")
    table.add_column("seconds", justify="right")
    table.add_column("rate", justify="right")
    table.add_row(
        "audit: decode + validate + every rule",
        f"{ours:.3f}",
        f"{events / ours:,.0f} events/s · {rounds / ours:,.0f} rounds/s",
    )
    table.add_row(
        "audit of the same games, observed",
        f"{observed:.3f}",
        f"{events / observed:,.0f} events/s · {rounds / observed:,.0f} rounds/s",
    )
    table.add_row("observe: full log → observed log", f"{projection:.3f}", f"{events / projection:,.0f} lines/s")
    table.add_row("orjson.loads of the same lines", f"{bare:.3f}", f"{events / bare:,.0f} lines/s")
    table.add_row("python-chess read_game (PGN)", f"{board:.3f}", f"{plies / board:,.0f} plies/s")
    console.print(table)
    versus_chess = (events / ours) / (plies / board)
    versus_json = ours / bare
    console.print(f"audit events/s ÷ chess plies/s = {versus_chess:.2f}× (goal ≥ 4×)")
    console.print(f"audit time ÷ orjson time      = {versus_json:.2f}× (goal ≤ 10×)")
    console.print(f"audit events/s                = {events / ours:,.0f} (goal ≥ 100,000)")
    console.print(f"observed audit time ÷ full    = {observed / ours:.2f}× (goal ≤ 1×: no slower than full)")
    console.print(f"observed audit events/s       = {events / observed:,.0f}")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.jsonl"
        big = quick_game(10, "tournament", 4, args.seed)
        write_log(big, path)
        size = path.stat().st_size
        tracemalloc.start()
        audit_file(path)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        console.print(
            f"one file of {size:,} bytes audited with a peak of {peak:,} bytes traced ({peak / size:.2f}× the file)"
        )


if __name__ == "__main__":
    main()
