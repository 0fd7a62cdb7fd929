"""Many tables writing one store at once (issue 29): the store alone, with threads.

A dashboard serving a venue runs every phone's tap and every spectator's page in a
thread of one process. Before :mod:`ingest.gate`, two tables' appends read the same
head of the event chain and the second failed at commit ("Conflict on update", or a
duplicate position), and a reader waited for a writer's mode. Here ten phones append
to ten draft streams at the same moment, beside readers and a ``saboteur ingest`` in
another process: every append lands once, in order, and nobody sees an error.
"""

from __future__ import annotations

import errno
import fcntl
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from analytics import records
from events.logfile import write_log
from events.simulate.game import quick_game
from ingest import gate as gates
from ingest.drafts import Draft, drafts, read_draft, record_line, start_draft, undo_line
from ingest.gate import Gate
from ingest.pipeline import ingest
from ingest.store import Store
from ingest.verify import verify
from tests.ingest.test_drafts import observed_lines
from tests.ingest.test_faults import make_folder

PHONES = 10
ENTRIES = 12


@pytest.fixture(scope="module")
def base_logs() -> list[str]:
    """Small simulated games for the organiser's ingest beside the phones."""
    return [write_log(quick_game(players=5 + seed % 4, rounds=2, seed=seed)) for seed in range(6)]


@pytest.fixture(params=[0.0, 2.0], ids=["closed-after-each-job", "kept-open-by-a-server"])
def lingering(request: pytest.FixtureRequest) -> Iterator[float]:
    """Both ways a process uses the store: a command closes the file after each job, a
    server keeps it open a moment (``saboteur dashboard``)."""
    gates.linger(request.param)
    try:
        yield request.param
    finally:
        gates.linger(0.0)


