"""``saboteur ingest``, ``rebuild`` and ``verify``: the store's commands.

A store that cannot be used (missing, not a store, damaged, busy) is reported by the
root command for all of them (:mod:`cli.errors`)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from cli import counted
from cli.options import with_store
from cli.output import Terminal as Console
from cli.output import file_progress, finding_words
from cli.paths import input_path
from cli.speech import OUTCOME_WORDS, speaking, spoken, told
from events.language import words
from events.said import Said, say, sentence
from ingest import checkpoint
from ingest.checkpoint import Anchor
from ingest.pipeline import FileResult, ingest
from ingest.rebuild import rebuild as rebuild_read_models
from ingest.sources import safe_name
from ingest.stats import IngestStats
from ingest.store import Store, StoreBusy, ctrl_c_noted, interrupted

if TYPE_CHECKING:
    from analytics.carried import Carried

_OUTCOME_STYLE = {
    "accepted": "green",
    "accepted_with_findings": "yellow",
    "rejected": "red",
    "duplicate": "dim",
}
MOST_MISSEATED = 50
"""Players at the wrong table that ``ingest`` lists under its files; ``findings`` has the
rest. A batch played on a seating gone wrong (or none registered) has one a player and
game: thousands of lines, printed one by one."""
_HEADS = {"file": sentence("file"), "outcome": sentence("outcome"), "games": sentence("games"), "why": sentence("why")}


@speaking
@with_store
def ingest_command(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Logs (.jsonl, .jsonl.gz), score sheets (.csv), tournament.json, folders.",
            parser=input_path,  # each file is judged alone: one it cannot read is rejected, the rest go on
        ),
    ],
    store: Store,
    supersede: Annotated[
        bool,
        typer.Option("--supersede/--no-supersede", help="Store a file as the new version of a game already stored."),
    ] = False,
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why a game is superseded (required with --supersede).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            help=(
                "Processes auditing files (default: one per core and one per 2 MiB of files at most;"
                " never more than the files, nor than the files audited ahead can keep busy)."
            ),
        ),
    ] = None,
    verbose: Annotated[
        bool, typer.Option("-v", "--verbose/--no-verbose", help="List each file's findings, with their finding ids.")
    ] = False,
) -> None:
    """Audit files and store them in the append-only event store.

    Exit status 0, or 1 if any file was rejected (2 when the database is busy or cannot
    be used; 130 when stopped with Ctrl-C: the files told stand, the batch being
    written is not stored).
    """
    if supersede and not reason:
        raise typer.BadParameter(told(say('say why with --reason "…"')), param_hint="--supersede")
    counts: Counter[str] = Counter()
    try:
        with ctrl_c_noted():
            try:
                code = _ingest_and_tell(paths, store, supersede, reason, workers, verbose, counts)
            except Exception as error:
                if not interrupted(error):
                    raise
                raise KeyboardInterrupt from error
    except KeyboardInterrupt:
        Console(soft_wrap=True).print(_summary(store, counts))
        stop = say(
            "stopped (Ctrl-C) after %(count)s file, stored as the table counts it; the batch being written when "
            "you stopped is not. The same command again takes the rest (a file stored comes back as a duplicate)",
            "stopped (Ctrl-C) after %(count)s files, stored as the table counts them; the batch being written when "
            "you stopped is not. The same command again takes the rest (a file stored comes back as a duplicate)",
            "count",
            count=sum(counts.values()),
        )
        Console(stderr=True).print(escape(told(stop)))
        raise typer.Exit(130) from None
    raise typer.Exit(code)


def _ingest_and_tell(
    paths: list[Path],
    store: Store,
    supersede: bool,
    reason: str | None,
    workers: int | None,
    verbose: bool,
    counts: Counter[str],
) -> int:
    """``saboteur ingest``'s run and what it prints; its exit status. ``counts`` counts
    the files' outcomes as they are told (what a Ctrl-C leaves stored)."""
    speaks = spoken()
    console = Console(stderr=True)
    noted: list[FileResult] = []
    progress = file_progress(told(say("ingest")), console)
    with progress:
        task = progress.add_task(told(say("files")), total=None)

        def on_total(total: int) -> None:
            progress.update(task, total=total)

        def on_file(result: FileResult) -> None:
            counts[result.outcome] += 1
            if result.outcome in ("rejected", "accepted_with_findings") and (verbose or len(noted) < 50):
                noted.append(result)
            progress.advance(task)

        used = IngestStats()
        results = ingest(
            paths,
            store,
            supersede=supersede,
            reason=reason,
            workers=workers,
            on_file=on_file,
            on_total=on_total,
            stats=used,
        )
    out = Console(soft_wrap=True)
    if noted:
        detail = Table(title=told(say("files needing attention")), show_lines=False)
        for column in ("file", "outcome", "games", "why"):
            detail.add_column(told(say(_HEADS[column])))
        for result in noted:
            style = _OUTCOME_STYLE[result.outcome]
            errors = result.errors
            violations = say("%(count)s violation", "%(count)s violations", "count", count=errors)
            why = result.message or (told(violations) if errors else "")
            if result.message and result.said is not None:
                why = told(result.said)
            detail.add_row(
                escape(result.name),
                f"[{style}]{escape(told(say(OUTCOME_WORDS[result.outcome])))}[/{style}]",
                escape(", ".join(result.game_ids)),
                escape(why),
            )
        out.print(detail)
    if verbose:
        _read_back(out, lambda: _print_findings(out, store, noted, speaks))
    _read_back(out, lambda: _print_misseated(out, store, results, speaks))
    if supersede:
        _read_back(out, lambda: _print_carried(out, store, results, speaks))
    out.print(_summary(store, counts))
    if results:
        cores = say(
            "audited on %(count)s core (--workers; default: one per core, one per 2 MiB at most)",
            "audited on %(count)s cores (--workers; default: one per core, one per 2 MiB at most)",
            "count",
            count=used.workers,
        )
        out.print(escape(told(cores)))
    if not results:
        Console(stderr=True).print(told(say("no files found (looked for .jsonl, .jsonl.gz, .csv and .json)")))
    return 1 if counts["rejected"] else 0


