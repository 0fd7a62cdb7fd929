"""Tournament records: commands that append events to a tournament's stream.

Nothing is ever edited (R-TS5): a penalty, a correction, an accepted replay, a dismissed
finding, a seating or a cut draw is a new event with its reason, and the standings are
always computed from the whole record. Each command checks what it refers to (a player
registered, a game of this tournament, a finding that exists) and refuses with a clear
message otherwise; the tournament's read models are re-projected from its stream in
the same transaction as the append.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from random import Random
from typing import Any, Final, TypeVar

import duckdb
from pydantic import TypeAdapter, ValidationError

from events.records import dump
from events.records.tournament import (
    CutDrawn,
    FindingDismissed,
    PenaltyGiven,
    PlayerRegistered,
    ReplayAccepted,
    ScoreCorrected,
    SeatedTable,
    SeatingPublished,
    TournamentCreated,
    TournamentEvent,
)
from events.rules.tournament import (
    CUT,
    check_cut,
    check_final_rounds,
    check_preliminary_rounds,
    check_seating,
    draw_cut,
)
from events.schema import GameId, PlayerId, Stage
from events.tables import Ruleset
from ingest.chain import StoredEvent
from ingest.revisions import current, marker_type
from ingest.sources import project_tournament
from ingest.store import NewEvent, Store

T = TypeVar("T", bound=str)
STAGES: Final[tuple[Stage, ...]] = ("preliminary", "semifinal", "final")
RULESETS: Final[tuple[Ruleset, ...]] = ("tournament", "base")
_TOURNAMENT_ID: TypeAdapter[str] = TypeAdapter(GameId)
_PLAYER_ID: TypeAdapter[str] = TypeAdapter(PlayerId)


class RecordError(ValueError):
    """A command that cannot be recorded, with the reason a person can act on."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """What a command appended: the stream, its new version, the events."""

    stream: str
    version: int
    events: tuple[TournamentEvent, ...]


def stream_of(tournament: str) -> str:
    return f"tournament:{tournament}"


def _stream_events(
    store: Store, con: duckdb.DuckDBPyConnection, stream: str
) -> tuple[list[dict[str, Any]], int, int | None]:
    """The stream's current events (:func:`ingest.revisions.current`), its version, and
    the upload that created it (``None`` when a command did)."""
    events = store.read(con, stream)
    revision = current(events)
    version = events[-1].version if events else 0
    return [json.loads(e.payload) for e in revision.events], version, revision.upload_id


def append(store: Store, tournament: str, new: Sequence[TournamentEvent], *, creating: bool = False) -> Recorded:
    """Append ``new`` events to the tournament's stream and re-project its read models,
    in one transaction, at the version read (a concurrent append fails, never merges)."""
    stream = stream_of(tournament)
    with store.connect() as con:
        events, version, created_by = _stream_events(store, con, stream)
        if creating and events:
            raise RecordError(f"tournament {tournament} already exists")
        if not creating and not events:
            raise RecordError(f"no tournament {tournament}: create it first (saboteur tournament create)")
        appended = [NewEvent(stream, e.type, dump(e)) for e in new]
        store.append(con, stream, version, appended, rows=project_tournament([*events, *new], created_by))
    return Recorded(stream, version + len(new), tuple(new))


def history(store: Store, tournament: str) -> list[StoredEvent]:
    """The tournament's record in the order it was made: every event of its stream, and
    the markers of its games stored anew (``ingest --supersede``)."""
    with store.connect(read_only=True) as con:
        record = store.read(con, stream_of(tournament))
        games = {
            f"game:{g}"
            for (g,) in con.execute("SELECT game_id FROM games WHERE tournament = ?", [tournament]).fetchall()
        }
        markers = [e for e in store.read_all(con, types=[marker_type("game")]) if e.stream in games]
    return sorted([*record, *markers], key=lambda e: e.position)


@contextmanager
def _shaped() -> Iterator[None]:
    """Refuse, by field, what the event's model refuses (a stage that is none, a
    round out of range): a :class:`RecordError`, never a traceback."""
    try:
        yield
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RecordError(f"`{where}`: {first['msg']}") from None


def _one_of(text: str, allowed: tuple[T, ...], refusal: str) -> T:
    """``text`` as the one of ``allowed`` it names; a :class:`RecordError` otherwise."""
    for value in allowed:
        if value == text:
            return value
    raise RecordError(refusal)


def _stage(text: str) -> Stage:
    return _one_of(text, STAGES, "the stage is preliminary, semifinal or final")


def _valid(adapter: TypeAdapter[str], value: str, what: str) -> str:
    try:
        return adapter.validate_python(value)
    except ValidationError:
        raise RecordError(f"{value!r} is not a valid {what}") from None


def create(
    store: Store,
    tournament: str,
    *,
    name: str,
    ruleset: str = "tournament",
    preliminary_rounds: int = 4,
    cut: int = CUT,
    final_rounds: int = 4,
    semifinal: bool = False,
) -> Recorded:
    """Create a tournament with the limits its organiser announces (R-TS1, R-TS3, R-TS4)."""
    _valid(_TOURNAMENT_ID, tournament, "tournament id (1–128 of A-Z a-z 0-9 _ . : -)")
    known = _one_of(ruleset, RULESETS, "the ruleset is tournament or base")
    for breach in (check_preliminary_rounds(preliminary_rounds), check_cut(cut), check_final_rounds(final_rounds)):
        if breach is not None:
            raise RecordError(breach.message)
    if not name.strip():
        raise RecordError("a tournament needs a name")
    with _shaped():
        event = TournamentCreated(
            type="tournament_created",
            tournament=tournament,
            name=name.strip(),
            ruleset=known,
            preliminary_rounds=preliminary_rounds,
            cut=cut,
            final_rounds=final_rounds,
            semifinal=semifinal,
        )
    return append(store, tournament, [event], creating=True)


def register(store: Store, tournament: str, players: Sequence[tuple[str, str]]) -> Recorded:
    """Register players (id, display name); a second registration renames."""
    events: list[TournamentEvent] = []
    for player, name in players:
        _valid(_PLAYER_ID, player, "player id (1–64 of A-Z a-z 0-9 _ . -)")
        if not name.strip():
            raise RecordError(f"player {player} needs a name")
        events.append(PlayerRegistered(type="player_registered", player=player, name=name.strip()))
    if not events:
        raise RecordError("no players to register")
    return append(store, tournament, events)


def read_player_list(text: str) -> list[tuple[str, str]]:
    """A player list as CSV with the header ``player,name``; errors name the line."""
    import csv
    import io

    reader = csv.reader(io.StringIO(text))
    header = [h.strip() for h in next(reader, [])]
    if header != ["player", "name"]:
        raise RecordError(f"line 1: the columns must be player,name; found {','.join(header) or 'nothing'}")
    people = []
    for number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2:
            raise RecordError(f"line {number}: two values (player,name), found {len(row)}")
        player, name = (cell.strip() for cell in row)
        try:
            _PLAYER_ID.validate_python(player)
        except ValidationError:
            raise RecordError(f"line {number}: {player!r} is not a valid player id") from None
        if not name:
            raise RecordError(f"line {number}: {player} needs a name")
        people.append((player, name))
    return people


def _require(con: duckdb.DuckDBPyConnection, tournament: str) -> None:
    if not con.execute("SELECT 1 FROM tournaments WHERE tournament = ?", [tournament]).fetchall():
        raise RecordError(f"no tournament {tournament}: create it first (saboteur tournament create)")


def _registered(con: duckdb.DuckDBPyConnection, tournament: str) -> set[str]:
    rows = con.execute("SELECT player FROM tournament_players WHERE tournament = ?", [tournament]).fetchall()
    return {str(r[0]) for r in rows}


def penalty(
    store: Store,
    tournament: str,
    player: str,
    points: int,
    reason: str,
    stage: str = "preliminary",
    *,
    finding: str | None = None,
) -> Recorded:
    """Deduct points with a reason (R-TS5), for ``finding`` if one is named (see
    :func:`penalty_for`)."""
    if not reason.strip():
        raise RecordError("a penalty needs a --reason")
    if points <= 0:
        raise RecordError("a penalty deducts a positive number of points")
    known = _stage(stage)
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        if player not in _registered(con, tournament):
            raise RecordError(f"{player} is not registered in {tournament}")
    with _shaped():
        event = PenaltyGiven(
            type="penalty_given",
            player=player,
            points=points,
            stage=known,
            reason=reason.strip(),
            **({"finding": finding} if finding is not None else {}),
        )
    return append(store, tournament, [event])


@dataclass(frozen=True, slots=True)
class _Found:
    """A stored finding as a record needs it: its game's stage, the player it names."""

    stage: str
    player: str | None


