"""Replay benchmark: how fast one core audits logs, against two baselines in the same run.

    python benchmarks/replay.py [--games 700] [--seed 1] [--repeat 5]

A fixed, seeded corpus of simulated games (every ruleset and table size, 3 rounds each:
at least 2,000 rounds) is replayed with the full audit — decode, strict validation and
every rule — and timed against

- decoding the same lines with orjson and nothing else (the floor of any JSON reader);
- python-chess reading a PGN corpus of random legal games, which replays and checks
  every move (``chess.pgn.read_game``): plies per second.

The same games are then turned into observed logs (``events.observe``: what a referee
at the table sees, line for line) and audited again in the same run: hands and pile
counted instead of seen, goals learnt from the reveals, roles from ``round_ended``.

Every piece of work is timed in CPU seconds of this one process, the pieces taking turns
in each of ``--repeat`` rounds, best of the rounds: the ratios hold on a machine that is
busy with other work. The audit is also split in two: parsing the lines alone (as the
audit reads them: msgspec Structs, ``events.structs``), and the replay with every check
fed lines already parsed; and parsing as pydantic models is timed beside them.

It says which replay it measured: the compiled core an install with a C compiler builds
(``setup.py``), or the pure-Python sources (no compiler, or ``SABOTEUR_PURE_PYTHON=1``:
run it both ways to compare). It prints events/s and µs per event, the baselines and the ratios (goal: ≥ 4×
python-chess's plies/s, full and observed; within 10× of bare orjson; observed no slower
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
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

import chess
import chess.pgn
import orjson
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.audit import audit, audit_file
from events.compiled import core
from events.logfile import BlockParser, parse_block, parse_lines, parse_structs_block, write_log
from events.observe import observe_lines
from events.replay import Source
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


def interleaved(repeat: int, works: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The fastest of ``repeat`` rounds for each piece of work, in CPU seconds of this
    process (``time.process_time``), the pieces taking turns within every round.

    CPU time leaves out the time other processes take the core from this one, and taking
    turns exposes every piece to the same load: a ratio of two pieces measured this way
    holds on a busy machine, where wall-clock times measured one after the other do not.
    """
    best = dict.fromkeys(works, float("inf"))
    for _ in range(repeat):
        for name, work in works.items():
            gc.collect()
            gc.disable()
            start = time.process_time()
            work()
            best[name] = min(best[name], time.process_time() - start)
            gc.enable()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=700, help="simulated games in the corpus (3 rounds each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--chess-games", type=int, default=400)
    args = parser.parse_args()
    console = Console()
    console.print(f"replay: the {core()} core (SABOTEUR_PURE_PYTHON=1 runs the sources)")

    started = time.perf_counter()
    logs = corpus(args.games, args.seed)
    seen = [list(observe_lines(log)) for log in logs]
    events = sum(len(log) for log in logs)
    rounds = 3 * len(logs)
    console.print(
        f"corpus: {len(logs)} games, {rounds} rounds, {events:,} events (simulated in "
        f"{time.perf_counter() - started:.1f} s)"
    )
    pgn, plies = pgn_corpus(args.chess_games, args.seed)
    console.print(f"chess corpus: {args.chess_games} random legal games, {plies:,} plies")
    parsed = [list(parse_lines(log, parse_structs_block)) for log in logs]
    parsed_seen = [list(parse_lines(log, parse_structs_block)) for log in seen]

    def audit_all(corpus: Sequence[Source]) -> Callable[[], None]:
        def run() -> None:
            for log in corpus:
                result = audit(log)
                if result.status != "clean":
                    raise SystemExit(f"corpus game not clean: {result.findings[:1]}")

        return run

    def parse_all(corpus: list[list[bytes]], block_parser: BlockParser = parse_structs_block) -> Callable[[], None]:
        def run() -> None:
            for log in corpus:
                deque(parse_lines(log, block_parser), maxlen=0)

        return run

    def decode_all() -> None:
        loads = orjson.loads
        for log in logs:
            for line in log:
                loads(line)

    def chess_all() -> None:
        stream = io.StringIO(pgn)
        while chess.pgn.read_game(stream) is not None:
            pass

    def observe_all() -> None:
        for log in logs:
            deque(observe_lines(log), maxlen=0)

    best = interleaved(
        args.repeat,
        {
            "full": audit_all(logs),
            "observed": audit_all(seen),
            "chess": chess_all,
            "parse full": parse_all(logs),
            "parse observed": parse_all(seen),
            "models": parse_all(logs, parse_block),
            "replay full": audit_all(parsed),
            "replay observed": audit_all(parsed_seen),
            "orjson": decode_all,
            "observe": observe_all,
        },
    )
    chess_rate = plies / best["chess"]

    table = Table(title=f"replay ({core()}) on one core (CPU time, interleaved, best of {args.repeat})")
    table.add_column("what")
    table.add_column("CPU s", justify="right")
    table.add_column("rate", justify="right")
    table.add_column("µs/event", justify="right")
    table.add_column("÷ chess", justify="right")
    rows = [
        ("full", "audit, full logs: parse + every rule"),
        ("observed", "audit, the same games observed"),
        ("parse full", "  of which parse (full)"),
        ("replay full", "  of which replay and checks (full)"),
        ("parse observed", "  of which parse (observed)"),
        ("replay observed", "  of which replay and checks (observed)"),
        ("models", "parse as pydantic models (full)"),
    ]
    for key, label in rows:
        rate = events / best[key]
        table.add_row(
            label, f"{best[key]:.3f}", f"{rate:,.0f} events/s", f"{1e6 / rate:.2f}", f"{rate / chess_rate:.2f}×"
        )
    table.add_row("python-chess read_game (PGN)", f"{best['chess']:.3f}", f"{chess_rate:,.0f} plies/s", "", "1.00×")
    table.add_row("orjson.loads of the same lines", f"{best['orjson']:.3f}", f"{events / best['orjson']:,.0f} lines/s")
    observe = best["observe"]
    table.add_row("observe: full log → observed log", f"{observe:.3f}", f"{events / observe:,.0f} lines/s")
    console.print(table)
    full, observed = events / best["full"], events / best["observed"]
    console.print(f"full audit events/s ÷ chess plies/s     = {full / chess_rate:.2f}× (goal ≥ 4×; {core()})")
    console.print(f"observed audit events/s ÷ chess plies/s = {observed / chess_rate:.2f}× (goal ≥ 4×; {core()})")
    console.print(f"full audit rounds/s                     = {rounds / best['full']:,.0f}")
    console.print(f"audit time ÷ orjson time                = {best['full'] / best['orjson']:.2f}× (goal ≤ 10×)")
    console.print(f"observed audit time ÷ full              = {best['observed'] / best['full']:.2f}× (goal ≤ 1×)")

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
