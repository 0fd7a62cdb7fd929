"""One way the ``saboteur`` command reports a store or a key it cannot use: a line, exit 2.

Any command that opens the store may meet a file that is missing, not a store, of
another schema version, damaged or busy (:class:`~ingest.store.StoreError`), and the
commands that check or publish heads a key or checkpoint file that cannot be read
(:class:`~ingest.checkpoint.CheckpointError`). The root command group catches both for
every command, so none repeats the handling and no traceback reaches a terminal.
"""

from __future__ import annotations

import sys
from typing import Any, Final

import typer
from rich.markup import escape

from cli.lazy import LazyGroup
from cli.output import Terminal as Console

REFUSED: Final = (
    ("ingest.store", "StoreError"),
    ("ingest.checkpoint", "CheckpointError"),
    ("ingest.lake.layout", "Unusable"),  # a lake, or a source's URL, that cannot be used or read
)
"""The errors said as one line, by where they are defined: a command that raised one
has imported its module, and one that did not need the store never loads it here."""


def refuse(message: str, code: int) -> typer.Exit:
    """Say ``message`` as one line on the standard error; the exit (``code``) to raise."""
    Console(stderr=True, soft_wrap=True, highlight=False).print(f"[red]{escape(message)}[/red]")
    return typer.Exit(code)


def refused(exc: BaseException) -> bool:
    """Whether ``exc`` is a store or a key that cannot be used (:data:`REFUSED`)."""
    for module, name in REFUSED:
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(exc, getattr(loaded, name)):
            return True
    return False


def refusal(exc: BaseException) -> typer.Exit:
    """The one line (exit 2) of a store or a key that cannot be used (:func:`refused`),
    in the running command's language where the error holds a sentence."""
    said = getattr(exc, "line_said", None) or getattr(exc, "said", None)
    if said is not None:  # a store's error: said in the command's language
        from cli.speech import told

        return refuse(told(said), 2)
    return refuse(str(exc), 2)


class ReportingGroup(LazyGroup):
    """The root command group: a store or a key that cannot be used ends any command
    with one line naming the file (exit 2)."""

    def invoke(self, ctx: Any) -> Any:  # Any: Typer's own click's Context, which it does not export
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise  # the reader of the output went away (``| head``): nothing to say to it
        except OSError as exc:  # a file or folder the system refuses (permissions, a file for a folder)
            raise refuse(_system_said(exc), 2) from None
        except Exception as exc:
            if refused(exc):  # of a command that speaks no language of its own (see cli.speech.speaking)
                raise refusal(exc) from None
            raise


def _system_said(exc: OSError) -> str:
    """What the operating system refused, with the file it names, as one line: a lake's
    folder that is read-only, a manifest no one may read, a file where a folder must be.
    (Its words are the system's own, in the command's language where the catalogue has
    them: :data:`events.language.SYSTEM_PROBLEMS`.)"""
    from cli.speech import told
    from events.said import problem, say

    why = str(exc.strerror or exc)
    return told(
        problem(why) if exc.filename is None else say("%(file)s: %(problem)s", file=str(exc.filename), problem=why)
    )
