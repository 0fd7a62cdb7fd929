"""Faults of a build on a real cluster (issue 15): a scheduler and two worker processes
started by hand (``dask scheduler``, ``dask worker``), over TCP on loopback; the build
is the ``saboteur archive build`` command in a subprocess.

A worker killed mid-build has its batches run again on the other; a client killed
mid-build leaves committed batches committed and the others unread, and the same
command run again completes the job. Either way every game is in the lake exactly
once, and ``archive verify`` passes.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from analytics.lake import connect
from events.logfile import write_log
from events.simulate.game import quick_game
from events.simulate.mutate import mutate
from ingest.lake.layout import MANIFEST, Lake
from ingest.lake.verify import verify
from ingest.pipeline import ingest
from ingest.store import Store
from tests.venue.server import free_port

ROOT = Path(__file__).resolve().parents[2]
GAMES = 24
"""Files of the build: one a batch, so a build is two dozen tasks, a few seconds."""
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@dataclass
class Cluster:
    address: str
    workers: list[subprocess.Popen[bytes]]


def _dask(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", *args], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A scheduler and two workers (no nanny: a worker killed stays dead), each its own
    process; all stopped after."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
    workers = [
        _dask("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--name", name)
        for name in ("w1", "w2")
    ]
    try:
        from distributed import Client

        with Client(address, timeout=60) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=60)
        yield Cluster(address, workers)
    finally:
        for process in [*workers, scheduler]:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fault-logs")
    for number in range(GAMES):
        write_log(quick_game(5 + number % 6, "tournament", 2, number), folder / f"game-{number:03d}.jsonl")
    return folder


def _build(logs: Path, lake: Path, address: str) -> subprocess.Popen[bytes]:
    command = ["cli.main", "archive", "build", str(logs), "--to", str(lake), "--scheduler", address]
    return subprocess.Popen(
        [sys.executable, "-m", *command, "--batch-files", "1"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _wait_for_commits(lake: Path, count: int, build: subprocess.Popen[bytes]) -> None:
    """Until ``count`` batches are committed (the build is under way)."""
    deadline = time.monotonic() + 120
    while len(list((lake / MANIFEST).glob("*.json"))) < count:
        assert build.poll() is None, "the build ended before it could be interrupted"
        assert time.monotonic() < deadline, "no batch committed in two minutes"
        time.sleep(0.02)


def _every_game_once(lake: Path) -> None:
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok, verdict.problems
    with connect(str(lake)) as con:
        games = con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchall()
        uploads = con.execute("SELECT count(*), count(DISTINCT upload_id) FROM uploads").fetchall()
    assert games == [(GAMES, GAMES)]
    assert uploads == [(GAMES, GAMES)]


def _accounted(out: bytes, batches: int = GAMES) -> tuple[int, int]:
    """The batches the build says it wrote and found committed: every batch, once.
    (A batch may be found committed by its own task run again: its worker committed it
    and died before the scheduler heard; or, after a client was killed, by the tasks the
    scheduler still ran for it.)"""
    said = " ".join(out.decode().split())
    found = re.search(r"(\d+) batches written .* (\d+) already committed", said)
    assert found is not None, said
    written, before = int(found[1]), int(found[2])
    assert written + before == batches, said
    return written, before


def test_a_worker_killed_mid_build_has_its_batches_run_elsewhere(cluster: Cluster, logs: Path, tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    build = _build(logs, lake, cluster.address)
    _wait_for_commits(lake, 4, build)
    cluster.workers[0].send_signal(signal.SIGKILL)
    out, err = build.communicate(timeout=300)
    assert build.returncode == 0, err.decode()
    _accounted(out)
    _every_game_once(lake)


def test_a_client_killed_mid_build_and_run_again_completes_the_job(
    cluster: Cluster, logs: Path, tmp_path: Path
) -> None:
    lake = tmp_path / "lake"
    build = _build(logs, lake, cluster.address)
    _wait_for_commits(lake, 4, build)
    build.send_signal(signal.SIGKILL)
    build.wait()
    committed = len(list((lake / MANIFEST).glob("*.json")))
    assert committed < GAMES, "the kill came after the build's end"
    again = _build(logs, lake, cluster.address)
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err.decode()
    _, before = _accounted(out)
    assert before >= committed, "a batch committed before the rerun is not written again"
    _every_game_once(lake)


@pytest.fixture(scope="module")
def met_again(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The logs, and after them a copy of every fourth under another name and the first
    scored otherwise: files whose content or game the lake holds already."""
    folder = Path(shutil.copytree(logs, tmp_path_factory.mktemp("fault-again") / "logs"))
    again = folder / "zz-again"
    again.mkdir()
    for number in range(0, GAMES, 4):
        shutil.copy(logs / f"game-{number:03d}.jsonl", again / f"copy-{number:03d}.jsonl")
    other = mutate((logs / "game-000.jsonl").read_text().splitlines(), "mis_score", seed=1)
    assert other is not None
    (again / "other-000.jsonl").write_text("".join(line + "\n" for line in other.lines))
    return folder


