"""Read-only means read-only (issue 10, point 3).

On ``main`` before this, ``verify`` or ``stats`` on a DuckDB file that was not a store
"migrated" it, replacing the user's own ``games`` table with an empty one; ``verify``
on a store whose ``meta`` rows were gone dropped every read model; and any read command
with a mistyped ``--db`` left an empty store behind. Now the commands that only read
open the file read-only and refuse — one line, exit 2, the file untouched — a file that
does not exist, a DuckDB file that is not a store, and a store of another schema
version. Only ``ingest``, the ``tournament`` commands that record and ``rebuild``
create a store or upgrade one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from ingest.schema import SCHEMA_VERSION
from ingest.store import Store, StoreUnusable
from tests.ingest.conftest import TOURNAMENT, cli, one_line, page_error, sql

READING = {
    "verify": ("verify",),
    "verify --chain-only": ("verify", "--chain-only"),
    "stats roles": ("stats", "roles"),
    "stats players": ("stats", "players"),
    "stats games": ("stats", "games"),
    "standings": ("standings", TOURNAMENT),
    "tournament log": ("tournament", "log", TOURNAMENT),
    "tournament check": ("tournament", "check", TOURNAMENT),
}
"""Every command that only reads the store, as typed (``--db`` added)."""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def foreign(tmp_path: Path) -> Path:
    """A DuckDB file of someone else's, with a ``games`` table of their own."""
    db = tmp_path / "mine.duckdb"
    sql(db, "CREATE TABLE games (title VARCHAR, year INTEGER)")
    sql(db, "INSERT INTO games VALUES ('Saboteur', 2004), ('Carcassonne', 2000)")
    return db


def test_a_missing_file_is_refused_and_not_created(tmp_path: Path) -> None:
    db = tmp_path / "typo.duckdb"
    for args in READING.values():
        result = cli(*args, "--db", db)
        assert result.exit_code == 2, result.output
        assert "no such file" in one_line(result) and str(db) in result.output.replace("\n", "")
        assert not db.exists()
    with pytest.raises(StoreUnusable, match="no such file"), Store(db).connect(read_only=True):
        pass
    assert not db.exists()


@pytest.mark.parametrize("command", list(READING))
def test_a_duckdb_file_that_is_no_store_is_refused_and_left_as_it_was(foreign: Path, command: str) -> None:
    before = digest(foreign)
    result = cli(*READING[command], "--db", foreign)
    assert result.exit_code == 2, result.output
    assert "not a Saboteur Ledger store" in one_line(result)
    assert digest(foreign) == before
    assert sql(foreign, "SELECT * FROM games ORDER BY year") == [("Carcassonne", 2000), ("Saboteur", 2004)]
    assert [t for (t,) in sql(foreign, "SELECT table_name FROM duckdb_tables()")] == ["games"]


def test_writing_commands_refuse_a_duckdb_file_that_is_no_store(foreign: Path, tmp_path: Path) -> None:
    """A store is never made inside someone else's database: ``ingest``, ``rebuild`` and
    the recording commands refuse it as the reading ones do."""
    log = tmp_path / "broken.jsonl"
    log.write_bytes(b"not a log\n")
    before = digest(foreign)
    for args in (
        ("ingest", log, "--workers", "1"),
        ("rebuild",),
        ("tournament", "create", "t1", "--name", "T1"),
    ):
        result = cli(*args, "--db", foreign)
        assert result.exit_code == 2, result.output
        assert "not a Saboteur Ledger store" in result.output, result.output
    assert digest(foreign) == before
    with pytest.raises(StoreUnusable), Store(foreign).connect():
        pass
    assert sql(foreign, "SELECT count(*) FROM games") == [(2,)]