def at_once(jobs: list[Callable[[], None]], timeout: float = 120.0) -> list[BaseException]:
    """Run the jobs in threads started together; the errors they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(len(jobs))

    def run(job: Callable[[], None]) -> None:
        start.wait()
        try:
            job()
        except BaseException as exc:  # every failure is the test's to report
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(job,), daemon=True) for job in jobs]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a job never ended: the store kept it waiting"
    return errors


def test_ten_tables_append_at_the_same_moment_beside_readers_and_an_ingest(
    tmp_path: Path, base_logs: list[str], lingering: float
) -> None:
    store = Store(tmp_path / "venue.duckdb")
    lines = observed_lines()
    start_draft(store, "warm-up", lines[0])  # the store exists before the day's first tap
    games = make_folder(tmp_path / "logs", base_logs, range(40), "organiser")
    shown: dict[str, list[str]] = {}
    stop = threading.Event()

    def phone(table: int) -> Callable[[], None]:
        def record() -> None:
            game_id = f"round-1-table-{table}"
            draft: Draft = start_draft(store, game_id, lines[0])
            for n, line in enumerate(lines[1 : ENTRIES + 1], start=1):
                draft = record_line(store, draft, line)
                if n == 5:  # a referee takes an entry back and records it again
                    draft = record_line(store, undo_line(store, draft), line)
            shown[game_id] = list(draft.lines)

        return record

    def spectator() -> None:
        while not stop.is_set():
            drafts(store)
            time.sleep(0.05)

    ingest = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "ingest", str(tmp_path / "logs"), "--db", str(store.path), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        jobs = [phone(t) for t in range(PHONES)]
        spectators = [threading.Thread(target=spectator, daemon=True) for _ in range(4)]
        for thread in spectators:
            thread.start()
        errors = at_once(jobs)
        stop.set()
        for thread in spectators:
            thread.join(30)
        out, err = ingest.communicate(timeout=180)
    finally:
        if ingest.poll() is None:
            ingest.kill()
            ingest.communicate()
    assert not errors, [repr(e) for e in errors]
    assert ingest.returncode == 0, out + err
    for table in range(PHONES):
        stored = read_draft(store, f"round-1-table-{table}")
        assert stored is not None
        assert list(stored.lines) == shown[f"round-1-table-{table}"] == lines[: ENTRIES + 1]
        assert stored.version == ENTRIES + 3  # the first line, the entries, one undone and recorded again
    report = verify(store)
    assert report.ok, report
    with store.connect(read_only=True) as con:
        (accepted,) = con.execute("SELECT count(*) FROM games").fetchone() or (0,)
    assert accepted == len(games)


def test_a_server_lets_an_ingest_in_between_busy_taps(tmp_path: Path, base_logs: list[str]) -> None:
    """A server keeping the file open while phones tap non-stop still leaves another
    process its turn: the ingest ends well within its wait, not "database busy"."""
    gates.linger(5.0)
    try:
        store = Store(tmp_path / "venue.duckdb")
        lines = observed_lines()
        draft = start_draft(store, "busy", lines[0])
        make_folder(tmp_path / "logs", base_logs, range(10), "between")
        ingest = subprocess.Popen(
            [
                *(sys.executable, "-m", "cli.main", "ingest", str(tmp_path / "logs")),
                *("--db", str(store.path), "--workers", "1", "--wait", "20"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        taps = 0
        while ingest.poll() is None and taps < 2000:
            draft = record_line(store, draft, lines[1 + taps % 20]) if taps % 2 == 0 else undo_line(store, draft)
            taps += 1
        out, err = ingest.communicate(timeout=60)
    finally:
        gates.linger(0.0)
    assert ingest.returncode == 0, out + err
    assert taps < 2000, "the ingest never got in"


def test_nested_jobs_never_wait_for_themselves(tmp_path: Path) -> None:
    """A reader inside a reader while a writer waits, and a reader inside a writer,
    both go on at once."""
    store = Store(tmp_path / "nested.duckdb")
    lines = observed_lines()
    start_draft(store, "g", lines[0])
    writer_in = threading.Event()

    def writer() -> None:
        record_line(store, Draft("g", 1, (lines[0],)), lines[1])
        writer_in.set()

    with store.connect(read_only=True):
        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        time.sleep(0.2)  # the writer now waits for this read-only connection
        assert read_draft(store, "g") is not None  # a nested reader: not held back behind the writer
        assert not writer_in.is_set()
    thread.join(30)
    assert writer_in.is_set()
    with store.connect() as con, store.connect(read_only=True) as inner:  # a reader inside a writer joins it
        assert store.head(inner) == store.head(con)


def test_writers_take_their_turns_in_the_order_they_came() -> None:
    """Seven writers come one after another while a first one writes: each is in line
    (waiting in the gate) before the next comes, so the order they came in is known
    whatever the machine's load, and they write in it."""
    turns = Gate()
    order: list[int] = []
    holding, all_in_line = threading.Event(), threading.Event()

    def first() -> None:
        with turns.turn(write=True):
            holding.set()
            all_in_line.wait(10)
            order.append(0)

    def later(n: int) -> Callable[[], None]:
        def job() -> None:
            with turns.turn(write=True):
                order.append(n)

        return job

    threads = [threading.Thread(target=first)]
    threads[0].start()
    holding.wait(5)
    for n in range(1, 8):
        threads.append(threading.Thread(target=later(n)))
        threads[-1].start()
        deadline = time.monotonic() + 5
        while turns._writers_waiting < n and time.monotonic() < deadline:  # in line before the next comes
            time.sleep(0.002)
    all_in_line.set()
    for thread in threads:
        thread.join(10)
    assert order == list(range(8))


def test_a_writer_interrupted_while_waiting_passes_its_turn_on() -> None:
    turns = Gate()
    release = threading.Event()
    waiting_raised: list[BaseException] = []

    def holder() -> None:
        with turns.turn(write=True):
            release.wait(5)

    class Interrupted(Exception):
        pass

    def impatient() -> None:
        # a job whose thread is interrupted while it waits (here: its wait itself fails)
        original = turns._turns.wait_for
        calls = 0

        def failing(predicate: Callable[[], bool], timeout: float | None = None) -> bool:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise Interrupted
            return original(predicate, timeout)

        turns._turns.wait_for = failing  # type: ignore[method-assign,assignment]
        try:
            with turns.turn(write=True):
                pass
        except Interrupted as exc:
            waiting_raised.append(exc)
        finally:
            turns._turns.wait_for = original  # type: ignore[method-assign]

    first = threading.Thread(target=holder)
    first.start()
    time.sleep(0.05)
    impatient()
    done = threading.Event()

    def after() -> None:
        with turns.turn(write=True):
            done.set()

    late = threading.Thread(target=after)
    late.start()
    release.set()
    first.join(5)
    late.join(5)
    assert waiting_raised and done.is_set()


