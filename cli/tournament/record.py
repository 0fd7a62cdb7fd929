"""``saboteur tournament log`` and ``check``: the record read back — every event with
its time and reason, as wide as the terminal allows — and the games checked against
the published seatings and the cuts the standings give now."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Final

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from analytics import records
from analytics.standings import seating_findings
from cli.errors import refuse
from cli.options import with_store
from cli.output import Terminal as Console
from cli.output import fits
from cli.speech import speaking, told
from cli.tournament.common import console, run
from events.said import Said, say, sentence
from events.shown import one_line
from ingest.store import Store


@speaking
@with_store
def log(tournament: str, store: Store) -> None:
    """The tournament's history: every record with its time and reason, and each
    checkpoint of the chain published (its signature left out)."""
    record = run(lambda: records.history(store, tournament))
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


@speaking
@with_store
def check(tournament: str, store: Store) -> None:
    """Games whose players differ from the published seating, tables with two games of a
    round, and a semi-final or final seated from a cut the standings no longer give."""
    found = run(lambda: seating_findings(store, tournament))
    moved = run(lambda: records.cuts_moved(store, tournament))
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