def _finding(con: duckdb.DuckDBPyConnection, tournament: str, finding: str) -> _Found:
    """The finding ``finding`` of a game of ``tournament``; a :class:`RecordError` if
    none is stored, or it belongs to another tournament."""
    _require(con, tournament)
    rows = con.execute(
        "SELECT g.tournament, coalesce(g.stage, 'preliminary'), f.player "
        "FROM findings f JOIN games g USING (game_id) WHERE f.finding_id = ?",
        [finding],
    ).fetchall()
    if not rows:
        raise RecordError(f"no finding {finding} is stored")
    owner, stage, player = rows[0]
    if owner != tournament:
        raise RecordError(f"finding {finding} belongs to {owner or 'no tournament'}, not {tournament}")
    return _Found(str(stage), player)


def penalty_for(
    store: Store,
    tournament: str,
    finding: str,
    points: int,
    reason: str,
    *,
    player: str | None = None,
    stage: str | None = None,
) -> Recorded:
    """Turn a finding (a ``table_incident`` a referee noted, R-C1) into a penalty that
    names it (R-TS5), in one record: the penalty goes to the player the finding names
    and counts in its game's stage, unless told otherwise; a finding that names nobody
    needs ``player``. The finding is settled by it (no longer open)."""
    with store.connect(read_only=True) as con:
        found = _finding(con, tournament, finding)
    who = player or found.player
    if who is None:
        raise RecordError(f"finding {finding} names no player: say whose penalty it is (--player)")
    return penalty(store, tournament, who, points, reason, stage or found.stage, finding=finding)


