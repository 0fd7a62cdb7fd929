"""The published JSON Schemas, one per kind of stream, each kept in the package as
``events/<$id>`` (a test holds the files equal to what the models generate) and
printed by ``saboteur schema --stream KIND``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from events import schema
from events.records import draft, sheet, tournament, tournament_file

SCHEMAS: Final[dict[str, Callable[[], dict[str, Any]]]] = {
    "log": schema.json_schema,
    "tournament": tournament.json_schema,
    "tournament-file": tournament_file.json_schema,
    "sheet": sheet.json_schema,
    "draft": draft.json_schema,
}
"""Each stream kind's schema: a game log's line, a tournament's event, a whole
``tournament.json`` (the file the tournament's first events are read from), a
score-sheet game's event, a recorder draft's event."""
