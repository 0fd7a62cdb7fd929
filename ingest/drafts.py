"""The recorder's draft in the store: a game recorded at the table, line by line.

Each line a referee records, and each one taken back, is appended to the game's draft
stream (``draft:<game_id>``, events in :mod:`events.records.draft`) at the version the
phone last read. A phone that is behind (a second phone on the same table recorded
first) is refused with :class:`DraftMoved`, which carries the draft as it now stands,
so no turn is ever recorded twice and the page can show where the game is. A reload, a
lost connection or a restarted server reads the draft back and resumes where it was.

When the game is over :func:`finish_draft` takes its observed log in through the same
path as an uploaded file (audited, hash-chained, its bytes kept as an upload), then
marks the draft finished with the upload it became. Were the process to die between
the two, finishing again finds the upload already stored (the same bytes) and only
marks the draft: the game is never stored twice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import duckdb

from events.records import dump
from events.records.draft import DraftFinished, EntryRecorded, EntryUndone, draft_event
from events.said import Said, say
from ingest.chain import StoredEvent
from ingest.pipeline import FileResult, Writer, write_all
from ingest.sources import prepare_bytes
from ingest.store import NewEvent, StaleAppend, Store

KIND: Final = "draft"
ACCEPTED: Final = ("accepted", "accepted_with_findings")


def stream_of(game_id: str) -> str:
    return f"{KIND}:{game_id}"


@dataclass(frozen=True, slots=True)
class Draft:
    """A game's draft as it stands: the lines recorded (not taken back), the stream's
    version (what the next append must expect), the upload it became once finished,
    and the ids of every entry and taking back ever sent with one (an entry taken back
    keeps its id spent: an id is done once)."""

    game_id: str
    version: int
    lines: tuple[str, ...]
    upload_id: int | None = None
    entries: frozenset[str] = frozenset()

    @property
    def finished(self) -> bool:
        return self.upload_id is not None

    def text(self) -> str:
        """The observed log as a file holds it."""
        return "".join(line + "\n" for line in self.lines)


class DraftError(ValueError):
    """A draft command that cannot be done, with the reason a person can act on: in
    English, and as the sentence (``said``) a page says in its reader's language."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.english())
        self.said = said


class DraftMoved(DraftError):
    """The draft moved on since the phone read it: another phone recorded first."""

    def __init__(self, draft: Draft) -> None:
        super().__init__(
            say(
                "the table's record moved on (line %(line)s is the last one now): another phone recorded first. "
                "Here is the game as it stands.",
                line=len(draft.lines),
            )
        )
        self.draft = draft


def fold(game_id: str, events: Sequence[StoredEvent]) -> Draft:
    """The draft that a stream's events (in version order) make."""
    lines: list[str] = []
    upload_id: int | None = None
    entries: set[str] = set()
    for stored in events:
        event = draft_event(json.loads(stored.payload))
        if isinstance(event, EntryRecorded):
            lines.append(event.line)
            if event.entry is not None:
                entries.add(event.entry)
        elif isinstance(event, EntryUndone):
            lines.pop()
            if event.entry is not None:
                entries.add(event.entry)
        elif isinstance(event, DraftFinished):
            upload_id = event.upload_id
    version = events[-1].version if events else 0
    return Draft(game_id, version, tuple(lines), upload_id, frozenset(entries))


def read_draft(store: Store, game_id: str) -> Draft | None:
    """The game's draft, or ``None`` if nobody began recording it."""
    with store.connect(read_only=True) as con:
        events = store.read(con, stream_of(game_id))
    return fold(game_id, events) if events else None


def draft_at(store: Store, game_id: str, version: int) -> Draft:
    """The game's draft as it stood at ``version`` (a phone's view of it then)."""
    with store.connect(read_only=True) as con:
        events = store.read(con, stream_of(game_id))
    return fold(game_id, [stored for stored in events if stored.version <= version])


def drafts(store: Store, *, in_play: bool = True) -> list[Draft]:
    """Every draft in the store (only those not finished, by default), by game id."""
    with store.connect(read_only=True) as con:
        streams = [
            str(name)
            for (name,) in con.execute(
                "SELECT DISTINCT stream FROM events WHERE stream LIKE ? ORDER BY stream", [f"{KIND}:%"]
            ).fetchall()
        ]
        found = [fold(stream.split(":", 1)[1], store.read(con, stream)) for stream in streams]
    return [draft for draft in found if not (in_play and draft.finished)]


