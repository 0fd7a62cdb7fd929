"""The events of a recorder's draft (stream ``draft:<game_id>``).

A referee recording a game at the table (:mod:`events.recorder`) writes its observed
log a line at a time. Each line recorded, and each taken back, is an event of the
game's draft stream, appended at the version the phone last saw, so two phones on one
table never both record the same turn; nothing in it is ever edited. When the game
ends its log is taken in as an upload, like any file, and the draft says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, TypeAdapter

from events.records import Record, published_schema

MAX_LINE: Final = 64 * 1024
"""A line of a log holds at most 64 KiB (event-log.md); a draft's lines too."""


class DraftEvent(Record):
    """Fields every event of a draft has."""

    type: str


ENTRY_ID: Final = r"^[A-Za-z0-9_-]{8,64}$"
"""An entry's id, as a phone makes it (a UUID, with or without its dashes, or 22
URL-safe characters of base64)."""


class EntryRecorded(DraftEvent):
    """One line of the observed log, as the recorder wrote it (line 1 is its
    ``game_started``). ``entry``: the id the phone gave the entry when it was made, so
    an entry sent again — its answer lost on a dropping network, or kept on the phone
    while it was offline — is recorded once (:func:`ingest.drafts.record_line`)."""

    type: Literal["entry_recorded"]
    line: Annotated[str, StringConstraints(min_length=2, max_length=MAX_LINE)]
    entry: Annotated[str, StringConstraints(pattern=ENTRY_ID)] | None = None


class EntryUndone(DraftEvent):
    """The last line recorded, taken back by the referee: ``line_number`` names it.
    ``entry``: the id the phone gave the taking back, so that one sent again is done
    once (an undo sent twice would take back two lines)."""

    type: Literal["entry_undone"]
    line_number: Annotated[int, Field(ge=2)]
    entry: Annotated[str, StringConstraints(pattern=ENTRY_ID)] | None = None


class DraftFinished(DraftEvent):
    """The game is over and its log was taken in as the upload ``upload_id`` (the
    SHA-256 of its bytes beside it); the draft takes no more lines."""

    type: Literal["draft_finished"]
    upload_id: Annotated[int, Field(ge=1)]
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


AnyDraftEvent = Annotated[EntryRecorded | EntryUndone | DraftFinished, Field(discriminator="type")]
DRAFT_EVENT: Final[TypeAdapter[AnyDraftEvent]] = TypeAdapter(AnyDraftEvent)


def draft_event(payload: Mapping[str, Any]) -> DraftEvent:
    """A stored payload (decoded JSON) as its typed event."""
    return DRAFT_EVENT.validate_python(payload)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one event of a recorder's draft."""
    return published_schema(
        DRAFT_EVENT,
        "saboteur-draft-events-1.schema.json",
        "Saboteur recorder draft event",
        (
            "One event of a game being recorded at the table (draft:<game_id>): each line of its "
            "observed log recorded or taken back, then draft_finished when it is taken in as an upload."
        ),
    )
