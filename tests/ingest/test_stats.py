"""Where an ingest's time goes (:class:`ingest.stats.IngestStats`), as ``benchmarks/ingest.py``
prints it: the writer's steps are recorded, and a commit DuckDB made a checkpoint of is
told apart from a plain one (at the end of a long ingest it is the run's longest step)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import WRITER, ingest
from ingest.stats import IngestStats
from ingest.store import CHECKPOINTED_COMMIT, Store
from ingest.store.commits import transaction
from tests.ingest.test_ingest import write_game


def _wal(db: Path) -> Path:
    return db.with_name(db.name + ".wal")


@pytest.mark.parametrize(("threshold", "step"), [("1GB", "commit"), ("1KB", CHECKPOINTED_COMMIT)])
def test_a_commit_is_timed_apart_when_duckdb_checkpoints_it(tmp_path: Path, threshold: str, step: str) -> None:
    db = tmp_path / "store.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t (a VARCHAR)")
        con.execute("CHECKPOINT")
        con.execute(f"SET checkpoint_threshold = '{threshold}'")
        stats = IngestStats()
        with transaction(con, stats, _wal(db)):
            con.execute("INSERT INTO t SELECT repeat('x', 100) FROM range(10000)")
        assert list(stats.seconds) == [step]
        assert _wal(db).exists() is (step == "commit")
        assert con.execute("SELECT count(*) FROM t").fetchall() == [(10_000,)]


def test_a_rolled_back_transaction_times_no_commit(tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t (a INTEGER)")
        stats = IngestStats()
        with pytest.raises(RuntimeError), transaction(con, stats, _wal(db)):
            con.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("a file's surprise")
        assert stats.seconds == {}
        assert con.execute("SELECT count(*) FROM t").fetchall() == [(0,)]


def test_an_ingest_records_the_writers_steps(tmp_path: Path) -> None:
    for n in range(3):
        write_game(tmp_path / "logs" / f"g{n}.jsonl", f"stats:{n}")
    stats = IngestStats()
    results = ingest([tmp_path / "logs"], Store(tmp_path / "store.duckdb"), workers=1, stats=stats)
    assert [r.outcome for r in results] == ["accepted"] * 3
    steps = set(stats.seconds)
    assert {WRITER, "write events", "chain (events made, hashed)", "write read models", "write uploads"} <= steps
    assert steps & {"commit", CHECKPOINTED_COMMIT}
    assert stats.seconds[WRITER] >= stats.seconds["write events"]
    assert stats.workers == 1