def start_draft(store: Store, game_id: str, game_started: str) -> Draft:
    """Begin the draft of ``game_id`` with its ``game_started`` line; a draft already
    begun (by another phone) is :class:`DraftMoved` with that draft."""
    return _append(store, game_id, 0, [EntryRecorded(type="entry_recorded", line=game_started)])


def record_line(store: Store, draft: Draft, line: str, entry: str | None = None) -> Draft:
    """Record ``line`` after the lines of ``draft`` (as the phone last read it).

    ``entry``, the id the phone gave the entry, makes the record idempotent: an entry
    whose id the draft already holds is not recorded again — the draft as it stands is
    returned, even when it has moved on since the phone read it (the phone's first
    send was taken, its answer lost)."""
    _open(draft)
    if entry is not None and entry in draft.entries:
        return draft
    recorded = (
        EntryRecorded(type="entry_recorded", line=line)
        if entry is None
        else EntryRecorded(type="entry_recorded", line=line, entry=entry)
    )
    return _append(store, draft.game_id, draft.version, [recorded], entry=entry)


def undo_line(store: Store, draft: Draft, entry: str | None = None) -> Draft:
    """Take back the last line of ``draft`` (never its ``game_started``); ``entry``
    makes it idempotent as it does :func:`record_line`."""
    _open(draft)
    if entry is not None and entry in draft.entries:
        return draft
    if len(draft.lines) <= 1:
        raise DraftError(say("nothing to undo: the record holds only the game's first line"))
    undone = (
        EntryUndone(type="entry_undone", line_number=len(draft.lines))
        if entry is None
        else EntryUndone(type="entry_undone", line_number=len(draft.lines), entry=entry)
    )
    return _append(store, draft.game_id, draft.version, [undone], entry=entry)


def finish_draft(store: Store, draft: Draft, name: str) -> tuple[Draft, FileResult]:
    """Take the draft's log in as an upload named ``name``, as a file is taken in, and
    mark the draft finished with it. The log's result is returned beside the draft: a
    log refused (rejected, or a game id already stored) leaves the draft open."""
    _open(draft)
    data = draft.text().encode()
    sha = hashlib.sha256(data).hexdigest()
    with store.connect(read_only=True) as con:
        earlier = store.known_uploads(con, [sha]).get(sha)
    if earlier is not None and earlier[1] in ACCEPTED:  # taken in before a crash: only the mark is missing
        result = FileResult(
            name, "duplicate", "log", "", (draft.game_id,), earlier[0], 0, f"already upload {earlier[0]}"
        )
    else:
        (result,) = write_all([prepare_bytes(name, data)], Writer(store))
        if result.outcome not in ACCEPTED:
            return draft, result
    finished = DraftFinished(type="draft_finished", upload_id=result.upload_id, sha256=sha)
    return _append(store, draft.game_id, draft.version, [finished]), result


def _open(draft: Draft) -> None:
    if draft.finished:
        said = say(
            "the game %(game)s is finished: its log is upload %(upload)s",
            game=draft.game_id,
            upload=str(draft.upload_id),
        )
        raise DraftError(said)


def _append(
    store: Store,
    game_id: str,
    version: int,
    events: Sequence[EntryRecorded | EntryUndone | DraftFinished],
    *,
    entry: str | None = None,
) -> Draft:
    stream = stream_of(game_id)
    with store.connect(drafts_only=True) as con:
        if entry is not None:  # sent before, and taken: in this job's turn, so no other append comes between
            current = _read(store, con, game_id)
            if entry in current.entries:
                return current
        try:
            store.append(con, stream, version, [NewEvent(stream, e.type, dump(e)) for e in events], rows={})
        except StaleAppend:
            raise DraftMoved(_read(store, con, game_id)) from None
        return _read(store, con, game_id)


def _read(store: Store, con: duckdb.DuckDBPyConnection, game_id: str) -> Draft:
    return fold(game_id, store.read(con, stream_of(game_id)))
