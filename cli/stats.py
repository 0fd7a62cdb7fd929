"""``saboteur stats roles|players|games``: the statistics, as tables, CSV or JSON.

A thin shell over :mod:`analytics.stats`: it turns options into
:class:`~analytics.filters.Filters`, opens the store read-only for one query and prints
the frames it gets back.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar

import polars as pl
import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from analytics import headings, stats
from analytics.filters import DEFAULT_MIN_N, Filters
from analytics.lake import connect as lake_tables
from analytics.spreadsheet import csv_text
from cli.errors import refuse
from cli.moments import moment
from cli.options import DbOption, WaitOption, grouped, opened_store
from cli.output import Terminal as Console
from cli.output import fits, json_text
from cli.paths import lake_url
from cli.speech import one_of, speaking, spoken, told
from events.language import number_words
from events.said import Said, say, sentence

app = typer.Typer(
    rich_markup_mode="markdown",  # a docstring's lines join into one paragraph, wrapped to the terminal
    help="Statistics over the store: roles, players, and how rounds go.",
    no_args_is_help=True,
)


_Choice = TypeVar("_Choice", bound=StrEnum)


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def _choice(kind: type[_Choice], text: str, option: str) -> _Choice:
    """``text`` as one of ``kind``'s values; another is refused in the command's language
    (read where the command runs: Click's own check of a choice says it in English, and
    an option's parser runs before the command's language is set)."""
    try:
        return kind(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r}: {one_of(*kind)}", param_hint=option) from None


FormatOption = Annotated[str, typer.Option("--format", help="table, csv or json.", metavar="FORMAT")]


class StageChoice(StrEnum):
    """The stages a filter may name: a typo is refused (exit 2), not an empty table."""

    preliminary = "preliminary"
    semifinal = "semifinal"
    final = "final"


class RulesetChoice(StrEnum):
    tournament = "tournament"
    base = "base"


def _filters(
    *,
    tournament: Annotated[str | None, typer.Option("--tournament", help="Only this tournament's games.")] = None,
    stage: Annotated[
        str | None, typer.Option("--stage", help="Only this stage: preliminary, semifinal, final.", metavar="STAGE")
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="Only this ruleset: tournament or base.", metavar="RULESET")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Games started at or after this date or time "
            "(ISO 8601: 2026-11-29T14:00, 2026-11-29T14:00+01:00; UTC when no zone is given).",
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            "--until",
            help="Games started before this time, or on or before this date "
            "(ISO 8601: 2026-11-29T14:00, 2026-11-29T14:00+01:00; UTC when no zone is given).",
        ),
    ] = None,
    clean_only: Annotated[
        bool, typer.Option("--clean-only/--no-clean-only", help="Only rounds the audit found no error in.")
    ] = False,
    min_n: Annotated[
        int, typer.Option("--min-n", min=0, help="Flag cells with fewer trials than this.")
    ] = DEFAULT_MIN_N,
) -> Filters:
    """The filter options every ``stats`` command takes, declared once, here: their
    values as :class:`~analytics.filters.Filters`."""
    start = None if since is None else moment(since, "--since")
    end = None if until is None else moment(until, "--until", end=True)
    if start is not None and end is not None and start > end:  # no round is both: a typo, not a statistic
        said = say("--since %(since)s is after --until %(until)s: no round lies between", since=since, until=until)
        raise typer.BadParameter(told(said), param_hint="--since")
    return Filters(
        tournament=tournament,
        stage=None if stage is None else _choice(StageChoice, stage, "--stage").value,
        ruleset=None if ruleset is None else _choice(RulesetChoice, ruleset, "--ruleset").value,
        since=start,
        until=end,
        clean_only=clean_only,
        min_n=min_n,
    )


filtered = grouped("filters", _filters)
"""A command that takes ``filters: Filters``, built and checked from the filter options."""


LakeOption = Annotated[
    str | None,
    typer.Option(
        "--lake",
        help="Read a lake (a folder or an fsspec URL: saboteur archive) instead of the store.",
        parser=lake_url,
    ),
]


@dataclass(frozen=True, slots=True)
class StatsSource:
    """What a statistic is read from: the lake ``--lake`` names, else the store."""

    db: Path | None
    lake: str | None
    wait: float

    def read(self, read: Callable[[stats.Source], Any]) -> Any:
        """Run ``read`` on the lake if one is named, else on the store (a store that
        cannot be used, missing or busy, is the root command's to report:
        :mod:`cli.errors`)."""
        if self.lake is not None:
            with lake_tables(self.lake) as con:
                return read(con)
        return read(opened_store(self.db, self.wait))

    def require(self, filters: Filters) -> None:
        """Refuse (exit 1) a ``--tournament`` the source holds no game of: a typo gave
        tables of nothing, exit 0."""
        named = filters.tournament
        if named is None:
            return
        if not self.read(lambda read: stats.tournament_games(read, named)):
            from ingest.store import default_path  # loaded by any command reading the store

            where = self.lake if self.lake is not None else str(self.db or default_path())
            said = say("no game of tournament %(tournament)s in %(source)s", tournament=named, source=where)
            raise refuse(told(said), 1)


def _source(db: DbOption = None, lake: LakeOption = None, wait: WaitOption = 60.0) -> StatsSource:
    """The statistics' source, from the options that name it."""
    return StatsSource(db, lake, wait)


