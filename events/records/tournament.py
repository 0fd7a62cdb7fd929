"""The events of a tournament's stream (``tournament:<id>``).

A tournament is created, its players registered and its rounds seated, from a
``tournament.json`` (:mod:`events.records.tournament_file`) or by the organiser's
commands; players withdrawn (and back), penalties (and their withdrawal), corrections,
accepted replays, dismissed findings, draws at the cut line and cuts forced before
their stage was over follow
(R-TS5: nothing is edited, every change is a new event with its reason), each
checkpoint of the store's chain the organiser publishes, and the referee codes that open
a table's recording (by their hash: the record is public, the codes are not).

The models describe what the store may hold, so they read every record the ledger has
ever written: where the rules were tightened later (a cut of 5–10, R-TS3), a model
keeps the older bound and the commands check the rule (:mod:`events.rules.tournament`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, TypeAdapter

from events.records import Record, published_schema
from events.rules.tournament import FINAL_ROUNDS, MAX_TABLE, PRELIMINARY_ROUNDS, SEMIFINAL_MOST
from events.schema import GameId, PlayerId
from events.tables import Ruleset, Stage

Text = Annotated[str, StringConstraints(min_length=1)]
"""A name or a reason: never empty (R-TS5: every record says why)."""
TournamentRound = Annotated[int, Field(ge=1, le=1000)]
GameRound = Annotated[int, Field(ge=1, le=4)]
Tally = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]
"""Points or stars of a tie as the read models hold them (INTEGER): a larger number
could never be stored, so no record of one exists."""
Seed = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
"""The seed of a draw as the read models hold it (BIGINT)."""


class TournamentEvent(Record):
    """Fields every event of a tournament's stream has."""

    type: str


class TournamentCreated(TournamentEvent):
    """The tournament and what its organiser announced (R-TS1, R-TS3, R-TS4)."""

    type: Literal["tournament_created"]
    tournament: GameId
    name: Text
    ruleset: Ruleset
    preliminary_rounds: Annotated[int, Field(ge=PRELIMINARY_ROUNDS[0], le=PRELIMINARY_ROUNDS[1])]
    cut: Annotated[int, Field(ge=1, le=MAX_TABLE)]
    """1–10: records made before the cut's range was agreed (5–10, R-TS3) are read as
    written; new ones are checked by :func:`events.rules.tournament.check_cut`."""
    final_rounds: Annotated[int, Field(ge=FINAL_ROUNDS[0], le=FINAL_ROUNDS[1])]
    semifinal: bool = False
    """Left out by a ``tournament.json``, which announces no semi-final."""
    semifinal_cut: Annotated[int, Field(ge=1, le=SEMIFINAL_MOST)] | None = None
    """Players the preliminaries send to the semi-final, whose own top cut of ``cut``
    goes on to the final (R-TS3); left out, ``cut`` (as records made before it was asked
    for have it: the same players then play the semi-final and the final)."""


class PlayerRegistered(TournamentEvent):
    """A player and the name shown for them; a second registration renames."""

    type: Literal["player_registered"]
    player: PlayerId
    name: Text


class PlayerWithdrawn(TournamentEvent):
    """A player who leaves the tournament (gone home, taken ill), and why. The rules are
    silent on it; what a tournament does: the rounds they played stand, and they stay in
    the standings where their points put them, but no later round seats them and a cut
    passes them over (the next player goes through in their place). ``player_returned``
    takes it back."""

    type: Literal["player_withdrawn"]
    player: PlayerId
    reason: Text


class PlayerReturned(TournamentEvent):
    """A withdrawn player back in the tournament (withdrawn in error, or back from the
    doctor's), and why: seated and cut as every other player from then on."""

    type: Literal["player_returned"]
    player: PlayerId
    reason: Text


TableLabel = Annotated[str, StringConstraints(min_length=1, max_length=64)]
"""A table of a seating, by its label ("3", "final")."""


class SeatedTable(Record):
    """One table of a seating: its label and its players in seat order."""

    table: TableLabel
    players: Annotated[list[PlayerId], Field(min_length=1, max_length=MAX_TABLE)]


class Seating(Record):
    """Who sits at which table in one tournament round of one stage (R-TS1)."""

    tournament_round: TournamentRound
    stage: Stage
    tables: list[SeatedTable]


class SeatingPublished(Seating, TournamentEvent):
    """A seating as published; a later one of the same round and stage replaces it,
    and says why in ``reason`` (the organiser's ``seat --replace``; the seating it
    replaces stays in the record). ``method`` and ``seed`` say how the organiser's
    command drew it, so it can be redrawn; a ``tournament.json`` leaves them out, and
    seatings recorded before replacements needed a reason have none."""

    type: Literal["seating_published"]
    method: Text | None = None
    seed: int | None = None
    reason: Text | None = None


class PenaltyGiven(TournamentEvent):
    """Points deducted with a reason, in the standings of one stage (R-TS5); ``finding``
    names the finding it was given for, as ``finding_dismissed`` does (a
    ``table_incident`` the referee noted, R-C1). Penalties recorded before it existed
    name none."""

    type: Literal["penalty_given"]
    player: PlayerId
    points: Annotated[int, Field(gt=0, le=1_000_000)]
    stage: Stage = "preliminary"
    reason: Text
    finding: Text | None = None


class PenaltyWithdrawn(TournamentEvent):
    """A penalty given in error taken back, and why (R-TS5: the penalty stays in the
    record, and no longer counts). ``penalty`` is its number: the tournament's penalties
    are numbered 1, 2, 3… in the order they were given, which a new ``tournament.json``
    never changes (it records no penalty)."""

    type: Literal["penalty_withdrawn"]
    penalty: Annotated[int, Field(ge=1, le=2**31 - 1)]
    reason: Text