def test_the_records_count_moves_with_every_change_but_a_draft_append(tmp_path: Path, lingering: float) -> None:
    """The pages' caches of the standings, the seating and the rest are kept under
    :meth:`Store.records_changes`: a phone's tap must leave it where it was, and every
    other change — a record of the tournament, an upload, a write by another process
    or by hand — must move it."""
    from analytics import records

    store = Store(tmp_path / "records.duckdb")
    lines = observed_lines()
    draft = start_draft(store, "g", lines[0])
    first = store.records_changes()
    for line in lines[1:6]:
        draft = record_line(store, draft, line)
        assert store.records_changes() == first  # a draft alone: the records as they were
    draft = undo_line(store, draft)
    assert store.records_changes() == first
    records.create(store, "t1", name="T1", ruleset="tournament", preliminary_rounds=2, cut=6, final_rounds=4)
    second = store.records_changes()
    assert second != first  # a tournament's record
    draft = record_line(store, draft, lines[5])
    assert store.records_changes() == second
    gates.linger(0.0)  # the file closed, as another process needs it
    time.sleep(0.1)
    with duckdb.connect(str(store.path)) as con:  # a write nobody told the gate of
        con.execute("CREATE TABLE scribble (x INTEGER)")
    assert store.records_changes() != second


def test_the_same_entry_sent_at_once_from_many_sessions_is_recorded_once(tmp_path: Path, lingering: float) -> None:
    """A phone's resend racing its first send (and a second phone sending the entry it
    was handed): six sends of one entry id at the same moment, one entry in the draft."""
    store = Store(tmp_path / "resend.duckdb")
    lines = observed_lines()
    first = start_draft(store, "g", lines[0])
    answers: list[Draft] = []

    def send() -> None:
        answers.append(record_line(store, first, lines[1], entry="entry-resent-01"))

    errors = at_once([send] * 6)
    assert not errors, [repr(e) for e in errors]
    stored = read_draft(store, "g")
    assert stored is not None and list(stored.lines) == lines[:2] and stored.version == 2
    assert all(answer == stored for answer in answers) and len(answers) == 6


def test_connections_opened_at_the_same_moment_all_read_arrow(tmp_path: Path) -> None:
    """Connections opened to a closed file at the same moment, as the gate lets a tap
    and the spectators' pages do (:mod:`ingest.gate`): DuckDB makes the process's
    instance in the first and could hand it to the others before it had registered its
    scan of Python's Arrow tables, through which every insert of the store goes
    (:mod:`ingest.store.writing`). A tap whose connection got it that early failed
    ("Table Function with name python_arrow_scan does not exist"), one CI run in a
    few. Here, without the store's lock (eight connections at once, a hundred times),
    it failed in six runs out of six. The store opens one connection at a time."""
    store = Store(tmp_path / "venue.duckdb")
    start_draft(store, "g", observed_lines()[0])
    rows = pa.table({"n": [1, 2, 3]})
    counted: list[int] = []

    def job() -> None:
        bulk = rows  # noqa: F841 (DuckDB finds a Python table by its name in the calling frame)
        con = store._open(read_only=False)
        try:
            counted.append(int((con.execute("SELECT sum(n) FROM bulk").fetchone() or (0,))[0]))
        finally:
            con.close()

    for _ in range(100):  # each time the file is closed, and the instance made anew
        assert not at_once([job] * 8, timeout=60)
    assert counted == [6] * 800


class _AppendedDuringTheWalk(Store):
    """A store whose events, once walked, are followed by ``append``: run in another
    thread, as a phone's tap or an organiser's upload is beside a page's verification."""

    def __init__(self, path: Path, append: Callable[[], None]) -> None:
        super().__init__(path)
        self.meanwhile = append

    def read_all(self, con: Any, after: int = 0, **options: Any) -> Iterator[Any]:
        yield from super().read_all(con, after, **options)
        writer = threading.Thread(target=self.meanwhile)
        writer.start()
        writer.join(timeout=60)
        assert not writer.is_alive()


@pytest.mark.parametrize("appended", ["a record", "an upload"])
def test_verifying_the_chain_while_a_server_appends_finds_nothing_wrong(
    tmp_path: Path, base_logs: list[str], appended: str
) -> None:
    """A server's page verifies the chain while phones and the organiser append through
    the same open store (``gates.linger``). The walk read the events, then the read
    models' position and the uploads one query at a time: a commit between them made
    the verification say "event at position 3 is missing … removed", or name an upload
    past the end of the chain, on the public Standings page. Now it checks the store as
    it stood when it began."""
    store = Store(tmp_path / "s.duckdb")
    log = tmp_path / "game.jsonl"
    log.write_text(base_logs[0], encoding="utf-8")

    def append() -> None:
        if appended == "a record":
            records.register(store, "cup", [("bob", "Bob")])
        else:
            ingest([log], store, workers=1)

    gates.linger(5.0)  # the server's own writes keep its read-write instance open, and its readers join it
    try:
        records.create(store, "cup", name="Cup")
        records.register(store, "cup", [("ann", "Ann")])
        verdict = verify(_AppendedDuringTheWalk(store.path, append), read_models=False)
    finally:
        gates.linger(0.0)
    assert verdict.problems == []
    assert verdict.events == 2
    assert verify(store).problems == []


