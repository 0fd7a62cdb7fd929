"""``saboteur ingest``, ``rebuild`` and ``verify``: the store's commands."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ingest.pipeline import FileResult, ingest
from ingest.rebuild import rebuild as rebuild_read_models
from ingest.sources import safe_name
from ingest.store import Store, StoreBusy, default_path
from ingest.verify import verify as verify_store

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="The DuckDB file (default: $SABOTEUR_DB, else ./saboteur.duckdb).", show_default=False),
]
WaitOption = Annotated[float, typer.Option("--wait", help="Seconds to wait for a database another process holds.")]

_OUTCOME_STYLE = {
    "accepted": "green",
    "accepted_with_findings": "yellow",
    "rejected": "red",
    "duplicate": "dim",
}


def _store(db: Path | None, wait: float) -> Store:
    return Store(db if db is not None else default_path(), wait=wait)


def ingest_command(
    paths: Annotated[
        list[Path], typer.Argument(help="Logs (.jsonl, .jsonl.gz), score sheets (.csv), tournament.json, folders.")
    ],
    db: DbOption = None,
    supersede: Annotated[
        bool, typer.Option("--supersede", help="Store a file as the new version of a game already stored.")
    ] = False,
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why a game is superseded (required with --supersede).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Processes auditing files (default: one per core).")
    ] = None,
    wait: WaitOption = 60.0,
) -> None:
    """Audit files and store them in the append-only event store.

    Exit status 0, or 1 if any file was rejected (2 when the database is busy).
    """
    if supersede and not reason:
        raise typer.BadParameter('say why with --reason "…"', param_hint="--supersede")
    store = _store(db, wait)
    console = Console(stderr=True)
    counts: Counter[str] = Counter()
    noted: list[FileResult] = []
    progress = Progress(
        TextColumn("[bold]ingest"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task("files", total=None)

        def on_total(total: int) -> None:
            progress.update(task, total=total)

        def on_file(result: FileResult) -> None:
            counts[result.outcome] += 1
            if result.outcome in ("rejected", "accepted_with_findings") and len(noted) < 50:
                noted.append(result)
            progress.advance(task)

        try:
            results = ingest(
                paths, store, supersede=supersede, reason=reason, workers=workers, on_file=on_file, on_total=on_total
            )
        except StoreBusy as exc:
            console.print(f"[red]{escape(str(exc))}[/red]")
            raise typer.Exit(2) from None
    out = Console(soft_wrap=True)
    if noted:
        detail = Table(title="files needing attention", show_lines=False)
        for column in ("file", "outcome", "games", "why"):
            detail.add_column(column)
        for result in noted:
            style = _OUTCOME_STYLE[result.outcome]
            why = result.message or (f"{result.errors} violation(s)" if result.errors else "")
            detail.add_row(
                escape(result.name),
                f"[{style}]{result.outcome}[/{style}]",
                escape(", ".join(result.game_ids)),
                escape(why),
            )
        out.print(detail)
    summary = Table(title=f"ingested into {escape(safe_name(str(store.path)))}")
    for outcome in ("accepted", "accepted_with_findings", "rejected", "duplicate"):
        summary.add_column(outcome.replace("_", " "), justify="right")
    summary.add_row(*(str(counts[o]) for o in ("accepted", "accepted_with_findings", "rejected", "duplicate")))
    out.print(summary)
    if not results:
        Console(stderr=True).print("no files found (looked for .jsonl, .jsonl.gz, .csv and .json)")
    raise typer.Exit(1 if counts["rejected"] else 0)


def rebuild_command(db: DbOption = None, wait: WaitOption = 60.0) -> None:
    """Drop the read models and rebuild them from the events alone."""
    try:
        counts = rebuild_read_models(_store(db, wait))
    except StoreBusy as exc:
        Console(stderr=True).print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from None
    Console().print(
        "rebuilt up to event "
        + str(counts.pop("position"))
        + ": "
        + ", ".join(f"{table} {n}" for table, n in counts.items())
    )


def verify_command(
    db: DbOption = None,
    wait: WaitOption = 60.0,
    chain_only: Annotated[
        bool, typer.Option("--chain-only", help="Check the hash chain, not the read models.")
    ] = False,
) -> None:
    """Recompute the hash chain and check the read models against the events.

    Prints the chain head; exits 1 naming the first event altered, removed or reordered.
    """
    store = _store(db, wait)
    if not store.path.exists():
        Console(stderr=True).print(f"no database at {escape(str(store.path))}")
        raise typer.Exit(2)
    try:
        verdict = verify_store(store, read_models=not chain_only)
    except StoreBusy as exc:
        Console(stderr=True).print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from None
    console = Console(soft_wrap=True)
    if verdict.ok:
        console.print(f"[green]ok[/green]: {verdict.events} events, chain head {verdict.head}")
        return
    for problem in verdict.problems:
        console.print(f"[red]{escape(problem)}[/red]")
    console.print(f"checked {verdict.events} events before the first problem")
    sys.stdout.flush()
    raise typer.Exit(1)