def _read_back(out: Console, report: Callable[[], None]) -> None:
    """A part of the report read back from the store once the files are stored (their
    findings, who sat at the wrong table, the corrections carried): a store another
    process holds by then leaves that part out, said so, and the run's results stand.
    It ended the command "database busy", exit 2, no table, every file stored."""
    try:
        report()
    except StoreBusy as busy:
        left_out = say(
            "%(problem)s: the files are stored, and this part of the report is left out (saboteur findings lists it)",
            problem=(busy.said,),
        )
        out.print(f"[yellow]{escape(told(left_out))}[/yellow]")


def _summary(store: Store, counts: Counter[str]) -> Table:
    """How many files came to each outcome, under the store's name."""
    summary = Table(title=told(say("ingested into %(store)s", store=escape(safe_name(str(store.path))))))
    for outcome in ("accepted", "accepted_with_findings", "rejected", "duplicate"):
        summary.add_column(told(say(OUTCOME_WORDS[outcome])), justify="right")
    summary.add_row(*(str(counts[o]) for o in ("accepted", "accepted_with_findings", "rejected", "duplicate")))
    return summary


def _print_findings(out: Console, store: Store, noted: list[FileResult], lang: str) -> None:
    """Under each file stored with findings, its findings: id, then where and what."""
    from analytics.browse import upload_findings  # Polars, loaded once the files are stored

    found = upload_findings(store, [r.upload_id for r in noted if r.outcome == "accepted_with_findings"])
    by_upload = found.partition_by("upload_id", as_dict=True, maintain_order=True) if found.height else {}
    for result in noted:
        rows = by_upload.get((result.upload_id,))
        if rows is None:
            continue
        out.print(f"[bold]{escape(result.name)}[/bold]")
        for row in rows.iter_rows(named=True):
            colour = "red" if row["severity"] == "error" else "yellow"
            out.print(f"  {row['finding_id']} [{colour}]{escape(finding_words(row, lang))}[/{colour}]")


