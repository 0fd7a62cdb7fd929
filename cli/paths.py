"""The paths a command is given to write to or read from, judged before anything is done.

An output (``-o``) is a file the command makes or replaces whole: pointed at the store,
it replaced every event, upload and byte the store held with a CSV, and the command
said it was done. So an output is refused, with the reason, before the command does
its work, when it is a DuckDB database (any store: this one or another), a folder, or
in a folder that does not exist; a write that fails all the same (a full disk) is
said in one line. An input path that is empty (``""``, what an unset shell variable
gives) is refused: read as the current folder, it stored every log under it for good.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import typer

from cli.errors import refuse
from cli.speech import told
from events.said import Said, say
from events.shown import safe_name

DUCKDB_MAGIC = b"DUCK"
"""What a DuckDB database file holds at bytes 8 to 12 (its header's magic)."""


def is_database(path: Path) -> bool:
    """Whether ``path`` is a DuckDB database file (a store, or any other). Only a
    regular file is opened: reading ``/dev/stdout`` or a FIFO would wait for input."""
    try:
        if not path.is_file():
            return False
        with path.open("rb") as file:
            head = file.read(12)
    except OSError:
        return False
    return head[8:12] == DUCKDB_MAGIC


def output_problem(path: Path, *, folder: bool = False) -> Said | None:
    """Why ``path`` cannot be written as a command's output (a file; with ``folder``, a
    folder to write files into), or ``None``."""
    if folder:
        if path.exists() and not path.is_dir():
            return say("%(path)s is a file, not a folder", path=str(path))
        return None
    if path.is_dir():
        return say("%(path)s is a folder: name a file to write", path=str(path))
    if is_database(path):
        return say("%(path)s is a DuckDB database (a store): an output never replaces one", path=str(path))
    parent = path.parent
    if not parent.is_dir():
        return say("cannot write %(path)s: the folder %(folder)s does not exist", path=str(path), folder=str(parent))
    return None


def checked_output(path: Path, *, folder: bool = False) -> Path:
    """``path``, or the command refused (exit 2) saying why it cannot be written."""
    problem = output_problem(path, folder=folder)
    if problem is not None:
        raise refuse(told(problem), 2)
    return path


def write_output(path: Path, write: Callable[[Path], object]) -> None:
    """Write the output with ``write``; a write that fails (a full disk, no right to it)
    said in one line (exit 2), not as a traceback."""
    try:
        write(path)
    except OSError as exc:
        said = say("cannot write %(path)s: %(problem)s", path=str(path), problem=exc.strerror or str(exc))
        raise refuse(told(said), 2) from None


def input_path(raw: str) -> Path:
    """A path argument as typed (Typer's ``parser``): an empty one refused, which a
    :class:`~pathlib.Path` would read as the current folder."""
    if not raw:
        raise typer.BadParameter(told(say("an empty path: name a file or a folder (. for the current one)")))
    return Path(raw)


def lake_url(raw: str) -> str:
    """A lake as typed (a folder or an fsspec URL; Typer's ``parser``): an empty one
    refused, which would be the current folder."""
    if not raw:
        raise typer.BadParameter(told(say("an empty lake: name its folder or URL")))
    shown = safe_name(raw)  # Click prints a usage error as it is: an escape sequence typed in it ran
    if any(sign in raw for sign in "[]*?"):  # a lake there was made once, and read by nothing after
        said = say("%(lake)s: a lake's path may not hold [ ] * or ?, which its readers take for patterns", lake=shown)
        raise typer.BadParameter(told(said))
    local = Path(raw.removeprefix("file://")) if "://" not in raw or raw.startswith("file://") else None
    if local is not None and local.exists() and not local.is_dir():
        raise typer.BadParameter(told(say("%(lake)s: a file, not a lake's folder", lake=shown)))
    return raw


def source(raw: str) -> str:
    """A file, folder or URL to read, as typed (Typer's ``parser``): an empty one refused."""
    return str(input_path(raw)) if "://" not in raw else raw


def output_path(raw: str) -> Path:
    """An output option as typed (Typer's ``parser``): an empty one refused, which a
    :class:`~pathlib.Path` would read as the current folder."""
    if not raw:
        raise typer.BadParameter(told(say("the output path is empty: name a file")))
    return Path(raw)
