"""The store's file: opened only for as long as each job needs it, judged when opened,
created in a new file and upgraded from an older schema version by a job that writes.

A DuckDB file admits one writing process and no other process beside it, so the store
never holds a connection between operations: the dashboard and a second ``saboteur
ingest`` get their turn between our transactions. When another process holds the file,
opening waits (with back-off, saying that it waits: :meth:`StoreFile.someone_waiting`)
and then fails with :class:`~ingest.store.errors.StoreBusy`. Whatever is wrong with the
file, and whatever DuckDB raises during the job, comes out as a
:class:`~ingest.store.errors.StoreError`: one line naming the file and what is wrong.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import duckdb

from events.said import say
from ingest.chain import GENESIS, StoredEvent
from ingest.gate import OPENING, Stamp, gate, hold, stamp
from ingest.readmodels import RefereeCodeRow
from ingest.schema import LOG_TABLE_NAMES, LOG_TABLES, READ_MODELS, SCHEMA_VERSION, UploadLink
from ingest.store.chained import links
from ingest.store.commits import config, interrupted, transaction
from ingest.store.errors import (
    DAMAGE,
    INVALIDATED,
    LOCKED,
    REFUSED,
    RowsRefused,
    StoreBusy,
    StoreError,
    StoreOlder,
    StoreUnusable,
    damaged,
    detail,
    missing,
    stopped,
    unopened,
)
from ingest.store.reading import RECEIVED, event_head, one, received
from ingest.store.writing import create_read_models, insert
from ingest.tables import columns, create_table

DEFAULT_DB: Final = "saboteur.duckdb"


def default_path() -> Path:
    """``--db``'s default: ``$SABOTEUR_DB``, else ``./saboteur.duckdb``."""
    return Path(os.environ.get("SABOTEUR_DB") or DEFAULT_DB)


OPEN_RETRY: Final = 0.1
"""The longest pause (before a jitter of up to as much again) between two tries to open a
file another process holds: short enough to land in the turn an ingest leaves between
its batches (:data:`ingest.pipeline.TURN`)."""

WAITING_FRESH: Final = 1.0
"""Seconds a job waiting for the file (:meth:`Store.someone_waiting`) is believed after it
last said so: it says so at every try to open the file, some five times a second, and
one that was killed stops saying so."""