def _print_misseated(out: Console, store: Store, results: list[FileResult], lang: str) -> None:
    """Under each file stored whose game seats a player at another table than the
    published seating of its round: who, where seated, where played, and the finding
    id (the game is stored as played; the organiser decides)."""
    stored = [r for r in results if r.outcome in ("accepted", "accepted_with_findings")]
    games = [game for result in stored for game in result.game_ids]
    from analytics.standings import misseated  # Polars, loaded once the files are stored

    found = misseated(store, games=games) if games else None
    if found is None or found.is_empty():
        return
    heading = words(say("players at the wrong table"), lang)
    settle = words(say("(stored as played: re-seat, penalise or dismiss)"), lang)
    out.print(f"[bold]{escape(heading)}[/bold] {escape(settle)}")
    of_game: dict[str, list[tuple[int, dict[str, Any]]]] = {}  # each row once, by its game, in the frame's order
    for index, found_row in enumerate(found.iter_rows(named=True)):
        of_game.setdefault(str(found_row["game_id"]), []).append((index, found_row))
    shown: set[int] = set()  # the frame's rows printed, by index
    for result in stored:
        pairs = sorted(pair for game in result.game_ids for pair in of_game.get(game, ()))
        if not pairs or len(shown) >= MOST_MISSEATED:
            continue
        out.print(f"[bold]{escape(result.name)}[/bold]")
        for index, row in pairs[: MOST_MISSEATED - len(shown)]:
            shown.add(index)
            where = {"table": row["table"], "round": row["tournament_round"], "game": row["game_id"]}
            said = (
                say("seated at table %(table)s, but not in its game (round %(round)s, %(game)s)", **where)
                if row["kind"] == "missing"
                else say("in another game of round %(round)s too, at table %(table)s in this one (%(game)s)", **where)
                if row["kind"] == "twice"
                else say(
                    "not registered in the tournament (a mistyped id, or a player to register), but played at "
                    "table %(table)s (round %(round)s, %(game)s)",
                    **where,
                )
                if row["seated_table"] is None and not row["registered"]
                else say("not seated, but played at table %(table)s (round %(round)s, %(game)s)", **where)
                if row["seated_table"] is None
                else say(
                    "seated at table %(seated)s, but played at table %(table)s (round %(round)s, %(game)s)",
                    seated=row["seated_table"],
                    **where,
                )
            )
            what = f"{row['name']} ({row['player']}): {words(said, lang)}"
            out.print(f"  {row['finding_id']} [yellow]{escape(what)}[/yellow]")
    if len(shown) < found.height:  # the rest, a command for each tournament (files of several, in one run)
        tournaments = enumerate(found["tournament"].to_list())
        unshown = Counter(str(tournament) for index, tournament in tournaments if index not in shown)
        for tournament, count in sorted(unshown.items()):
            more = say(
                "and %(count)s more; saboteur findings %(tournament)s --open lists them all",
                "and %(count)s more; saboteur findings %(tournament)s --open lists them all",
                "count",
                count=count,
                tournament=tournament,
            )
            out.print(escape(words(more, lang)))


def _print_carried(out: Console, store: Store, results: list[FileResult], lang: str) -> None:
    """Under each game stored anew, what the tournament's record still counts on it: a
    correction or an accepted replay names a game and round, not the file it was made
    on (:mod:`analytics.carried`), so the organiser is told what stands, what finds its
    round no more, and which rounds as now counted are not what the rules give."""
    stored = [r for r in results if r.outcome in ("accepted", "accepted_with_findings")]
    from analytics.carried import carried_over, lines  # DuckDB's rows, read once the files are stored

    carried = carried_over(store, [r.upload_id for r in stored])
    if not carried:
        return
    heading = words(say("records still counted on the games stored anew"), lang)
    settle = words(
        say(
            "(a correction or an accepted replay names a game and a round, not its file: the newest decision on "
            "a round counts, so tournament correct or accept-replay changes one)"
        ),
        lang,
    )
    out.print(f"[bold]{escape(heading)}[/bold] {escape(settle)}")
    of_game: dict[str, list[Carried]] = {}
    for record in carried:
        of_game.setdefault(record.game_id, []).append(record)
    for result in stored:
        for game in result.game_ids:
            if game not in of_game:
                continue
            out.print(f"[bold]{escape(result.name)}[/bold] ({escape(game)})")
            for line, warned in lines(of_game[game]):
                text = escape(words(line, lang))
                out.print(f"  [yellow]{text}[/yellow]" if warned else f"  {text}")


