"""A batch written a run of files at a time (:data:`ingest.pipeline.RUN_FILES`) as the
workers hand them over: the same store as a batch written at once, a game superseded
within one batch, a failure to read the files that stores nothing of the batch, and the
pool's tasks and workers."""

from __future__ import annotations

import os
import pickle
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest.mock import patch

import duckdb
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from ingest import pipeline
from ingest import store as store_module
from ingest.pipeline import Writer, _tasks, ingest, write_all
from ingest.readmodels import TournamentPlayerRow
from ingest.sources import Prepared, prepare
from ingest.stats import IngestStats
from ingest.store import Store
from ingest.tables import ArrowColumns, Columns, joined
from ingest.workers import WORKER_NICENESS, process_pool
from tests.ingest.test_ingest import (
    EXAMPLE_SHEET,
    _two_versions,
    frame,
    missed_draw_log,
    query,
    read_models,
    uploads,
    write_game,
)

ENVELOPE = "SELECT position, stream, version, type, payload, upload_id, line FROM events ORDER BY position"
UPLOADS = (
    "SELECT upload_id, sha256, name, kind, outcome, status, game_ids, duplicate_of, supersedes, reason, report, raw "
    "FROM uploads ORDER BY upload_id"
)


def logs(folder: Path, count: int) -> list[Path]:
    folder.mkdir()
    paths = []
    for index in range(count):
        path = folder / f"g{index}.jsonl"
        write_game(path, f"runs:{index}", players=("ann", "bob", "cem", "dia", "eve"), seed=index)
        paths.append(path)
    (folder / "copy.jsonl").write_bytes(paths[1].read_bytes())  # the same content as g1
    return [*paths, folder / "copy.jsonl"]


def test_a_batch_in_runs_stores_what_it_stores_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = logs(tmp_path / "logs", 7)
    whole, runs = tmp_path / "whole.duckdb", tmp_path / "runs.duckdb"
    at_once = ingest(files, Store(whole), workers=1)
    monkeypatch.setattr(pipeline, "RUN_FILES", 2)
    in_runs = ingest(files, Store(runs), workers=1)
    assert [(r.name, r.outcome, r.upload_id, r.message) for r in in_runs] == [
        (r.name, r.outcome, r.upload_id, r.message) for r in at_once
    ]
    by_name = {Path(r.name).name: r for r in in_runs}  # the copy is read first, g1 in a later run
    assert by_name["g1.jsonl"].outcome == "duplicate"
    assert by_name["g1.jsonl"].message == f"the same content as upload {by_name['copy.jsonl'].upload_id}"
    assert_frame_equal(frame(whole, ENVELOPE), frame(runs, ENVELOPE))
    assert_frame_equal(frame(whole, UPLOADS), frame(runs, UPLOADS))
    left, right = read_models(whole), read_models(runs)
    for table in left:
        assert_frame_equal(left[table], right[table], check_exact=True)
    # one transaction: every event of the batch shares its time, every upload links to its end
    assert query(runs, "SELECT count(DISTINCT recorded_at) FROM events") == [(1,)]
    head = query(runs, "SELECT max(position) FROM events")[0][0]
    assert query(runs, "SELECT DISTINCT position FROM upload_chain") == [(head,)]


@pytest.mark.parametrize("run_files", [1, 128])
def test_a_game_superseded_within_one_batch_is_as_if_ingested_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_files: int
) -> None:
    """Both versions of a game in one run (or in two runs of one batch): the second
    supersedes the first, as two ingests one after the other would have it."""
    monkeypatch.setattr(pipeline, "RUN_FILES", run_files)
    v1, v2, _, _ = _two_versions(tmp_path)
    together, apart = tmp_path / "together.duckdb", tmp_path / "apart.duckdb"
    results = ingest([v1, v2], Store(together), supersede=True, reason="fixed", workers=1)
    assert [r.outcome for r in results] == ["accepted", "accepted"]
    ingest([v1], Store(apart), workers=1)
    ingest([v2], Store(apart), supersede=True, reason="fixed", workers=1)

    columns = "SELECT stream, version, type, payload, upload_id, line FROM events ORDER BY position"
    assert_frame_equal(frame(together, columns), frame(apart, columns))
    first, second = uploads(together)
    assert (first["supersedes"], second["supersedes"], second["reason"]) == (None, 1, "fixed")
    assert query(together, "SELECT game_id, upload_id, revision FROM games") == [("spring-cup:r1:t3", 2, 2)]
    left, right = read_models(together), read_models(apart)
    for table in left:
        assert_frame_equal(left[table], right[table], check_exact=True)