from_source = grouped("source", _source)
"""A command that takes ``source: StatsSource``, given from ``--db``, ``--lake`` and ``--wait``."""


def _cell(column: str, value: Any) -> str:
    """A cell as a person reads it: a code by its words (:func:`analytics.headings.cell`),
    a number as the command's language writes it (a rate with three digits), nothing
    for a missing value."""
    if value is None:
        return ""
    worded = headings.cell(column, value, spoken())
    if worded is not None:
        return escape(worded)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number_words(value, spoken())
    return escape(str(value))


def _table(frame: pl.DataFrame, title: str) -> Table:
    """A rich table of a frame, its heads and codes in the command's language; rows
    flagged as too small to read are dimmed."""
    table = Table(
        title=title, title_justify="left", box=box.HORIZONTALS, show_edge=False, pad_edge=False, collapse_padding=True
    )
    numeric = {name for name, kind in frame.schema.items() if kind.is_numeric()}
    for name in frame.columns:
        head = headings.heading(name, spoken(), short=True)
        table.add_column(
            escape(head), justify="right" if name in numeric else "left", overflow="fold", no_wrap=name in numeric
        )  # a number is never broken: "0.53" over "3" read as two numbers
    for row in frame.iter_rows(named=True):  # printing only: the counting is done
        table.add_row(*(_cell(name, row[name]) for name in frame.columns), style="dim" if row.get("flagged") else None)
    return table


def _on_screen(name: str, frame: pl.DataFrame) -> pl.DataFrame:
    """A frame as a terminal shows it: each role's rounds, wins and win rate of
    ``player_stats`` in one column (``wins/rounds``), the player's id left to the name,
    so that a player's row fits a terminal's width (CSV and JSON keep every column)."""
    if name != "player_stats":
        return frame
    roles = [pl.format("{}/{}", f"wins_{role}", f"rounds_{role}").alias(role) for role in stats.ROLES]
    per_role = [f"{what}_{role}" for role in stats.ROLES for what in ("rounds", "wins", "win_rate")]
    shown = frame.with_columns(roles).drop("player", "expected_wins", *per_role)
    first = ["name", "rounds", "wins", "win_rate", *stats.ROLES]
    return shown.select(*first, *(c for c in shown.columns if c not in first)).rename({"points": "round_points"})


