"""A damaged store file gives one clear line, never a DuckDB traceback (issue 10, point 8).

On ``main`` before this, a truncated file, flipped bytes, a file that is not DuckDB
and a store missing its ``findings`` or ``events`` table gave raw DuckDB tracebacks
from ``verify`` and ``standings``. Every command that opens the store, and every page
of the dashboard, now says in one line what is wrong with which file (exit 2), from
one place: :meth:`ingest.store.Store.connect` turns whatever DuckDB raises into a
:class:`~ingest.store.StoreError`, and the command line reports it the same way for
every command.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.store import Store, StoreError, StoreUnusable
from tests.ingest.conftest import TOURNAMENT, cli, one_line, page_error, sql

BLOCK = 256 * 1024
"""DuckDB's block size: the file is three 4 KiB headers, then blocks of this size."""


def truncated(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])


def cut_short(db: Path) -> None:
    db.write_bytes(db.read_bytes()[:5000])


def emptied(db: Path) -> None:
    db.write_bytes(b"")


def flipped(db: Path) -> None:
    """64 bytes flipped at the start of every block (past its checksum)."""
    data = bytearray(db.read_bytes())
    for start in range(3 * 4096, len(data), BLOCK):
        data[start + 8 : start + 72] = bytes(b ^ 0x5A for b in data[start + 8 : start + 72])
    db.write_bytes(bytes(data))


def flipped_header(db: Path) -> None:
    """Bytes flipped in the database header that names the newest checkpoint."""
    data = bytearray(db.read_bytes())
    data[4096 + 16 : 4096 + 48] = bytes(b ^ 0xFF for b in data[4096 + 16 : 4096 + 48])
    db.write_bytes(bytes(data))


def text(db: Path) -> None:
    db.write_text("player,points\nann,3\n" * 100, encoding="utf-8")


def sqlite(db: Path) -> None:
    db.unlink()
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE games (game_id TEXT)")
    con.commit()
    con.close()


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": truncated,
    "cut to 5000 bytes": cut_short,
    "zero bytes": emptied,
    "flipped bytes": flipped,
    "flipped header": flipped_header,
    "text": text,
    "sqlite": sqlite,
}

COMMANDS = {
    "verify": ("verify",),
    "standings": ("standings", TOURNAMENT),
    "stats": ("stats", "roles"),
    "tournament log": ("tournament", "log", TOURNAMENT),
    "rebuild": ("rebuild",),
    "ingest": ("ingest", "LOG", "--workers", "1"),
    "penalty": ("tournament", "penalty", TOURNAMENT, "p1", "--points", "1", "--reason", "late"),
}


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"not a log\n")
    return path


def command(name: str, db: Path, log: Path) -> list[str | Path]:
    return [log if arg == "LOG" else arg for arg in COMMANDS[name]] + ["--db", db]


@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_damaged_file_gives_one_line_naming_it(store_file: Path, log_file: Path, damage: str, name: str) -> None:
    DAMAGE[damage](store_file)
    result = cli(*command(name, store_file, log_file))
    if damage == "truncated" and result.exit_code in (0, 1):
        # a file cut short still serves what lies before the cut; verify reads it all
        assert cli("verify", "--db", store_file).exit_code == 2
        return
    assert result.exit_code == 2, result.output
    line = one_line(result)
    assert str(store_file) in line, line
    assert "not a DuckDB database" in line or "damaged" in line, line


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_the_library_raises_a_store_error_naming_the_file(store_file: Path, damage: str) -> None:
    DAMAGE[damage](store_file)
    with pytest.raises(StoreUnusable) as raised, Store(store_file).connect(read_only=True) as con:
        con.execute("SELECT count(sha256(raw)) FROM uploads").fetchall()  # every block of every upload
    assert str(raised.value).startswith(f"{store_file}: ")
    assert str(store_file) not in raised.value.problem  # what a public page may show