@speaking
@with_store
def rebuild_command(store: Store) -> None:
    """Drop the read models and rebuild them from the events alone (a store of an older
    schema version is upgraded first)."""
    counts = rebuild_read_models(store)
    position = str(counts.pop("position"))
    tables = ", ".join(f"{table} {n}" for table, n in counts.items())  # the tables by their names in the store
    Console().print(told(say("rebuilt up to event %(position)s: %(tables)s", position=position, tables=tables)))


_HASH = re.compile(r"[0-9a-f]{64}")


def _expected(heads: list[str] | None) -> list[Anchor]:
    """``--expect-head`` values as anchors (either chain's hash may be given)."""
    anchors: list[Anchor] = []
    for head in heads or []:
        if not _HASH.fullmatch(head.lower()):
            said = say("%(given)s is not a SHA-256 (64 hex digits)", given=repr(head))
            raise typer.BadParameter(told(said), param_hint="--expect-head")
        anchors.append(Anchor(head.lower(), "--expect-head"))
    return anchors


def _checkpoints(files: list[Path] | None, key: Path | None) -> tuple[list[Anchor], list[Said]]:
    """Each checkpoint's heads as anchors, and a problem for each whose signature does
    not verify with ``key`` (its heads are then not used)."""
    if not files:
        return [], []
    if key is None:
        raise typer.BadParameter(
            told(say("a checkpoint is checked against the public key that signed it")), param_hint="--public-key"
        )
    public = checkpoint.public_key(key)
    anchors: list[Anchor] = []
    problems: list[Said] = []
    for path in files:
        published = checkpoint.read(path)
        if checkpoint.signed_by(published, public):
            # where the heads came from, as the report names it: in the command's language already
            source = told(say("checkpoint %(file)s", file=str(path)))
            anchors.extend(checkpoint.anchors(published, source))
        else:
            problems.append(
                say(
                    "checkpoint %(file)s: its signature does not verify with %(key)s: "
                    "it was altered or signed by another key",
                    file=str(path),
                    key=str(key),
                )
            )
    return anchors, problems


@speaking
@with_store
def verify_command(
    store: Store,
    chain_only: Annotated[
        bool, typer.Option("--chain-only/--no-chain-only", help="Check the hash chains, not the read models.")
    ] = False,
    expect_head: Annotated[
        list[str] | None,
        typer.Option(
            "--expect-head",
            metavar="HASH",
            help="A head published earlier (an event's or an upload's hash): the chain must still hold it. Repeatable.",
        ),
    ] = None,
    checkpoints: Annotated[
        list[Path] | None,
        typer.Option(
            "--checkpoint",
            metavar="FILE",
            help="A checkpoint (saboteur checkpoint publish): signed by --public-key, its heads still in the chain.",
        ),
    ] = None,
    public_key: Annotated[
        Path | None, typer.Option("--public-key", metavar="PEM", help="The organiser's public key.")
    ] = None,
) -> None:
    """Recompute the hash chains of the events and the uploads, check heads published
    earlier, and check the read models against the events.

    Prints both heads; exits 1 naming the first event or upload altered, removed or
    reordered, or a published head the chain no longer holds (docs/chain.md).
    """
    anchors, problems = _checkpoints(checkpoints, public_key)
    from ingest.verify import verify as verify_store  # Polars: the read models compared as frames

    verdict = verify_store(store, read_models=not chain_only, anchors=[*_expected(expect_head), *anchors])
    console = Console(soft_wrap=True)
    problems.extend(verdict.said)
    if not problems:
        heads = say(
            "%(events)s, chain head %(head)s; %(uploads)s, uploads head %(uploads_head)s",
            # counts, their thousands marked as the language marks them, their nouns its plural's
            events=counted.events(verdict.events),
            head=verdict.head,
            uploads=counted.uploads(verdict.uploads),
            uploads_head=verdict.uploads_head,
        )
        console.print(f"[green]{escape(told(say('ok')))}[/green]: {escape(told(heads))}")
        for found in verdict.anchored_said:
            console.print(f"  {escape(told(found))}")
        return
    for problem in problems:
        console.print(f"[red]{escape(told(problem))}[/red]")
    if verdict.said:
        console.print(told(say("checked %(events)s events before the first problem", events=str(verdict.events))))
    sys.stdout.flush()
    raise typer.Exit(1)
