"""A round's score decided anew (R-TS5): a correction of one player's points, or the
replay's outcome accepted in place of what the score sheet said; the newest decision on
a round counts. Each names the decisions on the round it was made after (``seen``), so
that one made meanwhile is not replaced unseen; and the organiser who corrects a round
is told what it still has wrong.
"""

from __future__ import annotations

from typing import Any, Final

import duckdb

from analytics.records.stream import Recorded, RecordError, append, shaped
from analytics.records.tournaments import require
from analytics.standings import FINDING_STATUS, round_fits, with_still_wrong
from events.records.tournament import ReplayAccepted, ScoreCorrected
from events.rules.tournament import check_round_points
from events.said import say
from ingest.store import Store


def _round_of(con: duckdb.DuckDBPyConnection, tournament: str, game: str, number: int) -> list[tuple[Any, ...]]:
    require(con, tournament)
    game_rows = con.execute("SELECT tournament FROM games WHERE game_id = ?", [game]).fetchall()
    if not game_rows:
        raise RecordError(say("no game %(game)s is stored", game=game))
    owner = game_rows[0][0]
    if owner != tournament:
        raise RecordError(
            say("game %(game)s belongs to %(owner)s, not %(tournament)s", game=game, owner=owner, tournament=tournament)
            if owner
            else say("game %(game)s belongs to no tournament, not %(tournament)s", game=game, tournament=tournament)
        )
    rows = con.execute(
        "SELECT player, recorded_points, replay_points FROM round_players WHERE game_id = ? AND round = ?",
        [game, number],
    ).fetchall()
    if not rows:
        raise RecordError(say("game %(game)s has no round %(round)s", game=game, round=number))
    return rows


def correct(
    store: Store,
    tournament: str,
    game: str,
    number: int,
    player: str,
    points: int,
    reason: str,
    *,
    star: bool | None = None,
    seen: int | None = None,
) -> Recorded:
    """Put a wrong score right: names what it corrects and why (R-TS5), and the
    player's star for the round too when ``star`` is given (left as the round gave it
    otherwise). ``seen``: the :func:`decisions` on the player's round the correction was
    made after (a page's form): refused if another came meanwhile. The command line
    gives none: its organiser typed what the round is to be."""
    if not reason.strip():
        raise RecordError(say("a correction needs a --reason"))
    with store.connect(read_only=True) as con:
        breach = check_round_points(points, require(con, tournament).ruleset)
        if breach is not None:
            raise RecordError(
                say("%(problem)s: enter the points the round gave (%(rule)s)", problem=(breach.said,), rule=breach.rule)
            )
        rows = _round_of(con, tournament, game, number)
        if player not in {str(r[0]) for r in rows}:
            raise RecordError(
                say("%(player)s did not play round %(round)s of %(game)s", player=player, round=number, game=game)
            )
    with shaped():
        event = ScoreCorrected(
            type="score_corrected",
            game_id=game,
            round=number,
            player=player,
            points=points,
            reason=reason.strip(),
            **({"star": star} if star is not None else {}),
        )
    return append(store, tournament, [event], seen=seen)


_OPEN_WRONG_SCORES: Final = """
SELECT f.finding_id FROM findings f
WHERE f.game_id = $game AND f.round = $round AND f.code = 'wrong_score' AND {status} = 'open'
ORDER BY f.line""".replace("{status}", FINDING_STATUS.replace("{tournament}", "$tournament"))


def still_wrong_in(store: Store, tournament: str, game: str, number: int) -> list[str]:
    """The ``wrong_score`` findings of one round still open after a correction, as the
    findings list has them (:data:`analytics.standings.FINDING_STATUS`): those its
    corrections have not put right, a correction of another player leaving them as they
    were, and not one dismissed or penalised. The organiser who just corrected the round
    is told of them."""
    with store.connect(read_only=True) as con:
        sql = with_still_wrong(_OPEN_WRONG_SCORES, con, tournament)
        rows = con.execute(sql, {"tournament": tournament, "game": game, "round": number}).fetchall()
    return [str(r[0]) for r in rows]


def corrected_off_the_rules(store: Store, tournament: str, game: str, number: int) -> bool:
    """Whether one round as corrected is not what the rules give, though no finding of it
    says so (:func:`still_wrong_in` tells of those): a correction of a clean round to a
    score no outcome allows (a losing saboteur given 4) is the organiser's to make, and
    to be told of."""
    with store.connect(read_only=True) as con:
        return not round_fits(con, tournament, game, number)


def accept_replay(
    store: Store, tournament: str, game: str, number: int, reason: str | None = None, *, seen: int | None = None
) -> Recorded:
    """The replay's outcome replaces what the score sheet said, for one round, and
    any correction of it made before (the newest decision on a round counts); refused
    when the replay is the round's newest decision already, and for a round its log
    stopped before it was over (R-E2): the replay scores it as "the gold was not
    reached", the saboteurs' points without their star, a win nobody played out.
    ``seen``: the :func:`decisions` on the round the acceptance was made after (a page's
    form): refused if another came meanwhile, which it would replace unseen."""
    with store.connect(read_only=True) as con:
        rows = _round_of(con, tournament, game, number)
        (source,) = con.execute("SELECT source FROM games WHERE game_id = ?", [game]).fetchone() or ("log",)
        if source == "score_sheet":
            raise RecordError(
                say(
                    "%(game)s was entered from a score sheet: it has no replay to accept; correct its scores instead",
                    game=game,
                )
            )
        if any(r[2] is None for r in rows):
            raise RecordError(
                say("the replay of round %(round)s of %(game)s does not settle every score", round=number, game=game)
            )
        (ended_by,) = con.execute(
            "SELECT ended_by FROM rounds WHERE game_id = ? AND round = ?", [game, number]
        ).fetchone() or (None,)
        if ended_by == "early":  # the replay's scores are "the gold was not reached", which nobody played out
            raise RecordError(
                say(
                    "round %(round)s of %(game)s was stopped before it was over (R-E2): the rules give it no "
                    "winner, and its replay no score to accept; correct its scores instead",
                    round=number,
                    game=game,
                )
            )
    with shaped():
        event = ReplayAccepted(
            type="replay_accepted", game_id=game, round=number, reason=(reason or "").strip() or None
        )
    return append(store, tournament, [event], seen=seen)
