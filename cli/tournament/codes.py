"""``saboteur tournament referee-codes`` and ``revoke-code``: a code for each table of a
seated round, written on a sheet of cards before it is recorded (:mod:`cli.referee_cards`),
and a lost card's code revoked (:mod:`analytics.records.codes`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from analytics import headings, records
from cli import referee_cards
from cli.errors import refuse
from cli.options import with_writing_store
from cli.paths import checked_output, output_path
from cli.speech import speaking, spoken, told
from cli.tournament.common import console, done, run
from events.said import say
from ingest.store import Store

DEFAULT_BASE = "http://localhost:8501"
"""Where ``saboteur dashboard`` serves the pages, as Streamlit does by default."""


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

            issued = run(lambda: records.issue_referee_codes(store, tournament, number, table or None, printed=printed))
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
    said = say(
        "the cards are in %(file)s, the only copy of their codes: a lost card is revoked with %(command)s",
        file=str(output),
        command="saboteur tournament revoke-code",
    )
    console.print(escape(told(said)))


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
    done(
        run(lambda: records.revoke_referee_code(store, tournament, number, table, reason)),
        say("the revocation of the code of table %(table)s of round %(round)s", table=table, round=number),
    )
