"""Recording benchmark: the server's time from a tap to the next screen, deep in a round.

    python benchmarks/recorder.py [--taps 100] [--seed 1]

A simulated tournament is ingested (its round 2, table 2 held back), and the recording
page — driven by Streamlit's ``AppTest``, as the tests drive it — begins that table's
game and records a round of passes until the round holds 99 entries. Then, ``--taps``
times over, it records the round's 100th entry the way a referee does — three taps: the
kind of card (Path), the card (its legal cells marked on the maze), the cell (the entry
previewed, appended to the draft in the store, the screen laid out again) — and takes
it back (an undo, not timed), so every timed tap lands at the same place.

Each tap is a whole run of the page: the callback, the layout, the elements
serialised. The baseline, in the same process, is the same entry recorded without
Streamlit: the recorder's preview and record and the draft's append
(:meth:`dashboard.recording.live.Live.record`), ``--taps`` times, each taken back.

Goal: the 95th percentile of a tap under 300 ms. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from streamlit import logger as streamlit_logger
from streamlit.testing.v1 import AppTest

from dashboard.recording.live import Live
from dashboard.recording.taps import LIVE
from events.schema import PlayPath
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
HELD_BACK = "r2-t2.jsonl"
GAME_ROUND, TABLE = 2, "2"
DEEP = 99
"""Entries of the round recorded before the timed taps: each timed entry is its 100th."""
GOAL = 0.300


def store_with_a_table(scratch: Path, seed: int) -> Path:
    """A store holding a simulated tournament of 12 players but one table's game."""
    logs, load = scratch / "sim", scratch / "load"
    simulate_tournament(logs, players=12, preliminary_rounds=2, seed=seed)
    load.mkdir()
    for path in logs.iterdir():
        if path.name != HELD_BACK:
            shutil.copy(path, load / path.name)
    db = scratch / "bench.duckdb"
    ingest([load], Store(db), workers=1)
    return db


class Phone:
    """The recording page in AppTest, tapped by key; each tap's run timed."""

    def __init__(self) -> None:
        self.at = AppTest.from_file(str(APP), default_timeout=120)
        self.at.session_state["organiser"] = True
        self.at.switch_page("views/record.py")
        self._ran(self.at.run)

    def _ran(self, run: Callable[[], object]) -> float:
        started = time.perf_counter()
        run()
        spent = time.perf_counter() - started
        if self.at.exception:
            raise RuntimeError([e.value for e in self.at.exception])
        return spent

    def tap(self, key: str) -> float:
        return self._ran(self.at.button(key=key).click().run)

    @property
    def live(self) -> Live:
        live: Live = self.at.session_state[LIVE]
        return live

    def round_entries(self) -> int:
        lines = self.live.recorder.lines
        return len(lines) - max(i for i, line in enumerate(lines) if '"round_started"' in line)


def store_shape(db: Path) -> str:
    """The store's size and its events' row groups: each small write's rows are a row
    group until DuckDB's vacuum merges them (``ingest.store.checkpoint_unmerged``)."""
    with duckdb.connect(str(db), read_only=True) as con:
        found = con.execute("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('events')").fetchone()
    groups = found[0] if found else 0
    return f"{db.stat().st_size / 2**20:.1f} MiB, the events in {groups} row groups"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=100, help="entries recorded at the round's 100th (each 3 taps)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    streamlit_logger.set_log_level("error")
    scratch = Path(tempfile.mkdtemp(prefix="saboteur-recorder-bench-"))
    try:
        db = store_with_a_table(scratch, args.seed)
        os.environ["SABOTEUR_DB"] = str(db)
        os.environ["SABOTEUR_ADMIN_PASSWORD"] = "bench"
        phone = Phone()
        phone._ran(phone.at.selectbox(key="record_round").set_value(GAME_ROUND).run)
        phone.tap(f"record_table_{TABLE}")
        players = phone.live.recorder.game.players
        for key in (f"record_start_{players[0]}", "record_setup_NS", "record_deal"):
            phone.tap(key)
        while phone.round_entries() < DEEP:
            phone.tap("record_draw" if phone.live.recorder.due().kind == "draw" else "record_kind_discard")
        console.print(
            f"table of {len(players)}, round {phone.live.recorder.state.last_round_number}: "
            f"{phone.round_entries()} entries recorded, {len(phone.live.recorder.lines)} lines"
        )

        steps: dict[str, list[float]] = {"kind (Path)": [], "card (legal cells)": [], "cell (recorded)": []}
        for _ in range(args.taps):
            for label, key in zip(steps, ("record_kind_path", "record_card_NESW", "record_cell_1_0"), strict=True):
                steps[label].append(phone.tap(key))
            assert phone.round_entries() == DEEP + 1
            phone.tap("record_undo")

        live = Live.resume(Store(db), phone.live.game_id)
        assert live is not None and live.recorder.due().player is not None
        entry = PlayPath(type="play_path", player=live.recorder.due().player, card="NESW", x=1, y=0, rotated=False)
        baseline: list[float] = []
        for _ in range(args.taps):
            started = time.perf_counter()
            live.recorder.preview(entry)
            live.record(entry)
            baseline.append(time.perf_counter() - started)
            live.undo()

        every = [t for times in steps.values() for t in times]
        table = Table(title=f"a tap at the round's 100th entry ({args.taps} entries; milliseconds)")
        for column in ("what", "taps", "p50", "p95", "max"):
            table.add_column(column, justify="left" if column == "what" else "right")
        for label, times in [*steps.items(), ("every tap", every), ("baseline: preview, record, append", baseline)]:
            table.add_row(
                label,
                str(len(times)),
                f"{statistics.median(times) * 1000:.0f}",
                f"{percentile(times, 0.95) * 1000:.0f}",
                f"{max(times) * 1000:.0f}",
            )
        console.print(table)
        p95 = percentile(every, 0.95)
        ratio = statistics.median(steps["cell (recorded)"]) / statistics.median(baseline)
        verdict = "met" if p95 < GOAL else "NOT met"
        console.print(
            f"p95 of a tap: {p95 * 1000:.0f} ms (goal under {GOAL * 1000:.0f} ms: {verdict}); "
            f"a recorded entry's tap is {ratio:.1f}× the baseline's median"
        )
        recorded = steps["cell (recorded)"]
        tenth = max(len(recorded) // 10, 1)
        console.print(
            f"a recorded entry's tap, first tenth {statistics.median(recorded[:tenth]) * 1000:.0f} ms, "
            f"last tenth {statistics.median(recorded[-tenth:]) * 1000:.0f} ms (medians); "
            f"the store after the draft's {live.draft.version} events, each its own transaction: {store_shape(db)}"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
