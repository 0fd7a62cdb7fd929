"""The dashboard never stops the command line from working beside it: while the app
reads, ``saboteur ingest`` writes to the same file; both succeed, and the new games
show on the dashboard's next run."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

from events.simulate.tournament import simulate_tournament
from tests.dashboard.conftest import Sample


def saboteur() -> list[str]:
    found = Path(sys.executable).with_name("saboteur")
    return [str(found)] if found.exists() else [sys.executable, "-m", "cli.main"]


def written(db: Path) -> tuple[tuple[int, int] | None, ...]:
    """When the store's file and its write-ahead log last changed, and their sizes."""
    return tuple(
        (path.stat().st_mtime_ns, path.stat().st_size) if path.exists() else None
        for path in (db, db.with_name(db.name + ".wal"))
    )


def test_saboteur_ingest_writes_while_the_dashboard_reads(
    open_page: Callable[..., AppTest], db: Path, sample: Sample, tmp_path: Path
) -> None:
    # Enough games that the ingest writes in several transactions while the pages run.
    other = tmp_path / "open-2"
    simulate_tournament(other, players=36, preliminary_rounds=5, seed=2, tournament_id="sim-open-2")
    preliminary = str(len(list(other.glob("r*-t*.jsonl"))))
    at = open_page()
    assert at.selectbox(key="standings_tournament").options == ["Simulated Open 1 (sim-open-1)"]
    assert next(m.value for m in at.metric if m.label == "Games") == "3"
    before = written(db)
    st.cache_data.clear()
    at.run()
    assert written(db) == before  # a page run alone writes nothing: a change is the ingest's

    command = [*saboteur(), "ingest", str(other), str(sample.held_back), "--db", str(db), "--workers", "1"]
    ingest = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    beside = 0
    while ingest.poll() is None:
        st.cache_data.clear()  # every run reads the store afresh while the ingest works
        before = written(db)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert not at.error, [e.value for e in at.error]
        beside += written(db) != before
    out, err = ingest.communicate()
    assert ingest.returncode == 0, out + err
    # a page run during which the ingest wrote (counting whole runs while it lived failed
    # twice under a fresh clone's CI: one slow run outlasted the ingest of 18, then of 30)
    assert beside >= 1, "no page run saw the ingest write beside it"

    at.run()  # the next refresh: no cache cleared, the store's stamp has changed
    assert at.selectbox(key="standings_tournament").options == [
        "Simulated Open 1 (sim-open-1)",
        "Simulated Open 2 (sim-open-2)",
    ]
    assert next(m.value for m in at.metric if m.label == "Games") == "4"
    at.selectbox(key="standings_tournament").set_value("sim-open-2").run()
    assert next(m.value for m in at.metric if m.label == "Games") == preliminary == "30"
    assert any("intact" in s.value for s in at.success)
