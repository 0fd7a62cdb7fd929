"""``saboteur tournament penalty``, ``withdraw-penalty`` and ``dismiss``: points
deducted with a reason, for a player or for a finding, taken back, and a finding set
aside (:mod:`analytics.records.penalties`)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from analytics import records
from cli.errors import refuse
from cli.options import with_writing_store
from cli.speech import speaking, told
from cli.tournament.common import console, done, run
from events.records.tournament import PenaltyGiven
from events.said import say
from ingest.store import Store


@speaking
@with_writing_store
def penalty(
    tournament: str,
    points: Annotated[int, typer.Option(help="Points deducted.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    player: Annotated[
        str | None, typer.Argument(help="Whose penalty; with --finding, the player it names unless given.")
    ] = None,
    stage: Annotated[
        str | None,
        typer.Option(help="The stage whose standings it counts in (preliminary; with --finding, its game's)."),
    ] = None,
    finding: Annotated[
        str | None,
        typer.Option("--finding", help="The finding it is given for (findings.finding_id, as dismiss takes it)."),
    ] = None,
    *,
    store: Store,
) -> None:
    """Deduct points from a player, with a reason (R-TS5); with --finding, for a finding
    (a table_incident the referee noted, R-C1), which the penalty names and settles."""
    if finding is not None:
        recorded = run(
            lambda: records.penalty_for(store, tournament, finding, points, reason, player=player, stage=stage)
        )
    elif player is not None:
        recorded = run(lambda: records.penalty(store, tournament, player, points, reason, stage or "preliminary"))
    else:
        raise refuse(told(say("name the player, or the finding the penalty is for (--finding)")), 1)
    given = recorded.events[0]
    assert isinstance(given, PenaltyGiven)
    number = recorded.penalties
    asked = finding if player is not None else None  # the finding, where the player was named too
    named = run(lambda: records.named_by(store, tournament, asked)) if asked is not None else None
    if named is not None and named != given.player:  # as asked, but said: a typo gives another player's points
        said = say(
            "finding %(finding)s names %(named)s: the penalty goes to %(player)s, as asked",
            finding=finding,
            named=named,
            player=given.player,
        )
        console.print(f"[yellow]{escape(told(said))}[/yellow]")
    done(
        recorded,
        say(
            "penalty %(number)s for %(player)s for finding %(finding)s",
            number=number,
            player=given.player,
            finding=finding,
        )
        if finding
        else say("penalty %(number)s for %(player)s", number=number, player=given.player),
    )


@speaking
@with_writing_store
def withdraw_penalty(
    tournament: str,
    penalty: Annotated[
        int,
        typer.Argument(
            help="The penalty's number, as tournament penalty printed it (tournament log shows each one's)."
        ),
    ],
    reason: Annotated[str, typer.Option(help="Why it is taken back.")],
    *,
    store: Store,
) -> None:
    """Withdraw a penalty given in error, with a reason (R-TS5): it stays in the record
    and no longer counts; a finding it was given for is open again."""
    done(
        run(lambda: records.withdraw_penalty(store, tournament, penalty, reason)),
        say("the withdrawal of penalty %(number)s", number=penalty),
    )


@speaking
@with_writing_store
def dismiss(
    tournament: str,
    finding: Annotated[str, typer.Argument(help="The finding's id (findings.finding_id).")],
    reason: Annotated[str, typer.Option(help="Why it is set aside.")],
    *,
    store: Store,
) -> None:
    """Dismiss a finding, with a reason (it stays in the record)."""
    done(
        run(lambda: records.dismiss(store, tournament, finding, reason)),
        say("the dismissal of %(finding)s", finding=finding),
    )