def test_a_pool_stores_what_the_writer_alone_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a pool, files come back from the workers a task at a time: across tasks and
    runs, with a duplicate, a game stored anew in the same batch and a score sheet,
    the store is the one the writer makes auditing the files itself."""
    monkeypatch.setattr(pipeline, "TASK_FILES", 3)
    monkeypatch.setattr(pipeline, "FIRST_RUN_FILES", 2)
    monkeypatch.setattr(pipeline, "RUN_FILES", 4)
    files = logs(tmp_path / "logs", 6)
    v1, v2, _, _ = _two_versions(tmp_path)
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(EXAMPLE_SHEET.read_bytes())
    every = [*files, v1, sheet, v2]
    alone, pooled = tmp_path / "alone.duckdb", tmp_path / "pooled.duckdb"
    by_writer = ingest(every, Store(alone), supersede=True, reason="fixed", workers=1)
    by_pool = ingest(every, Store(pooled), supersede=True, reason="fixed", workers=2)
    assert [(r.name, r.outcome, r.upload_id) for r in by_pool] == [(r.name, r.outcome, r.upload_id) for r in by_writer]
    assert {r.outcome for r in by_pool} == {"accepted", "duplicate"}
    assert_frame_equal(frame(alone, ENVELOPE), frame(pooled, ENVELOPE))
    assert_frame_equal(frame(alone, UPLOADS), frame(pooled, UPLOADS))
    left, right = read_models(alone), read_models(pooled)
    assert set(left) == set(right)
    for table in left:
        assert_frame_equal(left[table], right[table], check_exact=True)
    assert query(pooled, "SELECT revision FROM games WHERE game_id = 'spring-cup:r1:t3'") == [(2,)]


class WorkerDied(RuntimeError):
    pass


def test_a_failure_reading_the_files_stores_nothing_of_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audited files run out with an error (a worker that died) in the second batch:
    the first batch is stored, nothing of the second, and the error ends the run."""
    monkeypatch.setattr(pipeline, "BATCH_FILES", 3)
    monkeypatch.setattr(pipeline, "RUN_FILES", 2)
    monkeypatch.setattr(pipeline, "TURN", 0.0)
    files = logs(tmp_path / "logs", 6)
    db = tmp_path / "s.duckdb"

    def audited() -> Iterator[Prepared]:
        for index, path in enumerate(files):
            if index == 5:
                raise WorkerDied("a worker died")
            yield prepare(path)

    told: list[str] = []
    with pytest.raises(WorkerDied, match="a worker died"):
        write_all(audited(), Writer(Store(db)), lambda result: told.append(result.name))
    assert told == [str(path) for path in files[:3]]
    assert query(db, "SELECT count(*) FROM uploads") == [(3,)]
    stored = frame(db, "SELECT DISTINCT stream FROM events ORDER BY stream")
    assert stored["stream"].to_list() == ["game:runs:0", "game:runs:1", "game:runs:2"]


def test_tasks_hold_a_few_files_or_a_few_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "TASK_FILES", 3)
    monkeypatch.setattr(pipeline, "TASK_BYTES", 100)
    sizes = [10, 10, 10, 10, 150, 10, 60, 60, 10]
    files = []
    for index, size in enumerate(sizes):
        path = tmp_path / f"{index}.jsonl"
        path.write_bytes(b"x" * size)
        files.append(path)
    tasks = list(_tasks(files))
    assert [[int(p.stem) for p in paths] for paths, _ in tasks] == [[0, 1, 2], [3, 4], [5, 6, 7], [8]]
    assert [size for _, size in tasks] == [30, 160, 130, 10]