def test_a_store_whose_meta_rows_are_gone_keeps_its_read_models(store_file: Path, tmp_path: Path) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_bytes(b"not a log\n")
    games = sql(store_file, "SELECT * FROM games ORDER BY game_id")
    assert games
    sql(store_file, "DELETE FROM meta")
    before = digest(store_file)
    for args in READING.values():
        result = cli(*args, "--db", store_file)
        assert result.exit_code == 2, result.output
        assert "no schema version" in one_line(result)
    for args in (("rebuild",), ("ingest", log, "--workers", "1")):
        assert cli(*args, "--db", store_file).exit_code == 2
    assert digest(store_file) == before
    assert sql(store_file, "SELECT * FROM games ORDER BY game_id") == games


def test_a_store_of_a_newer_schema_is_refused(store_file: Path) -> None:
    sql(store_file, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    before = digest(store_file)
    for args in (*READING.values(), ("rebuild",), ("tournament", "create", "t1", "--name", "T1")):
        result = cli(*args, "--db", store_file)
        assert result.exit_code == 2, result.output
        assert "schema version 99" in one_line(result) and "newer" in result.output
    assert digest(store_file) == before


def as_written_before_the_upload_chain(db: Path) -> None:
    """Make ``db`` what ``main`` wrote before schema version 2: the same tables but the
    upload chain, and schema version 1."""
    sql(db, "DROP TABLE upload_chain")
    sql(db, "UPDATE meta SET value = '1' WHERE key = 'schema_version'")


def test_a_store_of_an_older_schema_is_refused_by_readers_and_upgraded_by_rebuild(store_file: Path) -> None:
    as_written_before_the_upload_chain(store_file)
    before = digest(store_file)
    for args in READING.values():
        result = cli(*args, "--db", store_file)
        assert result.exit_code == 2, result.output
        line = one_line(result)
        assert "schema version 1" in line and "older" in line and "saboteur rebuild" in line, line
    assert digest(store_file) == before

    result = cli("rebuild", "--db", store_file)
    assert result.exit_code == 0, result.output
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert sql(store_file, "SELECT count(*) FROM upload_chain") == sql(store_file, "SELECT count(*) FROM uploads")
    result = cli("verify", "--db", store_file)
    assert result.exit_code == 0, result.output
    # from the upgrade on, the uploads received before it are covered by the chain
    sql(store_file, "UPDATE uploads SET outcome = 'accepted' WHERE upload_id = 2")
    result = cli("verify", "--db", store_file)
    assert result.exit_code == 1 and "upload 2" in result.output, result.output


def test_ingest_upgrades_an_older_store_and_appends(store_file: Path, tmp_path: Path) -> None:
    as_written_before_the_upload_chain(store_file)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"still not a log\n")
    result = cli("ingest", other, "--db", store_file, "--workers", "1")
    assert result.exit_code == 1, result.output  # the file itself is rejected
    assert sql(store_file, "SELECT count(*) FROM upload_chain") == [(6,)]
    assert cli("verify", "--db", store_file).exit_code == 0


def test_the_writing_commands_still_create_a_store(tmp_path: Path) -> None:
    created = tmp_path / "new.duckdb"
    result = cli("tournament", "create", "t1", "--name", "T1", "--db", created)
    assert result.exit_code == 0, result.output
    assert cli("tournament", "log", "t1", "--db", created).exit_code == 0
    assert cli("verify", "--db", created).exit_code == 0


@pytest.mark.parametrize("page", ["standings", "players", "rounds"])
def test_the_dashboard_reads_a_duckdb_file_that_is_no_store_without_changing_it(
    foreign: Path, monkeypatch: pytest.MonkeyPatch, page: str
) -> None:
    before = digest(foreign)
    error = page_error(foreign, page, monkeypatch)
    assert "not a Saboteur Ledger store" in error, error
    assert digest(foreign) == before


def test_the_dashboards_upload_refuses_a_duckdb_file_that_is_no_store(
    foreign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard import data

    monkeypatch.setenv("SABOTEUR_DB", str(foreign))
    before = digest(foreign)
    with pytest.raises(StoreUnusable, match="not a Saboteur Ledger store"):
        data.ingest_files([("game.jsonl", b"not a log\n")])
    assert digest(foreign) == before
