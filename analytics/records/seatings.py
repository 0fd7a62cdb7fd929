"""A round's seating (R-TS1): published as tables of registered players, and whom the
organiser's ``seat`` may seat in a round — every player who has not withdrawn in the
preliminaries, the cut of the stage before in a semi-final or the final (R-TS3).
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from analytics.records.cuts import in_turn, unfinished
from analytics.records.players import registered_in, withdrawn_in
from analytics.records.stream import Recorded, RecordError, append, seated_already, shaped, stream_events, stream_of
from analytics.records.tournaments import as_stage, require
from analytics.standings import standings_on
from events.records.tournament import SeatedTable, SeatingPublished
from events.rules.tournament import check_final_table, check_seating, check_tournament_round, stage_before
from events.said import say
from events.tables import Stage
from ingest.store import Store


def publish_seating(
    store: Store,
    tournament: str,
    number: int,
    tables: Sequence[Sequence[str]],
    *,
    stage: str,
    method: str,
    seed: int | None,
    reason: str | None = None,
    labels: Sequence[str] | None = None,
) -> Recorded:
    """Record a seating of one tournament round (tables of player ids, seat order
    kept): tables of 5–10 registered players, nobody twice (R-TS1); ``reason`` says
    why it replaces the round's seating; ``labels`` are the tables' labels, one each
    and none twice (by default 1, 2, 3 …). Who may be seated in which round is the
    organiser's command's question first (:func:`seating_players`)."""
    named = [str(i) for i in range(1, len(tables) + 1)] if labels is None else list(labels)
    if len(named) != len(tables) or len(set(named)) != len(named):
        raise RecordError(say("a seating names each of its tables once"))
    known = as_stage(stage)
    with store.connect(read_only=True) as con:
        require(con, tournament)
        breach = check_final_table(known, len(tables)) or check_seating(
            tables, registered_in(con, tournament), labels=named
        )
    if breach is not None:
        raise RecordError(breach.said)
    with shaped():
        event = SeatingPublished(
            type="seating_published",
            tournament_round=number,
            stage=known,
            tables=[SeatedTable(table=label, players=list(table)) for label, table in zip(named, tables, strict=True)],
            method=method,
            seed=seed,
            **({"reason": reason.strip()} if reason is not None else {}),
        )
    return append(store, tournament, [event])


def _forced(store: Store, con: duckdb.DuckDBPyConnection, tournament: str, stage: Stage) -> bool:
    """Whether the cut of ``stage`` was forced (:func:`begin_cut`)."""
    events, _, _ = stream_events(store, con, stream_of(tournament))
    return any(e["type"] == "cut_forced" and e["stage"] == stage for e in events)


def seating_players(store: Store, tournament: str, number: int, stage: str, *, replace: str | None = None) -> list[str]:
    """The players the organiser's ``seat`` seats in round ``number`` of ``stage``,
    after the checks that guard it; a :class:`RecordError` naming what to do instead
    otherwise.

    - The round is one the tournament announced for the stage (R-TS1, R-TS3, R-TS4).
    - A round already seated is seated anew only with the ``replace`` reason (the
      seating it replaces stays in the record).
    - The preliminaries seat every registered player who has not withdrawn; a
      semi-final or the final seats the cut of the stage before it (R-TS3), made once
      that stage is over (or the cut forced, :func:`begin_cut`) and with no tie at the
      cut line left undrawn (a cut passes a withdrawn player over).
    """
    known = as_stage(stage)
    with store.connect(read_only=True) as con:
        told = require(con, tournament)
        breach = check_tournament_round(number, known, told.preliminary_rounds, told.semifinal)
        if breach is not None:
            raise RecordError(
                say(
                    "%(problem)s (%(rule)s): seat a round the tournament announced",
                    problem=(breach.said,),
                    rule=breach.rule,
                )
            )
        seated = con.execute(
            "SELECT 1 FROM seatings WHERE tournament = ? AND tournament_round = ? AND stage = ?",
            [tournament, number, known],
        ).fetchall()
        if seated and replace is None:
            raise RecordError(seated_already(number, tournament))
        if replace is not None and not replace.strip():
            raise RecordError(say("a replaced seating needs a --reason"))
        before = stage_before(known, told.semifinal)
        if before is None:  # every registered player who has not withdrawn
            return sorted(registered_in(con, tournament) - set(withdrawn_in(con, tournament)))
        missing = unfinished(con, told, before)
        if missing and not _forced(store, con, tournament, before):
            raise RecordError(
                say(
                    "the %(stage)s is seated from the cut of the %(earlier)s, not every game of which is in: "
                    "%(missing)s. Ingest the missing games and cut (%(command)s), or cut now with --force --reason",
                    stage=known,
                    earlier=before,
                    missing=(in_turn(missing),),
                    command=f"saboteur tournament cut --stage {before}",
                )
            )
        table = standings_on(con, tournament, before)
    undrawn = sorted(table.filter(pl.col("cut_tie_undrawn"))["player"].to_list())
    if undrawn:
        raise RecordError(
            say(
                "%(players)s are tied across the cut line: draw the tie first (%(command)s)",
                players=tuple(undrawn),
                command=f"saboteur tournament cut --stage {before}",
            )
        )
    return [str(p) for p in table.filter(pl.col("in_cut"))["player"].to_list()]