def runs_added(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The files of each run the writer appends, as it appends them."""
    added: list[int] = []
    add = store_module.Appending.add

    def counted(self: store_module.Appending, *args: Any, **kwargs: Any) -> None:
        add(self, *args, **kwargs)
        added.append(len(kwargs["uploads"]))

    monkeypatch.setattr(store_module.Appending, "add", counted)
    return added


def test_a_batchs_runs_start_small_and_double(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer starts on a batch once its first run is audited: a small one."""
    monkeypatch.setattr(pipeline, "RUN_FILES", 10)
    runs = list(pipeline._runs(iter(range(40)), 3))  # type: ignore[arg-type]
    assert [len(run) for run in runs] == [3, 6, 10, 10, 10, 1]
    assert [item for run in runs for item in run] == list(range(40))


def test_only_the_first_batch_of_a_run_starts_with_a_small_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "BATCH_FILES", 4)
    monkeypatch.setattr(pipeline, "FIRST_RUN_FILES", 1)
    monkeypatch.setattr(pipeline, "RUN_FILES", 3)
    monkeypatch.setattr(pipeline, "TURN", 0.0)
    files = logs(tmp_path / "logs", 9)
    added = runs_added(monkeypatch)
    ingest(files, Store(tmp_path / "s.duckdb"), workers=1)
    assert added == [1, 2, 1, 3, 3]  # a batch of 4 files (1, 2, 1), then one of the 6 left (a copy among them)


