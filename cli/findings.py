"""``saboteur findings``: the findings an organiser settles, each with the id that
``tournament dismiss`` and ``tournament penalty --finding`` take.

A thin shell over :func:`analytics.browse.findings`, which also says what became of
each finding (the same test the dashboard's Audit page uses for "open").
"""

from __future__ import annotations

import sys
from typing import Annotated, Final

import polars as pl
import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from analytics import browse, headings
from analytics.spreadsheet import csv_text
from cli.errors import refuse
from cli.options import with_store
from cli.output import Terminal as Console
from cli.output import finding_words, fits, json_text
from cli.speech import one_of, speaking, spoken
from events.language import stored_words, words
from events.said import Said, say
from ingest.store import Store

COLUMNS = ("finding_id", "game_id", "line", "round", "player", "code", "rule", "message")
"""What a finding's row shows, and in this order what ``--format csv|json`` writes."""


def findings_table(
    found: pl.DataFrame, title: str, *, by_tournament: bool, with_status: bool, lang: str = "en"
) -> Table:
    """The findings as a table, its heads and statuses in ``lang``: ids, codes and
    statuses whole, the message wrapped on words in the width left (at least
    :data:`MESSAGE_WIDTH`)."""
    shown = Table(title=title, title_justify="left")
    columns = [*(["tournament"] if by_tournament else []), *COLUMNS, *(["status"] if with_status else [])]
    for column in columns:
        message = column == "message"
        shown.add_column(
            escape(headings.heading(column, lang)),
            justify="right" if column in ("line", "round") else "left",
            no_wrap=not message,
            min_width=MESSAGE_WIDTH if message else None,
            ratio=1 if message else None,
        )
    for row in found.iter_rows(named=True):
        shown.add_row(*(_cell(c, row[c], lang) for c in columns))
    return shown


def _cell(column: str, value: object, lang: str) -> str:
    if value is None:
        return ""
    worded = headings.cell(column, value, lang)
    return escape(str(value) if worded is None else worded)


MESSAGE_WIDTH: Final = 30
"""The narrowest a message column reads well in; a terminal that cannot give it this
much besides the ids and codes gets the findings a few lines each instead."""


def print_findings(
    console: Console, found: pl.DataFrame, title: str, *, by_tournament: bool, with_status: bool, lang: str = "en"
) -> None:
    """The findings as a table when the console is wide enough for one with no word
    broken (:func:`cli.output.fits`); otherwise each finding as its id, status and game,
    and under it, indented and wrapped on words, :func:`finding_words`."""
    table = findings_table(found, title, by_tournament=by_tournament, with_status=with_status, lang=lang)
    if fits(console, table):
        console.print(table)
        return
    console.print(escape(title))
    for row in found.iter_rows(named=True):
        head = [
            row["finding_id"],
            *([_cell("status", row["status"], lang)] if with_status else []),
            *([row["tournament"]] if by_tournament else []),
            row["game_id"],
        ]
        console.print(Text(" · ".join(str(h) for h in head if h is not None), style="bold"))
        console.print(Padding(Text(finding_words(row, lang)), (0, 0, 0, 2)))


@speaking
@with_store
def findings_command(
    tournament: Annotated[
        str | None, typer.Argument(help="The tournament's id; every stored game's findings unless given.")
    ] = None,
    only_open: Annotated[
        bool,
        typer.Option("--open/--all", help="Only the findings still open (neither dismissed, penalised nor settled)."),
    ] = False,
    output_format: Annotated[str, typer.Option("--format", help="table, csv or json.")] = "table",
    *,
    store: Store,
) -> None:
    """List the findings of a tournament's games (or of every game), with the finding id
    that `tournament dismiss` and `tournament penalty --finding` take and what became of
    each: open, dismissed, penalised, or settled by a correction or an accepted replay."""
    if output_format not in ("table", "csv", "json"):
        raise typer.BadParameter(one_of("table", "csv", "json"), param_hint="--format")
    speaks = spoken()  # of each finding's message, and of what is said around them
    if tournament is not None and tournament not in browse.tournaments(store)["tournament"].to_list():
        raise refuse(words(say("no tournament %(tournament)s", tournament=tournament), speaks), 1)
    found = _in_language(browse.findings(store, tournament), speaks)
    if only_open:
        found = found.filter(pl.col("status") == "open")
    data = found.select(*(["tournament"] if tournament is None else []), *COLUMNS, "status")
    if output_format == "csv":
        sys.stdout.write(csv_text(data))
        return
    if output_format == "json":
        sys.stdout.write(json_text(data.to_dicts()) + "\n")
        return
    console = Console(highlight=False)
    title = words(_title(only_open, tournament, empty=False), speaks)
    if found.is_empty():
        console.print(escape(words(_title(only_open, tournament, empty=True), speaks)))
        return
    print_findings(console, found, title, by_tournament=tournament is None, with_status=not only_open, lang=speaks)
    settle = say("settle one with: %(command)s", command="saboteur tournament dismiss|penalty --finding ID")
    console.print(f"[dim]{escape(words(settle, speaks))}[/dim]")


def _title(only_open: bool, tournament: str | None, *, empty: bool) -> Said:
    """What the list is (or, ``empty``, that there is none): of a tournament or of every game."""
    if tournament is None:
        if empty:
            return say("no open findings of any game") if only_open else say("no findings of any game")
        return say("open findings of every game") if only_open else say("findings of every game")
    if empty:
        if only_open:
            return say("no open findings of %(tournament)s", tournament=tournament)
        return say("no findings of %(tournament)s", tournament=tournament)
    if only_open:
        return say("open findings of %(tournament)s", tournament=tournament)
    return say("findings of %(tournament)s", tournament=tournament)


def _in_language(found: pl.DataFrame, lang: str) -> pl.DataFrame:
    """The findings with each ``message`` in ``lang`` (their stored sentences); English as stored."""
    if lang == "en":
        return found
    messages = [
        stored_words(said, message, lang) for said, message in zip(found["said"], found["message"], strict=True)
    ]
    return found.with_columns(pl.Series("message", messages, dtype=pl.String))