def _round_of(con: duckdb.DuckDBPyConnection, tournament: str, game: str, number: int) -> list[tuple[Any, ...]]:
    _require(con, tournament)
    game_rows = con.execute("SELECT tournament FROM games WHERE game_id = ?", [game]).fetchall()
    if not game_rows:
        raise RecordError(f"no game {game} is stored")
    if game_rows[0][0] != tournament:
        raise RecordError(f"game {game} belongs to {game_rows[0][0] or 'no tournament'}, not {tournament}")
    rows = con.execute(
        "SELECT player, recorded_points, replay_points FROM round_players WHERE game_id = ? AND round = ?",
        [game, number],
    ).fetchall()
    if not rows:
        raise RecordError(f"game {game} has no round {number}")
    return rows


def correct(store: Store, tournament: str, game: str, number: int, player: str, points: int, reason: str) -> Recorded:
    """Put a wrong score right: names what it corrects and why (R-TS5)."""
    if not reason.strip():
        raise RecordError("a correction needs a --reason")
    if not 0 <= points <= 100:
        raise RecordError("a round's points are 0 to 100")
    with store.connect(read_only=True) as con:
        rows = _round_of(con, tournament, game, number)
        if player not in {str(r[0]) for r in rows}:
            raise RecordError(f"{player} did not play round {number} of {game}")
    with _shaped():
        event = ScoreCorrected(
            type="score_corrected", game_id=game, round=number, player=player, points=points, reason=reason.strip()
        )
    return append(store, tournament, [event])


def accept_replay(store: Store, tournament: str, game: str, number: int, reason: str | None = None) -> Recorded:
    """The replay's outcome replaces what the score sheet said, for one round."""
    with store.connect(read_only=True) as con:
        rows = _round_of(con, tournament, game, number)
        if any(r[2] is None for r in rows):
            raise RecordError(f"the replay of round {number} of {game} does not settle every score")
    with _shaped():
        event = ReplayAccepted(
            type="replay_accepted", game_id=game, round=number, reason=(reason or "").strip() or None
        )
    return append(store, tournament, [event])


def dismiss(store: Store, tournament: str, finding: str, reason: str) -> Recorded:
    """Set a finding aside with a reason (it stays in the record)."""
    if not reason.strip():
        raise RecordError("a dismissal needs a --reason")
    with store.connect(read_only=True) as con:
        _finding(con, tournament, finding)
    event = FindingDismissed(type="finding_dismissed", finding=finding, reason=reason.strip())
    return append(store, tournament, [event])


def publish_seating(
    store: Store,
    tournament: str,
    number: int,
    tables: Sequence[Sequence[str]],
    *,
    stage: str,
    method: str,
    seed: int | None,
) -> Recorded:
    """Record a seating of one tournament round (tables of player ids, seat order
    kept): tables of 5–10 registered players, nobody twice (R-TS1)."""
    known = _stage(stage)
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        breach = check_seating(tables, _registered(con, tournament))
    if breach is not None:
        raise RecordError(breach.message)
    with _shaped():
        event = SeatingPublished(
            type="seating_published",
            tournament_round=number,
            stage=known,
            tables=[SeatedTable(table=str(i), players=list(table)) for i, table in enumerate(tables, start=1)],
            method=method,
            seed=seed,
        )
    return append(store, tournament, [event])


def cut_draw(
    store: Store, tournament: str, *, stage: str, tied: Sequence[str], places: int, points: int, stars: int, seed: int
) -> Recorded:
    """Draw the tie across the cut line with ``seed`` and record the draw (R-TS2, R-TS3):
    the standings place the drawn players by it from then on."""
    known = _stage(stage)
    with _shaped():
        event = CutDrawn(
            type="cut_drawn",
            stage=known,
            tied=sorted(tied),
            places=places,
            drawn=draw_cut(tied, places, Random(seed)),
            points=points,
            stars=stars,
            seed=seed,
        )
    return append(store, tournament, [event])
