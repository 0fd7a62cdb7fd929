"""``saboteur verify``: recompute the hash chains and check the read models.

The chain is walked in position order: every position present once and in order,
every ``prev_hash`` the hash before it, every hash the hash of its event, every stream's
versions 1, 2, 3… The first event altered, removed or reordered is named. Then the
uploads are walked the same way in the upload chain: every upload with its link, every
link the hash of its upload as stored now (its bytes and report hashed again) and
naming an event head the chain holds. Heads published outside the store
(:class:`~ingest.checkpoint.Anchor`) must still be in the chains at their place. Then
the read models are projected anew from the events and compared with the stored tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Final

import duckdb
import polars as pl

from events.said import Said, problem, say, sentence
from ingest.chain import GENESIS, ChainVerdict, StoredEvent, broken_link, link
from ingest.checkpoint import Anchor
from ingest.readmodels import GAME_TABLES, PROJECTED, ROW_TYPES, TOURNAMENT_TABLES
from ingest.rebuild import project_store
from ingest.store import Store, chunks, room_for, streaming
from ingest.tables import create_table, frame

COMPARED = (*GAME_TABLES, *TOURNAMENT_TABLES)


@dataclass
class Verdict(ChainVerdict):
    """What ``verify`` found."""

    events: int = 0
    head: str = GENESIS
    uploads: int = 0
    uploads_head: str = GENESIS
    anchored_said: list[Said] = field(default_factory=list)
    """Where each published head was found, as sentences."""

    @property
    def anchored(self) -> list[str]:
        """Where each published head was found, in English."""
        return [s.english() for s in self.anchored_said]


_OUTCOMES: Final = {"rejected": sentence("rejected"), "duplicate": sentence("duplicate")}
"""An upload's outcome that brings no events, in words (as ``saboteur ingest`` says it)."""


class _Pins:
    """The published heads a walk of the chains looks out for, and where it met each."""

    def __init__(self, anchors: Sequence[Anchor]) -> None:
        self.open: dict[str, list[Anchor]] = {}
        for anchor in anchors:
            self.open.setdefault(anchor.head, []).append(anchor)
        self.found: list[Said] = []

    def see(self, strand: str, at: int, digest: str) -> None:
        """The chain ``strand`` holds ``digest`` at ``at`` (a position, or an upload)."""
        waiting = self.open.get(digest)
        if not waiting:
            return
        for anchor in [a for a in waiting if a.strand in (None, strand) and a.at in (None, at)]:
            waiting.remove(anchor)
            self.found.append(
                say(
                    "%(source)s: %(hash)s is in the chain at position %(at)s"
                    if strand == "events"
                    else "%(source)s: %(hash)s is in the chain at upload %(at)s",
                    source=anchor.source,
                    hash=digest,
                    at=str(at),
                )
            )

    def missed(self) -> list[Said]:
        """The published heads the chains no longer hold."""
        return [_missed(a) for waiting in self.open.values() for a in waiting]


def _missed(anchor: Anchor) -> Said:
    """A published head the chains no longer hold, and where it was published to be."""
    if anchor.at is None:
        return say(
            "%(source)s: the published head %(hash)s is not in the chain: "
            "the chain was cut short or rewritten after it was published",
            source=anchor.source,
            hash=anchor.head,
        )
    return say(
        "%(source)s: the published head %(hash)s is not in the chain at position %(at)s: "
        "the chain was cut short or rewritten after it was published"
        if anchor.strand == "events"
        else "%(source)s: the published head %(hash)s is not in the chain at upload %(at)s: "
        "the chain was cut short or rewritten after it was published",
        source=anchor.source,
        hash=anchor.head,
        at=str(anchor.at),
    )


@dataclass(frozen=True, slots=True)
class _Ends:
    """Where the chains and the read models stood at one moment, read in one statement
    (one snapshot): a walk checks the store as it was then. A server appends while a
    page verifies: read one query at a time, the read models were past the events
    walked a moment before ("event at position 53 is missing … removed"), and an
    upload stored since named a head past them."""

    events: int
    """The last event position."""
    uploads: int
    """The last upload id (of an upload or of its link)."""
    projected: int | None
    """The last event position the read models reflect."""
    accepted: tuple[int, ...]
    """The accepted uploads, in order."""


