"""One way the ``saboteur`` command reports a store or a key it cannot use: a line, exit 2.

Any command that opens the store may meet a file that is missing, not a store, of
another schema version, damaged or busy (:class:`~ingest.store.StoreError`), and the
commands that check or publish heads a key or checkpoint file that cannot be read
(:class:`~ingest.checkpoint.CheckpointError`). The root command group catches both for
every command, so none repeats the handling and no traceback reaches a terminal.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from ingest.checkpoint import CheckpointError
from ingest.store import StoreError


def refuse(message: str, code: int) -> typer.Exit:
    """Say ``message`` as one line on the standard error; the exit (``code``) to raise."""
    Console(stderr=True, soft_wrap=True, highlight=False).print(f"[red]{escape(message)}[/red]")
    return typer.Exit(code)


class ReportingGroup(TyperGroup):
    """The root command group: a store or a key that cannot be used ends any command
    with one line naming the file (exit 2)."""

    def invoke(self, ctx: Any) -> Any:  # Any: Typer's own click's Context, which it does not export
        try:
            return super().invoke(ctx)
        except (StoreError, CheckpointError) as exc:
            raise refuse(str(exc), 2) from None
