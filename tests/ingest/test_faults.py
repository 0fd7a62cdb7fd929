"""Faults and tampering (the issue's "Faults", "verify" and "append-only").

The store is a real DuckDB file in ``tmp_path``. The fault tests run the installed
``saboteur`` script in subprocesses and really kill it (SIGKILL) or really race two of
them, or hold the file from another process; the tamper tests edit a stored event or a
read-model row with raw SQL through a plain DuckDB connection. ``saboteur verify`` and
``rebuild`` run in process (for speed) wherever the test is not about processes.

Every assertion about a killed run is an invariant that holds wherever the kill lands:
``verify`` passes, each game stored is stored whole and once, the events stored before
the run are untouched; and running the same command again completes the job.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import duckdb
import pytest
from typer.testing import CliRunner

from cli.main import app
from events.logfile import write_log
from events.simulate.game import quick_game
from events.simulate.tournament import simulate_tournament
from ingest.readmodels import PROJECTED
from ingest.schema import LOG_TABLES, READ_MODELS
from ingest.store import Store, StoreBusy

ROOT = Path(__file__).resolve().parents[2]
SABOTEUR = Path(sys.executable).with_name("saboteur")
BASE_GAMES = 12
"""Distinct simulated games; the folders hold copies of them under fresh game ids."""
KILL_FILES = 300
"""Files in the folder whose ingest is killed: several write batches, a few seconds."""
KILL_WINDOWS = ((0.3, 0.9), (0.9, 1.6), (1.4, 1.9))
"""Seconds after the start within which each kill lands (a seeded random point). A full
run takes about 2.4 s here, its first commit near 1.1 s; the kills are cumulative (each
run resumes the last). Wherever a kill lands, the same invariants hold;
``test_rerun_after_a_kill…`` waits for a commit to be sure of a mid-run kill."""
HOLD = "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); print('ready', flush=True); time.sleep(120)"


# -- logs ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_logs() -> list[str]:
    """Small simulated games (5–8 players, two rounds), as JSON Lines text."""
    return [write_log(quick_game(players=5 + seed % 4, rounds=2, seed=seed)) for seed in range(BASE_GAMES)]


def make_folder(root: Path, base: list[str], numbers: Iterable[int], prefix: str) -> dict[str, int]:
    """Files ``f<n>.jsonl`` in ``root``: copies of the base games with the game id
    ``<prefix>-<n>``. The same ``prefix`` and ``n`` give the same bytes. Returns the
    lines of each game by game id."""
    root.mkdir(parents=True, exist_ok=True)
    lines: dict[str, int] = {}
    for n in numbers:
        text = base[n % len(base)]
        first, rest = text.split("\n", 1)
        header = json.loads(first)
        game_id = f"{prefix}-{n:03d}"
        header["game_id"] = game_id
        data = json.dumps(header, separators=(",", ":")) + "\n" + rest
        (root / f"f{n:03d}.jsonl").write_text(data, encoding="utf-8", newline="")
        lines[game_id] = data.count("\n")
    return lines


# -- running the command ----------------------------------------------------------


def flat(text: str) -> str:
    """Output with rich's line wrapping undone: single spaces."""
    return " ".join(text.split())