def test_a_worker_killed_mid_build_of_files_met_again_stores_each_once(
    cluster: Cluster, met_again: Path, tmp_path: Path
) -> None:
    """The copies are duplicates, the other file for a stored game rejected, as an
    ingest of the same files says, whichever worker wrote which batch. (The build's
    counts leave out a batch its worker committed before it died: it counts as
    committed before, :func:`_accounted`.)"""
    lake = tmp_path / "lake"
    build = _build(met_again, lake, cluster.address)
    _wait_for_commits(lake, 4, build)
    cluster.workers[0].send_signal(signal.SIGKILL)
    out, err = build.communicate(timeout=300)
    assert build.returncode in (0, 1), err.decode()  # 1: the other file was rejected (0 if its batch was skipped)
    _accounted(out, GAMES + GAMES // 4 + 1)
    db = tmp_path / "ledger.duckdb"
    results = ingest([met_again], Store(db), workers=1)
    assert [r.outcome for r in results].count("duplicate") == GAMES // 4
    assert [r.outcome for r in results].count("rejected") == 1
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok and verdict.games == GAMES, verdict.problems
    uploads = "SELECT upload_id, name, outcome, duplicate_of, reason FROM uploads ORDER BY upload_id"
    with connect(str(lake)) as con, Store(db).connect(read_only=True) as stored:
        assert con.execute(uploads).fetchall() == stored.execute(uploads).fetchall()
        games = "SELECT game_id, upload_id FROM games ORDER BY ALL"
        assert con.execute(games).fetchall() == stored.execute(games).fetchall()


def test_ctrl_c_in_the_terminal_ends_a_build_on_its_own_cluster_in_one_line(logs: Path, tmp_path: Path) -> None:
    """The terminal sends Ctrl-C to every process of the command, the local cluster's
    workers too: each printed a traceback of its own (four for one keypress), with Dask's
    warnings of tasks cancelled, and nothing said what stood. Now the workers leave it to
    the command, which says in one line what stands (exit 130); run again, it completes."""
    lake = tmp_path / "lake"
    command = [sys.executable, "-m", "cli.main", "archive", "build", str(logs), "--to", str(lake), "--batch-files", "1"]
    build = subprocess.Popen(
        [*command, "--workers", "2"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal's command has
    )
    _wait_for_commits(lake, 2, build)
    os.killpg(build.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
    _, err = build.communicate(timeout=120)
    said = " ".join(err.decode().split())
    assert build.returncode == 130, said
    assert "stopped (Ctrl-C); every batch committed stands" in said
    assert "Traceback" not in said and "WARNING" not in said, said
    again = subprocess.run(command, env=ENV, capture_output=True, timeout=300)
    assert again.returncode == 0, again.stderr.decode()
    _every_game_once(lake)


def test_a_batch_task_run_again_after_its_commit_reports_what_it_wrote(tmp_path: Path) -> None:
    """A worker killed right after it committed a batch, before it reported: Dask runs the
    task again, which found the entry and counted the batch "already committed" — its
    files' outcomes, a rejected file's reason and the build's exit 1 left out of the
    run's count. (The two runs of the task, here in a row, without a cluster.)"""
    from datetime import UTC, datetime

    from ingest.lake.build import listing, plan, run_batch
    from ingest.lake.simulate import run_simulation, simulations

    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(quick_game(5, "tournament", 2, 1), logs / "a.jsonl")
    (logs / "b.jsonl").write_text("not a log\n")
    (batch,) = plan(listing([str(logs)]), datetime(2026, 12, 7, tzinfo=UTC))
    lake = str(tmp_path / "lake")
    first, again = run_batch(lake, batch), run_batch(lake, batch)
    assert not again.skipped
    assert again.outcomes == first.outcomes and "rejected" in again.outcomes
    assert again.rejected == first.rejected and again.rejected
    assert (again.events, again.games) == (first.events, first.games) and again.games == 1
    (simulation,) = simulations(2, seed=1, ruleset="tournament", rounds=1, entries={})
    simulated, resimulated = run_simulation(lake + "-sim", simulation), run_simulation(lake + "-sim", simulation)
    assert not resimulated.skipped and resimulated == simulated and resimulated.games == 2
