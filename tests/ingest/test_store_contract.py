"""The store's contract: what any event store of this project must do.

As eventsourcing's ``tests/persistence.py`` runs one set of cases against every
recorder, :class:`StoreContract` holds the cases and a subclass names the backend:
:class:`TestDuckDBStore` runs them on a real DuckDB file in ``tmp_path``. A second
store (Parquet, a server database) passes when a subclass of the contract with its own
:meth:`StoreContract.make_store` does.

The contract: appending at the version read gives positions, versions and the hash
chain; a stale expected version is refused (:class:`~ingest.store.StaleAppend`) and
changes nothing; a batch is written whole or not at all; the read models' rows come in
with the append and the projection position moves with them; reading gives back
exactly what was appended, by stream, by position, by type and up to a moment.
"""

from __future__ import annotations

import doctest
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Final

import duckdb
import pytest

import ingest.projection
import ingest.readmodels
import ingest.store
import ingest.store.chunks
import ingest.store.reading
import ingest.tables
from events.builder import LogBuilder
from ingest.chain import GENESIS, StoredEvent, link
from ingest.pipeline import ingest as ingest_files
from ingest.readmodels import PenaltyRow, Rows, TournamentRow
from ingest.revisions import current, marker
from ingest.schema import UploadRow
from ingest.store import Append, Moment, NewEvent, StaleAppend, Store
from ingest.verify import verify


def events(stream: str, *kinds: str) -> list[NewEvent]:
    """New events of ``stream``, one per kind, each payload naming its kind and place."""
    return [NewEvent(stream, kind, json.dumps({"type": kind, "n": n}), n) for n, kind in enumerate(kinds, start=1)]


def tournament_rows(tournament: str, *penalties: int) -> Rows:
    """A tournament's read-model rows: the tournament and a penalty per points given."""
    return {
        TournamentRow.TABLE: [
            TournamentRow(
                tournament=tournament,
                name=tournament.title(),
                ruleset="tournament",
                preliminary_rounds=4,
                cut=6,
                final_rounds=4,
                semifinal=False,
                upload_id=None,
            )
        ],
        PenaltyRow.TABLE: [
            PenaltyRow(
                tournament=tournament,
                seq=n,
                number=n - 1,
                player="ann",
                stage="preliminary",
                points=points,
                reason="late",
            )
            for n, points in enumerate(penalties, start=2)
        ],
    }


def vars_of(event: StoredEvent) -> list[object]:
    """An event's values, in its table's column order."""
    return [getattr(event, name) for name in StoredEvent.__dataclass_fields__]


def upload(upload_id: int, name: str) -> UploadRow:
    """An accepted upload's row."""
    return UploadRow(
        upload_id=upload_id,
        sha256=f"{upload_id:064x}",
        name=name,
        size=3,
        received_at=datetime.now(UTC),
        kind="log",
        outcome="accepted",
        status="clean",
        game_ids=[name],
        duplicate_of=None,
        supersedes=None,
        reason=None,
        report="{}",
        raw=b"abc",
    )


