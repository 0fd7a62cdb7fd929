"""The ``saboteur`` command's entry point: a Ctrl-C while Python is still loading the
command ends it quietly.

Loading the command line's modules takes a few tenths of a second; a Ctrl-C then (a
command typed by mistake, stopped at once) printed a ``KeyboardInterrupt`` traceback
through whatever module was being imported. Nothing has been done at that point, so the
command ends as a shell ends a command stopped with Ctrl-C: status 130, nothing said.
Once the command runs, it answers Ctrl-C itself (``saboteur ingest`` says what it
stored).
"""

from __future__ import annotations

import sys

STOPPED: int = 130
"""The exit status of a command stopped with Ctrl-C (128 + SIGINT), as shells give it."""


def main() -> None:
    """Load the command line and run it; status 130 for a Ctrl-C while loading."""
    try:
        from cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        raise SystemExit(STOPPED) from None
    run()