@pytest.mark.parametrize("name", [n for n in COMMANDS if n != "rebuild"])
def test_a_dropped_findings_table_is_named_and_rebuild_repairs_it(store_file: Path, log_file: Path, name: str) -> None:
    sql(store_file, "DROP TABLE findings")
    result = cli(*command(name, store_file, log_file))
    assert result.exit_code == 2, result.output
    line = one_line(result)
    assert str(store_file) in line and "findings table is missing" in line and "saboteur rebuild" in line, line
    assert cli("verify", "--chain-only", "--db", store_file).exit_code == 0  # the events are intact
    result = cli("rebuild", "--db", store_file)
    assert result.exit_code == 0, result.output
    assert cli("verify", "--db", store_file).exit_code == 0


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_dropped_events_table_is_named(store_file: Path, log_file: Path, name: str) -> None:
    sql(store_file, "DROP TABLE events")
    result = cli(*command(name, store_file, log_file))
    assert result.exit_code == 2, result.output
    line = one_line(result)
    assert str(store_file) in line and "events table is missing" in line, line


def test_what_duckdb_raises_during_a_job_is_a_store_error(store_file: Path) -> None:
    """Whatever DuckDB raises once the store is open comes out as a :class:`StoreError`
    naming the file, never as DuckDB's own exception."""
    with pytest.raises(StoreError) as raised, Store(store_file).connect(read_only=True) as con:
        con.execute("SELECT * FROM no_such_table").fetchall()
    assert str(raised.value).startswith(f"{store_file}: ")
    assert "no_such_table" in str(raised.value)


PAGES = ("standings", "roles", "players", "rounds", "replay")


@pytest.mark.parametrize("damage", ["truncated", "text", "drop findings", "drop events"])
@pytest.mark.parametrize("page", PAGES)
def test_the_dashboards_pages_say_one_line(
    store_file: Path, monkeypatch: pytest.MonkeyPatch, damage: str, page: str
) -> None:
    if damage.startswith("drop "):
        sql(store_file, f"DROP TABLE {damage.removeprefix('drop ')}")
    else:
        DAMAGE[damage](store_file)
    error = page_error(store_file, page, monkeypatch)
    assert "cannot be read" in error, error
    assert str(store_file.parent) not in error  # a public page names no server folder


def test_a_commit_duckdb_could_not_finish_is_not_called_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of its memory at a commit, DuckDB stops every job of the process with "database
    has been invalidated": the file keeps every commit before (an ingest with
    ``SABOTEUR_DB_MEMORY=32MB`` stopped at its second batch, and ``saboteur verify``
    passed its first). The error says so, with DuckDB's reason and the setting to raise,
    not "damaged"."""
    import duckdb

    monkeypatch.setenv("SABOTEUR_DB_MEMORY", "32MB")
    store = Store(tmp_path / "s.duckdb")
    fatal = duckdb.FatalException(
        "FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be "
        'restarted prior to being used again.\nOriginal error: "Failed to flush table uploads during commit: failed '
        f'to pin block of size 256.0 KiB (30.2 MiB/30.5 MiB used) in {tmp_path}/spill/x.tmp\n\nPossible solutions: …"'
    )
    with pytest.raises(StoreError) as raised, store.connect():
        raise fatal
    assert not isinstance(raised.value, StoreUnusable)
    said = str(raised.value)
    assert "damaged" not in said
    assert "DuckDB stopped after a commit it could not finish (Failed to flush table uploads during commit" in said
    assert "the store keeps every one before it" in said and "$SABOTEUR_DB_MEMORY is 32MB" in said
    assert str(tmp_path) not in said.split(":", 1)[1]  # no path of the machine but the store's own name


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_store_whose_name_is_not_utf8_is_one_line(
    store_file: Path, tmp_path: Path, log_file: Path, name: str
) -> None:
    """DuckDB cannot open a file whose name's bytes are not UTF-8: it raised a bare
    RuntimeError (std::bad_cast), a traceback of every command, exit 1, the name shown
    with a raw surrogate."""
    import os
    import shutil

    odd = tmp_path / os.fsdecode(b"bad\xff.duckdb")
    shutil.copyfile(store_file, odd)
    result = cli(*command(name, odd, log_file))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    line = one_line(result)
    assert line.startswith(str(tmp_path / "bad\\xff.duckdb")) and "not UTF-8" in line, line
