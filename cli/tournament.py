"""``saboteur tournament …`` and ``saboteur standings``: the organiser's record and
the ranking it gives. Every command appends events; none edits anything."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Final

import polars as pl
import typer
from rich import box
from rich.markup import escape
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from analytics import browse, headings, records
from analytics.csvrows import NotUtf8, spreadsheet_text
from analytics.penalty_notes import penalty_notes, unheld
from analytics.records import RecordError
from analytics.seating import SeatingError, labelled_seating_csv, seat_final, seat_round
from analytics.spreadsheet import csv_text
from analytics.standings import above_the_cut, seating_findings, standings
from cli import referee_cards
from cli.errors import refuse
from cli.moments import ZONES, through, zoned
from cli.options import with_store, with_writing_store
from cli.output import UNBOUNDED, fits
from cli.output import Terminal as Console
from cli.paths import checked_output, output_path, write_output
from cli.speech import one_of, speaking, spoken, told
from events.language import words
from events.records.tournament import CutDrawn, PenaltyGiven
from events.said import Said, say, sentence
from events.shown import one_line
from ingest.store import Store

app = typer.Typer(
    rich_markup_mode="markdown",  # a docstring's lines join into one paragraph, wrapped to the terminal
    help="Create a tournament, register and seat players, and keep its record.",
    no_args_is_help=True,
)
console = Console(soft_wrap=True)


def _done(recorded: records.Recorded, what: Said) -> None:
    """What a record command appended, in the command's language (:mod:`cli.speech`)."""
    done = say(
        "recorded %(what)s (%(stream)s, now at version %(version)s)",
        what=(what,),
        stream=recorded.stream,
        version=str(recorded.version),
    )
    console.print(escape(told(done)))


def _nobody(tournament: str) -> typer.Exit:
    """The refusal of a command that needs players where none are registered."""
    said = say(
        "no players are registered in %(tournament)s: register them first (saboteur tournament register)",
        tournament=tournament,
    )
    return refuse(told(said), 1)


def _run(action: Any) -> Any:
    """``action()``; a record refused ends the command (exit 1), saying why in the
    command's language. A store that cannot be used is the root command's to report
    (:mod:`cli.errors`)."""
    try:
        return action()
    except RecordError as exc:
        raise refuse(told(exc.said), 1) from None


@app.command()
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
    _done(recorded, say("tournament %(tournament)s", tournament=tournament))
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


