"""The long reads a spectator can start take turns with the writers: a writer that waits
for the store meanwhile (a referee's tap, an upload, ``saboteur ingest``) gets it
between two runs of the read, not after the whole of it.

- ``verify`` walks the chain in turns: on a store of two million events the walk took
  half a minute in one job, and a spectator's "Verify the chain now" on the Standings
  page held every write of the venue for as long. A turn ends anywhere, and what one
  job would find it still finds (a row stored twice where a turn ended).
- The standings as of a moment read the tournament's streams in turns: a tournament of
  561 games is some 3 s of projecting, in one job as long a wait for every tap. What is
  stored between turns is no part of them, even as of a moment yet to come."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from analytics import records
from analytics.standings import standings
from ingest.chain import StoredEvent
from ingest.store import Store, chunks
from ingest.verify import Verdict, verify
from tests.ingest.conftest import TOURNAMENT, sql

TURN: int = 100
"""The events of a turn in these tests (the store holds some ten turns' worth)."""


def _events(db: Path) -> int:
    with Store(db).connect(read_only=True) as con:
        row = con.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None
    return int(row[0])


class _Turns:
    """A long read under way on ``db`` when a writer comes: the read stops where the
    test says (:meth:`writer_waits`) until the writer waits for the store; a read resumed
    in a job of its own waits until the writer is in (:meth:`writer_in`); the order in
    which the writer got in and the read ended is kept in ``done``."""

    def __init__(self, db: Path, write: Callable[[Store], object] = lambda store: None) -> None:
        self.db = db
        self.store = Store(db)
        self.write = write
        self.done: list[str] = []
        self.halfway = threading.Event()
        self._written = threading.Event()
        self.reads = 0
        """The reads the long read began (a job each)."""

    def writer_waits(self) -> None:
        """In the read: the writer is let come, and the read goes on once it waits."""
        self.halfway.set()
        deadline = time.monotonic() + 20
        while not self.store.someone_waiting() and time.monotonic() < deadline:
            time.sleep(0.01)

    def began(self) -> None:
        """A read begins: after the first, once the writer has had its turn (a reader may
        join the writer's instance, and would race it to the end)."""
        self.reads += 1
        if self.reads > 1:
            assert self._written.wait(20)

    def run(self, read: Callable[[], None]) -> list[str]:
        """``read`` in a thread of its own, a writer coming halfway: what came first."""
        reader = threading.Thread(target=read)
        reader.start()
        assert self.halfway.wait(20)
        writer = threading.Thread(target=self._write)
        writer.start()
        reader.join(60)
        writer.join(60)
        return self.done

    def _write(self) -> None:
        self.write(Store(self.db))
        self.done.append("written")
        self._written.set()


def test_a_writer_waiting_gets_the_store_between_two_runs_of_the_walk(
    store_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    total = _events(store_file)
    assert total > 3 * TURN  # the walk takes several turns
    player = _a_player(store_file)
    monkeypatch.setattr(chunks, "TURN_EVENTS", TURN)
    turns = _Turns(store_file, lambda store: records.penalty(store, TOURNAMENT, player, 1, "late"))
    read_all = Store.read_all

    def reading(self: Store, con: Any, after: int = 0, **kwargs: Any) -> Iterator[StoredEvent]:
        turns.began()
        for event in read_all(self, con, after, **kwargs):
            if event.position == TURN // 2:  # the walk under way
                turns.writer_waits()
            yield event
        turns.done.append("walked")  # every event read (the uploads are walked after)

    monkeypatch.setattr(Store, "read_all", reading)
    verdicts: list[Verdict] = []
    assert turns.run(lambda: verdicts.append(verify(turns.store, read_models=False))) == ["written", "walked"]
    [verdict] = verdicts
    assert verdict.ok, verdict.said
    assert verdict.events == total  # the chain as it stood when the walk began, walked on after the writer


def test_a_row_stored_twice_where_a_turn_ends_is_found(store_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn ending at position 100 read the next from 101: a second row at 100 went
    unseen, and the store was "ok" whenever a writer waited there."""
    sql(store_file, "INSERT INTO events SELECT * FROM events WHERE position = ?", [TURN])
    monkeypatch.setattr(chunks, "TURN_EVENTS", TURN)
    monkeypatch.setattr(Store, "someone_waiting", lambda self: True)  # a turn ends at every chance
    verdict = verify(Store(store_file), read_models=False)
    assert [said.english() for said in verdict.said] == [f"event at position {TURN} is stored twice: a row was added"]


def test_a_walk_no_one_waits_for_is_one_job(store_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody waiting, the walk keeps the store to the end: one job, as before."""
    total = _events(store_file)
    monkeypatch.setattr(chunks, "TURN_EVENTS", TURN)
    store = Store(store_file)
    jobs = 0
    connect = Store.connect

    def counted(self: Store, **kwargs: bool):  # type: ignore[no-untyped-def]
        nonlocal jobs
        jobs += 1
        return connect(self, **kwargs)

    monkeypatch.setattr(Store, "connect", counted)
    verdict = verify(store)
    assert verdict.ok and verdict.events == total
    assert jobs == 1


def _a_player(db: Path) -> str:
    return str(sql(db, "SELECT min(player) FROM tournament_players WHERE tournament = ?", [TOURNAMENT])[0][0])


@pytest.mark.parametrize("moment", ["head", "later"])
def test_a_writer_waiting_gets_the_store_while_the_standings_as_of_a_moment_are_read(
    store_file: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """As of the head, or of a time yet to come (``--as-of`` today): what the writer
    stores between two turns (a penalty, in the tournament's stream, read last) is no
    part of the standings the reading began on."""
    store = Store(store_file)
    with store.connect(read_only=True) as con:
        as_of: int | datetime = store.head(con)[0] if moment == "head" else datetime(2099, 1, 1, tzinfo=UTC)
    alone = standings(store, TOURNAMENT, as_of=as_of)
    assert alone.height  # the test is no empty one
    player = _a_player(store_file)
    monkeypatch.setattr(chunks, "TURN_EVENTS", 1)
    turns = _Turns(store_file, lambda store: records.penalty(store, TOURNAMENT, player, 5, "abuse of the referee"))
    read_many = Store.read_many

    def reading(self: Store, con: Any, streams: Any, **kwargs: Any) -> Iterator[list[StoredEvent]]:
        turns.began()
        for number, events in enumerate(read_many(self, con, streams, **kwargs)):
            yield events
            if number == 0 and not turns.halfway.is_set():  # the reading under way
                turns.writer_waits()
        turns.done.append("read")  # every stream read (the standings are made after, the store let go)

    monkeypatch.setattr(Store, "read_many", reading)
    frames: list[Any] = []
    assert turns.run(lambda: frames.append(standings(store, TOURNAMENT, as_of=as_of))) == ["written", "read"]
    [read] = frames
    assert read.equals(alone), (read, alone)  # the penalty stored meanwhile is not in them
    assert not standings(store, TOURNAMENT, as_of=as_of).equals(alone) or moment == "head"  # it is, read anew
