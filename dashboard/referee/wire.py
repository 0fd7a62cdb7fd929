"""What the referee's page sends and what it gets back, as typed models.

A request body is parsed whole into these models before anything reads it (a field
unknown, a card that is no card, a player id the format refuses: 422, nothing done).
An entry is one of: an observed event the table saw (the log format's own models, the
hidden parts left out), the end of a round (the roles turned up, and in base the gold
cards taken: the scores are the server's to count), the end of the game, or taking back
the last line. Each carries the id the phone gave it and the draft version it was made
against, so that it is done once and in its place.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from events.records.draft import ENTRY_ID
from events.schema import (
    Discard,
    Draw,
    GoalRevealed,
    GoldCard,
    PlayerId,
    PlayMap,
    PlayPath,
    PlayRockfall,
    PlayTool,
    RefereeNote,
    RoundStarted,
    Timestamp,
    parse_timestamp,
)
from events.tables import Role

MAX_BODY: Final = 64 * 1024
"""The largest request body taken (an entry is a few hundred bytes)."""

Code = Annotated[str, StringConstraints(min_length=1, max_length=128)]
EntryId = Annotated[str, StringConstraints(pattern=ENTRY_ID)]


def _real(text: str) -> str:
    """A phone's time that names a moment (no 30 February, no leap second but at a UTC
    day's end): the server puts it on its own clock, and one it cannot read was a fault
    of the server's (500) where the shape's faults were the phone's (422)."""
    parse_timestamp(text)
    return text


PhoneTime = Annotated[Timestamp, AfterValidator(_real)]


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


TableEvent = Annotated[
    RoundStarted | PlayPath | PlayTool | PlayRockfall | PlayMap | Discard | Draw | GoalRevealed | RefereeNote,
    Field(discriminator="type"),
]
"""The lines a referee taps, as the log format has them (``game_started``,
``round_ended`` and ``game_ended`` are the server's to write)."""


class EventTap(_Wire):
    kind: Literal["event"]
    event: TableEvent


class EndRoundTap(_Wire):
    """The roles turned up (every player's), and in base the gold cards each took."""

    kind: Literal["end_round"]
    roles: dict[PlayerId, Role]
    gold_cards: dict[PlayerId, Annotated[list[GoldCard], Field(max_length=28)]] | None = None


class EndGameTap(_Wire):
    kind: Literal["end_game"]


class UndoTap(_Wire):
    kind: Literal["undo"]


Tap = Annotated[EventTap | EndRoundTap | EndGameTap | UndoTap, Field(discriminator="kind")]


class Sent(_Wire):
    """One entry as the phone sends it (``POST /referee/api/entries``).

    ``check``: ask first whether the rules have something to say (the page was online
    when the entry was made, so the referee can still stop it); an entry made offline
    is sent with ``check`` false and recorded as it happened."""

    code: Code
    entry: EntryId
    base: Annotated[int, Field(ge=0)]
    check: bool = True
    at: PhoneTime | None = None
    """When the entry was made, by the phone's clock."""
    sent_at: PhoneTime | None = None
    """When it was sent, by the same clock: the server puts ``at`` on its own clock by
    the difference (a phone's clock may be minutes off; two phones' are)."""
    tap: Tap


class Opened(_Wire):
    """``POST /referee/api/begin``, ``/finish``, ``/score``'s common part (the times
    of the lines these write are the server's)."""

    code: Code


class Finishing(Opened):
    base: Annotated[int, Field(ge=0)]


class Scoring(Opened):
    roles: dict[PlayerId, Role]
    gold_cards: dict[PlayerId, Annotated[list[GoldCard], Field(max_length=28)]] | None = None


# -- what comes back ---------------------------------------------------------------------


class Seat(_Wire):
    player: str
    name: str


class DueView(_Wire):
    kind: str
    player: str | None
    slots: list[str]
    words: str
    ways: dict[str, dict[str, list[bool]]] = {}
    """For each goal due to be turned up, each goal card's ways of lying that join the
    path (R-G2: ``false`` upright, ``true`` turned), so the page offers only those."""


class CellView(_Wire):
    x: int
    y: int
    card: str
    picture: str
    """The key of the card's picture (``GET /referee/picture/<key>.svg``)."""
    goal: bool
    face_down: bool


class Standing(_Wire):
    """The game as the store has it, as the page draws it."""

    version: int
    lines: int
    finished: bool
    upload: int | None
    round: int
    due: DueView
    hands: dict[str, int]
    pile: int
    broken: dict[str, list[str]]
    maze: list[CellView]
    legal: dict[str, list[tuple[int, int, bool]]]
    """Where each tunnel card may be laid now (R-P1..R-P5), on a turn."""
    recent: list[str]
    """The last entries in words, newest first."""
    totals: dict[str, int]
    findings: int


class Answer(_Wire):
    """What became of an entry: ``recorded`` (``findings``: what the rules said of it),
    ``warning`` (not recorded: the rules' words, for the referee to decide), ``conflict``
    (another phone moved the draft on: ``theirs`` in words, and ``yours``), ``refused``
    (``problem``: it cannot be recorded at all), ``closed`` (the code opens no table)."""

    status: Literal["recorded", "warning", "conflict", "refused", "closed", "busy"]
    state: Standing | None = None
    findings: list[str] = []
    said: str = ""
    theirs: list[str] = []
    undone: int = 0
    problem: str = ""


class TableView(_Wire):
    """What a code opens: the table, its players, and its game if begun."""

    game_id: str
    tournament: str | None
    tournament_name: str
    round: int | None
    table: str | None
    ruleset: str
    rounds: int
    seats: list[Seat]
    stored: bool
    """The game's log is stored already: nothing more to record."""
    state: Standing | None
    tunnels: dict[str, tuple[str, str]]
    """Each tunnel card's picture keys, lying upright and turned."""
    pictures: str
    """Where the cards' pictures are, in the language answered in: a key and ``.svg`` after it."""
    card_names: dict[str, str]
    """Every card of the deck by its plain name."""
    tools: dict[str, list[str]]
    """The tool each broken-tool card breaks, the tools each repair card may mend."""


class Score(_Wire):
    winner: str
    said: str
    scores: dict[str, int]