@app.command()
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
    recorded = _run(lambda: records.register(store, tournament, [(player, name)]))
    before = _run(lambda: records.registered_before(store, tournament, player))
    renamed = before is not None and before != name.strip()  # said: a typo in the id renames someone else
    _done(
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
    for name, ids in _run(lambda: records.namesakes(store, tournament, players)):
        said = say(
            "%(players)s are registered under one name, %(name)s: the standings tell them apart by their ids; a "
            "name of their own (saboteur tournament register) is clearer to read out",
            players=tuple(ids),
            name=name,
        )
        console.print(f"[yellow]{escape(told(said))}[/yellow]")


@app.command("import-players")
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
    _done(_run(lambda: records.register(store, tournament, people)), registered)
    _namesakes(store, tournament, [player for player, _ in people])


def named(names: Mapping[str, str], player: str) -> str:
    """A player as the organiser reads them out: the display name with the id, which
    the commands take (not escaped: for rich, :func:`rich.markup.escape` it)."""
    name = names.get(player)
    return f"{name} ({player})" if name else player


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


@app.command()
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
    players = _run(lambda: records.seating_players(store, tournament, number, stage, replace=reason))
    if not players:
        raise _nobody(tournament)
    history, standing = _run(lambda: _history(store, tournament, number))
    names = browse.player_names(store, tournament)
    labels: list[str] | None = None  # the tables' own labels, from a seating made by hand
    try:
        if from_csv is not None:
            text = spreadsheet_text(from_csv.read_bytes())
            gone = _run(lambda: records.withdrawn(store, tournament))
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
    recorded = _run(
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
    _done(
        recorded,
        say("the seating of round %(round)s (replacing the one before)", round=number)
        if replace
        else say("the seating of round %(round)s", round=number),
    )


@app.command()
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
        recorded = _run(
            lambda: records.penalty_for(store, tournament, finding, points, reason, player=player, stage=stage)
        )
    elif player is not None:
        recorded = _run(lambda: records.penalty(store, tournament, player, points, reason, stage or "preliminary"))
    else:
        raise refuse(told(say("name the player, or the finding the penalty is for (--finding)")), 1)
    given = recorded.events[0]
    assert isinstance(given, PenaltyGiven)
    number = recorded.penalties
    asked = finding if player is not None else None  # the finding, where the player was named too
    named = _run(lambda: records.named_by(store, tournament, asked)) if asked is not None else None
    if named is not None and named != given.player:  # as asked, but said: a typo gives another player's points
        said = say(
            "finding %(finding)s names %(named)s: the penalty goes to %(player)s, as asked",
            finding=finding,
            named=named,
            player=given.player,
        )
        console.print(f"[yellow]{escape(told(said))}[/yellow]")
    _done(
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


@app.command("withdraw-penalty")
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
    _done(
        _run(lambda: records.withdraw_penalty(store, tournament, penalty, reason)),
        say("the withdrawal of penalty %(number)s", number=penalty),
    )


@app.command("withdraw-player")
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
    _done(
        _run(lambda: records.withdraw_player(store, tournament, player, reason)),
        say("the withdrawal of %(player)s", player=player),
    )


@app.command("return-player")
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
    _done(
        _run(lambda: records.return_player(store, tournament, player, reason)),
        say("the return of %(player)s", player=player),
    )


@app.command()
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
    _done(
        _run(lambda: records.correct(store, tournament, game, number, player, points, reason, star=star)),
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


@app.command("accept-replay")
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
    _done(
        _run(lambda: records.accept_replay(store, tournament, game, number, reason)),
        say("the replay of %(game)s round %(round)s", game=game, round=number),
    )


@app.command()
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
    _done(
        _run(lambda: records.dismiss(store, tournament, finding, reason)),
        say("the dismissal of %(finding)s", finding=finding),
    )


@app.command()
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
    forced = _run(lambda: records.begin_cut(store, tournament, stage, forced=reason))
    if forced is not None:
        early = say("a cut made before every game is in: a draw made now stops applying if later results change it")
        _done(forced, early)
    table = _run(lambda: standings(store, tournament, stage=stage))
    if table.is_empty():
        raise _nobody(tournament)
    open_tie = table.filter(pl.col("cut_tie_undrawn"))
    if not open_tie.is_empty():
        tied = sorted(open_tie["player"].to_list())
        places = int(open_tie["cut_tie_places"][0])  # the places of the cut the tie shares
        recorded = _run(
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
        _done(recorded, among)
        table = _run(lambda: standings(store, tournament, stage=stage))
    finalists = table.filter(pl.col("in_cut"))
    chosen = ", ".join(f"{r['place']}. {r['name']}" for r in finalists.iter_rows(named=True))
    console.print(escape(told(say("the cut: %(players)s", players=chosen))))


DEFAULT_BASE = "http://localhost:8501"
"""Where ``saboteur dashboard`` serves the pages, as Streamlit does by default."""


@app.command("referee-codes")
@speaking
@with_writing_store
def referee_codes(
    tournament: str,
    number: Annotated[int, typer.Option("--round", help="The tournament round, as seated.")],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="The sheet of cards: FILE.pdf or FILE.png.", parser=output_path)
    ],
    url: Annotated[
        str, typer.Option("--url", help="The dashboard's address, as the referees' phones reach it.")
    ] = DEFAULT_BASE,
    table: Annotated[
        list[str] | None, typer.Option("--table", help="Only this table (again for more); every table unless given.")
    ] = None,
    *,
    store: Store,
) -> None:
    """Issue a referee code for each table of a seated round and write their cards: a
    card's QR code opens the recording page for its table, and for no other table.
    The codes are printed on the cards and nowhere else (the record keeps only their
    hash); a table that had a code gets a new one, and its old card opens nothing."""
    speaks = spoken()  # the cards' language
    checked_output(output)  # before any code is issued: a sheet that cannot be written leaves the old cards working
    suffix = referee_cards.suffix_of(output)
    if suffix is None:
        raise typer.BadParameter(told(say("a .pdf or a .png file")), param_hint="--output")
    if not url.startswith(("http://", "https://")):
        raise typer.BadParameter(told(say("an http:// or https:// address")), param_hint="--url")
    try:
        referee_cards.check_address(url)
    except referee_cards.CardError as exc:
        raise typer.BadParameter(told(exc.said), param_hint="--url") from None
    try:
        with referee_cards.sheet_file(output) as sheet:

            def printed(codes: list[records.RefereeCode]) -> None:  # before the codes are recorded
                referee_cards.write_sheet(codes, url, sheet, suffix, speaks)
                sheet.flush()
                os.fsync(sheet.fileno())

            issued = _run(
                lambda: records.issue_referee_codes(store, tournament, number, table or None, printed=printed)
            )
    except referee_cards.CardError as exc:
        raise refuse(told(exc.said), 1) from None
    except OSError as exc:
        said = say("cannot write %(file)s: %(problem)s", file=str(output), problem=str(exc.strerror or exc))
        raise refuse(told(said), 1) from None
    title = say("%(tournament)s · round %(round)s · referee codes", tournament=tournament, round=number)
    shown = Table(title=escape(told(title)))
    for column in ("table", "players", "fingerprint"):
        shown.add_column(escape(headings.heading(column, spoken())))
    for code in issued:
        shown.add_row(escape(code.access.table), str(len(code.access.players)), code.fingerprint)
    console.print(shown)
    done = say(
        "the cards are in %(file)s, the only copy of their codes: a lost card is revoked with %(command)s",
        file=str(output),
        command="saboteur tournament revoke-code",
    )
    console.print(escape(told(done)))


@app.command("revoke-code")
@speaking
@with_writing_store
def revoke_code(
    tournament: str,
    number: Annotated[int, typer.Option("--round", help="The tournament round.")],
    table: Annotated[str, typer.Option("--table", help="The table whose code is revoked.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    *,
    store: Store,
) -> None:
    """Revoke a table's referee code, with a reason: its card opens nothing from then on
    (referee-codes --table issues a new one)."""
    _done(
        _run(lambda: records.revoke_referee_code(store, tournament, number, table, reason)),
        say("the revocation of the code of table %(table)s of round %(round)s", table=table, round=number),
    )


@app.command()
@speaking
@with_store
def log(tournament: str, store: Store) -> None:
    """The tournament's history: every record with its time and reason, and each
    checkpoint of the chain published (its signature left out)."""
    record = _run(lambda: records.history(store, tournament))
    if not record:
        raise refuse(told(say("no tournament %(tournament)s", tournament=tournament)), 1)
    entries = []
    given = 0  # the penalties so far: each one's number (penalty_withdrawn names it)
    for event in record:
        data = json.loads(event.payload)
        reason = data.pop("reason", None) or ""
        data.pop("type", None)
        if event.type == "penalty_given":
            given += 1
            data = {"penalty": given, **data}
        details = ", ".join(  # each value as the record's JSON writes it (false, a list), not Python's (False, None)
            f"{k}={v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}"
            for k, v in data.items()
            if k not in ("tables", "signature") and v is not None
        )
        if event.stream != records.stream_of(tournament):
            details = f"{event.stream} · {details}"
        # one line each, whatever a record or a log wrote (a line break printed a line of its own)
        entries.append(
            (
                str(event.position),
                recorded_text(event.recorded_at),
                event.type,
                one_line(details),
                one_line(str(reason)),
            )
        )
    title = told(say("%(tournament)s: the record", tournament=tournament))
    shown = Table(title=escape(title), title_justify="left")
    for column in ("#", "recorded", "what", "details", "reason"):
        text = column in ("details", "reason")
        shown.add_column(
            told(say(_LOG_HEADS[column])) if column != "#" else column,
            no_wrap=not text,
            min_width=LOG_WIDTHS.get(column),
            ratio=2 if column == "details" else 1 if text else None,
        )
    for entry in entries:
        shown.add_row(*(Text(cell) for cell in entry))
    out = Console(highlight=False)
    if fits(out, shown):
        out.print(shown)
        return
    out.print(Text(title))
    for position, recorded, what, details, reason in entries:
        out.print(Text(f"{position}  {recorded}  {what}", style="bold"))
        why = "\n" + told(say("reason: %(reason)s", reason=reason)) if reason else ""
        out.print(Padding(Text(details + why), (0, 0, 0, 4)))


def recorded_text(moment: datetime) -> str:
    """When a record was made, in UTC and marked so, as ``--as-of`` reads it back: the
    store's clock read in the machine's zone, unmarked, put a record made at 22:44 UTC at
    07:44 on a machine in Tokyo, and ``--as-of`` (UTC where no zone is given) 9 hours off.

    >>> from datetime import timedelta, timezone
    >>> recorded_text(datetime(2026, 12, 6, 7, 44, 8, 512, tzinfo=timezone(timedelta(hours=9))))
    '2026-12-05 22:44:08Z'
    """
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")


LOG_WIDTHS: Final = {"details": 30, "reason": 20}
_LOG_HEADS: Final = {
    "recorded": sentence("recorded"),
    "what": sentence("what"),
    "details": sentence("details"),
    "reason": sentence("reason"),
}
"""The record's columns, put into the command's language (its codes and details stay as stored)."""
"""The narrowest the record's texts read well in; a narrower terminal gets each record
as a line with its number, time and kind, and its details and reason under it."""


def _moved(cut: records.CutMoved) -> Said:
    """What a stage seated off the cut is told to do: draw the tie that leaves the cut
    unsettled, or seat it anew, naming only who is there (no dash for nobody)."""
    stage, number = cut.stage, cut.tournament_round
    if cut.undrawn:
        return say(
            "the %(stage)s (round %(round)s) is seated from a cut the standings do not settle: %(tied)s are tied "
            "across the cut line and not drawn (R-TS2): draw the tie (%(command)s), then check again",
            stage=stage,
            round=number,
            tied=", ".join(cut.undrawn),
            command=f"saboteur tournament cut --stage {cut.stage_before}",
        )
    if cut.seated_outside and cut.left_out:
        return say(
            "the %(stage)s (round %(round)s) is seated with %(outside)s, whom the cut no longer gives, and without "
            "%(left_out)s, whom it does now (R-TS3): seat it anew (--replace --reason), or say why it stands",
            stage=stage,
            round=number,
            outside=", ".join(cut.seated_outside),
            left_out=", ".join(cut.left_out),
        )
    if cut.seated_outside:
        return say(
            "the %(stage)s (round %(round)s) is seated with %(outside)s, whom the cut no longer gives (R-TS3): "
            "seat it anew (--replace --reason), or say why it stands",
            stage=stage,
            round=number,
            outside=", ".join(cut.seated_outside),
        )
    return say(
        "the %(stage)s (round %(round)s) is seated without %(left_out)s, whom the cut gives now (R-TS3): "
        "seat it anew (--replace --reason), or say why it stands",
        stage=stage,
        round=number,
        left_out=", ".join(cut.left_out),
    )


@app.command()
@speaking
@with_store
def check(tournament: str, store: Store) -> None:
    """Games whose players differ from the published seating, tables with two games of a
    round, and a semi-final or final seated from a cut the standings no longer give."""
    found = _run(lambda: seating_findings(store, tournament))
    moved = _run(lambda: records.cuts_moved(store, tournament))
    for cut in moved:
        console.print(f"[red]{escape(told(_moved(cut)))}[/red]")
    if found.is_empty():
        if moved:
            raise typer.Exit(1)
        console.print(told(say("every game matches its published seating")))
        return
    for row in found.iter_rows(named=True):
        if row["seating"] is None:
            what = say("no seating is published for this table")
        elif row["at_table"] > 1:
            what = say(
                "%(count)s games of this round are at this table: one game a table. Both count until the one "
                "too many is superseded by its log put right (saboteur ingest --supersede --reason): the table it "
                "was played at, or, for a copy stored twice, a header without its tournament",
                count=row["at_table"],
            )
        elif not row["not_listed"]:
            what = say("the seating lists %(listed)s, who did not play in it", listed=", ".join(row["not_seated"]))
        elif not row["not_seated"]:
            what = say(
                "the game seats %(players)s, whom the seating does not list", players=", ".join(row["not_listed"])
            )
        else:
            what = say(
                "the game seats %(players)s but the seating lists %(listed)s",
                players=", ".join(row["not_listed"]),
                listed=", ".join(row["not_seated"]),
            )
        where = say(
            "%(game)s (round %(round)s, table %(table)s): %(finding)s",
            game=row["game_id"],
            round=row["tournament_round"],
            table=str(row["table_label"]),
            finding=(what,),
        )
        console.print(f"[red]{escape(told(where))}[/red]")
    raise typer.Exit(1)


def _as_of(text: str | None) -> int | datetime | None:
    """``--as-of``: an event position (a number) or a time, covering all it names
    (:func:`cli.moments.through`)."""
    if text is None or (text.isascii() and text.isdigit()):  # "²" is a digit too, and no number int() reads
        return None if text is None else int(text)
    try:
        return through(text, "--as-of")
    except typer.BadParameter:
        said = say("an event position (a number) or a time (%(zones)s)", zones=ZONES)
        raise typer.BadParameter(told(said), param_hint="--as-of") from None


@speaking
@with_store
def standings_command(
    tournament: str,
    stage: Annotated[str, typer.Option(help="preliminary, semifinal (if announced) or final.")] = "preliminary",
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            help="An event position or a time (ISO 8601: 2026-11-29T14:00, 2026-11-29T14:00+01:00; "
            "UTC when no zone is given): the standings then, with all recorded within the day, minute or "
            "second it names.",
        ),
    ] = None,
    output_format: Annotated[str, typer.Option("--format", help="table, csv, json, parquet or pdf.")] = "table",
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write to a file (needed for parquet and pdf).", parser=output_path),
    ] = None,
    why: Annotated[
        bool,
        typer.Option(
            "--why/--no-why",
            help="A column saying why each player is ranked where they are; the penalties' reasons below.",
        ),
    ] = False,
    *,
    store: Store,
) -> None:
    """The standings of a tournament (R-TS2, R-TS4), now or as of any moment, as wide
    as the terminal (or $COLUMNS); `--format pdf -o FILE` to print or pin up."""
    if output_format not in ("table", "csv", "json", "parquet", "pdf"):
        raise typer.BadParameter(one_of("table", "csv", "json", "parquet", "pdf"), param_hint="--format")
    if output_format in ("parquet", "pdf") and output is None:
        said = say("%(format)s is written to a file: add -o FILE", format=output_format)
        raise typer.BadParameter(told(said), param_hint="--format")
    if output is not None:
        checked_output(output)
    speaks = spoken()  # of the PDF, and of why each player is ranked where they are
    then = _as_of(as_of)
    if isinstance(then, int):
        with store.connect(read_only=True) as con:
            last = store.head(con)[0]
        if then > last:  # "20261206", a date written without its dashes, read as a position
            said = say(
                "event %(position)s is past the store's last, %(last)s: give a position up to it, or a time "
                "(%(zones)s)",
                position=then,
                last=last,
                zones=ZONES,
            )
            raise typer.BadParameter(told(said), param_hint="--as-of")
    refusal = records.stage_refusal(store, tournament, stage)
    if refusal is not None:
        raise refuse(words(refusal, speaks), 1)
    frame = _run(lambda: standings(store, tournament, stage=stage, as_of=then))
    if frame.is_empty():
        if as_of is not None:
            said = say(
                "no standings for %(tournament)s (%(stage)s) as of %(moment)s: ask for a later moment",
                tournament=tournament,
                stage=stage,
                moment=as_of,
            )
            raise refuse(told(said), 1)
        raise _nobody(tournament)
    frame = _why_in(frame, speaks)
    if output_format == "parquet":
        assert output is not None
        write_output(output, frame.write_parquet)
        return
    if output_format == "pdf":
        assert output is not None
        printed = _standings_pdf(store, tournament, stage, frame, as_of, speaks)
        write_output(output, lambda path: path.write_bytes(printed))
        return
    if output_format == "csv":
        text = csv_text(frame)
    elif output_format == "json":  # the reasons as JSON of their own, not a string of it to decode again
        rows = [{**row, "reasons": json.loads(row["reasons"])} if "reasons" in row else row for row in frame.to_dicts()]
        text = json.dumps(rows, ensure_ascii=False, default=str, indent=1)
    else:
        text = ""
    if text:
        if output is not None:
            write_output(output, lambda path: path.write_text(text, encoding="utf-8"))
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    shown = Console()
    title = (
        say("%(tournament)s · %(stage)s · as of %(moment)s", tournament=tournament, stage=stage, moment=zoned(as_of))
        if as_of
        else say("%(tournament)s · %(stage)s", tournament=tournament, stage=stage)
    )
    heading = escape(words(title, speaks))
    left_out: list[str] = []
    table = _standings_table(frame, heading, why, speaks)
    present = _standings_columns(frame, why)
    for column in (c for c in (*NARROW_FIRST, "why") if c in present):  # the counts before the names
        if fits(shown, table):
            break
        left_out.append(column)
        table = _standings_table(frame, heading, why, speaks, left_out)
    else:
        if not fits(shown, table):  # the place, name, points and stars alone, still too wide
            _squeezed(shown, table)
    if why and "why" not in left_out:
        _why_widened(shown, table)
    shown.print(table)
    if "why" in left_out:  # each player's reasons under the table, as the column had them
        reasons = (f"{row['place']} {row['name']}: {row['why']}" for row in frame.iter_rows(named=True))
        head = headings.heading("why", speaks, short=True)
        shown.print(escape(f"{head}:"), *(escape(line) for line in reasons), sep="\n", highlight=False)
    for notice in _standings_notices(store, tournament, stage, frame, as_of):  # in words, not colour alone
        shown.print(f"[yellow]{escape(words(notice, speaks))}[/yellow]")
    if left_out:
        heads = tuple(headings.heading(c, speaks, short=True) for c in left_out)
        narrow = say("too narrow for %(columns)s: widen the terminal, or --format csv", columns=heads)
        shown.print(f"[dim]{escape(words(narrow, speaks))}[/dim]")
    given = _stage_penalties(store, tournament, stage)
    for player, points, reason in unheld(frame, given):  # the record and the file disagree: say so
        said = say(
            "a penalty of %(points)s for %(player)s is not counted: %(player)s is not in these standings "
            "(the tournament's file no longer registers them); its reason: %(reason)s",
            points=points,
            player=player,
            reason=reason,
        )
        shown.print(f"[yellow]{escape(words(said, speaks))}[/yellow]")
    _, notes = penalty_notes(frame, given)
    if notes and why:
        shown.print(
            escape(words(say("penalties:"), speaks)), *(escape(note) for note in notes), sep="\n", highlight=False
        )
    elif notes:
        taken = say(
            "%(count)s penalty took points (%(column)s): its reason with --why",
            "%(count)s penalties took points (%(column)s): their reasons with --why",
            "count",
            count=len(notes),
            column=headings.heading("penalty", speaks, short=True),
        )
        shown.print(f"[dim]{escape(words(taken, speaks))}[/dim]")


def _standings_notices(store: Store, tournament: str, stage: str, frame: pl.DataFrame, as_of: str | None) -> list[Said]:
    """Under the standings, in words (a colour is lost in a pipe or a printout): a tie
    across the cut line not drawn yet, and, as the record stands now, the players who
    played at another table than the published seating gave them (the dashboard says
    the same above its table)."""
    notices: list[Said] = []
    if "cut_tie_undrawn" in frame.columns and frame["cut_tie_undrawn"].any():
        notices.append(
            say(
                "%(players)s are tied across the cut line: draw the tie first (%(command)s)",
                players=tuple(frame.filter(pl.col("cut_tie_undrawn"))["name"].to_list()),
                command=f"saboteur tournament cut --stage {stage}",
            )
        )
    if as_of is None:
        found = browse.findings(store, tournament)
        misplaced = found.filter((pl.col("code") == "wrong_table") & (pl.col("status") == "open"))
        if misplaced.height:  # counted by player: one at the wrong table in three rounds is one
            notices.append(
                say(
                    "%(count)s player played at another table than the published seating: their games count as "
                    "played until the organiser settles it (saboteur findings %(tournament)s --open)",
                    "%(count)s players played at another table than the published seating: their games count as "
                    "played until the organiser settles it (saboteur findings %(tournament)s --open)",
                    "count",
                    count=misplaced["player"].n_unique(),
                    tournament=tournament,
                )
            )
    return notices


def _stage_penalties(store: Store, tournament: str, stage: str) -> pl.DataFrame:
    """The penalties that count in the standings of ``stage``, oldest first."""
    return browse.penalties(store, tournament).filter(pl.col("stage") == stage)


def _why_in(frame: pl.DataFrame, lang: str) -> pl.DataFrame:
    """The standings with ``why`` in ``lang`` (their ``reasons``, the sentences it is
    made of, kept for a program to read)."""
    if lang == "en":
        return frame
    from events.said import read_stored_all

    why = ["; ".join(words(reason, lang) for reason in read_stored_all(text)) for text in frame["reasons"]]
    return frame.with_columns(pl.Series("why", why, dtype=pl.String))


def _standings_pdf(
    store: Store, tournament: str, stage: str, frame: pl.DataFrame, as_of: str | None, lang: str
) -> bytes:
    """The standings as the dashboard's PDF download has them (:mod:`analytics.printing`,
    imported here: fpdf takes some 0.7 s to load, which no other command needs)."""
    from analytics.printing import standings_pdf

    described = browse.tournaments(store).filter(pl.col("tournament") == tournament).row(0, named=True)
    if as_of is None:
        moment_text = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    else:
        moment_text = f"event {as_of}" if as_of.isascii() and as_of.isdigit() else zoned(as_of)
    return standings_pdf(
        frame,
        tournament=described["name"],
        stage=stage,
        as_of=moment_text,
        cut=browse.cut_of(described, stage)[0],
        goes_to=browse.cut_of(described, stage)[1],
        penalties=_stage_penalties(store, tournament, stage),
        lang=lang,
    )


NARROW_FIRST: Final = ("games", "rounds", "open_findings", "preliminary_stars", "preliminary_points", "penalty")
"""The columns a terminal too narrow for the standings loses first, in turn, before the
names (which it lost, the rows left as numbers nobody could put a name to); ``--why``'s
column goes after them (its reasons then printed under the table), and the place, rank,
name, points and stars are never lost: :func:`_squeezed` folds their heads instead."""

WHY_LEAST: Final = 20
"""The narrowest the column of ``--why`` is of use in: at 12 a row's reasons took up
to 18 lines; narrower, the counts go to widen it, then the column itself."""

NAME_LEAST: Final = 12
"""The name column's width while the counts are shown (a longer name wraps)."""


def _standings_columns(frame: pl.DataFrame, why: bool) -> list[str]:
    """The columns of the standings table, in order, all of them (a narrow terminal
    loses some: :data:`NARROW_FIRST`)."""
    final = "final_points" in frame.columns
    return (
        [
            "place",
            "rank",
            "name",
            "final_points",
            "final_stars",
            "preliminary_points",
            "preliminary_stars",
            "penalty",
            "open_findings",
        ]
        if final
        else ["place", "rank", "name", "points", "stars", "rounds", "games", "penalty", "open_findings"]
    ) + (["why"] if why else [])


def _why_widened(console: Console, table: Table) -> None:
    """Gives the column of ``--why`` (the last) a width of its own: the width the other
    columns leave at their widest, and never less than :data:`WHY_LEAST` (the name then
    wraps to leave it that). Rich shrinks the widest column that wraps first, the why,
    below its ``min_width``, then widens it back to it when it draws the table: a
    column too wide for the terminal, each line's last letter cropped."""
    unbounded = console.options.update_width(UNBOUNDED)
    column = table.columns[-1]
    widest = max(Measurement.get(console, unbounded, cell).maximum for cell in (column.header, *column.cells))
    column.width = WHY_LEAST
    left = console.width - Measurement.get(console, unbounded, table).maximum
    column.width = max(WHY_LEAST, min(widest, WHY_LEAST + left))


def _squeezed(console: Console, table: Table) -> None:
    """Fits ``table``, its columns the few a terminal never loses (place, rank, name,
    points and stars) and still wider than ``console`` (the heads in Dutch and Norwegian
    are wider than the English: "sterren", "stjerner"), by giving each column a width of
    its own. Each number column is as wide as its widest value, its head whole where the
    width left allows it, else folded onto a second line; the name column takes the
    rest, a name wrapped at its spaces (a word wider than the column folded, never
    cropped). Rich, left to itself, cropped the last column, its head and its values:
    every star blank."""
    unbounded = console.options.update_width(UNBOUNDED)
    least: list[int] = []
    whole: list[int] = []
    for column in table.columns:
        head = console.render_str(str(column.header))  # an escaped head, as _standings_table gave it
        head.no_wrap, head.overflow = False, "fold"
        column.header = head
        column.min_width = column.max_width = None
        measured = [Measurement.get(console, unbounded, cell) for cell in column.cells]
        if column.no_wrap:  # a number: its widest value, never folded
            least.append(max((m.maximum for m in measured), default=1))
            whole.append(max(least[-1], Measurement.get(console, unbounded, head).maximum))
        else:  # the name: its longest word to start with, up to its longest name
            column.overflow = "fold"
            least.append(max((m.minimum for m in measured), default=1))
            whole.append(max((m.maximum for m in measured), default=1))
    widths = list(least)

    def spare() -> int:
        for column, width in zip(table.columns, widths, strict=True):
            column.width = width
        return console.width - Measurement.get(console, unbounded, table).minimum

    named = [i for i, column in enumerate(table.columns) if not column.no_wrap]
    left = spare()
    for i in named:  # a word wider than the width left folds rather than push the numbers out
        widths[i] = max(1, min(widths[i], widths[i] + left))
    left = spare()
    numbers = [i for i in range(len(widths)) if i not in named]
    for wanted in ([-(-w // 2) for w in whole], whole):  # each head on two lines at most, then whole
        for i in sorted(numbers, key=lambda i: wanted[i] - widths[i]):  # the cheapest first
            if 0 < wanted[i] - widths[i] <= left:
                left -= wanted[i] - widths[i]
                widths[i] = wanted[i]
    for i in named:  # the name its longest word, then the rest of the width
        more = max(0, min(left, whole[i] - widths[i]))
        widths[i] += more
        left -= more
    spare()


def _standings_table(
    frame: pl.DataFrame, title: str, why: bool, lang: str = "en", left_out: Sequence[str] = ()
) -> Table:
    """The standings as a table for a terminal, its heads in ``lang`` (short ones, so
    that the numbers leave the names their width): the name column takes the width left
    (a long name wraps), the numbers never wrap, the cut line is a rule under the last
    place that goes on, and ``why`` adds the column that explains each place."""
    columns = [c for c in _standings_columns(frame, why) if c not in left_out]
    shown = Table(
        title=title, title_justify="left", box=box.HORIZONTALS, pad_edge=False, show_edge=False, collapse_padding=True
    )
    for column in columns:
        text = column in ("name", "why")
        shown.add_column(
            escape(headings.heading(column, lang, short=True)),
            justify="left" if text else "right",
            no_wrap=not text,
            min_width=(WHY_LEAST if column == "why" else NAME_LEAST) if text else None,
        )
    above = above_the_cut(frame) if "in_cut" in frame.columns else 0
    last_in = frame["place"][above - 1] if above else None
    for row in frame.iter_rows(named=True):
        rank = f"{row['rank']}=" if row.get("shared") else str(row["rank"])
        cells = [rank if c == "rank" else escape(str(row[c])) for c in columns]
        style = "yellow" if row.get("cut_tie_undrawn") else None
        if row.get("withdrawn"):  # where their points put them, and passed over by the cut
            gone = say("%(name)s (withdrew)", name=str(row["name"]))
            cells = [escape(words(gone, lang)) if c == "name" else cell for c, cell in zip(columns, cells, strict=True)]
            style = "dim"
        shown.add_row(*cells, style=style, end_section=row["place"] == last_in)
    return shown
