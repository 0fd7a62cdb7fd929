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


def test_saboteur_ingest_writes_while_the_dashboard_reads(
    open_page: Callable[..., AppTest], db: Path, sample: Sample, tmp_path: Path
) -> None:
    # Enough games that the ingest outlasts several page runs even on a loaded machine
    # (with four, one slow run once outlasted the whole ingest; with eighteen, once more
    # under a fresh clone's CI beside the browser tests).
    other = tmp_path / "open-2"
    simulate_tournament(other, players=36, preliminary_rounds=5, seed=2, tournament_id="sim-open-2")
    preliminary = str(len(list(other.glob("r*-t*.jsonl"))))
    at = open_page()
    assert at.selectbox(key="standings_tournament").options == ["Simulated Open 1 (sim-open-1)"]
    assert next(m.value for m in at.metric if m.label == "Games") == "3"

    command = [*saboteur(), "ingest", str(other), str(sample.held_back), "--db", str(db), "--workers", "1"]
    ingest = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    beside = 0
    while ingest.poll() is None:
        st.cache_data.clear()  # every run reads the store afresh while the ingest works
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert not at.error, [e.value for e in at.error]
        beside += 1
    out, err = ingest.communicate()
    assert ingest.returncode == 0, out + err
    assert beside >= 2, "the dashboard did not run while the ingest did"

    at.run()  # the next refresh: no cache cleared, the store's stamp has changed
    assert at.selectbox(key="standings_tournament").options == [
        "Simulated Open 1 (sim-open-1)",
        "Simulated Open 2 (sim-open-2)",
    ]
    assert next(m.value for m in at.metric if m.label == "Games") == "4"
    at.selectbox(key="standings_tournament").set_value("sim-open-2").run()
    assert next(m.value for m in at.metric if m.label == "Games") == preliminary == "30"
    assert any("intact" in s.value for s in at.success)
