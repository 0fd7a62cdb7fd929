"""One writer at a time on a lake (issue 34): a run of ``archive build``, ``simulate`` or
``export`` takes the lake's lock; a second run at the same time is refused, saying who
holds it since when; a lock left by a run that died is taken over once stale, on a
folder and on an fsspec store alike, and a run never lets go of another's lock."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from ingest.lake import lock
from ingest.lake.layout import Lake
from tests.ingest.conftest import cli


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["folder", "memory"])
def lake(request: pytest.FixtureRequest, tmp_path: Path) -> Lake:
    if request.param == "folder":
        return Lake.at(str(tmp_path / "lake"))
    return Lake.at(f"memory://lock-test-{tmp_path.name}")


def test_a_second_run_is_refused_while_the_first_holds_the_lake(lake: Lake) -> None:
    clock = Clock()
    first = lock.take(lake, "archive build", clock=clock, settle=0)
    assert lake.exists(lock.LOCK)
    clock.now += 60  # within the stale time: the first run is alive
    with pytest.raises(lock.LakeBusy, match=r"archive build on .* \(process \d+\), since .*wait for it"):
        lock.take(lake, "archive simulate", clock=clock, settle=0)
    lock.release(lake, first)
    assert not lake.exists(lock.LOCK)
    lock.release(lake, lock.take(lake, "archive simulate", clock=clock, settle=0))


def test_a_lock_left_by_a_run_that_died_is_taken_over_and_never_let_go_by_it(lake: Lake) -> None:
    clock = Clock()
    dead = lock.take(lake, "archive build", clock=clock, settle=0)
    clock.now += lock.STALE_SECONDS + 1  # no renewal: the run died
    alive = lock.take(lake, "archive build", clock=clock, settle=0)
    assert alive.token != dead.token
    assert lock.renew(lake, dead, clock=clock) is None  # the dead run, if it wakes, learns it lost the lock
    lock.release(lake, dead)  # and cannot let go of the new holder's
    with pytest.raises(lock.LakeBusy):
        lock.take(lake, "archive export", clock=clock, settle=0)
    renewed = lock.renew(lake, alive, clock=clock)
    assert renewed is not None and renewed.token == alive.token
    lock.release(lake, alive)
    assert not lake.exists(lock.LOCK)


def test_a_lock_cut_short_holds_nothing(lake: Lake) -> None:
    lake.write(lock.LOCK, b'{"token": "ab')  # a write cut short by a crash
    lock.release(lake, lock.take(lake, "archive build", clock=Clock(), settle=0))


def test_the_lock_is_held_while_the_block_runs_and_renewed(tmp_path: Path) -> None:
    target = Lake.at(str(tmp_path / "lake"))
    with lock.holding(target, "archive build", beat=0.05) as holder:
        with pytest.raises(lock.LakeBusy):
            lock.take(target, "archive build", settle=0)
        import time

        time.sleep(0.2)
        renewed = lock.Holder.loads(target.read(lock.LOCK))
        assert renewed is not None and renewed.token == holder.token and renewed.beat > holder.beat
    assert not target.exists(lock.LOCK)


def test_archive_commands_refuse_a_lake_another_run_writes(tmp_path: Path) -> None:
    target = tmp_path / "lake"
    other = lock.take(Lake.at(str(target)), "archive build", settle=0)
    refused = cli("archive", "simulate", "--games", "2", "--to", target, "--workers", "1")
    assert refused.exit_code == 2  # busy, as a store is (1: a file rejected)
    said = " ".join(refused.output.split())
    assert "is being written by archive build on" in said and "wait for it to end" in said
    assert not (target / "_manifest").exists()  # nothing written
    dutch = cli("--lang", "nl", "archive", "simulate", "--games", "2", "--to", target, "--workers", "1")
    said = " ".join(dutch.output.split())  # it was English whatever the language
    assert dutch.exit_code == 2 and "wordt geschreven door archive build op" in said, said
    lock.release(Lake.at(str(target)), other)


def test_a_lock_of_a_process_of_this_machine_that_is_gone_is_taken_over_at_once(tmp_path: Path) -> None:
    """A build killed a moment ago and run again does not wait two minutes: its lock
    names this machine and a process that is no more."""
    import subprocess
    import sys

    target = Lake.at(str(tmp_path / "lake"))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    clock = Clock()
    left = lock.Holder("dead" * 8, lock.socket.gethostname(), gone.pid, "archive build", clock.now, clock.now)
    target.write(lock.LOCK, left.dumps())
    taken = lock.take(target, "archive build", clock=clock, settle=0)
    assert taken.token != left.token
    other_machine = lock.Holder("far" * 8, "elsewhere", gone.pid, "archive build", clock.now, clock.now)
    target.write(lock.LOCK, other_machine.dumps())
    with pytest.raises(lock.LakeBusy, match="elsewhere"):  # another machine's: only its age tells
        lock.take(target, "archive build", clock=clock, settle=0)


def _at_once(lake: Lake, takers: int, clock: Clock | None = None) -> list[str]:
    """``takers`` threads taking the lock at the same instant; the tokens of those who got it."""
    import threading

    start = threading.Barrier(takers)
    won: list[str] = []

    def one() -> None:
        start.wait()
        with contextlib.suppress(lock.LakeBusy):
            won.append(lock.take(lake, "archive build", clock=clock or Clock(), settle=0.2).token)

    threads = [threading.Thread(target=one) for _ in range(takers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return won


def test_runs_taking_a_free_or_a_stale_lock_at_the_same_instant_leave_one_holder(lake: Lake) -> None:
    """Eight takers at once, on a free lock and then on one left stale: exactly one holds
    it each time, and it is the token the lock names."""
    (first,) = _at_once(lake, 8)
    held = lock.Holder.loads(lake.read(lock.LOCK))
    assert held is not None and held.token == first
    later = Clock()
    later.now += lock.STALE_SECONDS + 1  # the holder died: its lock is stale for everyone
    (second,) = _at_once(lake, 8, later)
    held = lock.Holder.loads(lake.read(lock.LOCK))
    assert held is not None and held.token == second != first


def test_processes_taking_a_folder_s_lock_at_the_same_instant_leave_one_holder(tmp_path: Path) -> None:
    """Four processes, started together, each take the folder's lock at the same wall-clock
    instant and keep it a moment: one takes it, three are refused."""
    import subprocess
    import sys
    import time

    target = tmp_path / "lake"
    at = time.time() + 2.0
    script = (
        "import sys, time\n"
        "from ingest.lake import lock\n"
        "from ingest.lake.layout import Lake\n"
        f"time.sleep(max(0.0, {at} - time.time()))\n"
        "try:\n"
        f"    held = lock.take(Lake.at({str(target)!r}), 'archive build')\n"
        "except lock.LakeBusy:\n"
        "    sys.exit(3)\n"
        "time.sleep(1.0)\n"
        "sys.exit(0)\n"
    )
    runs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(4)]
    codes = sorted(run.wait(timeout=60) for run in runs)
    assert codes == [0, 3, 3, 3]


def test_a_run_whose_lock_was_taken_over_while_it_was_stopped_commits_nothing_more(tmp_path: Path) -> None:
    """A build stopped (Ctrl-Z, ``kill -STOP``, a lid shut) past the stale time, its lock
    taken over by another run: going on, it committed batch after batch numbered from the
    lake as it was, so games and upload ids stood in the lake twice. Each commit asks the
    lock now, and the run ends (exit 2) with nothing more committed."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from events.simulate.tournament import simulate_tournament
    from ingest.lake.manifest import committed

    logs = tmp_path / "logs"
    simulate_tournament(logs, players=12, preliminary_rounds=2, seed=3)
    target = tmp_path / "lake"
    build = [sys.executable, "-m", "cli.main", "archive", "build", str(logs), "--to", str(target)]
    run = subprocess.Popen([*build, "--workers", "1", "--batch-files", "1"], stderr=subprocess.PIPE, text=True)
    lake = Lake.at(str(target))
    deadline = time.monotonic() + 60
    while not lake.exists(lock.LOCK) and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(run.pid, signal.SIGSTOP)  # the build stops, holding its lock
    try:
        before = len(committed(lake)) if lake.exists("_manifest") else 0
        later = Clock()
        later.now = time.time() + lock.STALE_SECONDS + 1  # as if it had been stopped past the stale time
        intruder = lock.take(lake, "archive build", clock=later, settle=0)
    finally:
        os.kill(run.pid, signal.SIGCONT)
    _, said = run.communicate(timeout=120)
    assert run.returncode == 2, said
    assert "lock was taken over while it was stopped" in " ".join(said.split())
    assert "Traceback" not in said
    assert len(committed(lake)) == before  # nothing committed once the lock was another's
    held = lock.Holder.loads(lake.read(lock.LOCK))
    assert held is not None and held.token == intruder.token  # and the other run's lock is left alone
    lock.release(lake, intruder)
    again = subprocess.run(build, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    checked = subprocess.run([sys.executable, "-m", "cli.main", "archive", "verify", str(target)], capture_output=True)
    assert checked.returncode == 0, checked.stdout
