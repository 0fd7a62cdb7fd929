"""``saboteur tournament seat``: a round seated in tables of 5–10, drawn (mixed, swiss,
random; a semi-final or the final from the cut) or made by hand from a CSV, printed and
recorded (:mod:`analytics.seating`, :mod:`analytics.records.seatings`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.markup import escape
from rich.table import Table

from analytics import browse, records
from analytics.csvrows import NotUtf8, spreadsheet_text
from analytics.seating import SeatingError, labelled_seating_csv, seat_final, seat_round
from analytics.standings import standings
from cli.errors import refuse
from cli.options import with_writing_store
from cli.speech import one_of, speaking, told
from cli.tournament.common import console, done, named, nobody, run
from events.said import Said, say
from ingest.store import Store


def _outside_the_cut(
    names: Mapping[str, str], players: Sequence[str], stage: str, gone: Mapping[str, str]
) -> dict[str, Said]:
    """The registered players a seating by hand of ``stage`` may not seat, each with
    why: a player withdrawn from the tournament (``gone``, with why), and in a later
    stage than the preliminaries whoever is not in ``players``, the cut of the stage
    before (:func:`analytics.records.seating_players`)."""
    outside = {
        player: say(
            "%(written)s has withdrawn from the tournament (%(reason)s): a seating leaves them out, unless "
            "their return is recorded first (saboteur tournament return-player)",
            written=player,
            reason=why,
        )
        for player, why in gone.items()
    }
    if stage == "preliminary":
        return outside
    cut = ", ".join(named(names, p) for p in players)
    return outside | {
        player: say(
            "%(written)s is not in the cut: the %(stage)s seats the cut of the stage before (%(cut)s); "
            "seat those players, or leave --from-csv out to draw their seats",
            written=player,
            stage=stage,
            cut=cut,
        )
        for player in names.keys() - set(players) - gone.keys()
    }


METHODS: Final = {
    "mixed": say("mixed"),
    "swiss": say("swiss"),
    "random": say("random"),
    "by hand": say("by hand"),
}
"""How a round was seated, in words (the record keeps the code)."""


def _history(store: Store, tournament: str, number: int) -> tuple[list[list[list[str]]], dict[str, tuple[int, int]]]:
    """The tables of the rounds before ``number``, each stage's tables apart (a round's
    table "1" of two stages is two tables), and the preliminary standing of each player."""
    with store.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT tournament_round, stage, table_label, player FROM seatings "
            "WHERE tournament = ? AND tournament_round < ? ORDER BY tournament_round, stage, table_label, seat",
            [tournament, number],
        ).fetchall()
    rounds: dict[int, dict[tuple[str, str], list[str]]] = {}
    for round_number, stage, table, player in rows:
        rounds.setdefault(int(round_number), {}).setdefault((str(stage), str(table)), []).append(str(player))
    history = [list(tables.values()) for _, tables in sorted(rounds.items())]
    table = standings(store, tournament)
    standing = {str(r["player"]): (int(r["points"]), int(r["stars"])) for r in table.iter_rows(named=True)}
    return history, standing


@speaking
@with_writing_store
def seat(
    tournament: str,
    number: Annotated[int, typer.Option("--round", help="The tournament round to seat.")],
    method: Annotated[
        str, typer.Option(help="mixed (fewest repeat meetings), swiss (similar standing) or random (drawn afresh).")
    ] = "mixed",
    seed: Annotated[int, typer.Option(help="Seed of the draw.")] = 0,
    from_csv: Annotated[Path | None, typer.Option("--from-csv", help="A seating made by hand: table,player.")] = None,
    stage: Annotated[
        str, typer.Option(help="preliminary, semifinal or final (seated from the cut of the stage before).")
    ] = "preliminary",
    replace: Annotated[
        bool, typer.Option("--replace", help="Seat a round already seated anew (with --reason).")
    ] = False,
    reason: Annotated[str | None, typer.Option(help="Why the round is seated anew (with --replace).")] = None,
    *,
    store: Store,
) -> None:
    """Seat a tournament round in tables of 5–10, print it and record it: the
    preliminaries seat every registered player who has not withdrawn, a semi-final or
    the final the cut."""
    if method not in ("mixed", "swiss", "random"):
        raise typer.BadParameter(one_of("mixed", "swiss", "random"), param_hint="--method")
    if reason is not None and not replace:
        raise refuse(told(say("--reason says why a seating is replaced: add --replace, or leave --reason out")), 1)
    if replace and reason is None:
        raise refuse(told(say("a replaced seating needs a --reason")), 1)
    players = run(lambda: records.seating_players(store, tournament, number, stage, replace=reason))
    if not players:
        raise nobody(tournament)
    history, standing = run(lambda: _history(store, tournament, number))
    names = browse.player_names(store, tournament)
    labels: list[str] | None = None  # the tables' own labels, from a seating made by hand
    try:
        if from_csv is not None:
            text = spreadsheet_text(from_csv.read_bytes())
            gone = run(lambda: records.withdrawn(store, tournament))
            outside = _outside_the_cut(names, players, stage, gone)
            labels, tables = labelled_seating_csv(text, players, outside=outside)
            method = "by hand"  # as the record keeps it
        elif stage == "final":
            tables = seat_final(players, seed=seed)
        else:
            tables = seat_round(players, method=method, history=history, standing=standing, seed=seed)  # type: ignore[arg-type]
    except SeatingError as exc:
        raise refuse(told(exc.said), 1) from None
    except NotUtf8 as exc:
        raise refuse(f"{from_csv}: {told(exc.said)}", 1) from None
    except OSError as exc:
        raise refuse(
            told(say("cannot read %(file)s: %(problem)s", file=str(from_csv), problem=str(exc.strerror or exc))), 1
        ) from None
    if stage == "final" and len(tables) != 1:
        said = say("the final is one table (R-TS4), not %(count)s: seat the cut at one table", count=len(tables))
        raise refuse(told(said), 1)
    title = say(
        "%(tournament)s · round %(round)s · %(stage)s · %(method)s",
        tournament=tournament,
        round=number,
        stage=stage,
        method=(METHODS[method],),
    )
    shown = Table(title=escape(told(title)), title_justify="left")
    shown.add_column(escape(told(say("table"))), justify="right", no_wrap=True)
    shown.add_column(escape(told(say("players, in seat order"))))
    for index, table in enumerate(tables, start=1):
        label = labels[index - 1] if labels is not None else str(index)
        shown.add_row(escape(label), "\n".join(f"{seat}. {escape(named(names, p))}" for seat, p in enumerate(table, 1)))
    console.print(shown)
    recorded = run(
        lambda: records.publish_seating(
            store,
            tournament,
            number,
            tables,
            stage=stage,
            method=method,
            seed=None if from_csv else seed,
            reason=reason,
            labels=labels,
        )
    )
    done(
        recorded,
        say("the seating of round %(round)s (replacing the one before)", round=number)
        if replace
        else say("the seating of round %(round)s", round=number),
    )
