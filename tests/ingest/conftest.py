"""A small real store for the tests of the store's edges (issue 10, points 3, 4 and 8),
and the commands run in process as a person would type them.

The store is a simulated tournament (its ``tournament.json``, three games) and one file
that is no log, ingested once per session; each test gets its own copy of the file.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner, Result

from cli.main import app
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store

TOURNAMENT = "sim-open-3"
APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


@pytest.fixture(scope="session")
def small_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's store: uploads 1 (``tournament.json``), 2 (rejected: no log),
    3–5 (the games, the newest game last)."""
    root = tmp_path_factory.mktemp("small-store")
    simulate_tournament(root / "logs", players=10, preliminary_rounds=1, seed=3)
    (root / "logs" / "broken.jsonl").write_bytes(b"not a log\n")
    db = root / "small.duckdb"
    results = ingest([root / "logs"], Store(db), workers=1)
    assert [r.outcome for r in results][:2] == ["accepted", "rejected"], results
    return db


@pytest.fixture
def store_file(small_store: Path, tmp_path: Path) -> Path:
    """This test's copy of the session's store."""
    return Path(shutil.copyfile(small_store, tmp_path / "ledger.duckdb"))


def cli(*args: str | Path) -> Result:
    """A ``saboteur`` command in process: never a traceback, whatever it meets."""
    result = CliRunner().invoke(app, [str(arg) for arg in args], env={"COLUMNS": "400"})
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def one_line(result: Result) -> str:
    """The command's only line of output (a refusal says one thing)."""
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def sql(db: Path, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Raw SQL on the file through a plain DuckDB connection, as anyone with the file could."""
    con = duckdb.connect(str(db))
    try:
        return con.execute(statement, list(params)).fetchall()
    finally:
        con.close()


def page_error(db: Path, page: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A public page of the dashboard over ``db``, run: the one error it shows (and no
    exception)."""
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.delenv("SABOTEUR_ADMIN_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    if page != "standings":
        at.switch_page(f"views/{page}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = at.error
    return str(error.value)
