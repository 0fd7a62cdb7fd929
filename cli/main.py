"""The ``saboteur`` command: the project's edge toward people and scripts.

Each command is a thin shell over a library function (``events.audit``…); it parses
arguments, prints and sets the exit status, and nothing else.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Generator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import typer
from rich.markup import escape

from cli import flags, help_words
from cli.errors import ReportingGroup
from cli.lazy import Lazy
from cli.options import ASKED_LANGUAGE, ROOT_LANGUAGE, LangOption
from cli.options import language as chosen_language
from cli.output import Terminal as Console
from cli.output import json_text
from cli.paths import input_path
from events.said import Said, say
from ingest.kinds import kind_of
from ingest.workers import process_pool, size_of, workers_for

if TYPE_CHECKING:  # the replay is imported by the commands that replay, not by --help
    from events.audit import Audit


class Root(ReportingGroup):
    """The ``saboteur`` group: every command but ``audit`` and ``schema`` imported when
    it runs (:mod:`cli.lazy`), listed in this order."""

    lazy: ClassVar[dict[str, Lazy]] = {
        "ingest": Lazy("cli.store", "ingest_command", "Audit files and store them in the append-only event store."),
        "rebuild": Lazy(
            "cli.store",
            "rebuild_command",
            "Drop the read models and rebuild them from the events alone (a store of an older schema version is "
            "upgraded first).",
        ),
        "verify": Lazy(
            "cli.store",
            "verify_command",
            "Recompute the hash chains of the events and the uploads, check heads published earlier, and check the "
            "read models against the events.",
        ),
        "standings": Lazy(
            "cli.standings",
            "standings_command",
            "The standings of a tournament (R-TS2, R-TS4), now or as of any moment, as wide as the terminal (or "
            "$COLUMNS); `--format pdf -o FILE` to print or pin up.",
        ),
        "findings": Lazy(
            "cli.findings",
            "findings_command",
            "List the findings of a tournament's games (or of every game), with the finding id that `tournament "
            "dismiss` and `tournament penalty --finding` take and what became of each: open, dismissed, penalised, "
            "or settled by a correction or an accepted replay.",
        ),
        "dashboard": Lazy(
            "cli.dashboard",
            "dashboard_command",
            "Serve the dashboard (standings, roles, players, rounds, replay; upload and audit for the organiser, "
            "whose password is $SABOTEUR_ADMIN_PASSWORD).",
        ),
        "observe": Lazy(
            "cli.observe",
            "observe_command",
            "Write the observed log of a full log: what a referee at the table could see.",
        ),
        "simulate": Lazy("cli.simulate", "app", "Write simulated, rule-abiding game logs and tournaments."),
        "stats": Lazy("cli.stats", "app", "Statistics over the store: roles, players, and how rounds go."),
        "archive": Lazy("cli.archive", "app", "The archive as a Parquet lake, built on a Dask cluster."),
        "tournament": Lazy(
            "cli.tournament", "app", "Create a tournament, register and seat players, and keep its record."
        ),
        "checkpoint": Lazy(
            "cli.checkpoint", "app", "The organiser's key, and signed checkpoints of the chain's heads."
        ),
    }
    order: ClassVar[tuple[str, ...]] = (
        *("ingest", "rebuild", "verify", "standings", "findings", "dashboard", "observe", "audit", "schema"),
        *("simulate", "stats", "archive", "tournament", "checkpoint"),
    )

    def main(self, args: Any = None, *rest: Any, **options: Any) -> Any:
        """Run the command; its help (and Typer's words around it) in the language
        ``--lang`` or ``$SABOTEUR_LANG`` asks for (:mod:`cli.help_words`)."""
        lang = help_words.asked(sys.argv[1:] if args is None else list(args))
        token = ROOT_LANGUAGE.set(None)
        try:
            if lang == "en":
                return super().main(args, *rest, **options)
            with help_words.speaking(lang) as translate:
                self.translate = translate
                translate(self)
                return super().main(args, *rest, **options)
        finally:
            self.translate = None
            ROOT_LANGUAGE.reset(token)


flags.named_only()
app = typer.Typer(
    rich_markup_mode="markdown",  # a docstring's lines join into one paragraph, wrapped to the terminal
    name="saboteur",
    help="Saboteur Ledger: audit, store and rank Saboteur tournament game logs.",
    no_args_is_help=True,
    add_completion=False,
    cls=Root,
)


@app.callback()
def root(lang: LangOption = None) -> None:
    """Saboteur Ledger: audit, store and rank Saboteur tournament game logs."""
    ASKED_LANGUAGE.set(None)  # a run's own: not the last run's of this process (a test's)
    if lang is not None:
        chosen_language(lang)  # a language there is, or a usage error naming them
        ROOT_LANGUAGE.set(lang)


_NOT_LOGS = {
    "score_sheet": say("a score sheet, not a game log: nothing to replay; `saboteur ingest FILE` takes it in"),
    "tournament": say("a tournament description, not a game log: `saboteur ingest FILE` takes it in"),
}
"""What ``audit`` says of a file named that ``ingest`` reads but the replay does not."""


def _print_audit(console: Console, result: Audit, lang: str) -> None:
    from events.language import describe, outcome_line, status_words

    style = {"clean": "green", "violations": "red", "unreadable": "bold red"}[result.status]
    label = status_words(result.status, result.errors, lang)
    game = f" · {escape(result.game_id)}" if result.game_id else ""
    console.print(f"[bold]{escape(result.file)}[/bold]{game} · [{style}]{escape(label)}[/{style}]")
    for finding in result.listed():
        colour = "red" if finding.severity == "error" else "yellow"
        console.print(f"  [{colour}]{escape(describe(finding, lang))}[/{colour}]")
    for outcome in result.outcomes:
        console.print(f"  [dim]{escape(outcome_line(outcome, lang))}[/dim]")


@app.command()
def audit(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Log files (.jsonl, .jsonl.gz) or folders to walk.",
            parser=input_path,  # each file is judged alone: one it cannot read is unreadable, the rest go on
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json/--no-json", help="One JSON audit report per file per line.")] = False,
    strict: Annotated[bool, typer.Option("--strict/--no-strict", help="Stop each file at its first error.")] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            help=(
                "Processes auditing files (default: one per core and one per 2 MiB of files at most;"
                " never more than the files)."
            ),
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Replay every log against the rules and report each violation.

    The files are audited in a pool of processes, one per core unless told (a few
    small files, in this one), and reported in their order. Exit status: 0 when every
    file is clean, 1 when any has violations, 2 when any cannot be read as a log.
    """
    from events.audit import log_files

    language = chosen_language(lang)
    console = Console(highlight=False, soft_wrap=True)
    worst = 0
    files = list(log_files(paths))
    if not files:
        Console(stderr=True).print(_told(say("no log files found (looked for *.jsonl and *.jsonl.gz)"), language))
        raise typer.Exit(2)
    logs = [path for path in files if kind_of(path.name) not in _NOT_LOGS or as_json]
    used = workers_for(len(logs), workers, size_of(logs) if workers is None else None)
    audits = audit_all(logs, strict=strict, workers=used)
    for path in files:
        kind = kind_of(path.name)
        if kind in _NOT_LOGS and not as_json:
            console.print(
                f"[bold]{escape(str(path))}[/bold] · [bold red]{escape(_told(_NOT_LOGS[kind], language))}[/bold red]"
            )
            worst = 2
            continue
        result = next(audits)
        if as_json:
            report = result.report().model_dump()
            if language != "en":
                from events.language import report_in

                report = report_in(report, result.listed(), language)
            sys.stdout.write(json_text(report) + "\n")
            sys.stdout.flush()
        else:
            _print_audit(console, result, language)
        worst = max(worst, {"clean": 0, "violations": 1, "unreadable": 2}[result.status])
    audits.close()  # the pool shut down
    files_said = _told(say("%(count)s file", "%(count)s files", "count", count=len(logs)), language)
    cores = say(
        "audited %(files)s on %(count)s core (--workers; default: one per core, one per 2 MiB at most)",
        "audited %(files)s on %(count)s cores (--workers; default: one per core, one per 2 MiB at most)",
        "count",
        files=files_said,
        count=used,
    )
    Console(stderr=True, highlight=False).print(f"[dim]{escape(_told(cores, language))}[/dim]")
    raise typer.Exit(worst)


def audit_all(paths: list[Path], *, strict: bool, workers: int) -> Generator[Audit, None, None]:
    """The audit of each file, in order: in a pool of ``workers`` processes (each
    given runs of files, so a small log costs no round trip of its own), or here."""
    from events.audit import audit_file

    job = partial(audit_file, strict=strict)
    with process_pool(workers) as pool:
        if pool is None:
            yield from map(job, paths)
        else:
            yield from pool.map(job, paths, chunksize=max(1, min(32, len(paths) // (8 * workers))))


@app.command()
def schema(
    stream: Annotated[
        str,
        typer.Option(
            help="Which: log (a log line), tournament (a tournament's stream), tournament-file (a whole "
            "tournament.json), sheet (a score sheet's stream) or draft (a table's recording)."
        ),
    ] = "log",
) -> None:
    """Print the JSON Schema of one event: a log line (saboteur-log/1) unless told."""
    from events.records.schemas import SCHEMAS  # the records' models: only this command needs them

    if stream not in SCHEMAS:
        raise typer.BadParameter(", ".join(SCHEMAS), param_hint="--stream")
    sys.stdout.write(json.dumps(SCHEMAS[stream](), indent=2) + "\n")


def main() -> None:
    app()


def _told(said: Said, lang: str) -> str:
    """``said`` (a sentence of :mod:`events.said`) in ``lang``; the language module is
    loaded only here, where a command speaks."""
    from events.language import words

    return str(words(said, lang))


if __name__ == "__main__":  # last: what it runs is all defined by then
    main()