def _niceness() -> int:
    return os.nice(0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no nice() here")
def test_workers_yield_the_processor_to_the_writer() -> None:
    with process_pool(2) as pool:
        assert pool is not None
        niceness = pool.submit(_niceness).result(timeout=60)
    assert niceness == min(os.nice(0) + WORKER_NICENESS, 19)


def test_the_writer_reads_the_files_as_it_writes_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer asks for a run of files once it has stored the run before, so the
    workers audit while it writes: the batch is read lazily, not gathered first."""
    monkeypatch.setattr(pipeline, "RUN_FILES", 2)
    files = logs(tmp_path / "logs", 5)
    added = runs_added(monkeypatch)
    runs_stored_when_asked: list[int] = []

    def audited() -> Iterator[Prepared]:
        for path in files:
            runs_stored_when_asked.append(len(added))
            yield prepare(path)

    write_all(audited(), Writer(Store(tmp_path / "s.duckdb")))
    assert added == [2, 2, 2]
    assert runs_stored_when_asked == [0, 0, 1, 1, 2, 2]


# -- a task's rows, packed in the worker -------------------------------------------------


def test_a_tasks_rows_come_back_to_each_file_as_it_audited_them(tmp_path: Path) -> None:
    """A worker sends a task's rows as one Arrow table a table (``AuditedTask``); each
    file gets back exactly its own rows, through a pickle as the pool sends them, a file
    with no rows between files with rows included."""
    files = logs(tmp_path / "logs", 3)[:3]
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(EXAMPLE_SHEET.read_bytes())
    broken = tmp_path / "broken.jsonl"
    broken.write_text("no JSON at all\n")
    order = [files[0], broken, sheet, files[1], files[2]]
    alone = [prepare(path) for path in order]
    task = pickle.loads(pickle.dumps(pipeline.audited_all(order)))
    assert all(not prepared.rows for prepared, _ in task.files)  # sent without them
    back = [prepared for prepared, _ in task.unpacked()]
    assert [p.name for p in back] == [p.name for p in alone]
    for own, returned in zip(alone, back, strict=True):
        assert set(returned.rows) == set(own.rows), own.name
        for table, columns in own.rows.items():
            assert isinstance(returned.rows[table], ArrowColumns)
            assert returned.rows[table].arrow().to_pylist() == columns.arrow().to_pylist(), (own.name, table)
        assert replace(returned, rows={}, streams={}) == replace(own, rows={}, streams={})
        assert {s: list(e) for s, e in returned.streams.items()} == {s: list(e) for s, e in own.streams.items()}
    assert not back[1].rows and back[1].status == "unreadable"


def test_each_files_rows_carry_its_own_upload_and_each_game_its_revision(tmp_path: Path) -> None:
    """The writer stamps a run's rows at once, a column a table: every game's rows name
    the upload that brought it, with a pool or without, and a game stored anew in the
    same batch is at its second revision."""
    files = logs(tmp_path / "logs", 4)
    v1, v2, _, _ = _two_versions(tmp_path)
    missed = [tmp_path / "missed-1.jsonl", tmp_path / "missed-2.jsonl"]  # with findings
    for number, path in enumerate(missed, start=1):
        path.write_text(missed_draw_log(f"missed:{number}").text())
    for workers in (1, 2):
        db = tmp_path / f"w{workers}.duckdb"
        ingest([*files, missed[0], v1, missed[1], v2], Store(db), supersede=True, reason="fixed", workers=workers)
        brought = {
            game: upload_id
            for upload_id, games in query(db, "SELECT upload_id, game_ids FROM uploads WHERE outcome LIKE 'accepted%'")
            for game in games
        }
        assert len(brought) == 7
        assert dict(query(db, "SELECT game_id, upload_id FROM games")) == brought, workers
        found = dict(query(db, "SELECT DISTINCT game_id, upload_id FROM findings"))
        assert found == {game: brought[game] for game in ("missed:1", "missed:2")}, workers
        revisions = dict(query(db, "SELECT game_id, revision FROM games"))
        assert revisions.pop("spring-cup:r1:t3") == 2 and set(revisions.values()) == {1}, workers


def test_rows_of_plain_values_and_of_arrow_join_into_one_table_of_one_chunk() -> None:
    def player(name: str) -> TournamentPlayerRow:
        return TournamentPlayerRow(tournament="t", player=name.lower(), name=name)

    plain = Columns.of(TournamentPlayerRow, [player("Ann")])
    arrow = ArrowColumns(TournamentPlayerRow, Columns.of(TournamentPlayerRow, [player("Bob")]).arrow())
    both = joined([plain, arrow, arrow.slice(0, 0)])
    assert isinstance(both, ArrowColumns) and both.table.column(0).num_chunks == 1
    assert both.values("player") == ["ann", "bob"]
    only_plain = joined([plain, plain])
    assert isinstance(only_plain, Columns) and only_plain.values("name") == ["Ann", "Ann"]
    assert both.with_column("name", ["X", "Y"]).values("name") == ["X", "Y"]
    with pytest.raises(ValueError, match="1 values for 2 rows"):
        both.with_column("name", ["X"])


# -- taking turns with the store -----------------------------------------------------------


def test_a_job_waiting_for_the_store_says_so_until_it_is_in(tmp_path: Path) -> None:
    """A job that finds the file held says so at every try (a file beside the store),
    and takes it back once it is in; the holder sees it between its transactions."""
    db = tmp_path / "s.duckdb"
    store = Store(db, wait=20)
    with store.connect():
        pass
    assert not store.someone_waiting()
    holder = duckdb.connect(str(db))  # another job holding the file, writing
    opened = threading.Event()

    def reader() -> None:
        with store.connect(read_only=True):
            opened.set()

    waiter = threading.Thread(target=reader)
    waiter.start()
    deadline = time.monotonic() + 10
    while not store.someone_waiting() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert store.someone_waiting() and not opened.is_set()
    holder.close()
    waiter.join(timeout=20)
    assert opened.is_set()
    assert not store.someone_waiting() and not (tmp_path / "s.duckdb.waiting").exists()


def test_a_waiter_killed_long_ago_is_not_believed(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.duckdb")
    marker = tmp_path / "s.duckdb.waiting"
    marker.touch()
    assert store.someone_waiting()
    old = time.time() - 2 * store_module.WAITING_FRESH
    os.utime(marker, (old, old))
    assert not store.someone_waiting()


@pytest.mark.parametrize("waiting", [False, True])
def test_the_writer_leaves_the_store_a_turn_between_batches_only_when_a_job_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, waiting: bool
) -> None:
    monkeypatch.setattr(pipeline, "BATCH_FILES", 2)
    monkeypatch.setattr(pipeline, "MOST_FILES", 2)
    pauses: list[float] = []
    monkeypatch.setattr(pipeline.time, "sleep", pauses.append)
    db = tmp_path / "s.duckdb"
    store = Store(db)
    monkeypatch.setattr(store, "someone_waiting", lambda: waiting)
    results = ingest(logs(tmp_path / "logs", 4), store, workers=1)
    assert len(results) == 5  # batches of two, two and one
    assert pauses == ([pipeline.TURN, pipeline.TURN] if waiting else [])


class _Done:
    """A task the fake pool has done: no files back (the count of tasks is the point)."""

    def unpacked(self) -> list[tuple[Prepared, float]]:
        return []


class _Counting:
    """A pool that does each task at once, and counts the tasks sent and not yet taken
    back by the writer: the most the run ever had in flight."""

    def __init__(self) -> None:
        self.sent = self.taken = self.most = 0

    def submit(self, function: object, paths: list[Path]) -> _Sent:
        self.sent += 1
        self.most = max(self.most, self.sent - self.taken)
        return _Sent(self)


class _Sent:
    """A task sent to :class:`_Counting`, taken back by its :meth:`result`."""

    def __init__(self, pool: _Counting) -> None:
        self.pool = pool

    def result(self) -> _Done:
        self.pool.taken += 1
        return _Done()


@settings(max_examples=60, deadline=None)
@example(sizes=[0] * 12)  # tasks of three files: the window of nine files is full at three
@example(sizes=[25] * 6)  # a file a task: two fill the 50 bytes in flight
@given(sizes=st.lists(st.sampled_from([0, 5, 10, 15, 20, 25, 30, 40]), max_size=30))  # sums meet the bounds exactly
def test_the_workers_a_run_can_keep_busy_are_the_tasks_it_ever_has_in_flight(sizes: list[int]) -> None:
    """:func:`ingest.pipeline.in_flight_at_most` foretells, from the files' sizes alone,
    the most tasks the run sends the pool before taking one back: no worker past it is
    ever busy, and none short of it is spared."""
    with (
        tempfile.TemporaryDirectory() as folder,
        patch.object(pipeline, "TASK_FILES", 3),
        patch.object(pipeline, "TASK_BYTES", 20),
        patch.object(pipeline, "IN_FLIGHT", 50),
        patch.object(pipeline, "WINDOW", 9),
    ):
        files = []
        for index, size in enumerate(sizes):
            path = Path(folder) / f"f{index:02}.jsonl"
            path.write_bytes(b"x" * size)
            files.append(path)
        pool = _Counting()
        for _ in pipeline._prepared(files, pool):  # type: ignore[arg-type]
            pass
        assert pipeline.in_flight_at_most(files) == pool.most


def test_an_ingest_starts_no_worker_its_files_in_flight_cannot_keep_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four workers asked for, but the files' bytes let two tasks be in flight at once
    (as four 16 MiB logs do under 32 MiB): two workers audit them, and every file is
    stored as with one."""
    files = logs(tmp_path / "logs", 6)
    task = max(f.stat().st_size for f in files)
    monkeypatch.setattr(pipeline, "TASK_BYTES", 1)  # a file a task
    monkeypatch.setattr(pipeline, "IN_FLIGHT", task + 1)  # two tasks in flight at most
    assert pipeline.in_flight_at_most(files) == 2
    stats = IngestStats()
    results = ingest(files, Store(tmp_path / "pooled.duckdb"), workers=4, stats=stats)
    assert stats.workers == 2
    alone = ingest(files, Store(tmp_path / "alone.duckdb"), workers=1)
    assert [(r.name, r.outcome) for r in results] == [(r.name, r.outcome) for r in alone]
    assert_frame_equal(frame(tmp_path / "alone.duckdb", ENVELOPE), frame(tmp_path / "pooled.duckdb", ENVELOPE))


def test_a_log_near_the_format_s_limit_is_audited_alone(tmp_path: Path) -> None:
    """A worker auditing a 16 MiB log holds some 110 MiB: two at once beside the writer
    took four such logs to 456–516 MiB. A log of 12 MiB or more is in flight alone, so
    four of them start no pool; smaller logs still go two or more at a time."""
    from events.logfile import MAX_FILE_BYTES

    def sized(name: str, size: int) -> Path:
        path = tmp_path / name
        with path.open("wb") as handle:
            handle.truncate(size)  # a sparse file: only its size is read here
        return path

    near_limit = [sized(f"big{i}.jsonl", MAX_FILE_BYTES - 37) for i in range(4)]
    assert pipeline.in_flight_at_most(near_limit) == 1
    assert pipeline.in_flight_at_most([sized(f"mid{i}.jsonl", 6 * 2**20) for i in range(4)]) == 2
    small = [sized(f"game{i:03}.jsonl", 25_000) for i in range(400)]
    assert pipeline.in_flight_at_most([*small, *near_limit]) >= 16  # games: 16 files a task
