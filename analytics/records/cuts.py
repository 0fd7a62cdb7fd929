"""The top cut of a stage (R-TS2, R-TS3): made once every game of the stage is in (or
forced, with why), a tie at its line drawn and recorded, and the later stages seated
from a cut the standings no longer give. What of a stage is not in yet
(:func:`unfinished`) is said by the cut and by the seating of the stage after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

import duckdb
import polars as pl

from analytics.records.stream import Recorded, RecordError, append, shaped
from analytics.records.tournaments import Announced, as_stage, require
from analytics.standings import standings_on
from analytics.table_order import table_key
from events.records.tournament import CutDrawn, CutForced
from events.rules.tournament import draw_cut, stage_before, stage_rounds
from events.said import Said, say
from events.tables import Stage
from ingest.store import Store


def unfinished(con: duckdb.DuckDBPyConnection, told: Announced, stage: Stage) -> list[Said]:
    """What of ``stage`` is not in yet, a line each: a round neither seated nor
    played, the seated tables of a round without their game. A round played without
    a published seating counts as in (a ``tournament.json`` need not seat)."""
    seated = con.execute(
        "SELECT DISTINCT tournament_round, table_label FROM seatings WHERE tournament = ? AND stage = ?",
        [told.tournament, stage],
    ).fetchall()
    played = con.execute(
        "SELECT DISTINCT tournament_round, table_label FROM games "
        "WHERE tournament = ? AND coalesce(stage, 'preliminary') = ?",
        [told.tournament, stage],
    ).fetchall()
    tables: dict[int, list[str]] = {}
    for number, table in seated:
        tables.setdefault(int(number), []).append(str(table))
    rounds_played = {int(number) for number, _ in played if number is not None}
    missing = []
    for number in stage_rounds(stage, told.preliminary_rounds, told.semifinal):
        if number not in tables and number not in rounds_played:
            missing.append(say("round %(round)s is not played", round=number))
            continue
        absent = sorted(set(tables.get(number, ())) - {str(t) for n, t in played if n == number}, key=table_key)
        if absent:
            missing.append(
                say("round %(round)s has no game in from table %(tables)s", round=number, tables=", ".join(absent))
            )
    return missing


def in_turn(parts: list[Said]) -> Said:
    """``parts`` as one sentence, each after the other with a semicolon (each is
    translated on its own: one part may hold a list of its own, "table 1, 2")."""
    whole = parts[0]
    for part in parts[1:]:
        whole = say("%(before)s; %(after)s", before=(whole,), after=(part,))
    return whole


def _cut_stage(told: Announced, stage: str) -> Stage:
    """``stage`` as a stage with a top cut this tournament plays: the preliminaries, or
    a semi-final it announced."""
    known = as_stage(stage)
    if known == "final":
        raise RecordError(say("the final has no cut: cut the stage before it (--stage preliminary or semifinal)"))
    if not stage_rounds(known, told.preliminary_rounds, told.semifinal):
        raise RecordError(
            say(
                "%(tournament)s announced no semi-final: cut the preliminaries (--stage preliminary)",
                tournament=told.tournament,
            )
        )
    return known


def begin_cut(store: Store, tournament: str, stage: str, *, forced: str | None = None) -> Recorded | None:
    """Check that the top cut of ``stage`` may be made (R-TS3): every game of the stage
    is in. Before then it is refused, naming what is missing, unless ``forced`` gives
    the reason to cut now, which is recorded (:class:`CutForced`); ``None`` when
    nothing needed recording."""
    with store.connect(read_only=True) as con:
        told = require(con, tournament)
        known = _cut_stage(told, stage)
        missing = unfinished(con, told, known)
    if not missing:
        return None
    if forced is None:
        raise RecordError(
            say(
                "not every game of the %(stage)s of %(tournament)s is in: %(missing)s. The cut is made once every "
                "game is in, since a draw at the cut line made earlier stops applying when later results change "
                "the tie; ingest the missing games, or cut now with --force --reason",
                stage=known,
                tournament=tournament,
                missing=(in_turn(missing),),
            )
        )
    if not forced.strip():
        raise RecordError(say("a forced cut needs a --reason"))
    with shaped():
        # the record keeps what was missing in English, as every record's text is kept
        event = CutForced(type="cut_forced", stage=known, missing=[m.english() for m in missing], reason=forced.strip())
    return append(store, tournament, [event])


@dataclass(frozen=True, slots=True)
class CutMoved:
    """A later stage seated from a cut that the standings no longer give (R-TS3): a
    cut forced before every game was in, or a penalty or correction after it."""

    stage: str
    tournament_round: int
    seated_outside: tuple[str, ...]
    """Seated, but no longer in the cut."""
    left_out: tuple[str, ...]
    """In the cut now, but not seated."""
    undrawn: tuple[str, ...] = ()
    """Tied across the cut line and not drawn: the cut is not settled until the tie is
    drawn (R-TS2), and who it gives is not known (in the cut, none of them, meanwhile)."""
    stage_before: str = "preliminary"


def cuts_moved(store: Store, tournament: str) -> list[CutMoved]:
    """Each semi-final or final whose newest seating seats other players than the cut
    of the stage before now gives (R-TS3: the best go on): nothing said it, and the
    final was ranked with a player the cut had since left out."""
    moved = []
    with store.connect(read_only=True) as con:
        told = require(con, tournament)
        for stage in ("semifinal", "final"):
            before = stage_before(stage, told.semifinal)
            if before is None:
                continue
            rows = con.execute(
                "SELECT tournament_round, list(player) FROM seatings WHERE tournament = ? AND stage = ? "
                "GROUP BY tournament_round ORDER BY tournament_round",
                [tournament, stage],
            ).fetchall()
            if not rows:
                continue
            table = standings_on(con, tournament, before)
            cut = {str(p) for p in table.filter(pl.col("in_cut"))["player"].to_list()}
            undrawn = tuple(sorted(str(p) for p in table.filter(pl.col("cut_tie_undrawn"))["player"].to_list()))
            for number, players in rows:
                seated = {str(p) for p in players}
                if seated != cut:
                    outside, left_out = tuple(sorted(seated - cut)), tuple(sorted(cut - seated))
                    moved.append(CutMoved(stage, int(number), outside, left_out, undrawn, before))
    return moved


def cut_draw(
    store: Store, tournament: str, *, stage: str, tied: Sequence[str], places: int, points: int, stars: int, seed: int
) -> Recorded:
    """Draw the tie across the cut line with ``seed`` and record the draw (R-TS2, R-TS3):
    the standings place the drawn players by it from then on."""
    known = as_stage(stage)
    with shaped():
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