class StoreContract:
    """The cases; a subclass provides :meth:`make_store`."""

    def make_store(self, tmp_path: Path) -> Store:
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path: Path) -> Store:
        return self.make_store(tmp_path)

    @pytest.fixture
    def con(self, store: Store) -> Iterator[duckdb.DuckDBPyConnection]:
        with store.connect() as con:
            yield con

    # -- appending -------------------------------------------------------------------

    def test_an_empty_store_has_no_events(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        assert store.head(con) == (0, GENESIS)
        assert store.read(con, "game:none") == []
        assert list(store.read_all(con)) == []
        assert list(store.read_streams(con)) == []
        assert store.projected(con) == 0

    def test_append_gives_positions_versions_and_the_chain(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        first = store.append(con, "game:a", 0, events("game:a", "game_started", "round_started"), rows={})
        second = store.append(con, "game:b", 0, events("game:b", "game_started"), rows={})
        third = store.append(con, "game:a", 2, events("game:a", "round_ended"), rows={})
        stored = [*first, *second, *third]
        assert [(e.position, e.stream, e.version) for e in stored] == [
            (1, "game:a", 1),
            (2, "game:a", 2),
            (3, "game:b", 1),
            (4, "game:a", 3),
        ]
        prev = GENESIS
        for event in stored:
            assert event.prev_hash == prev
            assert event.hash == link(prev, event.canonical())
            prev = event.hash
        assert store.head(con) == (4, prev)
        assert len({e.recorded_at for e in first}) == 1  # one transaction, one time

    def test_read_gives_back_exactly_what_was_appended(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        appended = store.append(con, "game:a", 0, events("game:a", "game_started", "play_path"), rows={})
        store.append(con, "game:b", 0, events("game:b", "game_started"), rows={})
        assert store.read(con, "game:a") == appended
        assert [(e.type, json.loads(e.payload), e.line, e.upload_id) for e in store.read(con, "game:a")] == [
            ("game_started", {"type": "game_started", "n": 1}, 1, None),
            ("play_path", {"type": "play_path", "n": 2}, 2, None),
        ]

    def test_stored_events_outlive_the_connection(self, store: Store) -> None:
        with store.connect() as con:
            appended = store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        with store.connect(read_only=True) as con:
            assert store.read(con, "game:a") == appended
            assert all(isinstance(e, StoredEvent) for e in store.read_all(con))

    def test_an_event_of_another_stream_is_refused(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        with pytest.raises(ValueError, match="game:b"):
            store.append(con, "game:a", 0, events("game:b", "game_started"), rows={})
        assert store.head(con) == (0, GENESIS)

    # -- optimistic concurrency ----------------------------------------------------------

    @pytest.mark.parametrize("expected", [0, 1, 3])
    def test_a_stale_expected_version_is_refused_and_changes_nothing(
        self, store: Store, con: duckdb.DuckDBPyConnection, expected: int
    ) -> None:
        store.append(con, "game:a", 0, events("game:a", "game_started", "round_started"), rows={})
        before = list(store.read_all(con))
        with pytest.raises(StaleAppend, match="game:a is at version 2"):
            store.append(con, "game:a", expected, events("game:a", "round_ended"), rows={})
        assert list(store.read_all(con)) == before

    def test_a_long_append_is_chained_ahead_and_a_stale_one_still_changes_nothing(
        self, store: Store, con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Past a chunk of events the chain is hashed in a thread ahead of the inserts
        (``_ahead``): the same events, the same chain, and a stale stream found while
        hashing still refuses the whole append."""
        monkeypatch.setattr(ingest.store.chunks, "READ_CHUNK", 4)
        long = [Append("game:a", 0, events("game:a", *["draw"] * 9)), Append("game:b", 0, events("game:b", "draw"))]
        stored = store.append_batch(con, long, rows={})
        assert [(e.stream, e.version, e.position) for e in stored] == [
            *(("game:a", n, n) for n in range(1, 10)),
            ("game:b", 1, 10),
        ]
        prev = GENESIS
        for event in stored:
            assert event.prev_hash == prev and event.hash == link(prev, event.canonical())
            prev = event.hash
        before = list(store.read_all(con))
        stale = [Append("game:c", 0, events("game:c", *["draw"] * 9)), Append("game:a", 3, events("game:a", "draw"))]
        with pytest.raises(StaleAppend, match="game:a is at version 9"):
            store.append_batch(con, stale, rows={})
        assert list(store.read_all(con)) == before

    def test_of_two_writers_that_read_the_same_version_one_wins(self, store: Store) -> None:
        with store.connect() as con:
            store.append(con, "tournament:t", 0, events("tournament:t", "tournament_created"), rows={})
        with store.connect() as con:
            read = store.read(con, "tournament:t")[-1].version
        for reason in ("late", "rude"):
            with store.connect() as con:
                if reason == "late":
                    store.append(con, "tournament:t", read, events("tournament:t", "penalty_given"), rows={})
                else:
                    with pytest.raises(StaleAppend):
                        store.append(con, "tournament:t", read, events("tournament:t", "penalty_given"), rows={})
        with store.connect(read_only=True) as con:
            assert [e.version for e in store.read(con, "tournament:t")] == [1, 2]

    def test_a_second_event_at_a_position_written_behind_the_stores_back_is_found_by_verify(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        """The table has no key (:class:`~ingest.chain.StoredEvent` says why): the
        store never writes a position twice, and ``verify`` finds one written there."""
        [event] = store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        con.execute(
            "INSERT INTO events VALUES (1, 'game:b', 1, 'x', '{}', now(), NULL, NULL, unhex(?), unhex(?))",
            [event.hash, event.hash],
        )
        assert not verify(store).ok

    def test_of_two_appends_in_flight_at_once_the_later_commit_fails_and_the_first_stands(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        """Two transactions that read the same stream's version (two connections of
        one process: a second job in the dashboard's server) both take the position
        after the head they read, and both move the projection's position on: DuckDB
        refuses whichever commits second (the key on ``position`` alone would: a
        duplicate key at commit), so a stale append never lands. The same happened with
        the unique key on a stream's versions that the table had until schema version
        5: that key was never what refused it."""
        store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        other = con.cursor()
        with pytest.raises(duckdb.TransactionException), store.appending(con) as appending:
            appending.add([Append("game:a", 1, events("game:a", "round_started"))], rows={})
            store.append(other, "game:a", 1, events("game:a", "round_ended"), rows={})  # commits first
        stored = store.read(con, "game:a")
        assert [(e.position, e.version, e.type) for e in stored] == [(1, 1, "game_started"), (2, 2, "round_ended")]
        other.close()

    def test_a_second_event_at_a_version_put_in_by_hand_is_named_by_verify(self, store: Store) -> None:
        """Nothing this program writes puts two events at one version of a stream (the
        writer reads each stream's version in its transaction, and a stale one is
        refused); an event put in by hand, even with a hash that links, is named."""
        with store.connect() as con:
            [event] = store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
            forged = StoredEvent(2, "game:a", 1, "x", "{}", event.recorded_at, None, None, event.hash, "0" * 64)
            forged = StoredEvent(*[*vars_of(forged)[:-1], link(event.hash, forged.canonical())])
            con.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, unhex(?), unhex(?))", vars_of(forged))
        verdict = verify(store, read_models=False)
        assert verdict.problems[:1] == ["event at position 2: game:a jumps to version 1"]

    # -- batches -------------------------------------------------------------------------

    def test_a_batch_appends_to_many_streams_with_its_uploads(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        assert store.next_upload_id(con) == 1
        stored = store.append_batch(
            con,
            [
                Append("game:a", 0, events("game:a", "game_started"), upload_id=1),
                Append("game:b", 0, events("game:b", "game_started", "round_started"), upload_id=2),
                Append("game:a", 1, events("game:a", "round_started"), upload_id=1),
            ],
            rows={},
            uploads=[upload(1, "a.jsonl"), upload(2, "b.jsonl")],
        )
        assert [(e.stream, e.version, e.upload_id) for e in stored] == [
            ("game:a", 1, 1),
            ("game:b", 1, 2),
            ("game:b", 2, 2),
            ("game:a", 2, 1),
        ]
        assert store.next_upload_id(con) == 3
        assert store.known_uploads(con, [f"{2:064x}"]) == {f"{2:064x}": (2, "accepted")}
        assert store.stream_versions(con, ["game:a", "game:b", "game:c"]) == {"game:a": (2, 1), "game:b": (2, 2)}

    def test_stream_versions_are_those_of_each_stream_found_of_those_asked(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        store.append(con, "tournament:t", 0, events("tournament:t", "tournament_created"), rows={})
        store.append_batch(
            con,
            [Append("game:a", 0, events("game:a", "game_started", "round_started", "round_ended"), upload_id=1)],
            rows={},
            uploads=[upload(1, "a.jsonl")],
        )
        store.append(con, "game:a", 3, events("game:a", "penalty_given"), rows={})  # a command's, no upload
        asked = ["game:z", "game:a", "tournament:t", "game:a"]
        assert store.stream_versions(con, asked) == {"game:a": (4, 1), "tournament:t": (1, 0)}
        assert store.stream_versions(con, ["game:z"]) == {}
        assert store.stream_versions(con, []) == {}

    def test_a_batch_with_one_stale_stream_stores_nothing(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        before = list(store.read_all(con))
        with pytest.raises(StaleAppend):
            store.append_batch(
                con,
                [
                    Append("game:b", 0, events("game:b", "game_started"), upload_id=1),
                    Append("game:a", 0, events("game:a", "game_started"), upload_id=1),
                ],
                rows=tournament_rows("t"),
                uploads=[upload(1, "b.jsonl")],
            )
        assert list(store.read_all(con)) == before
        assert store.next_upload_id(con) == 1
        assert con.execute("SELECT count(*) FROM tournaments").fetchall() == [(0,)]

    def test_uploads_out_of_turn_are_refused(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        store.append_batch(con, [], rows={}, uploads=[upload(1, "a.jsonl")])
        with pytest.raises(StaleAppend, match="the next upload is 2"):
            store.append_batch(con, [], rows={}, uploads=[upload(1, "b.jsonl")])
        assert store.next_upload_id(con) == 2

    def test_a_failure_inside_the_transaction_leaves_the_store_as_it_was(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        store.append(con, "tournament:t", 0, events("tournament:t", "tournament_created"), rows=tournament_rows("t"))
        before = list(store.read_all(con))
        twice = tournament_rows("u")
        twice[TournamentRow.TABLE] *= 2  # the same tournament twice: its key refuses the second row
        with pytest.raises(duckdb.ConstraintException):
            store.append(con, "tournament:u", 0, events("tournament:u", "tournament_created"), rows=twice)
        assert list(store.read_all(con)) == before
        assert store.projected(con) == before[-1].position
        assert con.execute("SELECT tournament FROM tournaments").fetchall() == [("t",)]

    # -- the read models come with the append -------------------------------------------------

    def test_rows_come_with_the_append_and_replace_the_streams_rows(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        store.append(con, "tournament:t", 0, events("tournament:t", "tournament_created"), rows=tournament_rows("t"))
        store.append(con, "tournament:u", 0, events("tournament:u", "tournament_created"), rows=tournament_rows("u"))
        assert store.projected(con) == 2
        store.append(con, "tournament:t", 1, events("tournament:t", "penalty_given"), rows=tournament_rows("t", 2))
        assert store.projected(con) == 3
        assert con.execute("SELECT tournament, points FROM penalties").fetchall() == [("t", 2)]
        assert con.execute("SELECT tournament FROM tournaments ORDER BY ALL").fetchall() == [("t",), ("u",)]

    def test_a_rebuild_gives_the_rows_again_at_the_head(self, store: Store, con: duckdb.DuckDBPyConnection) -> None:
        store.append(con, "tournament:t", 0, events("tournament:t", "tournament_created"), rows=tournament_rows("t"))
        store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        assert store.rebuild(con, [tournament_rows("t", 1)]) == 2
        assert store.projected(con) == 2
        assert con.execute("SELECT tournament, points FROM penalties").fetchall() == [("t", 1)]

    # -- reading -------------------------------------------------------------------------

    def test_read_all_after_a_position_of_some_types_up_to_a_moment(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        early = store.append(con, "game:a", 0, events("game:a", "game_started", "round_started"), rows={})
        time.sleep(0.01)
        late = store.append(con, "game:b", 0, events("game:b", "game_started", "round_started"), rows={})
        every = [*early, *late]
        assert list(store.read_all(con)) == every
        assert list(store.read_all(con, after=1)) == every[1:]
        assert list(store.read_all(con, after=4)) == []
        assert list(store.read_all(con, types=["game_started"])) == [early[0], late[0]]
        assert list(store.read_all(con, until=3)) == every[:3]
        assert list(store.read_all(con, until=early[0].recorded_at)) == early
        assert store.read(con, "game:b", until=3) == late[:1]
        assert store.read(con, "game:b", until=early[0].recorded_at) == []

    def test_read_streams_gives_every_stream_whole_in_version_order(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        store.append(con, "game:b", 0, events("game:b", "game_started"), rows={})
        store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        store.append(con, "game:b", 1, events("game:b", "round_started"), rows={})
        streams = list(store.read_streams(con))
        assert [[(e.stream, e.version) for e in s] for s in streams] == [
            [("game:a", 1)],
            [("game:b", 1), ("game:b", 2)],
        ]

    def test_read_many_gives_each_stream_asked_in_stream_order_up_to_a_moment(
        self, store: Store, con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(ingest.store.reading, "STREAMS_PER_READ", 2)  # three queries for five streams
        early = store.append(con, "game:d", 0, events("game:d", "game_started", "round_started"), rows={})
        early += store.append(con, "game:b", 0, events("game:b", "game_started"), rows={})
        time.sleep(0.01)
        store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
        store.append(con, "game:b", 1, events("game:b", "round_started"), rows={})
        store.append(con, "game:e", 0, events("game:e", "game_started"), rows={})
        store.append(con, "game:c", 0, events("game:c", "game_started"), rows={})
        asked = ["game:e", "game:b", "game:none", "game:a", "game:d", "game:b", "game:c"]

        def read(until: Moment = None) -> list[list[tuple[str, int]]]:
            return [[(e.stream, e.version) for e in s] for s in store.read_many(con, asked, until=until)]

        every = [[("game:a", 1)], [("game:b", 1), ("game:b", 2)], [("game:c", 1)]]
        every += [[("game:d", 1), ("game:d", 2)], [("game:e", 1)]]
        assert read() == every
        assert list(store.read_many(con, asked)) == [store.read(con, s[0][0]) for s in every]
        assert read(until=4) == [[("game:a", 1)], [("game:b", 1)], [("game:d", 1), ("game:d", 2)]]
        assert read(until=3) == [[("game:b", 1)], [("game:d", 1), ("game:d", 2)]]
        assert read(until=early[-1].recorded_at) == [[("game:b", 1)], [("game:d", 1), ("game:d", 2)]]
        assert read(until=0) == []
        assert list(store.read_many(con, [])) == []
        assert list(store.read_many(con, ["game:none"])) == []

    def test_a_stream_stored_anew_reads_as_its_current_revision(
        self, store: Store, con: duckdb.DuckDBPyConnection
    ) -> None:
        store.append(con, "game:a", 0, events("game:a", "game_started", "round_started"), rows={})
        again = [marker("game:a", "a scorer's slip", 1), *events("game:a", "game_started")]
        store.append(con, "game:a", 2, again, rows={})
        revision = current(store.read(con, "game:a"))
        assert revision.number == 2
        assert [(e.version, e.type) for e in revision.events] == [(4, "game_started")]
        assert json.loads(store.read(con, "game:a")[2].payload) == {
            "game_id": "a",
            "reason": "a scorer's slip",
            "replaced_upload": 1,
        }
        assert current([]).number == 1 and current([]).upload_id is None

    def test_what_was_appended_verifies(self, store: Store) -> None:
        with store.connect() as con:
            store.append(con, "game:a", 0, events("game:a", "game_started"), rows={})
            store.append(con, "tournament:t", 0, events("tournament:t", "x"), rows=tournament_rows("t"))
        verdict = verify(store, read_models=False)
        assert verdict.ok, verdict.problems
        assert verdict.events == 2


class TestDuckDBStore(StoreContract):
    """The contract on a DuckDB file."""

    def make_store(self, tmp_path: Path) -> Store:
        return Store(tmp_path / "contract.duckdb")


@pytest.mark.parametrize("module", [ingest.tables, ingest.readmodels, ingest.projection])
def test_the_examples_in_the_docstrings_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


ROW_GROUP: Final = ingest.store.ROW_GROUP


def row_groups(path: Path, table: str = "events") -> list[int]:
    """The rows of each of the table's row groups, as the file holds them, by size."""
    with duckdb.connect(str(path), read_only=True) as con:
        groups = con.execute(
            f"SELECT row_group_id, max(count) FROM pragma_storage_info('{table}') GROUP BY ALL"
        ).fetchall()
    return sorted(int(count) for _, count in groups)


def vacuum_tasks(con: duckdb.DuckDBPyConnection) -> int:
    return int(con.execute("SELECT current_setting('max_vacuum_tasks')").fetchone()[0])  # type: ignore[index]


def test_a_batch_checkpointed_unmerged_leaves_the_row_groups_of_the_batches_before_as_written(tmp_path: Path) -> None:
    """Two batches of two row groups and a few rows each: DuckDB's vacuum, left to
    itself, merged the first batch's part-full row group with the second's at the next
    checkpoint and wrote them all again (``ingest.store.checkpoint_unmerged``); the
    setting is the database's, and is back as it was for whatever writes next."""
    store = Store(tmp_path / "s.duckdb")
    batch = 2 * ROW_GROUP + 544
    for first in (0, batch):
        with store.connect() as con:
            default = vacuum_tasks(con)
            con.execute(
                "INSERT INTO events SELECT i + 1, 'game:g' || (i // 250), i % 250 + 1, 'draw', '{}', now(), NULL,"
                " NULL, 'p', 'h' FROM range(?, ?) t(i)",
                [first, first + batch],
            )
            ingest.store.checkpoint_unmerged(con)
            assert vacuum_tasks(con) == default > 0
    assert row_groups(store.path) == [544, 544, *[ROW_GROUP] * 4]


def threads(con: duckdb.DuckDBPyConnection) -> int:
    return int(con.execute("SELECT current_setting('threads')").fetchone()[0])  # type: ignore[index]


def test_a_writers_job_runs_duckdb_on_one_thread_and_then_puts_its_threads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ingest.store.one_thread``: one DuckDB thread while a writer appends (each
    thread keeps memory of its own, and the workers audit on the same cores), and the
    database's threads back after, a failed job's too, for the pages a server shows."""
    store = Store(tmp_path / "s.duckdb")
    with store.connect() as con:
        default = threads(con)
        with ingest.store.one_thread(con):
            assert threads(con) == 1
        assert threads(con) == default
        with pytest.raises(RuntimeError), ingest.store.one_thread(con):
            raise RuntimeError("the job failed")
        assert threads(con) == default
    seen: list[int] = []
    appending = Store.appending

    def noting(self: Store, con: duckdb.DuckDBPyConnection, **kwargs: object) -> object:
        seen.append(threads(con))
        return appending(self, con, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "appending", noting)
    log = tmp_path / "g.jsonl"
    log.write_text(LogBuilder(players=5, ruleset="tournament", game_id="t:1").deal(start="ann").text())
    ingest_files([log], store, workers=1)
    assert seen == [1]


def test_the_end_of_a_long_ingest_merges_what_its_batches_left_and_the_next_write_merges_nothing(
    tmp_path: Path,
) -> None:
    """Two batches left unmerged, then ``settle`` (the last batch of ``saboteur
    ingest``): the part-full row groups are merged, and a phone's entry after it finds
    nothing left to merge — before, that entry's checkpoint paid for the merge. The row
    ``settle`` writes to have something to checkpoint is gone again."""
    store = Store(tmp_path / "s.duckdb")
    batch = 2 * ROW_GROUP + 544
    for first in (0, batch):
        with store.connect() as con:
            con.execute(
                "INSERT INTO events SELECT i + 1, 'game:g' || (i // 250), i % 250 + 1, 'draw', '{}', now(), NULL,"
                " NULL, 'p', 'h' FROM range(?, ?) t(i)",
                [first, first + batch],
            )
            ingest.store.checkpoint_unmerged(con)
    left = row_groups(store.path)
    with store.connect() as con:
        ingest.store.settle(con)
        assert con.execute("SELECT key FROM meta ORDER BY key").fetchall() == [("created_at",), ("schema_version",)]
    settled = row_groups(store.path)
    assert sum(settled) == sum(left) and len(settled) < len(left)
    with store.connect() as con:
        con.execute("INSERT INTO meta VALUES ('an entry', '')")
    assert row_groups(store.path) == settled


def test_small_writes_one_after_another_leave_few_row_groups_and_a_small_file(tmp_path: Path) -> None:
    """A phone records a game a line at a time, each line a transaction and a
    checkpoint of its own. DuckDB writes each transaction's rows as a row group; with
    the vacuum off (as it once was for every connection) each line stayed one, some
    250 KB of file, and every query of the events read them all (a game of 194 lines
    made a store of 52 MB). The vacuum merges them."""
    store = Store(tmp_path / "s.duckdb")
    with store.connect():
        pass
    empty = store.path.stat().st_size
    for version in range(40):
        with store.connect() as con:
            store.append(con, "draft:g", version, events("draft:g", "entry_recorded"), rows={})
    assert row_groups(store.path) == [40]
    assert store.path.stat().st_size - empty < 2 * 2**20


def test_duckdb_draws_no_progress_bar_into_a_commands_output(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """DuckDB draws a progress bar of its own on the terminal for a query past two
    seconds (an upgrade of millions of events drew one through ``saboteur ingest``'s
    output). The store's connections have it off; that the setting is what stops the
    bar is shown on a plain connection, with the bar's delay at nothing."""
    store = Store(tmp_path / "s.duckdb")
    for read_only in (False, True):
        with store.connect(read_only=read_only) as con:
            assert con.execute("SELECT current_setting('enable_progress_bar')").fetchall() == [(False,)]
    slow = "SELECT count(*) FROM range(30000000) t(i) WHERE i % 7 = 3"
    with duckdb.connect() as con:
        con.execute("SET progress_bar_time = 0")
        con.execute(slow).fetchall()
        assert "%" in capfd.readouterr().out  # drawn
        con.execute("SET enable_progress_bar = false")  # (a statement that may draw its own)
        capfd.readouterr()
        con.execute(slow).fetchall()
        drawn = capfd.readouterr()
        assert "%" not in drawn.out + drawn.err, drawn
