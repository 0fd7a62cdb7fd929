"""The events of a game that comes in on a score sheet (stream ``game:<id>``).

A sheet (:mod:`ingest.scoresheet`) holds no turns, only what each player was dealt and
scored: a game is a ``score_sheet_game`` header, then one ``round_recorded`` per round
with every player's role, points and star, each result keeping the sheet line it came
from so a finding can point at it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import Field, TypeAdapter

from events.records import Record, published_schema
from events.schema import GameId, PlayerId
from events.tables import Role, Stage


class SheetEvent(Record):
    """Fields every event of a score-sheet game has."""

    type: str


class ScoreSheetGame(SheetEvent):
    """The game: where it was played and who played it, in the sheet's order."""

    type: Literal["score_sheet_game"]
    game_id: GameId
    tournament: str | None
    tournament_round: Annotated[int, Field(ge=1, le=1000)] | None
    table: str | None
    ruleset: Literal["tournament"]
    players: Annotated[list[PlayerId], Field(min_length=1)]
    stage: Stage | None = None
    """As a log's header has it; left out (as every sheet before the column was): the
    preliminary."""


class SheetResult(Record):
    """One player's result in one round, and the sheet line it is written on."""

    player: PlayerId
    role: Role
    points: Annotated[int, Field(ge=0, le=100)]
    star: bool
    line: Annotated[int, Field(ge=1)]


class RoundRecorded(SheetEvent):
    """One round as the sheet records it, audited against R-S1 and R-W1."""

    type: Literal["round_recorded"]
    source: Literal["score_sheet"]
    game_id: GameId
    round: Annotated[int, Field(ge=1, le=4)]
    results: Annotated[list[SheetResult], Field(min_length=1)]

    @property
    def line(self) -> int:
        """The round's line on the sheet: that of its first result."""
        return self.results[0].line


AnySheetEvent = Annotated[ScoreSheetGame | RoundRecorded, Field(discriminator="type")]
SHEET_EVENT: Final[TypeAdapter[AnySheetEvent]] = TypeAdapter(AnySheetEvent)


def sheet_event(event: SheetEvent | Mapping[str, Any]) -> SheetEvent:
    """A typed event: ``event`` itself, or a stored payload (decoded JSON) parsed.
    Readers of the store hand the event's envelope ``line`` in beside its fields; it
    is the envelope's, not the payload's, and is set aside here."""
    if isinstance(event, SheetEvent):
        return event
    return SHEET_EVENT.validate_python({key: value for key, value in event.items() if key != "line"})


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one event of a score-sheet game."""
    return published_schema(
        SHEET_EVENT,
        "saboteur-sheet-events-1.schema.json",
        "Saboteur score-sheet game event",
        (
            "One event of a game recorded on a score sheet (game:<id>), as the ledger stores it: "
            "a score_sheet_game header, then one round_recorded per round."
        ),
    )