_ENDS: Final = """
SELECT (SELECT coalesce(max(position), 0) FROM events),
       greatest((SELECT coalesce(max(upload_id), 0) FROM uploads),
                (SELECT coalesce(max(upload_id), 0) FROM upload_chain)),
       (SELECT max(position) FROM projection WHERE name = 'read_models'),
       (SELECT coalesce(list(upload_id ORDER BY upload_id), []) FROM uploads WHERE outcome LIKE 'accepted%')
"""


def _ends(con: duckdb.DuckDBPyConnection) -> _Ends:
    row = con.execute(_ENDS).fetchone()
    assert row is not None
    events, uploads, projected, accepted = row
    return _Ends(int(events), int(uploads), None if projected is None else int(projected), tuple(accepted))


class _EventWalk:
    """The event chain as far as it is walked: what the next event must be, and what the
    checks after it need (the heads the uploads' links name, each upload's first event).

    The walk may take several jobs on the store, each a run of events: the ends it checks
    up to are read once, at its start, in one statement (:class:`_Ends`), and what is
    appended meanwhile is past them; nothing before them is ever changed but by damage."""

    def __init__(self, con: duckdb.DuckDBPyConnection, anchors: Sequence[Anchor]) -> None:
        self.ends = _ends(con)
        self.pins = _Pins(anchors)
        self.pins.see("events", 0, GENESIS)
        self.pins.see("uploads", 0, GENESIS)
        self.named = {int(p) for (p,) in con.execute("SELECT DISTINCT position FROM upload_chain").fetchall()}
        self.heads = {0: GENESIS}
        """The event hash at each position an upload's link names."""
        self.expected = 1
        self.prev = GENESIS
        self.versions: dict[str, int] = {}
        self.uploads: dict[int, int] = {}
        """The first position of the events of each upload."""

    @property
    def walked(self) -> int:
        """The last position walked."""
        return self.expected - 1

    def see(self, event: StoredEvent, verdict: Verdict) -> bool:
        """Take the next event read in position order; ``False`` once the chain is found
        broken there (said in ``verdict``)."""
        position = event.position
        at = str(position)  # a position is a place in the chain, written as the store numbers it
        if position < self.expected:  # read in position order: a position met twice
            verdict.said.append(say("event at position %(position)s is stored twice: a row was added", position=at))
            return False
        if position != self.expected:
            verdict.said.append(
                say(
                    "event at position %(position)s is missing (the next stored is %(stored)s): removed",
                    position=str(self.expected),
                    stored=at,
                )
            )
            return False
        broken = broken_link(self.prev, self.versions, event)
        if broken is not None:
            verdict.said.append(broken)
            return False
        if event.upload_id is not None:
            self.uploads.setdefault(event.upload_id, position)
        if position in self.named:
            self.heads[position] = event.hash
        self.pins.see("events", position, event.hash)
        self.prev = event.hash
        self.expected += 1
        verdict.events += 1
        return True

    def end(self, store: Store, con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
        """The events walked: what the chain cannot show of its own end, then the
        uploads, then the published heads."""
        verdict.head = self.prev
        _check_tail(verdict, self.ends, self.walked, set(self.uploads))
        if verdict.ok:
            _check_uploads(store, con, verdict, self.heads, self.uploads, self.pins, self.ends.uploads)
        if verdict.ok:
            verdict.said.extend(self.pins.missed())
        verdict.anchored_said.extend(self.pins.found)


def _check_uploads(
    store: Store,
    con: duckdb.DuckDBPyConnection,
    verdict: Verdict,
    heads: dict[int, str],
    brought: dict[int, int],
    pins: _Pins,
    last: int,
) -> None:
    """Walk the upload chain: uploads 1, 2, 3… up to ``last`` each with its link, each
    link the hash of its upload as stored now after the link before it, naming an event
    head the chain holds; the events of an upload only from one accepted."""
    expected = 1
    prev = GENESIS
    for upload, found in store.read_uploads(con):
        number = upload.upload_id if upload is not None else found.upload_id if found is not None else 0
        if number > last:
            break  # stored since the walk began
        if number != expected:
            verdict.said.append(say("upload %(upload)s is missing, with its link: removed", upload=str(expected)))
            return
        if upload is None:
            verdict.said.append(
                say("upload %(upload)s is missing (its link in the chain remains): removed", upload=str(number))
            )
            return
        if found is None:
            verdict.said.append(
                say("upload %(upload)s is not in the chain: added, or its link removed", upload=str(number))
            )
            return
        if found.prev_hash != prev:
            verdict.said.append(
                say("upload %(upload)s does not follow the upload before it: removed or reordered", upload=str(number))
            )
            return
        if link(prev, upload.canonical(found.position, found.head)) != found.hash:
            torn = upload.sha256 and upload.raw_sha256 not in (None, upload.sha256)
            verdict.said.append(
                say(
                    "upload %(upload)s was altered: its bytes do not match its SHA-256"
                    if torn
                    else "upload %(upload)s was altered",
                    upload=str(number),
                )
            )
            return
        if heads.get(found.position) != found.head:
            last = verdict.events
            verdict.said.append(
                say(
                    "upload %(upload)s was recorded at event position %(position)s but the chain ends at %(end)s: "
                    "removed"
                    if found.position > last
                    else "upload %(upload)s was recorded at event position %(position)s but its hash differs: "
                    "rewritten",
                    upload=str(number),
                    position=str(found.position),
                    end=str(last),
                )
            )
            return
        if number in brought and not upload.outcome.startswith("accepted"):
            outcome = _OUTCOMES.get(upload.outcome)
            verdict.said.append(
                say(
                    "the event at position %(position)s came in upload %(upload)s, which was %(outcome)s: added",
                    position=str(brought[number]),
                    upload=str(number),
                    outcome=(say(outcome) if outcome is not None else problem(upload.outcome),),
                )
            )
            return
        pins.see("uploads", number, found.hash)
        prev = found.hash
        expected += 1
        verdict.uploads += 1
    verdict.uploads_head = prev
    stray = sorted(u for u in brought if u >= expected)
    if stray:
        verdict.said.append(
            say(
                "the event at position %(position)s came in upload %(upload)s, which is not stored: removed",
                position=str(brought[stray[0]]),
                upload=str(stray[0]),
            )
        )


def _check_tail(verdict: Verdict, ends: _Ends, last: int, uploads: set[int]) -> None:
    """The chain cannot show its own end cut off: the read models' recorded position
    and the accepted uploads (``uploads``: those the events name) can."""
    recorded = ends.projected
    if recorded is not None and recorded > last:
        verdict.said.append(
            say(
                "event at position %(position)s is missing, and any after it (the read models were built up to "
                "position %(recorded)s): removed",
                position=str(last + 1),
                recorded=str(recorded),
            )
        )
        return
    missing = next((upload_id for upload_id in ends.accepted if upload_id not in uploads), None)
    if missing is not None:
        verdict.said.append(say("the events of accepted upload %(upload)s are missing: removed", upload=str(missing)))


def _sorted(table: pl.DataFrame) -> pl.DataFrame:
    if table.is_empty():
        return table
    keys = [c for c, t in table.schema.items() if not isinstance(t, pl.List)]
    return table.sort(keys, nulls_last=True)


_KEYS: Final = {table: (kind, column) for kind, (column, tables) in PROJECTED.items() for table in tables}
"""Each read model compared: the kind of stream its rows come from and the column that
names the stream."""


_SHAPE: Final = (
    "SELECT column_name, data_type FROM information_schema.columns "
    "WHERE table_schema = 'main' AND table_name = ? ORDER BY column_name"
)


def _shape(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[str, str]]:
    """A table's columns as the database holds them, by name: name and type (not their
    order, nor whether they take null: an upgrade adds a column last, and nullable)."""
    return [(str(name), str(kind)) for name, kind in con.execute(_SHAPE, [table]).fetchall()]


_DECLARED: Final[dict[str, list[tuple[str, str]]]] = {}


def _declared_shape(table: str) -> list[tuple[str, str]]:
    """The columns this program writes in ``table`` (its row type's DDL, read back from
    a database in memory, so DuckDB spells the types as it spells the stored ones)."""
    if table not in _DECLARED:
        with duckdb.connect() as scratch:
            scratch.execute(create_table(ROW_TYPES[table]))
            _DECLARED[table] = _shape(scratch, table)
    return _DECLARED[table]


def check_read_models(store: Store, con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    """Project the read models anew from the events and compare them with the stored
    tables, a batch of streams at a time (:func:`~ingest.rebuild.project_store`): each
    batch's rows against the stored rows of its streams; then every table's row count,
    which shows rows of no stream at all."""
    projected: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    differing: set[str] = set()
    reshaped = [table for table in COMPARED if _shape(con, table) != _declared_shape(table)]
    for table in reshaped:  # a column dropped or retyped: compared by what is left, it read as equal
        verdict.said.append(
            say("read model %(table)s does not have the columns this program writes: run saboteur rebuild", table=table)
        )
    compared = [table for table in COMPARED if table not in reshaped]
    for batch in project_store(store, con):
        for table in compared:
            kind, column = _KEYS[table]
            ids, rows = batch.ids.get(kind, []), batch.rows.get(table, [])
            projected[table] += len(rows)
            if not ids:
                continue
            stored = con.sql(
                f"SELECT * FROM {table} WHERE {column} IN (SELECT unnest(?::VARCHAR[]))", params=[ids]
            ).pl()
            matched[table] += stored.height
            wanted = frame(ROW_TYPES[table], rows).select(stored.columns).cast(dict(stored.schema), strict=False)
            if not _sorted(stored).equals(_sorted(wanted)):
                differing.add(table)
    for table in compared:
        stored_rows = int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
        if table in differing or stored_rows != matched[table]:
            verdict.said.append(
                say(
                    "read model %(table)s differs from the events (%(stored)s rows stored, %(projected)s projected): "
                    "run saboteur rebuild",
                    table=table,
                    stored=str(stored_rows),
                    projected=str(projected[table]),
                )
            )


def verify(store: Store, *, read_models: bool = True, anchors: Sequence[Anchor] = ()) -> Verdict:
    """Check the store (its read models too, unless told): the first problem found,
    and where each published head in ``anchors`` was found.

    The chain is walked in turns: every :data:`~ingest.store.chunks.TURN_EVENTS` events
    the walk looks whether a job waits for the store (a referee's tap, an upload,
    ``saboteur ingest``), and if one does, lets the store go and walks on once it has had
    it. Walked in one job, the chain of two million events held every writer for half a
    minute, and a spectator's "Verify the chain now" on the Standings page froze the
    tables' phones for as long."""
    verdict = Verdict()
    walk: _EventWalk | None = None
    while True:
        with store.connect(read_only=True, read_models=read_models) as con:
            streaming(con)
            if walk is None:
                walk = _EventWalk(con, anchors)
            # a turn after the first reads the last event walked again, and passes over it:
            # a row stored twice at that position is met as it is in one job
            again = walk.walked > 0
            after = walk.walked - 1 if again else walk.walked
            taken = 0
            with closing(store.read_all(con, after, until=walk.ends.events)) as events:
                for event in events:
                    if again and event.position == walk.walked and event.hash == walk.prev:
                        again = False
                        continue
                    if not walk.see(event, verdict):
                        return verdict
                    taken += 1
                    if taken % chunks.TURN_EVENTS == 0 and store.someone_waiting():
                        break  # its turn: the walk goes on after it, in a job of its own
                else:
                    largest = con.execute("SELECT coalesce(max(size), 0) FROM uploads").fetchall()[0][0]
                    room_for(con, int(largest))  # the hash of a refused file of 60 MiB, kept byte for byte
                    walk.end(store, con, verdict)
                    if verdict.ok and read_models:
                        check_read_models(store, con, verdict)
                    return verdict
