"""``saboteur standings``: the ranking a tournament's record gives (R-TS2, R-TS4), now
or as of any moment — a table as wide as the terminal (the counts given up first, the
names never), or CSV, JSON, Parquet or the dashboard's PDF — with why each player is
where they are, the penalties' reasons and, in words, what the record leaves unsettled.

A command of the root beside ``saboteur tournament`` (as ``saboteur findings`` is), its
own module: it reads the record the group's commands append, and refuses as they do
(:mod:`cli.tournament.common`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Final

import polars as pl
import typer
from rich import box
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from analytics import browse, headings, records
from analytics.penalty_notes import penalty_notes, unheld
from analytics.spreadsheet import csv_text
from analytics.standings import above_the_cut, standings
from cli.errors import refuse
from cli.moments import ZONES, through, zoned
from cli.options import with_store
from cli.output import UNBOUNDED, fits, json_text
from cli.output import Terminal as Console
from cli.paths import checked_output, output_path, write_output
from cli.speech import one_of, speaking, spoken, told
from cli.tournament.common import nobody, run
from events.language import words
from events.said import Said, say
from ingest.store import Store


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
    frame = run(lambda: standings(store, tournament, stage=stage, as_of=then))
    if frame.is_empty():
        if as_of is not None:
            said = say(
                "no standings for %(tournament)s (%(stage)s) as of %(moment)s: ask for a later moment",
                tournament=tournament,
                stage=stage,
                moment=as_of,
            )
            raise refuse(told(said), 1)
        raise nobody(tournament)
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
        text = json_text(rows, default=str, indent=1)
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