def _print(frames: dict[str, pl.DataFrame], form: Format, notes: dict[str, list[Said]] | None = None) -> None:
    """Print one frame or several: tables, CSV (each after a ``# name`` line when
    several), or JSON (records; an object of them by name when several). A frame's
    note (``notes``) is printed under its table, or on the standard error beside CSV
    and JSON, which stay data alone."""
    notes = notes or {}
    if form is not Format.table:
        for name, said in notes.items():
            for note in said:
                Console(stderr=True, highlight=False).print(f"{name}: {escape(told(note))}")
    single = len(frames) == 1
    if form is Format.json:
        records = {name: frame.to_dicts() for name, frame in frames.items()}
        payload: Any = next(iter(records.values())) if single else records
        sys.stdout.write(json_text(payload, default=str) + "\n")
    elif form is Format.csv:
        parts = [csv_text(frame) if single else f"# {name}\n{csv_text(frame)}" for name, frame in frames.items()]
        sys.stdout.write("\n".join(parts))
    else:
        console = Console(highlight=False)
        for name, frame in frames.items():
            table = _table(_on_screen(name, frame), escape(headings.title(name, spoken())))
            out = console
            if not console.is_terminal and "COLUMNS" not in os.environ:  # piped: as wide as the table needs
                needed = Console(width=1_000_000).measure(table).maximum
                out = Console(highlight=False, width=max(console.width, needed))
            if fits(out, table):
                out.print(table)
            else:  # too narrow for the table without breaking its numbers: a row a few lines
                out.print(escape(headings.title(name, spoken())))
                for line in _rows_as_lines(_on_screen(name, frame)):
                    out.print(line)
            if frame.is_empty():
                out.print(f"[dim]{escape(told(say('nothing to show')))}[/dim]")
            for note in notes.get(name, []):
                out.print(escape(told(note)))


def _rows_as_lines(frame: pl.DataFrame) -> list[str]:
    """Each row of ``frame`` as one paragraph for a terminal too narrow for its table:
    its first cell, then each other column's head and cell (a cell left empty left out)."""
    heads = {name: headings.heading(name, spoken(), short=True) for name in frame.columns}
    lines = []
    for row in frame.iter_rows(named=True):
        first, *rest = frame.columns
        # a head and its cell kept on one line (a no-break space): "dwarf" at a line's end, "0/1" under it, read apart
        cells = [f"{escape(heads[name])}\u00a0{_cell(name, row[name])}" for name in rest if _cell(name, row[name])]
        lines.append(f"[bold]{_cell(first, row[first])}[/bold] · " + " · ".join(cells))
    return lines


POINTS_NOTE: Final = say(
    "round points, per round: the points of each round as played (the replay's score, else the one recorded), "
    "before corrections and penalties; `saboteur standings` counts those."
)
"""Said under ``stats players``: its points are not the standings' points."""


def _one_table(
    name: str,
    table: str,
    compute: Callable[[stats.Source, Filters], pl.DataFrame],
    about: str,
    note: Said | None = None,
) -> None:
    """Register ``stats NAME``: one statistic's frame (``table``), with the shared
    filters, the format and the store options; ``note`` is said under it."""

    @app.command(name, help=about)
    @speaking
    @filtered
    @from_source
    def command(*, source: StatsSource, filters: Filters, form: FormatOption = "table") -> None:
        shown = _choice(Format, form, "--format")
        source.require(filters)
        frames = {table: source.read(lambda read: compute(read, filters))}
        _print(frames, shown, _with_counts_left_out(source, filters, {table: [note]} if note else {}, frames))


@app.command("roles")
@speaking
@filtered
@from_source
def roles_command(*, source: StatsSource, filters: Filters, form: FormatOption = "table") -> None:
    """Win rate per role by ruleset × table size × saboteurs in play (Wilson 95%)."""
    shown = _choice(Format, form, "--format")
    source.require(filters)
    frame, (bots, rounds) = source.read(
        lambda read: (stats.role_win_rates(read, filters), stats.played_by_bots(read, filters))
    )
    frames = {"role_win_rates": frame}
    _print(
        frames,
        shown,
        _with_counts_left_out(source, filters, {"role_win_rates": [bots_note(bots, rounds)]} if bots else {}, frames),
    )


def bots_note(bots: int, rounds: int) -> Said:
    """Said under role win rates counted over rounds the simulator's bots played."""
    if bots == rounds:
        return say(
            "all %(rounds)s rounds were played by the simulator's bots (game ids beginning sim: or sim-): "
            "these rates say as much about the bots as about the game",
            rounds=rounds,
        )
    return say(
        "%(bots)s of %(rounds)s rounds were played by the simulator's bots (game ids beginning sim: or sim-): "
        "these rates say as much about the bots as about the game",
        bots=bots,
        rounds=rounds,
    )


