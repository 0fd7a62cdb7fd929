"""The Audit page's list of open findings on a tournament whose findings name no player
or line: a game of four rounds where a preliminary game plays three (``wrong_rounds``,
the game's own finding)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.store import Store
from tests.analytics.test_standings import PLAYERS, T1, T2, TID, description, put, sheet
from tests.dashboard.conftest import PASSWORD, log_in, run_page


def test_a_finding_of_no_player_shows_a_dash_not_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its player (and line) showed as Streamlit's grey "None" in every language."""
    store = Store(tmp_path / "hand.duckdb")
    assert put(store, tmp_path / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    assert put(store, tmp_path / "r1-t1.csv", sheet("hand:r1:t1", T1)) == "accepted"
    four = {**T2, 4: T2[3]}  # a fourth round: the game's own finding, of no player
    assert put(store, tmp_path / "r1-t2.csv", sheet("hand:r1:t2", four, table="2")) == "accepted"
    monkeypatch.setenv("SABOTEUR_DB", str(store.path))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    at = log_in(run_page("audit"), PASSWORD)
    assert not at.exception
    found = at.dataframe[0].value
    assert len(found) and not found.isna().any().any(), found
    assert "–" in set(found["player"])
    # what each finding is stands first, the ids a command takes last (first, they hid
    # the player and the finding past a laptop's edge)
    columns = list(found.columns)
    assert columns[-2:] == ["game_id", "finding_id"] and columns.index("player") < columns.index("message"), columns
