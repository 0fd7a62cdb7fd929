"""The read models' rows: one row type per table, from which its DDL and its Polars
schema come (:mod:`ingest.tables`), and the one rule of who won a round.

Both projections of a game — a log's replay and a score sheet's records — build the
same :class:`GameRow`, :class:`RoundRow` and :class:`RoundPlayerRow`, so the two cannot
disagree about a column; the tournament's stream builds the tournament rows.

Rows are slotted dataclasses built once by their projection, keyword by keyword, and
not frozen: a frozen dataclass costs five times as much to make, and the ingest makes
one row per card played. A row's builder may fill in what it learns last (the game id
of a card row); the ingest stamps the upload id and revision it decides on copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ingest.tables import BigInt, Columns, Row, TableColumns, table


def won(player: str, role: str | None, *, winner: str | None, connector: str | None) -> bool:
    """Whether ``player`` won the round (R-W1, R-W2): their side won — the gold diggers
    or the saboteurs — or a selfish dwarf won and they are the one who connected (a
    selfish dwarf wins alone). ``winner`` ``None``: the outcome is not known.

    >>> won("ann", "selfish_dwarf", winner="selfish_dwarf", connector="ann")
    True
    >>> won("bob", "selfish_dwarf", winner="selfish_dwarf", connector="ann")
    False
    >>> won("cem", "gold_digger", winner="gold_diggers", connector="dia")
    True
    """
    if winner == "gold_diggers":
        return role == "gold_digger"
    if winner == "saboteurs":
        return role == "saboteur"
    if winner == "selfish_dwarf":
        return player == connector
    return False


@table("projection", key=("name",))
class ProjectionRow(Row):
    """How far the read models reflect the events: the last event position applied,
    written in the same transaction as their rows."""

    name: str
    position: BigInt


# -- games -----------------------------------------------------------------------------


@table("games", key=("game_id",))
class GameRow(Row):
    """A game as stored: from a log or a score sheet."""

    game_id: str
    upload_id: BigInt
    source: str  # log | score_sheet
    recording: str | None = None
    """A log's ``recording`` (``full`` or ``observed``: event-log.md); null for a score
    sheet. Statistics that need what the table does not see leave observed rounds out."""
    ruleset: str
    tournament: str | None
    tournament_round: int | None
    stage: str | None
    table_label: str | None
    players: int
    player_ids: list[str]
    rounds_planned: int | None
    rounds_played: int
    status: str  # clean | violations
    errors: int
    warnings: int
    started_at: datetime | None
    ended_at: datetime | None
    revision: int


@table("rounds", key=("game_id", "round"))
class RoundRow(Row):
    """A round of a game, with its outcome as the rules give it."""

    game_id: str
    round: int
    ruleset: str
    players: int
    saboteurs: int
    selfish_dwarfs: int
    winner: str | None  # as the rules give it (null: not determinable)
    claimed_winner: str | None
    connector: str | None
    connector_role: str | None
    gold_slot: str | None
    ended_by: str | None  # gold | hands_empty | early | score_sheet
    turns: int | None
    start_player: str | None
    start_seat: int | None
    rockfalls: int | None
    maps: int | None
    errors: int
    started_at: datetime | None
    ended_at: datetime | None


@table("round_players", key=("game_id", "round", "player"))
class RoundPlayerRow(Row):
    """A player in a round: role, points recorded and as the replay gives them, star,
    whether they won (:func:`won`), whether they connected."""

    game_id: str
    round: int
    player: str
    seat: int
    role: str | None
    recorded_points: int | None
    replay_points: int | None
    star: bool
    won: bool
    connector: bool


@table("findings")
class FindingRow(Row):
    """A finding of an audit."""

    finding_id: str  # stable: a hash of where and what
    game_id: str | None
    upload_id: BigInt
    code: str
    line: int | None
    round: int | None
    player: str | None
    rule: str
    severity: str
    message: str  # in English
    said: str | None = None
    """The message as its sentence and values (:func:`events.said.stored`), to be put
    into the reader's language where it is shown (a store of schema version 6 gets it
    at its first write: :meth:`ingest.store.files.StoreFile._findings_said`)."""


@table("cards_played")
class CardPlayedRow(Row):
    """A card played or discarded in a round of a log. ``role`` and ``target_role`` are
    the roles as the round's end shows them (an observed log turns them up only then);
    ``card`` is null for a discard of an observed log (face down: nobody saw it)."""

    game_id: str
    round: int
    line: int
    turn: int
    player: str
    role: str | None
    type: str
    card: str | None
    target: str | None
    target_role: str | None
    tool: str | None
    x: int | None
    y: int | None
    goal: str | None


# -- tournaments -----------------------------------------------------------------------


@table("tournaments", key=("tournament",))
class TournamentRow(Row):
    """A tournament as created (R-TS1, R-TS3, R-TS4)."""

    tournament: str
    name: str
    ruleset: str
    preliminary_rounds: int | None
    cut: int | None
    final_rounds: int | None
    semifinal: bool
    upload_id: BigInt | None
    semifinal_cut: int | None = None
    """Last, as the upgrade to schema 9 adds it (``ALTER TABLE … ADD COLUMN``)."""


@table("tournament_players", key=("tournament", "player"))
class TournamentPlayerRow(Row):
    """A registered player (the newest registration's name), and whether they have
    withdrawn from the tournament (``player_withdrawn``, unless a ``player_returned``
    came after it)."""

    tournament: str
    player: str
    name: str
    withdrawn_seq: int | None = None
    """The record that withdrew the player (its ``seq``); null while they play on."""
    withdrawn_reason: str | None = None


@table("seatings")
class SeatingRow(Row):
    """A seat of a published seating (the newest seating of a round and stage)."""

    tournament: str
    tournament_round: int
    stage: str
    table_label: str
    seat: int
    player: str
    seq: int  # the seating's place in the tournament's stream


@dataclass(slots=True, kw_only=True)
class RecordRow(Row):
    """A row for one record of a tournament's stream: the tournament, and the record's
    place in its stream (``seq``: a later record wins)."""

    tournament: str
    seq: int


@table("penalties")
class PenaltyRow(RecordRow):
    """Points deducted, with the reason (R-TS5), unless the penalty was withdrawn."""

    player: str
    stage: str
    points: int
    reason: str
    finding: str | None = None
    """The finding it was given for (``findings.finding_id``), if one."""
    number: int
    """The penalty's number in its tournament (1, 2, 3… in the order given), by which a
    ``penalty_withdrawn`` names it."""
    withdrawn_seq: int | None = None
    """The record that withdrew it (its ``seq``); null while it counts."""
    withdrawn_reason: str | None = None


@table("corrections")
class CorrectionRow(RecordRow):
    """A score put right, with the reason (R-TS5); ``star`` null where it was left as
    the round gave it."""

    game_id: str
    round: int
    player: str
    points: int
    reason: str
    star: bool | None = None


@table("accepted_replays")
class AcceptedReplayRow(RecordRow):
    """A round whose replay's outcome replaces what the score sheet said."""

    game_id: str
    round: int
    reason: str | None


@table("dismissals")
class DismissalRow(RecordRow):
    """A finding set aside, with the reason."""

    finding_id: str
    reason: str


@table("cut_draws")
class CutDrawRow(RecordRow):
    """A recorded draw among players tied across the cut line (R-TS3)."""

    stage: str
    tied: list[str]
    places: int
    drawn: list[str]
    points: int | None
    stars: int | None
    seed: BigInt | None


@table("referee_codes")
class RefereeCodeRow(RecordRow):
    """A referee code issued for one table of a round's seating, by its SHA-256 (the
    code itself is kept nowhere), and what ended it if anything did: the record that
    revoked it — the organiser's ``referee_code_revoked``, or a newer code issued for
    the table — and why."""

    tournament_round: int
    stage: str
    table_label: str
    code_sha256: str
    revoked_seq: int | None = None
    revoked_reason: str | None = None


GAME_ROWS: Final = (GameRow, RoundRow, RoundPlayerRow, FindingRow, CardPlayedRow)
"""Read models keyed by ``game_id``: a game stream's rows, replaced together."""
TOURNAMENT_ROWS: Final = (
    TournamentRow,
    TournamentPlayerRow,
    SeatingRow,
    PenaltyRow,
    CorrectionRow,
    AcceptedReplayRow,
    DismissalRow,
    CutDrawRow,
    RefereeCodeRow,
)
"""Read models keyed by ``tournament``: a tournament stream's rows, replaced together."""
ROW_TYPES: Final[dict[str, type[Row]]] = {t.TABLE: t for t in (ProjectionRow, *GAME_ROWS, *TOURNAMENT_ROWS)}
"""Every read model's row type by table name, in the order the tables are built."""
GAME_TABLES: Final = tuple(t.TABLE for t in GAME_ROWS)
TOURNAMENT_TABLES: Final = tuple(t.TABLE for t in TOURNAMENT_ROWS)
PROJECTED: Final = {"game": ("game_id", GAME_TABLES), "tournament": ("tournament", TOURNAMENT_TABLES)}
"""For each kind of stream (``game:<id>``, ``tournament:<id>``): the column holding its
id and the read models its events project into. Appending to a stream replaces its rows."""

Rows = dict[str, list[Any]]
"""Read-model rows by table name, each an instance of that table's row type."""
Tables = dict[str, TableColumns]
"""Read-model rows by table name, as columns: what an audited file carries to the
writer (:class:`~ingest.tables.Columns`; from a worker's task,
:class:`~ingest.tables.ArrowColumns`)."""


def as_columns(rows: Rows) -> Tables:
    """Rows by table as columns (a table without rows left out)."""
    return {table: Columns.of(ROW_TYPES[table], table_rows) for table, table_rows in rows.items() if table_rows}
