"""Penalties and the findings they settle (R-TS5): points deducted with a reason, for a
finding a referee noted or for something else; a penalty withdrawn; a finding
dismissed. Each is a new event: a finding is decided once (the stream's guards judge
it), and a penalty withdrawn leaves its finding open again.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from analytics.records.players import registered_in
from analytics.records.stream import Recorded, RecordError, append, shaped
from analytics.records.tournaments import as_stage, require
from analytics.standings import EVERY_FINDING
from events.records.tournament import FindingDismissed, PenaltyGiven, PenaltyWithdrawn
from events.rules.tournament import stage_rounds
from events.said import say
from ingest.store import Store


def penalty(
    store: Store,
    tournament: str,
    player: str,
    points: int,
    reason: str,
    stage: str = "preliminary",
    *,
    finding: str | None = None,
    found: _Found | None = None,
) -> Recorded:
    """Deduct points with a reason (R-TS5), for ``finding`` if one is named (see
    :func:`penalty_for`, which gives what it ``found`` of it)."""
    if not reason.strip():
        raise RecordError(say("a penalty needs a --reason"))
    if points <= 0:
        raise RecordError(say("a penalty deducts a positive number of points"))
    known = as_stage(stage)
    with store.connect(read_only=True) as con:
        told = require(con, tournament)
        if not stage_rounds(known, told.preliminary_rounds, told.semifinal):
            # deducted in no standings the tournament has, it would be recorded for nothing
            raise RecordError(
                say(
                    "%(tournament)s announced no semi-final: give the penalty in the preliminary or the final",
                    tournament=tournament,
                )
            )
        if player not in registered_in(con, tournament):
            raise RecordError(
                say("%(player)s is not registered in %(tournament)s", player=player, tournament=tournament)
            )
        if found is not None and found.players and player not in found.players:
            raise RecordError(
                say(
                    "%(player)s did not play %(game)s, where finding %(finding)s was found: its penalty goes to one of "
                    "its players (%(players)s); a penalty for something else is given without --finding",
                    player=player,
                    game=found.game,
                    finding=finding,
                    players=", ".join(found.players),
                )
            )
        at_the_stage = _at_stage(con, tournament, known)
        if at_the_stage and player not in at_the_stage:
            # the stage's standings rank only whom it seats or who played in it: deducted nowhere
            raise RecordError(
                say(
                    "%(player)s is not in the %(stage)s (it seats %(players)s): a penalty of the %(stage)s counts "
                    "in its standings alone; give it in a stage %(player)s plays",
                    player=player,
                    stage=known,
                    players=", ".join(sorted(at_the_stage)),
                )
            )
    with shaped():
        event = PenaltyGiven(
            type="penalty_given",
            player=player,
            points=points,
            stage=known,
            reason=reason.strip(),
            **({"finding": finding} if finding is not None else {}),
        )
    return append(store, tournament, [event])


def _at_stage(con: duckdb.DuckDBPyConnection, tournament: str, stage: str) -> set[str]:
    """The players a semi-final or final seats or who played in it, as its standings rank
    them (none yet: nobody is known to be out of it); none for the preliminaries, which
    rank every registered player."""
    if stage == "preliminary":
        return set()
    rows = con.execute(
        "SELECT player FROM seatings WHERE tournament = $t AND stage = $s UNION "
        "SELECT unnest(player_ids) FROM games WHERE tournament = $t AND stage = $s",
        {"t": tournament, "s": stage},
    ).fetchall()
    return {str(r[0]) for r in rows}


@dataclass(frozen=True, slots=True)
class _Found:
    """A stored finding as a record needs it: its game's stage and its players, the
    player it names."""

    stage: str
    player: str | None
    game: str
    players: tuple[str, ...]


def _finding(con: duckdb.DuckDBPyConnection, tournament: str, finding: str) -> _Found:
    """The finding ``finding`` of a game of ``tournament``; a :class:`RecordError` if
    none is stored, or it belongs to another tournament."""
    require(con, tournament)
    rows = con.execute(
        "SELECT g.tournament, coalesce(g.stage, 'preliminary'), f.player, g.game_id, g.player_ids "
        f"FROM {EVERY_FINDING} f JOIN games g USING (game_id) WHERE f.finding_id = ?",
        [finding],
    ).fetchall()
    if not rows:
        raise RecordError(say("no finding %(finding)s is stored", finding=finding))
    owner, stage, player, game, players = rows[0]
    if owner != tournament:
        raise RecordError(
            say(
                "finding %(finding)s belongs to %(owner)s, not %(tournament)s",
                finding=finding,
                owner=owner,
                tournament=tournament,
            )
            if owner
            else say(
                "finding %(finding)s belongs to no tournament, not %(tournament)s",
                finding=finding,
                tournament=tournament,
            )
        )
    return _Found(str(stage), player, str(game), tuple(str(p) for p in players or ()))


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
    needs ``player``, one of its game's: a penalty for what happened at a table goes to
    a player who sat there (a mistyped id of another registered player was recorded,
    unsaid, and settled the finding). The finding is settled by it (no longer open)."""
    with store.connect(read_only=True) as con:
        found = _finding(con, tournament, finding)
    who = player or found.player
    if who is None:
        raise RecordError(
            say("finding %(finding)s names no player: name the player whose penalty it is", finding=finding)
        )
    return penalty(store, tournament, who, points, reason, stage or found.stage, finding=finding, found=found)


def named_by(store: Store, tournament: str, finding: str) -> str | None:
    """The player a finding of ``tournament`` names (``None``: it names nobody); a
    :class:`RecordError` for a finding that is not the tournament's."""
    with store.connect(read_only=True) as con:
        return _finding(con, tournament, finding).player


def withdraw_penalty(store: Store, tournament: str, number: int, reason: str) -> Recorded:
    """Take back penalty ``number`` (given in error), with a reason (R-TS5): it stays in
    the record and no longer counts; a finding it was given for is open again."""
    if not reason.strip():
        raise RecordError(say("a withdrawal needs a --reason"))
    with shaped():
        event = PenaltyWithdrawn(type="penalty_withdrawn", penalty=number, reason=reason.strip())
    return append(store, tournament, [event])


def dismiss(store: Store, tournament: str, finding: str, reason: str) -> Recorded:
    """Set a finding aside with a reason (it stays in the record)."""
    if not reason.strip():
        raise RecordError(say("a dismissal needs a --reason"))
    with store.connect(read_only=True) as con:
        _finding(con, tournament, finding)
    event = FindingDismissed(type="finding_dismissed", finding=finding, reason=reason.strip())
    return append(store, tournament, [event])
