"""``saboteur archive build|export|verify|simulate``: the archive as a Parquet lake,
built on a Dask cluster.

A thin shell over :mod:`ingest.lake`: it starts or joins the cluster, prints the Dask
dashboard's address, shows the batches' progress and says what was written.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Final

import typer
from rich.markup import escape
from rich.progress import ProgressColumn, Task
from rich.text import Text

from cli import counted
from cli.errors import refuse
from cli.options import with_store
from cli.output import Terminal as Console
from cli.output import file_progress
from cli.paths import lake_url, source
from cli.simulate import BotsOption, lineup, rounds_allowed
from cli.speech import one_of, speaking, spoken, told
from events.language import number_words, words
from events.said import say, sentence
from events.tables import PLAYER_RANGE, ROUND_LIMIT
from ingest.lake.build import BATCH_BYTES, Done, SchedulerUnreachable, build, cluster, cut, listing, run
from ingest.lake.compact import TARGET_BYTES, PartUnreadable, compact
from ingest.lake.export import LakeNotEmpty, export
from ingest.lake.layout import Lake, require_folders
from ingest.lake.lock import LakeBusy, holding
from ingest.lake.manifest import Entry, committed, require_lake
from ingest.lake.simulate import BATCH_GAMES, run_simulation, simulations
from ingest.lake.upgrade import up_to_date
from ingest.lake.verify import verify
from ingest.store import Store, ctrl_c_noted

if TYPE_CHECKING:
    from distributed import Client

app = typer.Typer(help="The archive as a Parquet lake, built on a Dask cluster.", no_args_is_help=True)

LakeOption = Annotated[
    str, typer.Option("--to", help="The lake: a folder or an fsspec URL (s3://bucket/lake).", parser=lake_url)
]
SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", help="An existing Dask cluster's scheduler (tcp://host:8786); default: a local one."),
]
WorkersOption = Annotated[int, typer.Option("--workers", min=1, help="Worker processes of the local cluster.")]


class _Events(ProgressColumn):
    """The events written so far (the task's ``events``), in the command's language:
    taken when the bar is made, for rich draws it from a thread of its own, which does
    not see the command's."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = spoken()

    def render(self, task: Task) -> Text:
        events = int(task.fields.get("events", 0))
        return Text(words(counted.events(events)[0], self.lang))


def _on_cluster(
    title: str,
    files: int,
    work: Callable[[Client, Callable[[Done], None]], list[Done]],
    scheduler: str | None,
    workers: int,
    console: Console,
) -> list[Done]:
    """The work done on the cluster, a progress bar of ``files`` files beside it."""
    with cluster(scheduler, workers) as client:
        console.print(escape(told(say("Dask dashboard: %(address)s", address=str(client.dashboard_link)))))
        progress = file_progress(told(say(title)), console, _Events())
        with progress:
            task_id = progress.add_task(told(say("files")), total=files, events=0)

            def on_done(done: Done) -> None:
                progress.update(task_id, advance=done.files, events=progress.tasks[0].fields["events"] + done.events)

            return work(client, on_done)


def _run(
    title: str,
    lake: str,
    files: int,
    work: Callable[[Client, Callable[[Done], None]], list[Done]],
    scheduler: str | None,
    workers: int,
) -> list[Done]:
    """Do the work on the cluster with a progress bar of ``files`` files; what each
    batch did. ``title`` names the work on the bar: an English word marked with
    :func:`~events.said.sentence`, said in the command's language."""
    console = Console(stderr=True, highlight=False)
    started = time.perf_counter()
    try:
        with ctrl_c_noted():  # a Ctrl-C that Python swallowed in a destructor still stops it
            results = _on_cluster(title, files, work, scheduler, workers, console)
    except SchedulerUnreachable as exc:
        raise refuse(told(exc.said), 2) from None
    except KeyboardInterrupt:  # its workers leave Ctrl-C to it (ingest.lake.quiet): one line, as ingest's
        said = say(
            "%(lake)s: stopped (Ctrl-C); every batch committed stands, the batches being written are not "
            "read (archive verify names their parts), and the same command run again adds the rest",
            lake=lake,
        )
        raise refuse(told(said), 130) from None
    elapsed = time.perf_counter() - started
    written = [r for r in results if not r.skipped]
    events = sum(r.events for r in written)
    rated = elapsed > 0 and events > 0
    said = say(
        "%(lake)s: %(batches)s written (%(files)s, %(games)s, %(events)s), "
        "%(before)s already committed; %(seconds)s s, %(rate)s events/s"
        if rated
        else "%(lake)s: %(batches)s written (%(files)s, %(games)s, %(events)s), "
        "%(before)s already committed; %(seconds)s s",
        lake=lake,
        batches=counted.batches(len(written)),
        files=counted.files(sum(r.files for r in written)),
        games=counted.games(sum(r.games for r in written)),
        events=counted.events(events),
        before=len(results) - len(written),
        seconds=number_words(elapsed, spoken(), digits=1),  # "3,2 s" in Dutch
        rate=round(events / elapsed) if rated else 0,
    )
    Console(highlight=False).print(escape(told(said)))
    return results


def _entries(to: str) -> dict[str, Entry]:
    """The lake's committed batches as a build reads them: those written before the
    manifest named each file's streams brought up to date first (:mod:`ingest.lake.upgrade`)."""
    lake = Lake.at(to)
    entries, renewed = up_to_date(lake, committed(lake))
    if renewed:
        said = say(
            "%(count)s batch written before the manifest named each file's streams: brought up to date from "
            "its own events (its rows and parts are unchanged)",
            "%(count)s batches written before the manifest named each file's streams: brought up to date from "
            "their own events (their rows and parts are unchanged)",
            "count",
            count=renewed,
        )
        Console(stderr=True, highlight=False).print(escape(told(said)))
    return entries


@contextmanager
def _locked(to: str, command: str) -> Iterator[str]:
    """The lake's lock held for the block (:mod:`ingest.lake.lock`), its token given to
    the block for each commit to check; a lake another run is writing is refused, saying
    who and since when, and a run whose lock was taken over while it was stopped ends
    (exit 2, as ``ingest`` says a busy store: 1 is a file rejected)."""
    lake = Lake.at(to)
    require_folders(lake)  # a file in a folder's place: refused before the lock or any part is written
    try:
        with holding(lake, command) as holder:
            yield holder.token
    except LakeBusy as busy:
        raise refuse(told(busy.said), 2) from None


OUTCOMES = ("accepted", "accepted_with_findings", "rejected", "duplicate")

"""The outcomes a file can have, in the order ``saboteur ingest`` counts them."""


def _outcomes(results: Sequence[Done]) -> Counter[str]:
    """How many files this run audited had each outcome (batches committed before are
    not audited again: they count as already committed)."""
    return Counter(outcome for result in results for outcome in result.outcomes)


@app.command("build")
@speaking
def build_command(
    sources: Annotated[
        list[str], typer.Argument(help="Files or folders, local or fsspec URLs (s3://bucket/logs/).", parser=source)
    ],
    to: LakeOption,
    scheduler: SchedulerOption = None,
    workers: WorkersOption = 2,
    batch_files: Annotated[int, typer.Option("--batch-files", min=1, help="Files in a batch (a task).")] = 64,
    batch_mib: Annotated[
        int,
        typer.Option(
            "--batch-mib",
            min=1,
            help="MiB of files in a batch, at most (a larger file is a batch alone): a worker holds a batch's "
            "events in memory while it writes them.",
        ),
    ] = BATCH_BYTES // 2**20,
) -> None:
    """Audit files into the lake as Dask tasks, a batch at a time; a batch committed
    before is skipped.

    Exit status 0, or 1 if any file audited was rejected, 2 when the lake is busy or
    cannot be used (as `saboteur ingest`), 130 when stopped with Ctrl-C (the batches
    committed stand).
    """
    cuts = cut(listing(sources), batch_files, batch_mib * 2**20)  # the listing read once, not held
    if not cuts.files:
        raise refuse(told(say("no files found (looked for .jsonl, .jsonl.gz, .csv and .json)")), 1)
    with _locked(to, "archive build") as lock:  # numbered from the lake as it stands: no other run may add meanwhile
        entries = _entries(to)
        batches = cuts.batches(listing(sources), datetime.now(UTC), entries)  # read again as the build takes them

        def work(client: Client, on_done: Callable[[Done], None]) -> list[Done]:
            return build(client, to, batches, entries, on_done, lock)

        results = _run(sentence("archive"), to, cuts.files, work, scheduler, workers)
    counts = _outcomes(results)
    _say_rejected(results)
    said = say(
        "%(accepted)s accepted, %(findings)s accepted with findings, %(rejected)s rejected, %(duplicate)s duplicate",
        accepted=counts["accepted"],
        findings=counts["accepted_with_findings"],
        rejected=counts["rejected"],
        duplicate=counts["duplicate"],
    )
    Console(highlight=False).print(escape(told(said)))
    raise typer.Exit(1 if counts["rejected"] else 0)


SHOWN_REJECTED: Final = 20
"""Rejected files a build names with their reasons; the rest it counts (an archive's
build may reject thousands)."""


def _say_rejected(results: Sequence[Done]) -> None:
    """Name each file a build rejected, with why, as ``ingest`` does (the first
    :data:`SHOWN_REJECTED`; the rest counted)."""
    rejected = [pair for done in results for pair in done.rejected]
    out = Console(highlight=False, soft_wrap=True, stderr=True)
    for name, why in rejected[:SHOWN_REJECTED]:
        out.print(f"[red]{escape(told(say('rejected %(file)s: %(why)s', file=name, why=(why,))))}[/red]")
    if len(rejected) > SHOWN_REJECTED:
        more = say("…and %(count)s more rejected", count=len(rejected) - SHOWN_REJECTED)
        out.print(f"[red]{escape(told(more))}[/red]")


@app.command("simulate")
@speaking
def simulate_command(
    games: Annotated[int, typer.Option("--games", min=1, help="Games to simulate.")],
    to: LakeOption,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same command writes the same lake.")] = 1,
    ruleset: Annotated[str, typer.Option("--ruleset", help="tournament or base.")] = "tournament",
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds in each game.")] = 3,
    batch_games: Annotated[int, typer.Option("--batch-games", min=1, help="Games in a batch (a task).")] = BATCH_GAMES,
    scheduler: SchedulerOption = None,
    workers: WorkersOption = 2,
    bots: BotsOption = "basic",
) -> None:
    """Simulate games into the lake as Dask tasks, for balance studies; each table size
    of the ruleset takes its turn."""
    chosen = lineup(bots)
    if ruleset not in PLAYER_RANGE:
        raise typer.BadParameter(one_of(*PLAYER_RANGE), param_hint="--ruleset")
    if rounds > ROUND_LIMIT[ruleset]:
        raise typer.BadParameter(told(rounds_allowed(ruleset)), param_hint="--rounds")
    with _locked(to, "archive simulate") as lock:
        entries = _entries(to)  # upload numbers the lake holds already are not taken again
        planned = simulations(
            games, seed=seed, ruleset=ruleset, rounds=rounds, batch_games=batch_games, bots=chosen, entries=entries
        )
        jobs = [replace(job, lock=lock) for job in planned]

        def work(client: Client, on_done: Callable[[Done], None]) -> list[Done]:
            return run(client, to, jobs, run_simulation, on_done)

        _run(sentence("simulate"), to, games, work, scheduler, workers)


@app.command("export")
@speaking
@with_store
def export_command(to: LakeOption, store: Store) -> None:
    """Write a store's events and read models into the lake, with its chain head."""
    with _locked(to, "archive export"):
        try:
            entry = export(store, Lake.at(to))
        except LakeNotEmpty as exc:
            raise refuse(f"{to}: {told(exc.said)}", 1) from None
    said = say(
        "%(lake)s: %(events)s and %(uploads)s of %(store)s, head %(position)s %(head)s",
        lake=to,
        events=counted.events(entry.events),
        uploads=counted.uploads(len(entry.files)),
        store=str(store.path),
        position=str(entry.head_position),
        head=entry.head_hash,
    )
    Console(highlight=False).print(escape(told(said)))


@app.command("compact")
@speaking
def compact_command(
    lake: Annotated[str, typer.Argument(help="The lake: a folder or an fsspec URL.", parser=lake_url)],
    target_mib: Annotated[
        int, typer.Option("--target-mib", min=1, help="About how large a compacted file grows, in MiB.")
    ] = TARGET_BYTES // (1024 * 1024),
) -> None:
    """Rewrite the small parts of the committed batches into a few large files with the
    same rows; readers switch to them at once, `archive verify` checks every batch as
    before, and the small parts are removed."""
    require_lake(Lake.at(lake), lake)
    with _locked(lake, "archive compact"):
        try:
            done = compact(Lake.at(lake), target_bytes=target_mib * 1024 * 1024)
        except PartUnreadable as broken:
            said = say(
                "%(part)s is not the part its batch's entry names: nothing was compacted; "
                "saboteur archive verify says what is wrong",
                part=str(broken),
            )
            raise refuse(told(said), 1) from None
    said = say(
        "%(lake)s: %(parts)s (%(rows)s) compacted into %(files)s; %(removed)s",
        lake=lake,
        parts=counted.parts(done.parts),
        rows=counted.rows_of_data(done.rows),
        files=counted.files(done.files),
        removed=(say("%(count)s small part removed", "%(count)s small parts removed", "count", count=done.removed),),
    )
    Console(highlight=False).print(escape(told(said)))


@app.command("verify")
@speaking
def verify_command(
    lake: Annotated[str, typer.Argument(help="The lake: a folder or an fsspec URL.", parser=lake_url)],
) -> None:
    """Check every committed batch against its manifest entry. Exit status 0 when all
    is well, 1 when anything is wrong, 2 when the lake or one of its records cannot be
    read."""
    require_lake(Lake.at(lake), lake)
    verdict = verify(Lake.at(lake))
    out = Console(highlight=False, soft_wrap=True)
    for problem in verdict.said:
        out.print(f"[red]{escape(told(problem))}[/red]")
    if verdict.uncommitted:
        unread = say(
            "%(count)s part no batch commits (a build or a compaction cut short): unread",
            "%(count)s parts no batch commits (a build or a compaction cut short): unread",
            "count",
            count=len(verdict.uncommitted),
        )
        out.print(f"[yellow]{escape(told(unread))}[/yellow]")
    if verdict.ok:
        status = f"[green]{escape(told(say('ok')))}[/green]"
    else:
        problems = say("%(count)s problem", "%(count)s problems", "count", count=len(verdict.said))
        status = f"[red]{escape(told(problems))}[/red]"
    held = say(
        "%(lake)s: %(batches)s, %(parts)s, %(games)s, %(events)s",
        lake=lake,
        batches=counted.batches(verdict.batches),
        parts=counted.parts(verdict.parts),
        games=counted.games(verdict.games),
        events=counted.events(verdict.events),
    )
    out.print(f"{escape(told(held))}: {status}")
    raise typer.Exit(0 if verdict.ok else 1)
