"""A folder that cannot be read, under a folder given to ``audit``, ``ingest`` or
``archive build`` (a folder copied from another account): named in the report with
why, and the rest of the run goes on. pathlib's walk passed over it without a word, so
a day's logs could go missing from a run that said all was well.

The commands run as a user would: in a process of their own, without root's right to
read every folder (as root, ``setpriv`` drops it), on a folder whose permissions say no.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from events.folders import cannot_read, walk
from events.logfile import write_log
from events.simulate.game import GameSpec, simulate_game
from ingest.lake.build import listing
from ingest.pipeline import collect

WITHOUT_OVERRIDE = "-dac_override,-dac_read_search"
AS_A_USER = ["setpriv", "--bounding-set", WITHOUT_OVERRIDE, "--inh-caps", WITHOUT_OVERRIDE] if os.geteuid() == 0 else []
SAID = "cannot read the folder: Permission denied (the files in it were not looked at)"


@pytest.fixture
def logs(tmp_path: Path) -> Iterator[Path]:
    """``logs/`` with a good log, and ``logs/locked/`` (a log in it) that no one may list."""
    folder = tmp_path / "logs"
    (folder / "locked").mkdir(parents=True)
    text = write_log(simulate_game(GameSpec(game_id="g1", players=("ann", "bob", "cy", "dee", "eve"), seed=1)))
    (folder / "good.jsonl").write_text(text, encoding="utf-8")
    (folder / "locked" / "hidden.jsonl").write_text(text.replace('"g1"', '"g2"'), encoding="utf-8")
    (folder / "locked").chmod(0)
    yield folder
    (folder / "locked").chmod(0o755)  # for pytest to remove it


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [*AS_A_USER, sys.executable, "-m", "cli.main", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "400"})


def test_audit_names_the_folder_it_cannot_read(logs: Path) -> None:
    result = run("audit", logs, "--json")
    reports = {r["file"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert result.returncode == 2, result.stderr  # a file unreadable
    assert reports[str(logs / "good.jsonl")]["status"] == "clean"
    locked = reports[str(logs / "locked")]
    assert locked["status"] == "unreadable"
    assert [f["message"] for f in locked["violations"]] == [SAID]


def test_ingest_rejects_the_folder_it_cannot_read_and_stores_the_rest(logs: Path, tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    result = run("ingest", logs, "--db", store, "--workers", "1")
    said = " ".join(result.stdout.split())
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"│ {logs / 'locked'} │ rejected │ │ {SAID} │" in said, said
    assert "│ 1 │ 0 │ 1 │ 0 │" in said, said  # accepted, with findings, rejected, duplicate
    with duckdb.connect(str(store), read_only=True) as con:
        assert con.execute("SELECT game_id FROM games").fetchall() == [("g1",)]


def test_archive_build_rejects_the_folder_as_ingest_does(logs: Path, tmp_path: Path) -> None:
    result = run("archive", "build", logs, "--to", tmp_path / "lake", "--workers", "1")
    said = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 1, said
    assert "1 accepted, 0 accepted with findings, 1 rejected, 0 duplicate" in said, said
    assert f"rejected {logs / 'locked'}: {SAID}" in said, said


def test_the_walks_give_the_folder_in_the_place_of_its_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the order of the paths as strings, as each command takes them; a folder that
    can be read again is walked again."""
    for name in ("a.jsonl", "b/c.jsonl", "b0.jsonl", "t.json"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("{}\n")
    real = os.scandir

    def scandir(path: str | Path) -> object:
        if Path(path) == tmp_path / "b":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    logs = [str(tmp_path / n) for n in ("a.jsonl", "b", "b0.jsonl")]
    assert list(walk(tmp_path, lambda name: name.endswith(".jsonl"))) == logs
    assert list(walk(tmp_path, lambda name: name.endswith(".jsonl"), unreadable=False)) == logs[::2]
    assert [str(p) for p in collect([tmp_path])] == [str(tmp_path / "t.json"), *logs]
    assert [name for name, *_ in listing([str(tmp_path)])] == [str(tmp_path / "t.json"), *logs]
    said = cannot_read(tmp_path / "b", IsADirectoryError(21, "Is a directory"))
    assert said.english() == SAID
    monkeypatch.setattr(os, "scandir", real)
    assert list(walk(tmp_path, lambda name: name.endswith(".jsonl")))[1] == str(tmp_path / "b" / "c.jsonl")
    shutil.rmtree(tmp_path / "b")