_one_table(
    "players",
    "player_stats",
    stats.player_stats,
    sentence(
        "Per player: rounds and wins per role, round points (before corrections and penalties), stars, "
        "wins over expected."
    ),
    POINTS_NOTE,
)


@app.command("games")
@speaking
@filtered
@from_source
def games_command(
    *,
    source: StatsSource,
    filters: Filters,
    form: FormatOption = "table",
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--only",
            help="Just these tables: seat_advantage, gold_slots, round_endings, turns_per_round, "
            "action_cards_by_role, rockfalls_and_maps (repeatable).",
        ),
    ] = None,
) -> None:
    """How rounds go: seat advantage, gold slots, endings, turns, action cards, rockfalls and maps."""
    unknown = sorted(set(only or ()) - set(stats.ROUND_TABLES))
    if unknown:
        raise typer.BadParameter(
            told(
                say(
                    "no table %(tables)s; the tables are %(known)s",
                    tables=tuple(unknown),
                    known=tuple(stats.ROUND_TABLES),
                )
            ),
            param_hint="--only",
        )
    shown = _choice(Format, form, "--format")
    source.require(filters)
    frames = source.read(lambda read: stats.round_tables(read, filters, only or None))
    _print(frames, shown, _with_counts_left_out(source, filters, _left_out_notes(source, filters, frames), frames))


def _with_counts_left_out(
    source: StatsSource, filters: Filters, notes: dict[str, list[Said]], frames: dict[str, pl.DataFrame]
) -> dict[str, list[Said]]:
    """``notes`` and, under every table, how many rounds a date filter left out for
    having no time at all (a log's ``at`` is optional: without it a game has none);
    under a statistic of wins, how many rounds it left out for having no known winner;
    under one of a round's result, how many it left out for having ended early."""
    undated = source.read(lambda read: stats.undated_rounds(read, filters))
    wins = [name for name in frames if name in stats.WON_OR_LOST]
    undecided = source.read(lambda read: stats.undecided_rounds(read, filters)) if wins else 0
    noted = dict(notes)
    for name in frames:
        if undated:
            said = say("rounds with no time left out by --since/--until: %(rounds)s", rounds=undated)
            noted[name] = [*noted.get(name, []), said]
        early = _stopped_early(source, filters, name) if name in stats.PLAYED_OUT_ONLY else 0
        if early:
            said = say("rounds a log ended before they were over left out: %(rounds)s", rounds=early)
            noted[name] = [*noted.get(name, []), said]
        if undecided and name in wins:
            said = say(
                "rounds with no known winner left out (a round ended before it was over, or a score sheet's round "
                "that fits no outcome of the rules): %(rounds)s",
                rounds=undecided,
            )
            noted[name] = [*noted.get(name, []), said]
    return noted


def _stopped_early(source: StatsSource, filters: Filters, name: str) -> int:
    """:func:`analytics.stats.stopped_early`, read from the store or the lake."""
    return int(source.read(lambda read: stats.stopped_early(read, filters, name)))


def _left_out_notes(source: StatsSource, filters: Filters, frames: dict[str, pl.DataFrame]) -> dict[str, list[Said]]:
    """Beside each statistic that leaves rounds out, how many: observed rounds where it
    needs cards the table does not see, score-sheet rounds where it needs a log (none
    said when none were)."""
    hidden = any(name in stats.HIDDEN_CARDS for name in frames)
    logged = any(name in stats.NEEDS_A_LOG for name in frames)
    observed = source.read(lambda read: stats.observed_rounds(read, filters)) if hidden else 0
    sheets = source.read(lambda read: stats.sheet_rounds(read, filters)) if logged else 0
    notes: dict[str, list[Said]] = {}
    for name in frames:
        seen = observed if name in stats.HIDDEN_CARDS else 0
        sheet = sheets if name in stats.NEEDS_A_LOG else 0
        if seen and sheet:
            notes[name] = [
                say("rounds left out: %(observed)s observed, %(sheets)s from score sheets", observed=seen, sheets=sheet)
            ]
        elif seen:
            notes[name] = [say("observed rounds left out: %(rounds)s", rounds=seen)]
        elif sheet:
            notes[name] = [say("score-sheet rounds left out: %(rounds)s", rounds=sheet)]
    return notes
