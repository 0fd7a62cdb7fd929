"""A recording in progress: the game's draft in the store, and the recorder that reads
it, moved on together.

Every entry is appended to the draft first (:mod:`ingest.drafts`, at the version this
phone last read) and only then fed to the recorder, so the screen never shows a line
the store does not hold. When another phone recorded first the append is refused
with :class:`~ingest.drafts.DraftMoved`: the recording takes the draft as it now
stands, and the error goes on to the page, which says so. Nothing here imports
Streamlit; the page keeps one :class:`Live` in its session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from events.findings import Finding
from events.recorder import Recorder
from events.schema import Event, GameStarted, dump_event
from ingest.drafts import (
    Draft,
    DraftMoved,
    drafts,
    finish_draft,
    read_draft,
    record_line,
    start_draft,
    undo_line,
)
from ingest.pipeline import FileResult
from ingest.store import Store


def log_name(game_id: str) -> str:
    """The observed log's file name: the upload's, and the download's.

    >>> log_name("nl-open-2026:r2:t3")
    'nl-open-2026-r2-t3.observed.jsonl'
    """
    return game_id.replace(":", "-") + ".observed.jsonl"


def header_read(game: GameStarted) -> None:
    """Raise :class:`~events.logfile.UnreadableLog` unless ``game``'s line is a first
    line a log's reader takes (the model takes a tournament game of 4 players; the
    reader, R-TS1, does not)."""
    Recorder([dump_event(game)])


def in_play(store: Store) -> list[str]:
    """The games being recorded (begun, not finished), by id."""
    return [draft.game_id for draft in drafts(store)]


@dataclass
class Live:
    """One game's recording: where the store has it (``draft``) and what its lines
    make (``recorder``)."""

    store: Store
    draft: Draft
    recorder: Recorder

    @classmethod
    def begin(cls, store: Store, game: GameStarted) -> Live:
        """Begin recording ``game``; one another phone began already is taken up
        where it stands. A header no log's reader takes (:func:`header_read`) is
        refused before anything is stored: begun, it broke every page that reads the
        tables in play."""
        header_read(game)
        try:
            draft = start_draft(store, game.game_id, dump_event(game))
        except DraftMoved as moved:
            draft = moved.draft
        return cls(store, draft, Recorder(draft.lines))

    @classmethod
    def resume(cls, store: Store, game_id: str) -> Live | None:
        """The recording of ``game_id`` as the store has it; ``None`` if none began.
        An :class:`~events.logfile.UnreadableLog` for a draft whose first line no log's
        reader takes (begun before the pages refused such a header)."""
        draft = read_draft(store, game_id)
        return cls(store, draft, Recorder(draft.lines)) if draft is not None else None

    @property
    def game_id(self) -> str:
        return self.draft.game_id

    def reload(self) -> bool:
        """Read the draft again (another phone may have recorded); whether it moved."""
        draft = read_draft(self.store, self.game_id)
        if draft is None or draft == self.draft:
            return False
        self._stand_at(draft)
        return True

    def record(self, event: Event) -> list[Finding]:
        """Record ``event`` as the next line; the findings it brought."""
        self.draft = self._appending(lambda: record_line(self.store, self.draft, dump_event(event)))
        return self.recorder.record(event)

    def undo(self) -> None:
        """Take back the last line."""
        self.draft = self._appending(lambda: undo_line(self.store, self.draft))
        self.recorder = self.recorder.undo()

    def finish(self) -> FileResult:
        """Take the finished game's log in as an upload (the standings change): the
        ingest's result; a log it refused leaves the draft open."""
        try:
            self.draft, result = finish_draft(self.store, self.draft, log_name(self.game_id))
        except DraftMoved as moved:
            self._stand_at(moved.draft)
            raise
        return result

    def _appending(self, append: Callable[[], Draft]) -> Draft:
        try:
            return append()
        except DraftMoved as moved:
            self._stand_at(moved.draft)
            raise

    def _stand_at(self, draft: Draft) -> None:
        self.draft = draft
        self.recorder = Recorder(draft.lines)
