"""``saboteur tournament cut``: a stage's top cut (R-TS3), begun or forced, a tie at
its line drawn with a seed and recorded, and the players who go on
(:mod:`analytics.records.cuts`)."""

from __future__ import annotations

from typing import Annotated

import polars as pl
import typer
from rich.markup import escape

from analytics import browse, records
from analytics.standings import standings
from cli.errors import refuse
from cli.options import with_writing_store
from cli.speech import speaking, told
from cli.tournament.common import console, done, named, nobody, run
from events.records.tournament import CutDrawn
from events.said import say
from ingest.store import Store


@speaking
@with_writing_store
def cut(
    tournament: str,
    seed: Annotated[int, typer.Option(help="Seed of the draw for a tie at the cut line.")] = 0,
    stage: Annotated[str, typer.Option(help="The stage being cut: preliminary or semifinal.")] = "preliminary",
    force: Annotated[
        bool, typer.Option("--force", help="Cut before every game of the stage is in (with --reason).")
    ] = False,
    reason: Annotated[str | None, typer.Option(help="Why the cut is forced (with --force).")] = None,
    *,
    store: Store,
) -> None:
    """The top cut (R-TS3), once every game of the stage is in: a tie at the cut line
    that stars do not break is drawn with the seed, and the draw is recorded."""
    if force != (reason is not None):
        raise refuse(told(say("a forced cut needs both --force and --reason (why it cannot wait)")), 1)
    forced = run(lambda: records.begin_cut(store, tournament, stage, forced=reason))
    if forced is not None:
        early = say("a cut made before every game is in: a draw made now stops applying if later results change it")
        done(forced, early)
    table = run(lambda: standings(store, tournament, stage=stage))
    if table.is_empty():
        raise nobody(tournament)
    open_tie = table.filter(pl.col("cut_tie_undrawn"))
    if not open_tie.is_empty():
        tied = sorted(open_tie["player"].to_list())
        places = int(open_tie["cut_tie_places"][0])  # the places of the cut the tie shares
        recorded = run(
            lambda: records.cut_draw(
                store,
                tournament,
                stage=stage,
                tied=tied,
                places=places,
                points=int(open_tie["points"][0]),
                stars=int(open_tie["stars"][0]),
                seed=seed,
            )
        )
        draw = recorded.events[0]
        assert isinstance(draw, CutDrawn)
        names = browse.player_names(store, tournament)
        tie = say(
            "a tie at the cut line among %(tied)s for %(count)s place; the draw (seed %(seed)s) gives it to %(drawn)s",
            "a tie at the cut line among %(tied)s for %(count)s places; the draw (seed %(seed)s) gives them to "
            "%(drawn)s",
            "count",
            tied=tuple(named(names, p) for p in tied),
            count=places,
            seed=str(seed),
            drawn=tuple(named(names, p) for p in draw.drawn),
        )
        console.print(escape(told(tie)))
        among = say(
            "a draw among %(tied)s for %(count)s place: %(drawn)s",
            "a draw among %(tied)s for %(count)s places: %(drawn)s",
            "count",
            tied=", ".join(tied),
            count=places,
            drawn=", ".join(draw.drawn),
        )
        done(recorded, among)
        table = run(lambda: standings(store, tournament, stage=stage))
    finalists = table.filter(pl.col("in_cut"))
    chosen = ", ".join(f"{r['place']}. {r['name']}" for r in finalists.iter_rows(named=True))
    console.print(escape(told(say("the cut: %(players)s", players=chosen))))
