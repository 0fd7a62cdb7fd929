"""What goes wrong with the store, as exceptions whose ``str()`` is one line naming the
file and what is wrong, and DuckDB's own words for it made plain.

DuckDB says what went wrong in its own terms (a lock it could not set, a block whose
checksum fails, a path in full); a referee at a venue reads the store's words instead,
and a public page sees no path of the organiser's machine (:func:`detail`)."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import duckdb

from ingest.schema import READ_MODELS


class StoreError(RuntimeError):
    """The store could not do a job: ``str()`` is one line naming the file and what is
    wrong; ``problem`` says what is wrong without the file's path (for a public page)."""

    def __init__(self, path: Path, problem: str, line: str | None = None) -> None:
        super().__init__(line or f"{path}: {problem}")
        self.path = path
        self.problem = problem


class StoreUnusable(StoreError):
    """The file cannot serve as this program's store: there is no such file, it is not
    a DuckDB database, not a store, a store of another schema version, or damaged.
    Nothing was changed."""


class StoreBusy(StoreError):
    """Another process holds the database file for longer than we were willing to wait."""


class StaleAppend(RuntimeError):
    """A stream (or the uploads) moved on since its version was read (optimistic
    concurrency)."""


LOCKED: Final = re.compile(r"Could not set lock|Conflicting lock|same database file with a different configuration")
"""DuckDB's words for a file another process holds (not "block": damage names blocks),
or another thread of this one in the other mode (a dashboard page reading while the
recording page writes, in the same server): either lets go after its one job."""
REFUSED: Final = re.compile(r"No such file|Permission denied|Is a directory|No space left|Read-only file system")
"""DuckDB passing on the file system's refusal: not damage."""
DAMAGE: Final = (duckdb.IOException, duckdb.SerializationException, duckdb.InternalException, duckdb.FatalException)
"""What DuckDB raises reading a damaged file (a failed checksum is a plain ``duckdb.Error``)."""
INVALIDATED: Final = "database has been invalidated"
"""DuckDB's words after a commit it could not finish (out of its memory, say): it stops
every job of the process, but the file keeps every commit before (its write-ahead log
never took the failed one)."""
_PATH: Final = re.compile(r"(?:[A-Za-z]:)?[\\/][^\s'\"]*[\\/][^\s'\"]*")
"""A file system path with a folder in it: not for a page the public sees."""


def unopened(path: Path, exc: duckdb.Error) -> StoreUnusable:
    """What is wrong with a file DuckDB would not open."""
    text = str(exc)
    if "not a valid DuckDB database" in text or "Extension" in text:
        return StoreUnusable(path, "not a DuckDB database file")
    if isinstance(exc, duckdb.IOException) and REFUSED.search(text):
        return StoreUnusable(path, f"cannot be opened: {detail(path, exc)}")
    return StoreUnusable(path, damaged(detail(path, exc)))


def detail(path: Path, exc: duckdb.Error) -> str:
    """DuckDB's first line, with the file named by its name and no other path."""
    return _first_line(path, str(exc)) or type(exc).__name__


def _first_line(path: Path, text: str) -> str:
    """``text``'s first line, with the file named by its name and no other path."""
    first = (text.strip().splitlines() or [""])[0]
    for spelling in {str(path.resolve()), str(path)}:
        first = first.replace(spelling, path.name)
    return _PATH.sub("…", first)[:300]


def damaged(detail: str) -> str:
    """What a damaged file is, in words, with DuckDB's own."""
    if "Could not read enough bytes" in detail:
        return f"damaged: the file is cut short ({detail})"
    if "checksum" in detail:
        return f"damaged: a block of the file fails its checksum ({detail})"
    return f"damaged: {detail}"


def stopped(path: Path, exc: duckdb.Error) -> str:
    """What a commit DuckDB could not finish did, in words, with DuckDB's own reason (the
    first line of the error it stopped on, which it quotes after "Original error", with
    no path but the file's name: :func:`detail`)."""
    text = str(exc)
    original = _first_line(path, text.split("Original error:", 1)[-1].strip().strip('"'))
    said = (
        f"DuckDB stopped after a commit it could not finish ({original}); that commit was not stored, "
        "and the store keeps every one before it (saboteur verify checks it)"
    )
    if "memory" in text.lower() or "pin block" in text:
        limit = os.environ.get("SABOTEUR_DB_MEMORY")
        setting = f"$SABOTEUR_DB_MEMORY is {limit}" if limit else "$SABOTEUR_DB_MEMORY sets it"
        said += f". It ran out of the memory it may use ({setting}): allow it more and run again"
    return said


def missing(tables: Sequence[str]) -> str:
    """What a store missing ``tables`` is, and what mends it."""
    names = ", ".join(tables)
    said = f"damaged: its {names} table{' is' if len(tables) == 1 else 's are'} missing"
    if set(tables) <= set(READ_MODELS):
        return f"{said} (saboteur rebuild makes the read models anew)"
    return f"{said} (restore the file from a copy)"
