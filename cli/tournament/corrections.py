"""``saboteur tournament correct`` and ``accept-replay``: one player's score in one round
put right (and what the rules still find wrong in the round said), or a round's replayed
outcome accepted in place of its recorded scores (:mod:`analytics.records.corrections`)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from analytics import records
from cli.options import with_writing_store
from cli.speech import speaking, told
from cli.tournament.common import console, done, run
from events.said import say
from ingest.store import Store


@speaking
@with_writing_store
def correct(
    tournament: str,
    game: str,
    number: Annotated[int, typer.Argument(metavar="ROUND", help="The round of the game.")],
    player: Annotated[str, typer.Option(help="Whose score.")],
    points: Annotated[int, typer.Option(help="The right points.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    star: Annotated[
        bool | None,
        typer.Option("--star/--no-star", help="The player's star for the round, put right too (default: as it was)."),
    ] = None,
    *,
    store: Store,
) -> None:
    """Correct one player's score in one round (the newest correction counts)."""
    done(
        run(lambda: records.correct(store, tournament, game, number, player, points, reason, star=star)),
        say("a correction of %(player)s in %(game)s round %(round)s", player=player, game=game, round=number),
    )
    wrong = records.still_wrong_in(store, tournament, game, number)
    if not wrong and records.corrected_off_the_rules(store, tournament, game, number):
        said = say(
            "round %(round)s of %(game)s as corrected is not what the rules give (R-W1): check the points and stars "
            "(a correction's reason says why it stands)",
            round=number,
            game=game,
        )
        console.print(escape(told(said)))
    if wrong:
        said = say(
            "round %(round)s of %(game)s as corrected is still not what the rules give: finding %(findings)s stays "
            "open (saboteur findings %(tournament)s --open)",
            round=number,
            game=game,
            findings=", ".join(wrong),
            tournament=tournament,
        )
        console.print(escape(told(said)))


@speaking
@with_writing_store
def accept_replay(
    tournament: str,
    game: str,
    number: Annotated[int, typer.Argument(metavar="ROUND")],
    reason: Annotated[str | None, typer.Option(help="Why (optional).")] = None,
    *,
    store: Store,
) -> None:
    """Let the replay's outcome replace the recorded scores of one round."""
    done(
        run(lambda: records.accept_replay(store, tournament, game, number, reason)),
        say("the replay of %(game)s round %(round)s", game=game, round=number),
    )
