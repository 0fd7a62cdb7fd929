"""``saboteur tournament create``, ``register``, ``import-players``, ``withdraw-player``
and ``return-player``: the tournament created, with what it announces, and who plays in
it — registered one by one or from a CSV list, withdrawn and back — each name shared
with another player said (:mod:`analytics.records.tournaments`,
:mod:`analytics.records.players`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from analytics import records
from analytics.csvrows import NotUtf8, spreadsheet_text
from analytics.records import RecordError
from cli.errors import refuse
from cli.options import with_writing_store
from cli.speech import speaking, told
from cli.tournament.common import console, done, run
from events.said import Said, say
from ingest.store import Store


@speaking
@with_writing_store
def create(
    tournament: Annotated[str, typer.Argument(help="The tournament's id, e.g. nl-open-2026.")],
    name: Annotated[str, typer.Option(help="Its display name.")],
    ruleset: Annotated[str, typer.Option(help="tournament or base.")] = "tournament",
    preliminary_rounds: Annotated[int, typer.Option(help="Preliminary rounds announced (R-TS1).")] = 4,
    cut: Annotated[int, typer.Option(help="Players going on to the final table (R-TS3).")] = 6,
    final_rounds: Annotated[int, typer.Option(help="Rounds at the final table (R-TS4).")] = 4,
    semifinal: Annotated[
        bool, typer.Option("--semifinal/--no-semifinal", help="A semi-final stage with its own top cut.")
    ] = False,
    semifinal_cut: Annotated[
        int | None,
        typer.Option(help="Players going on from the preliminaries to the semi-final (default: the cut)."),
    ] = None,
    *,
    store: Store,
) -> None:
    """Create a tournament."""
    try:
        recorded = records.create(
            store,
            tournament,
            name=name,
            ruleset=ruleset,
            preliminary_rounds=preliminary_rounds,
            cut=cut,
            final_rounds=final_rounds,
            semifinal=semifinal,
            semifinal_cut=semifinal_cut,
        )
    except records.TournamentExists as exc:
        said = say(
            "%(problem)s: pick another id for a new tournament, or carry on with this one "
            "(saboteur tournament log %(tournament)s shows its record; register adds players)",
            problem=(exc.said,),
            tournament=tournament,
        )
        raise refuse(told(said), 1) from None
    except RecordError as exc:
        raise refuse(told(exc.said), 1) from None
    done(recorded, say("tournament %(tournament)s", tournament=tournament))
    if ruleset == "tournament":
        for said in _departures(preliminary_rounds, cut, final_rounds):
            console.print(f"[yellow]{escape(told(said))}[/yellow]")


def _departures(preliminary_rounds: int, cut: int, final_rounds: int) -> list[Said]:
    """Where a tournament's announcement departs from the tournament rules (R-TS1: 4 or
    5 preliminary rounds; R-TS3: the best 6 go on; R-TS4: a final of 4 rounds). Taken
    as announced — a short club evening, a larger final — and said, so a typo is seen."""
    found = []
    if preliminary_rounds not in (4, 5):
        found.append(
            say(
                "note: %(count)s preliminary round, where the tournament rules announce 4 or 5 (R-TS1)",
                "note: %(count)s preliminary rounds, where the tournament rules announce 4 or 5 (R-TS1)",
                "count",
                count=preliminary_rounds,
            )
        )
    if cut != 6:
        found.append(say("note: the best %(count)s go on, where the tournament rules take 6 (R-TS3)", count=cut))
    if final_rounds != 4:
        found.append(
            say(
                "note: a final of %(count)s round, where the tournament rules play 4 (R-TS4)",
                "note: a final of %(count)s rounds, where the tournament rules play 4 (R-TS4)",
                "count",
                count=final_rounds,
            )
        )
    return found


@speaking
@with_writing_store
def register(
    tournament: str,
    player: Annotated[str, typer.Argument(help="The player's id (A-Z a-z 0-9 _ . -).")],
    name: Annotated[str, typer.Option(help="The player's display name.")],
    *,
    store: Store,
) -> None:
    """Register a player (a second registration renames)."""
    recorded = run(lambda: records.register(store, tournament, [(player, name)]))
    before = run(lambda: records.registered_before(store, tournament, player))
    renamed = before is not None and before != name.strip()  # said: a typo in the id renames someone else
    done(
        recorded,
        say("player %(player)s, renamed from %(before)s", player=player, before=before)
        if renamed
        else say("player %(player)s", player=player),
    )
    _namesakes(store, tournament, [player])


def _namesakes(store: Store, tournament: str, players: Sequence[str]) -> None:
    """Say which of ``players`` now share a name with another player: the standings
    show each with their id, and a referee reading the seating out cannot tell them
    apart."""
    for name, ids in run(lambda: records.namesakes(store, tournament, players)):
        said = say(
            "%(players)s are registered under one name, %(name)s: the standings tell them apart by their ids; a "
            "name of their own (saboteur tournament register) is clearer to read out",
            players=tuple(ids),
            name=name,
        )
        console.print(f"[yellow]{escape(told(said))}[/yellow]")


@speaking
@with_writing_store
def import_players(
    tournament: str,
    csv_file: Annotated[Path, typer.Argument(help="A CSV with the header player,name.")],
    *,
    store: Store,
) -> None:
    """Register every player of a CSV list."""
    try:
        people = records.read_player_list(spreadsheet_text(csv_file.read_bytes()))
    except NotUtf8 as exc:
        raise refuse(f"{csv_file}: {told(exc.said)}", 1) from None
    except OSError as exc:
        said = say("cannot read %(file)s: %(problem)s", file=str(csv_file), problem=str(exc.strerror or exc))
        raise refuse(told(said), 1) from None
    except RecordError as exc:
        raise refuse(f"{csv_file}: {told(exc.said)}", 1) from None
    registered = say("%(count)s player", "%(count)s players", "count", count=len(people))
    done(run(lambda: records.register(store, tournament, people)), registered)
    _namesakes(store, tournament, [player for player, _ in people])


@speaking
@with_writing_store
def withdraw_player(
    tournament: str,
    player: Annotated[str, typer.Argument(help="The player's id.")],
    reason: Annotated[str, typer.Option(help="Why they leave (gone home, taken ill).")],
    *,
    store: Store,
) -> None:
    """Withdraw a player from the tournament, with a reason: the rounds they played
    stand and they keep their place in the standings, but no later round seats them
    and a cut passes them over (the next player goes through)."""
    done(
        run(lambda: records.withdraw_player(store, tournament, player, reason)),
        say("the withdrawal of %(player)s", player=player),
    )


@speaking
@with_writing_store
def return_player(
    tournament: str,
    player: Annotated[str, typer.Argument(help="The player's id.")],
    reason: Annotated[str, typer.Option(help="Why they are back.")],
    *,
    store: Store,
) -> None:
    """A withdrawn player back in the tournament, with a reason: seated and cut as
    every other player from then on."""
    done(
        run(lambda: records.return_player(store, tournament, player, reason)),
        say("the return of %(player)s", player=player),
    )