class ScoreCorrected(TournamentEvent):
    """A player's points in one round of one game put right, and why (R-TS5); the
    newest correction counts. ``star``, when given, puts the player's star for the
    round right too (a score sheet with the star on the wrong player: R-W1 gives it
    with the points); left out, the star stays as the round gave it."""

    type: Literal["score_corrected"]
    game_id: GameId
    round: GameRound
    player: PlayerId
    points: Annotated[int, Field(ge=0, le=100)]
    reason: Text
    star: bool | None = None


class ReplayAccepted(TournamentEvent):
    """The replay's outcome replaces what the score sheet said, for one round."""

    type: Literal["replay_accepted"]
    game_id: GameId
    round: GameRound
    reason: Text | None


class FindingDismissed(TournamentEvent):
    """A finding set aside with a reason; it stays in the record."""

    type: Literal["finding_dismissed"]
    finding: Text
    reason: Text


class CutDraw(Record):
    """A tie across the cut line that stars do not break, drawn (R-TS2): the tied
    players, the places left, the drawn in the order drawn, the points and stars of
    the tie, and the seed of the draw where one was used."""

    stage: Stage = "preliminary"
    tied: Annotated[list[PlayerId], Field(min_length=2)]
    places: Annotated[int, Field(ge=1)]
    drawn: Annotated[list[PlayerId], Field(min_length=1)]
    points: Tally | None = None
    stars: Annotated[Tally, Field(ge=0)] | None = None
    seed: Seed | None = None


class CutDrawn(CutDraw, TournamentEvent):
    """A draw at the cut line, recorded so the standings can be replayed (R-TS2)."""

    type: Literal["cut_drawn"]

    @classmethod
    def of(cls, draw: CutDraw) -> CutDrawn:
        """The event recording ``draw``, with the fields the draw was given: a draw
        is the event's fields, and never its ``type``."""
        return cls(type="cut_drawn", **draw.model_dump(exclude_unset=True))


class CutForced(TournamentEvent):
    """A top cut made before every game of its stage was in, and why (R-TS3, R-TS5):
    what was still missing then, as the refusal named it. It lets the next stage be
    seated from the cut as it stands; a draw at the cut line made then stops applying
    if later results change the tie (the standings say so, and ``cut`` draws again)."""

    type: Literal["cut_forced"]
    stage: Stage
    missing: Annotated[list[Text], Field(min_length=1)]
    reason: Text


Hash = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256, hex."""


class Checkpoint(Record):
    """The store's chain heads as the organiser published them (``docs/chain.md``): the
    newest event's position and hash, the newest upload's id and link hash, when
    (UTC, ISO 8601), the SHA-256 of the public key that signed, and the Ed25519
    signature (base64) of the rest."""

    position: Annotated[int, Field(ge=0)]
    head: Hash
    uploads: Annotated[int, Field(ge=0)]
    uploads_head: Hash
    published_at: Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")]
    key: Hash
    signature: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9+/]{86}==$")]


class CheckpointPublished(Checkpoint, TournamentEvent):
    """A checkpoint published, recorded in the tournament's record: the checkpoint
    itself, so anyone reading the record can check its signature."""

    type: Literal["checkpoint_published"]

    @classmethod
    def of(cls, checkpoint: Checkpoint) -> CheckpointPublished:
        """The event recording ``checkpoint``: its fields, never a ``type`` of its own."""
        return cls(type="checkpoint_published", **checkpoint.model_dump())


class RefereeCodeIssued(TournamentEvent):
    """A code issued to record one table of one round's seating (its ``stage``): the
    holder of the code may record that table only. The code itself is printed on the
    table's card and kept nowhere: the record, which anyone may read (``tournament
    log``), holds its SHA-256 alone, from which the code cannot be found.

    A table has one code at a time: a code issued for a table of a round that has one
    revokes the older code, without a ``referee_code_revoked`` of its own (a card
    reprinted replaces the card lost)."""

    type: Literal["referee_code_issued"]
    tournament_round: TournamentRound
    stage: Stage
    table: TableLabel
    code_sha256: Hash


class RefereeCodeRevoked(TournamentEvent):
    """A table's code revoked by the organiser, and why: from then on it opens nothing.
    It names the code by its hash, so the record says which card it was even when a
    newer code was issued for the table since."""

    type: Literal["referee_code_revoked"]
    tournament_round: TournamentRound
    table: TableLabel
    code_sha256: Hash
    reason: Text


AnyTournamentEvent = Annotated[
    TournamentCreated
    | PlayerRegistered
    | PlayerWithdrawn
    | PlayerReturned
    | SeatingPublished
    | PenaltyGiven
    | PenaltyWithdrawn
    | ScoreCorrected
    | ReplayAccepted
    | FindingDismissed
    | CutDrawn
    | CutForced
    | CheckpointPublished
    | RefereeCodeIssued
    | RefereeCodeRevoked,
    Field(discriminator="type"),
]
TOURNAMENT_EVENT: Final[TypeAdapter[AnyTournamentEvent]] = TypeAdapter(AnyTournamentEvent)


def tournament_event(event: TournamentEvent | Mapping[str, Any]) -> TournamentEvent:
    """A typed event: ``event`` itself, or a stored payload (decoded JSON) parsed."""
    if isinstance(event, TournamentEvent):
        return event
    return TOURNAMENT_EVENT.validate_python(event)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one event of a tournament's stream."""
    return published_schema(
        TOURNAMENT_EVENT,
        "saboteur-tournament-events-1.schema.json",
        "Saboteur tournament stream event",
        (
            "One event of a tournament's stream (tournament:<id>), as the ledger stores it. "
            "References across events (a registered player, a stored game or finding) and "
            "the tournament rules R-TS1..R-TS5 are checked where the records are made."
        ),
    )
