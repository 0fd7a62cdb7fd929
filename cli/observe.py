"""``saboteur observe``: the observed log of a full one, what a referee at the table saw.

A thin shell over :func:`events.observe.observe`, the one contract between the two
recordings: the file is read with the log's own limits (16 MiB, gzip allowed), its first
line judged as the audit judges it, and the observed log written line for line.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path
from typing import Annotated

import typer

from cli.errors import refuse
from cli.paths import checked_output, output_path
from cli.speech import speaking, told
from events.logfile import UnreadableLog, parse_data, read_bytes
from events.observe import AlreadyObserved, observe
from events.replay import Replay
from events.said import say


def observed_log(path: Path) -> bytes:
    """The observed log of the full log at ``path``.

    Raises :class:`~events.logfile.UnreadableLog` for a file the audit could not read
    as a log (missing, over the limits, not gzip, empty, no valid ``game_started``
    first), and :class:`~events.observe.AlreadyObserved` for an observed log.
    """
    data = read_bytes(path)
    Replay().feed(next(parse_data(data)))  # the audit's verdict on the first line
    return observe(data)


@speaking
def observe_command(
    file: Annotated[Path, typer.Argument(help="A full log (.jsonl or .jsonl.gz).")],
    out: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Where to write the observed log (.jsonl.gz is compressed); stdout if left out.",
            parser=output_path,
        ),
    ] = None,
) -> None:
    """Write the observed log of a full log: what a referee at the table could see.

    The hands, the pile, the roles and goals dealt and the cards discarded or drawn are
    blanked; the goals revealed and the roles at each round's end are named. Every line
    keeps its number; a line that is no valid event stays malformed, with the same
    fields blanked and any field the format does not know emptied. Exit status 2 for a
    file that cannot be read as a log or that is already observed.
    """
    if out is not None:
        checked_output(out)
    try:
        observed = observed_log(file)
    except UnreadableLog as exc:
        raise refuse(f"{file}: {told(exc.said)}", 2) from None
    except AlreadyObserved:
        raise refuse(
            told(say("%(file)s: already an observed log: nothing hidden is left to blank", file=str(file))), 2
        ) from None
    if out is None:
        sys.stdout.buffer.write(observed)
        sys.stdout.flush()
        return
    try:
        out.write_bytes(gzip.compress(observed, mtime=0) if out.name.endswith(".gz") else observed)
    except OSError as exc:
        said = say(
            "%(file)s: cannot write the observed log: %(problem)s", file=str(out), problem=str(exc.strerror or exc)
        )
        raise refuse(told(said), 2) from None