def test_a_connection_closing_holds_back_the_next_opening_in_the_process(tmp_path: Path) -> None:
    """DuckDB's lock on the file is a POSIX lock, the process's: an instance closing (its
    checkpoint, then its descriptor) beside a new instance opening (which reads the
    header first) can let go of the lock the other holds, and another process's command
    then writes the file beside the server. A connection that may be an instance's last
    is closed while no other opens (``gates.OPENING``): the opening waits."""
    store = Store(tmp_path / "s.duckdb")
    records.create(store, "cup", name="Cup")
    said: list[str] = []

    class Closing:
        def close(self) -> None:
            said.append("closing")
            time.sleep(0.3)
            said.append("closed")

    closer = threading.Thread(target=gates._close, args=(Closing(),))
    closer.start()
    while not said:
        time.sleep(0.005)
    con = store._open(read_only=True)
    said.append("opened")
    con.close()
    closer.join()
    assert said == ["closing", "closed", "opened"]


def test_another_process_waits_while_this_one_has_the_store_open_whatever_becomes_of_duckdbs_lock(
    tmp_path: Path,
) -> None:
    """DuckDB's lock on the file is a POSIX lock: closing any descriptor of the file lets
    go of it, and a command in another process then opened the file read-write beside a
    server that still had it open, and one of them lost what it wrote. The process's
    hold on ``<store>.lock`` (``gates.FileHold``) stands whatever becomes of DuckDB's
    lock: the other process waits, and says the store is busy."""
    store = Store(tmp_path / "s.duckdb")
    records.create(store, "cup", name="Cup")
    command = ["tournament", "register", "cup", "bob", "--name", "Bob", "--db", str(store.path), "--wait", "1"]
    with store.connect() as con:  # a job of this process has the file open
        os.close(os.open(store.path, os.O_RDONLY))  # and DuckDB's lock on it is gone
        other = subprocess.run(
            [sys.executable, "-m", "cli.main", *command], capture_output=True, text=True, timeout=120, check=False
        )
        assert con.execute("SELECT count(*) FROM events").fetchone() == (1,)
    assert other.returncode == 2, other.stdout + other.stderr
    assert "database busy" in " ".join(other.stderr.split())
    assert (
        subprocess.run([sys.executable, "-m", "cli.main", *command], capture_output=True, timeout=120).returncode == 0
    )


def test_a_hold_on_the_file_is_shared_by_readers_and_whole_for_a_writer(tmp_path: Path) -> None:
    """``gates.FileHold`` as two processes see each other's (a ``flock`` belongs to its
    descriptor, so two holds of one process stand for two processes here): readers
    share it; a writer has it alone, and waits (False) while another holds it; a hold
    is let go when the last connection that took it is given back."""
    path = tmp_path / "s.duckdb"
    mine, theirs = gates.FileHold(path), gates.FileHold(path)
    assert mine.take(write=False) and theirs.take(write=False)  # two readers
    assert not theirs.take(write=True)  # a writer beside a reader waits ...
    mine.give_back()
    assert theirs.take(write=True)  # ... until the reader has gone
    assert not mine.take(write=False)  # and then has the file alone
    theirs.give_back()
    assert not mine.take(write=False)  # while any of its connections is open
    theirs.give_back()
    assert mine.take(write=True)
    mine.give_back()
    assert (tmp_path / "s.duckdb.lock").exists()


def test_a_file_system_without_flock_leaves_duckdbs_lock_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system that refuses ``flock`` itself (not because another process holds
    it) is no store held elsewhere: the hold gives way to DuckDB's own lock, as where no
    lock file can be made, rather than wait out ``--wait`` and say the store is busy."""
    path = tmp_path / "s.duckdb"
    mine, theirs = gates.FileHold(path), gates.FileHold(path)
    assert theirs.take(write=False)

    def refused(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "no locks available")

    monkeypatch.setattr(fcntl, "flock", refused)  # the module ingest.gate locks with
    assert mine.take(write=True)
    assert theirs.take(write=True)  # an upgrade the file system refuses: the same
    mine.give_back()