def saboteur(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the installed ``saboteur`` script to the end."""
    result = subprocess.run([str(SABOTEUR), *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result


def start(*args: str | Path) -> subprocess.Popen[str]:
    """Start ``saboteur`` in its own process group (so its pool's workers can be reaped)."""
    return subprocess.Popen(
        [str(SABOTEUR), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
    )


def reap_group(proc: subprocess.Popen[str]) -> None:
    """Kill what is left of a process group we started (the pool's orphaned workers)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def verified(db: Path) -> str:
    """``saboteur verify`` (in process, for speed): exit 0; its output, flattened."""
    code, output = invoke("verify", "--db", db)
    assert code == 0, output
    return output


def invoke(*args: str | Path) -> tuple[int, str]:
    """A command in process; its exit status and output (stdout and stderr), flattened."""
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, flat(result.output)


# -- what the store holds --------------------------------------------------------


def query(db: Path, sql: str, params: list[object] | None = None) -> list[tuple[Any, ...]]:
    """Rows of one query, through a connection opened and closed for it."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def scalar(db: Path, sql: str) -> int:
    """The one number a query gives."""
    return int(query(db, sql)[0][0])


def chain(db: Path) -> list[tuple[Any, ...]]:
    """Every stored event's position and hash, in order."""
    return query(db, "SELECT position, lower(hex(hash)) FROM events ORDER BY position")


@dataclass(frozen=True)
class Stored:
    """What the store holds of the games."""

    streams: dict[str, int]
    """Events per game id."""
    games: list[str]
    """Game ids in the ``games`` read model (with repeats, if any)."""
    accepted: int
    """Accepted uploads."""
    duplicates: int
    """Uploads recorded as a duplicate of earlier content."""


def stored(db: Path, expected: dict[str, int], *, complete: bool) -> Stored:
    """Check that every game stored is stored whole and once; with ``complete``, that
    every expected game is stored. ``expected``: lines of each game's file by game id."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        streams = {
            str(stream).removeprefix("game:"): int(count)
            for stream, count in con.execute("SELECT stream, count(*) FROM events GROUP BY stream").fetchall()
        }
        versions = con.execute(
            "SELECT stream FROM events GROUP BY stream HAVING max(version) <> count(*) OR min(version) <> 1"
        ).fetchall()
        games = [str(g) for (g,) in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
        accepted = con.execute(
            "SELECT sha256, raw, game_ids FROM uploads WHERE outcome IN ('accepted', 'accepted_with_findings')"
        ).fetchall()
        duplicates = int(con.execute("SELECT count(*) FROM uploads WHERE outcome = 'duplicate'").fetchall()[0][0])
        rejected = con.execute("SELECT name, report FROM uploads WHERE outcome = 'rejected'").fetchall()
    finally:
        con.close()
    assert not rejected, rejected
    assert not versions, f"streams whose versions are not 1…n: {versions}"
    unknown = set(streams) - set(expected)
    assert not unknown, f"streams of no file: {sorted(unknown)[:5]}"
    partial = {g: (n, expected[g]) for g, n in streams.items() if n != expected[g]}
    assert not partial, f"games stored in part (events, lines): {dict(list(partial.items())[:5])}"
    assert len(games) == len(set(games)), "a game appears twice in the games table"
    assert set(games) == set(streams), "the games table and the event streams disagree"
    shas = [str(sha) for sha, _, _ in accepted]
    assert len(shas) == len(set(shas)), "the same content accepted twice"
    for sha, raw, _ in accepted:
        assert raw is not None and hashlib.sha256(bytes(raw)).hexdigest() == sha, "an upload's bytes are torn"
    accepted_games = sorted(str(g) for _, _, ids in accepted for g in ids)
    assert accepted_games == sorted(streams), "a game accepted in two uploads, or stored without an upload"
    if complete:
        assert set(streams) == set(expected), f"{len(set(expected) - set(streams))} games missing"
    return Stored(streams, games, len(accepted), duplicates)


# -- kill -9 ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_store(tmp_path_factory: pytest.TempPathFactory, base_logs: list[str]) -> Path:
    """The store of :func:`seeded`, made once by ``saboteur ingest`` (the three games'
    files ingested by the command, in a process of its own) and copied into each test:
    making it cost each of the four tests some 1.5 s."""
    folder = tmp_path_factory.mktemp("seeded")
    db = folder / "seeded.duckdb"
    make_folder(folder / "seed", base_logs, range(3), "seed")
    result = saboteur("ingest", folder / "seed", "--db", db, "--workers", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert not db.with_name(db.name + ".wal").exists()
    return db


@pytest.fixture
def seeded(tmp_path: Path, base_logs: list[str], seeded_store: Path) -> tuple[Path, dict[str, int]]:
    """A store already holding three games (which no killed run may disturb), and a
    folder of ``KILL_FILES`` more at ``tmp_path / "logs"``; the lines of every game.
    (A kill while a first run creates the store is its own test, below: a random kill
    lands in that window of milliseconds only by luck.)"""
    db = tmp_path / "seeded.duckdb"
    shutil.copyfile(seeded_store, db)
    seed = make_folder(tmp_path / "seed", base_logs, range(3), "seed")
    games = make_folder(tmp_path / "logs", base_logs, range(KILL_FILES), "kill")
    return db, seed | games


def kill_9(proc: subprocess.Popen[str]) -> None:
    """``kill -9`` the process itself, then reap what is left of its group (the pool's
    workers, orphaned)."""
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        reap_group(proc)
        proc.communicate(timeout=30)


def check_after_kill(db: Path, expected: dict[str, int], before: list[tuple[Any, ...]]) -> Stored:
    """What holds wherever a kill lands: verify passes (chain and read models), each game
    stored is stored whole and once, and the events stored before are untouched."""
    output = verified(db)
    assert output.startswith("ok:"), output
    now = stored(db, expected, complete=False)
    assert chain(db)[: len(before)] == before, "a killed run changed events stored before it"
    return now


def test_kill_9_at_random_moments_then_rerun_completes(tmp_path: Path, seeded: tuple[Path, dict[str, int]]) -> None:
    """SIGKILL ``saboteur ingest`` a random moment into its run, three times over (early,
    mid-run, late), checking the store after each kill; then the same command again
    completes the job: every game stored exactly once, no content accepted twice."""
    db, expected = seeded
    before = chain(db)
    command = ("ingest", tmp_path / "logs", "--db", db, "--workers", "2")
    rng = random.Random(20261128)
    landed: list[tuple[float, int]] = []
    for low, high in KILL_WINDOWS:
        delay = rng.uniform(low, high)
        proc = start(*command)
        time.sleep(delay)
        kill_9(proc)
        now = check_after_kill(db, expected, before)
        landed.append((round(delay, 2), len(now.streams) - 3))
    print(f"kills (delay s, games stored so far): {landed}")

    rerun_completes(db, command, expected, before)


def rerun_completes(
    db: Path, command: tuple[str | Path, ...], expected: dict[str, int], before: list[tuple[Any, ...]]
) -> None:
    """The same command run again after a kill completes the job: the store verifies,
    every game is stored exactly once, and the chain before the first run is untouched."""
    rerun = saboteur(*command)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    verified(db)
    after = stored(db, expected, complete=True)
    assert after.accepted == len(expected)
    assert chain(db)[: len(before)] == before


def wait_for_a_commit(db: Path, beyond: int, proc: subprocess.Popen[str]) -> None:
    """Return once the store holds more than ``beyond`` uploads (a batch committed) or
    the process has ended. Reads between the writer's transactions, opening the store as
    the dashboard does: a reader waiting for the file is given its turn after a batch
    (:data:`ingest.pipeline.TURN`); trying the file by itself, a reader saw the few
    milliseconds between two batches only by luck, and the commit often only at the
    run's end."""
    deadline = time.monotonic() + 60
    store = Store(db, wait=1.0)
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with store.connect(read_only=True) as con:
                uploads = con.execute("SELECT count(*) FROM uploads").fetchall()[0][0]
        except StoreBusy:
            continue  # the writer holds the file: our turn comes after its batch
        if uploads > beyond:
            return
        time.sleep(0.02)


def test_rerun_after_a_kill_completes_the_job_with_nothing_doubled(
    tmp_path: Path, seeded: tuple[Path, dict[str, int]]
) -> None:
    """SIGKILL ``saboteur ingest`` mid-run, after it committed a batch; then the same
    command again completes the job: every game stored exactly once, each file's lines
    as its events, no content accepted twice."""
    db, expected = seeded
    before = chain(db)
    command = ("ingest", tmp_path / "logs", "--db", db, "--workers", "2")
    proc = start(*command)
    wait_for_a_commit(db, 3, proc)
    time.sleep(random.Random(7).uniform(0.0, 0.4))
    kill_9(proc)
    check_after_kill(db, expected, before)

    rerun_completes(db, command, expected, before)


CTRL_C_DELAYS: Final = (0.0, 0.2, 0.5)
"""Seconds after the first commit at which each Ctrl-C lands: inside a batch's write,
between two, and in the audits. Before this test a Ctrl-C there was taken for a failed
batch (written again file by file, exit 0), for a broken store (exit 2, "cannot rollback
- no transaction is active"), or hung the run on a worker it killed."""


CTRL_C_FILES: Final = 500
"""Files of each run a Ctrl-C stops, in a folder of its own: a first batch of 128
(:data:`ingest.pipeline.BATCH_FILES`), then one of the rest, some 1.5 s here. With the
runs resuming one folder of 300, the last run's first batch held only files already
stored and its second was over 0.7–1.0 s after its first commit, near or before its
Ctrl-C."""


def test_ctrl_c_stops_the_ingest_with_what_it_stored_standing(
    tmp_path: Path, seeded: tuple[Path, dict[str, int]], base_logs: list[str]
) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it to the command
    and its workers) mid-run, at several moments after a batch of new games was stored:
    the run stops with exit status 130, says so and how many files it stored, prints no
    traceback (its own or a worker's), and leaves a store that verifies, holding that
    batch; the same command again completes the job."""
    db, seeded_games = seeded
    expected = {game: lines for game, lines in seeded_games.items() if game.startswith("seed-")}
    before = chain(db)
    interrupted = tmp_path / "interrupted"
    games = 3
    for run, delay in enumerate(CTRL_C_DELAYS):
        folder = interrupted / f"run{run}"
        expected |= make_folder(folder, base_logs, range(CTRL_C_FILES), f"int{run}")
        uploads = scalar(db, "SELECT count(*) FROM uploads")
        proc = start("ingest", folder, "--db", db, "--workers", "2")
        try:
            wait_for_a_commit(db, uploads, proc)
            time.sleep(delay)
            assert proc.poll() is None, "the run ended before Ctrl-C"
            os.killpg(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            reap_group(proc)
        assert proc.returncode == 130, out + err
        assert "Traceback" not in out + err, out + err
        assert "stopped (Ctrl-C) after" in flat(err), err
        now = check_after_kill(db, expected, before)
        assert games < len(now.streams) < len(expected), "the Ctrl-C came before a batch or after the last"
        games = len(now.streams)
    rerun_completes(db, ("ingest", interrupted, "--db", db, "--workers", "2"), expected, before)


def live_members(group: int) -> list[int]:
    """Processes of a process group still alive (zombies left out), from ``/proc``."""
    alive: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_kill_9_leaves_no_worker_behind(tmp_path: Path, seeded: tuple[Path, dict[str, int]]) -> None:
    """Killing the ingest process mid-run ends its audit workers too (within 3 s): each
    kill and rerun must not leave ``--workers`` processes behind."""
    db, _ = seeded
    proc = start("ingest", tmp_path / "logs", "--db", db, "--workers", "2")
    try:
        wait_for_a_commit(db, 3, proc)
        # The workers may be a moment behind the first commit (1 run in 5 saw the
        # process alone at that instant): wait for them, a kill with none proves nothing.
        deadline = time.monotonic() + 10
        while len(live_members(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before it could be killed"
        assert len(live_members(proc.pid)) >= 2  # the process and its workers
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 3
        while live_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not live_members(proc.pid), "workers outlived the killed ingest"
    finally:
        reap_group(proc)
        proc.communicate(timeout=30)


def test_ingesting_the_same_folder_again_records_duplicates(tmp_path: Path, base_logs: list[str]) -> None:
    """The smallest case of the rerun: every file already stored, so the write batch
    holds no event. Exit 0, each file recorded as a duplicate, no event added."""
    db = tmp_path / "store.duckdb"
    games = make_folder(tmp_path / "logs", base_logs, range(3), "again")
    assert saboteur("ingest", tmp_path / "logs", "--db", db, "--workers", "2").returncode == 0
    head = chain(db)[-1]
    again = saboteur("ingest", tmp_path / "logs", "--db", db, "--workers", "2")
    assert again.returncode == 0, again.stdout + again.stderr
    assert chain(db)[-1] == head
    assert stored(db, games, complete=True).duplicates == 3


def killed_while_creating(db: Path, state: str) -> None:
    """The file a first ``saboteur ingest`` leaves when killed while it creates the store:
    ``empty`` (killed between ``duckdb.connect`` and the first DDL) or ``log tables``
    (killed after the log tables' DDL, before the read models' transaction committed).
    Made directly: a real kill lands in that window of milliseconds only by luck."""
    con = duckdb.connect(str(db))
    try:
        if state == "log tables":
            con.execute(LOG_TABLES)
    finally:
        con.close()


@pytest.mark.parametrize("state", ["empty", "log tables"])
def test_rerun_after_a_kill_during_store_creation_completes(tmp_path: Path, base_logs: list[str], state: str) -> None:
    db = tmp_path / "store.duckdb"
    killed_while_creating(db, state)
    games = make_folder(tmp_path / "logs", base_logs, range(4), "first")
    rerun = saboteur("ingest", tmp_path / "logs", "--db", db, "--workers", "2")
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    verified(db)
    stored(db, games, complete=True)


@pytest.mark.parametrize("state", ["empty", "log tables"])
def test_verify_after_a_kill_during_store_creation(tmp_path: Path, state: str) -> None:
    """Before the rerun, ``verify`` on what the kill left reports an empty store (or no
    store) — it does not crash."""
    db = tmp_path / "store.duckdb"
    killed_while_creating(db, state)
    result = subprocess.run(
        [str(SABOTEUR), "verify", "--db", str(db)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-600:]
    assert result.returncode in (0, 2), result.stdout + result.stderr


# -- two writers at once ---------------------------------------------------------------


def race(*commands: tuple[str | Path, ...]) -> list[tuple[int, str, str]]:
    """Start the commands together; each one's exit status, stdout and stderr."""
    procs = [start(*command) for command in commands]
    results: list[tuple[int, str, str]] = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            results.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
            reap_group(proc)
    for _, out, err in results:
        assert "Traceback" not in out + err, out + err
    return results


def test_two_ingests_at_once_both_succeed(tmp_path: Path, base_logs: list[str]) -> None:
    """Two ``saboteur ingest`` on one database at once, with overlapping and distinct
    folders, each written in two batches: both succeed (each waits for the other's
    transactions); nothing is lost or doubled — each shared file is accepted once and
    recorded once as a duplicate.

    Every batch holds files of its folder alone, so none is all duplicates (that case
    has its own test above)."""
    db = tmp_path / "store.duckdb"
    shared = [n for n in range(200) if n % 3 == 0]
    first = make_folder(tmp_path / "a", base_logs, range(200), "race")
    second = make_folder(tmp_path / "b", base_logs, [*shared, *range(200, 330)], "race")
    results = race(*(("ingest", tmp_path / f, "--db", db, "--workers", "2") for f in ("a", "b")))
    for code, out, err in results:
        assert code == 0, out + err
    verified(db)
    now = stored(db, first | second, complete=True)
    assert now.accepted == len(first | second) == 330
    assert now.duplicates == len(shared)


def test_two_ingests_at_once_without_waiting(tmp_path: Path, base_logs: list[str]) -> None:
    """With ``--wait 0`` one of two racing runs may give up: exit 2, "database busy",
    no traceback, nothing of it stored. Never both; and running it again completes the
    job. (One batch a run, so a run that gave up wrote nothing.)"""
    db = tmp_path / "store.duckdb"
    first = make_folder(tmp_path / "a", base_logs, range(0, 120), "nowait")
    second = make_folder(tmp_path / "b", base_logs, range(60, 180), "nowait")
    commands = [("ingest", tmp_path / f, "--db", db, "--workers", "2", "--wait", "0") for f in ("a", "b")]
    results = race(*commands)
    for code, out, err in results:
        assert code in (0, 2), out + err
        if code == 2:
            assert "database busy" in flat(err), err
    assert any(code == 0 for code, _, _ in results), "both runs gave up"
    verified(db)
    stored(db, first | second, complete=False)
    for command, (code, _, _) in zip(commands, results, strict=True):
        if code == 2:
            again = saboteur(*command[:-2])
            assert again.returncode == 0, again.stdout + again.stderr
    verified(db)
    assert stored(db, first | second, complete=True).accepted == 180
    print(f"exit statuses with --wait 0: {[code for code, _, _ in results]}")


def test_a_held_database_makes_commands_fail_busy(tmp_path: Path, base_logs: list[str]) -> None:
    """Another process holding the file: ``ingest --wait 0.5`` waits about that long,
    then exits 2 saying "database busy" (no traceback), having stored nothing; ``verify``
    and ``rebuild`` likewise. Once the file is free, the same ingest succeeds."""
    db = tmp_path / "store.duckdb"
    games = make_folder(tmp_path / "logs", base_logs, range(3), "held")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        began = time.monotonic()
        busy = saboteur("ingest", tmp_path / "logs", "--db", db, "--workers", "2", "--wait", "0.5")
        waited = time.monotonic() - began
        assert busy.returncode == 2, busy.stdout + busy.stderr
        assert "database busy" in flat(busy.stderr), busy.stderr
        assert waited >= 0.5
        for command in ("verify", "rebuild"):
            other = saboteur(command, "--db", db, "--wait", "0.5")
            assert other.returncode == 2, other.stdout + other.stderr
            assert "database busy" in flat(other.stderr), other.stderr
    finally:
        holder.kill()
        holder.communicate(timeout=30)
    assert query(db, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'events'") == [(0,)]
    ok = saboteur("ingest", tmp_path / "logs", "--db", db, "--workers", "2", "--wait", "0.5")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    verified(db)
    stored(db, games, complete=True)


# -- tampering -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory, base_logs: list[str]) -> Path:
    """A store holding a small tournament (three games, ``tournament.json``) and two more
    games; copied by each tamper test."""
    root = tmp_path_factory.mktemp("pristine")
    simulate_tournament(root / "logs", players=12, preliminary_rounds=1, seed=3)
    make_folder(root / "logs" / "more", base_logs, range(2), "tamper")
    db = root / "store.duckdb"
    code, output = invoke("ingest", root / "logs", "--db", db, "--workers", "1")
    assert code == 0, output
    assert not db.with_name(db.name + ".wal").exists()
    return db


@pytest.fixture
def store(tmp_path: Path, pristine: Path) -> Path:
    """A fresh copy of the pristine store."""
    db = tmp_path / "store.duckdb"
    shutil.copyfile(pristine, db)
    return db


def execute(db: Path, sql: str, params: list[object] | None = None) -> list[tuple[Any, ...]]:
    """Raw SQL on the store, as someone with the file and a plain DuckDB would."""
    con = duckdb.connect(str(db))
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def middle(db: Path) -> int:
    """A position in the middle of the log, of an event with a time ``at`` in 2026."""
    count = scalar(db, "SELECT count(*) FROM events")
    rows = query(
        db,
        'SELECT position FROM events WHERE position >= ? AND payload LIKE \'%"at":"2026-%\' ORDER BY position LIMIT 1',
        [count // 2],
    )
    return int(rows[0][0])


def test_verify_prints_the_chain_head(store: Path) -> None:
    code, output = invoke("verify", "--db", store)
    assert code == 0, output
    head = query(store, "SELECT lower(hex(hash)) FROM events ORDER BY position DESC LIMIT 1")[0][0]
    events = query(store, "SELECT count(*) FROM events")[0][0]
    assert f"chain head {head}" in output
    assert f"{events:,} events" in output  # a count, its thousands marked
    code, chain_only = invoke("verify", "--db", store, "--chain-only")
    assert code == 0 and f"chain head {head}" in chain_only


@pytest.mark.parametrize(
    "change",
    [
        'payload = replace(payload, \'"at":"2026-\', \'"at":"2025-\')',
        "type = type || 'x'",
        "recorded_at = recorded_at + INTERVAL 1 SECOND",
        "line = line + 1",
        "upload_id = upload_id + 1",
        "version = version + 1000",
        "hash = unhex(repeat('0', 64))",
    ],
    ids=["payload", "type", "recorded_at", "line", "upload_id", "version", "hash"],
)
def test_verify_names_an_altered_event(store: Path, change: str) -> None:
    position = middle(store)
    assert execute(store, f"UPDATE events SET {change} WHERE position = ?", [position]) == [(1,)]
    code, output = invoke("verify", "--db", store)
    assert code == 1, output
    assert f"position {position} " in output and "altered" in output, output
    code, output = invoke("verify", "--db", store, "--chain-only")
    assert code == 1 and f"position {position} " in output, output


def test_verify_names_an_event_whose_link_was_altered(store: Path) -> None:
    position = middle(store)
    execute(store, "UPDATE events SET prev_hash = unhex(repeat('f', 64)) WHERE position = ?", [position])
    code, output = invoke("verify", "--db", store)
    assert code == 1 and f"position {position} " in output, output


def test_verify_names_a_removed_event(store: Path) -> None:
    position = middle(store)
    assert execute(store, "DELETE FROM events WHERE position = ?", [position]) == [(1,)]
    code, output = invoke("verify", "--db", store)
    assert code == 1, output
    assert f"position {position} " in output, output
    assert "removed" in output or "missing" in output, output


@pytest.mark.parametrize("gap", [1, 7])
def test_verify_names_reordered_events(store: Path, gap: int) -> None:
    first = middle(store)
    second = first + gap
    execute(
        store,
        "UPDATE events SET position = CASE position WHEN ? THEN ? ELSE ? END WHERE position IN (?, ?)",
        [first, second, first, first, second],
    )
    code, output = invoke("verify", "--db", store)
    assert code == 1, output
    assert f"position {first} " in output and "reordered" in output, output


def test_verify_names_the_newest_event_removed(store: Path) -> None:
    position = scalar(store, "SELECT max(position) FROM events")
    execute(store, "DELETE FROM events WHERE position = ?", [position])
    code, output = invoke("verify", "--db", store)
    assert code == 1, output
    assert f"position {position} " in output and ("removed" in output or "missing" in output), output


READ_MODEL_TAMPERING = {
    "round_players": (
        "UPDATE round_players SET recorded_points = 99 WHERE (game_id, round, player) = "
        "(SELECT (game_id, round, player) FROM round_players ORDER BY ALL LIMIT 1)"
    ),
    "games": "DELETE FROM games WHERE game_id = (SELECT min(game_id) FROM games)",
    "rounds": "UPDATE rounds SET winner = 'nobody' WHERE winner IS DISTINCT FROM 'nobody' AND round = 1",
    "cards_played": "INSERT INTO cards_played SELECT * FROM cards_played ORDER BY ALL LIMIT 1",
    "findings": (
        "INSERT INTO findings VALUES ('feedfacecafe', (SELECT min(game_id) FROM games), 1, 'made_up', 3, 1, "
        "NULL, 'R-X', 'error', 'inserted by hand', NULL)"
    ),
    "tournaments": "UPDATE tournaments SET cut = cut + 1",
    "tournament_players": "UPDATE tournament_players SET name = 'Someone Else' WHERE player = "
    "(SELECT min(player) FROM tournament_players)",
    "seatings": "DELETE FROM seatings WHERE seat = 1 AND tournament_round = 1",
}


@pytest.mark.parametrize("table", list(READ_MODEL_TAMPERING))
def test_verify_catches_a_tampered_read_model_and_rebuild_repairs_it(store: Path, table: str) -> None:
    before = query(store, f"SELECT * FROM {table} ORDER BY ALL")
    changed = execute(store, READ_MODEL_TAMPERING[table])
    assert changed and changed[0][0], "the tampering changed nothing"
    code, output = invoke("verify", "--db", store)
    assert code == 1, output
    assert f"read model {table} " in output, output
    code, output = invoke("verify", "--db", store, "--chain-only")
    assert code == 0, output  # the events themselves are intact
    code, output = invoke("rebuild", "--db", store)
    assert code == 0, output
    code, output = invoke("verify", "--db", store)
    assert code == 0, output
    assert query(store, f"SELECT * FROM {table} ORDER BY ALL") == before


# -- append-only -----------------------------------------------------------------------

WRITES_TO_LOG = re.compile(
    r"\b(?:UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|DROP\s+TABLE(?:\s+IF\s+EXISTS)?|"
    r"ALTER\s+TABLE|INSERT\s+OR\s+REPLACE\s+INTO)\s+[\"']?(?:events|uploads)\b",
    re.IGNORECASE,
)


def ingest_sources() -> Iterator[Path]:
    """Every module of ``ingest/``, its packages' too (the store, the sources, the lake)."""
    yield from sorted((ROOT / "ingest").rglob("*.py"))


UPGRADE: Final = "def _events_as_declared("
"""The one function allowed to drop the events' table: the upgrade to schema version 6,
which copies every event into a table made anew (its own tests hold every value to the
copy: ``test_an_upgrade_to_hashes_as_bytes_keeps_every_event_and_the_chain``,
``test_an_upgrade_from_version_5_drops_the_unique_key_and_keeps_every_event``)."""


def _upgrade_span(text: str) -> range:
    """Where :data:`UPGRADE`'s body lies in ``text`` (empty if it is not there)."""
    start = text.find(UPGRADE)
    if start < 0:
        return range(0)
    end = text.find("\n    def ", start + 1)
    return range(start, end if end > 0 else len(text))


def test_no_code_path_updates_or_deletes_events_or_uploads() -> None:
    found, upgrade = [], []
    for path in ingest_sources():
        text = path.read_text(encoding="utf-8")
        span = _upgrade_span(text)
        for match in WRITES_TO_LOG.finditer(text):
            if match.start() in span:
                upgrade.append(match.group(0))
            else:
                found.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}")
    assert not found, found
    assert upgrade == ["DROP TABLE events"], upgrade  # the upgrade's, and nothing more
    # The statements built from a table name never name the log: the read models a
    # rebuild drops, and the tables whose rows an append replaces (writing._replace).
    assert not {"events", "uploads", "meta"} & set(READ_MODELS)
    writing = (ROOT / "ingest" / "store" / "writing.py").read_text(encoding="utf-8")
    assert re.search(r"for table in tables:\s*\n\s*con\.execute\(f\"DELETE FROM \{table\}", writing)  # _replace
    assert not {"events", "uploads", "meta"} & {t for _, tables in PROJECTED.values() for t in tables}


def test_the_pattern_catches_what_it_looks_for() -> None:
    for sql in (
        "UPDATE events SET payload = ''",
        "delete from Events where position = 3",
        'DELETE\n    FROM "uploads"',
        "update uploads set raw = null",
        "DROP TABLE IF EXISTS events",
    ):
        assert WRITES_TO_LOG.search(sql), sql
    for sql in ("UPDATE projection SET position = 3", "DELETE FROM games WHERE 1", "SELECT * FROM events"):
        assert not WRITES_TO_LOG.search(sql), sql


def test_supersede_and_rebuild_leave_stored_events_and_uploads_as_they_were(
    tmp_path: Path, store: Path, base_logs: list[str]
) -> None:
    """Append-only in practice: superseding a game and rebuilding only add rows."""
    events = query(store, "SELECT * FROM events ORDER BY position")
    uploads = query(store, "SELECT * FROM uploads ORDER BY upload_id")
    # The same game id as a stored game, other content: a new version of it.
    replacement = make_folder(tmp_path / "new", list(reversed(base_logs)), [0], "tamper")
    code, output = invoke("ingest", tmp_path / "new", "--db", store, "--workers", "1")
    assert code == 1 and "rejected" in output, output  # already stored: refused without --supersede
    code, output = invoke(
        "ingest", tmp_path / "new", "--db", store, "--workers", "1", "--supersede", "--reason", "scorer's slip"
    )
    assert code == 0, output
    assert invoke("rebuild", "--db", store)[0] == 0
    assert invoke("verify", "--db", store)[0] == 0
    assert query(store, "SELECT * FROM events ORDER BY position")[: len(events)] == events
    assert query(store, "SELECT * FROM uploads ORDER BY upload_id")[: len(uploads)] == uploads
    assert query(store, "SELECT revision FROM games WHERE game_id = ?", list(replacement)) == [(2,)]
