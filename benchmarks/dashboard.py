"""Dashboard benchmark: every page over a store of 100,000 rounds, each under 2 s.

    python benchmarks/dashboard.py [--rounds 100000] [--db FILE] [--keep]

Synthesises the read models of N rounds with the statistics benchmark's synthesiser
(:func:`benchmarks.analytics.synthesise`: 250-game tournaments, every table size, both
rulesets), then ingests a real simulated tournament on top, two of its games broken so
there are findings to audit and events to replay. For each page it times, with the
caches empty:

- the page's data functions (``dashboard.data``, as the page calls them);
- a whole run of the page in Streamlit's ``AppTest`` (data, layout, the chart and
  table serialised), then a second run with the caches warm.

Goal: every cold page run under 2 s. Run on demand, never in the tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import streamlit as st
from streamlit import logger as streamlit_logger
from streamlit.testing.v1 import AppTest

from analytics.filters import Filters
from benchmarks.analytics import synthesise
from dashboard import data
from events.simulate.mutate import mutate
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
REAL = "bench-real"
GOAL = 2.0


def add_real_tournament(path: Path, scratch: Path) -> None:
    """A simulated tournament of 24 players, two games broken, ingested into ``path``."""
    logs = scratch / "real"
    simulate_tournament(logs, players=24, preliminary_rounds=3, seed=11, tournament_id=REAL, name="Bench Real Open")
    for name, how in (("r1-t1.jsonl", "mis_score"), ("r2-t2.jsonl", "skip_draw")):
        broken = mutate((logs / name).read_text().splitlines(), how, seed=3)
        assert broken is not None
        (logs / name).write_text("".join(line + "\n" for line in broken.lines))
    ingest([logs], Store(path), workers=1)


def page_data(page: str) -> Callable[[], Any]:
    """The data calls a page makes on its first run, in order."""
    tournament = data.tournaments()["tournament"][0]

    def standings() -> None:
        data.tournaments()
        data.stages(tournament)
        data.standings(tournament, "preliminary")
        data.stage_counts(tournament, "preliminary")
        data.integrity()

    def roles() -> None:
        data.rulesets()
        data.tournaments()
        data.role_win_rates(Filters(ruleset="base"))

    def players() -> None:
        everyone = data.player_stats(Filters())
        player = everyone.sort("name")["player"][0]
        data.tournaments()
        rounds = data.player_rounds(player, None)
        data.player_stats(Filters(tournament=None))
        data.player_roles(rounds)

    def rounds() -> None:
        data.tournaments()
        data.choices(None)
        listed, _ = data.rounds(data.RoundQuery())
        data.round_findings(str(listed["game_id"][0]), int(listed["round"][0]))

    def replay() -> None:
        data.tournaments()
        games = data.games(REAL)
        data.game(str(games["game_id"][0]))

    def upload() -> None:
        pass

    def audit() -> None:
        data.tournaments()
        found = data.open_findings(REAL)
        row = found.row(0, named=True)
        data.round_scores(REAL, row["game_id"], int(row["round"]))

    return {
        "standings": standings,
        "roles": roles,
        "players": players,
        "rounds": rounds,
        "replay": replay,
        "upload": upload,
        "audit": audit,
    }[page]


STATE: dict[str, dict[str, Any]] = {
    "replay": {"replay_tournament": REAL},
    "audit": {"organiser": True, "audit_tournament": REAL},
    "upload": {"organiser": True},
}


def timed(function: Callable[[], Any]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def run_page(page: str) -> tuple[float, float]:
    """A cold and a warm run of the page in AppTest, in seconds."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    for key, value in STATE.get(page, {}).items():
        at.session_state[key] = value
    at.switch_page(f"views/{page}.py")
    st.cache_data.clear()
    cold = timed(at.run)
    if at.exception:
        raise RuntimeError(f"{page}: {[e.value for e in at.exception]}")
    warm = timed(at.run)
    return cold, warm


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=100_000, help="rounds to synthesise")
    parser.add_argument("--db", type=Path, help="use (or keep) this store; made when it does not exist")
    parser.add_argument("--keep", action="store_true", help="keep the temporary store and print its path")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    streamlit_logger.set_log_level("error")  # caching outside a server run: say nothing
    scratch = Path(tempfile.mkdtemp(prefix="saboteur-dash-bench-"))
    path: Path = args.db or scratch / "bench.duckdb"
    if not path.exists():
        console.print(f"synthesising {args.rounds:,} rounds into {path}")
        synthesise(path, args.rounds, console)
        started = time.perf_counter()
        add_real_tournament(path, scratch)
        console.print(f"  a real tournament ingested: {time.perf_counter() - started:.1f} s")
    os.environ["SABOTEUR_DB"] = str(path)
    os.environ.setdefault("SABOTEUR_ADMIN_PASSWORD", "bench")
    with Store(path).connect(read_only=True) as con:
        rounds = int(con.execute("SELECT count(*) FROM rounds").fetchall()[0][0])
        events = int(con.execute("SELECT count(*) FROM events").fetchall()[0][0])
    console.print(f"{rounds:,} rounds, {events:,} events")

    run_page("standings")  # imports and the first chain verification, outside the timings
    table = Table(title=f"dashboard pages over {rounds:,} rounds (seconds; goal: a cold page under {GOAL:g} s)")
    for column in ("page", "data (cold)", "page run (cold)", "page run (warm)", "under goal"):
        table.add_column(column, justify="left" if column == "page" else "right")
    slowest = 0.0
    for page in ("standings", "roles", "players", "rounds", "replay", "upload", "audit"):
        st.cache_data.clear()
        fetch = timed(page_data(page))
        cold, warm = run_page(page)
        slowest = max(slowest, cold)
        table.add_row(page, f"{fetch:.3f}", f"{cold:.3f}", f"{warm:.3f}", "yes" if cold < GOAL else "NO")
    console.print(table)
    console.print(f"slowest cold page: {slowest:.3f} s")
    if args.db is None and not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)
    elif args.keep:
        console.print(f"kept {path}")


if __name__ == "__main__":
    main()