class StoreFile:
    """The file of :class:`~ingest.store.Store`, and the connections a job opens on it."""

    def __init__(self, path: Path | str | None = None, *, wait: float = 60.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.wait = wait

    # -- connections -------------------------------------------------------------

    @contextmanager
    def connect(
        self, *, read_only: bool = False, read_models: bool = True, drafts_only: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one job, closed after.

        The file must be a store of this program's schema version holding every table
        of it (``read_models=False``: but the read models, which a rebuild makes anew).
        A read-only connection changes nothing; a writing one first creates the store in
        a new file (or one whose creation was cut short) and upgrades a store of an
        older version. Anything else is refused, and whatever DuckDB raises during the
        job comes out, as a :class:`StoreError` naming the file. A writing job that
        appends to drafts alone says so (``drafts_only``): the pages' caches of the
        records then stay good (:meth:`ingest.gate.Gate.records`).
        """
        if read_only and not self.path.exists():
            raise StoreUnusable(self.path, say("no such file (saboteur ingest or tournament create makes a store)"))
        turns = gate(self.path, self._others_waiting)
        with turns.turn(write=not read_only) as open_read_only:
            # the mode the process's instance has: a reader joins a writer's read-write
            # instance (it still writes nothing) rather than wait for it (ingest.gate)
            con = self._open(open_read_only)
            before = stamp(self.path) if not read_only else ()
            try:
                self._prepare(con, read_only=read_only, read_models=read_models)
                yield con
            except duckdb.Error as exc:
                if interrupted(exc):  # Ctrl-C, not a broken store
                    _close(con, self.path)
                    self._wrote(before, read_only=read_only, drafts_only=False)
                    raise KeyboardInterrupt from exc
                failure = self._failure(con, exc)
                _close(con, self.path)
                self._wrote(before, read_only=read_only, drafts_only=False)
                raise failure from exc
            except BaseException:
                _close(con, self.path)
                self._wrote(before, read_only=read_only, drafts_only=False)
                raise
            try:
                # a server keeps the instance open a moment (ingest.gate.linger); else the
                # close is a checkpoint: where a write meets damage the job did not read
                turns.keep(open_read_only, lambda: _Held(self._open(open_read_only), self.path))
                with OPENING:  # it may be the instance's last connection (ingest.gate.OPENING)
                    _let_go(con, self.path)
            except duckdb.Error as exc:
                self._wrote(before, read_only=read_only, drafts_only=False)
                raise self._failure(con, exc) from exc
            self._wrote(before, read_only=read_only, drafts_only=drafts_only)

    def _wrote(self, before: Stamp, *, read_only: bool, drafts_only: bool) -> None:
        """Tell this process's gate what a writing job did to the file (still in its turn)."""
        if not read_only:
            gate(self.path).wrote(before, stamp(self.path), drafts_only=drafts_only)

    def records_changes(self) -> int:
        """How many times the records have changed, as far as this process can tell: a
        key for caches of anything but the drafts (:meth:`ingest.gate.Gate.records`)."""
        return gate(self.path, self._others_waiting).records(stamp(self.path))

    def _open(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """Open the file, waiting with back-off while another process holds it, and
        saying so at every try (:meth:`someone_waiting`)."""
        try:
            str(self.path).encode("utf-8")
        except UnicodeEncodeError:  # DuckDB raised a bare RuntimeError (std::bad_cast): a traceback
            raise StoreUnusable(self.path, say("its name is not UTF-8, which DuckDB cannot open: rename it")) from None
        deadline = time.monotonic() + self.wait
        pause = 0.02
        waited = False
        held = hold(self.path)
        while True:
            try:
                if not held.take(write=not read_only):
                    raise _HeldElsewhere
                try:
                    with OPENING:
                        con = duckdb.connect(str(self.path), read_only=read_only, config=config())
                except BaseException:
                    held.give_back()
                    raise
            except (duckdb.Error, _HeldElsewhere) as exc:
                if isinstance(exc, duckdb.Error) and not LOCKED.search(str(exc)):
                    self._done_waiting(waited)
                    raise unopened(self.path, exc) from exc
                if time.monotonic() >= deadline:
                    self._done_waiting(waited)
                    raise StoreBusy(
                        self.path,
                        say("database busy: another process is using the file"),
                        say(
                            "database busy: another process is using %(file)s (waited %(seconds)s s); "
                            "try again when it has finished",
                            file=str(self.path),
                            seconds=f"{self.wait:g}",
                        ),
                    ) from None
                waited = self._say_waiting() or waited
                time.sleep(pause * (1 + random.random()))
                pause = min(pause * 2, OPEN_RETRY)
                continue
            self._done_waiting(waited)
            # DuckDB draws a progress bar of its own on the terminal for a query past two
            # seconds, through the command's output (an upgrade of 2.45 million events
            # drew one through saboteur ingest's); it is a connection's setting
            con.execute("SET enable_progress_bar = false")
            # the store's times are UTC, and every page and command says so: DuckDB gives
            # them in the machine's zone otherwise (a dashboard in Amsterdam showed an
            # hour later than the "UTC" beside it, and than `tournament log`)
            con.execute("SET GLOBAL TimeZone = 'UTC'")  # its cursors too
            return con

    # -- taking turns -------------------------------------------------------------

    @property
    def _waiting(self) -> Path:
        """The file beside the store whose time says a job is waiting for the store."""
        return self.path.with_name(self.path.name + ".waiting")

    def someone_waiting(self) -> bool:
        """Whether a job (of any process) is waiting to open the file: a long job asks
        between its transactions, and leaves the file closed for a while only then
        (:data:`ingest.pipeline.TURN`; a pause after every batch cost an ingest of
        10,000 games 2.5 s, all of it in the run's one serial step)."""
        return gate(self.path).waiting() or self._others_waiting()  # this process's: a phone's tap in the dashboard

    def _others_waiting(self) -> bool:
        """Whether a job has said lately that it waits to open the file (one of this
        process says so only while another process holds it)."""
        try:
            return time.time() - self._waiting.stat().st_mtime < WAITING_FRESH
        except OSError:  # none waits, or none could say so
            return False

    def _say_waiting(self) -> bool:
        """Say this job is waiting for the file; whether it could (a folder it may not
        write to: then it waits for the file's holder to finish)."""
        try:
            self._waiting.touch()
        except OSError:
            return False
        return True

    def _done_waiting(self, waited: bool) -> None:
        """This job waits no more (another still waiting says so again at its next try)."""
        if waited:
            with suppress(OSError):
                self._waiting.unlink()

    def _prepare(self, con: duckdb.DuckDBPyConnection, *, read_only: bool, read_models: bool) -> None:
        """Judge the file: set up or upgrade it first when the job writes, then refuse it
        unless it is a store of this schema version with every table the job needs."""
        tables = tables_of(con)
        version = _version(con, tables)
        if not read_only and version is None and _unstarted(con, tables):
            self._create(con)
        elif not read_only and version is not None and version < SCHEMA_VERSION:
            self._upgrade(con, version)
        else:
            self._refuse(version, tables, read_models=read_models)
            return
        tables = tables_of(con)
        self._refuse(_version(con, tables), tables, read_models=read_models)

    def _refuse(self, version: int | None, tables: set[str], *, read_models: bool) -> None:
        """Raise :class:`StoreUnusable` unless the file is a store of this program's
        schema version with every table needed."""
        if version is None:
            raise StoreUnusable(self.path, say("not a Saboteur Ledger store (no schema version in a meta table)"))
        if version > SCHEMA_VERSION:
            raise StoreUnusable(
                self.path,
                say(
                    "a store of schema version %(version)s, newer than this program's %(ours)s",
                    version=str(version),
                    ours=str(SCHEMA_VERSION),
                ),
            )
        if version < SCHEMA_VERSION:
            raise StoreOlder(
                self.path,
                say(
                    "a store of schema version %(version)s, older than this program's %(ours)s: "
                    "saboteur rebuild upgrades it",
                    version=str(version),
                    ours=str(SCHEMA_VERSION),
                ),
            )
        absent = [t for t in (*LOG_TABLE_NAMES, *(READ_MODELS if read_models else ())) if t not in tables]
        if absent:
            raise StoreUnusable(self.path, missing(absent))

    def _create(self, con: duckdb.DuckDBPyConnection) -> None:
        """Set the store up in one transaction (a crash leaves nothing half made)."""
        with transaction(con):
            con.execute(LOG_TABLES)
            create_read_models(con, 0)
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
            con.execute("INSERT INTO meta VALUES ('created_at', ?)", [datetime.now(UTC).isoformat()])

    def _upgrade(self, con: duckdb.DuckDBPyConnection, version: int) -> None:
        """From ``version`` to this program's, in one transaction. 1 to 2: every upload
        held is linked, in order, to the event head as it stands (so the chain covers
        them from now on). 2 to 3: the read models' columns of the observed recording
        (:func:`_observed_columns`). 3 to 4: the referee codes' read model, empty (a
        store of version 3 holds no referee code: their events came with version 4). 4
        to 5: the events' hashes as bytes; 5 to 6: no unique key on a stream's versions
        (both :func:`_events_as_declared`); 6 to 7: the findings' sentences
        (:meth:`_findings_said`); 7 to 8: a correction's star, null in every
        correction made before (they put points right only); 8 to 9: no key on the
        events' position (:func:`_events_as_declared`), and a tournament's semi-final
        cut, null in every tournament created before (its semi-final took the cut); 9
        to 10: each penalty's number, in the order given, and its withdrawal, null in
        every penalty given before (none could be withdrawn); 10 to 11: a player's
        withdrawal from the tournament, null for every player registered before (none
        could withdraw); 11 to 12: no star in a round its log ended before it was over
        (its winner unknown), as the projection now gives it."""
        with transaction(con):
            if version < 2:
                con.execute(create_table(UploadLink, if_not_exists=True))
                position, head = event_head(con)
                rows = con.execute(f"SELECT {RECEIVED} FROM uploads u ORDER BY u.upload_id").fetchall()
                held = [upload for upload in map(received, rows) if upload is not None]
                insert(con, UploadLink, links(GENESIS, held, position, head))
            if version < 3:
                _observed_columns(con)
            if version < 4:
                con.execute(create_table(RefereeCodeRow, if_not_exists=True))
            if version < 9:
                self._events_as_declared(con, version)
            if version < 7 and "findings" in tables_of(con):
                self._findings_said(con)
            if version < 8 and "corrections" in tables_of(con):
                con.execute("ALTER TABLE corrections ADD COLUMN IF NOT EXISTS star BOOLEAN")
            if version < 9 and "tournaments" in tables_of(con):
                con.execute("ALTER TABLE tournaments ADD COLUMN IF NOT EXISTS semifinal_cut INTEGER")
            if version < 10 and "penalties" in tables_of(con):
                con.execute(_PENALTY_NUMBERS)
            if version < 11 and "tournament_players" in tables_of(con):
                con.execute(_PLAYER_WITHDRAWALS)
            if version < 12 and {"round_players", "rounds"} <= tables_of(con):
                con.execute(_NO_STAR_WHEN_STOPPED_EARLY)
            con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])

    def _findings_said(self, con: duckdb.DuckDBPyConnection) -> None:
        """Schema version 6 to 7: ``findings`` takes the ``said`` column, filled in as a
        rebuild fills it — every game's log audited again from the events, a batch of
        streams at a time — so each finding can be read in any language at once and
        ``verify`` finds the read models as the events give them. A finding is matched
        to its sentence by its id, a hash of where it is and what it says."""
        from ingest.rebuild import project_store  # the rebuild reads the events through this store
        from ingest.store import Store

        assert isinstance(self, Store), "a store's file is upgraded by the store that opens it"
        con.execute("ALTER TABLE findings ADD COLUMN IF NOT EXISTS said VARCHAR")
        for batch in project_store(self, con):
            said = [(row.finding_id, row.said) for row in batch.rows.get("findings", ()) if row.said is not None]
            if said:
                ids, sentences = zip(*said, strict=True)
                con.execute(
                    "UPDATE findings SET said = s.said FROM (SELECT unnest(?::VARCHAR[]) AS finding_id, "
                    "unnest(?::VARCHAR[]) AS said) s WHERE findings.finding_id = s.finding_id",
                    [list(ids), list(sentences)],
                )

    def _events_as_declared(self, con: duckdb.DuckDBPyConnection, version: int) -> None:
        """Schema versions 4 to 8, to 9: the ``events`` table as :class:`StoredEvent`
        declares it now. Until version 4 ``prev_hash`` and ``hash`` were hex text, and
        they become their 32 bytes (:data:`~ingest.tables.Digest`); until version 5 the
        table had a unique key on ``(stream, version)`` as well as its key on
        ``position``, and until version 9 the position's key; it has none now
        (:class:`StoredEvent` says why). DuckDB changes no column's type and drops no key of a table, so the events
        are copied into a table made anew, in position order, and it takes the old one's
        place: every event keeps its every value, and the chain reads the same. A hash
        that is not 64 lowercase hex digits was never written by this program: the
        upgrade refuses the store, naming the event, and leaves it as it was."""
        types = dict(
            con.execute(
                "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() "
                "AND schema_name = 'main' AND table_name = 'events'"
            ).fetchall()
        )
        as_text = types.get("hash") != "BLOB"
        keys = one(
            con,
            "SELECT count(*) FROM duckdb_constraints() WHERE database_name = current_database() "
            "AND schema_name = 'main' AND table_name = 'events' AND constraint_type IN ('UNIQUE', 'PRIMARY KEY')",
        )
        if not as_text and not (keys and keys[0]):  # made so already
            return
        if as_text:
            pattern = "'^[0-9a-f]{64}$'"
            bad = one(
                con,
                f"SELECT min(position) FROM events WHERE NOT regexp_matches(hash, {pattern}) "
                f"OR NOT regexp_matches(prev_hash, {pattern})",
            )
            if bad is not None and bad[0] is not None:
                raise StoreUnusable(
                    self.path,
                    say(
                        "the event at position %(position)s has a hash that is not 64 lowercase hex digits, which "
                        "this program never writes: the store was altered, and is left as it was "
                        "(schema version %(version)s)",
                        position=str(bad[0]),
                        version=str(version),
                    ),
                )
        copied = ", ".join(f"unhex({c.name})" if c.digest and as_text else c.name for c in columns(StoredEvent))
        con.execute(create_table(StoredEvent, name="events_declared"))
        con.execute(f"INSERT INTO events_declared SELECT {copied} FROM events ORDER BY position")
        con.execute("DROP TABLE events")
        con.execute("ALTER TABLE events_declared RENAME TO events")

    def _failure(self, con: duckdb.DuckDBPyConnection, exc: duckdb.Error) -> StoreError:
        """What DuckDB raised during a job, as a :class:`StoreError`: a missing table or
        damage found in the file make the store unusable; anything else is the job's."""
        if isinstance(exc, duckdb.CatalogException):
            try:
                absent = [t for t in (*LOG_TABLE_NAMES, *READ_MODELS) if t not in tables_of(con)]
            except duckdb.Error:
                absent = []
            if absent:
                return StoreUnusable(self.path, missing(absent))
        if isinstance(exc, duckdb.IOException) and REFUSED.search(str(exc)):
            return StoreError(self.path, say("the file system refused: %(problem)s", problem=detail(self.path, exc)))
        if isinstance(exc, duckdb.FatalException) and INVALIDATED in str(exc):  # not the file's damage
            return StoreError(self.path, stopped(self.path, exc))
        if isinstance(exc, DAMAGE) or type(exc) is duckdb.Error:
            return StoreUnusable(self.path, damaged(detail(self.path, exc)))
        said = say("the database failed: %(problem)s", problem=detail(self.path, exc))
        if isinstance(exc, duckdb.ConstraintException):
            return RowsRefused(self.path, said)
        return StoreError(self.path, said)


def _let_go(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Close a connection to the file at ``path`` and give back its hold
    (:class:`ingest.gate.FileHold`), whatever the close did; under
    :data:`ingest.gate.OPENING`, which the caller holds."""
    try:
        con.close()
    finally:
        hold(path).give_back()


def _close(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Close a connection whose job failed already (a second failure says no more)."""
    with OPENING, suppress(duckdb.Error):
        _let_go(con, path)


class _HeldElsewhere(Exception):
    """Another process holds the file (:class:`ingest.gate.FileHold`): wait, as when
    DuckDB's own lock refuses."""


class _Held:
    """A connection the gate keeps open between jobs, which gives back its hold on the
    file when it is closed (by :func:`ingest.gate._close`, under its ``OPENING``)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path) -> None:
        self._con = con
        self._path = path

    def close(self) -> None:
        _let_go(self._con, self._path)


def tables_of(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables of the file's main schema."""
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'"
    ).fetchall()
    return {str(name) for (name,) in rows}


def _version(con: duckdb.DuckDBPyConnection, tables: set[str]) -> int | None:
    """The schema version the store records, ``None`` if it records none."""
    if "meta" not in tables:
        return None
    found = one(con, "SELECT value FROM meta WHERE key = 'schema_version'")
    return int(found[0]) if found and str(found[0]).isdigit() else None


def _unstarted(con: duckdb.DuckDBPyConnection, tables: set[str]) -> bool:
    """Whether the file is one a store may be created in: no table at all, or only the
    log's tables, empty (a creation killed before it committed, by an older program)."""
    return tables <= set(LOG_TABLE_NAMES) and all(
        one(con, f"SELECT count(*) FROM {table}") == (0,) for table in sorted(tables)
    )


_OBSERVED_COLUMNS: Final = {
    "games": "ALTER TABLE games ADD COLUMN IF NOT EXISTS recording VARCHAR",
    "cards_played": "ALTER TABLE cards_played ALTER COLUMN card DROP NOT NULL",
    "penalties": "ALTER TABLE penalties ADD COLUMN IF NOT EXISTS finding VARCHAR",
}
"""What schema version 3 changed in the read models: each game's recording, a discard
whose card nobody saw, the finding a penalty was given for."""
_PENALTY_NUMBERS: Final = """
ALTER TABLE penalties ADD COLUMN IF NOT EXISTS number INTEGER;
ALTER TABLE penalties ADD COLUMN IF NOT EXISTS withdrawn_seq INTEGER;
ALTER TABLE penalties ADD COLUMN IF NOT EXISTS withdrawn_reason VARCHAR;
UPDATE penalties p SET number = n.number
FROM (SELECT tournament, seq, row_number() OVER (PARTITION BY tournament ORDER BY seq) AS number FROM penalties) n
WHERE p.tournament = n.tournament AND p.seq = n.seq;
"""
"""What schema version 10 changed in the read models: each penalty's number, as the
projection gives it (its place among its tournament's penalties), and its withdrawal."""
_NO_STAR_WHEN_STOPPED_EARLY: Final = """
UPDATE round_players SET star = false
WHERE star AND (game_id, round) IN (SELECT game_id, round FROM rounds WHERE ended_by = 'early')
"""

_PLAYER_WITHDRAWALS: Final = """
ALTER TABLE tournament_players ADD COLUMN IF NOT EXISTS withdrawn_seq INTEGER;
ALTER TABLE tournament_players ADD COLUMN IF NOT EXISTS withdrawn_reason VARCHAR;
"""
"""What schema version 11 changed in the read models: a player's withdrawal, null for
every player of an older store (no record could withdraw one)."""
_RECORDING: Final = """
UPDATE games g SET recording = coalesce(
    (SELECT json_extract_string(e.payload, '$.recording') FROM events e
     WHERE e.stream = 'game:' || g.game_id AND e.type = 'game_started' ORDER BY e.position DESC LIMIT 1),
    'full')
WHERE g.source = 'log' AND g.recording IS NULL
"""
"""Each stored log's recording, as its newest ``game_started`` says (``full`` unless it
says otherwise), for the games a store of version 2 holds."""


def _observed_columns(con: duckdb.DuckDBPyConnection) -> None:
    """Schema version 2 to 3: the read models that are there (a rebuild makes missing
    ones anew) take the observed recording's columns, filled in as a rebuild would."""
    present = tables_of(con)
    for name, ddl in _OBSERVED_COLUMNS.items():
        if name in present:
            con.execute(ddl)
    if "games" in present:
        con.execute(_RECORDING)
